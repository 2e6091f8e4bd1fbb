/* Launch configurations and scalar values from the command line and from
 * annotations: parsing, limits, name matching, the documented default. */
#include <criterion/criterion.h>
#include <string.h>

#include "analyzer/frontend/launch_config.h"
#include "testsuite/support/run.h"

Test(launch_config, full_spec_parses_all_fields)
{
    hms_launch_spec s;
    char err[256];
    cr_assert(hms_parse_launch_spec("transpose:grid=128,64,2:block=32,8:shared=4096", 0, &s, err,
                                    sizeof err),
              "%s", err);
    cr_assert_str_eq(s.kernel, "transpose");
    cr_assert_eq(s.grid[0], 128);
    cr_assert_eq(s.grid[1], 64);
    cr_assert_eq(s.grid[2], 2);
    cr_assert_eq(s.block[0], 32);
    cr_assert_eq(s.block[1], 8);
    cr_assert_eq(s.block[2], 1); /* missing dimensions are 1 */
    cr_assert(s.has_shared);
    cr_assert_eq(s.shared, 4096);
    hms_launch_spec_free(&s);
}

Test(launch_config, spec_without_kernel_applies_to_all)
{
    hms_launch_spec s;
    char err[256];
    cr_assert(hms_parse_launch_spec("grid=10:block=256", 0, &s, err, sizeof err), "%s", err);
    cr_assert_null(s.kernel);
    cr_assert_eq(s.grid[0], 10);
    cr_assert_eq(s.block[0], 256);
    cr_assert_not(s.has_shared);
}

Test(launch_config, template_kernel_name_keeps_its_arguments)
{
    hms_launch_spec s;
    char err[256];
    cr_assert(hms_parse_launch_spec("reduce<256>:grid=64:block=256", 0, &s, err, sizeof err));
    cr_assert_str_eq(s.kernel, "reduce<256>");
    hms_launch_spec_free(&s);
}

static void expect_launch_error(const char *spec, uint32_t max_threads, const char *why)
{
    hms_launch_spec s;
    char err[256] = "";
    cr_assert_not(hms_parse_launch_spec(spec, max_threads, &s, err, sizeof err),
                  "'%s' was accepted", spec);
    cr_assert(strstr(err, why) != NULL, "'%s': got '%s', expected '%s'", spec, err, why);
}

Test(launch_config, absurd_launches_are_rejected_with_the_reason)
{
    expect_launch_error("k:grid=0:block=32", 0, "grid x is 0");
    expect_launch_error("k:grid=1,1,0:block=32", 0, "grid z is 0");
    expect_launch_error("k:grid=1:block=0", 0, "block x is 0");
    /* CUDA limits: grid x < 2^31, y/z <= 65535 */
    expect_launch_error("k:grid=2147483648:block=32", 0, "grid x = 2147483648 exceeds");
    expect_launch_error("k:grid=1,65536:block=32", 0, "grid y = 65536 exceeds");
    expect_launch_error("k:grid=1:block=2048", 0, "block x = 2048 exceeds");
    expect_launch_error("k:grid=1:block=1,1,65", 0, "block z = 65 exceeds");
    /* 64 x 32 = 2048 threads > 1024 */
    expect_launch_error("k:grid=1:block=64,32", 0, "block of 2048 threads exceeds");
    /* a target with 512 threads per block (compute capability 1.x) */
    expect_launch_error("k:grid=1:block=1024", 512, "limit of 512 per block");
    expect_launch_error("k:grid=-4:block=32", 0, "negative dimension -4");
    expect_launch_error("k:grid=99999999999:block=32", 0, "absurdly large");
    expect_launch_error("k:grid=8", 0, "both grid= and block= are needed");
    expect_launch_error("k:grid=8:block=32:shared=-1", 0, "out of range");
    expect_launch_error("k:grid=8:blok=32", 0, "unknown field 'blok=32'");
    expect_launch_error("k:grid=1,2,3,4:block=1", 0, "more than three dimensions");
    expect_launch_error("k:grid=x:block=1", 0, "expected a number");
}

