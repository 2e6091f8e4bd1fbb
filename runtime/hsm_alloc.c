/* HSM-Fair and HSM-QoS SM allocation: seeds/004_4eecb8baccff2daa.txt,
 * Section 4.2 (NP linear in SMs through the origin, Fig. 9) and 4.3. */
#include "runtime/hsm.h"

#include <math.h>
#include <stdio.h>

double hms_hsm_gradient(const hms_hsm_kernel *k)
{
    return k->sms > 0 ? k->np / (double)k->sms : 0;
}

static bool check_kernels(const hms_hsm_kernel *k, size_t n, char *err, size_t errlen)
{
    if (n == 0) {
        snprintf(err, errlen, "hsm: no kernels to allocate SMs to");
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        if (k[i].sms < 1) {
            snprintf(err, errlen, "hsm: kernel %zu has %d SMs, expected at least 1", i, k[i].sms);
            return false;
        }
        if (!(k[i].np > 0) || isinf(k[i].np)) {
            snprintf(err, errlen, "hsm: kernel %zu has NP %g, expected a finite value > 0", i,
                     k[i].np);
            return false;
        }
    }
    return true;
}

int hms_hsm_fair(const hms_hsm_kernel *k, size_t n, double threshold, int *new_sms, char *err,
                 size_t errlen)
{
    if (!check_kernels(k, n, err, errlen))
        return -1;
    size_t hi = 0, lo = 0;
    for (size_t i = 0; i < n; i++) {
        new_sms[i] = k[i].sms;
        if (k[i].np > k[hi].np)
            hi = i;
        if (k[i].np < k[lo].np)
            lo = i;
    }
    /* Fair enough: keep the allocation and avoid the preemption cost. */
    if (hi == lo || k[lo].np / k[hi].np >= threshold)
        return 0;
    /* g_hi * (S_hi - x) = g_lo * (S_lo + x). */
    double g_hi = hms_hsm_gradient(&k[hi]), g_lo = hms_hsm_gradient(&k[lo]);
    double x = (k[hi].np - k[lo].np) / (g_hi + g_lo);
    int best = 0;
    double best_gap = INFINITY;
    for (int cand = (int)floor(x); cand <= (int)ceil(x); cand++) {
        if (cand < 0 || cand > k[hi].sms - 1)
            continue;
        double gap = fabs(g_hi * (k[hi].sms - cand) - g_lo * (k[lo].sms + cand));
        if (gap < best_gap) {
            best_gap = gap;
            best = cand;
        }
    }
    if (best == 0 && x >= 1 && k[hi].sms > 1)
        best = k[hi].sms - 1; /* x beyond what the max-NP kernel can give */
    new_sms[hi] -= best;
    new_sms[lo] += best;
    return best;
}

/* Low-priority kernel with the smallest (want_max false) or largest gradient
 * that can still give an SM (when taking). */
static size_t pick_low(const hms_hsm_kernel *k, size_t n, const int *sms, bool want_max)
{
    size_t best = n;
    for (size_t i = 0; i < n; i++) {
        if (k[i].high_priority || (!want_max && sms[i] <= 1))
            continue;
        if (best == n) {
            best = i;
            continue;
        }
        double g = hms_hsm_gradient(&k[i]), gb = hms_hsm_gradient(&k[best]);
        if (want_max ? g > gb : g < gb)
            best = i;
    }
    return best;
}

int hms_hsm_qos(const hms_hsm_kernel *k, size_t n, const hms_hsm_qos_params *q, int *new_sms,
                char *err, size_t errlen)
{
    if (!check_kernels(k, n, err, errlen))
        return -1;
    if (!(q->target > 0) || !(q->margin >= 0) || !(q->upper >= q->target)) {
        snprintf(err, errlen,
                 "hsm: QoS target %g, margin %g, upper %g: need target > 0, margin >= 0, "
                 "upper >= target",
                 q->target, q->margin, q->upper);
        return -1;
    }
    size_t hp = n;
    int total = 0;
    for (size_t i = 0; i < n; i++) {
        new_sms[i] = k[i].sms;
        total += k[i].sms;
        if (k[i].high_priority) {
            if (hp != n) {
                snprintf(err, errlen, "hsm: kernels %zu and %zu are both high-priority", hp, i);
                return -1;
            }
            hp = i;
        }
    }
    if (hp == n) {
        snprintf(err, errlen, "hsm: QoS needs one high-priority kernel, none is marked");
        return -1;
    }
    if (n == 1)
        return new_sms[hp];
    int need = k[hp].sms;
    if (k[hp].np < q->target || k[hp].np > q->upper) {
        /* Linear model: NP(S) = g * S; the small epsilon keeps an exact
         * quotient from rounding up one SM too many. */
        double s = (q->target + q->margin) / hms_hsm_gradient(&k[hp]);
        need = (int)ceil(s - 1e-9);
        int most = total - (int)(n - 1);
        if (need > most)
            need = most;
        if (need < 1)
            need = 1;
    }
    for (int d = need - k[hp].sms; d > 0; d--) {
        size_t from = pick_low(k, n, new_sms, false);
        new_sms[from]--; /* always found: need <= total - (n - 1) */
        new_sms[hp]++;
    }
    if (need < k[hp].sms) {
        size_t to = pick_low(k, n, new_sms, true);
        new_sms[to] += k[hp].sms - need;
        new_sms[hp] = need;
    }
    return new_sms[hp];
}
