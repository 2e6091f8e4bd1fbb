// Returns inside __device__ helpers under conditions on loaded values
// (cuda-samples mergeSort / SobelFilter style), for
// testsuite/unit/test_inlined_returns.c. A helper that returns on both sides
// of such a condition returns either way; one that returns early on one side
// (`if (L == 0) return 0;`) goes on for the lanes the analysis cannot decide,
// inexact in the rest of the helper only.
#include <cuda_runtime.h>

// The rank of val among the L sorted keys of data (binary search).
static __device__ unsigned rankInclusive(unsigned val, const unsigned *data, unsigned L,
                                         unsigned stride)
{
    if (L == 0)
        return 0;
    unsigned pos = 0;
    for (; stride > 0; stride >>= 1) {
        unsigned newPos = min(pos + stride, L);
        if (data[newPos - 1] <= val)
            pos = newPos;
    }
    return pos;
}

// Clamp to a byte, one return per side.
static __device__ unsigned char toByte(int v)
{
    if (v < 0)
        return 0;
    else if (v > 255)
        return 255;
    else
        return (unsigned char)v;
}

// hms-lint: launch grid(64) block(128)
__global__ void rankKeys(unsigned *ranks, const unsigned *keys, const unsigned *sorted,
                         const unsigned *lengths)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned L = lengths[blockIdx.x]; // a loaded length: unknown to the analysis
    unsigned r = rankInclusive(keys[i], sorted + blockIdx.x * 128, L, 128);
    ranks[i] = r;
}

// hms-lint: launch grid(64) block(128)
__global__ void gradientBytes(unsigned char *out, const int *gx, const int *gy)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = toByte(abs(gx[i]) + abs(gy[i]));
    out[i + 64 * 128] = toByte(gx[i] - gy[i]);
}
