/* HSM classifier, normalised progress and system metrics:
 * seeds/004_4eecb8baccff2daa.txt, Sections 2.2-2.3 (eqs. 2-5) and 4. */
#include "runtime/hsm.h"

#include <math.h>

hms_hsm_coeffs hms_hsm_coeffs_for(const hms_arch *a)
{
    if (a && (a->hsm_c1 != 0 || a->hsm_c2 != 0))
        return (hms_hsm_coeffs){a->hsm_c1, a->hsm_c2};
    return (hms_hsm_coeffs){HMS_HSM_C1_DEFAULT, HMS_HSM_C2_DEFAULT};
}

double hms_hsm_utilisation(hms_hsm_coeffs c, double rbh)
{
    return c.c1 * rbh + c.c2;
}

const char *hms_bound_name(hms_bound b)
{
    return b == HMS_BOUND_MEMORY ? "memory" : "compute";
}

double hms_hsm_demand(const hms_hsm_demand_in *in)
{
    if (!(in->i_k > 0) || !(in->mem_accesses > 0) || !(in->epoch_cycles > 0))
        return 0;
    /* Eq. 2: scale the epoch's traffic to the peak instruction rate, then
     * turn bytes per epoch into bytes per second. */
    return (in->i_max / in->i_k) * in->mem_accesses * in->req_size *
           (in->freq_hz / in->epoch_cycles);
}

double hms_hsm_supply(hms_hsm_coeffs c, double b_max, double rbh)
{
    return b_max * hms_hsm_utilisation(c, rbh);
}

hms_bound hms_hsm_classify(double demand, double supply)
{
    return demand > supply ? HMS_BOUND_MEMORY : HMS_BOUND_COMPUTE;
}

double hms_hsm_np_compute(double sms_shared, double sms_private)
{
    return sms_private > 0 ? sms_shared / sms_private : 0;
}

double hms_hsm_np_memory(hms_hsm_coeffs c, double bw_util_shared, double rbh)
{
    double beta = hms_hsm_utilisation(c, rbh);
    return beta > 0 ? bw_util_shared / beta : 0;
}

double hms_hsm_stp(const double *np, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += np[i];
    return s;
}

double hms_hsm_antt(const double *np, size_t n)
{
    if (n == 0)
        return 0;
    double s = 0;
    for (size_t i = 0; i < n; i++) {
        if (!(np[i] > 0))
            return INFINITY;
        s += 1.0 / np[i];
    }
    return s / (double)n;
}

double hms_hsm_fairness(const double *np, size_t n)
{
    if (n < 2)
        return 1.0;
    double lo = np[0], hi = np[0];
    for (size_t i = 1; i < n; i++) {
        if (np[i] < lo)
            lo = np[i];
        if (np[i] > hi)
            hi = np[i];
    }
    return hi > 0 ? lo / hi : 1.0;
}
