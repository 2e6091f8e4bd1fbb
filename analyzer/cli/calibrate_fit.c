/* Least-squares fits of HSM c1/c2 and Huang & Li's T_overlap ratio
 * coefficients (see calibrate_fit.h). */
#include "analyzer/cli/calibrate_fit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/lsq.h"

/* Utilisation above the theoretical peak by more than this is a wrong
 * architecture or unit, not noise. */
#define BW_UTIL_SLACK 1.02

/* Solves with the columns whose input is not 0 in every run; the others keep
 * fitted[j] = false. x is n x p row-major. */
static bool solve(const hms_cal_table *t, const size_t *rows, size_t n, const double *x,
                  const double *y, size_t p, const char *what, hms_cal_fit *fit,
                  hms_file_error *err)
{
    size_t keep[HMS_CAL_MAX_COEFFS], q = 0;
    for (size_t j = 0; j < p; j++) {
        bool nonzero = false;
        for (size_t i = 0; i < n && !nonzero; i++)
            nonzero = x[i * p + j] != 0;
        if (nonzero)
            keep[q++] = j;
    }
    if (n < q || q == 0) {
        hms_file_error_set(err, t->path, 0, 0,
                           "%zu run%s for the %zu coefficients of the %s fit: need at least %zu", n,
                           n == 1 ? "" : "s", q, what, q ? q : 1);
        return false;
    }
    double *xr = malloc(n * q * sizeof *xr), *res = malloc(n * sizeof *res);
    double beta[HMS_CAL_MAX_COEFFS];
    hms_lsq_fit lf;
    char lerr[200];
    bool ok = xr && res;
    for (size_t i = 0; ok && i < n; i++)
        for (size_t k = 0; k < q; k++)
            xr[i * q + k] = x[i * p + keep[k]];
    if (!ok)
        hms_file_error_set(err, t->path, 0, 0, "out of memory");
    else if (!(ok = hms_lsq_solve(xr, y, n, q, beta, res, &lf, lerr, sizeof lerr)))
        hms_file_error_set(err, t->path, 0, 0,
                           "the %s fit cannot separate '%s' from the other inputs: vary it "
                           "independently across runs",
                           what, fit->names[keep[lf.rank_col < q ? lf.rank_col : 0]]);
    if (ok) {
        fit->nruns = n;
        fit->r2 = lf.r2;
        fit->rms = lf.rms;
        for (size_t k = 0; k < q; k++) {
            fit->coeff[keep[k]] = beta[k];
            fit->fitted[keep[k]] = true;
        }
        /* the worst-fitting runs */
        for (size_t w = 0; w < HMS_CAL_WORST && w < n; w++) {
            size_t best = SIZE_MAX;
            for (size_t i = 0; i < n; i++) {
                bool taken = false;
                for (size_t v = 0; v < w; v++)
                    taken |= fit->worst[v] == rows[i];
                if (!taken && (best == SIZE_MAX || fabs(res[i]) > fabs(res[best])))
                    best = i;
            }
            fit->worst[w] = rows[best];
            fit->worst_residual[w] = res[best];
            fit->nworst = w + 1;
        }
    }
    free(xr);
    free(res);
    return ok;
}

static bool need(const hms_cal_table *t, const hms_cal_run *r, hms_cal_col c, const char *what,
                 hms_file_error *err)
{
    if (r->has[c])
        return true;
    hms_file_error_set(err, t->path, r->line, 0, "the %s fit needs a value in column '%s'", what,
                       hms_cal_col_name(c));
    return false;
}

bool hms_cal_fit_hsm(const hms_cal_table *t, double b_max_gbs, double clock_ghz, hms_cal_fit *fit,
                     hms_file_error *err)
{
    memset(fit, 0, sizeof *fit);
    fit->ncoeffs = 2;
    fit->names[0] = "c1";
    fit->names[1] = "c2";
    if (!t->col[HMS_CAL_RBH])
        return true;
    fit->attempted = true;
    bool direct = t->col[HMS_CAL_BW_UTIL];
    bool timed = t->col[HMS_CAL_TIME_S] || t->col[HMS_CAL_TIME_CYCLES];
    if (!direct && !(t->col[HMS_CAL_DRAM_BYTES] && timed)) {
        hms_file_error_set(err, t->path, 0, 0,
                           "missing columns for the HSM fit: it needs rbh and either bw_util, or "
                           "dram_bytes with time_s (or time_ns, or time_cycles)");
        return false;
    }
    size_t n = t->nruns;
    double *x = calloc(n ? 2 * n : 1, sizeof *x), *y = calloc(n ? n : 1, sizeof *y);
    size_t *rows = calloc(n ? n : 1, sizeof *rows);
    bool ok = x && y && rows;
    if (!ok)
        hms_file_error_set(err, t->path, 0, 0, "out of memory");
    for (size_t i = 0; ok && i < n; i++) {
        const hms_cal_run *r = &t->run[i];
        ok = need(t, r, HMS_CAL_RBH, "HSM", err);
        double u = 0;
        if (ok && direct)
            ok = need(t, r, HMS_CAL_BW_UTIL, "HSM", err) && ((u = r->v[HMS_CAL_BW_UTIL]), 1);
        else if (ok) {
            double secs = r->has[HMS_CAL_TIME_S] ? r->v[HMS_CAL_TIME_S]
                          : r->has[HMS_CAL_TIME_CYCLES]
                              ? r->v[HMS_CAL_TIME_CYCLES] / (clock_ghz * 1e9)
                              : 0;
            ok = need(t, r, HMS_CAL_DRAM_BYTES, "HSM", err);
            if (ok && !(secs > 0)) {
                hms_file_error_set(err, t->path, r->line, 0,
                                   "the HSM fit needs a positive kernel time");
                ok = false;
            }
            if (ok)
                u = r->v[HMS_CAL_DRAM_BYTES] / secs / (b_max_gbs * 1e9);
        }
        double rbh = r->v[HMS_CAL_RBH];
        if (ok && !(rbh >= 0 && rbh <= 1)) {
            hms_file_error_set(err, t->path, r->line, 0, "rbh %g is not a hit rate between 0 and 1",
                               rbh);
            ok = false;
        }
        if (ok && !(u >= 0 && u <= BW_UTIL_SLACK)) {
            hms_file_error_set(err, t->path, r->line, 0,
                               "bandwidth utilisation %.3g is above the theoretical peak (%.0f "
                               "GB/s): wrong --arch or wrong units",
                               u, b_max_gbs);
            ok = false;
        }
        if (ok) {
            x[2 * i] = rbh;
            x[2 * i + 1] = 1;
            y[i] = u;
            rows[i] = i;
        }
    }
    ok = ok && solve(t, rows, n, x, y, 2, "HSM", fit, err);
    free(x);
    free(y);
    free(rows);
    return ok;
}

