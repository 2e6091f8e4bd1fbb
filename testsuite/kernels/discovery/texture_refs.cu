// Legacy texture references (Rodinia/SHOC/Parboil style): 1D linear
// memory fetched with tex1Dfetch, a 2D float4 texture and a normalised
// uchar4 image read with tex2D, bound with cudaBindTexture/2D.
#include <cuda_runtime.h>

texture<float, 1, cudaReadModeElementType> texVec;
texture<float4, 2, cudaReadModeElementType> texField;
texture<uchar4, 2, cudaReadModeNormalizedFloat> texImage;
texture<int> texIndex;

__global__ void gather(float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex1Dfetch(texVec, tex1Dfetch(texIndex, i));
}

__global__ void sample2d(float4 *out, float *lum, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    float4 f = tex2D(texField, x + 0.5f, y + 0.5f);
    float4 c = tex2D(texImage, (float)x, (float)y);
    out[y * w + x] = f;
    lum[y * w + x] = 0.299f * c.x + 0.587f * c.y + 0.114f * c.z;
}

int main()
{
    const int n = 4096, w = 640, h = 480;
    float *d_vec, *d_out, *d_lum;
    int *d_idx;
    float4 *d_field, *d_out4;
    uchar4 *d_img;
    size_t pitch;
    cudaMalloc(&d_vec, n * sizeof(float));
    cudaMalloc(&d_idx, n * sizeof(int));
    cudaMalloc(&d_out, n * sizeof(float));
    cudaBindTexture(0, texVec, d_vec, n * sizeof(float));
    cudaBindTexture(0, texIndex, d_idx, n * sizeof(int));
    gather<<<n / 256, 256>>>(d_out, n);
    cudaMallocPitch(&d_field, &pitch, w * sizeof(float4), h);
    cudaBindTexture2D(0, texField, d_field, cudaCreateChannelDesc<float4>(), w, h, pitch);
    cudaMallocPitch(&d_img, &pitch, w * sizeof(uchar4), h);
    cudaBindTexture2D(0, texImage, d_img, w, h, pitch);
    cudaMalloc(&d_out4, w * h * sizeof(float4));
    cudaMalloc(&d_lum, w * h * sizeof(float));
    sample2d<<<dim3(w / 16, h / 16), dim3(16, 16)>>>(d_out4, d_lum, w, h);
    cudaUnbindTexture(texVec);
    cudaUnbindTexture(texIndex);
    cudaUnbindTexture(texField);
    cudaUnbindTexture(texImage);
    return 0;
}

// EXPECT-TEXTURE: texVec texture<float, 1, cudaReadModeElementType> line=6 dims=1
// EXPECT-TEXTURE: texField texture<float4, 2, cudaReadModeElementType> line=7 dims=2
// EXPECT-TEXTURE: texImage texture<uchar4, 2, cudaReadModeNormalizedFloat> line=8 dims=2
// texture<int> takes the defaults: one dimension, element-type reads
// EXPECT-TEXTURE: texIndex texture<int, 1, cudaReadModeElementType> line=9 dims=1
// EXPECT-KERNEL: gather line=11 params=float *out, int n
// EXPECT-KERNEL: sample2d line=18 params=float4 *out, float *lum, int w, int h
// 4096 / 256 = 16; 640 / 16 = 40; 480 / 16 = 30
// EXPECT-LAUNCH: gather line=43 grid=(16,1,1) block=(256,1,1) shared=0 args=d_out, n=4096
// EXPECT-LAUNCH: sample2d line=50 grid=(40,30,1) block=(16,16,1) shared=0 args=d_out4, d_lum, w=640, h=480
