/* The Huang & Li placement model (seeds/000_2b7270bf81dd448e.txt):
 * T = T_comp + T_mem - T_overlap (eq. 1) per candidate space of one array. */
#include "runtime/placement.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "runtime/amat.h"
#include "runtime/banks.h"

const char *hms_placement_space_name(hms_placement_space s)
{
    static const char *const names[HMS_PLACE_COUNT] = {
        "global", "readonly", "texture1d", "texture2d", "constant", "shared",
    };
    return (unsigned)s < HMS_PLACE_COUNT ? names[s] : "?";
}

hms_space hms_placement_stream_space(hms_placement_space s)
{
    switch (s) {
    case HMS_PLACE_READONLY:
        return HMS_SPACE_READONLY;
    case HMS_PLACE_TEXTURE1D:
    case HMS_PLACE_TEXTURE2D:
        return HMS_SPACE_TEXTURE;
    case HMS_PLACE_CONSTANT:
        return HMS_SPACE_CONSTANT;
    case HMS_PLACE_SHARED:
        return HMS_SPACE_SHARED;
    default:
        return HMS_SPACE_GLOBAL;
    }
}

bool hms_placement_from_space(hms_space s, int tex_dims, hms_placement_space *out)
{
    switch (s) {
    case HMS_SPACE_GLOBAL:
        *out = HMS_PLACE_GLOBAL;
        return true;
    case HMS_SPACE_READONLY:
        *out = HMS_PLACE_READONLY;
        return true;
    case HMS_SPACE_TEXTURE:
        *out = tex_dims == 2 ? HMS_PLACE_TEXTURE2D : HMS_PLACE_TEXTURE1D;
        return true;
    case HMS_SPACE_CONSTANT:
        *out = HMS_PLACE_CONSTANT;
        return true;
    case HMS_SPACE_SHARED:
        *out = HMS_PLACE_SHARED;
        return true;
    default:
        return false;
    }
}

int hms_placement_addr_insts(hms_placement_space s)
{
    switch (s) {
    case HMS_PLACE_GLOBAL:
    case HMS_PLACE_READONLY:
        return 2; /* 64-bit address from index and base: two IMADs (paper Fig. 2a) */
    case HMS_PLACE_TEXTURE1D:
        return 0; /* the element index is the texel coordinate (Fig. 2b) */
    case HMS_PLACE_TEXTURE2D:
        return 2; /* our choice: x and y converted to float for tex2D */
    case HMS_PLACE_CONSTANT:
    case HMS_PLACE_SHARED:
        return 1; /* index scaled once, base is an immediate (Fig. 2c, 2d) */
    default:
        return 0;
    }
}

int hms_placement_addr_insts_on(const hms_arch *a, hms_placement_space s)
{
    if (a && a->unified_l1_texture && s == HMS_PLACE_TEXTURE1D)
        return hms_placement_addr_insts(HMS_PLACE_READONLY);
    return hms_placement_addr_insts(s);
}

void hms_overlap_default_coeffs(const hms_arch *a, double out[HMS_OVERLAP_COUNT])
{
    for (int i = 0; i < HMS_OVERLAP_COUNT; i++)
        out[i] = 0;
    int max_warps = a && a->max_warps_per_sm > 0 ? a->max_warps_per_sm : 64;
    out[HMS_OVERLAP_WARPS] = 0.8 / max_warps;
    out[HMS_OVERLAP_INTERCEPT] = 0.1;
}

double hms_placement_replays(const hms_placement_events *e)
{
    return e->replay_global_div + e->replay_const_miss + e->replay_const_div +
           e->replay_bank_conflict;
}

/* ---- legality -------------------------------------------------------------- */

static bool read_only_space(hms_placement_space s)
{
    return s == HMS_PLACE_READONLY || s == HMS_PLACE_TEXTURE1D || s == HMS_PLACE_TEXTURE2D ||
           s == HMS_PLACE_CONSTANT;
}

