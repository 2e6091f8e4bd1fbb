/* The two regressions the seed papers fit, from a table of measured runs:
 *   HSM (seeds/004, eqs. 3/5, Fig. 3): bw_util = c1 * rbh + c2
 *   Huang & Li (seeds/000, eq. 11):    overlap_ratio = g e_global + c e_const
 *       + t e_tex + s e_shared + r_miss e_row_miss + r_conflict e_row_conflict
 *       + w warps + intercept
 * with overlap_ratio = (t_comp + t_mem - time_cycles) / t_mem when the table
 * gives the model's T_comp and T_mem and the measured time instead. */
#ifndef HMS_ANALYZER_CALIBRATE_FIT_H
#define HMS_ANALYZER_CALIBRATE_FIT_H

#include <stdbool.h>
#include <stddef.h>

#include "runtime/file_error.h"

#include "analyzer/cli/calibrate_table.h"
#include "runtime/arch.h"

#define HMS_CAL_MAX_COEFFS HMS_OVERLAP_COUNT
#define HMS_CAL_WORST 3

typedef struct {
    bool attempted; /* the table has the columns this fit needs */
    size_t ncoeffs; /* coefficients of the model */
    double coeff[HMS_CAL_MAX_COEFFS];
    bool fitted[HMS_CAL_MAX_COEFFS]; /* false: its input is 0 in every run; left unchanged */
    const char *names[HMS_CAL_MAX_COEFFS];
    size_t nruns;
    double r2, rms;
    size_t worst[HMS_CAL_WORST]; /* run indices, largest |residual| first */
    double worst_residual[HMS_CAL_WORST];
    size_t nworst;
} hms_cal_fit;

/* Fit HSM c1/c2. b_max_gbs: the arch's theoretical DRAM bandwidth (to turn
 * dram_bytes / time into bw_util); clock_ghz to turn time_cycles into time.
 * Not attempted (true, fit->attempted false) when the table has no rbh
 * column. False with the file, line and reason in err for a run missing a value, a value
 * out of range (utilisation above the theoretical peak) or too few runs. */
bool hms_cal_fit_hsm(const hms_cal_table *t, double b_max_gbs, double clock_ghz, hms_cal_fit *fit,
                     hms_file_error *err);

/* Fit the T_overlap ratio coefficients, in HMS_OVERLAP_* order. Not
 * attempted when the table has none of the e_* / warps columns; an error
 * when it has some but not all. */
bool hms_cal_fit_overlap(const hms_cal_table *t, hms_cal_fit *fit, hms_file_error *err);

#endif
