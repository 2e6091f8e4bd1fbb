/* --export-fixes YAML (clang-apply-replacements layout, byte offsets) and
 * --fix (atomic rewrite, overlaps, duplicates); nothing is modified without
 * --fix. Offsets are counted by hand on hms_sample_source:
 *   line 1 "__global__ void transpose(float *a)"  35 bytes + \n -> line 2 at 36
 *   line 2 "{"                                     -> line 3 at 38
 *   line 3 "\t__shared__ float tile[16][16];"     31 bytes -> line 4 at 70
 *   3:28 -> 38 + 27 = 65;  4:5 -> 74;  4:38 -> 107;  4:52 -> 121. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>

#include "analyzer/report/fixes.h"
#include "testsuite/support/run.h"
#include "testsuite/support/sample_report.h"

static const char fixed_source[] = "__global__ void transpose(float *a)\n"
                                   "{\n"
                                   "\t__shared__ float tile[16][17];\n"
                                   "    tile[threadIdx.x][threadIdx.y] = __ldg(&a[threadIdx.x]);\n"
                                   "}\n";

/* One file, one kernel: the bank-conflict padding fix and a two-part __ldg fix. */
static void fix_report(hms_report *r, const char *src)
{
    hms_kernel_report *k = hms_one_kernel_report(r, src, "transpose");
    hms_finding *f = hms_kernel_add_finding(k, "hms-shared-bank-conflict", HMS_SEV_WARNING, src, 4,
                                            5, "16-way bank conflict");
    hms_finding_add_fixit(f, src, 3, 28, 3, 30, "17");
    f = hms_kernel_add_finding(k, "hms-placement", HMS_SEV_NOTE, src, 4, 38, "use __ldg");
    hms_finding_add_fixit(f, src, 4, 38, 4, 40, "__ldg(&a[");
    hms_finding_add_fixit(f, src, 4, 52, 4, 52, ")");
}

/* ---- reading the YAML back ---------------------------------------------- */

static yaml_node_t *get(yaml_document_t *d, yaml_node_t *map, const char *key)
{
    cr_assert(map && map->type == YAML_MAPPING_NODE);
    for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top;
         p++) {
        yaml_node_t *k = yaml_document_get_node(d, p->key);
        if (k->type == YAML_SCALAR_NODE && !strcmp((char *)k->data.scalar.value, key))
            return yaml_document_get_node(d, p->value);
    }
    cr_assert_fail("no key %s", key);
    return NULL;
}

static const char *sval(yaml_node_t *n)
{
    cr_assert(n && n->type == YAML_SCALAR_NODE);
    return (const char *)n->data.scalar.value;
}

static yaml_node_t *item(yaml_document_t *d, yaml_node_t *seq, size_t i)
{
    cr_assert(seq && seq->type == YAML_SEQUENCE_NODE);
    cr_assert(seq->data.sequence.items.start + i < seq->data.sequence.items.top);
    return yaml_document_get_node(d, seq->data.sequence.items.start[i]);
}

static size_t count(yaml_node_t *seq)
{
    return (size_t)(seq->data.sequence.items.top - seq->data.sequence.items.start);
}

