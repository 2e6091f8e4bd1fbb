/* Roofline bounds (runtime/roofline.h). Peaks come from the architecture
 * file: DRAM bandwidth (dram.bandwidth_gbs), L2 (caches.l2.bytes_per_clock),
 * one shared-memory wavefront per SM per cycle (32 banks serve one request
 * pass a cycle, CUDA C Programming Guide), FP32 lanes x 2 FLOPs (FMA) per SM
 * per cycle, and schedulers_per_sm x simd_width / warp_size warp
 * instructions per SM per cycle. */
#include "runtime/roofline.h"

#include <math.h>

static double clean(double v)
{
    return isfinite(v) && v > 0 ? v : 0;
}

double hms_roofline_dram_bytes_per_cycle(const hms_arch *a)
{
    return a->clock_ghz > 0 ? clean(a->dram_bandwidth_gbs) / a->clock_ghz : 0;
}

double hms_roofline_flops_per_cycle_per_sm(const hms_arch *a)
{
    int lanes = a->fp32_lanes > 0 ? a->fp32_lanes : a->simd_width * a->schedulers_per_sm;
    return 2.0 * (lanes > 0 ? lanes : 0);
}

double hms_roofline_issue_per_cycle_per_sm(const hms_arch *a)
{
    double scheds = a->schedulers_per_sm > 0 ? a->schedulers_per_sm : 1;
    double ws = a->warp_size > 0 ? a->warp_size : 32;
    return a->simd_width > 0 ? scheds * a->simd_width / ws : scheds;
}

const char *hms_roofline_name(hms_roofline_kind k)
{
    static const char *const names[HMS_RL_COUNT] = {"model",  "dram", "l2",
                                                    "shared", "fp32", "issue"};
    return k >= 0 && k < HMS_RL_COUNT ? names[k] : "?";
}

static double over(double amount, double rate)
{
    return rate > 0 ? amount / rate : 0;
}

void hms_roofline_compute(const hms_arch *a, const hms_roofline_in *in, hms_roofline *out)
{
    *out = (hms_roofline){0};
    double sms = a->sm_count > 0 ? a->sm_count : 1;
    double blocks = floor(clean(in->blocks));
    /* The busiest SM runs ceil(blocks / SMs) blocks: its share of the work
     * that is spread over SMs (an even spread when the grid divides). */
    double share = blocks > 0 ? ceil(blocks / sms) / blocks : 1.0 / sms;
    out->busiest_sm_share = share;
    out->bound[HMS_RL_MODEL] = clean(in->model_time);
    double camp = clean(in->dram_channel_factor) > 1 ? in->dram_channel_factor : 1;
    out->bound[HMS_RL_DRAM] =
        over(clean(in->dram_bytes) * camp, hms_roofline_dram_bytes_per_cycle(a));
    out->bound[HMS_RL_L2] = over(clean(in->l2_bytes), clean(a->l2_bytes_per_clock));
    out->bound[HMS_RL_SHARED] = clean(in->shared_wavefronts) * share;
    out->bound[HMS_RL_FP32] =
        over(clean(in->flops) * share, hms_roofline_flops_per_cycle_per_sm(a));
    out->bound[HMS_RL_ISSUE] =
        over(clean(in->warp_insts) * share, hms_roofline_issue_per_cycle_per_sm(a));
    out->binding = HMS_RL_MODEL;
    for (int k = 1; k < HMS_RL_COUNT; k++)
        if (out->bound[k] > out->bound[out->binding])
            out->binding = (hms_roofline_kind)k;
    out->time = out->bound[out->binding];
}
