/* --format=html (see report_html.h). */
#include "analyzer/report/report_html.h"

#include <stdlib.h>
#include <string.h>

#include "analyzer/report/cost_rank.h"
#include "analyzer/report/report_ranking.h"

static const char css[] =
    "body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}"
    "h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em}"
    "table{border-collapse:collapse}th,td{padding:2px 6px;text-align:left}"
    "table.ranking td.num,table.placements td.num{text-align:right}"
    "table.ranking tr:nth-child(even){background:#f4f4f4}"
    ".estimate{color:#666;font-size:.9em}"
    "table.source{font:12px/1.3 monospace;width:100%}"
    "table.source td{padding:0 4px;vertical-align:top}table.source td.code{white-space:pre}"
    "td.heat,td.spr,td.wf{text-align:right;color:#444;min-width:3em}"
    "td.ln{color:#999;text-align:right;border-right:1px solid #ccc}"
    "tr.finding-row td{font-family:system-ui,sans-serif;max-width:60em}"
    ".finding{border-left:4px solid #c80;padding:2px 8px;margin:2px 0;background:#fff8e8}"
    ".finding.error{border-color:#c00;background:#fff0f0}"
    ".finding.note{border-color:#08c;background:#f0f8ff}"
    ".fixit code{background:#e8f5e8}"
    "svg.roofline .plot{fill:#fafafa;stroke:#ccc}svg.roofline .roof{fill:none;stroke:#333;"
    "stroke-width:2}svg.roofline .tick,svg.roofline .axis,svg.roofline .roof-label,"
    "svg.roofline .point-label{font:10px sans-serif;fill:#444}"
    "svg.roofline .kernel-point{fill:#d33;stroke:#000}";

void hms_html_escape(FILE *out, const char *s, size_t len)
{
    for (size_t i = 0; s && i < len; i++) {
        switch (s[i]) {
        case '&':
            fputs("&amp;", out);
            break;
        case '<':
            fputs("&lt;", out);
            break;
        case '>':
            fputs("&gt;", out);
            break;
        case '"':
            fputs("&quot;", out);
            break;
        case '\'':
            fputs("&#39;", out);
            break;
        default:
            fputc(s[i], out);
        }
    }
}

static void esc(FILE *out, const char *s)
{
    hms_html_escape(out, s ? s : "", s ? strlen(s) : 0);
}

