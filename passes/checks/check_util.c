/* Shared helpers of the checks (check_util.h). */
#include "passes/checks/check_util.h"

#include "passes/analyze_internal.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *file_of(const hms_check_ctx *c, const ir_loc *loc)
{
    if (loc && loc->file)
        return loc->file;
    return c->k->loc.file;
}

hms_finding *hms_ctx_report(hms_check_ctx *c, const ir_loc *loc, const char *fmt, ...)
{
    char *msg = NULL;
    va_list ap;
    va_start(ap, fmt);
    int n = vasprintf(&msg, fmt, ap);
    va_end(ap);
    if (n < 0)
        return NULL;
    const ir_loc *l = loc && loc->line ? loc : &c->k->loc;
    hms_finding *f = hms_kernel_add_finding(c->report, c->check->name, c->check->severity,
                                            file_of(c, l), l->line, l->col, "%s", msg);
    free(msg);
    if (f && l->end_line) {
        f->end_line = l->end_line;
        f->end_col = l->end_col;
    }
    return f;
}

void hms_ctx_note(hms_check_ctx *c, hms_finding *f, const ir_loc *loc, const char *fmt, ...)
{
    if (!f)
        return;
    char *msg = NULL;
    va_list ap;
    va_start(ap, fmt);
    int n = vasprintf(&msg, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    const ir_loc *l = loc && loc->line ? loc : &c->k->loc;
    hms_finding_add_note(f, file_of(c, l), l->line, l->col, "%s", msg);
    free(msg);
}

const char *hms_fmt_num(char *buf, size_t len, double v, int digits)
{
    if (!isfinite(v)) {
        snprintf(buf, len, "%s", v > 0 ? "inf" : "n/a");
        return buf;
    }
    snprintf(buf, len, "%.*f", digits, v);
    char *dot = strchr(buf, '.');
    if (dot) {
        char *end = buf + strlen(buf) - 1;
        while (end > dot && *end == '0')
            *end-- = '\0';
        if (end == dot)
            *end = '\0';
    }
    if (strcmp(buf, "-0") == 0)
        snprintf(buf, len, "0");
    return buf;
}

static bool one_word(const char *s)
{
    if (!s || !*s)
        return false;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_')
            return false;
    return true;
}

const char *hms_fmt_elems(char *buf, size_t len, const ir_array *a, double count, int elem_size)
{
    char n[32];
    if (a && elem_size == a->elem_bytes && one_word(a->elem_type)) {
        hms_fmt_num(n, sizeof n, count, 2);
        snprintf(buf, len, "%s %s%s", n, a->elem_type, fabs(count) == 1 ? "" : "s");
    } else {
        hms_fmt_num(n, sizeof n, count * elem_size, 2);
        snprintf(buf, len, "%s byte%s", n, fabs(count * elem_size) == 1 ? "" : "s");
    }
    return buf;
}

double hms_site_mean(const hms_site_metrics *s, double sum)
{
    return s->requests > 0 ? sum / s->requests : 0;
}

double hms_ctx_predict(const hms_check_ctx *c, hms_model_edit edit, void *arg)
{
    return hms_ctx_predict_over(c, edit, arg, c->fig.roof_in.blocks);
}

double hms_ctx_predict_over(const hms_check_ctx *c, hms_model_edit edit, void *arg, double blocks)
{
    if (!c->fig.time_ok)
        return 0;
    hms_placement_kernel k = c->fig.pk;
    hms_placement_events e = c->fig.cur;
    if (edit)
        edit(&k, &e, arg);
    hms_placement_breakdown b;
    char err[256];
    if (!hms_placement_predict(c->arch, &k, &e, &e, &b, NULL, err, sizeof err))
        return 0;
    return hms_ctx_bounded_over(c, b.time, blocks);
}

bool hms_camping_judged(const hms_check_ctx *c, const char **why)
{
    const char *w = NULL;
    if (c->arch->dram_address_hashed) {
        /* Ruetsch & Micikevicius's camping is a GT200-era effect of plain
         * modulo interleaving; a hashed mapping spreads a column walk. */
        w = "this architecture hashes addresses across DRAM channels (dram.address_hashed), so "
            "concurrent blocks do not camp on a few channels as the modulo interleave models it";
    } else if (c->k->launch.source == IR_LAUNCH_DEFAULT) {
        w = "the launch configuration is assumed";
    } else {
        const uint32_t *g = c->k->launch.grid, *b = c->k->launch.block;
        double threads = (double)g[0] * g[1] * g[2] * (double)b[0] * b[1] * b[2];
        double span = (double)c->arch->dram_channels *
                      (c->arch->dram_channel_bytes > 0 ? c->arch->dram_channel_bytes : 256);
        /* at 4 bytes a thread, fewer bytes than one interleave of every channel */
        if (threads * 4 < span)
            w = "the launch is too small to occupy every DRAM channel";
    }
    if (why)
        *why = w;
    return w == NULL;
}

bool hms_ctx_no_access_ran(const hms_check_ctx *c)
{
    if (!c->traced || c->nsites == 0)
        return false;
    for (size_t i = 0; i < c->nsites; i++)
        if (c->sites[i].requests > 0)
            return false;
    return true;
}

bool hms_expr_assumed(const ir_kernel *k, const ir_expr *e)
{
    if (!e)
        return false;
    if (e->kind == IR_UNKNOWN)
        return true;
    if (e->kind == IR_VAR && e->var >= 0 && (size_t)e->var < k->nvars) {
        const ir_var *v = &k->vars[e->var];
        if (v->kind == IR_VAR_PARAM &&
            (!v->has_value || (v->value_source && !strcmp(v->value_source, "default"))))
            return true;
    }
    return hms_expr_assumed(k, e->a) || hms_expr_assumed(k, e->b) || hms_expr_assumed(k, e->c);
}

bool hms_only_across_guessed_rows(const hms_check_ctx *c, size_t site, hms_row_judge fine)
{
    const ir_launch *l = &c->k->launch;
    unsigned width = l->block[0];
    if (l->source != IR_LAUNCH_DEFAULT || width == 0 || width >= HMS_WARP_LANES ||
        HMS_WARP_LANES % width || l->block[1] * l->block[2] <= 1)
        return false;
    const hms_kernel_trace *t = &c->trace;
    uint32_t row_mask = (1u << width) - 1;
    bool any = false;
    for (size_t b = 0; b < t->nblocks; b++) {
        const hms_traced_block *B = &t->blocks[b];
        for (size_t i = B->first; i < B->first + B->count; i++) {
            const hms_warp_access *r = &t->stream.v[i];
            if (r->site != site || !r->mask)
                continue;
            for (unsigned lane = 0; lane < HMS_WARP_LANES; lane += width) {
                hms_warp_access row = *r;
                row.mask = r->mask & (row_mask << lane);
                if (!row.mask)
                    continue;
                if (!fine(c, &row))
                    return false;
                any = true;
            }
        }
    }
    return any;
}

bool hms_expr_block_dependent(const ir_expr *e, const bool *by_block)
{
    if (!e)
        return false;
    if (e->kind == IR_SYM)
        return (e->sym >= IR_SYM_BID_X && e->sym <= IR_SYM_BID_Z) ||
               (e->sym >= IR_SYM_GDIM_X && e->sym <= IR_SYM_GDIM_Z);
    if (e->kind == IR_VAR)
        return e->var >= 0 && by_block[e->var];
    return hms_expr_block_dependent(e->a, by_block) || hms_expr_block_dependent(e->b, by_block) ||
           hms_expr_block_dependent(e->c, by_block);
}
