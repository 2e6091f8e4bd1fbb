/* The analysis budgets at a scale (passes/analysis_budget.h). */
#include "passes/analysis_budget.h"

static uint64_t scaled(uint64_t v, double scale)
{
    double x = (double)v * scale;
    return x < 1 ? 1 : (uint64_t)(x + 0.5);
}

hms_analysis_budget hms_analysis_budget_scaled(double scale)
{
    if (!(scale > 0))
        scale = 1;
    hms_analysis_budget b = {scaled(HMS_BUDGET_BLOCKS, scale), scaled(HMS_BUDGET_RECORDS, scale),
                             scaled(HMS_BUDGET_LINES, scale),
                             scaled(HMS_BUDGET_PLACEMENT_LINES, scale),
                             HMS_BUDGET_STOP_TOLERANCE / scale};
    return b;
}
