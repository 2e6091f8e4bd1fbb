/* HSM, the Hybrid Slowdown Model for GPUs shared by several kernels.
 * Source: Zhao, Jahre & Eeckhout, seeds/004_4eecb8baccff2daa.txt:
 * classifier (Section 2.2, eqs. 2-3), normalised progress (Section 2.3,
 * eqs. 1, 4, 5), the linear NP-vs-SMs model and the HSM-Fair / HSM-QoS SM
 * allocation policies (Section 4.2-4.3), and the system metrics STP, ANTT
 * and fairness (Section 4, after Eyerman & Eeckhout). */
#ifndef HMS_RUNTIME_HSM_H
#define HMS_RUNTIME_HSM_H

#include <stdbool.h>
#include <stddef.h>

#include "runtime/arch.h"

/* Bandwidth utilisation predicted from the row-buffer hit rate:
 * beta = c1 * RBH + c2 (eqs. 3 and 5; fitted per architecture by least
 * squares, Fig. 3). c2 is the utilisation when every request misses the row
 * buffer. */
typedef struct {
    double c1, c2;
} hms_hsm_coeffs;

/* The paper's Fig. 3 line for its 900 GB/s HBM system: ~46% utilisation at
 * RBH 0.2 and ~86% at 1.0 give c1 = 0.5, c2 = 0.36. A default, not a fit to
 * any GPU measured here. */
#define HMS_HSM_C1_DEFAULT 0.5
#define HMS_HSM_C2_DEFAULT 0.36

/* The arch's hsm_c1/hsm_c2, or the defaults above when both are 0. */
hms_hsm_coeffs hms_hsm_coeffs_for(const hms_arch *a);

/* c1 * rbh + c2 (rbh in 0..1). */
double hms_hsm_utilisation(hms_hsm_coeffs c, double rbh);

typedef enum { HMS_BOUND_COMPUTE = 0, HMS_BOUND_MEMORY } hms_bound;

const char *hms_bound_name(hms_bound b); /* "compute" / "memory" */

/* Eq. 2 inputs, all measured over one epoch of E cycles. */
typedef struct {
    double i_max;        /* I_Max: instructions the kernel could execute in E cycles
                            (an architectural input: SMs x issue width x E) */
    double i_k;          /* I_k: instructions it did execute */
    double mem_accesses; /* DRAM (row buffer) accesses it made */
    double req_size;     /* bytes per DRAM access */
    double freq_hz;      /* f: clock the epoch is counted in */
    double epoch_cycles; /* E */
} hms_hsm_demand_in;

/* Eq. 2: B_d = (I_max / I_k) * MemAccesses * ReqSize * (f / E), bytes/s:
 * the bandwidth the kernel would draw if it ran at its peak instruction
 * rate. 0 when i_k, mem_accesses or epoch_cycles is 0. */
double hms_hsm_demand(const hms_hsm_demand_in *in);

/* Eq. 3: B_p = B_max * (c1 * RBH + c2), bytes/s; b_max is the theoretical
 * DRAM bandwidth in bytes/s (the arch's dram_bandwidth_gbs * 1e9). */
double hms_hsm_supply(hms_hsm_coeffs c, double b_max, double rbh);

/* Memory-bound when demand exceeds supply (B_d > B_p), else compute-bound. */
hms_bound hms_hsm_classify(double demand, double supply);

/* Eq. 4: compute-bound NP = S_k / sigma_k (SMs in shared mode / SMs it would
 * have alone, i.e. every SM). */
double hms_hsm_np_compute(double sms_shared, double sms_private);

/* Eq. 5: memory-bound NP = B_k / (c1 * RBH_k + c2), where B_k is the
 * kernel's shared-mode bandwidth utilisation as a fraction of B_max. */
double hms_hsm_np_memory(hms_hsm_coeffs c, double bw_util_shared, double rbh);

/* ---- system metrics over n co-running kernels (NP values) ---- */

double hms_hsm_stp(const double *np, size_t n);      /* sum of NP (higher is better) */
double hms_hsm_antt(const double *np, size_t n);     /* mean of 1/NP (lower is better);
                                                        INFINITY if an NP is <= 0 */
double hms_hsm_fairness(const double *np, size_t n); /* min NP / max NP, 1 if n < 2 */

/* ---- SM allocation (Section 4.2-4.3) ---- */

/* One co-running kernel as the allocator sees it after an epoch. */
typedef struct {
    int sms;            /* S_k: SMs it had during the epoch (>= 1) */
    double np;          /* predicted NP over the epoch (> 0) */
    bool high_priority; /* HSM-QoS: the kernel whose NP target must hold */
} hms_hsm_kernel;

/* Gradient of the linear NP model through the origin: g_k = NP_k / S_k,
 * the NP one more SM is predicted to add. */
double hms_hsm_gradient(const hms_hsm_kernel *k);

/* HSM-Fair, one epoch: when fairness (min NP / max NP) is below `threshold`
 * (the paper uses 0.9), move SMs from the max-NP kernel to the min-NP kernel
 * so that their predicted NPs (g * S) meet: x = (NP_max - NP_min) /
 * (g_max + g_min), rounded to the nearest SM, each keeping at least one SM.
 * new_sms[] receives every kernel's allocation (unchanged ones copied).
 * Returns the number of SMs moved (0 when fair enough). -1 with a reason on
 * bad input (n == 0, an SM count < 1, an NP <= 0 or not finite). */
int hms_hsm_fair(const hms_hsm_kernel *k, size_t n, double threshold, int *new_sms, char *err,
                 size_t errlen);

typedef struct {
    double target; /* NP the high-priority kernel must reach (the paper: 0.8) */
    double margin; /* aim this much above target to absorb model error (e.g. 0.05) */
    double upper;  /* above this NP it gives SMs back (the paper: 0.9) */
} hms_hsm_qos_params;

/* HSM-QoS, one epoch: exactly one kernel is high-priority. If its NP is below
 * target, or above `upper`, its new allocation is the SMs the linear model
 * says reach target + margin: ceil((target + margin) / g), kept within
 * [1, total - (n - 1)]; otherwise it keeps its SMs. SMs it needs are taken
 * from the low-priority kernels with the smallest gradient first, SMs it
 * frees go to the one with the largest gradient, which maximises STP = sum of
 * predicted NP under the linear model; every kernel keeps >= 1 SM.
 * Returns the high-priority kernel's new SM count, -1 with a reason on bad
 * input (no or several high-priority kernels, bad SM counts or NPs,
 * target <= 0, upper < target). */
int hms_hsm_qos(const hms_hsm_kernel *k, size_t n, const hms_hsm_qos_params *q, int *new_sms,
                char *err, size_t errlen);

#endif
