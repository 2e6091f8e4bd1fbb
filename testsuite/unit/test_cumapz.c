/* CuMAPz terms and MPE (runtime/cumapz.h), against the paper's motivating
 * example (seeds/001_3bb0fc5541bb7adb.txt, Section 3, Figs. 1-2, Tables
 * I-III) on a hand-built Tesla C1060 and hand-worked counts. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "runtime/cumapz.h"
#include "runtime/dram.h"

#define EPS 1e-12
#define MAX 16384u /* the example's row length in floats */

/* Tesla C1060 (cc 1.3) as CuMAPz describes it: 512-bit bus as 8 channels of
 * 256 B (Section 5.4), 16 banks of 4 B, half-warp coalescing. */
static hms_arch c1060(void)
{
    hms_arch a;
    memset(&a, 0, sizeof a);
    strcpy(a.name, "c1060-test");
    a.cc_major = 1;
    a.cc_minor = 3;
    a.warp_size = 32;
    a.half_warp_segments = true;
    a.sector_bytes = 32;
    a.line_bytes = 128;
    a.shared_banks = 16;
    a.shared_bank_bytes = 4;
    a.dram_channels = 8;
    a.dram_channel_bytes = 256;
    return a;
}

/* A post-Fermi part: 32-byte sectors, 32 banks. */
static hms_arch sectored(void)
{
    hms_arch a = c1060();
    strcpy(a.name, "sector-test");
    a.cc_major = 7;
    a.cc_minor = 0;
    a.half_warp_segments = false;
    a.shared_banks = 32;
    return a;
}

/* Address of thread (tx, ty) of block (bx, by); *active = false leaves the
 * lane out of the mask. */
typedef uint64_t (*addr_fn)(unsigned tx, unsigned ty, unsigned bx, unsigned by, bool *active);

/* One site executed once by every warp of block (bx, by) of a bdx x bdy
 * block; linear block id = by * grid_x + bx. */
static void run_block(hms_stream *s, unsigned bx, unsigned by, unsigned grid_x, unsigned bdx,
                      unsigned bdy, uint32_t site, uint32_t array, hms_space space, addr_fn f)
{
    unsigned threads = bdx * bdy;
    for (unsigned w0 = 0; w0 < threads; w0 += HMS_WARP_LANES) {
        hms_warp_access w;
        memset(&w, 0, sizeof w);
        w.site = site;
        w.array = array;
        w.space = (uint8_t)space;
        w.kind = HMS_ACCESS_LOAD;
        w.width = 4;
        w.exact = true;
        w.block = by * grid_x + bx;
        w.warp = w0 / HMS_WARP_LANES;
        w.time = site;
        for (unsigned l = 0; l < HMS_WARP_LANES && w0 + l < threads; l++) {
            unsigned t = w0 + l, tx = t % bdx, ty = t / bdx;
            bool active = true;
            w.addr[l] = f(tx, ty, bx, by, &active);
            if (active)
                w.mask |= 1u << l;
        }
        cr_assert(hms_stream_push(s, &w));
    }
}

/* ---- channel skew (eqs. 4-5) ------------------------------------------------ */

Test(cumapz, blocks_to_check_eq4)
{
    hms_arch a = c1060();
    /* 8 * min(4, 256 / (16 * 4) = 4) = 32 */
    cr_assert_eq(hms_cumapz_blocks_to_check(&a, 4, 16, 4), 32);
    /* 8 * min(2, 4) = 16 */
    cr_assert_eq(hms_cumapz_blocks_to_check(&a, 2, 16, 4), 16);
    /* 256 / (128 * 4) rounds to 0: at least one block per channel -> 8 */
    cr_assert_eq(hms_cumapz_blocks_to_check(&a, 8, 128, 4), 8);
    cr_assert_eq(hms_cumapz_blocks_to_check(&a, 0, 16, 4), 0);
}

/* Fig. 2 line 22 written column-wise, out[col*MAX+row] (Section 3.3). */
static uint64_t out_column_wise(unsigned tx, unsigned ty, unsigned bx, unsigned by, bool *active)
{
    (void)active;
    uint64_t row = by * 16 + ty, col = bx * 16 + tx;
    return (col * MAX + row) * 4;
}

static uint64_t out_row_wise(unsigned tx, unsigned ty, unsigned bx, unsigned by, bool *active)
{
    (void)active;
    uint64_t row = by * 16 + ty, col = bx * 16 + tx;
    return (row * MAX + col) * 4;
}

