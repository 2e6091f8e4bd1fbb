/* Clang-style text diagnostics (see report_text.h). */
#include "analyzer/report/report_text.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyzer/report/finding_groups.h"
#include "analyzer/report/report_explain.h"
#include "analyzer/report/report_ranking.h"
#include "analyzer/report/source_cache.h"

/* The escape sequences clang's TextDiagnostic emits; notes use cyan rather
 * than clang's bold black, which vanishes on dark terminals. */
#define C_BOLD "\033[1m"
#define C_RESET "\033[0m"
#define C_ERROR "\033[0;1;31m"
#define C_WARNING "\033[0;1;35m"
#define C_NOTE "\033[0;1;36m"
#define C_CARET "\033[0;1;32m"
#define C_FIXIT "\033[0;32m"

#define TAB_STOP 8 /* clang's DiagnosticOptions::DefaultTabStop */

bool hms_use_color(int color_option, FILE *out)
{
    if (color_option == 1)
        return true;
    if (color_option == 0)
        return false;
    const char *no_color = getenv("NO_COLOR");
    if (no_color && *no_color)
        return false;
    const char *term = getenv("TERM");
    if (term && strcmp(term, "dumb") == 0)
        return false;
    return isatty(fileno(out)) == 1;
}

typedef struct {
    FILE *out;
    bool color;
    hms_source_cache src;
    bool as_given;
} text_ctx;

static void put_color(text_ctx *t, const char *seq)
{
    if (t->color)
        fputs(seq, t->out);
}

/* `file:line:col: <severity>: message [check]`; check is NULL for notes. */
static void print_header(text_ctx *t, const char *file, unsigned line, unsigned col,
                         hms_severity sev, const char *message, const char *check, bool is_note)
{
    put_color(t, C_BOLD);
    /* A whole-line location (an annotation, a launch) has no column: clang
     * and every problem matcher expect one, so it starts the line. */
    fprintf(t->out, "%s:%u:%u: ", file ? file : "<unknown>", line, col ? col : 1);
    put_color(t, C_RESET);
    const char *sev_color = is_note || sev == HMS_SEV_NOTE ? C_NOTE
                            : sev == HMS_SEV_ERROR         ? C_ERROR
                                                           : C_WARNING;
    put_color(t, sev_color);
    fprintf(t->out, "%s: ", is_note ? "note" : hms_severity_name(sev));
    put_color(t, C_RESET);
    if (!is_note)
        put_color(t, C_BOLD);
    fputs(message ? message : "", t->out);
    if (check)
        fprintf(t->out, " [%s]", check);
    put_color(t, C_RESET);
    fputc('\n', t->out);
}

typedef struct {
    unsigned line, col, end_line, end_col; /* end exclusive; end_line 0 = no range */
} text_range;

/* Display column (0-based) of every byte of the line, tabs expanded and UTF-8
 * continuation bytes taking no width; disp[len] is the line's width. */
static size_t *display_columns(const char *s, size_t len)
{
    size_t *disp = malloc((len + 1) * sizeof *disp);
    if (!disp)
        return NULL;
    size_t c = 0;
    for (size_t i = 0; i < len; i++) {
        disp[i] = c;
        unsigned char ch = (unsigned char)s[i];
        if (ch == '\t')
            c += TAB_STOP - c % TAB_STOP;
        else if ((ch & 0xC0) != 0x80)
            c++;
    }
    disp[len] = c;
    return disp;
}

static size_t clamp_index(unsigned col, size_t len)
{
    size_t i = col ? (size_t)col - 1 : 0;
    return i > len ? len : i;
}

/* Marks the part of `r` that falls on `line` with '~'. */
static void mark_range(char *marks, size_t width, const size_t *disp, size_t len, unsigned line,
                       const text_range *r)
{
    if (r->end_line == 0 || r->line > line || r->end_line < line)
        return;
    size_t b = r->line < line ? 0 : clamp_index(r->col, len);
    size_t e = r->end_line > line ? len : clamp_index(r->end_col, len);
    for (size_t i = b; i < e; i++)
        for (size_t d = disp[i]; d < disp[i + 1] && d < width; d++)
            marks[d] = '~';
}

static bool same_file(const char *a, const char *b)
{
    return a && b && strcmp(a, b) == 0;
}

static const char *fixit_file(const hms_fixit *x, const char *dflt)
{
    return x->file ? x->file : dflt;
}

/* Source line, caret line (with ranges) and fix-it line for one location.
 * Fix-its of `f` on this line that are not yet shown are shown here. */
