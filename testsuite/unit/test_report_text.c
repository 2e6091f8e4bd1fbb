/* Clang-style text diagnostics from the hand-built sample report. The
 * expected text was written out by hand from the sample's positions
 * (testsuite/support/sample_report.c) following clang's layout: header,
 * source line with tabs expanded to 8 columns, caret line with '~' under
 * the range and under what a fix-it replaces, the replacement below. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyzer/report/finding_filter.h"
#include "analyzer/report/report_explain.h"
#include "analyzer/report/report_text.h"
#include "testsuite/support/sample_report.h"

static char *render(const hms_report *r, bool color, bool explain, hms_diag_counts *counts)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    hms_text_options o = {color, explain, false};
    hms_write_text(r, m, &o, counts);
    fclose(m);
    return buf;
}

static char *subst(const char *tmpl, const char *path)
{
    /* Expected text with "SRC" standing for the temporary file's path. */
    size_t n = 0;
    for (const char *p = tmpl; (p = strstr(p, "SRC")); p += 3)
        n++;
    char *out = malloc(strlen(tmpl) + n * strlen(path) + 1);
    char *o = out;
    for (const char *p = tmpl; *p;) {
        if (!strncmp(p, "SRC", 3)) {
            o = stpcpy(o, path);
            p += 3;
        } else {
            *o++ = *p++;
        }
    }
    *o = '\0';
    return out;
}

Test(report_text, clang_layout_sorted_by_line)
{
    char *src = hms_sample_write_source();
    cr_assert(src);
    hms_report r;
    hms_sample_report(&r, src);
    hms_diag_counts c;
    char *got = render(&r, false, false, &c);
    char *want =
        subst("SRC:1:17: note: kernel is memory-bound [hms-memory-bound]\n"
              "__global__ void transpose(float *a)\n"
              "                ^\n"
              "SRC:4:5: warning: 16-way bank conflict: 16 wavefronts per request where 1 would do "
              "[hms-shared-bank-conflict]\n"
              "    tile[threadIdx.x][threadIdx.y] = a[threadIdx.x];\n"
              "    ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\n"
              "SRC:3:19: note: tile declared here\n"
              "        __shared__ float tile[16][16];\n"
              "                         ^        ~~\n"
              "                                  17\n"
              "SRC:4:38: error: move 'a' to texture1d: predicted 1.25x faster [hms-placement]\n"
              "    tile[threadIdx.x][threadIdx.y] = a[threadIdx.x];\n"
              "                                     ^~~~~~~~~~~~~~\n"
              "other.cuh:2:1: note: also read here\n",
              src);
    cr_assert_str_eq(got, want);
    cr_assert(strchr(got, '\033') == NULL, "no colour unless asked");
    cr_assert_eq(c.warnings, 1);
    cr_assert_eq(c.errors, 1);
    cr_assert_eq(c.notes, 1);
    free(got);
    free(want);
    hms_report_free(&r);
    unlink(src);
    free(src);
}

Test(report_text, fixit_on_an_unshown_line_gets_its_own_snippet)
{
    char *src = hms_sample_write_source();
    cr_assert(src);
    hms_report r;
    hms_sample_report(&r, src);
    hms_kernel_report *k = &r.files[0].kernels[0];
    hms_finding *f = &k->diagnostics[0];
    /* Drop the note so no snippet shows line 3. */
    free(f->notes[0].message);
    free(f->notes[0].file);
    f->nnotes = 0;
    hms_finding_release(&k->diagnostics[1]);
    hms_finding_release(&k->diagnostics[2]);
    k->ndiagnostics = 1;
    char *got = render(&r, false, false, NULL);
    char *want = subst("SRC:4:5: warning: 16-way bank conflict: 16 wavefronts per request where 1 "
                       "would do [hms-shared-bank-conflict]\n"
                       "    tile[threadIdx.x][threadIdx.y] = a[threadIdx.x];\n"
                       "    ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\n"
                       "SRC:3:28: note: suggested fix\n"
                       "        __shared__ float tile[16][16];\n"
                       "                                  ^~\n"
                       "                                  17\n",
                       src);
    cr_assert_str_eq(got, want);
    free(got);
    free(want);
    hms_report_free(&r);
    unlink(src);
    free(src);
}

Test(report_text, fixit_on_the_diagnostic_line_and_insertion)
{
    char *src = hms_sample_write_source();
    cr_assert(src);
    hms_report r = {"hms-lint", "1", "h100", calloc(1, sizeof(hms_file_report)), 1};
    r.files[0].path = strdup(src);
    r.files[0].nkernels = 1;
    r.files[0].kernels = calloc(1, sizeof(hms_kernel_report));
    hms_kernel_report *k = &r.files[0].kernels[0];
    k->name = strdup("transpose");
    /* Replace "a[" (4:38-4:40) with "__ldg(&a[" and insert ")" before ';' (4:52). */
    hms_finding *f = hms_kernel_add_finding(k, "hms-placement", HMS_SEV_WARNING, src, 4, 38,
                                            "read 'a' through the read-only cache");
    hms_finding_add_fixit(f, src, 4, 38, 4, 40, "__ldg(&a[");
    hms_finding_add_fixit(f, src, 4, 52, 4, 52, ")");
    char *got = render(&r, false, false, NULL);
    char *want = subst("SRC:4:38: warning: read 'a' through the read-only cache [hms-placement]\n"
                       "    tile[threadIdx.x][threadIdx.y] = a[threadIdx.x];\n"
                       "                                     ^~\n"
                       "                                     __ldg(&a[     )\n",
                       src);
    cr_assert_str_eq(got, want);
    free(got);
    free(want);
    hms_report_free(&r);
    unlink(src);
    free(src);
}

