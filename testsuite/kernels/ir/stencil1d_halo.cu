// 1D stencil with a shared tile and halos loaded by the first RADIUS threads
// (the classic "CUDA by example" stencil).
#include <cuda_runtime.h>

#define RADIUS 3
#define BLOCK_SIZE 256

__global__ void stencil_1d(const int *in, int *out, int n)
{
    __shared__ int temp[BLOCK_SIZE + 2 * RADIUS];
    int gindex = threadIdx.x + blockIdx.x * blockDim.x;
    int lindex = threadIdx.x + RADIUS;
    // EXPECT-ACCESS: +2 load in global 4 unguarded index=threadIdx.x + blockIdx.x * blockDim.x
    // EXPECT-ACCESS: +1 store temp shared 4 mapping=in index=threadIdx.x + 3
    temp[lindex] = in[gindex];
    if (threadIdx.x < RADIUS) {
        // EXPECT-ACCESS: +2 load in global 4 guard={threadIdx.x < 3} index=threadIdx.x + blockIdx.x * blockDim.x - 3
        // EXPECT-ACCESS: +1 store temp shared 4 guard={threadIdx.x < 3} mapping=in index=threadIdx.x
        temp[lindex - RADIUS] = in[gindex - RADIUS];
        // EXPECT-ACCESS: +2 load in global 4 guard={threadIdx.x < 3} index=threadIdx.x + blockIdx.x * blockDim.x + 256
        // EXPECT-ACCESS: +1 store temp shared 4 mapping=in index=threadIdx.x + 259
        temp[lindex + BLOCK_SIZE] = in[gindex + BLOCK_SIZE];
    }
    __syncthreads();
    int result = 0;
    for (int offset = -RADIUS; offset <= RADIUS; offset++)
        result += temp[lindex + offset];
    // EXPECT-LOOP: -2 var=offset trip=7
    // EXPECT-ACCESS: -2 load temp shared 4 loops=offset index=threadIdx.x + 3 + offset
    // EXPECT-ACCESS: +1 store out global 4 index=threadIdx.x + blockIdx.x * blockDim.x
    out[gindex] = result;
    // EXPECT-ARRAY: temp shared int[262] 4B read written
    // EXPECT-MAPPING: temp <- in
    // n / 256 folds through the local n = 1 << 20: grid 4096
    // EXPECT-LAUNCH: grid=(4096,1,1) block=(256,1,1) source=host-call
    // EXPECT-PARAM: n int = 1048576 (host-call)
    // EXPECT-NO-LIMIT
}

int main()
{
    int n = 1 << 20;
    int *d_in, *d_out;
    stencil_1d<<<n / BLOCK_SIZE, BLOCK_SIZE>>>(d_in, d_out, n);
    return 0;
}
