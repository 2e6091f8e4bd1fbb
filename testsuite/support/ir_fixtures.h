/* Hand-built kernel IR for tests of the passes: terse constructors over
 * passes/ir/ir.h and a few whole kernels (copy, transposes, stencil) written as
 * the front end would build them from the CUDA shown next to each. */
#ifndef HMS_TEST_IR_FIXTURES_H
#define HMS_TEST_IR_FIXTURES_H

#include <stdbool.h>
#include <stdint.h>

#include "passes/ir/ir.h"

/* ---- constructors --------------------------------------------------------------- */

/* A kernel with launch grid(gx,gy,1) block(bx,by,1) from the command line,
 * located in "fixture.cu". */
ir_kernel *fx_kernel(const char *name, uint32_t gx, uint32_t gy, uint32_t bx, uint32_t by);
/* A scalar parameter (has_value when known) or local; returns the var id. */
int fx_param(ir_kernel *k, const char *name, bool known, int64_t value);
int fx_local(ir_kernel *k, const char *name);
/* An array; dims may be NULL when ndims is 0. */
int fx_array(ir_kernel *k, const char *name, hms_space space, int elem_bytes, int ndims,
             const int64_t *dims);

ir_expr *fx_c(ir_kernel *k, int64_t v);
ir_expr *fx_s(ir_kernel *k, ir_sym s);
ir_expr *fx_v(ir_kernel *k, int var);
ir_expr *fx_op(ir_kernel *k, ir_op op, ir_expr *a, ir_expr *b);
ir_expr *fx_add(ir_kernel *k, ir_expr *a, ir_expr *b);
ir_expr *fx_mul(ir_kernel *k, ir_expr *a, ir_expr *b);
ir_expr *fx_lt(ir_kernel *k, ir_expr *a, ir_expr *b);
/* blockIdx.x * blockDim.x + threadIdx.x (and .y) */
ir_expr *fx_gid_x(ir_kernel *k);
ir_expr *fx_gid_y(ir_kernel *k);

/* An access of `width` bytes, element stride = the array's element size,
 * at source line `line`. */
ir_stmt *fx_access(ir_kernel *k, int array, hms_access_kind kind, ir_expr *index, int width,
                   unsigned line);
ir_stmt *fx_assign(ir_kernel *k, int var, ir_expr *value);
ir_stmt *fx_if(ir_kernel *k, ir_expr *cond, ir_stmt *then, ir_stmt *els);
ir_stmt *fx_loop(ir_kernel *k, ir_stmt *init, ir_expr *cond, ir_stmt *step, ir_stmt *body,
                 unsigned line);
ir_stmt *fx_simple(ir_kernel *k, ir_stmt_kind kind); /* SYNC, BREAK, CONTINUE, RETURN */
/* A block of the given statements (NULL-terminated). */
ir_stmt *fx_block(ir_kernel *k, ...);
/* Appends to the kernel body. */
void fx_body(ir_kernel *k, ir_stmt *s);

/* ---- whole kernels ---------------------------------------------------------------- */

/* i = gid.x; if (i < n) out[i] = in[i];          sites: 0 load in, 1 store out */
ir_kernel *fx_copy1d(uint32_t grid, uint32_t block, int64_t n);

/* block (32, 8): x = gid.x, y = gid.y;
 * out[x * H + y] = in[y * W + x];                sites: 0 load in, 1 store out */
ir_kernel *fx_transpose_naive(uint32_t gx, uint32_t gy, int64_t W, int64_t H);

/* block (32, 8), __shared__ float tile[32][33]:
 *   x = bx*32+tx; y = by*32+ty;
 *   for (j = 0; j < 32; j += 8) tile[ty+j][tx] = in[(y+j)*W + x];   sites 0 (load), 1 (store)
 *   __syncthreads();
 *   [extra: t = in[y*W + x + 1];]                                    site 2 when extra
 *   x = by*32+tx; y = bx*32+ty;
 *   for (j = 0; j < 32; j += 8) out[(y+j)*W + x] = tile[tx][ty+j];   sites (load, store)
 * with mapping {tile, in, fetch 0, access 1}. A square W x W matrix. */
ir_kernel *fx_transpose_tiled(uint32_t g, int64_t W, bool extra_global_read);

/* block (32, 8): x = gid.x, y = gid.y;
 * if (x > 0 && x < W-1 && y > 0 && y < H-1)
 *   out[y*W+x] = in[y*W+x-1] + in[y*W+x+1] + in[(y-1)*W+x] + in[(y+1)*W+x];
 * sites 0..3 loads, 4 store. */
ir_kernel *fx_stencil(uint32_t gx, uint32_t gy, int64_t W, int64_t H);

#endif
