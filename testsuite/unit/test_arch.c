/* Architecture descriptions: the built-in files load, carry the papers'
 * numbers, resolve by every name; user files load or fail with file, line and
 * field. Expected numbers are the papers' (cited per test). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/arch.h"
#include "testsuite/support/run.h"

static const char *const builtin_names[] = {"gt200",   "fermi", "kepler", "k80",
                                            "maxwell", "v100",  "a100",   "h100"};
static const char *const builtin_sms[] = {"sm_13", "sm_21", "sm_35", "sm_37",
                                          "sm_52", "sm_70", "sm_80", "sm_90"};

static const hms_arch *get(const char *name)
{
    char err[640];
    const hms_arch *a = hms_arch_get(name, err, sizeof err);
    cr_assert(a != NULL, "%s: %s", name, err);
    return a;
}

/* ---- helpers that derive a user file from a built-in one ----------------- */

static char *builtin_text(const char *stem)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/runtime/arches/%s.yaml", HMS_SOURCE_DIR, stem);
    char *text = hms_read_file(path, NULL);
    cr_assert(text != NULL, "cannot read %s", path);
    return text;
}

/* Replaces (or, with repl NULL, deletes) the first line starting with
 * `prefix`; *line gets its 1-based number. */
static char *edit_line(const char *text, const char *prefix, const char *repl, int *line)
{
    const char *p = text;
    int n = 1;
    while (*p && strncmp(p, prefix, strlen(prefix)) != 0) {
        const char *nl = strchr(p, '\n');
        cr_assert(nl != NULL, "no line starts with '%s'", prefix);
        p = nl + 1;
        n++;
    }
    cr_assert(*p, "no line starts with '%s'", prefix);
    const char *end = strchr(p, '\n');
    end = end ? end + 1 : p + strlen(p);
    size_t head = (size_t)(p - text);
    size_t rl = repl ? strlen(repl) : 0;
    char *out = malloc(strlen(text) + rl + 2);
    memcpy(out, text, head);
    if (repl) {
        memcpy(out + head, repl, rl);
        out[head + rl] = '\n';
        rl++;
    }
    strcpy(out + head + rl, end);
    if (line)
        *line = n;
    return out;
}

static char *write_temp(const char *text)
{
    char *path = strdup("/tmp/hms-arch-test-XXXXXX.yaml");
    int fd = mkstemps(path, 5);
    cr_assert(fd >= 0);
    size_t len = strlen(text);
    cr_assert_eq(write(fd, text, len), (ssize_t)len);
    close(fd);
    return path;
}

/* Loads `text` as a user file; returns the error (static) or NULL on success. */
static const char *load_error(const char *text, char **path_out)
{
    static char err[640];
    char *path = write_temp(text);
    const hms_arch *a = hms_arch_get(path, err, sizeof err);
    if (path_out)
        *path_out = path;
    else {
        unlink(path);
        free(path);
    }
    return a ? NULL : err;
}

/* Edits one line of kepler.yaml and expects "<file>:<line>: <message>". */
static void expect_edit_error(const char *prefix, const char *repl, int line_offset,
                              const char *message)
{
    char *orig = builtin_text("kepler");
    int line = 0;
    char *text = edit_line(orig, prefix, repl, &line);
    char *path = NULL;
    const char *err = load_error(text, &path);
    char want[800];
    snprintf(want, sizeof want, "%s:%d: %s", path, line + line_offset, message);
    unlink(path); /* before asserting, so a failure leaves no file behind */
    free(path);
    free(text);
    free(orig);
    cr_assert(err != NULL, "expected an error for '%s'", repl ? repl : prefix);
    cr_assert_str_eq(err, want);
}

/* ---- built-ins --------------------------------------------------------- */

Test(arch, every_builtin_loads_in_compute_capability_order)
{
    cr_assert_eq(hms_arch_builtin_count(), 8);
    for (size_t i = 0; i < 8; i++) {
        const hms_arch *a = hms_arch_builtin(i);
        cr_assert_str_eq(a->name, builtin_names[i]);
        cr_assert_str_eq(a->sm, builtin_sms[i]);
        cr_assert_str_eq(a->source_path, "<builtin>");
        cr_assert_eq(a->warp_size, 32);
        cr_assert(a->sm_count > 0 && a->clock_ghz > 0 && a->dram_bandwidth_gbs > 0);
        cr_assert(a->constant.size_bytes > 0 && a->tlb_l1.size_bytes > 0);
    }
    cr_assert_null(hms_arch_builtin(8));
}

