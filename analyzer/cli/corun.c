/* `hms-lint --corun a.cu:kernelA b.cu:kernelB [--qos=kernelA:0.8]`: HSM
 * co-run advice. Each kernel is analysed as the lint does (its class and
 * row-buffer hit rate come from the model), then runtime/hsm_corun.h
 * predicts NP for every split of the SMs and runs HSM-Fair or HSM-QoS on it.
 * Text or --format=json. */
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/cli/arch_select.h"
#include "analyzer/cli/frontend_inputs.h"
#include "analyzer/cli/atomic_file.h"
#include "analyzer/report/diag_sink.h"
#include "analyzer/report/report_json.h"
#include "analyzer/cli/commands.h"
#include "analyzer/frontend/ir_build.h"
#include "analyzer/frontend/parse.h"
#include "passes/analyze.h"
#include "runtime/hsm_corun.h"

#define FAIR_THRESHOLD 0.9 /* HSM-Fair, Section 4.2 */

typedef struct {
    char file[PATH_MAX], kernel[256];
    char bound[16];
    double demand_gbs, supply_gbs, rbh, time_cycles;
} corun_side;

/* An error of the command about the run (no file), or at a file. */
static hms_diag_head error_at(const char *file)
{
    return (hms_diag_head){HMS_DIAG_ERROR, file, 0, 0, NULL, NULL};
}

static bool split_spec(const char *spec, corun_side *s, hms_diag_sink *said)
{
    const char *colon = strrchr(spec, ':');
    if (!colon || colon == spec || !colon[1] || (size_t)(colon - spec) >= sizeof s->file ||
        strlen(colon + 1) >= sizeof s->kernel) {
        hms_diagf(said, error_at(NULL), "--corun: '%s': expected <file.cu>:<kernel>", spec);
        return false;
    }
    memcpy(s->file, spec, (size_t)(colon - spec));
    s->file[colon - spec] = '\0';
    snprintf(s->kernel, sizeof s->kernel, "%s", colon + 1);
    return true;
}

/* "(kernels: a, b)", or why there is none (malloc'd). */
static char *kernel_list(ir_kernel **ks, size_t nk)
{
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m)
        return NULL;
    for (size_t i = 0; i < nk; i++)
        fprintf(m, "%s%s", i ? ", " : "(kernels: ", ks[i]->name ? ks[i]->name : "?");
    fputs(nk ? ")" : "(the file has no __global__ function)", m);
    fclose(m);
    return text;
}

/* Parses the file, analyses the named kernel, keeps the HSM inputs. */
static bool analyse_side(const hms_options *o, const hms_arch *a, corun_side *s,
                         hms_diag_sink *said)
{
    hms_tu tu;
    hms_frontend_options fo = hms_frontend_inputs(o, a);
    bool parsed = hms_parse_file(&fo, s->file, &tu, said);
    ir_kernel **ks = NULL;
    size_t nk = parsed ? hms_build_kernels(&tu, &fo, &ks, said) : 0;
    if (!parsed)
        return false; /* hms_parse_file said why, naming the file */
    if (hms_tu_failed(&tu)) {
        /* clang's errors are in said, at their lines; advice on the kernel
         * as recovered from them would not be the kernel the user runs */
        hms_free_kernels(ks, nk);
        hms_tu_dispose(&tu);
        return false;
    }
    const ir_kernel *k = NULL;
    for (size_t i = 0; i < nk && !k; i++)
        if (ks[i]->name && strcmp(ks[i]->name, s->kernel) == 0)
            k = ks[i];
    bool ok = k != NULL;
    if (!k) {
        char *list = kernel_list(ks, nk);
        hms_diagf(said, error_at(s->file), "no kernel named '%s' %s", s->kernel, list ? list : "");
        free(list);
    } else {
        hms_analysis_options ao = {.arch = a,
                                   .checks = "-*",
                                   .placement_threshold = o->placement_threshold,
                                   .budget_scale = o->analysis_budget};
        hms_kernel_report r;
        memset(&r, 0, sizeof r);
        ok = hms_analyze_kernel(k, &ao, &r);
        if (!ok)
            hms_diagf(said, error_at(s->file), "kernel '%s': internal analysis failure", s->kernel);
        else {
            s->demand_gbs = r.model.hsm_demand_gbs;
            s->supply_gbs = r.model.hsm_supply_gbs;
            s->rbh = r.model.dram_row_hit_rate;
            s->time_cycles = r.model.predicted_time;
            snprintf(s->bound, sizeof s->bound, "%s", r.model.bound ? r.model.bound : "compute");
        }
        hms_kernel_report_free(&r);
    }
    hms_free_kernels(ks, nk);
    hms_tu_dispose(&tu);
    return ok;
}