Test(launch_config, params_with_and_without_kernel)
{
    hms_param_spec p;
    char err[256];
    cr_assert(hms_parse_param_spec("n=4096", &p, err, sizeof err));
    cr_assert_null(p.kernel);
    cr_assert_str_eq(p.name, "n");
    cr_assert_eq(p.value, 4096);
    hms_param_spec_free(&p);
    cr_assert(hms_parse_param_spec("reduce<256, float>.n=0x100", &p, err, sizeof err));
    cr_assert_str_eq(p.kernel, "reduce<256, float>");
    cr_assert_eq(p.value, 256);
    hms_param_spec_free(&p);
    cr_assert(hms_parse_param_spec("k.off=-8", &p, err, sizeof err));
    cr_assert_eq(p.value, -8);
    hms_param_spec_free(&p);
    cr_assert_not(hms_parse_param_spec("n=abc", &p, err, sizeof err));
    cr_assert(strstr(err, "'abc' is not a number"), "%s", err);
    /* floating values: a fraction is kept apart (never applied to integers) */
    cr_assert(hms_parse_param_spec("k.x=0.25", &p, err, sizeof err), "%s", err);
    cr_assert(p.is_real);
    cr_assert_float_eq(p.real, 0.25, 1e-12);
    cr_assert_str_eq(p.kernel, "k");
    cr_assert_str_eq(p.name, "x");
    hms_param_spec_free(&p);
    cr_assert(hms_parse_param_spec("n=4096.0", &p, err, sizeof err), "%s", err);
    cr_assert_not(p.is_real);
    cr_assert_eq(p.value, 4096);
    hms_param_spec_free(&p);
    cr_assert(hms_parse_param_spec("eps=-1e-5", &p, err, sizeof err), "%s", err);
    cr_assert(p.is_real);
    hms_param_spec_free(&p);
    cr_assert_not(hms_parse_param_spec("n=nan", &p, err, sizeof err));
    cr_assert_not(hms_parse_param_spec("n=inf", &p, err, sizeof err));
    cr_assert_not(hms_parse_param_spec("=5", &p, err, sizeof err));
    cr_assert_not(hms_parse_param_spec("k.=5", &p, err, sizeof err));
    cr_assert_not(hms_parse_param_spec("k.a-b=5", &p, err, sizeof err));
}

Test(launch_config, param_matching_follows_struct_fields_and_templates)
{
    hms_param_spec p;
    char err[256];
    cr_assert(hms_parse_param_spec("MatMul.A.width=1024", &p, err, sizeof err));
    cr_assert(hms_param_matches(&p, "MatMul", "A.width"));
    cr_assert_not(hms_param_matches(&p, "Other", "A.width"));
    cr_assert_not(hms_param_matches(&p, "MatMul", "width"));
    hms_param_spec_free(&p);
    cr_assert(hms_parse_param_spec("A.width=7", &p, err, sizeof err));
    cr_assert(hms_param_matches(&p, "AnyKernel", "A.width"));
    hms_param_spec_free(&p);
    cr_assert(hms_parse_param_spec("reduce.n=7", &p, err, sizeof err));
    cr_assert(hms_param_matches(&p, "reduce<128, float>", "n"));
    cr_assert_not(hms_param_matches(&p, "reduce2", "n"));
    hms_param_spec_free(&p);
}

Test(launch_config, kernel_names_match_instantiations_and_ignore_blanks)
{
    cr_assert(hms_kernel_name_matches("reduce", "reduce<256, float>"));
    cr_assert(hms_kernel_name_matches("reduce<256,float>", "reduce<256, float>"));
    cr_assert_not(hms_kernel_name_matches("reduce<128>", "reduce<256>"));
    cr_assert_not(hms_kernel_name_matches("reduce", "reduce2"));
    cr_assert(hms_kernel_name_matches(NULL, "anything"));
}

