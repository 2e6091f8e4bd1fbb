/* libFuzzer target over the front end and the passes: the input is a .cu
 * file, parsed with libclang, built into kernel IR and analysed for the
 * default target, as `hms-lint file.cu` does (without the report writers). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "analyzer/frontend/ir_build.h"
#include "analyzer/cli/frontend_inputs.h"
#include "analyzer/frontend/parse.h"
#include "passes/analyze.h"
#include "runtime/arch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[64];
    if (!path[0]) {
        snprintf(path, sizeof path, "/tmp/hms-fuzz-%ld.cu", (long)getpid());
        setenv("LIBCLANG_NOTHREADS", "1", 0);
    }
    FILE *f = fopen(path, "wb");
    if (!f)
        abort();
    fwrite(data, 1, size, f);
    fclose(f);

    char *argv[] = {"hms-lint", path, NULL};
    hms_options o;
    if (hms_options_parse(2, argv, &o) != 0)
        abort();
    char err[256];
    const hms_arch *arch = hms_arch_get(HMS_ARCH_DEFAULT, err, sizeof err);
    hms_frontend_options fo = hms_frontend_inputs(&o, arch);
    hms_tu tu;
    if (hms_parse_file(&fo, path, &tu, NULL)) {
        ir_kernel **kernels = NULL;
        size_t nk = hms_build_kernels(&tu, &fo, &kernels, NULL);
        /* few blocks: an instrumented run stays fast enough to explore */
        hms_analysis_options ao = {
            .arch = arch, .placement_threshold = HMS_DEFAULT_PLACEMENT_THRESHOLD, .max_blocks = 2};
        for (size_t i = 0; i < nk; i++) {
            hms_kernel_report kr = {0};
            hms_analyze_kernel(kernels[i], &ao, &kr);
            hms_kernel_report_free(&kr);
        }
        hms_free_kernels(kernels, nk);
        hms_tu_dispose(&tu);
    }
    hms_options_free(&o);
    return 0;
}
