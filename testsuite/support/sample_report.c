/* See sample_report.h. Columns below were counted by hand on
 * hms_sample_source (1-based bytes, end exclusive). */
#include "testsuite/support/sample_report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char hms_sample_source[] = "__global__ void transpose(float *a)\n"
                                 "{\n"
                                 "\t__shared__ float tile[16][16];\n"
                                 "    tile[threadIdx.x][threadIdx.y] = a[threadIdx.x];\n"
                                 "}\n";

char *hms_sample_write_source(void)
{
    char *path = strdup("/tmp/hms-sample-XXXXXX.cu");
    int fd = path ? mkstemps(path, 3) : -1;
    if (fd < 0) {
        free(path);
        return NULL;
    }
    size_t len = strlen(hms_sample_source);
    bool ok = write(fd, hms_sample_source, len) == (ssize_t)len;
    close(fd);
    if (!ok) {
        unlink(path);
        free(path);
        return NULL;
    }
    return path;
}

static void sample_kernel(hms_kernel_report *k, const char *src)
{
    memset(k, 0, sizeof *k);
    k->name = strdup("transpose");
    k->line = 1;
    k->launch = (hms_launch_report){{64, 64, 1}, {16, 16, 1}, 128, "annotation", NULL, NULL, false};
    k->sampled = true;
    k->occupancy_blocks_per_sm = 8;
    k->occupancy_warps_per_sm = 64;
    k->occupancy_limiter = "warps";
    k->registers_per_thread = 64;
    k->registers_source = "estimated from the IR";

    k->naccesses = 2;
    k->accesses = calloc(2, sizeof *k->accesses);
    k->accesses[0] = (hms_access_metrics){4,   38,  strdup("a"), "global", "load", 4,   4096,
                                          4.0, 1.0, -1,          -1,       412.5,  true};
    k->accesses[1] = (hms_access_metrics){4,  5,  strdup("tile"), "shared", "store", 4,    2048.5,
                                          -1, -1, 16.0,           -1,       90.0,    false};

    k->nplacements = 1;
    k->placements = calloc(1, sizeof *k->placements);
    hms_placement *p = &k->placements[0];
    p->array = strdup("a");
    p->current = "global";
    p->best = "texture1d";
    p->noptions = 3;
    p->options = calloc(3, sizeof *p->options);
    p->options[0] = (hms_placement_option){"global", true, NULL, 1000.0, 1.0};
    p->options[1] =
        (hms_placement_option){"texture1d", true, strdup("read-only, 1D locality"), 800.0, 1.25};
    p->options[2] =
        (hms_placement_option){"constant", false, strdup("16 KB > 64 KB limit"), -1, -1};

    k->model = (hms_model_figures){.data_reuse = 0.5,
                                   .lat_hiding = 1.5,
                                   .bw_util = 0.25,
                                   .ch_skew = 2.0,
                                   .shm_eff = 0.0625,
                                   .branch_eff = 1.0,
                                   .mpe = 0.01171875,
                                   .t_comp = 1200,
                                   .t_mem = 3400,
                                   .t_overlap = 600,
                                   .mlp = 3,
                                   .amat = 250.5,
                                   .camat = 1.75,
                                   .c_h = 2.5,
                                   .c_m = 3.25,
                                   .pmr = 0.125,
                                   .pamp = 40.0,
                                   .dram_row_hit_rate = -1,
                                   .occupancy = 1.0,
                                   .bound = "memory",
                                   .predicted_time = 4000,
                                   .binding = "dram",
                                   .bound_model = 3400,
                                   .bound_dram = 4000,
                                   .bound_issue = 120,
                                   .dram_gbs = 3000,
                                   .dram_peak_gbs = 3352,
                                   .flops = 65536};

    hms_finding *f =
        hms_kernel_add_finding(k, "hms-shared-bank-conflict", HMS_SEV_WARNING, src, 4, 5,
                               "16-way bank conflict: %d wavefronts per request "
                               "where %d would do",
                               16, 1);
    f->end_line = 4;
    f->end_col = 35;
    hms_finding_add_note(f, src, 3, 19, "tile declared here");
    hms_finding_add_fixit(f, src, 3, 28, 3, 30, "17");

    f = hms_kernel_add_finding(k, "hms-memory-bound", HMS_SEV_NOTE, src, 1, 17,
                               "kernel is memory-bound");

    f = hms_kernel_add_finding(k, "hms-placement", HMS_SEV_ERROR, src, 4, 38,
                               "move 'a' to texture1d: predicted 1.25x faster");
    f->end_line = 4;
    f->end_col = 52;
    hms_finding_add_note(f, "other.cuh", 2, 1, "also read here");
}

void hms_sample_report(hms_report *r, const char *src)
{
    memset(r, 0, sizeof *r);
    r->tool_name = "hms-lint";
    r->tool_version = "9.9.9";
    r->arch = "kepler";
    r->nfiles = 2;
    r->files = calloc(2, sizeof *r->files);
    r->files[0].path = strdup(src);
    r->files[0].nkernels = 1;
    r->files[0].kernels = calloc(1, sizeof *r->files[0].kernels);
    sample_kernel(&r->files[0].kernels[0], src);
    r->files[1].path = strdup("missing.cu");
    hms_file_add_error(&r->files[1], "missing.cu: No such file or directory");
}

hms_kernel_report *hms_one_kernel_report(hms_report *r, const char *path, const char *kernel)
{
    memset(r, 0, sizeof *r);
    r->tool_name = "hms-lint";
    r->tool_version = "1";
    r->arch = "h100";
    r->nfiles = 1;
    r->files = calloc(1, sizeof *r->files);
    r->files[0].path = strdup(path);
    r->files[0].nkernels = 1;
    r->files[0].kernels = calloc(1, sizeof *r->files[0].kernels);
    r->files[0].kernels[0].name = strdup(kernel);
    return &r->files[0].kernels[0];
}