Test(launch_config, annotations_in_comments_only)
{
    const char *src =
        "// hms-lint: launch grid(64,64) block(16,16)\n"
        "int x; /* hms-lint: param n=4096 m=2 */\n"
        "const char *s = \"hms-lint: launch grid(1) block(1)\";\n"
        "// hms-lint: launch kernel=reduce<256, float> grid(8) block(256) shared(1024)\n"
        "// hms-lint: param kernel=k n=-3\n";
    hms_diag_sink said;
    hms_diag_sink_init(&said, NULL);
    hms_annotations a;
    hms_scan_annotations(src, strlen(src), "t.cu", 0, &a, &said);
    char *buf = hms_diag_sink_text(&said);
    size_t len = strlen(buf);
    hms_diag_sink_free(&said);
    /* the string literal on line 3 is not a comment */
    cr_assert_eq(a.n, 5, "got %zu annotations; stderr: %s", a.n, buf);
    cr_assert(a.v[0].is_launch);
    cr_assert_eq(a.v[0].line, 1);
    cr_assert_null(a.v[0].kernel);
    cr_assert_eq(a.v[0].launch.grid[0], 64);
    cr_assert_eq(a.v[0].launch.grid[1], 64);
    cr_assert_eq(a.v[0].launch.block[1], 16);
    cr_assert_not(a.v[1].is_launch);
    cr_assert_eq(a.v[1].line, 2);
    cr_assert_str_eq(a.v[1].name, "n");
    cr_assert_eq(a.v[1].value, 4096);
    cr_assert_str_eq(a.v[2].name, "m");
    cr_assert_eq(a.v[2].value, 2);
    cr_assert_str_eq(a.v[3].kernel, "reduce<256, float>");
    cr_assert_eq(a.v[3].line, 4);
    cr_assert(a.v[3].launch.has_shared);
    cr_assert_eq(a.v[3].launch.shared, 1024);
    cr_assert_str_eq(a.v[4].kernel, "k");
    cr_assert_eq(a.v[4].value, -3);
    cr_assert_eq(len, 0, "unexpected warnings: %s", buf);
    free(buf);
    hms_annotations_free(&a);
}

Test(launch_config, bad_annotations_warn_with_file_and_line)
{
    const char *src = "\n// hms-lint: launch grid(0) block(32)\n"
                      "// hms-lint: launch block(32)\n"
                      "// hms-lint: lunch grid(1) block(1)\n"
                      "// hms-lint: param n=lots\n"
                      "// hms-lint: launch grid(1) block(4096)\n";
    hms_diag_sink said;
    hms_diag_sink_init(&said, NULL);
    hms_annotations a;
    hms_scan_annotations(src, strlen(src), "t.cu", 0, &a, &said);
    char *buf = hms_diag_sink_text(&said);
    hms_diag_sink_free(&said);
    cr_assert_eq(a.n, 0);
    cr_assert(strstr(buf, "t.cu:2:4: warning: bad launch annotation: grid x is 0"), "%s", buf);
    cr_assert(
        strstr(buf, "t.cu:3:4: warning: bad launch annotation: a launch annotation needs grid"),
        "%s", buf);
    cr_assert(strstr(buf, "t.cu:4:4: warning: unknown hms-lint annotation 'lunch"), "%s", buf);
    cr_assert(strstr(buf, "t.cu:5:4: warning: bad param annotation 'n=lots'"), "%s", buf);
    cr_assert(strstr(buf, "t.cu:6:4: warning: bad launch annotation: block x = 4096 exceeds"), "%s",
              buf);
    free(buf);
    hms_annotations_free(&a);
}

Test(launch_config, default_launch_follows_the_dimensions_used)
{
    ir_launch l;
    bool none[3] = {true, false, false}, xy[3] = {true, true, false}, xyz[3] = {true, true, true};
    hms_default_launch(none, none, &l);
    cr_assert_eq(l.grid[0], 256);
    cr_assert_eq(l.block[0], 256);
    cr_assert_eq(l.block[1], 1);
    cr_assert_eq(l.source, IR_LAUNCH_DEFAULT);
    hms_default_launch(xy, none, &l);
    cr_assert_eq(l.block[0], 16);
    cr_assert_eq(l.block[1], 16);
    cr_assert_eq(l.grid[0], 256);
    cr_assert_eq(l.grid[1], 1);
    hms_default_launch(xyz, xy, &l);
    cr_assert_eq(l.block[0] * l.block[1] * l.block[2], 256); /* 8 x 8 x 4 */
    cr_assert_eq(l.grid[0], 16);
    cr_assert_eq(l.grid[1], 16);
}

Test(launch_config, bad_cli_values_exit_with_2_and_name_the_option)
{
    hms_run_result r =
        hms_run((const char *[]){"--dump-ir", "--launch=k:grid=0:block=32",
                                 hms_test_path("kernels/ir/vector_add_return.cu"), NULL});
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "hms-lint: error: --launch 'k:grid=0:block=32': grid x is 0"), "%s",
              r.err);
    hms_run_free(&r);
    r = hms_run((const char *[]){"--dump-ir", "--param=k.n=big",
                                 hms_test_path("kernels/ir/vector_add_return.cu"), NULL});
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "--param 'k.n=big': value 'big' is not a number"), "%s", r.err);
    hms_run_free(&r);
    /* -D that is a plain macro is not a value: accepted silently */
    r = hms_run((const char *[]){"--dump-ir", "-D", "USE_FAST", "-D", "REAL=float",
                                 hms_test_path("kernels/ir/vector_add_return.cu"), NULL});
    cr_assert_eq(r.status, 0, "%s", r.err);
    hms_run_free(&r);
}