static void print_snippet(text_ctx *t, const char *file, unsigned line, unsigned caret_col,
                          const text_range *range, const hms_finding *f, bool *fix_shown)
{
    size_t len;
    const char *text = hms_source_line(&t->src, file, line, &len);
    if (!text)
        return;
    size_t *disp = display_columns(text, len);
    if (!disp)
        return;
    size_t width = disp[len] + 2;
    char *marks = malloc(width + 1);
    char *fixline = NULL;
    size_t fixlen = 0;
    FILE *fx = open_memstream(&fixline, &fixlen);
    if (!marks || !fx) {
        free(marks);
        free(disp);
        if (fx)
            fclose(fx);
        free(fixline);
        return;
    }
    memset(marks, ' ', width);
    marks[width] = '\0';
    if (range)
        mark_range(marks, width, disp, len, line, range);

    /* Fix-its on this line: highlight what they remove, collect their text. */
    size_t fix_end = 0;
    bool multi_line_fix = false;
    for (size_t i = 0; f && i < f->nfixits; i++) {
        const hms_fixit *x = &f->fixits[i];
        if (fix_shown[i] || x->line != line || !same_file(fixit_file(x, f->file), file))
            continue;
        fix_shown[i] = true;
        text_range fr = {x->line, x->col, x->end_line ? x->end_line : x->line,
                         x->end_line ? x->end_col : x->col};
        mark_range(marks, width, disp, len, line, &fr);
        if (strchr(x->replacement, '\n'))
            multi_line_fix = true; /* clang prints no insertion line then */
        size_t pos = disp[clamp_index(x->col, len)];
        if (fix_end > 0 && pos < fix_end)
            pos = fix_end + 1;
        while (fix_end < pos) {
            fputc(' ', fx);
            fix_end++;
        }
        fputs(x->replacement, fx);
        fix_end += strlen(x->replacement);
    }
    fclose(fx);

    if (caret_col)
        marks[disp[clamp_index(caret_col, len)]] = '^';
    size_t mlen = width;
    while (mlen > 0 && marks[mlen - 1] == ' ')
        mlen--;

    /* The source line itself, tabs expanded. */
    for (size_t i = 0; i < len; i++) {
        if (text[i] == '\t')
            for (size_t d = disp[i]; d < disp[i + 1]; d++)
                fputc(' ', t->out);
        else
            fputc(text[i], t->out);
    }
    fputc('\n', t->out);
    put_color(t, C_CARET);
    fwrite(marks, 1, mlen, t->out);
    put_color(t, C_RESET);
    fputc('\n', t->out);
    if (fixlen > 0 && !multi_line_fix) {
        size_t flen = fixlen;
        while (flen > 0 && fixline[flen - 1] == ' ')
            flen--;
        if (flen > 0) {
            put_color(t, C_FIXIT);
            fwrite(fixline, 1, flen, t->out);
            put_color(t, C_RESET);
            fputc('\n', t->out);
        }
    }
    free(fixline);
    free(marks);
    free(disp);
}

/* kernels: the kernels an identical finding came from (NULL: this one only). */
static void print_finding(text_ctx *t, const hms_finding *f, const char *file_path,
                          const char *kernels, size_t nkernels, hms_diag_counts *counts)
{
    const char *file = f->file ? f->file : file_path;
    print_header(t, file, f->line, f->col, f->severity, f->message, f->check, false);
    bool *shown = calloc(f->nfixits ? f->nfixits : 1, sizeof *shown);
    if (!shown)
        return;
    text_range r = {f->line, f->col, f->end_line, f->end_col};
    print_snippet(t, file, f->line, f->col, &r, f, shown);
    for (size_t i = 0; i < f->nnotes; i++) {
        const hms_note *n = &f->notes[i];
        const char *nfile = n->file ? n->file : file;
        print_header(t, nfile, n->line, n->col, HMS_SEV_NOTE, n->message, NULL, true);
        if (same_file(nfile, file))
            print_snippet(t, nfile, n->line, n->col, NULL, f, shown);
    }
    for (size_t i = 0; i < f->nfixits; i++) {
        if (shown[i])
            continue;
        const hms_fixit *x = &f->fixits[i];
        const char *xfile = fixit_file(x, file);
        print_header(t, xfile, x->line, x->col, HMS_SEV_NOTE, "suggested fix", NULL, true);
        print_snippet(t, xfile, x->line, x->col, NULL, f, shown);
        shown[i] = true; /* even when the line could not be read */
    }
    if (kernels) {
        char *msg = NULL;
        if (asprintf(&msg, "the same finding in %zu kernels: %s", nkernels, kernels) >= 0) {
            print_header(t, file, f->line, f->col, HMS_SEV_NOTE, msg, NULL, true);
            free(msg);
        }
    }
    free(shown);
    if (counts) {
        if (f->severity == HMS_SEV_ERROR)
            counts->errors++;
        else if (f->severity == HMS_SEV_WARNING)
            counts->warnings++;
        else
            counts->notes++;
    }
}

