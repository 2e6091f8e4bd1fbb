/* --explain tables (see report_explain.h). Figures < 0 mean "not applicable"
 * in the report model and print as "-". */
#include "analyzer/report/report_explain.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_COLS 12
#define CELL 256 /* long enough for placement reasons */

/* A small left/right-aligned text table. */
typedef struct {
    int ncols;
    const char *head[MAX_COLS];
    bool right[MAX_COLS];
    char (*cells)[MAX_COLS][CELL];
    size_t nrows, cap;
} table;

static char (*table_row(table *t))[CELL]
{
    if (t->nrows == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 8;
        void *nc = realloc(t->cells, cap * sizeof *t->cells);
        if (!nc)
            return NULL;
        t->cells = nc;
        t->cap = cap;
    }
    memset(t->cells[t->nrows], 0, sizeof t->cells[t->nrows]);
    return t->cells[t->nrows++];
}

static void table_print(const table *t, FILE *out, const char *indent)
{
    size_t w[MAX_COLS];
    for (int c = 0; c < t->ncols; c++) {
        w[c] = strlen(t->head[c]);
        for (size_t r = 0; r < t->nrows; r++)
            if (strlen(t->cells[r][c]) > w[c])
                w[c] = strlen(t->cells[r][c]);
    }
    for (size_t r = 0; r <= t->nrows; r++) {
        fputs(indent, out);
        /* Build the line first so trailing blanks can be dropped. */
        char line[MAX_COLS * (CELL + 2) + 1];
        size_t n = 0;
        for (int c = 0; c < t->ncols; c++) {
            const char *s = r == 0 ? t->head[c] : t->cells[r - 1][c];
            int pad = (int)(w[c] - strlen(s));
            n += (size_t)snprintf(line + n, sizeof line - n, "%s%*s%s%*s", c ? "  " : "",
                                  t->right[c] ? pad : 0, "", s, t->right[c] ? 0 : pad, "");
        }
        while (n > 0 && line[n - 1] == ' ')
            n--;
        line[n] = '\0';
        fprintf(out, "%s\n", line);
    }
}

static void table_free(table *t)
{
    free(t->cells);
}

/* "-" for not applicable, integers without decimals, others with 2 decimals
 * (1 from 100 up, 3 significant digits below 1). */
static const char *num(char *buf, size_t len, double v)
{
    if (v < 0 || isnan(v))
        snprintf(buf, len, "-");
    else if (isinf(v))
        snprintf(buf, len, "inf");
    else if (v == floor(v) && v < 1e15)
        snprintf(buf, len, "%.0f", v);
    else if (v >= 100)
        snprintf(buf, len, "%.1f", v);
    else if (v >= 1)
        snprintf(buf, len, "%.2f", v);
    else
        snprintf(buf, len, "%.3g", v); /* small ratios: keep 3 significant digits */
    return buf;
}

static const char *pct(char *buf, size_t len, double fraction)
{
    if (fraction < 0 || isnan(fraction))
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%.1f%%", fraction * 100.0);
    return buf;
}

static const char *launch_source_words(const char *s)
{
    if (!s)
        return "unknown";
    if (!strcmp(s, "cli"))
        return "from the command line (--launch)";
    if (!strcmp(s, "annotation"))
        return "from a // hms-lint: launch annotation";
    if (!strcmp(s, "host-call"))
        return "from the host-side <<<...>>> call";
    if (!strcmp(s, "default"))
        return "the default; give --launch or an annotation for real figures";
    return s;
}

