// Block sum reduction of 256 floats per block, three ways (after the CUDA
// samples' reduction steps): interleaved addressing with a divergent branch,
// interleaved addressing with a strided index (no divergence, bank
// conflicts), and sequential addressing. For hms-lint's check tests
// (expectation syntax: see transpose.cu). By hand, interleaved: the add runs
// with all 8 warps for s = 1..16, then with 4, 2, 1 warps: 47 requests per
// block for 255 active lanes, which fill 12 warps (17% of the lanes busy).
// EXPECT-ARCHES: h100 gt200
#include <cuda_runtime.h>

#define THREADS 256
#define BLOCKS 1024

__global__ void reduceInterleaved(float *out, const float *in)
{
    __shared__ float sdata[THREADS];
    unsigned int tid = threadIdx.x;
    sdata[tid] = in[blockIdx.x * blockDim.x + tid];
    __syncthreads();
    for (unsigned int s = 1; s < blockDim.x; s *= 2) {
        if (tid % (2 * s) == 0) // EXPECT-WARNING: @+1 hms-divergent-access 17% of the lanes active in this store to 'sdata': 47 requests per block where 12 would do
            sdata[tid] += sdata[tid + s]; // EXPECT-WARNING: hms-divergent-access thread-dependent branch leaves 17% of the lanes active in this load of 'sdata': 47 requests per block where 12 would do with the active lanes packed into whole warps (3.9x fewer)
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}

__global__ void reduceStrided(float *out, const float *in)
{
    __shared__ float sdata[THREADS];
    unsigned int tid = threadIdx.x;
    sdata[tid] = in[blockIdx.x * blockDim.x + tid];
    __syncthreads();
    for (unsigned int s = 1; s < blockDim.x; s *= 2) { // EXPECT-NO: @+3 hms-divergent-access
        int index = 2 * s * tid;
        if (index < blockDim.x)
            // EXPECT-WARNING-GT200: @+1 hms-shared-bank-conflict 4.2-way bank conflict (up to 16-way): 6.6 wavefronts per request where 1.6 would do (lanes 2 * s floats apart in 'sdata')
            sdata[index] += sdata[index + s]; // EXPECT-WARNING-H100: hms-shared-bank-conflict 3.9-way bank conflict (up to 8-way): 3.9 wavefronts per request where 1 would do (lanes 2 * s floats apart in 'sdata'); 29 cycles per request instead of 23
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}

__global__ void reduceSequential(float *out, const float *in)
{
    __shared__ float sdata[THREADS];
    unsigned int tid = threadIdx.x;
    sdata[tid] = in[blockIdx.x * blockDim.x + tid];
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s]; // EXPECT-NO: hms-divergent-access
        // EXPECT-NO: @-1 hms-shared-bank-conflict
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}

int main()
{
    float *in, *out;
    cudaMalloc(&in, BLOCKS * THREADS * sizeof(float));
    cudaMalloc(&out, BLOCKS * sizeof(float));
    reduceInterleaved<<<BLOCKS, THREADS>>>(out, in);
    reduceStrided<<<BLOCKS, THREADS>>>(out, in);
    reduceSequential<<<BLOCKS, THREADS>>>(out, in);
    return 0;
}
