/* Stream generation cost against grid size: traces a naive transpose
 * (block 32x8, one element per thread) on square grids of 256^2 .. 16384^2
 * blocks and prints the best of several runs per grid and the ratio of the
 * largest grid's time to the smallest's. Block sampling should keep the
 * ratio near 1.
 *
 * Built by CMake as build/bench/bench_stream. By hand, from the repository root:
 *   cc -std=c17 -O2 -I. bench/bench_stream.c build/libhms_passes.a \
 *      build/libhms_runtime.a -lyaml -lm -o bench_stream */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "passes/ir/ir.h"
#include "passes/trace/stream_gen.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* x = blockIdx.x*32 + threadIdx.x; y = blockIdx.y*8 + threadIdx.y;
 * out[x*H + y] = in[y*W + x]; */
static ir_kernel *transpose(uint32_t g)
{
    ir_kernel *k = ir_kernel_new("transpose");
    int64_t W = (int64_t)g * 32, H = (int64_t)g * 8;
    k->launch =
        (ir_launch){{g, g, 1}, {32, 8, 1}, 0, IR_LAUNCH_CLI, {0}, NULL, NULL, false, NULL, 0};
    ir_array arr = {0};
    arr.space = HMS_SPACE_GLOBAL;
    arr.elem_bytes = 4;
    arr.base_array = -1;
    arr.name = "in";
    int in = ir_add_array(k, &arr);
    arr.name = "out";
    int out = ir_add_array(k, &arr);
    ir_var v = {0};
    v.kind = IR_VAR_LOCAL;
    v.name = "x";
    int x = ir_add_var(k, &v);
    v.name = "y";
    int y = ir_add_var(k, &v);
    ir_stmt *sx = ir_stmt_new(k, IR_S_ASSIGN, (ir_loc){0});
    sx->var = x;
    sx->value = ir_binary(k, IR_OP_ADD,
                          ir_binary(k, IR_OP_MUL, ir_symbol(k, IR_SYM_BID_X), ir_const(k, 32)),
                          ir_symbol(k, IR_SYM_TID_X));
    ir_stmt *sy = ir_stmt_new(k, IR_S_ASSIGN, (ir_loc){0});
    sy->var = y;
    sy->value =
        ir_binary(k, IR_OP_ADD, ir_binary(k, IR_OP_MUL, ir_symbol(k, IR_SYM_BID_Y), ir_const(k, 8)),
                  ir_symbol(k, IR_SYM_TID_Y));
    ir_stmt_append(k, k->body, sx);
    ir_stmt_append(k, k->body, sy);
    ir_access a = {0};
    a.kind = HMS_ACCESS_LOAD;
    a.width = a.elem_stride = 4;
    a.mapping = -1;
    a.array = in;
    a.index = ir_binary(k, IR_OP_ADD, ir_binary(k, IR_OP_MUL, ir_var_ref(k, y), ir_const(k, W)),
                        ir_var_ref(k, x));
    ir_stmt_append(k, k->body, ir_access_new(k, &a, (ir_loc){0}));
    a.kind = HMS_ACCESS_STORE;
    a.array = out;
    a.index = ir_binary(k, IR_OP_ADD, ir_binary(k, IR_OP_MUL, ir_var_ref(k, x), ir_const(k, H)),
                        ir_var_ref(k, y));
    ir_stmt_append(k, k->body, ir_access_new(k, &a, (ir_loc){0}));
    return k;
}

int main(void)
{
    const uint32_t grids[] = {256, 1024, 4096, 16384};
    const int runs = 5;
    double best[4];
    hms_trace_options o = {0};
    o.first_wave_blocks = 132 * 8; /* an H100-sized first wave */
    for (int g = 0; g < 4; g++) {
        ir_kernel *k = transpose(grids[g]);
        best[g] = 1e9;
        hms_kernel_trace t;
        for (int r = 0; r < runs; r++) {
            double t0 = now();
            if (!hms_trace_kernel(k, &o, &t)) {
                fprintf(stderr, "bench_stream: %s\n", t.error);
                hms_kernel_trace_free(&t);
                ir_kernel_free(k);
                return 1;
            }
            double dt = now() - t0;
            if (dt < best[g])
                best[g] = dt;
            if (r + 1 < runs)
                hms_kernel_trace_free(&t);
        }
        printf("grid %5u x %-5u  blocks %12llu  simulated %4llu  records %6zu  %8.3f ms\n",
               grids[g], grids[g], (unsigned long long)t.blocks_total,
               (unsigned long long)t.blocks_simulated, t.stream.n, best[g] * 1e3);
        hms_kernel_trace_free(&t);
        ir_kernel_free(k);
    }
    printf("time ratio 16384^2 / 256^2 grids: %.2f\n", best[3] / best[0]);
    return 0;
}