Test(report_text, colour_like_clang)
{
    char *src = hms_sample_write_source();
    cr_assert(src);
    hms_report r;
    hms_sample_report(&r, src);
    char *got = render(&r, true, false, NULL);
    char *hdr = subst("\033[1mSRC:4:5: \033[0m\033[0;1;35mwarning: \033[0m\033[1m16-way bank", src);
    cr_assert(strstr(got, hdr) != NULL, "bold location, bold magenta 'warning:':\n%s", got);
    cr_assert(strstr(got, "\033[0;1;31merror: \033[0m") != NULL, "bold red 'error:'");
    cr_assert(strstr(got, "\033[0;1;36mnote: \033[0m") != NULL, "bold cyan 'note:'");
    cr_assert(strstr(got, "\033[0;1;32m    ^~~~") != NULL, "green caret line");
    cr_assert(strstr(got, "\033[0;32m                                  17\033[0m") != NULL,
              "green fix-it text");
    free(hdr);
    free(got);
    hms_report_free(&r);
    unlink(src);
    free(src);
}

Test(report_text, unreadable_source_prints_headers_only)
{
    hms_report r;
    hms_sample_report(&r, "/nonexistent/k.cu");
    char *got = render(&r, false, false, NULL);
    cr_assert(strstr(got, "/nonexistent/k.cu:4:5: warning: 16-way") != NULL);
    cr_assert(strstr(got, "^") == NULL, "no caret without source:\n%s", got);
    free(got);
    hms_report_free(&r);
}

static char *summary(hms_diag_counts c)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    hms_write_text_summary(&c, m);
    fclose(m);
    return buf;
}

Test(report_text, summary_like_clang_tidy)
{
    const struct {
        hms_diag_counts c;
        const char *want;
    } cases[] = {
        {{.warnings = 3, .notes = 1}, "3 warnings and 1 note generated.\n"},
        {{.warnings = 1, .errors = 1, .notes = 2}, "1 warning, 1 error and 2 notes generated.\n"},
        {{.errors = 2}, "2 errors generated.\n"},
        {{0}, ""}, /* nothing when clean */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *got = summary(cases[i].c);
        cr_assert_str_eq(got, cases[i].want);
        free(got);
    }
}

Test(report_text, colour_choice)
{
    FILE *f = tmpfile();
    cr_assert(f);
    unsetenv("NO_COLOR");
    cr_assert(!hms_use_color(-1, f), "auto: a file is not a terminal");
    cr_assert(hms_use_color(1, f), "--color=always");
    cr_assert(!hms_use_color(0, f), "--color=never");
    setenv("NO_COLOR", "1", 1);
    cr_assert(hms_use_color(1, f), "--color=always beats NO_COLOR");
    unsetenv("NO_COLOR");
    fclose(f);
}

