// CUDA-samples style: n-body with float4 positions, float3 accelerations,
// rsqrtf, __launch_bounds__, __ldg through the read-only path and vector
// copies with int4/float4.
#include <cmath>
#include <cstdio>
#include <cuda_runtime.h>
#include <vector_functions.h>

#define SOFTENING 1e-9f

__device__ float3 bodyBodyInteraction(float4 bi, float4 bj, float3 ai)
{
    float3 r;
    r.x = bj.x - bi.x;
    r.y = bj.y - bi.y;
    r.z = bj.z - bi.z;
    float distSqr = r.x * r.x + r.y * r.y + r.z * r.z + SOFTENING;
    float invDist = rsqrtf(distSqr);
    float invDistCube = invDist * invDist * invDist;
    float s = bj.w * invDistCube;
    ai.x += r.x * s;
    ai.y += r.y * s;
    ai.z += r.z * s;
    return ai;
}

__global__ void __launch_bounds__(256, 4)
    integrateBodies(float4 *__restrict__ newPos, const float4 *__restrict__ oldPos, float4 *vel,
                    unsigned int numBodies, float deltaTime, float damping)
{
    extern __shared__ float4 sharedPos[];
    unsigned int index = blockIdx.x * blockDim.x + threadIdx.x;
    if (index >= numBodies)
        return;
    float4 position = __ldg(&oldPos[index]);
    float3 acc = make_float3(0.0f, 0.0f, 0.0f);
    for (unsigned int tile = 0; tile < gridDim.x; tile++) {
        sharedPos[threadIdx.x] = oldPos[tile * blockDim.x + threadIdx.x];
        __syncthreads();
#pragma unroll 8
        for (unsigned int counter = 0; counter < blockDim.x; counter++)
            acc = bodyBodyInteraction(position, sharedPos[counter], acc);
        __syncthreads();
    }
    float4 velocity = vel[index];
    velocity.x += acc.x * deltaTime;
    velocity.y += acc.y * deltaTime;
    velocity.z += acc.z * deltaTime;
    velocity.x *= damping;
    velocity.y *= damping;
    velocity.z *= damping;
    position.x += velocity.x * deltaTime;
    position.y += velocity.y * deltaTime;
    position.z += velocity.z * deltaTime;
    newPos[index] = position;
    vel[index] = velocity;
}

__global__ void copyVectorized(int4 *dst, const int4 *src, size_t n4)
{
    for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += blockDim.x * gridDim.x) {
        int4 v = __ldg(src + i);
        v.x += 1;
        dst[i] = v;
    }
}

__global__ void mixedTypes(double2 *d, uchar4 *img, short2 *s, longlong2 *ll, float2 *f2, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    uchar4 p = img[i];
    float lum = 0.299f * p.x + 0.587f * p.y + 0.114f * p.z;
    img[i] = make_uchar4((unsigned char)lum, (unsigned char)lum, (unsigned char)lum, p.w);
    d[i] = make_double2(sqrt((double)lum), cbrt((double)lum));
    s[i] = make_short2(s[i].y, s[i].x);
    ll[i] = make_longlong2(ll[i].x + 1, ll[i].y - 1);
    f2[i] = make_float2(__fdividef(f2[i].x, 3.0f), fabsf(f2[i].y));
    static_assert(sizeof(float4) == 16 && alignof(float4) == 16, "float4 layout");
    static_assert(sizeof(float3) == 12 && alignof(float3) == 4, "float3 layout");
    static_assert(sizeof(double2) == 16 && alignof(double2) == 16, "double2 layout");
    static_assert(sizeof(uchar4) == 4 && alignof(uchar4) == 4, "uchar4 layout");
    static_assert(sizeof(short2) == 4 && alignof(short2) == 4, "short2 layout");
    static_assert(sizeof(char3) == 3 && alignof(char3) == 1, "char3 layout");
    static_assert(sizeof(int2) == 8 && alignof(int2) == 8, "int2 layout");
    static_assert(sizeof(dim3) == 12, "dim3 layout");
}

int main()
{
    const int numBodies = 16384, blockSize = 256;
    float4 *pos[2], *vel;
    cudaMalloc(&pos[0], numBodies * sizeof(float4));
    cudaMalloc(&pos[1], numBodies * sizeof(float4));
    cudaMalloc(&vel, numBodies * sizeof(float4));
    int numBlocks = (numBodies + blockSize - 1) / blockSize;
    int sharedMemSize = blockSize * 4 * sizeof(float);
    integrateBodies<<<numBlocks, blockSize, sharedMemSize>>>(pos[1], pos[0], vel, numBodies,
                                                             0.016f, 1.0f);
    int minGrid = 0, bestBlock = 0;
    cudaOccupancyMaxPotentialBlockSize(&minGrid, &bestBlock, copyVectorized, 0, 0);
    cudaFuncSetCacheConfig(integrateBodies, cudaFuncCachePreferShared);
    copyVectorized<<<minGrid, bestBlock>>>((int4 *)pos[1], (const int4 *)pos[0], numBodies);
    printf("%f\n", std::sqrt(2.0));
    cudaDeviceReset();
    return 0;
}
