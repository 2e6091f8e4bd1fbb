/* --format=html through the binary: one self-contained file, rendered in
 * headless Chromium (Debian's chromium package; the rendering tests skip
 * with a message when it is missing): the page loads without errors and
 * holds the index, the kernels, heat margins, findings with notes and
 * fix-its, placement tables and roofline charts. */
#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analyzer/report/report_html.h"
#include "testsuite/support/run.h"
#include "testsuite/support/scratch.h"

/* A transpose with a padding fix-it (bank conflict, line 13) and a strided
 * kernel (uncoalesced, line 19); a '<' in a comment must come out escaped. */
static const char kernels_cu[] =
    "// hms-lint: launch grid(8,8) block(32,8)\n"
    "__global__ void tr(float *out, const float *in)\n"
    "{\n"
    "    const int n = 256; // n < 1024 & \"quoted\"\n"
    "    __shared__ float tile[32][32];\n"
    "    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;\n"
    "    for (int j = 0; j < 32; j += 8)\n"
    "        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];\n"
    "    __syncthreads();\n"
    "    x = blockIdx.y * 32 + threadIdx.x;\n"
    "    y = blockIdx.x * 32 + threadIdx.y;\n"
    "    for (int j = 0; j < 32; j += 8)\n"
    "        out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];\n"
    "}\n"
    "// hms-lint: launch grid(64) block(256)\n"
    "__global__ void strided(float *out, const float *in)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    out[i * 32] = in[i * 32] * 2.0f + 1.0f;\n"
    "}\n";

TestSuite(report_html, .init = hms_scratch_init, .fini = hms_scratch_fini, .timeout = 300);

static char *make_report(void)
{
    hms_scratch_write(hms_scratch_at("k.cu"), kernels_cu);
    char out[PATH_MAX + 16];
    snprintf(out, sizeof out, "--output=%s", hms_scratch_at("report.html"));
    hms_run_result r =
        hms_run((const char *[]){"--format=html", out, hms_scratch_at("k.cu"), NULL});
    cr_assert_eq(r.status, 1, "findings expected: %s", r.err);
    cr_assert_str_eq(r.out, "", "the report goes to --output only");
    hms_run_free(&r);
    size_t len;
    char *html = hms_read_file(hms_scratch_at("report.html"), &len);
    cr_assert(html && len > 0);
    return html;
}

static size_t count(const char *s, const char *what)
{
    size_t n = 0;
    for (const char *p = strstr(s, what); p; p = strstr(p + 1, what))
        n++;
    return n;
}

Test(report_html, self_contained_and_escaped)
{
    char *html = make_report();
    cr_assert(!strncmp(html, "<!DOCTYPE html>", 15));
    /* Nothing fetched: no scripts, stylesheets, images or frames by URL. */
    cr_assert_null(strstr(html, "<script"));
    cr_assert_null(strstr(html, "<link"));
    cr_assert_null(strstr(html, " src="));
    cr_assert_null(strstr(html, "url("));
    cr_assert_eq(count(html, "http"), count(html, "http://www.w3.org/2000/svg"),
                 "the only URL is the SVG namespace");
    /* The source comment, escaped. */
    cr_assert(strstr(html, "// n &lt; 1024 &amp; &quot;quoted&quot;"));
    cr_assert_null(strstr(html, "n < 1024"));
    /* Two kernels, each with its section and roofline. */
    cr_assert_eq(count(html, "<section class=\"kernel\""), 2);
    cr_assert_eq(count(html, "<svg class=\"roofline\""), 2);
    free(html);
}

Test(report_html, escape_helper)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    hms_html_escape(m, "a<b>&\"c'd", 9);
    fclose(m);
    cr_assert_str_eq(buf, "a&lt;b&gt;&amp;&quot;c&#39;d");
    free(buf);
}

