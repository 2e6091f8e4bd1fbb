/* Co-run advice (HSM, seeds/004): NP prediction for a split of the SMs and
 * the HSM-Fair / HSM-QoS procedures run on it, against values worked by
 * hand; then `hms-lint --corun` end to end and its bad input. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/hsm_corun.h"
#include "testsuite/support/run.h"

/* A system of 100 SMs, 1000 GB/s, c1 = 0.5, c2 = 0.36 (HSM Fig. 3).
 * M: memory-bound, demand 1520 GB/s, RBH 0.8: supply 1000 (0.4 + 0.36) = 760.
 * C: compute-bound, demand 46 GB/s, RBH 0.2: supply 460. */
static const hms_corun_system sys = {100, 1000, {0.5, 0.36}};
static const hms_corun_kernel mc[2] = {{1520, 0.8}, {46, 0.2}};

Test(corun, classes_follow_eqs_2_and_3)
{
    cr_assert_float_eq(hms_corun_supply(&sys, &mc[0]), 760, 1e-9);
    cr_assert_float_eq(hms_corun_supply(&sys, &mc[1]), 460, 1e-9);
    cr_assert_eq(hms_corun_class(&sys, &mc[0]), HMS_BOUND_MEMORY);
    cr_assert_eq(hms_corun_class(&sys, &mc[1]), HMS_BOUND_COMPUTE);
}

Test(corun, even_split_worked_by_hand)
{
    /* 50/50: M wants min(1520 x 0.5, 760) = 760, C wants 46 x 0.5 = 23.
     * RBH_mix = (760 x 0.8 + 23 x 0.2) / 783 = 0.782375; supply
     * 1000 (0.5 x 0.782375 + 0.36) = 751.188 < 783, so each gets
     * 751.188 / 783 = 95.94% of its want: M 729.122, C 22.0655.
     * NP_M = 729.122 / 760 = 0.95937 (eq. 5); NP_C = min(0.5, 22.0655 / 46)
     * = 0.47969 (eq. 4, cut by bandwidth). */
    hms_corun_split p;
    char err[200];
    cr_assert(hms_corun_predict(&sys, mc, 50, &p, err, sizeof err), "%s", err);
    cr_assert_float_eq(p.supply_gbs, 751.18774, 1e-4);
    cr_assert_float_eq(p.got_gbs[0], 729.12220, 1e-4);
    cr_assert_float_eq(p.got_gbs[1], 22.065540, 1e-5);
    cr_assert_float_eq(p.np[0], 0.9593713, 1e-6);
    cr_assert_float_eq(p.np[1], 0.4796857, 1e-6);
    cr_assert_float_eq(p.fairness, 0.5, 1e-6);
    cr_assert_float_eq(p.stp, 0.9593713 + 0.4796857, 1e-6);
}

Test(corun, hsm_fair_worked_by_hand)
{
    /* Epoch 1 at 50/50: fairness 0.5 < 0.9. g_M = 0.95937 / 50 = 0.019187,
     * g_C = 0.47969 / 50 = 0.0095937; x = (0.95937 - 0.47969) / (g_M + g_C)
     * = 16.67: 17 SMs leave the gap smaller (|0.6332 - 0.6428| against
     * |0.6524 - 0.6332| for 16), so M 33, C 67.
     * Epoch 2 at 33/67: wants 501.6 + 30.82 = 532.42 < supply 742.63, so
     * NP_M = 501.6 / 760 = 0.66, NP_C = 0.67: fairness 0.985, nothing moves. */
    hms_corun_advice adv;
    char err[200];
    cr_assert(hms_corun_fair(&sys, mc, 0.9, &adv, err, sizeof err), "%s", err);
    cr_assert(adv.converged);
    cr_assert_eq(adv.epochs, 2);
    cr_assert_eq(adv.split.sms[0], 33);
    cr_assert_eq(adv.split.sms[1], 67);
    cr_assert_float_eq(adv.split.np[0], 0.66, 1e-9);
    cr_assert_float_eq(adv.split.np[1], 0.67, 1e-9);
    cr_assert_float_eq(adv.split.fairness, 0.66 / 0.67, 1e-9);
}

