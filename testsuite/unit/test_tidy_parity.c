/* Config and command-line parity with clang-tidy, through the binary:
 * clang-tidy's .hms-lint keys, --config-file, --dump-config,
 * --warnings-as-errors, --header-filter, --quiet, --extra-arg, --checks='-*',
 * --version naming libclang. */
#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testsuite/support/run.h"

static char root[PATH_MAX];

static const char *at(const char *rel)
{
    static char buf[4][PATH_MAX + 64];
    static int next;
    char *b = buf[next++ % 4];
    snprintf(b, sizeof buf[0], "%s/%s", root, rel);
    return b;
}

static void write_file(const char *rel, const char *text)
{
    FILE *f = fopen(at(rel), "w");
    cr_assert(f, "cannot create %s", rel);
    fputs(text, f);
    fclose(f);
}

/* A kernel in a header (a finding located there) and a strided access in the
 * .cu itself; the bank-conflicting transpose only with -DWITH_TILED. */
static void setup(void)
{
    char tmpl[] = "/tmp/hms-parity-XXXXXX";
    cr_assert(mkdtemp(tmpl));
    cr_assert(realpath(tmpl, root));
    cr_assert_eq(mkdir(at("sub"), 0755), 0);
    cr_assert_eq(mkdir(at("sub/inc"), 0755), 0);
    write_file("sub/inc/hdr.cuh", "__global__ void in_header(float *a, int s)\n"
                                  "{\n"
                                  "    a[(blockIdx.x * blockDim.x + threadIdx.x) * 32] = 0.0f;\n"
                                  "}\n");
    write_file("sub/k.cu", "#include \"inc/hdr.cuh\"\n"
                           "__global__ void strided(float *a)\n"
                           "{\n"
                           "    a[(blockIdx.x * blockDim.x + threadIdx.x) * 32] = 1.0f;\n"
                           "}\n"
                           "#ifdef WITH_TILED\n"
                           "__global__ void tiled(float *o)\n"
                           "{\n"
                           "    __shared__ float t[32][32];\n"
                           "    t[threadIdx.y][threadIdx.x] = 1.0f;\n"
                           "    __syncthreads();\n"
                           "    o[threadIdx.y * 32 + threadIdx.x] = t[threadIdx.x][threadIdx.y];\n"
                           "}\n"
                           "#endif\n");
}

static void teardown(void)
{
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    cr_assert_eq(system(cmd), 0);
}

TestSuite(parity, .init = setup, .fini = teardown, .timeout = 300);

Test(parity, version_names_the_libclang_version)
{
    hms_run_result r = hms_run((const char *[]){"--version", NULL});
    cr_assert_eq(r.status, 0);
    cr_assert(strstr(r.out, "libclang: ") && strstr(r.out, "clang version"), "%s", r.out);
    hms_run_free(&r);
}

Test(parity, checks_disabling_everything_is_an_error)
{
    hms_run_result r = hms_run((const char *[]){"--checks=-*", at("sub/k.cu"), NULL});
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "--checks='-*' enables no check"), "%s", r.err);
    hms_run_free(&r);
}

Test(parity, clang_tidy_keys_and_inherited_parent_config)
{
    write_file(".hms-lint", "Checks: '-*,hms-uncoalesced-access,hms-shared-bank-conflict'\n"
                            "WarningsAsErrors: 'hms-shared-*'\n");
    write_file("sub/.hms-lint", "InheritParentConfig: true\n"
                                "Checks: '-hms-uncoalesced-access'\n");
    hms_run_result r = hms_run((const char *[]){"--extra-arg=-DWITH_TILED", at("sub/k.cu"), NULL});
    /* The parent's Checks then the child's: only the bank conflict is left,
     * and the parent's WarningsAsErrors makes it an error. */
    cr_assert_eq(r.status, 1, "%s", r.err);
    cr_assert(strstr(r.out, "k.cu:12:41: error: ") && strstr(r.out, "[hms-shared-bank-conflict]"),
              "%s", r.out);
    cr_assert_null(strstr(r.out, "hms-uncoalesced-access"), "%s", r.out);
    hms_run_free(&r);

    /* --extra-arg reached the parser: without it the tiled kernel is not there. */
    r = hms_run((const char *[]){at("sub/k.cu"), NULL});
    cr_assert_null(strstr(r.out, "hms-shared-bank-conflict"), "%s", r.out);
    hms_run_free(&r);
}

