// __device__ helper functions called from kernels, one of which declares
// its own __shared__ scratch; __forceinline__, __noinline__ and a __host__
// __device__ function used on both sides.
#include <cuda_runtime.h>

__host__ __device__ inline int idx2d(int x, int y, int pitch)
{
    return y * pitch + x;
}

__device__ __forceinline__ float clamp01(float v)
{
    return fminf(fmaxf(v, 0.0f), 1.0f);
}

__device__ __noinline__ float block_max(float v)
{
    __shared__ float scratch[256];
    scratch[threadIdx.x] = v;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            scratch[threadIdx.x] = fmaxf(scratch[threadIdx.x], scratch[threadIdx.x + s]);
        __syncthreads();
    }
    return scratch[0];
}

__global__ void normalise(float *img, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    float v = (x < w && y < h) ? img[idx2d(x, y, w)] : 0.0f;
    float m = block_max(v);
    if (x < w && y < h)
        img[idx2d(x, y, w)] = clamp01(v / m);
}

int main()
{
    int w = 1024, h = 768;
    float *img;
    cudaMalloc(&img, w * h * sizeof(float));
    int host_index = idx2d(3, 4, w);
    dim3 block(16, 16);
    // 1024 / 16 = 64, 768 / 16 = 48
    normalise<<<dim3(w / block.x, h / block.y), block>>>(img, w, h + host_index * 0);
    return 0;
}

// EXPECT-SHARED: scratch float[256] in=block_max line=18 bytes=1024
// EXPECT-KERNEL: normalise line=29 params=float *img, int w, int h
// EXPECT-LAUNCH: normalise line=47 grid=(64,48,1) block=(16,16,1) shared=0 args=img, w=1024
// EXPECT-SUMMARY: 1 kernel, 1 variable, 1 launch site
