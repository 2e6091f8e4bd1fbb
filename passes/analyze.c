/* hms_analyze_kernel: occupancy, trace, per-site metrics, memory simulation,
 * placement ranking, model figures, then the enabled checks. The steps live
 * in their own files (analyze_internal.h); this one sequences them, copies
 * their figures into the report and frees the context. */
#include "passes/analyze.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "passes/analyze_internal.h"
#include "passes/checks/check_util.h"
#include "passes/checks/checks.h"
#include "passes/trace/sample.h"
#include "runtime/l1_carveout.h"
#include "runtime/units_memo.h"

void hms_ctx_add_limit(hms_check_ctx *c, const char *fmt, ...)
{
    char **v = realloc(c->limits, (c->nlimits + 1) * sizeof *v);
    if (!v)
        return;
    c->limits = v;
    va_list ap;
    va_start(ap, fmt);
    char *s = NULL;
    if (vasprintf(&s, fmt, ap) >= 0)
        c->limits[c->nlimits++] = s;
    va_end(ap);
}

hms_launch_geom hms_ctx_geom(const hms_check_ctx *c)
{
    hms_launch_geom g = {0};
    const hms_arch *a = c->arch;
    uint64_t blocks = c->traced ? c->trace.blocks_total : 1;
    g.wpb = c->traced && c->trace.warps_per_block ? c->trace.warps_per_block : 1;
    g.sms = a->sm_count > 0 ? (unsigned)a->sm_count : 1;
    if (blocks < g.sms)
        g.sms = blocks ? (unsigned)blocks : 1;
    g.bps = c->occ_ok && c->occ.blocks_per_sm > 0 ? (unsigned)c->occ.blocks_per_sm : 1;
    uint64_t per_sm = (blocks + g.sms - 1) / g.sms; /* no more resident than there are */
    if (per_sm > 0 && g.bps > per_sm)
        g.bps = (unsigned)per_sm;
    g.warps_per_sm = (double)g.bps * g.wpb;
    double ws = a->warp_size > 0 ? a->warp_size : 32;
    g.cpi = a->simd_width > 0 ? ws / a->simd_width : 1;
    g.total_warps = (double)blocks * g.wpb;
    return g;
}

static const char *launch_source_name(ir_launch_source s)
{
    switch (s) {
    case IR_LAUNCH_CLI:
        return "cli";
    case IR_LAUNCH_ANNOTATION:
        return "annotation";
    case IR_LAUNCH_HOST_CALL:
        return "host-call";
    default:
        return "default";
    }
}

static const char *limiter_name(hms_occ_limit l)
{
    switch (l) {
    case HMS_OCC_LIMIT_REGISTERS:
        return "registers";
    case HMS_OCC_LIMIT_SHARED:
        return "shared";
    case HMS_OCC_LIMIT_BLOCKS:
        return "blocks";
    default:
        return "warps";
    }
}

static char *xstrdup(const char *s)
{
    return strdup(s ? s : "");
}

static void step_occupancy(hms_check_ctx *c)
{
    const ir_kernel *k = c->k;
    hms_occ_input in = {0};
    in.threads_per_block = (int)(k->launch.block[0] * k->launch.block[1] * k->launch.block[2]);
    hms_registers_estimate(k, c->arch, &c->reg);
    c->regs_default = c->reg.source != HMS_REGS_PTXAS;
    c->regs_per_thread = c->reg.regs;
    in.regs_per_thread = c->regs_per_thread;
    in.shared_static = k->static_shared_bytes;
    in.shared_dynamic = (int)k->launch.shared_bytes;
    c->occ_ok = hms_occupancy_compute(c->arch, &in, &c->occ, c->occ_error, sizeof c->occ_error);
    if (!c->occ_ok) {
        hms_ctx_add_limit(c, "launch block(%u,%u,%u) cannot run on %s: %s", k->launch.block[0],
                          k->launch.block[1], k->launch.block[2], c->arch->name, c->occ_error);
        return;
    }
    if (c->regs_default && c->occ.limit == HMS_OCC_LIMIT_REGISTERS)
        hms_ctx_add_limit(
            c,
            "register count unknown: %s %d per thread%s, which limits occupancy "
            "to %d blocks per SM; run with --ptxas (nvcc installed) for the "
            "compiler's count%s",
            c->reg.source == HMS_REGS_ESTIMATED ? "estimated from the IR as" : "assumed",
            c->regs_per_thread, c->reg.bounded ? " (lowered to fit __launch_bounds__)" : "",
            c->occ.blocks_per_sm, c->k->bounds_threads > 0 ? "" : " or declare __launch_bounds__");
}

