/* CuMAPz terms and MPE: Kim & Shrivastava, seeds/001_3bb0fc5541bb7adb.txt,
 * Section 5, eqs. 1-8. */
#include "runtime/cumapz.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

double hms_cumapz_data_reuse(double bytes_shmem, double bytes_buffered)
{
    if (!(bytes_buffered > 0))
        return 1.0;
    return bytes_shmem / bytes_buffered;
}

double hms_cumapz_lat_hiding(double occupancy_pct, unsigned n_shm_load)
{
    /* Eq. 2: beyond 50% occupancy more warps no longer help (the paper cites
     * the CUDA Best Practices Guide), so only lower occupancy is penalised. */
    double occ = occupancy_pct < 50.0 ? occupancy_pct : 50.0;
    if (occ < 0)
        occ = 0;
    unsigned loads = n_shm_load ? n_shm_load : 1;
    return occ / 50.0 * sqrt((double)loads);
}

double hms_cumapz_bw_util(double bytes_access, double bytes_transferred)
{
    if (!(bytes_transferred > 0))
        return 1.0;
    return bytes_access / bytes_transferred;
}

double hms_cumapz_shm_eff(uint64_t n_half_warp, uint64_t n_buffer, uint64_t n_bk_conflict)
{
    if (n_bk_conflict == 0)
        return 1.0;
    double eff = (double)n_half_warp * (double)n_buffer / (double)n_bk_conflict;
    return eff < 1.0 ? eff : 1.0;
}

double hms_cumapz_branch_eff(uint64_t n_warp, uint64_t n_path)
{
    if (n_path == 0)
        return 1.0;
    double eff = (double)n_warp / (double)n_path;
    return eff < 1.0 ? eff : 1.0;
}

double hms_cumapz_mpe(const hms_cumapz_terms *t)
{
    /* Eq. 8; shm_eff is square-rooted because the paper fitted bank
     * conflicts to matter less than the other terms. */
    double skew = t->ch_skew >= 1.0 ? t->ch_skew : 1.0;
    return t->data_reuse * t->lat_hiding * (t->bw_util / skew) * t->branch_eff * sqrt(t->shm_eff);
}

static bool bad_count(double x)
{
    return !(x >= 0) || isinf(x);
}

bool hms_cumapz_evaluate(const hms_cumapz_profile *p, hms_cumapz_terms *out, char *err,
                         size_t errlen)
{
    memset(out, 0, sizeof *out);
    const struct {
        const char *name;
        double v;
    } in[] = {
        {"bytes_shmem", p->bytes_shmem},
        {"bytes_buffered", p->bytes_buffered},
        {"occupancy_pct", p->occupancy_pct},
        {"bytes_access", p->bytes_access},
        {"bytes_transferred", p->bytes_transferred},
        {"ch_skew", p->ch_skew},
    };
    for (size_t i = 0; i < sizeof in / sizeof in[0]; i++) {
        if (bad_count(in[i].v)) {
            snprintf(err, errlen, "cumapz: %s is %g, expected a finite value >= 0", in[i].name,
                     in[i].v);
            return false;
        }
    }
    if (p->occupancy_pct > 100.0) {
        snprintf(err, errlen, "cumapz: occupancy_pct is %g, expected a percentage <= 100",
                 p->occupancy_pct);
        return false;
    }
    out->data_reuse = hms_cumapz_data_reuse(p->bytes_shmem, p->bytes_buffered);
    out->lat_hiding = hms_cumapz_lat_hiding(p->occupancy_pct, p->n_shm_load);
    out->bw_util = hms_cumapz_bw_util(p->bytes_access, p->bytes_transferred);
    out->ch_skew = p->ch_skew >= 1.0 ? p->ch_skew : 1.0;
    out->shm_eff = hms_cumapz_shm_eff(p->n_half_warp, p->n_buffer, p->n_bk_conflict);
    out->branch_eff = hms_cumapz_branch_eff(p->n_warp, p->n_path);
    out->mpe = hms_cumapz_mpe(out);
    return true;
}