Test(launch_config, kernel_part_of_launch_ends_outside_template_arguments)
{
    hms_launch_spec l;
    char err[256];
    cr_assert(
        hms_parse_launch_spec("MatrixMulCUDA<32>:grid=20,10:block=32,32", 0, &l, err, sizeof err),
        "%s", err);
    cr_assert_str_eq(l.kernel, "MatrixMulCUDA<32>");
    cr_assert_eq(l.grid[1], 10);
    hms_launch_spec_free(&l);
    cr_assert(hms_parse_launch_spec("k<ns::T, 4>:grid=2:block=64", 0, &l, err, sizeof err), "%s",
              err);
    cr_assert_str_eq(l.kernel, "k<ns::T, 4>");
    hms_launch_spec_free(&l);
    cr_assert(hms_parse_launch_spec("ns::k:grid=2:block=64", 0, &l, err, sizeof err), "%s", err);
    cr_assert_str_eq(l.kernel, "ns::k");
    cr_assert_eq(l.block[0], 64);
    hms_launch_spec_free(&l);
    /* an instantiation selects only itself; the bare name every instantiation */
    cr_assert(hms_kernel_name_matches("MatrixMulCUDA<32>", "MatrixMulCUDA<32>"));
    cr_assert_not(hms_kernel_name_matches("MatrixMulCUDA<32>", "MatrixMulCUDA<16>"));
    cr_assert(hms_kernel_name_matches("MatrixMulCUDA", "MatrixMulCUDA<16>"));
}

Test(launch_config, unmatched_launch_and_param_warn_with_the_kernels_that_exist)
{
    hms_frontend_options o;
    memset(&o, 0, sizeof o);
    const char *launches[] = {"nosuch:grid=1:block=32", "k<2>:grid=4:block=64", "grid=8:block=128"};
    const char *params[] = {"other.n=3", "k.n=5", "n=7"};
    o.launches.v = launches;
    o.launches.n = 3;
    o.params.v = params;
    o.params.n = 3;
    hms_launch_cli c;
    cr_assert_eq(hms_launch_cli_parse(&o, &c, NULL), 0);
    const char *names[] = {"k<2>", "k<4>", "other_kernel"};
    hms_diag_sink said;
    hms_diag_sink_init(&said, NULL);
    size_t n = hms_launch_cli_warn_unmatched(&o, &c, names, 3, &said);
    char *buf = hms_diag_sink_text(&said);
    hms_diag_sink_free(&said);
    cr_assert_eq(n, 2, "%s", buf);
    cr_assert(strstr(buf, "hms-lint: warning: --launch 'nosuch:grid=1:block=32' matches no kernel "
                          "(kernels: k<2>, k<4>, other_kernel)"),
              "%s", buf);
    cr_assert(strstr(buf, "--param 'other.n' matches no kernel"), "%s", buf);
    free(buf);
    hms_launch_cli_free(&c);
}

Test(launch_config, floating_param_never_drops_a_launch)
{
    /* The issue: a --param with a fraction made the whole command line fall
     * back to the default launch. */
    hms_run_result r = hms_run((const char *[]){
        "--dump-ir", "--param=vectorAdd.scale=0.25", "--launch=vectorAdd:grid=40:block=128",
        hms_test_path("kernels/ir/vector_add_return.cu"), NULL});
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "kernel vectorAdd ("), "%s", r.out);
    cr_assert(strstr(r.out, "launch grid=(40,1,1) block=(128,1,1) shared=0 source=cli"), "%s",
              r.out);
    hms_run_free(&r);
    r = hms_run((const char *[]){"--param=vectorAdd.scale=0.25",
                                 "--launch=vectorAdd:grid=40:block=128",
                                 hms_test_path("kernels/ir/vector_add_return.cu"), NULL});
    cr_assert_str_eq(strstr(r.err, "matches no kernel") ? "warned" : "", "", "%s", r.err);
    hms_run_free(&r);
    r = hms_run((const char *[]){"--launch=garbage",
                                 hms_test_path("kernels/ir/vector_add_return.cu"), NULL});
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "hms-lint: error: --launch 'garbage'"), "%s", r.err);
    hms_run_free(&r);
}