/* The first 32 blocks of the 1024 x 1024 grid of 16 x 16 blocks: C1060 runs
 * 4 such blocks per SM (1024 threads / 256), so eq. 4 checks 32 blocks. */
static void first_round(hms_stream *s, addr_fn f)
{
    for (unsigned bx = 0; bx < 32; bx++)
        run_block(s, bx, 0, 1024, 16, 16, 0, 0, HMS_SPACE_GLOBAL, f);
}

Test(cumapz, ch_skew_column_wise_store_camps_on_one_channel)
{
    /* Column col starts at col * 65536 B, a multiple of 8 * 256: channel =
     * (row * 4 / 256) % 8 = 0 for rows 0-15, every block of the first round
     * -> all in one channel -> ch_skew = n_channels = 8 (Table III's
     * ~3935 ms vs ~46-55 ms row-wise). */
    hms_arch a = c1060();
    hms_stream s;
    hms_stream_init(&s);
    first_round(&s, out_column_wise);
    hms_cumapz_skew sk;
    char err[128] = "";
    cr_assert(hms_cumapz_ch_skew(&a, &s, 1024u * 1024u, 4, 16, 4, &sk, err, sizeof err), "%s", err);
    cr_assert_eq(sk.blocks_checked, 32);
    cr_assert_not(sk.skipped);
    cr_assert_eq(sk.groups, 1);
    cr_assert_float_eq(sk.ch_skew, 8.0, EPS);
    hms_stream_free(&s);
}

Test(cumapz, ch_skew_row_wise_store_spreads_evenly)
{
    /* Block bx covers bytes bx*64 .. bx*64+63 of each row: channel (bx/4)%8,
     * so the 32 blocks put 4 in every channel -> 4/4 = 1. */
    hms_arch a = c1060();
    hms_stream s;
    hms_stream_init(&s);
    first_round(&s, out_row_wise);
    hms_cumapz_skew sk;
    char err[128];
    cr_assert(hms_cumapz_ch_skew(&a, &s, 1024u * 1024u, 4, 16, 4, &sk, err, sizeof err));
    cr_assert_float_eq(sk.ch_skew, 1.0, EPS);
    hms_stream_free(&s);
}

/* 16-thread blocks writing 64 B inside one channel: blocks 0-23 in channel
 * 0, blocks 24-31 in channel 1 (b * 2048 keeps the channel). */
static uint64_t uneven(unsigned tx, unsigned ty, unsigned bx, unsigned by, bool *active)
{
    (void)ty;
    (void)by;
    (void)active;
    return (bx < 24 ? 0 : 256) + (uint64_t)bx * 2048 + tx * 4;
}

Test(cumapz, ch_skew_uneven_is_max_over_min_nonzero)
{
    /* Eq. 5: 24 blocks / 8 blocks = 3 (the six idle channels do not enter). */
    hms_arch a = c1060();
    hms_stream s;
    hms_stream_init(&s);
    for (unsigned bx = 0; bx < 32; bx++)
        run_block(&s, bx, 0, 64, 16, 1, 0, 0, HMS_SPACE_GLOBAL, uneven);
    hms_cumapz_skew sk;
    char err[128];
    cr_assert(hms_cumapz_ch_skew(&a, &s, 64, 4, 16, 4, &sk, err, sizeof err));
    cr_assert_eq(sk.blocks_checked, 32);
    cr_assert_float_eq(sk.ch_skew, 3.0, EPS);
    hms_stream_free(&s);
}

Test(cumapz, ch_skew_skipped_for_small_grids_and_bad_arch)
{
    hms_arch a = c1060();
    hms_stream s;
    hms_stream_init(&s);
    first_round(&s, out_column_wise);
    hms_cumapz_skew sk;
    char err[128] = "";
    /* 16 blocks < 32 to check: the paper skips the analysis. */
    cr_assert(hms_cumapz_ch_skew(&a, &s, 16, 4, 16, 4, &sk, err, sizeof err));
    cr_assert(sk.skipped);
    cr_assert_float_eq(sk.ch_skew, 1.0, EPS);
    a.dram_channels = 0;
    cr_assert_not(hms_cumapz_ch_skew(&a, &s, 1u << 20, 4, 16, 4, &sk, err, sizeof err));
    cr_assert(strstr(err, "has no DRAM channels") != NULL, "got: %s", err);
    hms_stream_free(&s);
}

