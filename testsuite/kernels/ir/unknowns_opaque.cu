// What the IR cannot know, each made an explicit unknown with a limit: a
// call to a function whose body is not visible, a pointer loaded from
// memory, an index computed in floating point, a recursive device function,
// inline assembly, and an address built from an integer.
#include <cuda_runtime.h>

extern __device__ int opaque_index(int i);
extern __device__ void opaque_fill(float *p, int n);

__device__ int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }

__global__ void unknowns(float **rows, float *a, float *out, float scale, unsigned long long addr)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[opaque_index(i)] = 1.0f;
    // EXPECT-ACCESS: -1 store out global 4 index=unknown(result of 'opaque_index', whose definition is not visible)
    // EXPECT-LIMIT: -2 address of out[opaque_index(i)] depends on an unknown value: result of 'opaque_index', whose definition is not visible
    opaque_fill(a, 16);
    // EXPECT-LIMIT: -1 pointer to 'a' passed to 'opaque_fill', whose definition is not visible
    float *row = rows[blockIdx.x];
    row[threadIdx.x] = 0.0f;
    // EXPECT-ACCESS: -2 load rows global 8 index=blockIdx.x
    // EXPECT-ACCESS: -2 store <unknown> global 4 index=unknown(pointer loaded from memory: rows[blockIdx.x]) + threadIdx.x
    // EXPECT-LIMIT: -4 pointer loaded from memory: rows[blockIdx.x]
    a[(int)(i * scale)] = 2.0f;
    // EXPECT-ACCESS: -1 store a global 4 index=unknown(non-integer value)
    // EXPECT-LIMIT: -2 address of a[(int)(i * scale)] depends on an unknown value
    out[fact(3)] = 0;
    // fact(3) inlines once, then meets itself
    // EXPECT-LIMIT: @unknowns 10 recursive call to 'fact' is not followed
    // EXPECT-ACCESS: -3 store out global 4 index=3 * unknown(result of 'fact', which is not inlined)
    asm volatile("membar.gl;");
    // EXPECT-LIMIT: -1 inline assembly is not modelled
    float *p = (float *)addr;
    p[i] = 1.0f;
    // EXPECT-LIMIT: -2 integer converted to an address
    // EXPECT-ARRAY: <unknown> global ? 1B
}