Test(corun, hsm_qos_worked_by_hand)
{
    /* QoS 0.8 for C: at 50/50 NP_C = 0.47969 < 0.8, so C takes
     * ceil((0.8 + 0.05) / 0.0095937) = ceil(88.6) = 89 SMs; at 11/89 NP_C =
     * min(0.89, 40.94 / 46) = 0.89, inside [0.8, 0.9]: it stays. */
    hms_corun_advice adv;
    char err[200];
    cr_assert(hms_corun_qos(&sys, mc, 1, 0.8, &adv, err, sizeof err), "%s", err);
    cr_assert(adv.converged && adv.target_met);
    cr_assert_eq(adv.split.sms[1], 89);
    cr_assert_float_eq(adv.split.np[1], 0.89, 1e-9);
    cr_assert_float_eq(adv.split.np[0], 15.2 * 11 / 760, 1e-9);
    /* QoS 0.8 for M: NP_M 0.959 > upper 0.9, so it gives SMs back down to
     * ceil(0.85 / 0.019187) = 45; at 45/55 NP_M = 684 / 760 = 0.9: stays. */
    cr_assert(hms_corun_qos(&sys, mc, 0, 0.8, &adv, err, sizeof err), "%s", err);
    cr_assert_eq(adv.split.sms[0], 45);
    cr_assert_float_eq(adv.split.np[0], 0.9, 1e-9);
    cr_assert(adv.target_met);
}

Test(corun, bad_inputs_are_refused)
{
    hms_corun_split p;
    hms_corun_advice adv;
    char err[200];
    cr_assert_not(hms_corun_predict(&sys, mc, 0, &p, err, sizeof err));
    cr_assert(strstr(err, "at least one"), "%s", err);
    cr_assert_not(hms_corun_predict(&sys, mc, 100, &p, err, sizeof err));
    cr_assert_not(hms_corun_qos(&sys, mc, 1, 1.5, &adv, err, sizeof err));
    hms_corun_kernel bad[2] = {{-1, 0.5}, {10, 0.5}};
    cr_assert_not(hms_corun_predict(&sys, bad, 50, &p, err, sizeof err));
    cr_assert_eq(hms_corun_mps_percent(33, 100), 33);
    cr_assert_eq(hms_corun_mps_percent(13, 132), 10); /* 9.85% rounds up */
    cr_assert_eq(hms_corun_mps_percent(131, 132), 100);
}

/* ---- the command ------------------------------------------------------------ */

static char spec_a[4200], spec_b[4200];

static void specs(void)
{
    snprintf(spec_a, sizeof spec_a, "%s:stream_copy", hms_test_path("kernels/corun/pair.cu"));
    snprintf(spec_b, sizeof spec_b, "%s:poly_eval", hms_test_path("kernels/corun/pair.cu"));
}

Test(corun, cli_classifies_and_recommends_a_fair_split)
{
    specs();
    const char *args[] = {"--corun", "--format=json", spec_a, spec_b, NULL};
    hms_run_result r = hms_run(args);
    cr_assert_eq(r.status, 0, "%s", r.err);
    json_error_t je;
    json_t *root = json_loads(r.out, 0, &je);
    cr_assert(root, "%s: %s", je.text, r.out);
    json_t *k = json_object_get(root, "kernels");
    cr_assert_str_eq(json_string_value(json_object_get(json_array_get(k, 0), "class")), "memory");
    cr_assert_str_eq(json_string_value(json_object_get(json_array_get(k, 1), "class")), "compute");
    int sms = (int)json_integer_value(json_object_get(root, "sms"));
    cr_assert_eq(json_array_size(json_object_get(root, "splits")), (size_t)(sms - 1));
    json_t *rec = json_object_get(root, "recommended");
    cr_assert_str_eq(json_string_value(json_object_get(rec, "policy")), "HSM-Fair");
    cr_assert(json_real_value(json_object_get(rec, "fairness")) >= 0.9);
    json_t *ka = json_object_get(rec, "kernels");
    int a = (int)json_integer_value(json_object_get(json_array_get(ka, 0), "sms"));
    int b = (int)json_integer_value(json_object_get(json_array_get(ka, 1), "sms"));
    cr_assert_eq(a + b, sms);
    /* the memory-bound copy needs far fewer SMs than the compute-bound kernel */
    cr_assert_lt(a, b);
    for (size_t i = 0; i < 2; i++) {
        double np = json_real_value(json_object_get(json_array_get(ka, i), "np"));
        cr_assert(np > 0 && np <= 1, "NP %g", np);
    }
    json_decref(root);
    hms_run_free(&r);
}

