// Arrays of structures and vector types: members of p[i], nested members,
// float2/float4 components, double arrays, and a struct read whole (in the
// pieces its alignment allows).
#include <cuda_runtime.h>

struct Particle {
    float3 pos;   // bytes 0-11
    float mass;   // 12
    float4 vel;   // 16-31 (float4 is 16-aligned)
    int id;       // 32
};

__global__ void aos(Particle *p, float2 *f2, double *d, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float m = p[i].mass;
    // EXPECT-ACCESS: -1 load p global 4 stride=48 offset=12 index=blockIdx.x * blockDim.x + threadIdx.x
    float vy = p[i].vel.y;
    // EXPECT-ACCESS: -1 load p global 4 stride=48 offset=20 index=blockIdx.x * blockDim.x + threadIdx.x
    p[i].pos.x += vy;
    // EXPECT-ACCESS: -1 store p global 4 stride=48 index=blockIdx.x * blockDim.x + threadIdx.x
    float2 v = f2[i];
    // EXPECT-ACCESS: -1 load f2 global 8 index=blockIdx.x * blockDim.x + threadIdx.x
    out[i] = m + v.x + f2[i + 1].y + (float)d[2 * i];
    // EXPECT-ACCESS: -1 load f2 global 4 stride=8 offset=4 index=blockIdx.x * blockDim.x + threadIdx.x + 1
    // EXPECT-ACCESS: -2 load d global 8 index=2 * (blockIdx.x * blockDim.x + threadIdx.x)
    Particle q = p[n - 1 - i]; // 48 bytes, 16-aligned: three 16-byte pieces
    // EXPECT-ACCESS: -1 load p global 16 stride=48 index=n - 1 - (blockIdx.x * blockDim.x + threadIdx.x)
    // EXPECT-ACCESS: -2 load p global 16 stride=48 offset=16 index=n - 1 - (blockIdx.x * blockDim.x + threadIdx.x)
    // EXPECT-ACCESS: -3 load p global 16 stride=48 offset=32 index=n - 1 - (blockIdx.x * blockDim.x + threadIdx.x)
    (p + i)->id = q.id;
    // EXPECT-ACCESS: -1 store p global 4 stride=48 offset=32 index=blockIdx.x * blockDim.x + threadIdx.x
    // EXPECT-ARRAY: p global Particle 48B param read written
    // EXPECT-ARRAY: d global double 8B param
}