/* Eq. 5 the plain way, for the random comparison below: groups (site, k-th
 * execution by its warp) in ascending order, each group's distinct blocks
 * and, per channel, the distinct blocks with a lane there. */
static double naive_ch_skew(const hms_arch *a, const hms_stream *s, uint64_t n_check,
                            size_t *groups)
{
    enum { NREC = 4096, NCH = 8 };
    cr_assert_leq(s->n, NREC);
    cr_assert_eq(a->dram_channels, NCH);
    static uint64_t occ[NREC];
    static bool in[NREC];
    uint64_t max_site = 0, max_occ = 0;
    for (size_t i = 0; i < s->n; i++) {
        const hms_warp_access *w = &s->v[i];
        in[i] = (w->space == HMS_SPACE_GLOBAL || w->space == HMS_SPACE_READONLY) && w->mask &&
                w->block < n_check;
        occ[i] = 0;
        for (size_t j = 0; in[i] && j < i; j++)
            occ[i] += in[j] && s->v[j].site == w->site && s->v[j].block == w->block &&
                      s->v[j].warp == w->warp;
        if (in[i]) {
            max_site = w->site > max_site ? w->site : max_site;
            max_occ = occ[i] > max_occ ? occ[i] : max_occ;
        }
    }
    double weighted = 0, weight = 0;
    *groups = 0;
    for (uint64_t site = 0; site <= max_site; site++)
        for (uint64_t k = 0; k <= max_occ; k++) {
            double n_req = 0;
            uint64_t blocks = 0, per_channel[NCH] = {0};
            for (uint64_t b = 0; b < n_check; b++) {
                bool block_in = false, ch_in[NCH] = {false};
                for (size_t i = 0; i < s->n; i++) {
                    const hms_warp_access *w = &s->v[i];
                    if (!in[i] || w->site != site || occ[i] != k || w->block != b)
                        continue;
                    block_in = true;
                    n_req++;
                    for (int l = 0; l < HMS_WARP_LANES; l++)
                        if (w->mask >> l & 1u)
                            ch_in[hms_dram_channel(a, w->addr[l])] = true;
                }
                blocks += block_in;
                for (int c = 0; c < NCH; c++)
                    per_channel[c] += ch_in[c];
            }
            if (blocks < 2)
                continue;
            uint64_t mx = 0, mn = UINT64_MAX;
            unsigned used = 0;
            for (int c = 0; c < NCH; c++) {
                if (!per_channel[c])
                    continue;
                used++;
                mx = per_channel[c] > mx ? per_channel[c] : mx;
                mn = per_channel[c] < mn ? per_channel[c] : mn;
            }
            double g = used == 0   ? 1.0
                       : used == 1 ? (double)NCH
                                   : (double)mx / (double)(mn > 1 ? mn : 1);
            weighted += n_req * g;
            weight += n_req;
            ++*groups;
        }
    return weight > 0 ? weighted / weight : 1.0;
}

Test(cumapz, ch_skew_matches_the_plain_count_on_random_streams)
{
    hms_arch a = c1060();
    uint64_t seed = 12345;
    for (int round = 0; round < 40; round++) {
        hms_stream s;
        hms_stream_init(&s);
        unsigned nblocks = 2 + (unsigned)(round % 9), nsites = 1 + (unsigned)(round % 3);
        for (unsigned b = 0; b < nblocks; b++) {
            /* blocks mostly in order, as traced; every fifth round shuffled */
            unsigned blk = round % 5 == 4 ? (b * 7 + 3) % nblocks : b;
            unsigned nrec = 2 + (unsigned)(seed % 6);
            for (unsigned r = 0; r < nrec; r++) {
                hms_warp_access w;
                memset(&w, 0, sizeof w);
                seed = seed * 6364136223846793005ull + 1442695040888963407ull;
                w.site = (uint32_t)(seed >> 40) % nsites;
                w.warp = (uint32_t)(seed >> 50) % 3;
                w.block = blk;
                w.width = 4;
                w.kind = HMS_ACCESS_LOAD;
                w.space = (uint8_t)((seed >> 20) % 7 == 0 ? HMS_SPACE_SHARED : HMS_SPACE_GLOBAL);
                w.mask = (seed >> 33) % 4 == 0 ? (uint32_t)(seed >> 8) : UINT32_MAX;
                uint64_t base = (seed >> 12) % 8192, stride = 4u << ((seed >> 44) % 8);
                for (int l = 0; l < HMS_WARP_LANES; l++)
                    w.addr[l] = base + (uint64_t)l * stride;
                cr_assert(hms_stream_push(&s, &w));
            }
        }
        /* 1 block per SM, 16-thread blocks of 4 B: 256 / 64 = 4 per channel
         * capped at 1 -> 8 blocks checked; 2 per SM -> 16. */
        unsigned max_blks = 1 + (unsigned)(round % 2);
        hms_cumapz_skew sk;
        char err[128] = "";
        cr_assert(hms_cumapz_ch_skew(&a, &s, 64, max_blks, 16, 4, &sk, err, sizeof err), "%s", err);
        size_t groups = 0;
        double want = naive_ch_skew(&a, &s, sk.blocks_checked, &groups);
        cr_expect_eq(sk.groups, groups, "round %d", round);
        cr_expect(fabs(sk.ch_skew - want) <= 1e-12 * want, "round %d: %.17g vs %.17g", round,
                  sk.ch_skew, want);
        hms_stream_free(&s);
    }
}

