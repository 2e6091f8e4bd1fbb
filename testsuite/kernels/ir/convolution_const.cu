// CUDA-samples convolutionSeparable row pass: the filter in __constant__
// memory, a shared tile with apron, #pragma unroll loops.
#include <cuda_runtime.h>

#define KERNEL_RADIUS 8
#define KERNEL_LENGTH (2 * KERNEL_RADIUS + 1)
#define ROWS_BLOCKDIM_X 16
#define ROWS_BLOCKDIM_Y 4
#define ROWS_RESULT_STEPS 8
#define ROWS_HALO_STEPS 1

__constant__ float c_Kernel[KERNEL_LENGTH];

__global__ void convolutionRowsKernel(float *d_Dst, float *d_Src, int imageW, int imageH, int pitch)
{
    __shared__ float s_Data[ROWS_BLOCKDIM_Y][(ROWS_RESULT_STEPS + 2 * ROWS_HALO_STEPS) * ROWS_BLOCKDIM_X];
    const int baseX = (blockIdx.x * ROWS_RESULT_STEPS - ROWS_HALO_STEPS) * ROWS_BLOCKDIM_X + threadIdx.x;
    const int baseY = blockIdx.y * ROWS_BLOCKDIM_Y + threadIdx.y;
    d_Src += baseY * pitch + baseX;
    d_Dst += baseY * pitch + baseX;
#pragma unroll
    for (int i = ROWS_HALO_STEPS; i < ROWS_HALO_STEPS + ROWS_RESULT_STEPS; i++)
        s_Data[threadIdx.y][threadIdx.x + i * ROWS_BLOCKDIM_X] = d_Src[i * ROWS_BLOCKDIM_X];
    // EXPECT-LOOP: -2 var=i trip=8
    // EXPECT-ACCESS: -2 load d_Src global 4 loops=i index=(blockIdx.y * 4 + threadIdx.y) * pitch + ((blockIdx.x * 8 - 1) * 16 + threadIdx.x) + i * 16
    // EXPECT-ACCESS: -3 store s_Data shared 4 mapping=d_Src index=threadIdx.y * 160 + (threadIdx.x + i * 16)
#pragma unroll
    for (int i = 0; i < ROWS_HALO_STEPS; i++)
        s_Data[threadIdx.y][threadIdx.x + i * ROWS_BLOCKDIM_X] =
            (baseX >= -i * ROWS_BLOCKDIM_X) ? d_Src[i * ROWS_BLOCKDIM_X] : 0;
    // EXPECT-ACCESS: -1 load d_Src global 4 guard={(blockIdx.x * 8 - 1) * 16 + threadIdx.x >= -i * 16} index=(blockIdx.y * 4 + threadIdx.y) * pitch + ((blockIdx.x * 8 - 1) * 16 + threadIdx.x) + i * 16
    // EXPECT-ACCESS: -3 store s_Data shared 4 mapping=d_Src index=threadIdx.y * 160 + (threadIdx.x + i * 16)
    __syncthreads();
#pragma unroll
    for (int i = ROWS_HALO_STEPS; i < ROWS_HALO_STEPS + ROWS_RESULT_STEPS; i++) {
        float sum = 0;
#pragma unroll
        for (int j = -KERNEL_RADIUS; j <= KERNEL_RADIUS; j++)
            sum += c_Kernel[KERNEL_RADIUS - j] * s_Data[threadIdx.y][threadIdx.x + i * ROWS_BLOCKDIM_X + j];
        // EXPECT-ACCESS: -1 load c_Kernel constant 4 loops=i,j index=8 - j
        // EXPECT-ACCESS: -2 load s_Data shared 4 loops=i,j index=threadIdx.y * 160 + (threadIdx.x + i * 16 + j)
        // EXPECT-LOOP: -4 var=j trip=17
        d_Dst[i * ROWS_BLOCKDIM_X] = sum;
    }
    // EXPECT-ARRAY: c_Kernel constant float[17] 4B read decl
    // EXPECT-ARRAY: s_Data shared float[4][160] 4B
    // EXPECT-LAUNCH: grid=(24,768,1) block=(16,4,1) source=host-call
    // EXPECT-NO-LIMIT
}

int main()
{
    int imageW = 3072, imageH = 3072;
    float *d_Dst, *d_Src;
    dim3 blocks(imageW / (ROWS_RESULT_STEPS * ROWS_BLOCKDIM_X), imageH / ROWS_BLOCKDIM_Y);
    dim3 threads(ROWS_BLOCKDIM_X, ROWS_BLOCKDIM_Y);
    convolutionRowsKernel<<<blocks, threads>>>(d_Dst, d_Src, imageW, imageH, imageW);
    return 0;
}