Test(arch, names_sm_aliases_resolve_case_insensitively)
{
    for (size_t i = 0; i < 8; i++)
        cr_assert_eq(get(builtin_names[i]), get(builtin_sms[i]), "%s", builtin_names[i]);
    cr_assert_eq(get("SM_35"), get("kepler"));
    cr_assert_eq(get("Kepler"), get("kepler"));
    cr_assert_eq(get("gtx780"), get("kepler"));
    cr_assert_eq(get("GTX980"), get("maxwell"));
    cr_assert_str_eq(get(HMS_ARCH_DEFAULT)->name, "h100");
    cr_assert_eq(get("sm_35")->cc_major, 3);
    cr_assert_eq(get("sm_35")->cc_minor, 5);
    cr_assert_eq(get("sm_90")->cc_major, 9);
}

Test(arch, unknown_name_lists_the_valid_ones)
{
    char err[640];
    cr_assert_null(hms_arch_get("pascal", err, sizeof err));
    cr_assert(strstr(err, "pascal: unknown architecture") == err, "got: %s", err);
    cr_assert(strstr(err, "gt200/sm_13") && strstr(err, "h100/sm_90"), "got: %s", err);
    cr_assert_null(hms_arch_get("/nonexistent/dir/x.yaml", err, sizeof err));
    cr_assert_str_eq(err, "/nonexistent/dir/x.yaml: cannot read: No such file or directory");
    cr_assert_null(hms_arch_get("", err, sizeof err));
}

Test(arch, table_viii_shared_latencies)
{
    /* Mei & Chu (seeds/002) Sec. 6.2 no-conflict latency and Table VIII. */
    const int gtx980[] = {28, 30, 34, 42, 58, 90};
    const int gtx780[] = {47, 82, 96, 158, 257, 484};
    const int gtx560ti[] = {50, 87, 162, 311, 611, 1209};
    for (int i = 0; i < HMS_ARCH_MAX_CONFLICT_WAYS; i++) {
        cr_assert_eq(get("maxwell")->shared_latency[i], gtx980[i]);
        cr_assert_eq(get("kepler")->shared_latency[i], gtx780[i]);
        cr_assert_eq(get("fermi")->shared_latency[i], gtx560ti[i]);
    }
    /* Mei & Chu Table III: 16 banks on Tesla, 32 later; 8-byte banks on Kepler. */
    cr_assert_eq(get("gt200")->shared_banks, 16);
    cr_assert_eq(get("fermi")->shared_banks, 32);
    cr_assert_eq(get("kepler")->shared_bank_bytes, 8);
    cr_assert_eq(get("maxwell")->shared_bank_bytes, 4);
}

Test(arch, mei_chu_cache_geometry)
{
    /* Texture L1 on Fermi/Kepler: 12 KB, 32-byte lines, 4 sets x 96 lines, set
     * from address bits 7-8 (Mei & Chu Sec. 4.3); Maxwell 24 KB, 768 lines. */
    const hms_cache_geom *t = &get("kepler")->tex_l1;
    cr_assert_eq(t->size_bytes, 12 * 1024);
    cr_assert_eq(t->line_bytes, 32);
    cr_assert_eq(t->sets, 4); /* derived: 12288 / (32 * 96) */
    cr_assert_eq(t->ways, 96);
    cr_assert_eq(t->set_bit_low, 7);
    cr_assert_eq(get("maxwell")->tex_l1.sets * get("maxwell")->tex_l1.ways, 768);
    /* Fermi L1: 16 KB, 128-byte lines, 4 ways -> 32 sets, non-LRU (Sec. 4.5, Table V). */
    const hms_cache_geom *l1 = &get("fermi")->l1;
    cr_assert_eq(l1->size_bytes, 16384);
    cr_assert_eq(l1->line_bytes, 128);
    cr_assert_eq(l1->sets, 32);
    cr_assert_eq(l1->replacement, HMS_REPL_FERMI_L1);
    cr_assert(get("fermi")->l1_caches_global);
    /* L2 32-byte lines, not LRU (Sec. 4.6); none on Tesla (Table III). */
    cr_assert_eq(get("kepler")->l2.line_bytes, 32);
    cr_assert_eq(get("kepler")->l2.size_bytes, 1536 * 1024);
    cr_assert_eq(get("kepler")->l2.replacement, HMS_REPL_RANDOM);
    cr_assert_eq(get("gt200")->l2.size_bytes, 0);
    cr_assert_eq(get("fermi")->readonly.size_bytes, 0);
    /* TLBs (Sec. 4.4): L1 16 entries of 2 MB = 32 MB reach; L2 one 17-entry set
     * plus six 8-entry sets = 65 entries, 130 MB. */
    const hms_arch *m = get("maxwell");
    cr_assert_eq(m->tlb_l1.size_bytes, 32u << 20);
    cr_assert_eq(m->tlb_l1.sets, 1);
    cr_assert_eq(m->tlb_l2.size_bytes, 130u << 20);
    cr_assert_eq(m->tlb_l2.sets, 7);
    cr_assert_eq(m->tlb_l2.set0_ways, 17);
    cr_assert_eq(m->tlb_l2.ways, 8);
}