bool hms_placement_legal(const hms_arch *a, const hms_placement_kernel *k,
                         const hms_placement_array *arr, hms_placement_space s, char *reason,
                         size_t reasonlen)
{
    const char *name = arr->name ? arr->name : "the array";
    const char *sname = hms_placement_space_name(s);
    if ((unsigned)s >= HMS_PLACE_COUNT) {
        snprintf(reason, reasonlen, "unknown memory space %d", (int)s);
        return false;
    }
    if (s == arr->current) {
        snprintf(reason, reasonlen, "current placement");
        return true;
    }
    if (s == HMS_PLACE_READONLY && a->readonly.size_bytes == 0) {
        snprintf(reason, reasonlen, "%s has no read-only data cache (sm_35 and later)",
                 a->name[0] ? a->name : "this GPU");
        return false;
    }
    if (arr->written && read_only_space(s)) {
        snprintf(reason, reasonlen, "the kernel writes %s; %s memory is read-only in a kernel",
                 name, sname);
        return false;
    }
    if (arr->written && s == HMS_PLACE_SHARED) {
        snprintf(reason, reasonlen,
                 "the kernel writes %s; values stored in shared memory do not outlive the block",
                 name);
        return false;
    }
    if (s == HMS_PLACE_CONSTANT) {
        if (!(arr->bytes > 0)) {
            snprintf(reason, reasonlen,
                     "size of %s unknown: cannot check the 64 KB constant memory limit", name);
            return false;
        }
        double used = k->constant_bytes_used > 0 ? k->constant_bytes_used : 0;
        if (arr->bytes + used > HMS_CONSTANT_CAPACITY) {
            snprintf(reason, reasonlen,
                     "%s needs %.0f bytes; constant memory holds %.0f (%.0f used by other "
                     "arrays)",
                     name, arr->bytes, HMS_CONSTANT_CAPACITY, used);
            return false;
        }
        snprintf(reason, reasonlen, "fits: %.0f of %.0f constant bytes", arr->bytes + used,
                 HMS_CONSTANT_CAPACITY);
        return true;
    }
    if (s == HMS_PLACE_SHARED && arr->staging == HMS_STAGING_OWN_THREAD) {
        snprintf(reason, reasonlen,
                 "each thread reuses only the elements of %s it read itself: keep them in "
                 "registers, shared memory serves data shared by a block's threads",
                 name);
        return false;
    }
    if (s == HMS_PLACE_SHARED && arr->staging == HMS_STAGING_READ_ONCE) {
        snprintf(reason, reasonlen,
                 "each element of %s is read once per block by coalesced loads: a shared copy "
                 "would move the same bytes and add the copy",
                 name);
        return false;
    }
    if (s == HMS_PLACE_SHARED) {
        double need = arr->shared_bytes_per_block > 0 ? arr->shared_bytes_per_block : arr->bytes;
        double used = k->shared_bytes_per_block_used > 0 ? k->shared_bytes_per_block_used : 0;
        if (!(need > 0)) {
            snprintf(reason, reasonlen,
                     "size of %s unknown: cannot check the shared memory per block limit", name);
            return false;
        }
        if (need + used > a->shared_per_block) {
            snprintf(reason, reasonlen,
                     "%s needs %.0f bytes per block; %s allows %d shared bytes per block (%.0f "
                     "used by other arrays)",
                     name, need, a->name[0] ? a->name : "this GPU", a->shared_per_block, used);
            return false;
        }
        snprintf(reason, reasonlen, "fits: %.0f of %d shared bytes per block", need + used,
                 a->shared_per_block);
        return true;
    }
    if (s == HMS_PLACE_TEXTURE1D && arr->elements > HMS_TEXTURE1D_MAX_TEXELS) {
        snprintf(reason, reasonlen, "%s has %.0f elements; a 1D texture holds at most 2^27", name,
                 arr->elements);
        return false;
    }
    snprintf(reason, reasonlen, read_only_space(s) ? "read-only in this kernel" : "legal");
    return true;
}

/* ---- the model ------------------------------------------------------------- */

static bool positive(double x)
{
    return x > 0 && isfinite(x);
}

static bool nonneg(double x)
{
    return x >= 0 && isfinite(x);
}