static void print_accesses(const hms_kernel_report *k, FILE *out)
{
    if (k->naccesses == 0) {
        fputs("  accesses: none\n", out);
        return;
    }
    table t = {12,
               {"line:col", "array", "space", "kind", "bytes", "requests", "sectors/req",
                "lines/req", "wavefronts/req", "distinct/req", "latency", "exact"},
               {false, false, false, false, true, true, true, true, true, true, true, false},
               NULL,
               0,
               0};
    for (size_t i = 0; i < k->naccesses; i++) {
        const hms_access_metrics *a = &k->accesses[i];
        char(*row)[CELL] = table_row(&t);
        if (!row)
            break;
        snprintf(row[0], CELL, "%u:%u", a->line, a->col);
        snprintf(row[1], CELL, "%s", a->array ? a->array : "?");
        snprintf(row[2], CELL, "%s", a->space ? a->space : "?");
        snprintf(row[3], CELL, "%s", a->kind ? a->kind : "?");
        snprintf(row[4], CELL, "%d", a->element_bytes);
        num(row[5], CELL, a->requests);
        num(row[6], CELL, a->sectors_per_request);
        num(row[7], CELL, a->lines_per_request);
        num(row[8], CELL, a->bank_wavefronts_per_request);
        num(row[9], CELL, a->distinct_addresses_per_request);
        num(row[10], CELL, a->latency_cycles);
        snprintf(row[11], CELL, "%s", a->exact ? "yes" : "estimate");
    }
    fputs("  accesses:\n", out);
    table_print(&t, out, "    ");
    table_free(&t);
}

static void print_placements(const hms_kernel_report *k, FILE *out)
{
    if (k->nplacements == 0) {
        fputs("  placements: none evaluated\n", out);
        return;
    }
    table t = {6,
               {"array", "option", "legal", "predicted cycles", "speedup", "reason"},
               {false, false, false, true, true, false},
               NULL,
               0,
               0};
    for (size_t i = 0; i < k->nplacements; i++) {
        const hms_placement *p = &k->placements[i];
        for (size_t j = 0; j < p->noptions; j++) {
            const hms_placement_option *o = &p->options[j];
            char(*row)[CELL] = table_row(&t);
            if (!row)
                break;
            bool best = p->best && o->space && !strcmp(p->best, o->space);
            bool current = p->current && o->space && !strcmp(p->current, o->space);
            snprintf(row[0], CELL, "%s", j == 0 && p->array ? p->array : "");
            snprintf(row[1], CELL, "%s%s%s", o->space ? o->space : "?", best ? "*" : "",
                     current ? " (current)" : "");
            snprintf(row[2], CELL, "%s", o->legal ? "yes" : "no");
            num(row[3], CELL, o->legal ? o->predicted_time : -1);
            if (o->legal && o->speedup >= 0)
                snprintf(row[4], CELL, "%.2fx", o->speedup);
            else
                snprintf(row[4], CELL, "-");
            snprintf(row[5], CELL, "%.*s", CELL - 1, o->reason ? o->reason : "");
        }
    }
    fputs("  placements (* = best):\n", out);
    table_print(&t, out, "    ");
    table_free(&t);
}