typedef struct {
    const hms_finding *f;
    size_t hidden;      /* summary notes of its kernel not shown (text is quiet) */
    size_t instances;   /* other instances of its template whose summary here is not shown */
    const char *kernel; /* the kernel's name */
    const hms_finding_ref *ref;
    bool other_file; /* not in the file report's own path (a header): after it */
    size_t order;
} sorted_finding;

static int by_location(const void *pa, const void *pb)
{
    const sorted_finding *a = pa, *b = pb;
    if (a->other_file != b->other_file)
        return a->other_file ? 1 : -1;
    if (a->other_file) {
        int c = strcmp(a->f->file, b->f->file);
        if (c)
            return c;
    }
    if (a->f->line != b->f->line)
        return a->f->line < b->f->line ? -1 : 1;
    if (a->f->col != b->f->col)
        return a->f->col < b->f->col ? -1 : 1;
    return a->order < b->order ? -1 : a->order > b->order;
}

/* Per-kernel summary notes (the model's class, sampling, assumed values):
 * text output shows one per kernel, the rest are in --explain and JSON. */
static bool is_summary(const hms_finding *f)
{
    return f->severity == HMS_SEV_NOTE && f->check &&
           (strcmp(f->check, "hms-memory-bound") == 0 ||
            strcmp(f->check, "hms-analysis-limit") == 0);
}

/* The summary note of kernel k that text output shows: hms-memory-bound's
 * when there is one, else the first; NULL when it has none. */
static const hms_finding *shown_summary(const hms_kernel_report *k, size_t *hidden)
{
    const hms_finding *best = NULL;
    size_t n = 0;
    for (size_t d = 0; d < k->ndiagnostics; d++) {
        const hms_finding *f = &k->diagnostics[d];
        if (!is_summary(f))
            continue;
        n++;
        if (!best || (strcmp(f->check, "hms-memory-bound") == 0 &&
                      strcmp(best->check, "hms-memory-bound") != 0))
            best = f;
    }
    *hidden = n ? n - 1 : 0;
    return best;
}

/* Length of a template instance's name without its arguments ("k<8>" -> 1);
 * 0 for a name that is not an instance. */
static size_t template_base_len(const char *name)
{
    const char *lt = name ? strchr(name, '<') : NULL;
    return lt ? (size_t)(lt - name) : 0;
}

/* Quiet text: the summary of one instance of a template stands for the
 * others' at the same place (their figures differ, so they are not one
 * finding; --explain and JSON keep each). The entry of v[0..n) it folds
 * into, or NULL. */
static sorted_finding *instance_summary_of(sorted_finding *v, size_t n, const hms_finding *f,
                                           const char *kernel)
{
    size_t base = template_base_len(kernel);
    if (!base || !is_summary(f))
        return NULL;
    for (size_t j = 0; j < n; j++) {
        const hms_finding *o = v[j].f;
        if (template_base_len(v[j].kernel) == base && !strncmp(v[j].kernel, kernel, base) &&
            is_summary(o) && o->line == f->line && o->col == f->col &&
            !strcmp(o->check, f->check) && !strcmp(o->file ? o->file : "", f->file ? f->file : ""))
            return &v[j];
    }
    return NULL;
}