static bool check_events(const hms_placement_events *e, char *err, size_t errlen)
{
    const char *sname = hms_placement_space_name(e->space);
    if ((unsigned)e->space >= HMS_PLACE_COUNT) {
        snprintf(err, errlen, "placement events: unknown space %d", (int)e->space);
        return false;
    }
    const double v[] = {e->requests,
                        e->addr_insts,
                        e->replay_global_div,
                        e->replay_const_miss,
                        e->replay_const_div,
                        e->replay_bank_conflict,
                        e->cache_hits,
                        e->cache_misses,
                        e->copy_bytes,
                        e->kernel.requests,
                        e->kernel.dram_requests,
                        e->kernel.shared_requests,
                        e->kernel.row_hits,
                        e->kernel.row_misses,
                        e->kernel.row_conflicts,
                        e->kernel.dram_latency,
                        e->kernel.hit_latency,
                        e->kernel.dram_bytes,
                        e->kernel.replays,
                        e->kernel.const_replays};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        if (!nonneg(v[i])) {
            snprintf(err, errlen, "placement events (%s): counts must be finite and >= 0", sname);
            return false;
        }
    for (int g = 0; g < HMS_OVL_GROUPS; g++)
        if (!nonneg(e->kernel.group_requests[g]) || !nonneg(e->kernel.group_events[g])) {
            snprintf(err, errlen, "placement events (%s): counts must be finite and >= 0", sname);
            return false;
        }
    return true;
}

static bool check_kernel(const hms_placement_kernel *k, char *err, size_t errlen)
{
    const char *what = NULL;
    if (!positive(k->total_warps))
        what = "total_warps must be > 0";
    else if (!positive(k->active_sms))
        what = "active_sms must be > 0";
    else if (!positive(k->warps_per_sm))
        what = "warps_per_sm must be > 0";
    else if (!nonneg(k->inst_issued) || !nonneg(k->mem_insts) || !nonneg(k->w_serial))
        what = "instruction counts and w_serial must be finite and >= 0";
    else if (!nonneg(k->ilp) || !nonneg(k->mlp) || !nonneg(k->avg_inst_lat))
        what = "ilp, mlp and avg_inst_lat must be >= 0 (0 = default)";
    if (what) {
        snprintf(err, errlen, "placement model: %s", what);
        return false;
    }
    return true;
}

void hms_overlap_inputs(const hms_kernel_traffic *t, double warps, double x[HMS_OVERLAP_COUNT])
{
    static const int coeff_of[HMS_OVL_GROUPS] = {HMS_OVERLAP_GLOBAL, HMS_OVERLAP_CONSTANT,
                                                 HMS_OVERLAP_TEXTURE, HMS_OVERLAP_SHARED};
    for (int i = 0; i < HMS_OVERLAP_COUNT; i++)
        x[i] = 0;
    if (t->requests > 0) {
        for (int g = 0; g < HMS_OVL_GROUPS; g++)
            x[coeff_of[g]] = (t->group_events[g] + t->group_requests[g]) / t->requests;
        x[HMS_OVERLAP_ROW_MISS] = t->row_misses / t->requests;
        x[HMS_OVERLAP_ROW_CONFLICT] = t->row_conflicts / t->requests;
    }
    x[HMS_OVERLAP_WARPS] = warps;
    x[HMS_OVERLAP_INTERCEPT] = 1;
}

/* T_overlap from Hong & Kim's three cases (ISCA 2009, eqs. for
 * Exec_cycles_app; the paper Huang & Li take MWP and CWP from), written as
 * the part of T_comp hidden under T_mem. Per SM and repetition (R =
 * warps / (N x SMs)), with P memory periods of AMAT per warp and C issue
 * cycles per warp (T_comp = C x N x R). P is the warp's memory requests
 * over MLP, all four memories' as in eq. 17 (Huang & Li count shared
 * requests, at their latency in AMAT, where Hong & Kim count global ones
 * only): the periods T_mem itself is built from.
 *  - MWP = N = CWP, too few warps: Mem_L x P + C + C / P x (MWP - 1):
 *    C x (1 + (MWP - 1) / P) of each warp's compute is exposed;
 *  - CWP >= MWP, memory bound: Mem_L x P x N / MWP + C / P x (MWP - 1):
 *    T_mem plus C x (MWP - 1) / P;
 *  - MWP > CWP, compute bound: Mem_L + C x N: T_comp plus one AMAT.
 * Replaces eq. 11's unfitted linear ratio when the arch asks for it. */
