// The read-only path: __ldg on a pointer and on &a[i], const __restrict__
// parameters, and a plain pointer for comparison.
#include <cuda_runtime.h>

// An annotation in the comment before a kernel applies to it:
// hms-lint: launch grid(1024) block(128)
// hms-lint: param n=131072
__global__ void readonly_paths(const float *__restrict__ a, const float *b, const float *c,
                               float *__restrict__ out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = __ldg(&b[i]);
    // EXPECT-ACCESS: -1 load b global 4 ldg index=blockIdx.x * blockDim.x + threadIdx.x
    float y = __ldg(c + 2 * i);
    // EXPECT-ACCESS: -1 load c global 4 ldg index=2 * (blockIdx.x * blockDim.x + threadIdx.x)
    out[i] = a[i] + x + y;
    // EXPECT-ACCESS: -1 load a global 4 index=blockIdx.x * blockDim.x + threadIdx.x
    // EXPECT-ARRAY: a global float 4B param const restrict read
    // EXPECT-ARRAY: b global float 4B param const read ldg
    // EXPECT-ARRAY: out global float 4B param restrict written
    // EXPECT-NO-LIMIT: @readonly_paths
    // EXPECT-LAUNCH: grid=(1024,1,1) block=(128,1,1) source=annotation
    // EXPECT-PARAM: n int = 131072 (annotation)
}