void hms_write_explain(const hms_kernel_report *k, const char *file, FILE *out)
{
    char a[32], b[32], c[32], d[32], e[32], f[32], g[32];
    const hms_launch_report *l = &k->launch;
    const hms_model_figures *m = &k->model;

    fprintf(out, "\nkernel %s (%s:%u)\n", k->name ? k->name : "?", file ? file : "?", k->line);
    fprintf(out, "  launch: grid (%u,%u,%u) block (%u,%u,%u), %u bytes dynamic shared memory\n",
            l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1], l->block[2],
            l->shared_bytes);
    fprintf(out, "  launch source: %s\n", launch_source_words(l->source));
    if (l->via)
        fprintf(out, "  launch values via: %s\n", l->via);
    if (l->others && l->others_analysed)
        fprintf(out, "  launched with several configurations, each analysed: %s\n", l->others);
    else if (l->others)
        fprintf(out,
                "  other call paths launch it with: %s (not analysed: the first path in "
                "source order is)\n",
                l->others);
    fprintf(out, "  figures: %s\n",
            k->sampled ? "sampled from a subset of blocks and scaled to the whole grid"
                       : "every block of the grid simulated");
    fprintf(out, "  occupancy: %s blocks/SM, %s warps/SM (%s of the maximum), limited by %s\n",
            num(a, sizeof a, k->occupancy_blocks_per_sm),
            num(b, sizeof b, k->occupancy_warps_per_sm), pct(c, sizeof c, m->occupancy),
            k->occupancy_limiter ? k->occupancy_limiter : "-");
    if (k->registers_per_thread > 0)
        fprintf(out, "  registers per thread: %d (%s%s)\n", k->registers_per_thread,
                k->registers_source ? k->registers_source : "-",
                k->registers_source && strcmp(k->registers_source, "ptxas") != 0
                    ? "; --ptxas gives the compiler's count"
                    : "");
    print_accesses(k, out);
    print_placements(k, out);

    double total = m->t_comp + m->t_mem - m->t_overlap;
    fprintf(out, "  time (cycles, Huang & Li eq. 1): t_comp %s + t_mem %s - t_overlap %s = %s\n",
            num(a, sizeof a, m->t_comp), num(b, sizeof b, m->t_mem), num(c, sizeof c, m->t_overlap),
            num(d, sizeof d, m->t_comp < 0 || m->t_mem < 0 || m->t_overlap < 0 ? -1 : total));
    if (m->t_pipe > 0)
        fprintf(out,
                "  memory-pipe bound (cycles per SM: requests and replays, one pass each): %s%s\n",
                num(a, sizeof a, m->t_pipe), m->t_pipe > total ? " (binds: the model's time)" : "");
    if (m->mlp > 0)
        fprintf(out,
                "  memory requests in flight per warp (MLP, estimate): %s (off-chip loads issued "
                "before one is needed, or register-array chains)\n",
                num(a, sizeof a, m->mlp));
    if (m->binding) {
        fprintf(out,
                "  roofline bounds (cycles): model %s  dram %s  l2 %s  shared %s  fp32 %s  "
                "issue %s\n",
                num(a, sizeof a, m->bound_model), num(b, sizeof b, m->bound_dram),
                num(c, sizeof c, m->bound_l2), num(d, sizeof d, m->bound_shared),
                num(e, sizeof e, m->bound_fp32), num(f, sizeof f, m->bound_issue));
        fprintf(out,
                "  predicted time: %s cycles (estimate), bound by %s; DRAM %s GB/s of %s GB/s "
                "peak; %s FLOPs counted (a lower bound)\n",
                num(a, sizeof a, m->predicted_time), m->binding, num(b, sizeof b, m->dram_gbs),
                num(c, sizeof c, m->dram_peak_gbs), num(d, sizeof d, m->flops));
    }
    fprintf(out,
            "  CuMAPz (eqs. 1-8): data_reuse %s  lat_hiding %s  bw_util %s  ch_skew %s  "
            "shm_eff %s  branch_eff %s  MPE %s\n",
            num(a, sizeof a, m->data_reuse), num(b, sizeof b, m->lat_hiding),
            num(c, sizeof c, m->bw_util), num(d, sizeof d, m->ch_skew),
            num(e, sizeof e, m->shm_eff), num(f, sizeof f, m->branch_eff),
            num(g, sizeof g, m->mpe));
    fprintf(out, "  AMAT: %s cycles\n", num(a, sizeof a, m->amat));
    fprintf(out, "  C-AMAT: %s cycles (C_H %s, C_M %s, pMR %s, pAMP %s)\n",
            num(a, sizeof a, m->camat), num(b, sizeof b, m->c_h), num(c, sizeof c, m->c_m),
            num(d, sizeof d, m->pmr), num(e, sizeof e, m->pamp));
    fprintf(out, "  DRAM row-buffer hit rate: %s\n", pct(a, sizeof a, m->dram_row_hit_rate));
    fprintf(out, "  HSM: %s-bound\n", m->bound ? m->bound : "unknown");
}