/* Path of chromium, or NULL. */
static const char *find_chromium(void)
{
    static const char *const names[] = {"/usr/bin/chromium", "/usr/bin/chromium-browser",
                                        "/usr/lib/chromium/chromium"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (access(names[i], X_OK) == 0)
            return names[i];
    return NULL;
}

/* Runs headless Chromium on the report with no network at all; `mode` is
 * "--dump-dom" or "--screenshot=<png>". Returns its exit status. */
static int chromium(const char *mode, const char *out, const char *err)
{
    const char *bin = find_chromium();
    char cmd[4 * PATH_MAX];
    snprintf(cmd, sizeof cmd,
             "timeout 120 '%s' --headless --no-sandbox --disable-gpu --no-first-run "
             "--user-data-dir='%s' --host-resolver-rules='MAP * ~NOTFOUND' "
             "--enable-logging=stderr --v=0 --window-size=1200,1600 %s 'file://%s' >'%s' 2>'%s'",
             bin, hms_scratch_at("profile"), mode, hms_scratch_at("report.html"), out, err);
    int rc = system(cmd);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

Test(report_html, renders_in_headless_chromium)
{
    if (!find_chromium())
        cr_skip_test("chromium not installed (apt-get install chromium, see "
                     "scripts/install-deps.sh); the HTML rendering test is skipped");
    free(make_report());
    char dom_path[PATH_MAX + 64], err_path[PATH_MAX + 64];
    snprintf(dom_path, sizeof dom_path, "%s", hms_scratch_at("dom.html"));
    snprintf(err_path, sizeof err_path, "%s", hms_scratch_at("chromium.log"));
    int rc = chromium("--dump-dom", dom_path, err_path);
    size_t len;
    char *log = hms_read_file(err_path, &len);
    cr_assert_eq(rc, 0, "chromium failed (%d):\n%s", rc, log ? log : "");
    char *dom = hms_read_file(dom_path, &len);
    cr_assert(dom && strstr(dom, "</html>"), "no DOM:\n%s", log ? log : "");
    /* Loaded without errors: no console message, no failed load. */
    cr_assert_null(strstr(log, "CONSOLE"), "%s", log);
    cr_assert_null(strstr(log, "net::ERR_"), "%s", log);
    cr_assert_null(strstr(log, "Uncaught"), "%s", log);
    /* The elements the page promises, as Chromium parsed them. */
    const char *const expected[] = {
        "<nav id=\"index\">",
        "<table class=\"ranking\">",
        "href=\"#k0-0\"",
        "href=\"#k0-1\"",
        "<section class=\"kernel\"",
        "<svg class=\"roofline\"",
        "class=\"kernel-point",
        "<polyline class=\"roof\"",
        "<td class=\"heat\" style=",
        "<div class=\"finding warning\">",
        "hms-shared-bank-conflict",
        "hms-uncoalesced-access",
        "<div class=\"fixit\">",
        "tile[32][32 + 1]",
        "<ul class=\"notes\">",
        "<table class=\"placements\">",
        "<table class=\"source\">",
    };
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++)
        cr_assert(strstr(dom, expected[i]), "'%s' missing from the rendered page", expected[i]);
    free(dom);
    free(log);

    /* And it paints: a PNG comes out. */
    char png[PATH_MAX + 64];
    snprintf(png, sizeof png, "--screenshot='%s'", hms_scratch_at("shot.png"));
    rc = chromium(png, hms_scratch_at("shot.out"), err_path);
    cr_assert_eq(rc, 0);
    char *img = hms_read_file(hms_scratch_at("shot.png"), &len);
    cr_assert(img && len > 1000 && !memcmp(img, "\x89PNG", 4));
    free(img);
}

/* y of the roof polyline at x (the points are in drawing order). */
static double roof_y_at(const char *svg, double x)
{
    const char *p = strstr(svg, "<polyline class=\"roof\" points=\"");
    cr_assert(p);
    p += strlen("<polyline class=\"roof\" points=\"");
    double px[3], py[3];
    cr_assert_eq(
        sscanf(p, "%lf,%lf %lf,%lf %lf,%lf", &px[0], &py[0], &px[1], &py[1], &px[2], &py[2]), 6);
    for (int i = 0; i < 2; i++)
        if (x >= px[i] && x <= px[i + 1])
            return py[i] + (py[i + 1] - py[i]) * (x - px[i]) / (px[i + 1] - px[i]);
    cr_assert_fail("x %.1f outside the roof", x);
    return 0;
}

/* A DRAM-bound kernel sits on the DRAM slope; a latency-bound one (its
 * time above every bound) below the roof. SVG y grows downwards. */
Test(report_html, roofline_point_never_above_the_roof)
{
    const double times[] = {1000, 4000};
    for (size_t i = 0; i < 2; i++) {
        hms_kernel_report k = {0};
        k.model.predicted_time = times[i];
        k.model.bound_dram = 1000;
        k.model.flops = 2.0e6;
        k.model.binding = i == 0 ? "dram" : "model";
        char *svg = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&svg, &len);
        hms_write_roofline_svg(&k, "h100", m);
        fclose(m);
        const char *c = strstr(svg, "class=\"kernel-point");
        cr_assert(c, "%s", svg);
        double cx, cy;
        cr_assert_eq(sscanf(strstr(c, "cx=\"") + 4, "%lf\" cy=\"%lf", &cx, &cy), 2);
        double roof = roof_y_at(svg, cx);
        if (i == 0)
            cr_assert_float_eq(cy, roof, 0.5, "on the DRAM slope: %s", svg);
        else
            cr_assert_gt(cy, roof + 10, "below the roof: %s", svg);
        free(svg);
    }
}
