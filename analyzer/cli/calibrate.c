/* `hms-lint calibrate runs.csv [--arch=BASE] [--output=FILE.yaml]`: fits the
 * coefficients the papers fit (HSM c1/c2, Huang & Li's T_overlap ratio) to
 * measured runs, prints the fit quality and writes the base architecture
 * with the fitted values in place of the defaults. Columns: docs/probe.md. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analyzer/cli/arch_select.h"
#include "analyzer/cli/atomic_file.h"
#include "analyzer/report/diag_sink.h"
#include "analyzer/cli/calibrate_fit.h"
#include "analyzer/cli/commands.h"
#include "runtime/arch_patch.h"

static void print_fit(const char *title, const hms_cal_table *t, const hms_cal_fit *f)
{
    printf("%s, %zu runs:\n", title, f->nruns);
    for (size_t j = 0; j < f->ncoeffs; j++) {
        if (f->fitted[j])
            printf("  %-13s %.6g\n", f->names[j], f->coeff[j]);
        else
            printf("  %-13s not fitted: its input is 0 in every run (value left as it was)\n",
                   f->names[j]);
    }
    printf("  R^2 %.4f, RMS residual %.4g\n", f->r2, f->rms);
    printf("  worst fits:");
    for (size_t w = 0; w < f->nworst; w++)
        printf("%s %s residual %+.4g", w ? ";" : "", t->run[f->worst[w]].label,
               f->worst_residual[w]);
    printf("\n");
}

/* The command, its problems recorded in said (printed as they come). */
static int calibrate(const hms_options *o, hms_diag_sink *said)
{
    if (o->files.n != 1)
        return hms_diag_usage_error(
            stderr, "calibrate takes one CSV file of measured runs, got %zu", o->files.n);
    const hms_arch *a = hms_resolve_arch(o, said);
    if (!a)
        return 2;
    hms_file_error ferr;
    hms_cal_table t;
    if (!hms_cal_table_read(o->files.v[0], &t, &ferr)) {
        hms_diag_file_error(said, HMS_DIAG_ERROR, &ferr);
        return 2;
    }
    /* runs from another GPU than the one a probed --arch file measured */
    for (size_t i = 0; a->probe_format > 0 && i < t.nruns; i++)
        if (t.run[i].device[0] && strcmp(t.run[i].device, a->probe_device) != 0) {
            hms_diagf(said, (hms_diag_head){HMS_DIAG_ERROR, t.path, t.run[i].line, 0, NULL, NULL},
                      "run measured on '%s', but %s was probed on '%s'", t.run[i].device,
                      a->source_path, a->probe_device);
            hms_cal_table_free(&t);
            return 2;
        }
    hms_cal_fit hsm, ovl;
    bool ok = hms_cal_fit_hsm(&t, a->dram_bandwidth_gbs, a->clock_ghz, &hsm, &ferr) &&
              hms_cal_fit_overlap(&t, &ovl, &ferr);
    if (ok && !hsm.attempted && !ovl.attempted)
        ok = hms_file_error_set(
            &ferr, t.path, 0, 0,
            "nothing to fit: the HSM fit needs rbh with bw_util (or dram_bytes and a time), the "
            "overlap fit e_global ... warps with overlap_ratio (or t_comp, t_mem, time_cycles); "
            "see docs/probe.md");
    if (ok && hsm.attempted && (hsm.coeff[0] < 0 || hsm.coeff[1] < 0))
        ok = hms_file_error_set(&ferr, t.path, 0, 0,
                                "the HSM fit gives c1 = %.4g, c2 = %.4g; both must be >= 0 "
                                "(utilisation cannot fall as the row-buffer hit rate rises): are "
                                "memory-bound runs only in the table?",
                                hsm.coeff[0], hsm.coeff[1]);
    if (!ok) {
        hms_diag_file_error(said, HMS_DIAG_ERROR, &ferr);
        hms_cal_table_free(&t);
        return 2;
    }
    printf("calibrate: %s: %zu runs%s, base architecture %s\n", t.path, t.nruns,
           t.ncu ? " (Nsight Compute export)" : "", a->name);
    if (hsm.attempted)
        print_fit("HSM bandwidth utilisation = c1 * rbh + c2 (Zhao et al. eqs. 3, 5)", &t, &hsm);
    if (ovl.attempted)
        print_fit("T_overlap ratio (Huang & Li eq. 11)", &t, &ovl);

    int rc = 0;
    if (!o->output) {
        printf("no file written (pass --output=FILE.yaml to write the architecture)\n");
    } else {
        char date[16];
        time_t now = time(NULL);
        struct tm tmv;
        strftime(date, sizeof date, "%Y-%m-%d", gmtime_r(&now, &tmv));
        char why[160];
        snprintf(why, sizeof why, "fitted by hms-lint calibrate from %s (%zu runs) on %s", t.path,
                 t.nruns, date);
        static const char *const hsm_keys[] = {"coefficients.hsm.c1", "coefficients.hsm.c2"};
        static const char *const ovl_keys[HMS_OVERLAP_COUNT] = {
            "coefficients.overlap.global",   "coefficients.overlap.constant",
            "coefficients.overlap.texture",  "coefficients.overlap.shared",
            "coefficients.overlap.row_miss", "coefficients.overlap.row_conflict",
            "coefficients.overlap.warps",    "coefficients.overlap.intercept"};
        hms_yaml_edit e[2 + HMS_OVERLAP_COUNT + 3];
        const char *paths[2 + HMS_OVERLAP_COUNT + 3];
        size_t n = 0;
        memset(e, 0, sizeof e);
        size_t nl = strlen(a->name);
        bool already = nl > 11 && strcmp(a->name + nl - 11, "-calibrated") == 0;
        snprintf(e[n].value, sizeof e[n].value, already ? "%.31s" : "%.20s-calibrated", a->name);
        paths[n++] = "name";
        if (hsm.attempted) {
            for (size_t j = 0; j < 2; j++) {
                snprintf(e[n].value, sizeof e[n].value, "%.6g", hsm.coeff[j]);
                snprintf(e[n].comment, sizeof e[n].comment, "%s", why);
                paths[n++] = hsm_keys[j];
            }
            snprintf(e[n].value, sizeof e[n].value, "false");
            paths[n++] = "coefficients.hsm.default";
        }
        if (ovl.attempted) {
            for (size_t j = 0; j < HMS_OVERLAP_COUNT; j++) {
                if (!ovl.fitted[j])
                    continue;
                snprintf(e[n].value, sizeof e[n].value, "%.6g", ovl.coeff[j]);
                snprintf(e[n].comment, sizeof e[n].comment, "%s", why);
                paths[n++] = ovl_keys[j];
            }
            snprintf(e[n].value, sizeof e[n].value, "false");
            paths[n++] = "coefficients.overlap.default";
        }
        for (size_t i = 0; i < n; i++)
            e[i].path = paths[i];
        char header[512];
        snprintf(header, sizeof header,
                 "# Written by `hms-lint calibrate %s --arch=%s` on %s: the %s%s%s coefficients\n"
                 "# are fitted to measured runs; every other value is the base file's.\n",
                 t.path, o->arch ? o->arch : HMS_ARCH_DEFAULT, date, hsm.attempted ? "HSM" : "",
                 hsm.attempted && ovl.attempted ? " and " : "", ovl.attempted ? "T_overlap" : "");
        char err[700];
        char *base = hms_arch_yaml_text(a, err, sizeof err);
        char *text =
            base ? hms_arch_patch(base, o->output, header, NULL, e, n, err, sizeof err) : NULL;
        if (!text) {
            hms_diagf(said, (hms_diag_head){HMS_DIAG_ERROR, NULL, 0, 0, NULL, NULL}, "%s", err);
            rc = 2;
        } else if (!hms_write_file_atomic(o->output, text, strlen(text), &ferr)) {
            hms_diag_file_error(said, HMS_DIAG_ERROR, &ferr);
            rc = 2;
        } else
            printf("wrote %s (use it with --arch=%s)\n", o->output, o->output);
        free(base);
        free(text);
    }
    hms_cal_table_free(&t);
    return rc;
}

int hms_cmd_calibrate(const hms_options *o)
{
    hms_diag_sink said;
    hms_diag_sink_init(&said, stderr);
    int rc = calibrate(o, &said);
    hms_diag_sink_free(&said);
    return rc;
}
