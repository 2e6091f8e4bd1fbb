/* `hms-lint file.cu...`: per file, merge the .hms-lint config under the
 * command line, parse, build the kernel IR, analyse every kernel (each file in a
 * worker process of its own, -j of them at once), then filter (NOLINT, --baseline), write the
 * report in the chosen format, export or apply fixes, and pick the exit status. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyzer/cli/arch_select.h"
#include "analyzer/cli/atomic_file.h"
#include "analyzer/report/baseline.h"
#include "analyzer/cli/commands.h"
#include "analyzer/report/check_summary.h"
#include "analyzer/cli/config.h"
#include "analyzer/cli/frontend_inputs.h"
#include "analyzer/report/cost_rank.h"
#include "analyzer/report/finding_policy.h"
#include "analyzer/report/fixes.h"
#include "analyzer/frontend/ir_build.h"
#include "analyzer/frontend/launch_alts.h"
#include "analyzer/frontend/launch_config.h"
#include "analyzer/frontend/parse.h"
#include "analyzer/report/report_html.h"
#include "analyzer/frontend/parse_diagnostics.h"
#include "analyzer/frontend/ptxas.h"
#include "analyzer/report/report_json.h"
#include "analyzer/report/report_sarif.h"
#include "analyzer/report/report_text.h"
#include "analyzer/report/source_cache.h"
#include "analyzer/report/source_root.h"
#include "analyzer/report/suppress.h"
#include "analyzer/cli/worker.h"
#include "passes/analyze.h"

typedef struct {
    const char *path;
    hms_merged_options merged;
    const hms_arch *arch;
    hms_frontend_options fe; /* the front end's part of merged.opts, arch included */
    char *setup_error;       /* config or arch problem: the file is not analysed */
    hms_file_report report;
    hms_diag_sink diags; /* what the parse/build/analysis said, shown in input order */
} file_job;

/* "[n/N] file" on stderr as each file is done (-j over several files, a terminal). */
typedef struct {
    const file_job *jobs;
    size_t n, done;
} progress_lines;

static void print_progress(size_t index, void *arg)
{
    progress_lines *p = arg;
    fprintf(stderr, "[%zu/%zu] %s\n", ++p->done, p->n, p->jobs[index].path);
}

/* ---- setup (main thread) ------------------------------------------------ */

typedef struct {
    char *path;
    hms_config cfg;
    bool ok;
    hms_file_error err;
} loaded_config;

typedef struct {
    loaded_config *v;
    size_t n;
} config_set;

/* Each .hms-lint is read once, and a malformed one reported once (to said). */
static const loaded_config *config_for(config_set *s, const char *source, const char *given,
                                       hms_diag_sink *said)
{
    char *path = given ? strdup(given) : hms_config_find(source); /* --config-file */
    if (!path)
        return NULL;
    for (size_t i = 0; i < s->n; i++) {
        if (strcmp(s->v[i].path, path) == 0) {
            free(path);
            return &s->v[i];
        }
    }
    loaded_config *nv = realloc(s->v, (s->n + 1) * sizeof *nv);
    if (!nv) {
        free(path);
        return NULL;
    }
    s->v = nv;
    loaded_config *c = &s->v[s->n++];
    memset(c, 0, sizeof *c);
    c->path = path;
    c->ok = hms_config_load(path, &c->cfg, &c->err);
    if (!c->ok)
        hms_diag_file_error(said, HMS_DIAG_ERROR, &c->err);
    return c;
}

static void config_set_free(config_set *s)
{
    for (size_t i = 0; i < s->n; i++) {
        free(s->v[i].path);
        if (s->v[i].ok)
            hms_config_free(&s->v[i].cfg);
    }
    free(s->v);
}

typedef struct {
    const char *name;
    const hms_arch *arch;
    char *err;
    hms_file_error why; /* when arch is NULL */
    bool said;          /* why shown (once, when a file first uses the arch) */
} resolved_arch;

/* Each distinct --arch/arch: value is resolved once; its error printed once,
 * when a file uses it (say), not when the command line's is looked up for
 * its --launch limits. */
