/* Compiler flags for the parse: what is kept from compile_commands.json
 * entries (nvcc or clang command lines) and from flags after `--`, and -p
 * end to end with a generated database. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyzer/frontend/compile_flags.h"
#include "testsuite/support/run.h"

static char tmpdir[] = "/tmp/hms-flags-XXXXXX";

static void make_dir(void)
{
    cr_assert(mkdtemp(tmpdir) != NULL);
}

static void remove_dir(void)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", tmpdir);
}

TestSuite(compile_flags, .init = make_dir, .fini = remove_dir);

static const char *put(const char *name, const char *text)
{
    static char paths[8][4096];
    static int slot;
    char *p = paths[slot++ % 8];
    snprintf(p, 4096, "%s/%s", tmpdir, name);
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", p);
    char *slash = strrchr(dir, '/');
    *slash = '\0';
    char cmd[8300];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", dir);
    cr_assert_eq(system(cmd), 0);
    FILE *f = fopen(p, "w");
    cr_assert(f, "cannot write %s", p);
    fputs(text, f);
    fclose(f);
    return p;
}

static void assert_flags(const hms_flag_list *l, const char *const *want)
{
    size_t n = 0;
    while (want[n])
        n++;
    char got[4096] = "";
    for (size_t i = 0; i < l->n; i++) {
        strncat(got, l->v[i], sizeof got - strlen(got) - 2);
        strncat(got, " ", sizeof got - strlen(got) - 1);
    }
    cr_assert_eq(l->n, n, "got: %s", got);
    for (size_t i = 0; i < n; i++)
        cr_assert_str_eq(l->v[i], want[i], "flag %zu; got: %s", i, got);
}

Test(compile_flags, nvcc_command_keeps_paths_macros_and_standard)
{
    put("toolkit/include/crt/host_config.h", "");
    char toolkit[4200];
    snprintf(toolkit, sizeof toolkit, "-I%s/toolkit/include", tmpdir);
    const char *argv[] = {
        "/usr/local/cuda/bin/nvcc",
        "-I",
        "inc",
        "-I/abs/inc2",
        toolkit,
        "-DFOO=1",
        "-D",
        "BAR",
        "--define-macro=BAZ=2",
        "-UQUX",
        "-std=c++03",
        "--std",
        "c++17",
        "-isystem",
        "/opt/x",
        "--include-path=rel2",
        "-include",
        "pre.h",
        "-gencode",
        "arch=compute_70,code=sm_70",
        "-arch=sm_70",
        "-Xcompiler",
        "-DHOST_ONLY_NOT_US",
        "-o",
        "out.o",
        "-c",
        "src.cu",
        "--expt-relaxed-constexpr",
        "-O3",
        "-x",
        "cu",
        "-ccbin",
        "g++",
        "-lineinfo",
    };
    hms_flag_list l = {0};
    hms_flags_from_command(argv, sizeof argv / sizeof *argv, "/proj/build", &l);
    /* relative paths become absolute against the entry's directory; the
     * toolkit directory, -std=c++03 and everything nvcc-only go away */
    assert_flags(&l, (const char *const[]){"-I/proj/build/inc", "-I/abs/inc2", "-DFOO=1", "-DBAR",
                                           "-DBAZ=2", "-UQUX", "-std=c++17", "-isystem/opt/x",
                                           "-I/proj/build/rel2", "-include", "pre.h", NULL});
    hms_flag_list_free(&l);
}

Test(compile_flags, user_flags_pass_except_nvcc_ones)
{
    const char *argv[] = {"-DA=1",      "-arch=sm_70", "-Wno-foo",  "-gencode",        "x",
                          "-O2",        "-I",          "dir",       "--use_fast_math", "-fopenmp",
                          "-Xcompiler", "-Wall",       "-std=c++20"};
    hms_flag_list l = {0};
    hms_flags_from_user(argv, sizeof argv / sizeof *argv, &l, NULL);
    assert_flags(
        &l, (const char *const[]){"-DA=1", "-Wno-foo", "-Idir", "-fopenmp", "-std=c++20", NULL});
    hms_flag_list_free(&l);
}

Test(compile_flags, toolkit_include_directories_are_recognised)
{
    put("new/include/crt/host_config.h", "");
    put("old/include/host_config.h", "");
    put("old/include/cuda_runtime_api.h", "");
    put("project/include/host_config.h", "");
    char p[4200];
    snprintf(p, sizeof p, "%s/new/include", tmpdir);
    cr_assert(hms_is_cuda_toolkit_include(p));
    snprintf(p, sizeof p, "%s/old/include", tmpdir);
    cr_assert(hms_is_cuda_toolkit_include(p));
    snprintf(p, sizeof p, "%s/project/include", tmpdir);
    cr_assert_not(hms_is_cuda_toolkit_include(p));
}

/* A project laid out as build/, include/ and src/: the kernel needs a macro
 * from include/tiles.h (BLOCK_ROWS) and one given with -D in the database
 * (TILE). */