/* ---- bw_util (eq. 3) ------------------------------------------------------------ */

static uint64_t g_stride, g_offset;
static uint64_t strided(unsigned tx, unsigned ty, unsigned bx, unsigned by, bool *active)
{
    (void)ty;
    (void)bx;
    (void)by;
    (void)active;
    return g_offset + tx * g_stride;
}

static void one_warp_transfer(const hms_arch *a, uint64_t stride, uint64_t offset, uint64_t *acc,
                              uint64_t *tr)
{
    hms_stream s;
    hms_stream_init(&s);
    g_stride = stride;
    g_offset = offset;
    run_block(&s, 0, 0, 1, 32, 1, 0, 0, HMS_SPACE_GLOBAL, strided);
    cr_assert_eq(hms_cumapz_stream_transfer(a, &s, NULL, acc, tr), 0);
    hms_stream_free(&s);
}

Test(cumapz, bw_util_cc13_unit_stride_vs_stride_two)
{
    hms_arch a = c1060();
    uint64_t acc, tr;
    /* Unit stride: each half-warp reads 64 aligned bytes -> one 128 B
     * segment whose lower/upper half is used -> 64 B; 128 / 128 = 1. */
    one_warp_transfer(&a, 4, 0, &acc, &tr);
    cr_assert_eq(acc, 128);
    cr_assert_eq(tr, 128);
    cr_assert_float_eq(hms_cumapz_bw_util((double)acc, (double)tr), 1.0, EPS);
    /* Stride 2: a half-warp's 16 words span 0..123 -> the whole 128 B
     * segment; 2 x 128 moved for 128 used -> 0.5. */
    one_warp_transfer(&a, 8, 0, &acc, &tr);
    cr_assert_eq(acc, 128);
    cr_assert_eq(tr, 256);
    cr_assert_float_eq(hms_cumapz_bw_util((double)acc, (double)tr), 0.5, EPS);
    /* Fig. 5(a)'s misaligned case, unit stride from byte 4: half-warp 0 uses
     * 4..67 of segment 0 (both halves, 128 B); half-warp 1 uses 68..127
     * (upper half, 64 B) and 128..131 (32 B) -> 224 B for 128: 0.571. */
    one_warp_transfer(&a, 4, 4, &acc, &tr);
    cr_assert_eq(tr, 224);
    cr_assert_float_eq(hms_cumapz_bw_util((double)acc, (double)tr), 128.0 / 224.0, EPS);
}

Test(cumapz, bw_util_sectors_and_broadcast)
{
    hms_arch a = sectored();
    uint64_t acc, tr;
    one_warp_transfer(&a, 4, 0, &acc, &tr); /* 4 sectors for 128 B */
    cr_assert_eq(tr, 128);
    one_warp_transfer(&a, 8, 0, &acc, &tr); /* 256 B span: 8 sectors */
    cr_assert_eq(acc, 128);
    cr_assert_eq(tr, 256);
    /* Every lane reads one word (MatMul's matrix A, Section 6.1): 4 useful
     * bytes of one 32 B sector -> 0.125, not a "perfect" 128 / 32. */
    one_warp_transfer(&a, 0, 64, &acc, &tr);
    cr_assert_eq(acc, 4);
    cr_assert_eq(tr, 32);
    cr_assert_float_eq(hms_cumapz_bw_util((double)acc, (double)tr), 0.125, EPS);
    cr_assert_float_eq(hms_cumapz_bw_util(0, 0), 1.0, EPS); /* no global traffic */
}

