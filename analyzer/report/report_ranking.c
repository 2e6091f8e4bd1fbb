/* Kernel rankings (see report_ranking.h). */
#include "analyzer/report/report_ranking.h"

#include <stdlib.h>

#include "analyzer/report/cost_rank.h"

typedef struct {
    double key, tie;
    size_t index;
} keyed;

static int desc(const void *pa, const void *pb)
{
    const keyed *a = pa, *b = pb;
    if (a->key != b->key)
        return a->key > b->key ? -1 : 1;
    if (a->tie != b->tie)
        return a->tie > b->tie ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

static double time_of(const hms_kernel_report *k)
{
    return k->model.predicted_time > 0 ? k->model.predicted_time : 0;
}

size_t *hms_rank_kernels(const hms_file_report *fr, int by_gain)
{
    size_t n = fr->nkernels;
    keyed *v = calloc(n ? n : 1, sizeof *v);
    size_t *out = calloc(n ? n : 1, sizeof *out);
    if (!v || !out) {
        free(v);
        free(out);
        return NULL;
    }
    for (size_t k = 0; k < n; k++) {
        double t = time_of(&fr->kernels[k]);
        double g = hms_kernel_gain(&fr->kernels[k]);
        v[k] = (keyed){by_gain ? g : t, by_gain ? t : g, k};
    }
    qsort(v, n, sizeof *v, desc);
    for (size_t k = 0; k < n; k++)
        out[k] = v[k].index;
    free(v);
    return out;
}

json_t *hms_ranking_json(const hms_file_report *fr)
{
    json_t *by_time = json_array(), *by_gain = json_array();
    size_t *t = hms_rank_kernels(fr, 0), *g = hms_rank_kernels(fr, 1);
    for (size_t i = 0; t && g && i < fr->nkernels; i++) {
        const hms_kernel_report *kt = &fr->kernels[t[i]], *kg = &fr->kernels[g[i]];
        json_array_append_new(by_time, json_pack("{s:s, s:f}", "kernel", kt->name ? kt->name : "?",
                                                 "predicted_time", time_of(kt)));
        double gain = hms_kernel_gain(kg), time = time_of(kg);
        json_array_append_new(by_gain, json_pack("{s:s, s:f, s:f}", "kernel",
                                                 kg->name ? kg->name : "?", "estimated_gain", gain,
                                                 "share", time > 0 ? gain / time : 0.0));
    }
    free(t);
    free(g);
    return json_pack("{s:o, s:o}", "by_predicted_time", by_time, "by_estimated_gain", by_gain);
}

void hms_write_ranking(const hms_file_report *fr, FILE *out)
{
    if (fr->nkernels == 0)
        return;
    size_t *g = hms_rank_kernels(fr, 1), *t = hms_rank_kernels(fr, 0);
    if (!g || !t) {
        free(g);
        free(t);
        return;
    }
    fprintf(out,
            "\n%s: kernels ranked by the estimated gain of their fixes (and by predicted time; "
            "estimates)\n",
            fr->path ? fr->path : "?");
    fprintf(out, "  %-7s %-7s %-32s %16s %16s %7s\n", "by gain", "by time", "kernel",
            "predicted cycles", "est. gain cycles", "gain %");
    for (size_t i = 0; i < fr->nkernels; i++) {
        const hms_kernel_report *k = &fr->kernels[g[i]];
        size_t time_rank = 0;
        while (time_rank < fr->nkernels && t[time_rank] != g[i])
            time_rank++;
        double time = time_of(k), gain = hms_kernel_gain(k);
        fprintf(out, "  %-7zu %-7zu %-32s %16.0f %16.0f %6.1f%%\n", i + 1, time_rank + 1,
                k->name ? k->name : "?", time, gain, time > 0 ? 100 * gain / time : 0.0);
    }
    free(g);
    free(t);
}