/* Says which blocks the sampled figures come from. */
static void add_sampled_limit(hms_check_ctx *c, const hms_kernel_trace *t)
{
    char from[160], stop[200] = "";
    if (t->stratum_blocks > 0)
        snprintf(from, sizeof from,
                 "blocks 0 to %llu, the first to be resident, and a spread of "
                 "the rest",
                 (unsigned long long)t->stratum_blocks - 1);
    else
        snprintf(from, sizeof from, "a spread over the grid");
    if (t->stopped_early)
        snprintf(stop, sizeof stop,
                 "; the trace stopped after %u of the sample's %u groups of "
                 "co-resident blocks, whose per-block figures agreed within %.1f%%",
                 t->groups_traced, t->groups_sampled, 100 * t->stop_rse);
    hms_ctx_add_limit(c, "grid of %llu blocks: figures scaled from %llu simulated blocks (%s%s)",
                      (unsigned long long)t->blocks_total, (unsigned long long)t->blocks_simulated,
                      from, stop);
}

/* The tracer's options from the budget and occupancy (c->topt). */
static void trace_options(hms_check_ctx *c)
{
    c->topt.max_blocks = c->budget.blocks;
    c->topt.max_records = (size_t)c->budget.records;
    c->topt.max_lines = c->budget.lines;
    c->topt.stop_tolerance = c->budget.stop_tolerance;
    c->topt.arch = c->arch;
    c->topt.no_block_derive = c->opt->no_block_derive;
    if (c->occ_ok) {
        uint64_t wave = (uint64_t)c->occ.blocks_per_sm * (uint64_t)c->arch->sm_count;
        uint64_t budget = c->budget.blocks;
        /* A first wave larger than the budget would be sampled sparsely;
         * then keep at least the blocks CuMAPz checks for channel skew
         * (eq. 4) whole, so partition camping sees concurrent neighbours. */
        uint64_t skew = hms_cumapz_blocks_to_check(c->arch, (unsigned)c->occ.blocks_per_sm,
                                                   c->k->launch.block[0], 4);
        if (wave > budget && skew > 0)
            wave = skew < budget / 2 ? skew : budget / 2;
        c->topt.first_wave_blocks = wave;
        c->topt.sm_count = c->arch->sm_count > 0 ? (uint32_t)c->arch->sm_count : 0;
        c->topt.blocks_per_sm = (uint32_t)c->occ.blocks_per_sm;
    }
}

static void step_trace(hms_check_ctx *c)
{
    trace_options(c);
    c->traced = hms_trace_kernel(c->k, &c->topt, &c->trace);
    if (!c->traced) {
        snprintf(c->trace_error, sizeof c->trace_error, "%s", c->trace.error);
        hms_ctx_add_limit(c, "kernel not analysed: %s", c->trace.error);
        return;
    }
    if (c->trace.sampled)
        add_sampled_limit(c, &c->trace);
}

static double per_req(double sum, double n)
{
    return n > 0 ? sum / n : 0;
}

static void fill_accesses(hms_check_ctx *c, hms_kernel_report *r)
{
    r->accesses = calloc(c->nsites ? c->nsites : 1, sizeof *r->accesses);
    if (!r->accesses)
        return;
    for (size_t i = 0; i < c->nsites; i++) {
        const hms_site_metrics *s = &c->sites[i];
        hms_access_metrics *m = &r->accesses[r->naccesses++];
        m->line = s->acc->loc.line;
        m->col = s->acc->loc.col;
        m->array = xstrdup(s->arr->name);
        m->space = hms_space_name(s->arr->space);
        m->kind = s->acc->kind == HMS_ACCESS_STORE    ? "store"
                  : s->acc->kind == HMS_ACCESS_ATOMIC ? "atomic"
                                                      : "load";
        /* bytes per lane: 16 for a float4 or int4 copy of a float array */
        m->element_bytes = s->acc->width > 0 ? s->acc->width : s->arr->elem_bytes;
        m->requests = s->requests;
        bool offchip = s->space == HMS_SPACE_GLOBAL || s->space == HMS_SPACE_LOCAL ||
                       s->space == HMS_SPACE_TEXTURE || s->space == HMS_SPACE_READONLY;
        m->sectors_per_request = offchip ? per_req(s->sectors, s->requests) : -1;
        m->lines_per_request = offchip ? per_req(s->lines, s->requests) : -1;
        m->bank_wavefronts_per_request =
            s->space == HMS_SPACE_SHARED ? per_req(s->wavefronts, s->requests) : -1;
        m->distinct_addresses_per_request =
            s->space == HMS_SPACE_CONSTANT ? per_req(s->distinct, s->requests) : -1;
        m->latency_cycles = per_req(s->latency, s->requests);
        m->exact = s->exact;
    }
}