/* ---- shm_eff (eq. 6) ------------------------------------------------------------- */

static unsigned g_pitch; /* shared row length in floats: 16, or 17 padded */
static uint64_t shm_column(unsigned tx, unsigned ty, unsigned bx, unsigned by, bool *active)
{
    (void)bx;
    (void)by;
    (void)active;
    return (tx * g_pitch + ty) * 4; /* s_in[tx][ty] */
}

static uint64_t shm_row(unsigned tx, unsigned ty, unsigned bx, unsigned by, bool *active)
{
    (void)bx;
    (void)by;
    (void)active;
    return (ty * g_pitch + tx) * 4; /* s_in[ty][tx] */
}

static hms_cumapz_bank_counts banks_of(const hms_arch *a, unsigned bdx, unsigned bdy, addr_fn f)
{
    hms_stream s;
    hms_stream_init(&s);
    run_block(&s, 0, 0, 1, bdx, bdy, 0, 0, HMS_SPACE_SHARED, f);
    hms_cumapz_bank_counts c;
    cr_assert(hms_cumapz_bank_conflicts(a, &s, NULL, &c));
    hms_stream_free(&s);
    return c;
}

Test(cumapz, shm_eff_column_row_and_padded_buffers)
{
    hms_arch a = c1060();
    /* Section 5.5: s_in[16][16] read [tx][ty]: a half-warp (one ty, tx 0-15)
     * hits bank ty with 16 different words -> 16-way. 256 threads = 16
     * half-warps: n_bk_conflict = 16 * 16, shm_eff = 16 * 1 / 256. */
    g_pitch = 16;
    hms_cumapz_bank_counts c = banks_of(&a, 16, 16, shm_column);
    cr_assert_eq(c.n_half_warp, 16);
    cr_assert_eq(c.n_buffer, 1);
    cr_assert_eq(c.conflicted, 16);
    cr_assert_eq(c.n_bk_conflict, 256);
    cr_assert_float_eq(hms_cumapz_shm_eff(c.n_half_warp, c.n_buffer, c.n_bk_conflict), 1.0 / 16,
                       EPS);
    /* Row-wise [ty][tx]: one word per bank -> no conflict -> 1. */
    c = banks_of(&a, 16, 16, shm_row);
    cr_assert_eq(c.n_bk_conflict, 0);
    cr_assert_float_eq(hms_cumapz_shm_eff(c.n_half_warp, c.n_buffer, c.n_bk_conflict), 1.0, EPS);
    /* Padded [16][17] read [tx][ty]: bank (17 tx + ty) % 16 = (tx + ty) % 16,
     * all different -> conflict-free like row-wise (Table II's BLKDIM+1). */
    g_pitch = 17;
    c = banks_of(&a, 16, 16, shm_column);
    cr_assert_eq(c.n_bk_conflict, 0);
    /* MatMul's AB_x (Section 6.1): blockDim.x 8, [ty][tx] on 16-float rows:
     * threads 0 and 8 of a half-warp are (0,0) and (0,1), words 0 and 16,
     * both bank 0 -> 2-way everywhere -> 16 / 32 = 0.5. */
    g_pitch = 16;
    c = banks_of(&a, 8, 32, shm_row);
    cr_assert_eq(c.n_half_warp, 16);
    cr_assert_eq(c.n_bk_conflict, 32);
    cr_assert_float_eq(hms_cumapz_shm_eff(c.n_half_warp, c.n_buffer, c.n_bk_conflict), 0.5, EPS);
}

Test(cumapz, shm_eff_formula_edges)
{
    cr_assert_float_eq(hms_cumapz_shm_eff(16, 1, 0), 1.0, EPS); /* the paper's zero rule */
    cr_assert_float_eq(hms_cumapz_shm_eff(10, 2, 40), 0.5, EPS);
    cr_assert_float_eq(hms_cumapz_shm_eff(10, 2, 5), 1.0, EPS); /* clamped */
}

/* ---- the other terms ------------------------------------------------------------- */