static const hms_arch *arch_for(resolved_arch **v, size_t *n, const hms_options *o, bool say,
                                char **err, hms_diag_sink *said)
{
    for (size_t i = 0; i < *n; i++) {
        resolved_arch *r = &(*v)[i];
        if (strcmp(r->name, o->arch) == 0) {
            if (say && !r->said && !r->arch)
                hms_diag_file_error(said, HMS_DIAG_ERROR, &r->why);
            r->said |= say;
            if (err)
                *err = r->err ? strdup(r->err) : NULL;
            return r->arch;
        }
    }
    resolved_arch *nv = realloc(*v, (*n + 1) * sizeof *nv);
    if (!nv) {
        *err = strdup("out of memory");
        return NULL;
    }
    *v = nv;
    resolved_arch *r = &nv[(*n)++];
    r->name = o->arch;
    r->err = NULL;
    r->said = false;
    r->arch = hms_find_arch(o, &r->why);
    if (!r->arch && asprintf(&r->err, "unknown or invalid architecture '%s'", o->arch) < 0)
        r->err = NULL;
    if (say && !r->arch)
        hms_diag_file_error(said, HMS_DIAG_ERROR, &r->why);
    r->said = say;
    if (err)
        *err = r->err ? strdup(r->err) : NULL;
    return r->arch;
}

static void free_arches(resolved_arch *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(v[i].err);
    }
    free(v);
}

/* ---- analysis of one file (worker threads) ---------------------------------
 */

static void kernel_report_defaults(hms_kernel_report *kr, const ir_kernel *k)
{
    if (!kr->name)
        kr->name = strdup(k->name ? k->name : "?");
    if (!kr->line)
        kr->line = k->loc.line;
}

/* The errors the file's analysis reported become its report's errors[]. */
static void errors_to_report(file_job *j)
{
    for (size_t i = 0; i < j->diags.n; i++) {
        if (j->diags.v[i].level != HMS_DIAG_ERROR)
            continue;
        char *m = hms_diag_located_message(&j->diags.v[i]);
        if (m)
            hms_file_add_error(&j->report, "%s", m);
        free(m);
    }
}

static void analyse_file(file_job *j)
{
    hms_diag_sink *err = &j->diags;
    hms_tu tu;
    if (hms_parse_file(&j->fe, j->path, &tu, err)) {
        ir_kernel **kernels = NULL;
        size_t nk = hms_build_kernels(&tu, &j->fe, &kernels, err);
        if (j->merged.opts.ptxas && nk)
            hms_ptxas_apply(&j->fe, j->path, kernels, nk, err);
        hms_analysis_options ao = {.arch = j->arch,
                                   .checks = j->merged.opts.checks,
                                   .placement_threshold = j->merged.opts.placement_threshold,
                                   .budget_scale = j->merged.opts.analysis_budget};
        j->report.kernels = nk ? calloc(nk, sizeof *j->report.kernels) : NULL;
        for (size_t i = 0; i < nk && j->report.kernels; i++) {
            hms_kernel_report *kr = &j->report.kernels[j->report.nkernels++];
            if (!hms_analyze_launch_alts(kernels[i], &ao, kr))
                hms_diagf(err, (hms_diag_head){HMS_DIAG_ERROR, j->path, 0, 0, NULL, NULL},
                          "kernel '%s': internal analysis failure",
                          kernels[i]->name ? kernels[i]->name : "?");
            kernel_report_defaults(kr, kernels[i]);
        }
        hms_free_kernels(kernels, nk);
        hms_tu_dispose(&tu);
    }
    errors_to_report(j);
}

static void analyse_job(void *ctx)
{
    analyse_file(ctx);
}

/* ---- after analysis --------------------------------------------------------
 */

static bool at_or_above(hms_severity s, hms_fail_on f)
{
    switch (f) {
    case HMS_FAIL_ERROR:
        return s >= HMS_SEV_ERROR;
    case HMS_FAIL_WARNING:
        return s >= HMS_SEV_WARNING;
    case HMS_FAIL_NOTE:
        return s >= HMS_SEV_NOTE;
    default:
        return false;
    }
}

