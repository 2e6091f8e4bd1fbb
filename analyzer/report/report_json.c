/* JSON report writer (see report_json.h and docs/report-format.md). */
#include "analyzer/report/report_json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/report/cost_rank.h"
#include "analyzer/report/fingerprint.h"
#include "analyzer/report/finding_groups.h"
#include "analyzer/report/report_ranking.h"

json_t *hms_json_number_or_null(double v)
{
    if (v < 0 || isnan(v) || isinf(v))
        return json_null();
    return json_real(v);
}

/* Counts print as integers when they are whole (sampled counts may not be). */
static json_t *count_value(double v)
{
    if (v < 0 || isnan(v) || isinf(v))
        return json_null();
    if (v == floor(v) && v < 9.0e15)
        return json_integer((json_int_t)v);
    return json_real(v);
}

static json_t *str_or_null(const char *s)
{
    return s ? json_string(s) : json_null();
}

/* 0 is "unknown" for end positions. */
static json_t *pos_or_null(unsigned v)
{
    return v ? json_integer(v) : json_null();
}

char *hms_trimmed_source_line(hms_source_cache *src, const char *path, unsigned line)
{
    size_t len;
    const char *t = hms_source_line(src, path, line, &len);
    if (!t)
        return NULL;
    while (len > 0 && (*t == ' ' || *t == '\t')) {
        t++;
        len--;
    }
    while (len > 0 && (t[len - 1] == ' ' || t[len - 1] == '\t'))
        len--;
    return strndup(t, len);
}

static json_t *dims(const uint32_t v[3])
{
    return json_pack("[III]", (json_int_t)v[0], (json_int_t)v[1], (json_int_t)v[2]);
}

static json_t *launch_json(const hms_launch_report *l)
{
    return json_pack("{s:o, s:o, s:I, s:o, s:o, s:o}", "grid", dims(l->grid), "block",
                     dims(l->block), "shared_bytes", (json_int_t)l->shared_bytes, "source",
                     str_or_null(l->source), "via", str_or_null(l->via), "other_configurations",
                     str_or_null(l->others));
}

static json_t *access_json(const hms_access_metrics *a)
{
    json_t *o = json_object();
    json_object_set_new(o, "line", json_integer(a->line));
    json_object_set_new(o, "column", json_integer(a->col));
    json_object_set_new(o, "array", str_or_null(a->array));
    json_object_set_new(o, "space", str_or_null(a->space));
    json_object_set_new(o, "kind", str_or_null(a->kind));
    json_object_set_new(o, "element_bytes", json_integer(a->element_bytes));
    json_object_set_new(o, "requests", count_value(a->requests));
    json_object_set_new(o, "sectors_per_request", hms_json_number_or_null(a->sectors_per_request));
    json_object_set_new(o, "lines_per_request", hms_json_number_or_null(a->lines_per_request));
    json_object_set_new(o, "bank_wavefronts_per_request",
                        hms_json_number_or_null(a->bank_wavefronts_per_request));
    json_object_set_new(o, "distinct_addresses_per_request",
                        hms_json_number_or_null(a->distinct_addresses_per_request));
    json_object_set_new(o, "latency_cycles", hms_json_number_or_null(a->latency_cycles));
    json_object_set_new(o, "exact", json_boolean(a->exact));
    return o;
}

static json_t *placement_json(const hms_placement *p)
{
    json_t *opts = json_array();
    for (size_t i = 0; i < p->noptions; i++) {
        const hms_placement_option *x = &p->options[i];
        json_t *o = json_object();
        json_object_set_new(o, "space", str_or_null(x->space));
        json_object_set_new(o, "legal", json_boolean(x->legal));
        json_object_set_new(o, "reason", str_or_null(x->reason));
        /* an illegal option has no time (docs/report-format.md): null, never 0 */
        json_object_set_new(o, "predicted_time",
                            x->legal ? hms_json_number_or_null(x->predicted_time) : json_null());
        json_object_set_new(o, "speedup",
                            x->legal ? hms_json_number_or_null(x->speedup) : json_null());
        json_array_append_new(opts, o);
    }
    return json_pack("{s:o, s:o, s:o, s:o}", "array", str_or_null(p->array), "current",
                     str_or_null(p->current), "best", str_or_null(p->best), "options", opts);
}