Test(cumapz, lat_hiding_eq2)
{
    cr_assert_float_eq(hms_cumapz_lat_hiding(25, 4), 0.5 * 2.0, EPS);
    cr_assert_float_eq(hms_cumapz_lat_hiding(75, 1), 1.0, EPS); /* capped at 50% */
    cr_assert_float_eq(hms_cumapz_lat_hiding(10, 9), 0.2 * 3.0, EPS);
    cr_assert_float_eq(hms_cumapz_lat_hiding(100, 0), 1.0, EPS); /* no buffers: as 1 load */
}

Test(cumapz, data_reuse_and_branch_eff)
{
    /* Fig. 2 fetching in[row*MAX+col], per 16x16 block: 256 floats fetched
     * (1024 B, aligned, no waste); shared serves t1 for 256 lanes, t2 for
     * tx < 15 (240), t3 for tx < 14 (224): 720 floats = 2880 B. */
    cr_assert_float_eq(hms_cumapz_data_reuse(2880, 1024), 2.8125, EPS);
    cr_assert_float_eq(hms_cumapz_data_reuse(0, 0), 1.0, EPS); /* no buffers */
    /* 3 references x 8 warps, two of them diverging in every warp:
     * n_path = 8 + 16 + 16 = 40 -> 24 / 40. */
    cr_assert_float_eq(hms_cumapz_branch_eff(24, 40), 0.6, EPS);
    cr_assert_float_eq(hms_cumapz_branch_eff(5, 0), 1.0, EPS);
}

/* ---- MPE of the motivating example (eq. 8, Table I) --------------------------------- */

/* Fig. 2 on the C1060, 16x16 blocks, 100% occupancy (4 blocks x 256 = 1024
 * threads), one fetch reference, column-wise shared access; counts for two
 * neighbouring blocks (bx = 0, 1) so the +1/+2 fetch misalignment averages.
 * Global bytes (eq. 3) = the fetch + the lanes no buffer covers + the store.
 *   fetch in[c]  : fetch 2x1024 used / 2x1024 moved; in[c+1] uncovered at
 *                  tx 15 (4 B in a 32 B segment per half-warp), in[c+2] at
 *                  tx 14-15 (8 B in 32 B): 2x(1024 + 64 + 128 + 1024) = 4480
 *                  used, 2x(1024 + 512 + 512 + 1024) = 6144 moved;
 *                  shared: 2x2880 B for 2x1024 buffered.
 *   fetch in[c+1]: fetch moves 16x128 (bx 0: bytes 4..67) + 16x96 (bx 1:
 *                  68..131) = 3584 for 2048 used; uncovered in[c] at tx 0
 *                  and in[c+2] at tx 15 (4 B / 32 B each): 4352 used, 7680
 *                  moved; shared 2x(240+256+240)x4 = 5888 B.
 *   fetch in[c+2]: fetch as for c+1 (8..71: 128; 72..135: 64 + 32);
 *                  uncovered in[c] at tx 0-1, in[c+1] at tx 0: 4480 used,
 *                  7680 moved; shared 2x(224+240+256)x4 = 5760 B.
 * Divergent references per warp: two in every case -> branch_eff 0.6.
 * Bank conflicts per block, column-wise: the store and each read are 16-way
 * per half-warp, less the lanes that read global instead (tx 15 -> 15-way):
 *   c: 16 x (16 + 16 + 15 + 14) = 976; c+1: 16 x (16 + 15 + 16 + 15) = 992;
 *   c+2: 16 x (16 + 14 + 15 + 16) = 976; n_half_warp 16, n_buffer 1. */
static hms_cumapz_profile fig2(int fetch, bool column_wise)
{
    static const double shmem[3] = {5760, 5888, 5760};
    static const double buffered[3] = {2048, 3584, 3584};
    static const double used[3] = {4480, 4352, 4480};
    static const double moved[3] = {6144, 7680, 7680};
    static const uint64_t conflicts[3] = {976, 992, 976};
    hms_cumapz_profile p = {
        .bytes_shmem = shmem[fetch],
        .bytes_buffered = buffered[fetch],
        .occupancy_pct = 100,
        .n_shm_load = 1,
        .bytes_access = used[fetch],
        .bytes_transferred = moved[fetch],
        .ch_skew = 1,
        .n_half_warp = 16,
        .n_buffer = 1,
        .n_bk_conflict = column_wise ? conflicts[fetch] : 0,
        .n_warp = 24,
        .n_path = 40,
    };
    return p;
}

