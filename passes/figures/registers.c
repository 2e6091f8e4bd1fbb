#include "passes/figures/registers.h"

#include "passes/analyze.h"

static int array_words(const ir_array *a)
{
    double bytes = a->elem_bytes;
    for (int d = 0; d < a->ndims && d < 4; d++)
        bytes *= (double)(a->dims[d] > 0 ? a->dims[d] : 0);
    return bytes > 0 ? (int)((bytes + 3) / 4) : 0;
}

/* The most registers nvcc leaves a thread so that `blocks` blocks of
 * `threads` threads fit one SM (it spills beyond): the register file over
 * the threads, rounded down to the allocation step of one warp. */
static int bounds_cap(const hms_arch *a, int threads, int blocks)
{
    int ws = a->warp_size > 0 ? a->warp_size : 32;
    int warps = (threads + ws - 1) / ws;
    if (warps <= 0 || a->regs_per_sm <= 0)
        return 0;
    int cap = a->regs_per_sm / ((blocks > 0 ? blocks : 1) * warps * ws);
    if (a->regs_per_block > 0 && a->regs_per_block / (warps * ws) < cap)
        cap = a->regs_per_block / (warps * ws);
    int step = !a->reg_alloc_per_block && a->reg_alloc_unit >= ws ? a->reg_alloc_unit / ws : 1;
    cap -= cap % step;
    return cap;
}

void hms_registers_estimate(const ir_kernel *k, const hms_arch *a, hms_register_estimate *out)
{
    *out = (hms_register_estimate){
        .regs = HMS_DEFAULT_REGS_PER_THREAD, .source = HMS_REGS_ASSUMED, .ilp = 1};
    int largest = 0;
    for (size_t i = 0; i < k->narrays; i++) {
        if (!k->arrays[i].in_registers)
            continue;
        int w = array_words(&k->arrays[i]);
        out->array_words += w;
        if (w > largest)
            largest = w;
    }
    if (largest > 1)
        out->ilp = largest;
    if (k->regs_per_thread > 0) {
        out->regs = k->regs_per_thread;
        out->source = HMS_REGS_PTXAS;
        return;
    }
    if (out->array_words > 0) {
        out->regs += out->array_words;
        out->source = HMS_REGS_ESTIMATED;
    }
    if (a->max_regs_per_thread > 0 && out->regs > a->max_regs_per_thread)
        out->regs = a->max_regs_per_thread;
    if (k->bounds_threads > 0) {
        int cap = bounds_cap(a, k->bounds_threads, k->bounds_blocks);
        if (cap > 0 && out->regs > cap) {
            out->regs = cap;
            out->bounded = true;
        }
    }
}

const char *hms_regs_source_name(hms_regs_source s)
{
    switch (s) {
    case HMS_REGS_ESTIMATED:
        return "estimated from the IR";
    case HMS_REGS_PTXAS:
        return "ptxas";
    default:
        return "assumed";
    }
}
