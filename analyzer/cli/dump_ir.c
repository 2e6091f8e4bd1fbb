/* hms-lint --dump-ir: parse each file, build its kernels, print their IR. */
#include "analyzer/cli/dump_ir.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/cli/arch_select.h"
#include "analyzer/cli/commands.h"
#include "analyzer/cli/frontend_inputs.h"
#include "analyzer/frontend/ir_build.h"
#include "analyzer/frontend/launch_config.h"
#include "analyzer/frontend/parse.h"

static const char *const launch_sources[] = {"default", "cli", "annotation", "host-call"};

static const char *kind_name(hms_access_kind k)
{
    return k == HMS_ACCESS_LOAD ? "load" : k == HMS_ACCESS_STORE ? "store" : "atomic";
}

static void print_expr(FILE *out, const ir_kernel *k, const ir_expr *e)
{
    char buf[2048];
    int n = ir_expr_format(k, e, buf, sizeof buf);
    fputs(buf, out);
    if (n >= (int)sizeof buf)
        fputs("...", out);
}

/* "12:5", or "other.cuh:12:5" for code inlined from another file. */
static void print_loc(FILE *out, const ir_kernel *k, ir_loc l)
{
    if (l.file && k->loc.file && strcmp(l.file, k->loc.file) != 0) {
        const char *slash = strrchr(l.file, '/');
        fprintf(out, "%s:", slash ? slash + 1 : l.file);
    }
    fprintf(out, "%u:%u", l.line, l.col);
}

static void indent(FILE *out, int depth)
{
    for (int i = 0; i < depth; i++)
        fputs("  ", out);
}

static void print_access(FILE *out, const ir_kernel *k, const ir_access *a, int depth)
{
    indent(out, depth);
    print_loc(out, k, a->loc);
    const ir_array *arr =
        a->array >= 0 && (size_t)a->array < k->narrays ? &k->arrays[a->array] : NULL;
    fprintf(out, " %s %s %s %dB", kind_name(a->kind), arr ? arr->name : "?",
            arr ? hms_space_name(arr->space) : "?", a->width);
    if (a->elem_stride != a->width)
        fprintf(out, " stride=%d", a->elem_stride);
    if (a->field_offset)
        fprintf(out, " offset=%lld", (long long)a->field_offset);
    if (a->via_ldg)
        fputs(" ldg", out);
    if (a->mapping >= 0 && (size_t)a->mapping < k->nmappings) {
        const ir_mapping *m = &k->mappings[a->mapping];
        const ir_access *f = k->sites[m->fetch_site];
        fprintf(out, " mapping=%s@", k->arrays[m->global_array].name);
        print_loc(out, k, f->loc);
    }
    if (a->index2) {
        fputs(" index2={", out);
        print_expr(out, k, a->index2);
        fputs("}", out);
    }
    fputs(" index=", out);
    print_expr(out, k, a->index);
    fputc('\n', out);
}

static void print_stmt(FILE *out, const ir_kernel *k, const ir_stmt *s, int depth);

static void print_items(FILE *out, const ir_kernel *k, const ir_stmt *s, int depth)
{
    if (!s)
        return;
    if (s->kind != IR_S_BLOCK) {
        print_stmt(out, k, s, depth);
        return;
    }
    for (size_t i = 0; i < s->items.n; i++)
        print_stmt(out, k, s->items.v[i], depth);
}

/* The assignments of a loop's init or step block as "i = 0, j = 1"; false
 * when the block holds more than assignments. */
static bool inline_assigns(FILE *out, const ir_kernel *k, const ir_stmt *s)
{
    if (!s)
        return true;
    const ir_stmt *const *v = s->kind == IR_S_BLOCK ? (const ir_stmt *const *)s->items.v : &s;
    size_t n = s->kind == IR_S_BLOCK ? s->items.n : 1;
    for (size_t i = 0; i < n; i++)
        if (v[i]->kind != IR_S_ASSIGN)
            return false;
    for (size_t i = 0; i < n; i++) {
        const ir_var *var = &k->vars[v[i]->var];
        fprintf(out, "%s%s = ", i ? ", " : "", var->name);
        print_expr(out, k, v[i]->value);
    }
    return true;
}