Test(corun, cli_qos_target_and_mps_percentages)
{
    specs();
    const char *args[] = {"--corun", "--qos=poly_eval:0.95", spec_a, spec_b, NULL};
    hms_run_result r = hms_run(args);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "recommended (HSM-QoS)"), "%s", r.out);
    cr_assert(strstr(r.out, "CUDA_MPS_ACTIVE_THREAD_PERCENTAGE="), "%s", r.out);
    cr_assert(strstr(r.out, "memory-bound"), "%s", r.out);
    hms_run_free(&r);
}

static void expect_usage_error(const char *const *args, const char *piece)
{
    hms_run_result r = hms_run(args);
    cr_assert_eq(r.status, 2, "status %d: %s", r.status, r.err);
    cr_assert(strstr(r.err, piece), "expected '%s' in: %s", piece, r.err);
    hms_run_free(&r);
}

Test(corun, cli_bad_input)
{
    specs();
    const char *same[] = {"--corun", spec_a, spec_a, NULL};
    expect_usage_error(same, "names kernel 'stream_copy' twice");
    const char *one[] = {"--corun", spec_a, NULL};
    expect_usage_error(one, "--corun takes two <file.cu>:<kernel> arguments, got 1");
    const char *nocolon[] = {"--corun", spec_a, "pair.cu", NULL};
    expect_usage_error(nocolon, "'pair.cu': expected <file.cu>:<kernel>");
    char missing[4300];
    snprintf(missing, sizeof missing, "%s:no_such", hms_test_path("kernels/corun/pair.cu"));
    const char *unknown[] = {"--corun", spec_a, missing, NULL};
    expect_usage_error(unknown, "no kernel named 'no_such' (kernels: stream_copy, poly_eval)");
    const char *badqos[] = {"--corun", "--qos=other:0.8", spec_a, spec_b, NULL};
    expect_usage_error(badqos, "--qos=other:0.8: expected <kernel>:<np>");
    const char *qos_alone[] = {"--qos=poly_eval:0.8", spec_a, NULL};
    expect_usage_error(qos_alone, "--qos needs --corun");
    const char *nofile[] = {"--corun", "/nonexistent/a.cu:k", spec_b, NULL};
    expect_usage_error(nofile, "/nonexistent/a.cu");
}