Test(arch, mei_chu_global_latencies_and_bandwidth)
{
    /* Fig. 14: GTX780 P1 198 (L2 hit), P4 339 (miss), P2-P1 = 6, P5-P4 = 363. */
    const hms_arch *k = get("kepler");
    cr_assert_eq(k->global_latency_l2_hit, 198);
    cr_assert_eq(k->l2.hit_latency, 198);
    cr_assert_eq(k->global_latency_dram, 339);
    cr_assert_eq(k->tlb_l2.hit_latency, 6);
    cr_assert_eq(k->global_latency_tlb_miss, 363);
    /* GTX980 L1 on P1 = 82, L1 off P1 = 214. */
    cr_assert_eq(get("maxwell")->global_latency_l1_hit, 82);
    cr_assert_eq(get("maxwell")->global_latency_l2_hit, 214);
    cr_assert_eq(get("fermi")->global_latency_l1_hit, 96);
    /* Table VI, GB/s theoretical / measured. */
    cr_assert_float_eq(get("fermi")->dram_bandwidth_gbs, 134.40, 1e-9);
    cr_assert_float_eq(get("fermi")->dram_bandwidth_meas_gbs, 109.38, 1e-9);
    cr_assert_float_eq(get("kepler")->dram_bandwidth_gbs, 288.38, 1e-9);
    cr_assert_float_eq(get("kepler")->dram_bandwidth_meas_gbs, 215.92, 1e-9);
    cr_assert_float_eq(get("maxwell")->dram_bandwidth_gbs, 224.38, 1e-9);
    cr_assert_float_eq(get("maxwell")->dram_bandwidth_meas_gbs, 156.25, 1e-9);
}

Test(arch, huang_li_k80_dram)
{
    /* Huang & Li (seeds/000) Sec. III-C2: 352 / 742 / 1008 ns; bits 0-2 byte
     * offset, 8-21 and 30-32 row/column bits, the others select the bank. */
    const hms_arch *a = get("k80");
    cr_assert_float_eq(a->dram_row_hit_ns, 352.0, 1e-9);
    cr_assert_float_eq(a->dram_row_miss_ns, 742.0, 1e-9);
    cr_assert_float_eq(a->dram_row_conflict_ns, 1008.0, 1e-9);
    uint64_t row_or_col = 0x3FFF00ull | (7ull << 30);                /* bits 8-21, 30-32 */
    cr_assert_eq(a->dram_bank_bits_mask, 0xF8ull | (0xFFull << 22)); /* 3-7, 22-29 */
    cr_assert_eq(a->dram_row_bits_mask & ~row_or_col, 0, "row bits outside 8-21/30-32");
    cr_assert_eq(a->dram_bank_bits_mask & (row_or_col | 7), 0);
    cr_assert_eq(a->dram_channels, 6);                              /* M = 6 */
    cr_assert_eq(a->dram_channels * a->dram_banks_per_channel, 96); /* 96 banks */
    /* CuMAPz (seeds/001): C1060 256-byte channels, 512-bit bus = 8 partitions. */
    cr_assert_eq(get("gt200")->dram_channel_bytes, 256);
    cr_assert_eq(get("gt200")->dram_channels, 8);
    cr_assert(get("gt200")->half_warp_segments);
    cr_assert(!get("fermi")->half_warp_segments);
}