static json_t *model_json(const hms_model_figures *m, const hms_kernel_report *k)
{
    const struct {
        const char *name;
        double v;
    } fields[] = {
        {"data_reuse", m->data_reuse},
        {"lat_hiding", m->lat_hiding},
        {"bw_util", m->bw_util},
        {"ch_skew", m->ch_skew},
        {"shm_eff", m->shm_eff},
        {"branch_eff", m->branch_eff},
        {"mpe", m->mpe},
        {"t_comp", m->t_comp},
        {"t_mem", m->t_mem},
        {"t_overlap", m->t_overlap},
        {"t_pipe", m->t_pipe},
        {"amat", m->amat},
        {"camat", m->camat},
        {"c_h", m->c_h},
        {"c_m", m->c_m},
        {"pmr", m->pmr},
        {"pamp", m->pamp},
        {"dram_row_hit_rate", m->dram_row_hit_rate},
        {"occupancy", m->occupancy},
        {"predicted_time", m->predicted_time},
        {"dram_gbs", m->dram_gbs},
        {"dram_peak_gbs", m->dram_peak_gbs},
        {"flops", m->flops},
        {"mlp", m->mlp},
    };
    json_t *o = json_object();
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        json_object_set_new(o, fields[i].name, hms_json_number_or_null(fields[i].v));
    /* the columns `hms-lint calibrate` reads for the T_overlap fit */
    static const char *const inputs[7] = {"e_global",   "e_const",        "e_tex", "e_shared",
                                          "e_row_miss", "e_row_conflict", "warps"};
    json_t *x = json_object();
    for (int i = 0; i < 7; i++)
        json_object_set_new(x, inputs[i],
                            m->overlap_inputs_ok ? hms_json_number_or_null(m->overlap_inputs[i])
                                                 : json_null());
    json_object_set_new(o, "overlap_inputs", x);
    json_object_set_new(o, "bound", str_or_null(m->bound));
    json_object_set_new(o, "binding", str_or_null(m->binding));
    json_t *b = json_object();
    const struct {
        const char *name;
        double v;
    } bounds[] = {{"model", m->bound_model},   {"dram", m->bound_dram}, {"l2", m->bound_l2},
                  {"shared", m->bound_shared}, {"fp32", m->bound_fp32}, {"issue", m->bound_issue}};
    for (size_t i = 0; i < sizeof bounds / sizeof bounds[0]; i++)
        json_object_set_new(b, bounds[i].name, hms_json_number_or_null(bounds[i].v));
    json_object_set_new(o, "bounds", b);
    json_object_set_new(o, "registers_per_thread",
                        k->registers_per_thread > 0 ? json_integer(k->registers_per_thread)
                                                    : json_null());
    json_object_set_new(o, "registers_source", str_or_null(k->registers_source));
    return o;
}

static json_t *diagnostic_json(const hms_kernel_report *k, const hms_finding *f,
                               const char *file_path, const hms_json_options *opt, json_t *same_in)
{
    json_t *o = json_object();
    json_object_set_new(o, "check", str_or_null(f->check));
    json_object_set_new(o, "severity", json_string(hms_severity_name(f->severity)));
    json_object_set_new(o, "message", str_or_null(f->message));
    json_object_set_new(o, "line", json_integer(f->line));
    json_object_set_new(o, "column", json_integer(f->col));
    json_object_set_new(o, "end_line", pos_or_null(f->end_line));
    json_object_set_new(o, "end_column", pos_or_null(f->end_line ? f->end_col : 0));
    json_t *notes = json_array();
    for (size_t i = 0; i < f->nnotes; i++)
        json_array_append_new(
            notes, json_pack("{s:o, s:I, s:I}", "message", str_or_null(f->notes[i].message), "line",
                             (json_int_t)f->notes[i].line, "column", (json_int_t)f->notes[i].col));
    json_object_set_new(o, "notes", notes);
    json_t *fixits = json_array();
    for (size_t i = 0; i < f->nfixits; i++) {
        const hms_fixit *x = &f->fixits[i];
        json_array_append_new(
            fixits, json_pack("{s:I, s:I, s:I, s:I, s:s}", "line", (json_int_t)x->line, "column",
                              (json_int_t)x->col, "end_line",
                              (json_int_t)(x->end_line ? x->end_line : x->line), "end_column",
                              (json_int_t)(x->end_line ? x->end_col : x->col), "replacement",
                              x->replacement ? x->replacement : ""));
    }
    json_object_set_new(o, "fixits", fixits);
    json_object_set_new(o, "same_in_kernels", same_in);
    if (opt && opt->sources) {
        char *text = hms_trimmed_source_line(opt->sources, f->file ? f->file : file_path, f->line);
        if (text)
            json_object_set_new(o, "source_line", json_string(text));
        free(text);
    }
    hms_fingerprint fp = hms_finding_fingerprint(f, file_path, k->name, opt ? opt->sources : NULL);
    json_object_set_new(o, "fingerprint", json_string(fp.hex));
    json_object_set_new(o, "estimated_gain", json_real(hms_finding_gain(k, f)));
    return o;
}