Test(report_text, explain_tables)
{
    hms_report r;
    hms_sample_report(&r, "k.cu");
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    hms_write_explain(&r.files[0].kernels[0], "k.cu", m);
    fclose(m);
    const char *want[] = {
        "kernel transpose (k.cu:1)\n",
        "  launch: grid (64,64,1) block (16,16,1), 128 bytes dynamic shared memory\n",
        "  launch source: from a // hms-lint: launch annotation\n",
        "  figures: sampled from a subset of blocks and scaled to the whole grid\n",
        "  occupancy: 8 blocks/SM, 64 warps/SM (100.0% of the maximum), limited by warps\n",
        /* access table: header and the two rows, "-" where not applicable */
        "    line:col  array  space   kind   bytes  requests  sectors/req  lines/req  "
        "wavefronts/req  distinct/req  latency  exact\n",
        "    4:38      a      global  load       4      4096            4          1"
        "               -             -    412.5  yes\n",
        "    4:5       tile   shared  store      4    2048.5            -          -"
        "              16             -       90  estimate\n",
        "    array  option            legal  predicted cycles  speedup  reason\n",
        "    a      global (current)  yes                1000    1.00x\n",
        "           texture1d*        yes                 800    1.25x  read-only, 1D locality\n",
        "           constant          no                    -        -  16 KB > 64 KB limit\n",
        /* 1200 + 3400 - 600 = 4000 */
        "  time (cycles, Huang & Li eq. 1): t_comp 1200 + t_mem 3400 - t_overlap 600 = 4000\n",
        "  CuMAPz (eqs. 1-8): data_reuse 0.5  lat_hiding 1.50  bw_util 0.25  ch_skew 2  "
        "shm_eff 0.0625  branch_eff 1  MPE 0.0117\n",
        "  AMAT: 250.5 cycles\n",
        "  C-AMAT: 1.75 cycles (C_H 2.50, C_M 3.25, pMR 0.125, pAMP 40)\n",
        "  DRAM row-buffer hit rate: -\n",
        "  HSM: memory-bound\n",
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        cr_assert(strstr(buf, want[i]) != NULL, "missing line:\n%s\nin:\n%s", want[i], buf);
    free(buf);
    hms_report_free(&r);
}

Test(report_text, explain_follows_each_files_diagnostics)
{
    char *src = hms_sample_write_source();
    cr_assert(src);
    hms_report r;
    hms_sample_report(&r, src);
    char *got = render(&r, false, true, NULL);
    char *diag = strstr(got, "[hms-placement]");
    char *explain = strstr(got, "\nkernel transpose (");
    cr_assert(diag && explain && diag < explain, "explain after the diagnostics:\n%s", got);
    free(got);
    hms_report_free(&r);
    unlink(src);
    free(src);
}

/* Quiet by default: one summary note per kernel (hms-memory-bound first),
 * the kernel's other hms-analysis-limit notes counted under it; --explain
 * shows them all. */
Test(report_text, one_summary_note_per_kernel)
{
    char *src = hms_sample_write_source();
    cr_assert(src);
    hms_report r;
    hms_sample_report(&r, src);
    hms_kernel_report *k = &r.files[0].kernels[0];
    hms_kernel_add_finding(k, "hms-analysis-limit", HMS_SEV_NOTE, src, 1, 17,
                           "grid of 4096 blocks: figures scaled from 64 simulated blocks");
    hms_kernel_add_finding(k, "hms-analysis-limit", HMS_SEV_NOTE, src, 1, 17,
                           "parameter 'n' has no value: assumed 65536");
    hms_diag_counts c;
    char *got = render(&r, false, false, &c);
    cr_expect(strstr(got, "kernel is memory-bound [hms-memory-bound]\n"));
    cr_expect(strstr(got, "  (2 more notes on kernel '") != NULL, "%s", got);
    cr_expect(strstr(got, "[hms-analysis-limit]") == NULL, "%s", got);
    cr_expect(strstr(got, "16-way bank conflict") != NULL, "warnings are always shown");
    cr_expect_eq(c.notes, 1);
    free(got);
    got = render(&r, false, true, &c);
    cr_expect(strstr(got, "figures scaled from 64 simulated blocks [hms-analysis-limit]"));
    cr_expect(strstr(got, "assumed 65536 [hms-analysis-limit]"));
    cr_expect(strstr(got, "more notes on kernel") == NULL);
    cr_expect_eq(c.notes, 3);
    free(got);
    hms_report_free(&r);
    unlink(src);
    free(src);
}

/* Instances of one template: their summary notes at the kernel's line differ
 * in figures, so they are not one finding, but quiet text shows the first
 * and counts the others; --explain shows each. */
Test(report_text, one_summary_note_per_template)
{
    char *src = hms_sample_write_source();
    cr_assert(src);
    hms_report r;
    hms_one_kernel_report(&r, src, "tile<8>");
    hms_file_report *fr = &r.files[0];
    fr->kernels = realloc(fr->kernels, 4 * sizeof *fr->kernels);
    cr_assert(fr->kernels);
    memset(fr->kernels + 1, 0, 3 * sizeof *fr->kernels);
    fr->nkernels = 4;
    const char *names[] = {"tile<8>", "tile<16>", "tile<32>", "other"};
    const char *msgs[] = {"predicted 100 cycles", "predicted 200 cycles", "predicted 300 cycles",
                          "predicted 400 cycles"};
    for (int i = 0; i < 4; i++) {
        if (i)
            fr->kernels[i].name = strdup(names[i]);
        hms_kernel_add_finding(&fr->kernels[i], "hms-memory-bound", HMS_SEV_NOTE, src, 1, 17,
                               msgs[i]);
    }
    char *got = render(&r, false, false, NULL);
    cr_expect(strstr(got, "predicted 100 cycles [hms-memory-bound]") != NULL, "%s", got);
    cr_expect(strstr(got, "predicted 200 cycles") == NULL, "%s", got);
    cr_expect(strstr(got, "predicted 300 cycles") == NULL, "%s", got);
    cr_expect(strstr(got, "predicted 400 cycles [hms-memory-bound]") != NULL,
              "a kernel of another name keeps its note: %s", got);
    cr_expect(
        strstr(got, "  (the same note, with other figures, on 2 more instances of 'tile': ") !=
            NULL,
        "%s", got);
    free(got);
    got = render(&r, false, true, NULL);
    cr_expect(strstr(got, "predicted 200 cycles [hms-memory-bound]") != NULL, "%s", got);
    cr_expect(strstr(got, "more instances") == NULL, "%s", got);
    free(got);
    hms_report_free(&r);
    unlink(src);
    free(src);
}