static double hong_kim_overlap(const hms_placement_breakdown *b, double mem_insts, double mlp,
                               double N, double W, double sms)
{
    double P = fmax(1.0, mem_insts / mlp), R = W / (N * sms), exposed;
    if (b->mwp >= N && b->cwp >= N)
        exposed = b->t_comp * (1 + (b->mwp - 1) / P) / N;
    else if (b->cwp >= b->mwp)
        exposed = b->t_comp * (b->mwp - 1) / (N * P);
    else
        exposed = fmax(0.0, b->t_comp - fmax(0.0, b->t_mem - b->amat * R));
    return fmin(fmax(b->t_comp - exposed, 0.0), b->t_mem);
}

/* Eq. 11 with the event terms per memory request and warps as a count. */
static double overlap_ratio(const double c[HMS_OVERLAP_COUNT], const hms_kernel_traffic *t,
                            double n)
{
    double x[HMS_OVERLAP_COUNT];
    hms_overlap_inputs(t, n, x);
    double r = c[HMS_OVERLAP_WARPS] * n + c[HMS_OVERLAP_INTERCEPT];
    for (int i = 0; i < HMS_OVERLAP_WARPS; i++)
        r += c[i] * x[i];
    return r;
}

bool hms_placement_predict(const hms_arch *a, const hms_placement_kernel *k,
                           const hms_placement_events *current, const hms_placement_events *target,
                           hms_placement_breakdown *out, bool *coefficients_default, char *err,
                           size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (!check_kernel(k, err, errlen) || !check_events(current, err, errlen) ||
        !check_events(target, err, errlen))
        return false;
    const double W = k->total_warps, N = k->warps_per_sm, sms = k->active_sms;
    const double ws = a->warp_size > 0 ? a->warp_size : 32;
    const double simd = a->simd_width > 0 ? a->simd_width : ws;
    /* SM cycles per warp instruction at peak issue: each of the SM's warp
     * schedulers issues one every warp_size / SIMD_width cycles. */
    const double cpi_sm = (ws / simd) / (a->schedulers_per_sm > 0 ? a->schedulers_per_sm : 1);
    const double lat = k->avg_inst_lat > 0 ? k->avg_inst_lat : HMS_PLACEMENT_DEFAULT_INST_LAT;
    const double ilp = k->ilp > 0 ? k->ilp : 1, mlp = k->mlp > 0 ? k->mlp : 1;

    /* Eq. 3 and the addressing-mode delta: only this array's share moves. */
    double delta = (target->addr_insts + hms_placement_replays(target)) -
                   (current->addr_insts + hms_placement_replays(current));
    out->inst = k->inst_issued + delta / W;
    if (out->inst < 0) {
        snprintf(err, errlen,
                 "placement model: inst_issued (%.3g per warp) is smaller than the array's own "
                 "addressing and replay instructions",
                 k->inst_issued);
        return false;
    }
    /* Eqs. 2, 13-15, with eq. 15's one issue unit per SM generalised to
     * schedulers_per_sm of them: ITILP_max = avg_inst_lat / cpi_sm. */
    double itilp_max = lat / cpi_sm;
    out->itilp = fmin(ilp * N, itilp_max);
    /* A replay of an L1 / shared-memory access is one more pass of the SM's
     * one memory pipe, not a dependent instruction: it costs throughput, not
     * latency. T_comp charges the instructions without those replays; each
     * pass (first and replayed) of the pipe goes into the bound t_pipe,
     * which the time never drops under. Constant operands and their replays
     * are served by the constant cache, outside that pipe: its replays stay
     * in T_comp at no less than their passes' time. */
    const hms_kernel_traffic *t = &target->kernel;
    double replays = fmin(t->replays / W, out->inst);
    double const_replays = fmin(fmin(t->const_replays, t->replays) / W, replays);
    double pipe_replays = replays - const_replays;
    double per_inst = lat / out->itilp, pass_cycles = hms_replay_sm_cycles(a);
    out->t_comp =
        ((out->inst - replays) * per_inst + const_replays * fmax(per_inst, pass_cycles)) * W / sms +
        k->w_serial;
    double pipe_requests = fmax(0.0, t->requests - t->group_requests[HMS_OVL_CONSTANT]) / W;
    out->t_pipe = (pipe_requests + pipe_replays) * pass_cycles * W / sms;

    /* Eq. 5. The paper uses the L2 hit latency for every cache and notes the
     * equation could weigh each cache's own latency; the events carry that
     * mean when they have it (placement_events.h). */
    double hit_lat = t->hit_latency > 0             ? t->hit_latency
                     : a->global_latency_l2_hit > 0 ? (double)a->global_latency_l2_hit
                                                    : (double)a->l2.hit_latency;
    hms_amat_inputs am;
    char why[160];
    if (!hms_amat_from_counts(t->requests, t->dram_requests, t->shared_requests, t->dram_latency,
                              hit_lat, a->shared_latency[0], &am, why, sizeof why)) {
        snprintf(err, errlen, "placement events (%s): %s", hms_placement_space_name(target->space),
                 why);
        return false;
    }
    out->amat = hms_amat(&am);

    /* Eqs. 17-19 with Hong & Kim's MWP/CWP. MWP_peak_bw = bandwidth per SM
     * (bytes/cycle) * AMAT / DRAM bytes per request; no DRAM traffic -> no
     * bandwidth bound. The departure-delay limit of Hong & Kim is not
     * modelled, so MWP = min(MWP_peak_bw, N). */
    double bw_gbs =
        a->dram_bandwidth_meas_gbs > 0 ? a->dram_bandwidth_meas_gbs : a->dram_bandwidth_gbs;
    if (k->dram_channel_factor > 1) /* camping: the busy channels' share of the peak */
        bw_gbs /= k->dram_channel_factor;
    double bytes_per_req = t->requests > 0 ? t->dram_bytes / t->requests : 0;
    double mwp_peak = N;
    if (bw_gbs > 0 && a->clock_ghz > 0 && bytes_per_req > 0)
        mwp_peak = bw_gbs / a->clock_ghz / sms * out->amat / bytes_per_req;
    out->mwp = fmin(mwp_peak, N);
    /* a warp's issue cycles as the SM sees them: schedulers_per_sm warps issue at once */
    double comp_cycles = (out->inst - replays) * cpi_sm + replays * fmax(cpi_sm, pass_cycles);
    double mem_cycles = k->mem_insts * out->amat;
    out->cwp = comp_cycles > 0 ? fmin((mem_cycles + comp_cycles) / comp_cycles, N) : N;
    double mwp_cp = fmin(fmax(1.0, out->cwp - 1.0), out->mwp);
    out->itmlp = fmin(mlp * mwp_cp, mwp_peak);
    if (!(out->itmlp > 0))
        out->itmlp = 1; /* AMAT of 0: nothing to overlap */
    out->eff_requests = k->mem_insts * W / (sms * out->itmlp);
    out->t_mem = out->eff_requests * out->amat;

    /* Eqs. 11-12; with the ratio in [0, 1], T never drops below T_comp. */
    double c[HMS_OVERLAP_COUNT];
    bool dflt = a->overlap_coeffs_default;
    bool any = false;
    for (int i = 0; i < HMS_OVERLAP_COUNT; i++)
        any |= a->overlap_coeff[i] != 0;
    if (any)
        memcpy(c, a->overlap_coeff, sizeof c);
    else {
        hms_overlap_default_coeffs(a, c);
        dflt = true;
    }
    if (coefficients_default)
        *coefficients_default = dflt;
    /* With the default coefficients the warps term stands for the
     * independent work the SM can overlap with memory: a warp with ILP
     * independent chains offers as much as ILP warps (eq. 14 makes the same
     * trade, ITILP = ILP * N), up to a full SM. Fitted coefficients keep the
     * paper's raw warp count. */
    double n_ovl = N;
    if (dflt && a->max_warps_per_sm > 0)
        n_ovl = fmin(N * ilp, fmax(N, (double)a->max_warps_per_sm));
    double r = overlap_ratio(c, t, n_ovl);
    out->overlap_ratio = fmin(fmax(r, 0.0), 1.0);
    out->overlap_clamped = out->overlap_ratio != r;
    out->t_overlap = out->overlap_ratio * out->t_mem;
    if (a->overlap_hong_kim) {
        out->t_overlap = hong_kim_overlap(out, k->mem_insts, mlp, N, W, sms);
        out->overlap_ratio = out->t_mem > 0 ? out->t_overlap / out->t_mem : 0;
        out->overlap_clamped = false;
    }

    if (target->space == HMS_PLACE_SHARED && current->space != HMS_PLACE_SHARED &&
        target->copy_bytes > 0) {
        double line = a->line_bytes > 0 ? a->line_bytes : 128;
        double dram = current->kernel.dram_latency > 0 ? current->kernel.dram_latency
                                                       : (double)a->global_latency_dram;
        out->t_copy = target->copy_bytes / line / (sms * out->itmlp) * fmax(dram, hit_lat);
    }
    /* The pipe's passes overlap with outstanding memory requests: a bound,
     * not a term (docs/model.md "Replays as pipe throughput"). */
    out->time = fmax(out->t_comp + out->t_mem - out->t_overlap, out->t_pipe) + out->t_copy;
    return true;
}