bool hms_cal_fit_overlap(const hms_cal_table *t, hms_cal_fit *fit, hms_file_error *err)
{
    static const hms_cal_col inputs[HMS_OVERLAP_COUNT - 1] = {
        HMS_CAL_E_GLOBAL,   HMS_CAL_E_CONST,        HMS_CAL_E_TEX, HMS_CAL_E_SHARED,
        HMS_CAL_E_ROW_MISS, HMS_CAL_E_ROW_CONFLICT, HMS_CAL_WARPS};
    static const char *const names[HMS_OVERLAP_COUNT] = {"global", "constant", "texture",
                                                         "shared", "row_miss", "row_conflict",
                                                         "warps",  "intercept"};
    memset(fit, 0, sizeof *fit);
    fit->ncoeffs = HMS_OVERLAP_COUNT;
    for (int j = 0; j < HMS_OVERLAP_COUNT; j++)
        fit->names[j] = names[j];
    size_t present = 0;
    for (int j = 0; j < HMS_OVERLAP_COUNT - 1; j++)
        present += t->col[inputs[j]];
    if (present == 0 || (present == 1 && t->col[HMS_CAL_WARPS] && !t->col[HMS_CAL_OVERLAP_RATIO] &&
                         !t->col[HMS_CAL_T_MEM]))
        return true; /* no overlap inputs (a lone warps column is only for HSM) */
    fit->attempted = true;
    for (int j = 0; j < HMS_OVERLAP_COUNT - 1; j++)
        if (!t->col[inputs[j]]) {
            hms_file_error_set(err, t->path, 0, 0,
                               "missing column '%s': the overlap fit needs e_global, e_const, "
                               "e_tex, e_shared, e_row_miss, e_row_conflict and warps",
                               hms_cal_col_name(inputs[j]));
            return false;
        }
    bool direct = t->col[HMS_CAL_OVERLAP_RATIO];
    if (!direct &&
        !(t->col[HMS_CAL_T_COMP] && t->col[HMS_CAL_T_MEM] && t->col[HMS_CAL_TIME_CYCLES])) {
        hms_file_error_set(err, t->path, 0, 0,
                           "missing columns for the overlap fit: it needs overlap_ratio, or "
                           "t_comp, t_mem and time_cycles");
        return false;
    }
    const size_t p = HMS_OVERLAP_COUNT, n = t->nruns;
    double *x = calloc(n ? n * p : 1, sizeof *x), *y = calloc(n ? n : 1, sizeof *y);
    size_t *rows = calloc(n ? n : 1, sizeof *rows);
    bool ok = x && y && rows;
    if (!ok)
        hms_file_error_set(err, t->path, 0, 0, "out of memory");
    for (size_t i = 0; ok && i < n; i++) {
        const hms_cal_run *r = &t->run[i];
        for (int j = 0; ok && j < HMS_OVERLAP_COUNT - 1; j++) {
            ok = need(t, r, inputs[j], "overlap", err);
            x[i * p + j] = r->v[inputs[j]];
        }
        x[i * p + HMS_OVERLAP_INTERCEPT] = 1;
        if (ok && direct) {
            ok = need(t, r, HMS_CAL_OVERLAP_RATIO, "overlap", err);
            y[i] = r->v[HMS_CAL_OVERLAP_RATIO];
        } else if (ok) {
            ok = need(t, r, HMS_CAL_T_COMP, "overlap", err) &&
                 need(t, r, HMS_CAL_T_MEM, "overlap", err) &&
                 need(t, r, HMS_CAL_TIME_CYCLES, "overlap", err);
            if (ok && !(r->v[HMS_CAL_T_MEM] > 0)) {
                hms_file_error_set(err, t->path, r->line, 0, "t_mem must be positive");
                ok = false;
            }
            if (ok)
                y[i] = (r->v[HMS_CAL_T_COMP] + r->v[HMS_CAL_T_MEM] - r->v[HMS_CAL_TIME_CYCLES]) /
                       r->v[HMS_CAL_T_MEM];
        }
        rows[i] = i;
    }
    ok = ok && solve(t, rows, n, x, y, p, "overlap", fit, err);
    free(x);
    free(y);
    free(rows);
    return ok;
}