static const char *make_project(const char *db_entry_fmt)
{
    put("proj/include/tiles.h", "#define BLOCK_ROWS (TILE / 4)\n");
    const char *src =
        put("proj/src/k.cu",
            "#include \"tiles.h\"\n"
            "__global__ void transpose(float *o, const float *i, int n)\n"
            "{\n"
            "    __shared__ float tile[TILE][TILE + 1];\n"
            "    for (int j = 0; j < TILE; j += BLOCK_ROWS) tile[j][threadIdx.x] = i[j];\n"
            "    __syncthreads();\n"
            "    o[threadIdx.x] = tile[threadIdx.x][threadIdx.y];\n"
            "}\n"
            "int main() { transpose<<<dim3(64, 64), dim3(TILE, BLOCK_ROWS)>>>"
            "(0, 0, 64 * TILE); }\n");
    char build[4200], json[8192];
    snprintf(build, sizeof build, "%s/proj/build", tmpdir);
    snprintf(json, sizeof json, db_entry_fmt, build);
    put("proj/build/compile_commands.json", json);
    return src;
}

static void assert_project_listed(const char *src, const char *build)
{
    hms_run_result r = hms_run((const char *[]){"-p", build, "--list-kernels", src, NULL});
    cr_assert_eq(r.status, 0, "stderr: %s", r.err);
    cr_assert_str_empty(r.err);
    /* TILE = 16 from the database: tile[16][17] floats = 1088 bytes;
     * BLOCK_ROWS = 16 / 4 = 4 from the header found through -I../include */
    cr_assert(strstr(r.out, "shared tile float[16][17] in=transpose line=4 bytes=1088"), "got: %s",
              r.out);
    cr_assert(strstr(r.out, "launch transpose line=9 grid=(64,64,1) block=(16,4,1) shared=0 "
                            "args=0, 0, 64 * TILE=1024"),
              "got: %s", r.out);
    hms_run_free(&r);
}

Test(compile_flags, compile_database_command_form)
{
    const char *src =
        make_project("[{\"directory\": \"%s\",\n"
                     "  \"command\": \"/usr/local/cuda/bin/nvcc -I../include -DTILE=16 -gencode "
                     "arch=compute_70,code=sm_70 -O3 -x cu -c ../src/k.cu -o k.o\",\n"
                     "  \"file\": \"../src/k.cu\"}]\n");
    char build[4200];
    snprintf(build, sizeof build, "%s/proj/build", tmpdir);
    assert_project_listed(src, build);
}

Test(compile_flags, compile_database_arguments_form)
{
    const char *src = make_project(
        "[{\"directory\": \"%s\",\n"
        "  \"arguments\": [\"nvcc\", \"--include-path\", \"../include\", \"--define-macro\", "
        "\"TILE=16\", \"-Xcompiler\", \"-fPIC\", \"-c\", \"../src/k.cu\"],\n"
        "  \"file\": \"../src/k.cu\"}]\n");
    char build[4200];
    snprintf(build, sizeof build, "%s/proj/build", tmpdir);
    assert_project_listed(src, build);
}

Test(compile_flags, without_the_database_the_header_and_macro_are_missing)
{
    const char *src = make_project("[{\"directory\": \"%s\", \"command\": \"nvcc -c x.cu\", "
                                   "\"file\": \"x.cu\"}]\n");
    hms_run_result r = hms_run((const char *[]){"--list-kernels", src, NULL});
    /* TILE, used in the kernel, comes from the missing header: a warning with
     * the flag that would define it (the IR treats it as unknown). */
    cr_assert_eq(r.status, 0, "stderr: %s", r.err);
    cr_assert(strstr(r.err, "'tiles.h' not found; analysing without it"), "got: %s", r.err);
    cr_assert(strstr(r.err, "undeclared 'TILE' in kernel code; define it with -D TILE=<value>"),
              "got: %s", r.err);
    hms_run_free(&r);
}

Test(compile_flags, file_missing_from_database_or_no_database_warns)
{
    /* An empty database has no entry to borrow flags from. (With other
     * entries, clang interpolates the nearest one's flags, as clang-tidy does.) */
    const char *src = make_project("[]%.0s\n");
    char build[4200];
    snprintf(build, sizeof build, "%s/proj/build", tmpdir);
    hms_run_result r = hms_run((const char *[]){"-p", build, "--list-kernels", src, NULL});
    char want[8600];
    snprintf(want, sizeof want, "%s: warning: not in %s/compile_commands.json; using default flags",
             src, build);
    cr_assert(strstr(r.err, want), "got: %s", r.err);
    hms_run_free(&r);

    char empty[4200];
    snprintf(empty, sizeof empty, "%s/empty", tmpdir);
    cr_assert_eq(mkdir(empty, 0700), 0);
    /* a build directory without a database is an error, not default flags */
    r = hms_run((const char *[]){"-p", empty, "--list-kernels", src, NULL});
    snprintf(want, sizeof want, "%s: error: no compile_commands.json or compile_flags.txt", empty);
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, want), "got: %s", r.err);
    hms_run_free(&r);
}

Test(compile_flags, a_file_not_listed_borrows_the_nearest_entry)
{
    const char *src =
        make_project("[{\"directory\": \"%s\",\n"
                     "  \"command\": \"nvcc -I../include -DTILE=16 -c ../src/other.cu\",\n"
                     "  \"file\": \"../src/other.cu\"}]\n");
    char build[4200];
    snprintf(build, sizeof build, "%s/proj/build", tmpdir);
    assert_project_listed(src, build);
}