static void print_file(text_ctx *t, const hms_file_report *fr, bool all_notes,
                       hms_diag_counts *counts)
{
    size_t n = 0;
    for (size_t k = 0; k < fr->nkernels; k++)
        n += fr->kernels[k].ndiagnostics;
    if (n == 0)
        return;
    sorted_finding *v = malloc(n * sizeof *v);
    if (!v)
        return;
    hms_finding_groups groups;
    hms_group_findings(fr, &groups);
    size_t i = 0;
    for (size_t k = 0; k < fr->nkernels; k++) {
        size_t hidden = 0;
        const hms_finding *keep = all_notes ? NULL : shown_summary(&fr->kernels[k], &hidden);
        for (size_t d = 0; d < fr->kernels[k].ndiagnostics; d++) {
            const hms_finding_ref *ref = hms_finding_ref_of(&groups, k, d);
            if (ref && ref->group != groups.offset[k] + d)
                continue; /* printed with the first kernel it came from */
            const hms_finding *f = &fr->kernels[k].diagnostics[d];
            if (!all_notes && is_summary(f) && f != keep)
                continue;
            sorted_finding *first =
                all_notes ? NULL : instance_summary_of(v, i, f, fr->kernels[k].name);
            if (first) {
                first->instances++;
                continue;
            }
            v[i].f = f;
            v[i].hidden = f == keep ? hidden : 0;
            v[i].instances = 0;
            v[i].kernel = fr->kernels[k].name;
            v[i].ref = ref;
            v[i].other_file = f->file && fr->path && strcmp(f->file, fr->path) != 0;
            v[i].order = i;
            i++;
        }
    }
    n = i;
    if (!t->as_given)
        qsort(v, n, sizeof *v, by_location);
    for (i = 0; i < n; i++) {
        char *kernels = v[i].ref && v[i].ref->size > 1
                            ? hms_finding_group_kernels(fr, &groups, v[i].ref, false)
                            : NULL;
        print_finding(t, v[i].f, fr->path, kernels, v[i].ref ? v[i].ref->size : 1, counts);
        free(kernels);
        if (v[i].hidden)
            fprintf(t->out,
                    "  (%zu more note%s on kernel '%s': sampling, assumed values; --explain "
                    "or --format=json lists them)\n",
                    v[i].hidden, v[i].hidden == 1 ? "" : "s", v[i].kernel ? v[i].kernel : "?");
        if (v[i].instances)
            fprintf(t->out,
                    "  (the same note, with other figures, on %zu more instance%s of '%.*s': "
                    "--explain or --format=json lists them)\n",
                    v[i].instances, v[i].instances == 1 ? "" : "s",
                    (int)template_base_len(v[i].kernel), v[i].kernel);
    }
    hms_finding_groups_free(&groups);
    free(v);
}

/* Counts what hms_write_text prints: a group of identical findings once. */
void hms_count_text_findings(const hms_report *r, hms_diag_counts *c)
{
    memset(c, 0, sizeof *c);
    for (size_t i = 0; i < r->nfiles; i++) {
        const hms_file_report *fr = &r->files[i];
        hms_finding_groups g;
        hms_group_findings(fr, &g);
        for (size_t k = 0; k < fr->nkernels; k++)
            for (size_t d = 0; d < fr->kernels[k].ndiagnostics; d++) {
                const hms_finding_ref *ref = hms_finding_ref_of(&g, k, d);
                if (ref && ref->group != g.offset[k] + d)
                    continue;
                hms_severity s = fr->kernels[k].diagnostics[d].severity;
                if (s == HMS_SEV_ERROR)
                    c->errors++;
                else if (s == HMS_SEV_WARNING)
                    c->warnings++;
                else
                    c->notes++;
            }
        hms_finding_groups_free(&g);
    }
}

void hms_write_text(const hms_report *r, FILE *out, const hms_text_options *o,
                    hms_diag_counts *counts)
{
    text_ctx t = {out, o && o->color, {0}, o && o->as_given};
    hms_source_cache_init(&t.src);
    if (counts)
        memset(counts, 0, sizeof *counts);
    for (size_t i = 0; i < r->nfiles; i++) {
        const hms_file_report *fr = &r->files[i];
        print_file(&t, fr, o && o->explain, counts);
        if (o && o->explain)
            for (size_t k = 0; k < fr->nkernels; k++)
                hms_write_explain(&fr->kernels[k], fr->path, out);
        if (o && o->explain)
            hms_write_ranking(fr, out);
    }
    hms_source_cache_free(&t.src);
}

static void count_part(FILE *out, size_t n, const char *word, int *printed, int total)
{
    if (n == 0)
        return;
    if (*printed > 0)
        fputs(*printed == total - 1 ? " and " : ", ", out);
    fprintf(out, "%zu %s%s", n, word, n == 1 ? "" : "s");
    (*printed)++;
}

void hms_write_text_summary(const hms_diag_counts *c, FILE *out)
{
    int total = (c->warnings > 0) + (c->errors > 0) + (c->notes > 0);
    if (total == 0)
        return;
    int printed = 0;
    count_part(out, c->warnings, "warning", &printed, total);
    count_part(out, c->errors, "error", &printed, total);
    count_part(out, c->notes, "note", &printed, total);
    fputs(" generated.\n", out);
}
