/* The kernel's roofline (runtime/roofline.h): totals of the whole launch
 * from the per-site figures (scaled to the grid like every count), the
 * placement model's time, and the bound that binds. Every time the checks
 * compare (hms_ctx_predict) goes through hms_ctx_bounded, so a predicted
 * gain is never larger than the bounds allow. */
#include "passes/analyze.h"

#include <stdlib.h>

#include "passes/analyze_internal.h"

double hms_ctx_bounded(const hms_check_ctx *c, double model_time)
{
    return hms_ctx_bounded_over(c, model_time, c->fig.roof_in.blocks);
}

double hms_ctx_bounded_over(const hms_check_ctx *c, double model_time, double blocks)
{
    if (!c->fig.roof_ok)
        return model_time;
    hms_roofline_in in = c->fig.roof_in;
    in.model_time = model_time;
    in.blocks = blocks;
    hms_roofline r;
    hms_roofline_compute(c->arch, &in, &r);
    return r.time;
}

/* When every off-chip array the kernel touches fits in L2 together, each
 * line comes from DRAM once: the launch moves at most its footprint. The
 * sampled blocks miss in L2 on lines their unsampled neighbours would have
 * brought in (a stencil's halo rows), which scaled to the grid would
 * overstate the DRAM bytes; the footprint bounds them. An array without
 * declared dims is sized by the span the trace touched, which is the
 * launch's only when the traced blocks reach from its first block to its
 * last; a sample over a narrower range of block ids touched a narrower
 * span (one block of a streaming kernel: its own rows), so its span is
 * extrapolated to the grid by the ratio of block ids (an estimate, as
 * every sampled figure; capping by the sample's own span cut such a
 * kernel's DRAM bytes to what the sample touched). */
static double span_to_launch(const hms_kernel_trace *t)
{
    uint64_t lo = UINT64_MAX, hi = 0;
    for (size_t b = 0; b < t->nblocks; b++) {
        lo = t->blocks[b].id < lo ? t->blocks[b].id : lo;
        hi = t->blocks[b].id > hi ? t->blocks[b].id : hi;
    }
    if (t->nblocks == 0 || hi + 1 - lo >= t->blocks_total)
        return 1;
    return (double)t->blocks_total / (double)(hi + 1 - lo);
}

static void cap_dram_by_footprint(const hms_check_ctx *c, hms_roofline_in *in)
{
    double l2 = c->arch->l2.size_bytes, footprint = 0;
    if (!(l2 > 0) || !c->placements)
        return;
    bool *off_chip = calloc(c->narrays ? c->narrays : 1, sizeof *off_chip);
    if (!off_chip)
        return;
    for (size_t i = 0; i < c->nsites; i++) {
        const hms_site_metrics *s = &c->sites[i];
        if (s->requests > 0 && (s->space == HMS_SPACE_GLOBAL || s->space == HMS_SPACE_READONLY ||
                                s->space == HMS_SPACE_TEXTURE))
            off_chip[s->acc->array] = true;
    }
    const hms_kernel_trace *t = &c->trace;
    double widen = span_to_launch(t);
    bool known = true;
    for (size_t i = 0; i < c->narrays && known; i++) {
        if (!off_chip[i])
            continue;
        double b = c->placements[i].arr.bytes;
        known = b > 0;
        footprint += i < t->narrays && t->arrays[i].size_known ? b : b * widen;
    }
    free(off_chip);
    if (known && footprint > 0 && footprint <= l2 && in->dram_bytes > footprint)
        in->dram_bytes = footprint;
}

bool hms_an_roofline(hms_check_ctx *c)
{
    hms_kernel_figures *f = &c->fig;
    if (!c->traced || !f->time_ok)
        return false;
    hms_roofline_in *in = &f->roof_in;
    double l2_line = c->arch->l2.line_bytes ? c->arch->l2.line_bytes : 32;
    /* Local arrays are left out: a compiler keeps small, constant-indexed
     * ones (accumulators, register tiles) in registers, where they issue no
     * instruction and move no byte; the bounds must not overstate. */
    double requests = 0;
    for (size_t i = 0; i < c->nsites; i++) {
        const hms_site_metrics *s = &c->sites[i];
        if (s->space == HMS_SPACE_LOCAL)
            continue;
        requests += s->requests;
        in->l2_bytes += (s->l2_hits + s->l2_misses) * l2_line;
        in->dram_bytes += s->l2_misses * l2_line;
        if (s->space == HMS_SPACE_SHARED)
            in->shared_wavefronts += s->wavefronts;
    }
    cap_dram_by_footprint(c, in);
    in->model_time = f->time.time;
    in->flops = c->trace.flops;
    in->dram_channel_factor = f->dram_channel_factor;
    /* Only instructions that must issue: one per warp-level memory access
     * and per FP instruction. The trace's address arithmetic
     * is the model's estimate (a compiler folds much of it into address
     * offsets), so it feeds the model's T_comp, not this bound. */
    in->warp_insts = requests + c->trace.fp_insts;
    in->blocks = (double)c->trace.blocks_total;
    /* A block the analysis budget cut ran only its first warps: scale the
     * totals to all of them (the block's warps assumed alike; the stopped
     * warp counts as run, so this stays a lower bound). */
    double cover = c->trace.warp_coverage > 0 ? c->trace.warp_coverage : 1;
    in->dram_bytes /= cover;
    in->l2_bytes /= cover;
    in->shared_wavefronts /= cover;
    in->flops /= cover;
    in->warp_insts /= cover;
    hms_roofline_compute(c->arch, in, &f->roof);
    f->roof_ok = true;
    double secs = f->roof.time / (c->arch->clock_ghz * 1e9);
    f->dram_gbs = secs > 0 ? in->dram_bytes / secs / 1e9 : 0;
    return true;
}