static bool write_report(const hms_options *o, const hms_report *r, hms_source_cache *src,
                         const char *source_root, hms_diag_counts *counts, hms_diag_sink *said)
{
    hms_atomic_file af = {0};
    FILE *out = stdout;
    hms_file_error why;
    if (o->output) {
        out = hms_atomic_open(&af, o->output, &why);
        if (!out) {
            hms_diag_file_error(said, HMS_DIAG_ERROR, &why);
            return false;
        }
    }
    bool ok = true;
    switch (o->format) {
    case HMS_FMT_TEXT: {
        hms_text_options to = {hms_use_color(o->color, out), o->explain, o->sort_cost};
        hms_write_text(r, out, &to, counts);
        ok = !ferror(out);
        break;
    }
    case HMS_FMT_JSON: {
        hms_json_options jo = {src, said};
        ok = hms_write_json(r, out, &jo);
        break;
    }
    case HMS_FMT_SARIF: {
        hms_sarif_options so = {src, source_root, o->sarif_notes, said};
        ok = hms_write_sarif(r, out, &so);
        break;
    }
    case HMS_FMT_HTML:
        ok = hms_write_html(r, src, out);
        break;
    }
    if (o->output) {
        if (!ok) {
            hms_atomic_abort(&af);
            hms_diagf(said, (hms_diag_head){HMS_DIAG_ERROR, o->output, 0, 0, NULL, NULL},
                      "cannot write the report");
        } else if (!hms_atomic_commit(&af, &why)) {
            hms_diag_file_error(said, HMS_DIAG_ERROR, &why);
            ok = false;
        }
    } else {
        fflush(stdout);
    }
    return ok;
}

static bool export_fixes(const hms_options *o, const hms_report *r, hms_source_cache *src,
                         hms_diag_sink *said)
{
    hms_atomic_file af;
    hms_file_error why;
    FILE *out = hms_atomic_open(&af, o->export_fixes, &why);
    if (!out) {
        hms_diag_file_error(said, HMS_DIAG_ERROR, &why);
        return false;
    }
    const char *main_file = o->files.n == 1 ? o->files.v[0] : "";
    if (!hms_write_fixes_yaml(r, src, main_file, out, said)) {
        hms_atomic_abort(&af);
        hms_diagf(said, (hms_diag_head){HMS_DIAG_ERROR, o->export_fixes, 0, 0, NULL, NULL},
                  "cannot write the fixes");
        return false;
    }
    if (!hms_atomic_commit(&af, &why)) {
        hms_diag_file_error(said, HMS_DIAG_ERROR, &why);
        return false;
    }
    return true;
}

/* --launch/--param values naming no kernel analysed in any file. */
static void warn_unmatched(const hms_options *o, const hms_launch_cli *cli, const hms_report *r,
                           hms_diag_sink *said)
{
    size_t n = 0;
    for (size_t i = 0; i < r->nfiles; i++)
        n += r->files[i].nkernels;
    const char **names = calloc(n ? n : 1, sizeof *names);
    if (!names)
        return;
    n = 0;
    for (size_t i = 0; i < r->nfiles; i++)
        for (size_t k = 0; k < r->files[i].nkernels; k++)
            if (r->files[i].kernels[k].name)
                names[n++] = r->files[i].kernels[k].name;
    hms_frontend_options fo = hms_frontend_inputs(o, NULL);
    hms_launch_cli_warn_unmatched(&fo, cli, names, n, said);
    free(names);
}

