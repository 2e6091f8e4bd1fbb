// CUDA-samples nbody: float4 positions, a shared tile of bodies per block,
// a loop over tiles and an unrolled loop over the bodies of a tile.
#include <cuda_runtime.h>

__device__ float3 bodyBodyInteraction(float3 ai, float4 bi, float4 bj)
{
    float3 r;
    r.x = bj.x - bi.x;
    r.y = bj.y - bi.y;
    r.z = bj.z - bi.z;
    float distSqr = r.x * r.x + r.y * r.y + r.z * r.z + 0.01f;
    float invDist = rsqrtf(distSqr);
    float s = bj.w * invDist * invDist * invDist;
    ai.x += r.x * s;
    ai.y += r.y * s;
    ai.z += r.z * s;
    return ai;
}

__global__ void integrateBodies(float4 *newPos, const float4 *oldPos, float4 *vel, float deltaTime,
                                int numBodies)
{
    extern __shared__ float4 sharedPos[];
    int index = blockIdx.x * blockDim.x + threadIdx.x;
    float4 position = oldPos[index];
    // EXPECT-ACCESS: -1 load oldPos global 16 index=blockIdx.x * blockDim.x + threadIdx.x
    float3 acc = {0.0f, 0.0f, 0.0f};
    for (int tile = 0; tile < numBodies / blockDim.x; tile++) {
        sharedPos[threadIdx.x] = oldPos[tile * blockDim.x + threadIdx.x];
        // EXPECT-ACCESS: -1 store sharedPos shared 16 loops=tile mapping=oldPos index=threadIdx.x
        __syncthreads();
#pragma unroll 4
        for (int j = 0; j < blockDim.x; j++)
            acc = bodyBodyInteraction(acc, position, sharedPos[j]);
        // EXPECT-ACCESS: -1 load sharedPos shared 16 loops=tile,j index=j
        // EXPECT-LOOP: -3 var=j trip=blockDim.x
        __syncthreads();
    }
    // EXPECT-LOOP: -11 var=tile trip=numBodies / blockDim.x
    float4 v = vel[index];
    v.x += acc.x * deltaTime;
    position.x += v.x * deltaTime;
    newPos[index] = position;
    vel[index] = v;
    // EXPECT-ACCESS: -2 store newPos global 16 index=blockIdx.x * blockDim.x + threadIdx.x
    // EXPECT-ACCESS: -6 load vel global 16 index=blockIdx.x * blockDim.x + threadIdx.x
    // EXPECT-ARRAY: sharedPos shared float4[256] 16B extern
    // EXPECT-ARRAY: oldPos global float4 16B param const read
    // EXPECT-MAPPING: sharedPos <- oldPos
    // EXPECT-LAUNCH: grid=(64,1,1) block=(256,1,1) shared=4096 source=host-call
    // EXPECT-PARAM: numBodies int = 16384 (host-call)
    // EXPECT-NO-LIMIT
}

int main()
{
    int numBodies = 16384, p = 256;
    float4 *d_newPos, *d_oldPos, *d_vel;
    int sharedMemSize = p * sizeof(float4);
    integrateBodies<<<numBodies / p, p, sharedMemSize>>>(d_newPos, d_oldPos, d_vel, 0.016f, numBodies);
    return 0;
}
