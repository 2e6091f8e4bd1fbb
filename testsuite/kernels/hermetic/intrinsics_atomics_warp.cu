// Device intrinsics and atomics on every type the CUDA docs list, warp
// shuffles and votes (legacy and _sync), bit tricks, clocks, fences,
// printf/assert/malloc in device code, and the built-in dimension variables.
#include <cassert>
#include <cstdio>
#include <cuda_runtime.h>
#include <device_functions.h>
#include <sm_20_atomic_functions.h>
#include <sm_30_intrinsics.h>
#include <sm_32_intrinsics.h>
#include <math_functions.h>

__device__ unsigned int g_counter;
__device__ unsigned long long g_sum;
__managed__ int g_flag;

__device__ __forceinline__ int laneId()
{
    return threadIdx.x & (warpSize - 1);
}

__device__ __noinline__ float warpReduceSum(float v)
{
    for (int offset = warpSize / 2; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffff, v, offset);
    return v;
}

__global__ void atomicsEverywhere(int *i, unsigned int *u, unsigned long long *ull, long long *ll,
                                  float *f, double *d, unsigned short *us)
{
    atomicAdd(i, 1);
    atomicAdd(u, 1u);
    atomicAdd(ull, 1ull);
    atomicAdd(f, 1.0f);
    atomicAdd(d, 1.0);
    atomicSub(i, 1);
    atomicSub(u, 1u);
    atomicExch(i, 2);
    atomicExch(u, 2u);
    atomicExch(ull, 2ull);
    atomicExch(f, 2.0f);
    atomicMin(i, 0);
    atomicMin(u, 0u);
    atomicMin(ll, 0ll);
    atomicMin(ull, 0ull);
    atomicMax(i, 9);
    atomicMax(u, 9u);
    atomicMax(ll, 9ll);
    atomicMax(ull, 9ull);
    atomicInc(u, 100u);
    atomicDec(u, 100u);
    atomicCAS(i, 0, 1);
    atomicCAS(u, 0u, 1u);
    atomicCAS(ull, 0ull, 1ull);
    atomicCAS(us, (unsigned short)0, (unsigned short)1);
    atomicAnd(i, 0xF);
    atomicOr(u, 0xF0u);
    atomicXor(ull, 0xFFull);
    atomicAdd_block(i, 1);
    atomicAdd_system(f, 1.0f);
    atomicInc(&g_counter, 0xFFFFFFFFu);
    atomicAdd(&g_sum, 1ull);
}

__global__ void warpStuff(const float *in, float *out, int *votes)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[tid];
    unsigned mask = __activemask();
    float sum = warpReduceSum(v);
    float first = __shfl_sync(mask, v, 0);
    float up = __shfl_up_sync(mask, v, 1);
    float x = __shfl_xor_sync(mask, v, 16, 16);
    int legacy = __shfl((int)v, 0) + __shfl_down((int)v, 1) + __shfl_up((int)v, 1) + __shfl_xor((int)v, 2);
    unsigned b = __ballot_sync(mask, v > 0.0f);
    int any = __any_sync(mask, v > 1.0f), all = __all_sync(mask, v > -1.0f);
    int oldAny = __any(v > 2.0f) + __all(v < 3.0f) + __ballot(v == 0.0f);
    unsigned same = __match_any_sync(mask, tid / 4);
    __syncwarp();
    __syncwarp(mask);
    if (laneId() == 0)
        votes[tid / 32] = __popc(b) + any + all + oldAny + __popc(same);
    out[tid] = sum + first + up + x + legacy;
}

__global__ void bitsAndClocks(unsigned int *o, const float *__restrict__ in, long long *t, int n)
{
    long long start = clock64();
    clock_t c0 = clock();
    int i = __mul24(blockIdx.x, blockDim.x) + threadIdx.x;
    unsigned int ui = __umul24(blockIdx.x, blockDim.x) + threadIdx.x;
    if (i >= n)
        return;
    unsigned int v = __float_as_uint(__ldg(in + i));
    o[i] = __clz(v) + __ffs(v) + __popc(v) + __brev(v) + __byte_perm(v, ui, 0x3210) + __sad(1, 2, 3) +
           __float2int_rn(in[i]) + __float_as_int(in[i]) + (unsigned)__int_as_float(3) + __umulhi(v, ui) +
           __mulhi(i, i) + __clzll(5ll) + __popcll(7ull) + __ldcg(in + i) + __ldcs(in + i);
    float g = __saturatef(in[i]) + __fdividef(in[i], 3.0f) + __expf(in[i]) + __logf(2.0f) +
              __sinf(1.0f) + __cosf(1.0f) + __powf(2.0f, 3.0f) + __fmul_rn(1.0f, 2.0f) +
              __fadd_rz(1.0f, 2.0f) + __frcp_rn(3.0f) + rsqrtf(4.0f) + rcbrtf(8.0f) + exp10f(2.0f) +
              erfinvf(0.5f) + normcdff(0.1f) + sinpif(0.5f) + fmaf(1.0f, 2.0f, 3.0f) + hypotf(3.0f, 4.0f) +
              __fsqrt_rn(9.0f) + min(1, 2) + max(3u, 4u) + min(1.0f, 2.0f) + fminf(1.0f, 2.0f) + llabs(-3ll);
    float s, c;
    sincosf(g, &s, &c);
    __sincosf(g, &s, &c);
    __threadfence();
    __threadfence_block();
    __threadfence_system();
    int cnt = __syncthreads_count(g > 0.0f);
    int andv = __syncthreads_and(g > 0.0f);
    int orv = __syncthreads_or(g > 0.0f);
    if (cnt + andv + orv < 0)
        __trap();
    assert(cnt >= 0);
    if (threadIdx.x == 0 && blockIdx.x == 0 && blockIdx.y == 0 && blockIdx.z == 0) {
        printf("grid %u %u %u block %u %u %u warp %d s=%f c=%f\n", gridDim.x, gridDim.y, gridDim.z,
               blockDim.x, blockDim.y, blockDim.z, warpSize, s, c);
        int *scratch = (int *)malloc(16 * sizeof(int));
        memset(scratch, 0, 16 * sizeof(int));
        free(scratch);
    }
    t[i] = clock64() - start + (clock() - c0);
    __nanosleep(100);
}

int main()
{
    int *d_i;
    cudaMalloc(&d_i, 64);
    atomicsEverywhere<<<1, 32>>>(d_i, (unsigned *)d_i, (unsigned long long *)d_i, (long long *)d_i,
                                 (float *)d_i, (double *)d_i, (unsigned short *)d_i);
    warpStuff<<<1, 32>>>((float *)d_i, (float *)d_i, d_i);
    bitsAndClocks<<<1, 32>>>((unsigned *)d_i, (float *)d_i, (long long *)d_i, 8);
    g_flag = 1;
    unsigned int h_counter = 0;
    cudaMemcpyFromSymbol(&h_counter, g_counter, sizeof(h_counter));
    cudaDeviceSynchronize();
    printf("%u %s\n", h_counter, cudaGetErrorName(cudaGetLastError()));
    return 0;
}
