// Textures: a legacy texture reference read with tex1Dfetch (Rodinia/SHOC
// style), a texture object read with tex1Dfetch<float4>, and tex2D with
// float coordinates written as x + 0.5f.
#include <cuda_runtime.h>

texture<float, 1, cudaReadModeElementType> texVec;

__global__ void spmv_tex(const float *val, const int *cols, const int *rowPtr, float *out, int dim)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < dim) {
        float sum = 0;
        for (int j = rowPtr[row]; j < rowPtr[row + 1]; j++)
            sum += val[j] * tex1Dfetch(texVec, cols[j]);
        // EXPECT-ACCESS: -1 load texVec texture 4 loops=? index=unknown(value loaded from memory: cols[j])
        // EXPECT-ORDER: -2 load val, -2 load cols, -2 load texVec
        out[row] = sum;
    }
    // EXPECT-ARRAY: texVec texture float 4B tex1d read
}

__global__ void copy_obj(cudaTextureObject_t tex, float4 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex1Dfetch<float4>(tex, i);
    // EXPECT-ACCESS: -1 load tex texture 16 index=blockIdx.x * blockDim.x + threadIdx.x
    // EXPECT-ACCESS: -2 store out global 16 index=blockIdx.x * blockDim.x + threadIdx.x
    // EXPECT-ARRAY: tex texture float4 16B param tex1d read
}

__global__ void blur2d(cudaTextureObject_t img, float *out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    float v = tex2D<float>(img, x + 0.5f, y + 0.5f) + tex2D<float>(img, x + 1, y);
    // EXPECT-ACCESS: -1 load img texture 4 index2={blockIdx.y * blockDim.y + threadIdx.y} index=blockIdx.x * blockDim.x + threadIdx.x
    // EXPECT-ACCESS: -2 load img texture 4 index2={blockIdx.y * blockDim.y + threadIdx.y} index=blockIdx.x * blockDim.x + threadIdx.x + 1
    out[y * w + x] = v;
    // EXPECT-ARRAY: img texture float 4B param tex2d read
    // EXPECT-NO-LIMIT
}
// hms-lint: launch kernel=blur2d grid(32,32) block(16,16)