Test(arch, coefficient_defaults_are_flagged)
{
    /* HSM (seeds/004) Fig. 3: c1 = 0.5, c2 = 0.36 fitted on the 900 GB/s HBM GPU. */
    for (size_t i = 0; i < 8; i++) {
        const hms_arch *a = hms_arch_builtin(i);
        cr_assert_float_eq(a->hsm_c1, 0.5, 1e-12);
        cr_assert_float_eq(a->hsm_c2, 0.36, 1e-12);
        cr_assert_eq(a->hsm_coeffs_default, strcmp(a->name, "v100") != 0, "%s", a->name);
        cr_assert(a->overlap_coeffs_default, "%s", a->name); /* never printed by Huang & Li */
    }
}

/* ---- user files -------------------------------------------------------- */

Test(arch, valid_user_file_loads_and_is_cached)
{
    char *orig = builtin_text("kepler");
    char *text = edit_line(orig, "name:", "name: mygpu", NULL);
    char *path = write_temp(text);
    char err[640];
    const hms_arch *a = hms_arch_get(path, err, sizeof err);
    cr_assert(a != NULL, "%s", err);
    cr_assert_str_eq(a->name, "mygpu");
    cr_assert_str_eq(a->source_path, path);
    cr_assert_eq(a->shared_latency[5], 484);
    cr_assert_eq(a->tex_l1.sets, 4);
    cr_assert_eq(hms_arch_get(path, err, sizeof err), a, "parsed once per path");
    cr_assert_neq(a, get("kepler"));
    unlink(path);
    free(path);
    free(text);
    free(orig);
}

Test(arch, parse_from_memory_with_sizes)
{
    char *orig = builtin_text("kepler");
    char *text = edit_line(orig, "    size: 1536K", "    size: 1.5M", NULL);
    hms_arch a;
    char err[640];
    cr_assert(hms_arch_parse(text, strlen(text), "mem.yaml", &a, err, sizeof err), "%s", err);
    cr_assert_eq(a.l2.size_bytes, 1536u * 1024);
    cr_assert_str_eq(a.source_path, "mem.yaml");
    free(text);
    /* A fractional count of anything but bytes is refused. */
    text = edit_line(orig, "    ways: 16 ", "    ways: 1.5", NULL);
    cr_assert(!hms_arch_parse(text, strlen(text), "mem.yaml", &a, err, sizeof err));
    cr_assert(strstr(err, "caches.l2.ways: expected a positive integer, got '1.5'"), "%s", err);
    free(text);
    free(orig);
}

/* Replaces the lines from the one starting with `from` up to (not including)
 * the one starting with `to` by `repl`. */
static char *replace_block(const char *text, const char *from, const char *to, const char *repl)
{
    const char *a = strstr(text, from), *b = a ? strstr(a, to) : NULL;
    cr_assert(a && b, "block %s..%s not found", from, to);
    char *out = malloc(strlen(text) + strlen(repl) + 1);
    size_t head = (size_t)(a - text);
    memcpy(out, text, head);
    strcpy(out + head, repl);
    strcat(out, b);
    return out;
}

Test(arch, absent_cache_written_as_none)
{
    char *orig = builtin_text("kepler");
    char *text = replace_block(orig, "  readonly:", "  constant:", "  readonly: none\n");
    hms_arch a;
    char err[640];
    cr_assert(hms_arch_parse(text, strlen(text), "mem.yaml", &a, err, sizeof err), "%s", err);
    cr_assert_eq(a.readonly.size_bytes, 0);
    cr_assert_eq(a.tex_l1.size_bytes, 12288);
    free(text);
    /* Leaving the section out entirely is an error that says how to write it. */
    text = replace_block(orig, "  readonly:", "  constant:", "");
    cr_assert(!hms_arch_parse(text, strlen(text), "mem.yaml", &a, err, sizeof err));
    cr_assert(strstr(err, "caches.readonly: required section missing (write 'none' if the GPU "
                          "has no such cache)"),
              "%s", err);
    free(text);
    free(orig);
}

