/* Co-run NP prediction and the HSM allocation procedures run on it (see
 * hsm_corun.h). */
#include "runtime/hsm_corun.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MAX_EPOCHS 256
#define QOS_MARGIN 0.05
#define QOS_UPPER_GAP 0.1

double hms_corun_supply(const hms_corun_system *s, const hms_corun_kernel *k)
{
    return hms_hsm_supply(s->c, s->b_max_gbs, k->rbh);
}

hms_bound hms_corun_class(const hms_corun_system *s, const hms_corun_kernel *k)
{
    return hms_hsm_classify(k->demand_gbs, hms_corun_supply(s, k));
}

bool hms_corun_predict(const hms_corun_system *s, const hms_corun_kernel k[2], int sms_a,
                       hms_corun_split *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (s->total_sms < 2 || sms_a < 1 || sms_a > s->total_sms - 1) {
        snprintf(err, errlen, "corun: split %d of %d SMs: each kernel needs at least one", sms_a,
                 s->total_sms);
        return false;
    }
    if (!(s->b_max_gbs > 0)) {
        snprintf(err, errlen, "corun: the architecture gives no DRAM bandwidth");
        return false;
    }
    for (int i = 0; i < 2; i++)
        if (!(k[i].demand_gbs >= 0) || !isfinite(k[i].demand_gbs) || !(k[i].rbh >= 0) ||
            k[i].rbh > 1) {
            snprintf(err, errlen, "corun: kernel %d: demand %g GB/s, row-buffer hit rate %g", i,
                     k[i].demand_gbs, k[i].rbh);
            return false;
        }
    out->sms[0] = sms_a;
    out->sms[1] = s->total_sms - sms_a;
    double S = s->total_sms, want_sum = 0, rbh_w = 0;
    for (int i = 0; i < 2; i++) {
        double supply = hms_corun_supply(s, &k[i]);
        out->want_gbs[i] = fmin(k[i].demand_gbs * out->sms[i] / S, supply);
        want_sum += out->want_gbs[i];
        rbh_w += out->want_gbs[i] * k[i].rbh;
    }
    double rbh_mix = want_sum > 0 ? rbh_w / want_sum : 0;
    out->supply_gbs = hms_hsm_supply(s->c, s->b_max_gbs, rbh_mix);
    double share = want_sum > out->supply_gbs ? out->supply_gbs / want_sum : 1;
    for (int i = 0; i < 2; i++) {
        out->got_gbs[i] = out->want_gbs[i] * share;
        double supply = hms_corun_supply(s, &k[i]);
        double alone = fmin(k[i].demand_gbs, supply); /* what it draws with every SM */
        if (hms_hsm_classify(k[i].demand_gbs, supply) == HMS_BOUND_MEMORY)
            out->np[i] = out->got_gbs[i] / supply; /* eq. 5 */
        else {
            out->np[i] = out->sms[i] / S; /* eq. 4 */
            if (alone > 0)
                out->np[i] = fmin(out->np[i], out->got_gbs[i] / alone);
        }
    }
    out->stp = hms_hsm_stp(out->np, 2);
    out->antt = hms_hsm_antt(out->np, 2);
    out->fairness = hms_hsm_fairness(out->np, 2);
    return true;
}

/* One allocation step; `qos` selects HSM-QoS for kernel hp. */
static bool step(const hms_corun_system *s, const hms_corun_split *cur, bool qos, int hp,
                 double target, double threshold, int *next_a, char *err, size_t errlen)
{
    hms_hsm_kernel hk[2];
    int ns[2];
    for (int i = 0; i < 2; i++)
        hk[i] = (hms_hsm_kernel){cur->sms[i], cur->np[i], qos && i == hp};
    if (qos) {
        hms_hsm_qos_params q = {target, QOS_MARGIN, fmin(1.0, target + QOS_UPPER_GAP)};
        if (hms_hsm_qos(hk, 2, &q, ns, err, errlen) < 0)
            return false;
    } else if (hms_hsm_fair(hk, 2, threshold, ns, err, errlen) < 0)
        return false;
    (void)s;
    *next_a = ns[0];
    return true;
}

static bool better(const hms_corun_split *a, const hms_corun_split *b, bool qos, int hp,
                   double target)
{
    if (qos) {
        bool ma = a->np[hp] >= target, mb = b->np[hp] >= target;
        if (ma != mb)
            return ma;
        return ma ? a->stp > b->stp : a->np[hp] > b->np[hp];
    }
    return a->fairness > b->fairness;
}

static bool run_procedure(const hms_corun_system *s, const hms_corun_kernel k[2], bool qos, int hp,
                          double target, double threshold, hms_corun_advice *out, char *err,
                          size_t errlen)
{
    memset(out, 0, sizeof *out);
    int a = s->total_sms / 2;
    bool seen[4096] = {false};
    if (s->total_sms > 4096) {
        snprintf(err, errlen, "corun: %d SMs is more than this procedure handles", s->total_sms);
        return false;
    }
    hms_corun_split cur, best;
    if (!hms_corun_predict(s, k, a, &cur, err, errlen))
        return false;
    best = cur;
    for (int e = 0; e < MAX_EPOCHS; e++) {
        seen[a] = true;
        out->epochs = e + 1;
        int next;
        if (!step(s, &cur, qos, hp, target, threshold, &next, err, errlen))
            return false;
        if (next == a) {
            out->converged = true;
            best = cur;
            break;
        }
        if (seen[next])
            break; /* it cycles: keep the best split seen */
        a = next;
        if (!hms_corun_predict(s, k, a, &cur, err, errlen))
            return false;
        if (better(&cur, &best, qos, hp, target))
            best = cur;
    }
    out->split = best;
    out->target_met = qos && best.np[hp] >= target;
    return true;
}

bool hms_corun_fair(const hms_corun_system *s, const hms_corun_kernel k[2], double threshold,
                    hms_corun_advice *out, char *err, size_t errlen)
{
    return run_procedure(s, k, false, 0, 0, threshold, out, err, errlen);
}

bool hms_corun_qos(const hms_corun_system *s, const hms_corun_kernel k[2], int hp, double target,
                   hms_corun_advice *out, char *err, size_t errlen)
{
    if ((hp != 0 && hp != 1) || !(target > 0) || target > 1) {
        snprintf(err, errlen, "corun: QoS target %g for kernel %d: expected 0 < target <= 1",
                 target, hp);
        return false;
    }
    return run_procedure(s, k, true, hp, target, 0, out, err, errlen);
}

int hms_corun_mps_percent(int sms, int total)
{
    if (total <= 0 || sms <= 0)
        return 0;
    int p = (int)ceil(100.0 * sms / total - 1e-9);
    return p > 100 ? 100 : p;
}
