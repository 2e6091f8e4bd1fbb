// Vector types: float4/int2/uchar4 parameters, make_float4, .x/.y/.z/.w,
// reads through __ldg and the __restrict__ read-only path.
#include <cuda_runtime.h>

struct __align__(16) Particle {
    float4 pos;
    float4 vel;
};

__global__ void step(Particle *__restrict__ ps, const float4 *__restrict__ forces, float dt, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float4 f = __ldg(&forces[i]);
    Particle p = ps[i];
    p.vel = make_float4(p.vel.x + f.x * dt, p.vel.y + f.y * dt, p.vel.z + f.z * dt, 0.0f);
    p.pos = make_float4(p.pos.x + p.vel.x * dt, p.pos.y + p.vel.y * dt, p.pos.z + p.vel.z * dt, 1.0f);
    ps[i] = p;
}

__global__ void rgba_to_gray(const uchar4 *rgba, unsigned char *gray, int2 size)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < size.x && y < size.y) {
        uchar4 c = rgba[y * size.x + x];
        gray[y * size.x + x] = (unsigned char)(0.299f * c.x + 0.587f * c.y + 0.114f * c.z);
    }
}

int main()
{
    const int n = 10000;
    Particle *ps;
    float4 *forces;
    cudaMalloc(&ps, n * sizeof(Particle));
    cudaMalloc(&forces, n * sizeof(float4));
    // ceil(10000 / 256) = 40 (39.06 rounded up)
    step<<<(n + 255) / 256, 256>>>(ps, forces, 0.01f, n);
    int2 size = make_int2(1920, 1080);
    uchar4 *rgba;
    unsigned char *gray;
    cudaMalloc(&rgba, 1920 * 1080 * sizeof(uchar4));
    cudaMalloc(&gray, 1920 * 1080);
    rgba_to_gray<<<dim3(1920 / 32, 1080 / 8), dim3(32, 8)>>>(rgba, gray, size);
    return 0;
}

// EXPECT-KERNEL: step line=10 params=Particle *__restrict ps, const float4 *__restrict forces, float dt, int n
// EXPECT-KERNEL: rgba_to_gray line=22 params=const uchar4 *rgba, unsigned char *gray, int2 size
// EXPECT-LAUNCH: step line=40 grid=(40,1,1) block=(256,1,1) shared=0 args=ps, forces, 0.01f, n=10000
// 1920 / 32 = 60, 1080 / 8 = 135
// EXPECT-LAUNCH: rgba_to_gray line=46 grid=(60,135,1) block=(32,8,1) shared=0 args=rgba, gray, size
