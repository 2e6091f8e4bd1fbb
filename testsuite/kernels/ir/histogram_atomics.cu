// CUDA-samples histogram256 style: per-block shared histogram updated with
// shared atomics inside a grid-stride loop, then merged with global atomics.
#include <cuda_runtime.h>

#define BIN_COUNT 256

__global__ void histogram256(unsigned int *d_Result, const unsigned char *d_Data, int dataCount)
{
    __shared__ unsigned int s_Hist[BIN_COUNT];
    for (int i = threadIdx.x; i < BIN_COUNT; i += blockDim.x)
        s_Hist[i] = 0;
    // EXPECT-ACCESS: -1 store s_Hist shared 4 loops=i index=i
    // EXPECT-LOOP: -3 var=i trip=(blockDim.x - threadIdx.x + 255) / blockDim.x
    __syncthreads();
    for (int pos = blockIdx.x * blockDim.x + threadIdx.x; pos < dataCount;
         pos += blockDim.x * gridDim.x) {
        unsigned int data = d_Data[pos];
        // EXPECT-ACCESS: -1 load d_Data global 1 loops=pos index=pos
        atomicAdd(&s_Hist[data], 1);
        // EXPECT-ACCESS: -1 atomic s_Hist shared 4 loops=pos index=unknown(value loaded from memory: d_Data[pos])
        // EXPECT-LIMIT: -2 address of atomicAdd(&s_Hist[data], 1) depends on an unknown value: value loaded from memory: d_Data[pos]
    }
    // EXPECT-LOOP: -8 var=pos trip=(dataCount + blockDim.x * gridDim.x - blockIdx.x * blockDim.x - threadIdx.x - 1) / (blockDim.x * gridDim.x)
    __syncthreads();
    for (int bin = threadIdx.x; bin < BIN_COUNT; bin += blockDim.x)
        atomicAdd(d_Result + bin, s_Hist[bin]);
    // EXPECT-ORDER: -1 load s_Hist, -1 atomic d_Result
    // EXPECT-ACCESS: -2 atomic d_Result global 4 loops=bin index=bin
    // EXPECT-ARRAY: s_Hist shared unsigned int[256] 4B read written atomic
    // EXPECT-ARRAY: d_Result global unsigned int 4B param read written atomic
    // EXPECT-ARRAY: d_Data global unsigned char 1B param const read
    // EXPECT-LAUNCH: grid=(240,1,1) block=(192,1,1) source=host-call
}

int main()
{
    unsigned int *d_Result;
    unsigned char *d_Data;
    int byteCount = 64 * 1048576;
    histogram256<<<240, 192>>>(d_Result, d_Data, byteCount);
    return 0;
}