Test(fix, export_fixes_yaml_offsets)
{
    char *src = hms_sample_write_source();
    cr_assert(src);
    hms_report r;
    fix_report(&r, src);
    hms_source_cache cache;
    hms_source_cache_init(&cache);
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    hms_diag_sink said;
    hms_diag_sink_init(&said, stderr);
    cr_assert(hms_write_fixes_yaml(&r, &cache, src, m, &said));
    fclose(m);
    cr_assert_eq(said.n, 0, "every fix-it exported, nothing to say");
    hms_diag_sink_free(&said);

    yaml_parser_t p;
    yaml_document_t d;
    yaml_parser_initialize(&p);
    yaml_parser_set_input_string(&p, (unsigned char *)buf, len);
    cr_assert(yaml_parser_load(&p, &d), "not YAML:\n%s", buf);
    yaml_node_t *root = yaml_document_get_root_node(&d);
    cr_assert_str_eq(sval(get(&d, root, "MainSourceFile")), src);
    yaml_node_t *diags = get(&d, root, "Diagnostics");
    cr_assert_eq(count(diags), 2);

    yaml_node_t *d0 = item(&d, diags, 0);
    cr_assert_str_eq(sval(get(&d, d0, "DiagnosticName")), "hms-shared-bank-conflict");
    cr_assert_str_eq(sval(get(&d, d0, "Level")), "Warning");
    yaml_node_t *msg = get(&d, d0, "DiagnosticMessage");
    cr_assert_str_eq(sval(get(&d, msg, "Message")), "16-way bank conflict");
    cr_assert_str_eq(sval(get(&d, msg, "FilePath")), src);
    cr_assert_str_eq(sval(get(&d, msg, "FileOffset")), "74");
    yaml_node_t *reps = get(&d, msg, "Replacements");
    cr_assert_eq(count(reps), 1);
    yaml_node_t *x = item(&d, reps, 0);
    cr_assert_str_eq(sval(get(&d, x, "FilePath")), src);
    cr_assert_str_eq(sval(get(&d, x, "Offset")), "65");
    cr_assert_str_eq(sval(get(&d, x, "Length")), "2");
    cr_assert_str_eq(sval(get(&d, x, "ReplacementText")), "17");

    yaml_node_t *d1 = item(&d, diags, 1);
    cr_assert_str_eq(sval(get(&d, d1, "Level")), "Remark", "notes are clang-tidy Remarks");
    msg = get(&d, d1, "DiagnosticMessage");
    cr_assert_str_eq(sval(get(&d, msg, "FileOffset")), "107");
    reps = get(&d, msg, "Replacements");
    cr_assert_eq(count(reps), 2);
    cr_assert_str_eq(sval(get(&d, item(&d, reps, 0), "Offset")), "107");
    cr_assert_str_eq(sval(get(&d, item(&d, reps, 0), "Length")), "2");
    cr_assert_str_eq(sval(get(&d, item(&d, reps, 0), "ReplacementText")), "__ldg(&a[");
    cr_assert_str_eq(sval(get(&d, item(&d, reps, 1), "Offset")), "121");
    cr_assert_str_eq(sval(get(&d, item(&d, reps, 1), "Length")), "0");
    cr_assert_str_eq(sval(get(&d, item(&d, reps, 1), "ReplacementText")), ")");
    yaml_document_delete(&d);
    yaml_parser_delete(&p);

    /* Exporting never touches the source. */
    char *now = hms_read_file(src, NULL);
    cr_assert_str_eq(now, hms_sample_source);
    free(now);
    free(buf);
    hms_source_cache_free(&cache);
    hms_report_free(&r);
    unlink(src);
    free(src);
}

static size_t leftover_temps(const char *src)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", src);
    char *slash = strrchr(dir, '/');
    const char *base = slash + 1;
    char prefix[512];
    snprintf(prefix, sizeof prefix, "%s.hms-lint-", base);
    *slash = '\0';
    DIR *d = opendir(dir);
    cr_assert(d);
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        n += strncmp(e->d_name, prefix, strlen(prefix)) == 0;
    closedir(d);
    return n;
}

Test(fix, apply_rewrites_atomically_keeping_the_mode)
{
    char *src = hms_sample_write_source();
    cr_assert(src);
    cr_assert_eq(chmod(src, 0640), 0);
    struct stat before, after;
    cr_assert_eq(stat(src, &before), 0);
    hms_report r;
    fix_report(&r, src);
    hms_source_cache cache;
    hms_source_cache_init(&cache);
    size_t applied = 0;
    hms_diag_sink said;
    hms_diag_sink_init(&said, NULL);
    cr_assert(hms_apply_fixes(&r, &cache, &said, &applied));
    cr_assert_eq(applied, 3);
    cr_assert_eq(said.n, 1);
    cr_assert_eq(said.v[0].level, HMS_DIAG_NOTE);
    cr_assert_str_eq(said.v[0].file, src);
    cr_assert_str_eq(said.v[0].message, "applied 3 fixes");
    hms_diag_sink_free(&said);
    char *now = hms_read_file(src, NULL);
    cr_assert_str_eq(now, fixed_source);
    free(now);
    cr_assert_eq(stat(src, &after), 0);
    cr_assert_neq(before.st_ino, after.st_ino, "replaced by rename, not rewritten in place");
    cr_assert_eq(after.st_mode & 07777, 0640);
    cr_assert_eq(leftover_temps(src), 0);
    hms_source_cache_free(&cache);
    hms_report_free(&r);
    unlink(src);
    free(src);
}

