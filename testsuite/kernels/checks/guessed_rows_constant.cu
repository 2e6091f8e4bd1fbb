// A generator kernel launched through the driver API (cuLaunchKernel from
// NVRTC-compiled code, which the front end does not fold), in the style of
// the CUDA samples' quasirandom generator: threadIdx.y picks the dimension, so
// the real 128 x 3 block gives each warp one dimension and every table read
// is a broadcast. Under the assumed 16 x 16 block a warp holds two rows, and
// two dimensions' table rows, which is the guess's doing, not the code's.
// For hms-lint's check tests (expectation syntax: see transpose.cu).
// EXPECT-ARCHES: h100
#include <cuda_runtime.h>

#define DIMENSIONS 3
#define RESOLUTION 31

__constant__ unsigned int c_dirTable[DIMENSIONS][RESOLUTION];
__constant__ float c_lanePhase[16];

extern "C" __global__ void dimensionGenerator(float *out, unsigned int seed, unsigned int n)
{
    unsigned int *dimBase = &c_dirTable[threadIdx.y][0];
    unsigned int tid = blockDim.x * blockIdx.x + threadIdx.x;
    unsigned int stride = blockDim.x * gridDim.x;
    for (unsigned int pos = tid; pos < n; pos += stride) {
        unsigned int result = 0;
        unsigned int data = seed + pos;
        for (int bit = 0; bit < RESOLUTION; bit++, data >>= 1)
            if (data & 1)
                result ^= dimBase[bit]; // EXPECT-NO: hms-constant-divergence
        out[threadIdx.y * n + pos] = (float)(result + 1) * (1.0f / 4294967296.0f);
    }
}

// Control: the lanes of one row read different entries, whatever the block's
// shape; the read is serialised for any launch.
extern "C" __global__ void lanePhases(float *out, unsigned int n)
{
    unsigned int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < n)
        // EXPECT-WARNING: @+1 hms-constant-divergence different addresses of __constant__ 'c_lanePhase'
        out[threadIdx.y * n + i] = c_lanePhase[threadIdx.x & 7];
}