static void fill_placements(hms_check_ctx *c, hms_kernel_report *r)
{
    size_t n = 0;
    for (size_t i = 0; i < c->narrays; i++)
        n += c->placements[i].ranked;
    if (!n)
        return;
    r->placements = calloc(n, sizeof *r->placements);
    if (!r->placements)
        return;
    for (size_t i = 0; i < c->narrays; i++) {
        const hms_array_placement *p = &c->placements[i];
        if (!p->ranked)
            continue;
        hms_placement *out = &r->placements[r->nplacements++];
        out->array = xstrdup(c->k->arrays[i].name);
        out->current = hms_placement_space_name(p->rank.current);
        out->best = hms_placement_space_name(p->rank.best);
        out->options = calloc(HMS_PLACE_COUNT, sizeof *out->options);
        if (!out->options)
            continue;
        for (int j = 0; j < HMS_PLACE_COUNT; j++) {
            const hms_placement_candidate_result *o = &p->rank.options[p->rank.order[j]];
            hms_placement_option *x = &out->options[out->noptions++];
            x->space = hms_placement_space_name(o->space);
            x->legal = o->legal;
            x->reason = o->reason[0] ? xstrdup(o->reason) : NULL;
            x->predicted_time = o->evaluated ? o->time : 0;
            x->speedup = o->evaluated ? o->speedup : 0;
        }
    }
}

static void fill_model(hms_check_ctx *c, hms_kernel_report *r)
{
    const hms_kernel_figures *f = &c->fig;
    hms_model_figures *m = &r->model;
    m->data_reuse = f->cumapz.data_reuse;
    m->lat_hiding = f->cumapz.lat_hiding;
    m->bw_util = f->cumapz.bw_util;
    m->ch_skew = f->cumapz.ch_skew;
    m->shm_eff = f->cumapz.shm_eff;
    m->branch_eff = f->cumapz.branch_eff;
    m->mpe = f->cumapz.mpe;
    if (f->time_ok) {
        m->t_comp = f->time.t_comp;
        m->t_mem = f->time.t_mem;
        m->t_overlap = f->time.t_overlap;
        m->t_pipe = f->time.t_pipe;
        m->mlp = f->pk.mlp;
        m->amat = f->time.amat;
    }
    if (f->camat_ok) {
        m->camat = f->camat.camat;
        m->c_h = f->camat.c_h;
        m->c_m = f->camat.c_m;
        m->pmr = f->camat.pmr;
        m->pamp = f->camat.pamp;
    }
    m->dram_row_hit_rate = f->row_hit_rate;
    if (f->roof_ok) {
        const hms_roofline *r = &f->roof;
        m->predicted_time = r->time;
        m->binding = hms_roofline_name(r->binding);
        m->bound_model = r->bound[HMS_RL_MODEL];
        m->bound_dram = r->bound[HMS_RL_DRAM];
        m->bound_l2 = r->bound[HMS_RL_L2];
        m->bound_shared = r->bound[HMS_RL_SHARED];
        m->bound_fp32 = r->bound[HMS_RL_FP32];
        m->bound_issue = r->bound[HMS_RL_ISSUE];
        m->dram_gbs = f->dram_gbs;
        m->flops = f->roof_in.flops;
    } else { /* not evaluated: null in JSON */
        m->predicted_time = m->bound_model = m->bound_dram = m->bound_l2 = -1;
        m->bound_shared = m->bound_fp32 = m->bound_issue = m->dram_gbs = m->flops = -1;
    }
    m->dram_peak_gbs = c->arch->dram_bandwidth_gbs;
    m->occupancy = c->occ_ok ? c->occ.occupancy : 0;
    /* no access ran: no class (hms-analysis-limit says why) */
    m->bound = hms_ctx_no_access_ran(c) ? NULL : hms_bound_name(f->bound);
    if (f->time_ok) {
        double x[HMS_OVERLAP_COUNT];
        hms_overlap_inputs(&f->cur.kernel, f->pk.warps_per_sm, x);
        for (int i = 0; i < HMS_OVERLAP_INTERCEPT; i++)
            m->overlap_inputs[i] = x[i];
        m->overlap_inputs_ok = true;
    }
    m->hsm_demand_gbs = f->hsm_demand / 1e9;
    m->hsm_supply_gbs = f->hsm_supply / 1e9;
}

static void fill_header(hms_check_ctx *c, hms_kernel_report *r)
{
    const ir_kernel *k = c->k;
    r->name = xstrdup(k->name);
    r->line = k->loc.line;
    for (int i = 0; i < 3; i++) {
        r->launch.grid[i] = k->launch.grid[i];
        r->launch.block[i] = k->launch.block[i];
    }
    r->launch.shared_bytes = k->launch.shared_bytes;
    r->launch.source = launch_source_name(k->launch.source);
    r->launch.via = k->launch.via ? xstrdup(k->launch.via) : NULL;
    r->launch.others = k->launch.others ? xstrdup(k->launch.others) : NULL;
    r->model.bound = hms_bound_name(HMS_BOUND_COMPUTE);
    r->occupancy_limiter = "warps";
}