static bool same_file(const char *x, const char *y)
{
    char *rx = realpath(x, NULL), *ry = realpath(y, NULL);
    bool same = rx && ry ? strcmp(rx, ry) == 0 : strcmp(x, y) == 0;
    free(rx);
    free(ry);
    return same;
}

static json_t *split_json(const hms_corun_split *p, int total)
{
    json_t *a = json_array();
    for (int i = 0; i < 2; i++)
        json_array_append_new(a, json_pack("{s:i,s:i,s:f,s:f}", "sms", p->sms[i], "mps_percent",
                                           hms_corun_mps_percent(p->sms[i], total), "np", p->np[i],
                                           "dram_gbs", p->got_gbs[i]));
    return json_pack("{s:o,s:f,s:f,s:f}", "kernels", a, "stp", p->stp, "antt", p->antt, "fairness",
                     p->fairness);
}

static void write_text(FILE *f, const corun_side sd[2], const hms_corun_system *sys,
                       const hms_corun_split *all, const hms_corun_advice *adv, const char *policy,
                       int hp, double target)
{
    int S = sys->total_sms;
    fprintf(f, "co-run on %d SMs, DRAM %.0f GB/s, HSM c1 = %.3g, c2 = %.3g (estimates)\n", S,
            sys->b_max_gbs, sys->c.c1, sys->c.c2);
    for (int i = 0; i < 2; i++)
        fprintf(f,
                "  %c %s:%s: %s-bound (demand at peak issue rate %.1f GB/s, supply %.1f GB/s, "
                "row-buffer hits "
                "%.0f%%)\n",
                'A' + i, sd[i].file, sd[i].kernel, sd[i].bound, sd[i].demand_gbs, sd[i].supply_gbs,
                100 * sd[i].rbh);
    fprintf(f, "  SMs(A)  SMs(B)  NP(A)  NP(B)   STP  fairness\n");
    int step = S > 24 ? (S + 15) / 16 : 1;
    for (int a = 1; a < S; a++) {
        const hms_corun_split *p = &all[a - 1];
        bool mark = a == adv->split.sms[0];
        if (!mark && a % step != 0 && a != 1 && a != S - 1)
            continue;
        fprintf(f, "%c %6d  %6d  %5.3f  %5.3f  %5.3f  %6.3f\n", mark ? '*' : ' ', p->sms[0],
                p->sms[1], p->np[0], p->np[1], p->stp, p->fairness);
    }
    const hms_corun_split *r = &adv->split;
    fprintf(f, "recommended (%s%s): A %d SMs, B %d SMs: NP %.3f / %.3f, fairness %.3f, STP %.3f\n",
            policy, adv->converged ? "" : ", did not settle: best split seen", r->sms[0], r->sms[1],
            r->np[0], r->np[1], r->fairness, r->stp);
    if (hp >= 0 && !adv->target_met)
        fprintf(f,
                "  the QoS target %.2f for %s is not reached by any split the procedure "
                "visited\n",
                target, sd[hp].kernel);
    fprintf(f, "  as MPS: CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=%d for A, %d for B\n",
            hms_corun_mps_percent(r->sms[0], S), hms_corun_mps_percent(r->sms[1], S));
}