static void print_loop(FILE *out, const ir_kernel *k, const ir_stmt *s, int depth)
{
    indent(out, depth);
    print_loc(out, k, s->loc);
    bool init_ok = true, step_ok = true;
    if (!s->test_first) {
        fputs(" do-while (", out);
        if (s->cond)
            print_expr(out, k, s->cond);
        else
            fputs("1", out);
        fputs(")", out);
    } else if (!s->init && !s->step) {
        fputs(" while (", out);
        if (s->cond)
            print_expr(out, k, s->cond);
        else
            fputs("1", out);
        fputs(")", out);
    } else {
        fputs(" for (", out);
        init_ok = inline_assigns(out, k, s->init);
        if (!init_ok)
            fputs("init:", out);
        fputs("; ", out);
        if (s->cond)
            print_expr(out, k, s->cond);
        fputs("; ", out);
        step_ok = inline_assigns(out, k, s->step);
        if (!step_ok)
            fputs("step:", out);
        fputs(")", out);
    }
    if (s->loop_var >= 0)
        fprintf(out, " var=%s", k->vars[s->loop_var].name);
    if (s->trip_count >= 0) {
        fprintf(out, " trip=%lld", (long long)s->trip_count);
    } else if (s->trip) {
        fputs(" trip=", out);
        print_expr(out, k, s->trip);
    } else {
        fputs(" trip=unknown", out);
    }
    fputc('\n', out);
    if (!init_ok) {
        indent(out, depth + 1);
        fputs("init:\n", out);
        print_items(out, k, s->init, depth + 2);
    }
    print_items(out, k, s->body, depth + 1);
    if (!step_ok) {
        indent(out, depth + 1);
        fputs("step:\n", out);
        print_items(out, k, s->step, depth + 2);
    }
}

static void print_stmt(FILE *out, const ir_kernel *k, const ir_stmt *s, int depth)
{
    switch (s->kind) {
    case IR_S_BLOCK:
        print_items(out, k, s, depth);
        return;
    case IR_S_ACCESS:
        print_access(out, k, &s->access, depth);
        return;
    case IR_S_ASSIGN:
        indent(out, depth);
        print_loc(out, k, s->loc);
        fprintf(out, " %s = ", s->var >= 0 ? k->vars[s->var].name : "?");
        print_expr(out, k, s->value);
        fputc('\n', out);
        return;
    case IR_S_IF:
        indent(out, depth);
        print_loc(out, k, s->loc);
        fputs(" if (", out);
        print_expr(out, k, s->cond);
        fputs(")\n", out);
        print_items(out, k, s->then, depth + 1);
        if (s->els) {
            indent(out, depth);
            fputs("else\n", out);
            print_items(out, k, s->els, depth + 1);
        }
        return;
    case IR_S_LOOP:
        print_loop(out, k, s, depth);
        return;
    case IR_S_SYNC:
    case IR_S_BREAK:
    case IR_S_CONTINUE:
    case IR_S_RETURN:
        indent(out, depth);
        print_loc(out, k, s->loc);
        fprintf(out, " %s\n",
                s->kind == IR_S_SYNC       ? "sync"
                : s->kind == IR_S_BREAK    ? "break"
                : s->kind == IR_S_CONTINUE ? "continue"
                                           : "return");
        return;
    }
}

static void print_array(FILE *out, const ir_kernel *k, const ir_array *a)
{
    fprintf(out, "  array %s %s %s", a->name, hms_space_name(a->space), a->elem_type);
    for (int d = 0; d < a->ndims; d++) {
        if (a->dims[d] > 0)
            fprintf(out, "[%lld]", (long long)a->dims[d]);
        else
            fputs("[]", out);
    }
    fprintf(out, " %dB", a->elem_bytes);
    if (a->is_param)
        fputs(" param", out);
    if (a->is_const)
        fputs(" const", out);
    if (a->is_restrict)
        fputs(" restrict", out);
    if (a->is_volatile)
        fputs(" volatile", out);
    if (a->is_extern_shared)
        fputs(" extern", out);
    if (a->space == HMS_SPACE_TEXTURE)
        fprintf(out, " tex%dd", a->tex_dims ? a->tex_dims : 1);
    if (a->base_array >= 0)
        fprintf(out, " base=%s+%lld", k->arrays[a->base_array].name, (long long)a->base_offset);
    if (a->in_registers)
        fputs(" registers", out);
    if (a->read)
        fputs(" read", out);
    if (a->written)
        fputs(" written", out);
    if (a->atomic)
        fputs(" atomic", out);
    if (a->via_ldg)
        fputs(" ldg", out);
    if (a->loc.line) {
        fputs(" decl ", out);
        print_loc(out, k, a->loc);
    }
    fputc('\n', out);
}