Test(parity, unknown_key_names_the_clang_tidy_spellings)
{
    write_file("sub/.hms-lint", "CheckOptions: []\n");
    hms_run_result r = hms_run((const char *[]){at("sub/k.cu"), NULL});
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "sub/.hms-lint:1:1: error: unknown setting 'CheckOptions'") &&
                  strstr(r.err, "WarningsAsErrors"),
              "%s", r.err);
    hms_run_free(&r);
}

Test(parity, dump_config_reads_back_through_config_file)
{
    write_file("sub/.hms-lint", "Checks: '-*,hms-uncoalesced-access'\n"
                                "HeaderFilterRegex: 'inc/'\n"
                                "arch: a100\n"
                                "fail-on: note\n");
    hms_run_result r = hms_run((const char *[]){"--dump-config", at("sub/k.cu"), NULL});
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "Checks: '-*,hms-uncoalesced-access'\n"), "%s", r.out);
    cr_assert(strstr(r.out, "HeaderFilterRegex: 'inc/'\n"), "%s", r.out);
    cr_assert(strstr(r.out, "arch: a100\nfail-on: note\n"), "%s", r.out);
    /* Elsewhere, read back with --config-file: the same settings. */
    FILE *f = fopen(at("dumped.yaml"), "w");
    fputs(r.out, f);
    fclose(f);
    unlink(at("sub/.hms-lint"));
    hms_run_result again = hms_run((const char *[]){"--config-file", at("dumped.yaml"),
                                                    "--dump-config", at("sub/k.cu"), NULL});
    cr_assert_eq(again.status, 0, "%s", again.err);
    cr_assert_str_eq(strchr(again.out, '\n'), strchr(r.out, '\n'));
    hms_run_free(&again);
    hms_run_free(&r);
}

Test(parity, config_file_replaces_the_nearest_one)
{
    write_file("sub/.hms-lint", "Checks: '-*,hms-shared-bank-conflict'\n");
    write_file("other.yaml", "Checks: '-*,hms-uncoalesced-access'\n");
    hms_run_result r =
        hms_run((const char *[]){"--config-file", at("other.yaml"), at("sub/k.cu"), NULL});
    cr_assert_eq(r.status, 1, "%s", r.err);
    cr_assert(strstr(r.out, "k.cu:4:5: warning: ") && strstr(r.out, "[hms-uncoalesced-access]"),
              "%s", r.out);
    hms_run_free(&r);
}

Test(parity, header_filter_keeps_matching_headers_only)
{
    const char *common[] = {"--checks=-*,hms-uncoalesced-access", "--fail-on=never"};
    hms_run_result r = hms_run((const char *[]){common[0], common[1], at("sub/k.cu"), NULL});
    cr_assert(strstr(r.out, "hdr.cuh:3:5: warning: "), "no header finding by default: %s", r.out);
    hms_run_free(&r);

    r = hms_run(
        (const char *[]){common[0], common[1], "--header-filter=nomatch", at("sub/k.cu"), NULL});
    cr_assert_null(strstr(r.out, "hdr.cuh"), "%s", r.out);
    cr_assert(strstr(r.out, "k.cu:4:5: warning: "), "the main file's finding stays: %s", r.out);
    hms_run_free(&r);

    r = hms_run((const char *[]){common[0], common[1], "--header-filter=inc/.*\\.cuh$",
                                 at("sub/k.cu"), NULL});
    cr_assert(strstr(r.out, "hdr.cuh:3:5: warning: "), "%s", r.out);
    hms_run_free(&r);
}

Test(parity, quiet_drops_the_summary)
{
    hms_run_result r = hms_run((const char *[]){at("sub/k.cu"), NULL});
    cr_assert(strstr(r.err, "generated"), "%s", r.err);
    hms_run_free(&r);
    r = hms_run((const char *[]){"--quiet", at("sub/k.cu"), NULL});
    cr_assert_eq(r.status, 1);
    cr_assert_null(strstr(r.err, "generated"), "%s", r.err);
    hms_run_free(&r);
}