Test(cumapz, mpe_ranks_table1_fetch_choices)
{
    hms_cumapz_terms t[3];
    char err[128] = "";
    for (int f = 0; f < 3; f++) {
        hms_cumapz_profile p = fig2(f, true);
        cr_assert(hms_cumapz_evaluate(&p, &t[f], err, sizeof err), "%s", err);
    }
    /* Fetch c by hand: 2.8125 * 1 * (4480/6144) * 0.6 * sqrt(16/976). */
    double want0 = 2.8125 * (4480.0 / 6144.0) * 0.6 * sqrt(16.0 / 976.0);
    cr_assert_float_eq(t[0].mpe, want0, 1e-12);
    cr_assert_float_eq(t[1].data_reuse, 5888.0 / 3584.0, EPS);
    /* The highest data reuse (c+1, Table I's 771670016) does not win: MPE
     * ranks c > c+2 > c+1, the order of Table I's 61.11 < 63.77 < 64.86 ms. */
    cr_assert_gt(t[1].data_reuse, t[2].data_reuse);
    cr_assert_gt(t[0].mpe, t[2].mpe);
    cr_assert_gt(t[2].mpe, t[1].mpe);
}

Test(cumapz, mpe_prefers_row_wise_shared_access_table2)
{
    char err[128];
    for (int f = 0; f < 3; f++) {
        hms_cumapz_profile col = fig2(f, true), row = fig2(f, false);
        hms_cumapz_terms tc, tr;
        cr_assert(hms_cumapz_evaluate(&col, &tc, err, sizeof err));
        cr_assert(hms_cumapz_evaluate(&row, &tr, err, sizeof err));
        /* Table II: row-wise beats column-wise for every fetch reference. */
        cr_assert_gt(tr.mpe, tc.mpe, "fetch %d", f);
        cr_assert_float_eq(tr.shm_eff, 1.0, EPS);
    }
}

Test(cumapz, mpe_divides_by_channel_skew_table3)
{
    hms_cumapz_profile p = fig2(0, false);
    hms_cumapz_terms row, col;
    char err[128];
    cr_assert(hms_cumapz_evaluate(&p, &row, err, sizeof err));
    p.ch_skew = 8; /* the column-wise store of ch_skew_column_wise_store_... */
    cr_assert(hms_cumapz_evaluate(&p, &col, err, sizeof err));
    cr_assert_float_eq(col.mpe, row.mpe / 8, 1e-12);
}

/* The profile's hand numbers for the misaligned fetch, from a stream. */
static uint64_t fetch_plus_one(unsigned tx, unsigned ty, unsigned bx, unsigned by, bool *active)
{
    (void)active;
    uint64_t row = by * 16 + ty, col = bx * 16 + tx;
    return (row * MAX + col + 1) * 4;
}

Test(cumapz, fetch_misalignment_bytes_match_the_hand_profile)
{
    hms_arch a = c1060();
    hms_stream s;
    hms_stream_init(&s);
    run_block(&s, 0, 0, 1024, 16, 16, 0, 0, HMS_SPACE_GLOBAL, fetch_plus_one);
    run_block(&s, 1, 0, 1024, 16, 16, 0, 0, HMS_SPACE_GLOBAL, fetch_plus_one);
    uint64_t acc, tr;
    cr_assert_eq(hms_cumapz_stream_transfer(&a, &s, NULL, &acc, &tr), 0);
    cr_assert_eq(acc, 2048);
    cr_assert_eq(tr, 3584);
    hms_stream_free(&s);
}

Test(cumapz, evaluate_rejects_bad_counts)
{
    hms_cumapz_profile p = fig2(0, true);
    hms_cumapz_terms t;
    char err[128] = "";
    p.bytes_access = -1;
    cr_assert_not(hms_cumapz_evaluate(&p, &t, err, sizeof err));
    cr_assert(strstr(err, "bytes_access is -1") != NULL, "got: %s", err);
    cr_assert_float_eq(t.mpe, 0.0, EPS);
    p = fig2(0, true);
    p.occupancy_pct = 150;
    cr_assert_not(hms_cumapz_evaluate(&p, &t, err, sizeof err));
    cr_assert(strstr(err, "occupancy_pct is 150") != NULL, "got: %s", err);
    p = fig2(0, true);
    p.bytes_shmem = NAN;
    cr_assert_not(hms_cumapz_evaluate(&p, &t, err, sizeof err));
}