Test(arch, second_document_and_empty_file_rejected)
{
    char *orig = builtin_text("kepler");
    size_t lines = 0;
    for (const char *p = orig; *p; p++)
        lines += *p == '\n';
    char *text = malloc(strlen(orig) + 32);
    sprintf(text, "%s---\nname: x\n", orig);
    hms_arch a;
    char err[640], want[128];
    cr_assert(!hms_arch_parse(text, strlen(text), "two.yaml", &a, err, sizeof err));
    snprintf(want, sizeof want, "two.yaml:%zu: a second YAML document; one architecture per file",
             lines + 2);
    cr_assert_str_eq(err, want);
    cr_assert(!hms_arch_parse("", 0, "empty.yaml", &a, err, sizeof err));
    cr_assert_str_eq(err, "empty.yaml:1: empty architecture description");
    cr_assert(!hms_arch_parse("- 1\n", 4, "list.yaml", &a, err, sizeof err));
    cr_assert(strstr(err, "list.yaml:1: expected a mapping"), "%s", err);
    free(text);
    free(orig);
}

Test(arch, malformed_value_names_file_line_field)
{
    expect_edit_error("  banks:", "  banks: abc", 0,
                      "shared.banks: expected a positive integer, got 'abc'");
}

Test(arch, unknown_key_is_rejected_with_its_line)
{
    expect_edit_error("  banks:", "  bankz: 32", 0,
                      "shared.bankz: unknown key (expected one of: per_sm, per_block, "
                      "alloc_unit, reserved_per_block, banks, bank_bytes, latency)");
}

Test(arch, missing_required_key)
{
    /* Reported at the line of its section, "global:", five lines above. */
    expect_edit_error("  dram_latency:", NULL, -5, "global.dram_latency: required key missing");
}

Test(arch, power_of_two_and_cross_field_checks)
{
    expect_edit_error("    line: 32                   # Mei & Chu Sec. 4.3 and Table V",
                      "    line: 48", 0, "caches.texture.line: expected a power of two, got '48'");
    expect_edit_error("  per_block:", "  per_block: 64K", 0,
                      "shared.per_block: 65536 bytes exceed shared.per_sm (49152)");
    expect_edit_error("  warp_size:", "  warp_size: 64", 0,
                      "multiprocessor.warp_size: expected 32 (every CUDA GPU), got 64");
    expect_edit_error("  row_bits:", "  row_bits: [7-21]", 0,
                      "dram.row_bits: bits overlap dram.bank_bits (0x80)");
    expect_edit_error("  bank_bits:", "  bank_bits: [3-70]", 0,
                      "dram.bank_bits: expected a bit number or range 'lo-hi' within 0-63, got "
                      "'3-70'");
    expect_edit_error("  latency: [47", "  latency: [47, 82, 96, 158, 257]", 0,
                      "shared.latency: expected a list of 6 cycle counts for 1, 2, 4, 8, 16, "
                      "32-way conflicts, got 5 values");
    expect_edit_error("    ways: 96                   # Mei & Chu Sec. 4.3: 4 sets x 96 lines",
                      "    ways: 5", 0, "caches.texture.ways: 384 lines do not divide into 5 ways");
}

Test(arch, structure_errors)
{
    {
        /* Only caches a GPU may lack take "none"; every GPU has a constant cache. */
        char *orig = builtin_text("kepler");
        int line = 0;
        free(edit_line(orig, "  constant:", "", &line));
        char *text = replace_block(orig, "  constant:", "  l2:", "  constant: none\n");
        hms_arch a;
        char err[640], want[96];
        cr_assert(!hms_arch_parse(text, strlen(text), "mem.yaml", &a, err, sizeof err));
        snprintf(want, sizeof want, "mem.yaml:%d: caches.constant: expected a mapping", line);
        cr_assert_str_eq(err, want);
        free(text);
        free(orig);
    }
    expect_edit_error("  l1_caches_global:", "  l1_caches_global: maybe", 0,
                      "global.l1_caches_global: expected true or false, got 'maybe'");
    char *orig = builtin_text("kepler");
    int per_sm_line = 0;
    free(edit_line(orig, "  per_sm:", "", &per_sm_line));
    free(orig);
    char dup[96];
    snprintf(dup, sizeof dup, "shared.per_sm: written twice (first on line %d)", per_sm_line);
    expect_edit_error("  banks:", "  per_sm: 48K", 0, dup);
    expect_edit_error("  banks:", "  banks: [32", 1,
                      "YAML syntax error: did not find expected ',' or ']' while parsing a flow "
                      "sequence");
}
