// Texture and surface objects: kernels take cudaTextureObject_t and
// cudaSurfaceObject_t parameters; fetches with tex1Dfetch<T> and tex2D<T>.
#include <cstring>
#include <cuda_runtime.h>

__global__ void fetch_linear(float *out, cudaTextureObject_t tex, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex1Dfetch<float>(tex, i) * 2.0f;
}

__device__ float4 operator+(float4 a, float4 b)
{
    return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}

__global__ void blur2d(cudaSurfaceObject_t dst, cudaTextureObject_t src, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    float4 s = tex2D<float4>(src, x - 1.0f, y) + tex2D<float4>(src, x + 1.0f, y);
    surf2Dwrite(s, dst, x * (int)sizeof(float4), y);
}

int main()
{
    const int n = 1 << 12;
    float *buf, *out;
    cudaMalloc(&buf, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    cudaResourceDesc res;
    memset(&res, 0, sizeof res);
    res.resType = cudaResourceTypeLinear;
    res.res.linear.devPtr = buf;
    res.res.linear.desc = cudaCreateChannelDesc<float>();
    res.res.linear.sizeInBytes = n * sizeof(float);
    cudaTextureDesc td;
    memset(&td, 0, sizeof td);
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t tex = 0;
    cudaCreateTextureObject(&tex, &res, &td, NULL);
    fetch_linear<<<n / 128, 128>>>(out, tex, n);
    cudaSurfaceObject_t surf = 0;
    blur2d<<<dim3(32, 32), dim3(16, 16)>>>(surf, tex, 512, 512);
    cudaDestroyTextureObject(tex);
    return 0;
}

// EXPECT-KERNEL: fetch_linear line=6 params=float *out, cudaTextureObject_t tex, int n
// EXPECT-TEXTURE: tex cudaTextureObject_t object in=fetch_linear line=6
// EXPECT-KERNEL: blur2d line=18 params=cudaSurfaceObject_t dst, cudaTextureObject_t src, int w, int h
// EXPECT-SURFACE: dst cudaSurfaceObject_t object in=blur2d line=18
// EXPECT-TEXTURE: src cudaTextureObject_t object in=blur2d line=18
// 4096 / 128 = 32
// EXPECT-LAUNCH: fetch_linear line=45 grid=(32,1,1) block=(128,1,1) shared=0 args=out, tex, n=4096
// surf is known to be 0 at the call; tex is not (its address went to cudaCreateTextureObject)
// EXPECT-LAUNCH: blur2d line=47 grid=(32,32,1) block=(16,16,1) shared=0 args=surf=0, tex, 512, 512