void hms_dump_ir_kernel(FILE *out, const ir_kernel *k)
{
    const ir_launch *l = &k->launch;
    fprintf(out,
            "kernel %s (%s:%u:%u-%u) launch grid=(%u,%u,%u) block=(%u,%u,%u) shared=%u "
            "source=%s",
            k->name, k->loc.file ? k->loc.file : "?", k->loc.line, k->loc.col, k->loc.end_line,
            l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1], l->block[2],
            l->shared_bytes, launch_sources[l->source]);
    if (l->loc.line)
        fprintf(out, " at %u:%u", l->loc.line, l->loc.col);
    if (l->via)
        fprintf(out, " via %s", l->via);
    fputc('\n', out);
    if (k->static_shared_bytes)
        fprintf(out, "  static-shared %d\n", k->static_shared_bytes);
    if (k->bounds_threads)
        fprintf(out, "  launch-bounds %d %d\n", k->bounds_threads, k->bounds_blocks);
    for (size_t i = 0; i < k->nparams; i++) {
        const ir_param *p = &k->params[i];
        fprintf(out, "  param %s %s", p->name, p->type);
        if (p->array >= 0)
            fprintf(out, " -> array %s", k->arrays[p->array].name);
        if (p->var >= 0) {
            const ir_var *v = &k->vars[p->var];
            if (v->has_value)
                fprintf(out, " = %lld (%s)", (long long)v->value,
                        v->value_source ? v->value_source : "?");
        }
        fputc('\n', out);
    }
    for (size_t i = 0; i < k->nvars; i++) {
        const ir_var *v = &k->vars[i];
        if (v->kind == IR_VAR_PARAM && v->has_value) {
            bool listed = false;
            for (size_t j = 0; j < k->nparams; j++)
                listed |= k->params[j].var == (int)i;
            if (!listed) /* struct parameter fields */
                fprintf(out, "  field %s = %lld (%s)\n", v->name, (long long)v->value,
                        v->value_source ? v->value_source : "?");
        }
    }
    for (size_t i = 0; i < k->narrays; i++)
        print_array(out, k, &k->arrays[i]);
    for (size_t i = 0; i < k->nmappings; i++) {
        const ir_mapping *m = &k->mappings[i];
        fprintf(out, "  mapping %s <- %s fetch=", k->arrays[m->shared_array].name,
                k->arrays[m->global_array].name);
        print_loc(out, k, k->sites[m->fetch_site]->loc);
        fputs(" access=", out);
        print_loc(out, k, k->sites[m->access_site]->loc);
        fputc('\n', out);
    }
    for (size_t i = 0; i < k->nlimits; i++) {
        const ir_limit *lim = &k->limits[i];
        fputs("  limit ", out);
        print_loc(out, k, lim->loc);
        fprintf(out, ": %s", lim->reason);
        if (lim->hint)
            fprintf(out, " [hint: %s]", lim->hint);
        fputc('\n', out);
    }
    fputs("  body:\n", out);
    print_items(out, k, k->body, 2);
}

int hms_cmd_dump_ir(const hms_options *o)
{
    hms_frontend_options fo = hms_frontend_inputs(o, hms_arch_or_default(o));
    hms_diag_sink said; /* printed as it comes, between the files' IR */
    hms_diag_sink_init(&said, stderr);
    hms_launch_cli cli;
    if (hms_launch_cli_parse(&fo, &cli, &said) != 0) {
        hms_diag_sink_free(&said);
        return 2;
    }
    hms_launch_cli_free(&cli);
    FILE *out = stdout;
    if (o->output) {
        out = fopen(o->output, "w");
        if (!out) {
            hms_diagf(&said, (hms_diag_head){HMS_DIAG_ERROR, o->output, 0, 0, NULL, NULL}, "%s",
                      strerror(errno));
            hms_diag_sink_free(&said);
            return 2;
        }
    }
    int rc = 0;
    for (size_t i = 0; i < o->files.n; i++) {
        hms_tu tu;
        if (!hms_parse_file(&fo, o->files.v[i], &tu, &said)) {
            rc = 2;
            continue;
        }
        if (hms_tu_failed(&tu))
            rc = 2; /* clang errors: still show what was understood */
        ir_kernel **ks = NULL;
        size_t n = hms_build_kernels(&tu, &fo, &ks, &said);
        fprintf(out, "file %s: %zu kernel%s\n", o->files.v[i], n, n == 1 ? "" : "s");
        for (size_t j = 0; j < n; j++)
            hms_dump_ir_kernel(out, ks[j]);
        hms_free_kernels(ks, n);
        hms_tu_dispose(&tu);
    }
    if (out != stdout && fclose(out) != 0) {
        hms_diagf(&said, (hms_diag_head){HMS_DIAG_ERROR, o->output, 0, 0, NULL, NULL},
                  "cannot write: %s", strerror(errno));
        rc = 2;
    }
    hms_diag_sink_free(&said);
    return rc;
}