/* The command, its problems recorded in said (printed as they come). */
static int corun(const hms_options *o, hms_diag_sink *said)
{
    if (o->files.n != 2)
        return hms_diag_usage_error(
            stderr, "--corun takes two <file.cu>:<kernel> arguments, got %zu", o->files.n);
    corun_side sd[2];
    memset(sd, 0, sizeof sd);
    for (int i = 0; i < 2; i++)
        if (!split_spec(o->files.v[i], &sd[i], said))
            return 2;
    if (strcmp(sd[0].kernel, sd[1].kernel) == 0 && same_file(sd[0].file, sd[1].file)) {
        hms_diagf(said, error_at(sd[0].file),
                  "--corun names kernel '%s' twice: give two different kernels", sd[0].kernel);
        return 2;
    }
    int hp = -1;
    double target = 0;
    if (o->qos) {
        const char *colon = strrchr(o->qos, ':');
        char *end = NULL;
        target = colon ? strtod(colon + 1, &end) : 0;
        size_t nlen = colon ? (size_t)(colon - o->qos) : 0;
        for (int i = 0; i < 2 && colon; i++)
            if (strlen(sd[i].kernel) == nlen && strncmp(sd[i].kernel, o->qos, nlen) == 0)
                hp = i;
        if (!colon || !end || *end || !(target > 0) || target > 1 || hp < 0) {
            hms_diagf(said, error_at(NULL),
                      "--qos=%s: expected <kernel>:<np> with one of the two kernels and 0 < np "
                      "<= 1",
                      o->qos);
            return 2;
        }
    }
    const hms_arch *a = hms_resolve_arch(o, said);
    if (!a)
        return 2;
    for (int i = 0; i < 2; i++)
        if (!analyse_side(o, a, &sd[i], said))
            return 2;

    hms_corun_system sys = {a->sm_count, a->dram_bandwidth_gbs, hms_hsm_coeffs_for(a)};
    hms_corun_kernel k[2] = {{sd[0].demand_gbs, sd[0].rbh}, {sd[1].demand_gbs, sd[1].rbh}};
    char err[300];
    hms_corun_split *all = calloc((size_t)(a->sm_count > 1 ? a->sm_count : 2), sizeof *all);
    hms_corun_advice adv;
    bool ok = all != NULL;
    for (int s = 1; ok && s < a->sm_count; s++)
        ok = hms_corun_predict(&sys, k, s, &all[s - 1], err, sizeof err);
    if (ok)
        ok = hp >= 0 ? hms_corun_qos(&sys, k, hp, target, &adv, err, sizeof err)
                     : hms_corun_fair(&sys, k, FAIR_THRESHOLD, &adv, err, sizeof err);
    if (!ok) {
        hms_diagf(said, error_at(NULL), "%s", all ? err : "out of memory");
        free(all);
        return 2;
    }
    const char *policy = hp >= 0 ? "HSM-QoS" : "HSM-Fair";
    FILE *out = stdout;
    hms_atomic_file af = {0};
    hms_file_error why;
    if (o->output && !(out = hms_atomic_open(&af, o->output, &why))) {
        hms_diag_file_error(said, HMS_DIAG_ERROR, &why);
        free(all);
        return 2;
    }
    if (o->format == HMS_FMT_JSON) {
        json_t *kern = json_array(), *splits = json_array();
        for (int i = 0; i < 2; i++)
            json_array_append_new(kern, json_pack("{s:s,s:s,s:s,s:f,s:f,s:f}", "file", sd[i].file,
                                                  "kernel", sd[i].kernel, "class", sd[i].bound,
                                                  "demand_gbs", sd[i].demand_gbs, "supply_gbs",
                                                  sd[i].supply_gbs, "row_hit_rate", sd[i].rbh));
        for (int s = 1; s < a->sm_count; s++)
            json_array_append_new(splits, split_json(&all[s - 1], a->sm_count));
        json_t *rec = split_json(&adv.split, a->sm_count);
        json_object_set_new(rec, "policy", json_string(policy));
        json_object_set_new(rec, "converged", json_boolean(adv.converged));
        json_object_set_new(rec, "epochs", json_integer(adv.epochs));
        if (hp >= 0) {
            json_object_set_new(rec, "qos_kernel", json_string(sd[hp].kernel));
            json_object_set_new(rec, "qos_target", json_real(target));
            json_object_set_new(rec, "target_met", json_boolean(adv.target_met));
        }
        json_t *root =
            json_pack("{s:s,s:i,s:f,s:{s:f,s:f,s:b},s:o,s:o,s:o,s:b}", "arch", a->name, "sms",
                      a->sm_count, "dram_bandwidth_gbs", a->dram_bandwidth_gbs, "hsm", "c1",
                      sys.c.c1, "c2", sys.c.c2, "default", a->hsm_coeffs_default, "kernels", kern,
                      "splits", splits, "recommended", rec, "estimate", 1);
        /* what parsing the two files said (a header not found ...), as the
         * lint's JSON report carries it */
        json_object_set_new(root, "notifications", hms_diag_sink_to_json(said));
        json_dumpf(root, out, JSON_INDENT(2) | JSON_REAL_PRECISION(6));
        fputc('\n', out);
        json_decref(root);
    } else
        write_text(out, sd, &sys, all, &adv, policy, hp, target);
    int rc = 0;
    if (o->output && !hms_atomic_commit(&af, &why)) {
        hms_diag_file_error(said, HMS_DIAG_ERROR, &why);
        rc = 2;
    }
    free(all);
    return rc;
}

int hms_cmd_corun(const hms_options *o)
{
    hms_diag_sink said;
    hms_diag_sink_init(&said, stderr);
    int rc = corun(o, &said);
    hms_diag_sink_free(&said);
    return rc;
}
