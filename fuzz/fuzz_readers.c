/* libFuzzer target over the readers of user files: the first byte picks
 * the reader, the rest is its input — a .hms-lint config, an architecture
 * YAML (then used to analyse a small fixed kernel, so a value that passes
 * validation but breaks the models is found too) or a --baseline report. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyzer/report/baseline.h"
#include "analyzer/cli/config.h"
#include "passes/analyze.h"
#include "passes/ir/ir.h"
#include "testsuite/support/ir_fixtures.h"
#include "runtime/arch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A tiled transpose (global and shared accesses) from the test fixtures. */
static ir_kernel *fixed_kernel(void)
{
    static ir_kernel *k;
    if (!k)
        k = fx_transpose_tiled(4, 128, false); /* small: an instrumented run stays quick */
    return k;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const char *text = (const char *)data + 1;
    size_t len = size - 1;
    char err[600];
    switch (data[0] % 3) {
    case 0: {
        hms_config c;
        hms_file_error ferr;
        if (hms_config_parse(text, len, "fuzz/.hms-lint", &c, &ferr))
            hms_config_free(&c);
        break;
    }
    case 1: {
        hms_arch *a = calloc(1, sizeof *a);
        if (a && hms_arch_parse(text, len, "fuzz.yaml", a, err, sizeof err)) {
            hms_analysis_options ao = {
                .arch = a, .placement_threshold = HMS_DEFAULT_PLACEMENT_THRESHOLD, .max_blocks = 2};
            hms_kernel_report kr = {0};
            hms_analyze_kernel(fixed_kernel(), &ao, &kr);
            hms_kernel_report_free(&kr);
        }
        free(a);
        break;
    }
    default: {
        static char path[64];
        if (!path[0])
            snprintf(path, sizeof path, "/tmp/hms-fuzz-baseline-%ld.json", (long)getpid());
        FILE *f = fopen(path, "wb");
        if (!f)
            abort();
        fwrite(text, 1, len, f);
        fclose(f);
        hms_file_error berr;
        hms_baseline *b = hms_baseline_load(path, &berr);
        hms_baseline_free(b);
        break;
    }
    }
    return 0;
}
