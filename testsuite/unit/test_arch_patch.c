/* Writing architecture files (runtime/arch_patch.h): a value replaced in
 * place keeps every other line and comment; a key its section lacks is
 * added; the probe: section records which GPU was measured, and files from a
 * newer probe or another GPU are refused with the file named. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/arch.h"
#include "runtime/arch_patch.h"
#include "runtime/probe_meta.h"

static hms_yaml_edit edit(const char *path, const char *value, const char *comment)
{
    hms_yaml_edit e;
    memset(&e, 0, sizeof e);
    e.path = path;
    snprintf(e.value, sizeof e.value, "%s", value);
    snprintf(e.comment, sizeof e.comment, "%s", comment);
    return e;
}

static char *h100_text(void)
{
    char err[256];
    const hms_arch *h = hms_arch_get("h100", err, sizeof err);
    cr_assert(h, "%s", err);
    char *t = hms_arch_yaml_text(h, err, sizeof err);
    cr_assert(t, "%s", err);
    return t;
}

Test(arch_patch, replace_insert_and_probe_section_round_trip)
{
    char *base = h100_text();
    hms_yaml_edit e[] = {
        edit("name", "h100-measured", ""),
        edit("caches.l1.ways", "8", "measured: P-chase"),
        edit("caches.texture.set_bit_low", "7", "measured: P-chase"), /* not in the file */
        edit("dram.bank_bits", "[3-7, 22-29]", "measured: Algorithm 1"),
        edit("dram.measured_bandwidth_gbs", "3010.5", "measured: stream read"),
    };
    const char *trailer = "probe:\n  format: 1\n  device: \"NVIDIA H100 80GB HBM3\"\n"
                          "  date: 2026-11-24\n";
    char err[512];
    char *out = hms_arch_patch(base, "measured.yaml", "# header line\n", trailer, e,
                               sizeof e / sizeof *e, err, sizeof err);
    cr_assert(out, "%s", err);
    cr_assert(strncmp(out, "# header line\n", 14) == 0);
    cr_assert(strstr(out, "    ways: 8  # measured: P-chase\n"), "%s", out);
    cr_assert(strstr(out, "    set_bit_low: 7  # measured: P-chase\n"), "%s", out);
    /* untouched lines keep their sources */
    cr_assert(strstr(out, "count: 132                   # source: NVIDIA H100 Tensor Core GPU"));
    hms_arch a;
    cr_assert(hms_arch_parse(out, strlen(out), "measured.yaml", &a, err, sizeof err), "%s", err);
    cr_assert_str_eq(a.name, "h100-measured");
    cr_assert_eq(a.l1.ways, 8);
    cr_assert_eq(a.tex_l1.set_bit_low, 7);
    cr_assert_float_eq(a.dram_bandwidth_meas_gbs, 3010.5, 1e-9);
    cr_assert_eq(a.probe_format, 1);
    cr_assert_str_eq(a.probe_device, "NVIDIA H100 80GB HBM3");
    cr_assert_str_eq(a.probe_date, "2026-11-24");
    cr_assert_eq(a.sm_count, 132);
    free(out);
    free(base);
}

Test(arch_patch, bad_edits_are_refused)
{
    char *base = h100_text();
    char err[512];
    hms_yaml_edit nosec[] = {edit("caches.l9.ways", "8", "")};
    cr_assert_null(hms_arch_patch(base, "x.yaml", NULL, NULL, nosec, 1, err, sizeof err));
    cr_assert(strstr(err, "x.yaml: caches.l9.ways: no such section"), "%s", err);
    hms_yaml_edit bad[] = {edit("shared.banks", "abc", "")};
    cr_assert_null(hms_arch_patch(base, "x.yaml", NULL, NULL, bad, 1, err, sizeof err));
    cr_assert(strstr(err, "x.yaml:") && strstr(err, "shared.banks"), "%s", err);
    free(base);
}

static hms_arch probed(const char *device, int format, char *err, size_t errlen, bool *ok)
{
    char *base = h100_text();
    char trailer[256];
    snprintf(trailer, sizeof trailer,
             "probe:\n  format: %d\n  device: \"%s\"\n  date: 2026-01-02\n", format, device);
    char *out = hms_arch_patch(base, "p.yaml", NULL, trailer, NULL, 0, err, errlen);
    free(base);
    hms_arch a;
    memset(&a, 0, sizeof a);
    *ok = out != NULL;
    if (out) {
        *ok = hms_arch_parse(out, strlen(out), "p.yaml", &a, err, errlen);
        free(out);
    }
    snprintf(a.source_path, sizeof a.source_path, "p.yaml");
    return a;
}

Test(arch_patch, newer_probe_format_is_refused)
{
    char err[512];
    bool ok;
    probed("NVIDIA H100 80GB HBM3", HMS_PROBE_FORMAT + 1, err, sizeof err, &ok);
    cr_assert_not(ok);
    cr_assert(strstr(err, "p.yaml:") && strstr(err, "probe.format: written by a newer hms-probe"),
              "%s", err);
}

Test(arch_patch, a_probed_file_only_fits_its_own_gpu)
{
    char err[512];
    bool ok;
    hms_arch a = probed("NVIDIA H100 80GB HBM3", 1, err, sizeof err, &ok);
    cr_assert(ok, "%s", err);
    cr_assert(hms_probe_same_gpu(&a, "NVIDIA H100 80GB HBM3", 9, 0, err, sizeof err), "%s", err);
    cr_assert_not(hms_probe_same_gpu(&a, "NVIDIA H100 PCIe", 9, 0, err, sizeof err));
    cr_assert(strstr(err, "p.yaml: measured by hms-probe on 'NVIDIA H100 80GB HBM3' on 2026-01-02, "
                          "not on 'NVIDIA H100 PCIe'"),
              "%s", err);
    cr_assert_not(hms_probe_same_gpu(&a, "NVIDIA A100-SXM4-40GB", 8, 0, err, sizeof err));
    cr_assert(strstr(err, "p.yaml: describes sm_90"), "%s", err);
}