/* ---- ranking --------------------------------------------------------------- */

bool hms_placement_rank(const hms_arch *a, const hms_placement_kernel *k,
                        const hms_placement_array *arr, const hms_placement_events *cands,
                        size_t ncands, hms_placement_ranking *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    const char *name = arr->name ? arr->name : "array";
    if ((unsigned)arr->current >= HMS_PLACE_COUNT) {
        snprintf(err, errlen, "placement of %s: unknown current space %d", name, (int)arr->current);
        return false;
    }
    const hms_placement_events *by_space[HMS_PLACE_COUNT] = {0};
    for (size_t i = 0; i < ncands; i++) {
        hms_placement_space s = cands[i].space;
        if ((unsigned)s >= HMS_PLACE_COUNT) {
            snprintf(err, errlen, "placement of %s: candidate %zu has unknown space %d", name, i,
                     (int)s);
            return false;
        }
        if (by_space[s]) {
            snprintf(err, errlen, "placement of %s: two candidates for %s", name,
                     hms_placement_space_name(s));
            return false;
        }
        by_space[s] = &cands[i];
    }
    const hms_placement_events *cur = by_space[arr->current];
    if (!cur) {
        snprintf(err, errlen, "placement of %s: no events for its current space %s", name,
                 hms_placement_space_name(arr->current));
        return false;
    }
    out->current = out->best = arr->current;
    out->coefficients_default = false;

    double t_cur = 0;
    for (int s = 0; s < HMS_PLACE_COUNT; s++) {
        hms_placement_candidate_result *o = &out->options[s];
        o->space = (hms_placement_space)s;
        o->legal = hms_placement_legal(a, k, arr, o->space, o->reason, sizeof o->reason);
        if (!o->legal)
            continue;
        if (!by_space[s]) {
            snprintf(o->reason, sizeof o->reason, "not evaluated: no event counts");
            continue;
        }
        char why[200];
        bool dflt = false;
        if (!hms_placement_predict(a, k, cur, by_space[s], &o->model, &dflt, why, sizeof why)) {
            snprintf(err, errlen, "placement of %s as %s: %s", name, hms_placement_space_name(s),
                     why);
            return false;
        }
        out->coefficients_default |= dflt;
        o->evaluated = true;
        o->time = o->model.time;
        if (s == (int)arr->current)
            t_cur = o->time;
    }
    for (int s = 0; s < HMS_PLACE_COUNT; s++) {
        hms_placement_candidate_result *o = &out->options[s];
        if (o->evaluated)
            o->speedup = o->time > 0 ? t_cur / o->time : 1.0;
    }

    /* Order: evaluated by time (current first on ties, then enum order),
     * legal but unevaluated, illegal. Insertion sort over six entries. */
    size_t n = 0;
    for (int s = 0; s < HMS_PLACE_COUNT; s++)
        out->order[n++] = (hms_placement_space)s;
    for (size_t i = 1; i < n; i++) {
        hms_placement_space x = out->order[i];
        size_t j = i;
        while (j > 0) {
            const hms_placement_candidate_result *p = &out->options[out->order[j - 1]];
            const hms_placement_candidate_result *q = &out->options[x];
            int rp = p->evaluated ? 0 : p->legal ? 1 : 2;
            int rq = q->evaluated ? 0 : q->legal ? 1 : 2;
            bool before = rq < rp;
            if (rq == rp && rq == 0)
                before = q->time < p->time ||
                         (q->time == p->time && x == arr->current && p->space != arr->current);
            if (!before)
                break;
            out->order[j] = out->order[j - 1];
            j--;
        }
        out->order[j] = x;
    }
    out->best = out->order[0];
    return true;
}