/* The other kernels of the file with this very finding (finding_groups.h). */
static json_t *same_in_kernels(const hms_file_report *fr, const hms_finding_groups *g, size_t k,
                               size_t d)
{
    json_t *a = json_array();
    const hms_finding_ref *r = hms_finding_ref_of(g, k, d);
    for (size_t i = r ? r->group : g->n; r && r->size > 1 && i < g->n; i++)
        if (g->v[i].group == r->group && &g->v[i] != r)
            json_array_append_new(a, str_or_null(fr->kernels[g->v[i].kernel].name));
    return a;
}

static json_t *kernel_json(const hms_file_report *fr, size_t ki, const hms_finding_groups *g,
                           const hms_json_options *opt)
{
    const hms_kernel_report *k = &fr->kernels[ki];
    const char *file_path = fr->path;
    json_t *o = json_object();
    json_object_set_new(o, "name", str_or_null(k->name));
    json_object_set_new(o, "line", json_integer(k->line));
    json_object_set_new(o, "launch", launch_json(&k->launch));
    json_object_set_new(o, "sampled", json_boolean(k->sampled));
    json_t *acc = json_array();
    for (size_t i = 0; i < k->naccesses; i++)
        json_array_append_new(acc, access_json(&k->accesses[i]));
    json_object_set_new(o, "accesses", acc);
    json_t *pl = json_array();
    for (size_t i = 0; i < k->nplacements; i++)
        json_array_append_new(pl, placement_json(&k->placements[i]));
    json_object_set_new(o, "placements", pl);
    json_object_set_new(o, "model", model_json(&k->model, k));
    json_object_set_new(o, "estimated_gain", json_real(hms_kernel_gain(k)));
    json_t *diags = json_array();
    for (size_t i = 0; i < k->ndiagnostics; i++)
        json_array_append_new(diags, diagnostic_json(k, &k->diagnostics[i], file_path, opt,
                                                     same_in_kernels(fr, g, ki, i)));
    json_object_set_new(o, "diagnostics", diags);
    return o;
}

json_t *hms_report_to_json(const hms_report *r, const hms_json_options *o)
{
    json_t *files = json_array();
    for (size_t i = 0; i < r->nfiles; i++) {
        const hms_file_report *f = &r->files[i];
        json_t *errors = json_array();
        for (size_t e = 0; e < f->nerrors; e++)
            json_array_append_new(errors, json_string(f->errors[e]));
        json_t *kernels = json_array();
        hms_finding_groups g;
        hms_group_findings(f, &g);
        for (size_t k = 0; k < f->nkernels; k++)
            json_array_append_new(kernels, kernel_json(f, k, &g, o));
        hms_finding_groups_free(&g);
        json_array_append_new(files, json_pack("{s:o, s:o, s:o, s:o}", "path", str_or_null(f->path),
                                               "errors", errors, "kernels", kernels, "ranking",
                                               hms_ranking_json(f)));
    }
    json_t *tool = json_pack("{s:s, s:s}", "name", r->tool_name ? r->tool_name : "hms-lint",
                             "version", r->tool_version ? r->tool_version : "unknown");
    json_t *j =
        json_pack("{s:o, s:o, s:o}", "tool", tool, "arch", str_or_null(r->arch), "files", files);
    if (o && o->notifications)
        json_object_set_new(j, "notifications", hms_diag_sink_to_json(o->notifications));
    return j;
}

/* 0 (unknown) as null. */
static json_t *position_or_null(unsigned v)
{
    return v ? json_integer(v) : json_null();
}

json_t *hms_diag_sink_to_json(hms_diag_sink *s)
{
    static const char *const severities[] = {"note", "warning", "error"};
    json_t *a = json_array();
    pthread_mutex_lock(&s->lock);
    for (size_t i = 0; i < s->n; i++) {
        const hms_diagnostic *d = &s->v[i];
        json_array_append_new(
            a, json_pack("{s:s, s:o, s:o, s:o, s:s, s:o}", "severity", severities[d->level], "file",
                         str_or_null(d->file), "line", position_or_null(d->line), "column",
                         position_or_null(d->col), "message", d->message ? d->message : "", "code",
                         str_or_null(d->code)));
    }
    pthread_mutex_unlock(&s->lock);
    return a;
}

bool hms_write_json(const hms_report *r, FILE *out, const hms_json_options *o)
{
    return hms_json_dump_report(hms_report_to_json(r, o), out);
}

bool hms_json_dump_report(json_t *j, FILE *out)
{
    if (!j)
        return false;
    /* 15 significant digits: exact for every figure we print, without the
     * 0.10000000000000001 noise of 17. */
    int rc = json_dumpf(j, out, JSON_INDENT(2) | JSON_REAL_PRECISION(15));
    json_decref(j);
    if (rc != 0)
        return false;
    fputc('\n', out);
    return !ferror(out);
}