/* --write-baseline: the findings after NOLINT, atomically. */
static bool write_baseline(const hms_options *o, const hms_report *r, hms_source_cache *src,
                           const char *source_root, hms_diag_sink *said)
{
    hms_atomic_file af;
    hms_file_error why;
    FILE *out = hms_atomic_open(&af, o->write_baseline, &why);
    if (!out) {
        hms_diag_file_error(said, HMS_DIAG_ERROR, &why);
        return false;
    }
    if (!hms_baseline_write(r, src, source_root, HMS_VERSION, out)) {
        hms_atomic_abort(&af);
        hms_diagf(said, (hms_diag_head){HMS_DIAG_ERROR, o->write_baseline, 0, 0, NULL, NULL},
                  "cannot write the baseline");
        return false;
    }
    if (!hms_atomic_commit(&af, &why)) {
        hms_diag_file_error(said, HMS_DIAG_ERROR, &why);
        return false;
    }
    return true;
}

int hms_cmd_lint(const hms_options *o)
{
    char msg[600];
    resolved_arch *arches = NULL;
    size_t narches = 0;
    hms_frontend_options top =
        hms_frontend_inputs(o, arch_for(&arches, &narches, o, false, NULL, NULL));
    /* The run's diagnostics, printed as they come: the files' in input order. */
    hms_diag_sink said;
    hms_diag_sink_init(&said, stderr);
    hms_launch_cli cli;
    if (hms_launch_cli_parse(&top, &cli, &said) != 0) {
        free_arches(arches, narches);
        hms_diag_sink_free(&said);
        return 2; /* a malformed --launch/--param: said why */
    }
    hms_file_error why;
    char *source_root = hms_source_root_find(o->source_root, &why);
    if (!source_root) {
        hms_diag_file_error(&said, HMS_DIAG_ERROR, &why);
        hms_launch_cli_free(&cli);
        free_arches(arches, narches);
        hms_diag_sink_free(&said);
        return 2;
    }
    hms_baseline *baseline = NULL;
    if (o->baseline) {
        baseline = hms_baseline_load_for(o->baseline, HMS_VERSION, source_root, &why);
        if (!baseline) {
            hms_diag_file_error(&said, HMS_DIAG_ERROR, &why);
            hms_launch_cli_free(&cli);
            free_arches(arches, narches);
            hms_diag_sink_free(&said);
            free(source_root);
            return 2;
        }
    }

    size_t n = o->files.n;
    file_job *jobs = calloc(n ? n : 1, sizeof *jobs);
    if (!jobs) {
        hms_diagf(&said, (hms_diag_head){HMS_DIAG_ERROR, NULL, 0, 0, NULL, NULL}, "out of memory");
        hms_launch_cli_free(&cli);
        free_arches(arches, narches);
        hms_diag_sink_free(&said);
        hms_baseline_free(baseline);
        free(source_root);
        return 2;
    }
    config_set configs = {0};
    for (size_t i = 0; i < n; i++) {
        file_job *j = &jobs[i];
        j->path = o->files.v[i];
        j->report.path = strdup(j->path);
        hms_diag_sink_init(&j->diags, NULL);
        const loaded_config *c = config_for(&configs, j->path, o->config_file, &said);
        hms_config_merge(c && c->ok ? &c->cfg : NULL, o, &j->merged);
        if (c && !c->ok) {
            char text[sizeof c->err.file + sizeof c->err.message + 32];
            hms_file_error_text(&c->err, text, sizeof text);
            j->setup_error = strdup(text);
            continue;
        }
        j->arch = arch_for(&arches, &narches, &j->merged.opts, true, &j->setup_error, &said);
        j->fe = hms_frontend_inputs(&j->merged.opts, j->arch);
    }

    /* Each file in a worker process of its own: one that crashes or hangs
     * loses only its own results. */
    hms_string_pool interned = {0};
    hms_isolated_job *iso = calloc(n ? n : 1, sizeof *iso);
    for (size_t i = 0; iso && i < n; i++)
        iso[i] = (hms_isolated_job){jobs[i].path, jobs[i].setup_error != NULL, &jobs[i],
                                    &jobs[i].report, &jobs[i].diags};
    progress_lines pl = {jobs, n, 0};
    bool progress = n > 1 && !o->quiet && isatty(STDERR_FILENO);
    hms_isolation how = {o->jobs, o->timeout, &interned, progress ? print_progress : NULL, &pl};
    if (iso)
        hms_run_isolated(iso, n, analyse_job, &how);
    free(iso);

    /* Diagnostics in input order; then one report with every file. */
    hms_report report = {"hms-lint", HMS_VERSION, NULL, NULL, 0};
    report.files = calloc(n ? n : 1, sizeof *report.files);
    bool input_error = false;
    for (size_t i = 0; i < n; i++) {
        file_job *j = &jobs[i];
        hms_diag_sink_append(&said, &j->diags);
        if (j->setup_error)
            hms_file_add_error(&j->report, "%s", j->setup_error);
        if (!j->setup_error &&
            !hms_apply_finding_policy(&j->report, &j->merged.opts, msg, sizeof msg)) {
            hms_diagf(&said, (hms_diag_head){HMS_DIAG_ERROR, j->path, 0, 0, NULL, NULL}, "%s", msg);
            hms_file_add_error(&j->report, "%s: %s", j->path, msg);
        }
        input_error |= j->report.nerrors > 0;
        if (!report.arch && j->arch)
            report.arch = j->arch->name;
        if (report.files)
            report.files[report.nfiles++] = j->report;
        else
            hms_file_report_free(&j->report);
    }
    if (!report.arch)
        report.arch = o->arch;
    warn_unmatched(o, &cli, &report, &said);
    hms_launch_cli_free(&cli);

    hms_source_cache src;
    hms_source_cache_init(&src);
    size_t nolint = hms_suppress_nolint(&report, &src);
    /* A baseline written now accepts every current finding: exit 0. */
    bool baseline_ok = !o->write_baseline || write_baseline(o, &report, &src, source_root, &said);
    size_t baselined = hms_baseline_filter(&report, baseline, &src);
    if (o->sort_cost)
        hms_sort_report_by_cost(&report);

    hms_diag_counts counts;
    hms_count_text_findings(&report, &counts);
    bool ok = baseline_ok && write_report(o, &report, &src, source_root, NULL, &said);
    if (ok && o->export_fixes)
        ok &= export_fixes(o, &report, &src, &said);
    if (ok && o->fix) { /* never touch sources after a failed write */
        size_t applied = 0;
        ok &= hms_apply_fixes(&report, &src, &said, &applied);
    }
    if (!o->quiet) {
        hms_write_text_summary(&counts, stderr);
        if (o->format == HMS_FMT_TEXT)
            hms_write_check_summary(&report, nolint + baselined, stderr);
        if (nolint || baselined) {
            fprintf(stderr, "Suppressed %zu finding%s (", nolint + baselined,
                    nolint + baselined == 1 ? "" : "s");
            if (nolint)
                fprintf(stderr, "%zu NOLINT%s", nolint, baselined ? ", " : "");
            if (baselined)
                fprintf(stderr, "%zu in the baseline", baselined);
            fputs(").\n", stderr);
        }
    }

    /* Exit status: input errors first, then findings at or above each file's
     * --fail-on (a config may set it per directory). */
    bool failing = false;
    for (size_t i = 0; i < report.nfiles; i++)
        for (size_t k = 0; k < report.files[i].nkernels; k++)
            for (size_t d = 0; d < report.files[i].kernels[k].ndiagnostics; d++)
                failing |= at_or_above(report.files[i].kernels[k].diagnostics[d].severity,
                                       jobs[i].merged.opts.fail_on);
    int rc = input_error || !ok ? 2 : failing && !o->write_baseline ? 1 : 0;

    hms_source_cache_free(&src);
    hms_report_free(&report);
    hms_string_pool_free(&interned);
    for (size_t i = 0; i < n; i++) {
        free(jobs[i].setup_error);
        hms_diag_sink_free(&jobs[i].diags);
        hms_merged_options_free(&jobs[i].merged);
    }
    free(jobs);
    free_arches(arches, narches);
    hms_diag_sink_free(&said);
    config_set_free(&configs);
    hms_baseline_free(baseline);
    free(source_root);
    return rc;
}
