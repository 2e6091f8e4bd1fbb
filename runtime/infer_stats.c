/* Robust statistics for the probe's inference: medians and thresholds. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/infer.h"

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

double hms_infer_median(const double *v, size_t n)
{
    if (n == 0)
        return NAN;
    double *s = malloc(n * sizeof *s);
    if (!s)
        return NAN;
    memcpy(s, v, n * sizeof *s);
    qsort(s, n, sizeof *s, cmp_double);
    double m = n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
    free(s);
    return m;
}

double hms_infer_threshold(const double *lo, size_t nlo, const double *hi, size_t nhi)
{
    return 0.5 * (hms_infer_median(lo, nlo) + hms_infer_median(hi, nhi));
}
