/* Householder QR least squares (Golub & Van Loan, Algorithm 5.3.2): stable
 * where the normal equations square the condition number. */
#include "runtime/lsq.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Relative size below which a diagonal entry of R means a dependent column. */
#define RANK_TOL 1e-10

bool hms_lsq_solve(const double *X, const double *y, size_t n, size_t p, double *beta,
                   double *residual, hms_lsq_fit *fit, char *err, size_t errlen)
{
    memset(fit, 0, sizeof *fit);
    if (p == 0 || n < p) {
        snprintf(err, errlen, "%zu rows for %zu coefficients: need at least %zu", n, p, p);
        return false;
    }
    double *A = malloc(n * p * sizeof *A), *b = malloc(n * sizeof *b);
    if (!A || !b) {
        free(A);
        free(b);
        snprintf(err, errlen, "out of memory");
        return false;
    }
    memcpy(A, X, n * p * sizeof *A);
    memcpy(b, y, n * sizeof *b);
    double scale = 0; /* largest column norm, for the rank test */
    for (size_t j = 0; j < p; j++) {
        double s = 0;
        for (size_t i = 0; i < n; i++)
            s += A[i * p + j] * A[i * p + j];
        scale = fmax(scale, sqrt(s));
    }
    bool ok = scale > 0;
    if (!ok)
        snprintf(err, errlen, "every column is zero");
    for (size_t k = 0; ok && k < p; k++) {
        double norm = 0;
        for (size_t i = k; i < n; i++)
            norm += A[i * p + k] * A[i * p + k];
        norm = sqrt(norm);
        if (norm <= RANK_TOL * scale) {
            fit->rank_col = k;
            snprintf(err, errlen, "column %zu is a combination of the others (or all zero)", k);
            ok = false;
            break;
        }
        double alpha = A[k * p + k] > 0 ? -norm : norm;
        /* v = x - alpha e1, stored in place; H = I - 2 v v^T / (v^T v) */
        A[k * p + k] -= alpha;
        double vtv = 0;
        for (size_t i = k; i < n; i++)
            vtv += A[i * p + k] * A[i * p + k];
        for (size_t j = k + 1; j < p; j++) {
            double d = 0;
            for (size_t i = k; i < n; i++)
                d += A[i * p + k] * A[i * p + j];
            double f = 2 * d / vtv;
            for (size_t i = k; i < n; i++)
                A[i * p + j] -= f * A[i * p + k];
        }
        double d = 0;
        for (size_t i = k; i < n; i++)
            d += A[i * p + k] * b[i];
        double f = 2 * d / vtv;
        for (size_t i = k; i < n; i++)
            b[i] -= f * A[i * p + k];
        A[k * p + k] = alpha; /* R's diagonal; the rest of v is no longer needed */
        if (fabs(alpha) <= RANK_TOL * scale) {
            fit->rank_col = k;
            snprintf(err, errlen, "column %zu is a combination of the others", k);
            ok = false;
        }
    }
    if (ok) {
        for (size_t k = p; k-- > 0;) { /* back substitution with R */
            double s = b[k];
            for (size_t j = k + 1; j < p; j++)
                s -= A[k * p + j] * beta[j];
            beta[k] = s / A[k * p + k];
        }
        double mean = 0, ss_tot = 0, ss_res = 0;
        for (size_t i = 0; i < n; i++)
            mean += y[i] / (double)n;
        for (size_t i = 0; i < n; i++) {
            double pred = 0;
            for (size_t j = 0; j < p; j++)
                pred += X[i * p + j] * beta[j];
            double r = y[i] - pred;
            if (residual)
                residual[i] = r;
            ss_res += r * r;
            ss_tot += (y[i] - mean) * (y[i] - mean);
        }
        fit->r2 = ss_tot > 0 ? 1 - ss_res / ss_tot : (ss_res == 0 ? 1 : 0);
        fit->rms = sqrt(ss_res / (double)n);
    }
    free(A);
    free(b);
    return ok;
}
