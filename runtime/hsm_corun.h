/* Co-run advice for two kernels sharing one GPU (HSM, Zhao, Jahre &
 * Eeckhout, seeds/004): each kernel's class (eqs. 2-3), its predicted
 * normalised progress (NP) for a split of the SMs, and the split the HSM-Fair
 * or HSM-QoS procedure (Sections 4.2-4.3, runtime/hsm_alloc.c) settles on
 * when run epoch by epoch on those predictions.
 *
 * HSM measures B_k during the co-run; before any run it has to be predicted.
 * The prediction (docs/model.md, "Co-run"): with s_k of S SMs a kernel asks
 * for want_k = min(B_d,k * s_k / S, B_p,k) (its eq. 2 demand scales with its
 * SMs, and it cannot draw more than its eq. 3 supply); the DRAM system
 * supplies B_max * (c1 * RBH_mix + c2), RBH_mix the want-weighted mean of the
 * two hit rates (interleaving can only lower it: an optimistic estimate), and
 * when the wants exceed it each kernel gets its proportional share (requests
 * served in arrival order). NP of a memory-bound kernel is then eq. 5,
 * got_k / B_p,k; of a compute-bound one eq. 4, s_k / S, lowered to
 * got_k / want_alone,k if its bandwidth is cut. */
#ifndef HMS_RUNTIME_HSM_CORUN_H
#define HMS_RUNTIME_HSM_CORUN_H

#include <stdbool.h>
#include <stddef.h>

#include "runtime/hsm.h"

typedef struct {
    double demand_gbs; /* B_d, eq. 2, GB/s */
    double rbh;        /* DRAM row-buffer hit rate running alone, 0..1 */
} hms_corun_kernel;

typedef struct {
    int total_sms;    /* S */
    double b_max_gbs; /* theoretical DRAM bandwidth */
    hms_hsm_coeffs c; /* c1, c2 */
} hms_corun_system;

typedef struct {
    int sms[2];
    double want_gbs[2], got_gbs[2];
    double supply_gbs; /* the DRAM system's supply for the mix */
    double np[2];
    double stp, antt, fairness;
} hms_corun_split;

/* B_p (eq. 3) and the class (B_d > B_p: memory-bound) of one kernel. */
double hms_corun_supply(const hms_corun_system *s, const hms_corun_kernel *k);
hms_bound hms_corun_class(const hms_corun_system *s, const hms_corun_kernel *k);

/* NP of both kernels with sms_a SMs for kernel 0 and the rest for kernel 1.
 * False with a reason when sms_a is not in 1 .. S-1 or an input is invalid. */
bool hms_corun_predict(const hms_corun_system *s, const hms_corun_kernel k[2], int sms_a,
                       hms_corun_split *out, char *err, size_t errlen);

typedef struct {
    hms_corun_split split; /* where the procedure settled */
    int epochs;            /* epochs it took (from the even split) */
    bool converged;        /* false: it cycled or ran out of epochs; split is the best seen */
    bool target_met;       /* QoS only: the high-priority kernel reaches its target */
} hms_corun_advice;

/* HSM-Fair (threshold: the paper's 0.9) from the even split, one
 * hms_hsm_fair step per epoch on the predicted NPs, until it moves nothing. */
bool hms_corun_fair(const hms_corun_system *s, const hms_corun_kernel k[2], double threshold,
                    hms_corun_advice *out, char *err, size_t errlen);

/* HSM-QoS for kernel `hp` (0 or 1) with target NP `target` (0 < target <= 1),
 * margin 0.05 and upper bound target + 0.1, from the even split. */
bool hms_corun_qos(const hms_corun_system *s, const hms_corun_kernel k[2], int hp, double target,
                   hms_corun_advice *out, char *err, size_t errlen);

/* CUDA MPS share for `sms` of `total` SMs: the smallest whole
 * CUDA_MPS_ACTIVE_THREAD_PERCENTAGE that grants at least that many. */
int hms_corun_mps_percent(int sms, int total);

#endif
