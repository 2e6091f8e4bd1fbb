/* Ordinary least squares by Householder QR, for fitting the regression
 * coefficients the papers fit (HSM c1/c2, Huang & Li's T_overlap ratio). */
#ifndef HMS_RUNTIME_LSQ_H
#define HMS_RUNTIME_LSQ_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    double r2;       /* 1 - SS_res / SS_tot (SS_tot about the mean of y); 1 when y is constant
                        and fitted exactly */
    double rms;      /* root mean square residual */
    size_t rank_col; /* on a rank failure: the first column that adds nothing */
} hms_lsq_fit;

/* Minimises |X beta - y| over beta[p], X row-major n x p (n >= p >= 1).
 * residual[n], if not NULL, receives y - X beta. False with a reason in err
 * when n < p or a column is (numerically) a combination of earlier ones;
 * fit->rank_col then names it. */
bool hms_lsq_solve(const double *X, const double *y, size_t n, size_t p, double *beta,
                   double *residual, hms_lsq_fit *fit, char *err, size_t errlen);

#endif
