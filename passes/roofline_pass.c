/* The kernel's roofline (runtime/roofline.h): totals of the whole launch
 * from the per-site figures (scaled to the grid like every count), the
 * placement model's time, and the bound that binds. Every time the checks
 * compare (hms_ctx_predict) goes through hms_ctx_bounded, so a predicted
 * gain is never larger than the bounds allow. */
#include "passes/analyze.h"

#include "passes/analyze_internal.h"

double hms_ctx_bounded(const hms_check_ctx *c, double model_time)
{
    if (!c->fig.roof_ok)
        return model_time;
    hms_roofline_in in = c->fig.roof_in;
    in.model_time = model_time;
    hms_roofline r;
    hms_roofline_compute(c->arch, &in, &r);
    return r.time;
}

bool hms_an_roofline(hms_check_ctx *c)
{
    hms_kernel_figures *f = &c->fig;
    if (!c->traced || !f->time_ok)
        return false;
    hms_launch_geom g = hms_ctx_geom(c);
    hms_roofline_in *in = &f->roof_in;
    double l2_line = c->arch->l2.line_bytes ? c->arch->l2.line_bytes : 32;
    for (size_t i = 0; i < c->nsites; i++) {
        const hms_site_metrics *s = &c->sites[i];
        in->l2_bytes += (s->l2_hits + s->l2_misses) * l2_line;
        if (s->space == HMS_SPACE_SHARED)
            in->shared_wavefronts += s->wavefronts;
    }
    in->model_time = f->time.time;
    in->dram_bytes = f->dram_bytes;
    in->flops = c->trace.flops;
    in->warp_insts = f->pk.inst_issued * g.total_warps + c->trace.fp_insts;
    in->blocks = (double)c->trace.blocks_total;
    hms_roofline_compute(c->arch, in, &f->roof);
    f->roof_ok = true;
    double secs = f->roof.time / (c->arch->clock_ghz * 1e9);
    f->dram_gbs = secs > 0 ? f->dram_bytes / secs / 1e9 : 0;
    return true;
}