Test(fix, overlapping_fix_skipped_duplicate_applied_once)
{
    char *src = hms_sample_write_source();
    cr_assert(src);
    hms_report r;
    fix_report(&r, src);
    hms_kernel_report *k = &r.files[0].kernels[0];
    /* Same padding fix again (duplicate), and "[16][16]" -> "[32][33]"
     * (3:23-3:31), which overlaps the accepted 3:28-3:30 edit. */
    hms_finding *f =
        hms_kernel_add_finding(k, "hms-shared-bank-conflict", HMS_SEV_WARNING, src, 4, 5, "again");
    hms_finding_add_fixit(f, src, 3, 28, 3, 30, "17");
    f = hms_kernel_add_finding(k, "hms-shared-reuse", HMS_SEV_WARNING, src, 3, 23, "overlap");
    hms_finding_add_fixit(f, src, 3, 23, 3, 31, "[32][33]");
    hms_source_cache cache;
    hms_source_cache_init(&cache);
    size_t applied = 0;
    hms_diag_sink said;
    hms_diag_sink_init(&said, NULL);
    cr_assert(hms_apply_fixes(&r, &cache, &said, &applied));
    char *log = hms_diag_sink_text(&said);
    hms_diag_sink_free(&said);
    cr_assert_eq(applied, 3);
    cr_assert(strstr(log, ": warning: fix-it at offset ") &&
                  strstr(log, " overlaps another; not applied"),
              "%s", log);
    char *now = hms_read_file(src, NULL);
    cr_assert_str_eq(now, fixed_source);
    free(now);
    free(log);
    hms_source_cache_free(&cache);
    hms_report_free(&r);
    unlink(src);
    free(src);
}

Test(fix, fixit_outside_the_file_is_refused)
{
    char *src = hms_sample_write_source();
    cr_assert(src);
    hms_report r;
    fix_report(&r, src);
    hms_finding *f = &r.files[0].kernels[0].diagnostics[0];
    f->fixits[0].line = 40; /* the file has 5 lines */
    f->fixits[0].end_line = 40;
    hms_source_cache cache;
    hms_source_cache_init(&cache);
    size_t applied = 0;
    hms_diag_sink said;
    hms_diag_sink_init(&said, NULL);
    cr_assert(hms_apply_fixes(&r, &cache, &said, &applied));
    char *log = hms_diag_sink_text(&said);
    hms_diag_sink_free(&said);
    cr_assert_eq(applied, 2);
    cr_assert(strstr(log, ":40:28: warning: fix-it outside the file; not applied") != NULL, "%s",
              log);
    free(log);
    hms_source_cache_free(&cache);
    hms_report_free(&r);
    unlink(src);
    free(src);
}