static void run_checks(hms_check_ctx *c)
{
    size_t n = 0;
    const hms_check_def *defs = hms_check_registry(&n);
    for (size_t i = 0; i < n; i++) {
        if (!hms_check_enabled(c->opt->checks, &defs[i]))
            continue;
        c->check = &defs[i];
        defs[i].run(c);
    }
    c->check = NULL;
}

static void ctx_free(hms_check_ctx *c)
{
    hms_kernel_trace_free(&c->trace); /* safe on a zeroed or failed trace */
    free(c->banks);
    hms_units_memo_free(c->units);
    free(c->sites);
    free(c->placements);
    hms_shared_reuse_free(&c->reuse);
    for (size_t i = 0; i < c->nlimits; i++)
        free(c->limits[i]);
    free(c->limits);
}

/* The context up to the occupancy step (the L1 carve-out applied); false
 * without an arch. */
static bool ctx_open(hms_check_ctx *c, const ir_kernel *k, const hms_analysis_options *o,
                     hms_kernel_report *out)
{
    memset(c, 0, sizeof *c);
    const hms_arch *arch = o->arch;
    char err[256];
    if (!arch)
        arch = hms_arch_get(HMS_ARCH_DEFAULT, err, sizeof err);
    if (!arch)
        return false;
    c->k = k;
    c->arch = arch;
    c->opt = o;
    c->budget = hms_analysis_budget_scaled(o->budget_scale);
    if (o->max_blocks)
        c->budget.blocks = o->max_blocks;
    c->placement_threshold =
        o->placement_threshold > 0 ? o->placement_threshold : HMS_DEFAULT_PLACEMENT_THRESHOLD;
    c->report = out;
    fill_header(c, out);

    step_occupancy(c);
    out->registers_per_thread = c->regs_per_thread;
    out->registers_source = hms_regs_source_name(c->reg.source);
    if (c->occ_ok) {
        /* the L1 the driver's carve-out leaves this kernel (Volta on) */
        long long shared = (long long)c->occ.shared_per_block * c->occ.blocks_per_sm;
        if (hms_arch_with_carveout(arch, shared, &c->arch_carved))
            c->arch = &c->arch_carved;
        out->occupancy_blocks_per_sm = c->occ.blocks_per_sm;
        out->occupancy_warps_per_sm = c->occ.warps_per_sm;
        out->occupancy_limiter = limiter_name(c->occ.limit);
    }
    return true;
}

bool hms_analyze_no_access_runs(const ir_kernel *k, const hms_analysis_options *o)
{
    if (!k || !o || !k->nsites)
        return false;
    hms_kernel_report scratch;
    memset(&scratch, 0, sizeof scratch);
    hms_check_ctx c;
    bool none = false;
    uint64_t grid = (uint64_t)k->launch.grid[0] * k->launch.grid[1] * k->launch.grid[2];
    if (ctx_open(&c, k, o, &scratch) && c.occ_ok) {
        trace_options(&c);
        /* The probe traces the whole sample: where the analysis's stopping
         * rule may trace only part of it, the probe could cost more than
         * the analysis it saves. */
        if (c.topt.stop_tolerance <= 0 || grid <= c.topt.max_blocks) {
            c.topt.reach_probe = true;
            hms_kernel_trace t;
            none = hms_trace_kernel(k, &c.topt, &t) && t.stream.n == 0 && !t.budget_exhausted;
            hms_kernel_trace_free(&t);
        }
    }
    ctx_free(&c);
    hms_kernel_report_free(&scratch);
    return none;
}

bool hms_analyze_kernel(const ir_kernel *k, const hms_analysis_options *o, hms_kernel_report *out)
{
    if (!k || !o || !out)
        return false;
    hms_check_ctx c;
    if (!ctx_open(&c, k, o, out))
        return false;
    if (c.occ_ok)
        step_trace(&c);
    bool ok = true;
    if (c.traced) {
        out->sampled = c.trace.sampled;
        c.units = hms_units_memo_new(&c.trace.stream);
        ok = hms_an_site_metrics(&c);
        if (ok) {
            hms_an_branches(&c);
            hms_an_memory_sim(&c);
            hms_an_placements(&c);
            hms_an_roofline(&c);
            hms_an_model_figures(&c);
            fill_accesses(&c, out);
            fill_placements(&c, out);
        }
    }
    fill_model(&c, out);
    run_checks(&c);
    ctx_free(&c);
    return ok;
}