/* Writes text to dir/name; the path in a static slot (four in turn). */
static const char *write_in(const char *dir, const char *name, const char *text)
{
    static char paths[4][4200];
    static int slot;
    char *p = paths[slot++ % 4];
    snprintf(p, sizeof paths[0], "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    cr_assert(f, "cannot write %s", p);
    fputs(text, f);
    fclose(f);
    return p;
}

/* Runs args; the run must exit with status 2 (not crash), write no advice,
 * and print a diagnostic line in the compiler's form starting with line. */
static void expect_located_error(const char *const *args, const char *line)
{
    hms_run_result r = hms_run(args);
    cr_assert_eq(r.status, 2, "status %d: %s", r.status, r.err);
    cr_assert(hms_line_starts_with(r.err, line), "expected a line '%s...' in: %s", line, r.err);
    cr_assert_str_empty(r.out, "no advice after an error: %s", r.out);
    hms_run_free(&r);
}

/* Bad input reaches the user through the diagnostic sink: one record per
 * problem, "<file>[:line[:col]]: error: <reason>". */
Test(corun, bad_input_goes_through_the_diagnostic_sink)
{
    specs();
    char dir[] = "/tmp/hms-corun-XXXXXX";
    cr_assert(mkdtemp(dir));
    char want[4400], spec[4300], opt[4300];

    /* a clang error: at its line and column, and no advice on the kernel
     * clang recovered from it */
    const char *broken =
        write_in(dir, "broken.cu", "__global__ void k(float *p)\n{\n    p[0] = ;\n}\n");
    snprintf(spec, sizeof spec, "%s:k", broken);
    const char *parse[] = {"--corun", spec, spec_b, NULL};
    snprintf(want, sizeof want, "%s:3:12: error: expected expression", broken);
    expect_located_error(parse, want);

    /* a broken --arch file: at the line of the YAML error */
    const char *arch = write_in(dir, "bad.yaml", "name: x\nsms: [\n");
    snprintf(opt, sizeof opt, "--arch=%s", arch);
    const char *bad_arch[] = {"--corun", opt, spec_a, spec_b, NULL};
    snprintf(want, sizeof want, "%s:3: error: YAML syntax error", arch);
    expect_located_error(bad_arch, want);

    /* --output naming a directory */
    snprintf(opt, sizeof opt, "--output=%s", dir);
    const char *out_dir[] = {"--corun", opt, spec_a, spec_b, NULL};
    snprintf(want, sizeof want, "%s: error: is a directory", dir);
    expect_located_error(out_dir, want);

    /* a kernel the file does not define: at the file, with the ones it does */
    snprintf(spec, sizeof spec, "%s:no_such", hms_test_path("kernels/corun/pair.cu"));
    const char *unknown[] = {"--corun", spec_a, spec, NULL};
    snprintf(want, sizeof want,
             "%s: error: no kernel named 'no_such' (kernels: stream_copy, poly_eval)",
             hms_test_path("kernels/corun/pair.cu"));
    expect_located_error(unknown, want);

    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

/* The JSON advice carries what parsing said, as structured notifications. */
Test(corun, json_carries_the_parse_notifications)
{
    specs();
    char dir[] = "/tmp/hms-corun-XXXXXX";
    cr_assert(mkdtemp(dir));
    const char *k = write_in(dir, "k.cu",
                             "#include \"no_such_header.h\"\n"
                             "__global__ void copy(float *o, const float *i)\n"
                             "{\n    o[threadIdx.x] = i[threadIdx.x];\n}\n");
    char spec[4300];
    snprintf(spec, sizeof spec, "%s:copy", k);
    const char *args[] = {"--corun", "--format=json", spec, spec_b, NULL};
    hms_run_result r = hms_run(args);
    cr_assert_eq(r.status, 0, "%s", r.err);
    json_error_t je;
    json_t *root = json_loads(r.out, 0, &je);
    cr_assert(root, "%s: %s", je.text, r.out);
    json_t *n = json_object_get(root, "notifications");
    cr_assert(json_is_array(n), "%s", r.out);
    json_t *w = NULL, *e;
    size_t i;
    json_array_foreach(n, i, e)
    {
        const char *m = json_string_value(json_object_get(e, "message"));
        if (m && strstr(m, "'no_such_header.h' not found"))
            w = e;
    }
    cr_assert(w, "no notification of the missing header: %s", r.out);
    cr_assert_str_eq(json_string_value(json_object_get(w, "severity")), "warning");
    cr_assert_str_eq(json_string_value(json_object_get(w, "file")), k);
    cr_assert_eq(json_integer_value(json_object_get(w, "line")), 1);
    json_decref(root);
    hms_run_free(&r);
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}