Test(fix, clang_apply_replacements_agrees)
{
    /* Cross-check the exported offsets with LLVM's own tool, when installed. */
    if (system("command -v clang-apply-replacements >/dev/null 2>&1") != 0)
        cr_skip_test("clang-apply-replacements is not installed; cross-check skipped");
    char dir[] = "/tmp/hms-car-XXXXXX";
    cr_assert(mkdtemp(dir));
    char src[4096], yml[4096];
    snprintf(src, sizeof src, "%s/k.cu", dir);
    snprintf(yml, sizeof yml, "%s/fixes.yaml", dir);
    FILE *f = fopen(src, "w");
    fputs(hms_sample_source, f);
    fclose(f);
    hms_report r;
    fix_report(&r, src);
    hms_source_cache cache;
    hms_source_cache_init(&cache);
    f = fopen(yml, "w");
    hms_diag_sink said;
    hms_diag_sink_init(&said, stderr);
    cr_assert(hms_write_fixes_yaml(&r, &cache, src, f, &said));
    hms_diag_sink_free(&said);
    fclose(f);
    char cmd[8300];
    snprintf(cmd, sizeof cmd, "clang-apply-replacements '%s'", dir);
    cr_assert_eq(system(cmd), 0);
    char *now = hms_read_file(src, NULL);
    cr_assert_str_eq(now, fixed_source);
    free(now);
    hms_source_cache_free(&cache);
    hms_report_free(&r);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

Test(fix, a_run_without_fix_leaves_the_source_byte_identical)
{
    char dir[] = "/tmp/hms-nofix-XXXXXX";
    cr_assert(mkdtemp(dir));
    char src[4096], yml[4096];
    snprintf(src, sizeof src, "%s/k.cu", dir);
    snprintf(yml, sizeof yml, "--export-fixes=%s/fixes.yaml", dir);
    FILE *f = fopen(src, "w");
    fputs(hms_sample_source, f);
    fclose(f);
    struct stat before, after;
    cr_assert_eq(stat(src, &before), 0);
    hms_run_result r = hms_run((const char *[]){src, yml, "--format=json", NULL});
    cr_assert(r.status == 0 || r.status == 1, "exit %d: %s", r.status, r.err);
    char *now = hms_read_file(src, NULL);
    cr_assert_str_eq(now, hms_sample_source);
    cr_assert_eq(stat(src, &after), 0);
    cr_assert_eq(before.st_ino, after.st_ino);
    cr_assert_eq(before.st_mtim.tv_sec, after.st_mtim.tv_sec);
    cr_assert_eq(before.st_mtim.tv_nsec, after.st_mtim.tv_nsec);
    free(now);
    hms_run_free(&r);
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

/* A file the user may not write is refused; as root (who may write it) the
 * rewritten file keeps its owner and mode. */
Test(fix, read_only_file_is_refused_or_keeps_owner_and_mode)
{
    char *src = hms_sample_write_source();
    cr_assert(src);
    char *before_text = hms_read_file(src, NULL);
    cr_assert_eq(chmod(src, 0444), 0);
    bool root = geteuid() == 0;
    if (root)
        cr_assert_eq(chown(src, 4321, 4321), 0);
    hms_report r;
    fix_report(&r, src);
    hms_source_cache cache;
    hms_source_cache_init(&cache);
    size_t applied = 0;
    hms_diag_sink said;
    hms_diag_sink_init(&said, NULL);
    bool ok = hms_apply_fixes(&r, &cache, &said, &applied);
    if (!ok) /* the refusal names the file */
        cr_assert(said.n && said.v[said.n - 1].level == HMS_DIAG_ERROR && said.v[said.n - 1].file &&
                      strcmp(said.v[said.n - 1].file, src) == 0,
                  "no error naming %s", src);
    hms_diag_sink_free(&said);
    char *now = hms_read_file(src, NULL);
    struct stat after;
    cr_assert_eq(stat(src, &after), 0);
    if (root) {
        cr_assert(ok);
        cr_assert_str_eq(now, fixed_source);
        cr_assert_eq(after.st_uid, 4321);
        cr_assert_eq(after.st_gid, 4321);
    } else {
        cr_assert_not(ok);
        cr_assert_str_eq(now, before_text, "a read-only file was rewritten");
    }
    cr_assert_eq(after.st_mode & 07777, 0444);
    cr_assert_eq(leftover_temps(src), 0);
    free(now);
    free(before_text);
    hms_source_cache_free(&cache);
    hms_report_free(&r);
    unlink(src);
    free(src);
}

/* A fix-it naming a file that was not linted (a header) is not applied. */
Test(fix, fixit_in_a_file_not_linted_is_not_applied)
{
    char *src = hms_sample_write_source();
    char *header = hms_sample_write_source();
    cr_assert(src && header);
    char *header_before = hms_read_file(header, NULL);
    hms_report r;
    fix_report(&r, header); /* findings and fix-its in `header` ... */
    free(r.files[0].path);
    r.files[0].path = strdup(src); /* ... reported while linting `src` */
    hms_source_cache cache;
    hms_source_cache_init(&cache);
    size_t applied = 0;
    hms_diag_sink said;
    hms_diag_sink_init(&said, NULL);
    hms_apply_fixes(&r, &cache, &said, &applied);
    char *msg = hms_diag_sink_text(&said);
    hms_diag_sink_free(&said);
    cr_assert_eq(applied, 0);
    cr_assert(strstr(msg, "fix-it in a file not linted; not applied"), "%s", msg);
    char *header_now = hms_read_file(header, NULL);
    cr_assert_str_eq(header_now, header_before);
    free(msg);
    free(header_now);
    free(header_before);
    hms_source_cache_free(&cache);
    hms_report_free(&r);
    unlink(src);
    unlink(header);
    free(src);
    free(header);
}
