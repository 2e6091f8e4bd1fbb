/* The roofline chart of the HTML report: log-log FLOP per cycle against
 * FLOP per DRAM byte, the DRAM slope and the FP32 ceiling of the target,
 * and the kernel's point at its predicted time. All figures are the
 * model's estimates. The target's peaks come from the architecture
 * (runtime/roofline.h); the kernel's DRAM bytes from its DRAM bound. */
#include <math.h>
#include <string.h>

#include "analyzer/report/report_html.h"
#include "runtime/arch.h"
#include "runtime/roofline.h"

#define W 420.0
#define H 260.0
#define PAD_L 60.0
#define PAD_B 40.0
#define PAD_T 16.0
#define PAD_R 16.0

typedef struct {
    double x0, x1, y0, y1; /* log10 ranges */
} axes;

static double px(const axes *a, double x)
{
    return PAD_L + (log10(x) - a->x0) / (a->x1 - a->x0) * (W - PAD_L - PAD_R);
}

static double py(const axes *a, double y)
{
    return H - PAD_B - (log10(y) - a->y0) / (a->y1 - a->y0) * (H - PAD_B - PAD_T);
}

void hms_write_roofline_svg(const hms_kernel_report *k, const char *arch_name, FILE *out)
{
    const hms_model_figures *m = &k->model;
    char err[256];
    const hms_arch *arch = arch_name ? hms_arch_get(arch_name, err, sizeof err) : NULL;
    double bw = arch ? hms_roofline_dram_bytes_per_cycle(arch) : 0;
    double peak = arch ? hms_roofline_flops_per_cycle_per_sm(arch) * arch->sm_count : 0;
    double t = m->predicted_time;
    if (!(bw > 0) || !(peak > 0) || !(t > 0)) {
        fputs("<p class=\"roofline-missing\">No roofline: the target's peaks or the kernel's "
              "predicted time are unknown.</p>\n",
              out);
        return;
    }
    double bytes = m->bound_dram > 0 ? m->bound_dram * bw : 0;
    double flops = m->flops > 0 ? m->flops : 0;
    double perf = flops / t; /* FLOP per cycle, whole GPU */
    double ridge = peak / bw;
    double ai = bytes > 0 ? flops / bytes : 0;
    axes a;
    a.x0 = floor(log10(ridge)) - 3;
    a.x1 = ceil(log10(ridge)) + 2;
    a.y1 = ceil(log10(peak)) + 1;
    a.y0 = a.y1 - 6;
    double xmin = pow(10, a.x0), xmax = pow(10, a.x1), ymin = pow(10, a.y0);
    double pxv = ai > xmin ? (ai < xmax ? ai : xmax) : xmin;
    double pyv = perf > ymin ? perf : ymin;
    fprintf(out,
            "<svg class=\"roofline\" role=\"img\" viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" "
            "height=\"%.0f\" xmlns=\"http://www.w3.org/2000/svg\">\n"
            "<title>Roofline of ",
            W, H, W, H);
    hms_html_escape(out, arch->name, strlen(arch->name));
    fprintf(out, " (estimate): %.3g FLOP/cycle at %.3g FLOP/byte; binding bound: %s</title>\n",
            perf, ai, m->binding ? m->binding : "?");
    fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" class=\"plot\"/>\n",
            PAD_L, PAD_T, W - PAD_L - PAD_R, H - PAD_B - PAD_T);
    for (double e = a.x0; e <= a.x1; e++)
        fprintf(out,
                "<text x=\"%.1f\" y=\"%.1f\" class=\"tick\" text-anchor=\"middle\">1e%d</text>\n",
                px(&a, pow(10, e)), H - PAD_B + 14, (int)e);
    for (double e = a.y0; e <= a.y1; e++)
        fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" class=\"tick\" text-anchor=\"end\">1e%d</text>\n",
                PAD_L - 4, py(&a, pow(10, e)) + 4, (int)e);
    fprintf(out,
            "<text x=\"%.1f\" y=\"%.1f\" class=\"axis\" text-anchor=\"middle\">FLOP per DRAM "
            "byte</text>\n<text x=\"12\" y=\"%.1f\" class=\"axis\" text-anchor=\"middle\" "
            "transform=\"rotate(-90 12 %.1f)\">FLOP per cycle</text>\n",
            (W + PAD_L) / 2, H - 6, (H - PAD_B) / 2, (H - PAD_B) / 2);
    /* The roof: DRAM slope up to the ridge, then the FP32 ceiling. */
    double x_start = xmin, y_start = xmin * bw;
    if (y_start < ymin) {
        x_start = ymin / bw;
        y_start = ymin;
    }
    fprintf(out,
            "<polyline class=\"roof\" points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\"/>\n"
            "<text x=\"%.1f\" y=\"%.1f\" class=\"roof-label\">FP32 peak %.3g FLOP/cycle</text>\n"
            "<text x=\"%.1f\" y=\"%.1f\" class=\"roof-label\">DRAM %.3g B/cycle</text>\n",
            px(&a, x_start), py(&a, y_start), px(&a, ridge), py(&a, peak), px(&a, xmax),
            py(&a, peak), px(&a, ridge) + 4, py(&a, peak) - 4, peak, PAD_L + 6, py(&a, y_start) - 6,
            bw);
    fprintf(out,
            "<circle class=\"kernel-point binding-%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"5\"/>\n"
            "<text x=\"%.1f\" y=\"%.1f\" class=\"point-label\">%s-bound%s</text>\n</svg>\n",
            m->binding ? m->binding : "model", px(&a, pxv), py(&a, pyv), px(&a, pxv) + 8,
            py(&a, pyv) + 4, m->binding ? m->binding : "?",
            flops > 0 ? "" : " (no FLOPs counted: drawn at the axis)");
}