static void ranking_index(const hms_report *r, FILE *out)
{
    /* Every kernel of every file, ranked by gain across the whole report. */
    size_t n = 0;
    for (size_t i = 0; i < r->nfiles; i++)
        n += r->files[i].nkernels;
    fputs("<nav id=\"index\"><h2>Kernels ranked by the estimated gain of their fixes</h2>\n"
          "<table class=\"ranking\"><tr><th>#</th><th>kernel</th><th>file</th>"
          "<th>predicted cycles</th><th>est. gain cycles</th><th>gain</th><th>findings</th>"
          "</tr>\n",
          out);
    typedef struct {
        size_t f, k;
        double gain, time;
    } row;
    row *v = calloc(n ? n : 1, sizeof *v);
    size_t m = 0;
    for (size_t i = 0; v && i < r->nfiles; i++)
        for (size_t k = 0; k < r->files[i].nkernels; k++) {
            const hms_kernel_report *kr = &r->files[i].kernels[k];
            v[m++] = (row){i, k, hms_kernel_gain(kr),
                           kr->model.predicted_time > 0 ? kr->model.predicted_time : 0};
        }
    /* Insertion sort: reports hold tens of kernels, and ties keep order. */
    for (size_t i = 1; i < m; i++)
        for (size_t j = i; j > 0 && (v[j].gain > v[j - 1].gain ||
                                     (v[j].gain == v[j - 1].gain && v[j].time > v[j - 1].time));
             j--) {
            row t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    for (size_t i = 0; i < m; i++) {
        const hms_file_report *fr = &r->files[v[i].f];
        const hms_kernel_report *kr = &fr->kernels[v[i].k];
        fprintf(out, "<tr><td class=\"num\">%zu</td><td><a href=\"#k%zu-%zu\">", i + 1, v[i].f,
                v[i].k);
        esc(out, kr->name);
        fputs("</a></td><td>", out);
        esc(out, fr->path);
        fprintf(out,
                "</td><td class=\"num\">%.0f</td><td class=\"num\">%.0f</td>"
                "<td class=\"num\">%.1f%%</td><td class=\"num\">%zu</td></tr>\n",
                v[i].time, v[i].gain, v[i].time > 0 ? 100 * v[i].gain / v[i].time : 0.0,
                kr->ndiagnostics);
    }
    free(v);
    fputs("</table>\n<h2>Files</h2><ul class=\"files\">\n", out);
    for (size_t i = 0; i < r->nfiles; i++) {
        const hms_file_report *fr = &r->files[i];
        fputs("<li>", out);
        esc(out, fr->path);
        fprintf(out, ": %zu kernel%s", fr->nkernels, fr->nkernels == 1 ? "" : "s");
        for (size_t e = 0; e < fr->nerrors; e++) {
            fputs("; <span class=\"file-error\">error: ", out);
            esc(out, fr->errors[e]);
            fputs("</span>", out);
        }
        fputs("</li>\n", out);
    }
    fputs("</ul></nav>\n", out);
}

static const char *sev_name(hms_severity s)
{
    return s == HMS_SEV_ERROR ? "error" : s == HMS_SEV_WARNING ? "warning" : "note";
}

static void finding_box(const hms_kernel_report *k, const hms_finding *f, FILE *out)
{
    fprintf(out, "<div class=\"finding %s\"><b>%s:</b> ", sev_name(f->severity),
            sev_name(f->severity));
    esc(out, f->message);
    fputs(" <code>[", out);
    esc(out, f->check);
    fputs("]</code>", out);
    double gain = hms_finding_gain(k, f);
    if (gain > 0)
        fprintf(out, " <span class=\"estimate\">est. gain %.0f cycles</span>", gain);
    if (f->nnotes) {
        fputs("<ul class=\"notes\">", out);
        for (size_t i = 0; i < f->nnotes; i++) {
            fprintf(out, "<li>note (line %u): ", f->notes[i].line);
            esc(out, f->notes[i].message);
            fputs("</li>", out);
        }
        fputs("</ul>", out);
    }
    for (size_t i = 0; i < f->nfixits; i++) {
        const hms_fixit *x = &f->fixits[i];
        fprintf(out, "<div class=\"fixit\">fix-it: line %u, columns %u&ndash;%u: <code>", x->line,
                x->col, x->end_line ? x->end_col : x->col);
        esc(out, x->replacement);
        fputs("</code></div>", out);
    }
    fputs("</div>\n", out);
}

/* Per line: the largest sectors per request and bank wavefronts. */
static void line_metrics(const hms_kernel_report *k, unsigned line, double *spr, double *wf)
{
    *spr = *wf = -1;
    for (size_t i = 0; i < k->naccesses; i++) {
        const hms_access_metrics *a = &k->accesses[i];
        if (a->line != line)
            continue;
        if (a->sectors_per_request > *spr)
            *spr = a->sectors_per_request;
        if (a->bank_wavefronts_per_request > *wf)
            *wf = a->bank_wavefronts_per_request;
    }
}

static void source_table(const hms_file_report *fr, const hms_kernel_report *k, const char *id,
                         hms_source_cache *src, FILE *out)
{
    /* From the kernel's first line to the last line anything points at. */
    unsigned first = k->line ? k->line : 1, last = first;
    for (size_t i = 0; i < k->naccesses; i++)
        if (k->accesses[i].line > last)
            last = k->accesses[i].line;
    for (size_t d = 0; d < k->ndiagnostics; d++) {
        const hms_finding *f = &k->diagnostics[d];
        bool here = !f->file || !fr->path || !strcmp(f->file, fr->path);
        if (here && f->line > last)
            last = f->line;
        if (here && f->line && f->line < first)
            first = f->line;
    }
    unsigned nlines = hms_source_line_count(src, fr->path);
    if (last + 2 <= nlines)
        last += 2;
    fputs(
        "<table class=\"source\"><tr><th title=\"share of the predicted memory time "
        "(estimate)\">mem%</th><th title=\"sectors per request\">sect/req</th>"
        "<th title=\"bank wavefronts per request\">wavefr</th><th>line</th><th>source</th></tr>\n",
        out);
    for (unsigned l = first; l <= last && l <= nlines; l++) {
        size_t len = 0;
        const char *text = hms_source_line(src, fr->path, l, &len);
        double share = hms_line_memory_share(k, l), spr, wf;
        line_metrics(k, l, &spr, &wf);
        fprintf(out, "<tr class=\"line\" id=\"%s-l%u\">", id, l); /* unique within the page */
        if (share > 0)
            fprintf(out,
                    "<td class=\"heat\" style=\"background:rgba(220,40,40,%.2f)\" "
                    "title=\"%.1f%% of the predicted memory time\">%.0f%%</td>",
                    0.1 + 0.8 * share, 100 * share, 100 * share);
        else
            fputs("<td class=\"heat\"></td>", out);
        if (spr >= 0)
            fprintf(out, "<td class=\"spr\">%.1f</td>", spr);
        else
            fputs("<td class=\"spr\"></td>", out);
        if (wf >= 0)
            fprintf(out, "<td class=\"wf\">%.1f</td>", wf);
        else
            fputs("<td class=\"wf\"></td>", out);
        fprintf(out, "<td class=\"ln\">%u</td><td class=\"code\">", l);
        hms_html_escape(out, text, text ? len : 0);
        fputs("</td></tr>\n", out);
        for (size_t d = 0; d < k->ndiagnostics; d++) {
            const hms_finding *f = &k->diagnostics[d];
            bool here = !f->file || !fr->path || !strcmp(f->file, fr->path);
            if (!here || f->line != l)
                continue;
            fputs("<tr class=\"finding-row\"><td colspan=\"4\"></td><td>", out);
            finding_box(k, f, out);
            fputs("</td></tr>\n", out);
        }
    }
    fputs("</table>\n", out);
    /* Findings in other files (headers) or at no line. */
    for (size_t d = 0; d < k->ndiagnostics; d++) {
        const hms_finding *f = &k->diagnostics[d];
        bool here = !f->file || !fr->path || !strcmp(f->file, fr->path);
        if (here && f->line >= first && f->line <= last && f->line <= nlines)
            continue;
        fputs("<p>", out);
        esc(out, f->file ? f->file : fr->path);
        fprintf(out, ":%u</p>", f->line);
        finding_box(k, f, out);
    }
}

static void placement_table(const hms_kernel_report *k, FILE *out)
{
    if (!k->nplacements)
        return;
    fputs("<h3>Placement (estimates)</h3><table class=\"placements\"><tr><th>array</th>"
          "<th>space</th><th>legal</th><th>predicted cycles</th><th>speedup</th><th>why</th>"
          "</tr>\n",
          out);
    for (size_t p = 0; p < k->nplacements; p++) {
        const hms_placement *pl = &k->placements[p];
        for (size_t o = 0; o < pl->noptions; o++) {
            const hms_placement_option *x = &pl->options[o];
            fputs("<tr><td>", out);
            esc(out, pl->array);
            fputs("</td><td>", out);
            esc(out, x->space);
            if (pl->current && x->space && !strcmp(pl->current, x->space))
                fputs(" (current)", out);
            if (pl->best && x->space && !strcmp(pl->best, x->space))
                fputs(" (best)", out);
            fprintf(out, "</td><td>%s</td>", x->legal ? "yes" : "no");
            if (x->legal && x->predicted_time >= 0)
                fprintf(out, "<td class=\"num\">%.0f</td><td class=\"num\">%.2fx</td>",
                        x->predicted_time, x->speedup);
            else
                fputs("<td class=\"num\">-</td><td class=\"num\">-</td>", out);
            fputs("<td>", out);
            esc(out, x->reason);
            fputs("</td></tr>\n", out);
        }
    }
    fputs("</table>\n", out);
}

static void kernel_section(const hms_report *r, size_t fi, size_t ki, hms_source_cache *src,
                           FILE *out)
{
    const hms_file_report *fr = &r->files[fi];
    const hms_kernel_report *k = &fr->kernels[ki];
    const hms_model_figures *m = &k->model;
    fprintf(out, "<section class=\"kernel\" id=\"k%zu-%zu\"><h2>", fi, ki);
    esc(out, k->name);
    fputs(" <small>", out);
    esc(out, fr->path);
    fprintf(out, ":%u</small></h2>\n", k->line);
    fprintf(out,
            "<p class=\"summary\">grid %u&times;%u&times;%u, block %u&times;%u&times;%u "
            "(%s)%s. Predicted time <b>%.0f cycles</b> (estimate), bound: <b>%s</b>, binding: "
            "<b>%s</b>; estimated gain of the fixes: <b>%.0f cycles</b>.</p>\n",
            k->launch.grid[0], k->launch.grid[1], k->launch.grid[2], k->launch.block[0],
            k->launch.block[1], k->launch.block[2], k->launch.source ? k->launch.source : "?",
            k->sampled ? ", figures scaled from sampled blocks" : "",
            m->predicted_time > 0 ? m->predicted_time : 0, m->bound ? m->bound : "?",
            m->binding ? m->binding : "?", hms_kernel_gain(k));
    hms_write_roofline_svg(k, r->arch, out);
    placement_table(k, out);
    fputs("<h3>Source</h3>\n", out);
    char id[48];
    snprintf(id, sizeof id, "k%zu-%zu", fi, ki);
    source_table(fr, k, id, src, out);
    fputs("</section>\n", out);
}

bool hms_write_html(const hms_report *r, hms_source_cache *src, FILE *out)
{
    fprintf(out,
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width\">"
            "<title>hms-lint report</title><style>%s</style></head><body>\n"
            "<header><h1>hms-lint report</h1><p>",
            css);
    esc(out, r->tool_name ? r->tool_name : "hms-lint");
    fputs(" ", out);
    esc(out, r->tool_version);
    fputs(", target <b>", out);
    esc(out, r->arch);
    fputs("</b>. All times are the model's estimates in SM cycles; gains are what the "
          "suggested fixes are predicted to save.</p></header>\n",
          out);
    ranking_index(r, out);
    for (size_t i = 0; i < r->nfiles; i++) {
        size_t *order = hms_rank_kernels(&r->files[i], 1);
        for (size_t k = 0; order && k < r->files[i].nkernels; k++)
            kernel_section(r, i, order[k], src, out);
        free(order);
    }
    fputs("</body></html>\n", out);
    return !ferror(out);
}
