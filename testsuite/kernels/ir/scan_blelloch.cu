// GPU Gems 3 / CUDA-samples work-efficient scan: up-sweep and down-sweep over
// a shared array with bank-conflict-avoiding padding, loops doubling and
// halving their strides.
#include <cuda_runtime.h>

#define NUM_BANKS 32
#define LOG_NUM_BANKS 5
#define CONFLICT_FREE_OFFSET(n) ((n) >> LOG_NUM_BANKS)

__global__ void prescan(float *g_odata, const float *g_idata, int n)
{
    extern __shared__ float temp[];
    int thid = threadIdx.x;
    int offset = 1;
    int ai = thid;
    int bi = thid + (n / 2);
    int bankOffsetA = CONFLICT_FREE_OFFSET(ai);
    int bankOffsetB = CONFLICT_FREE_OFFSET(bi);
    temp[ai + bankOffsetA] = g_idata[ai];
    // EXPECT-ACCESS: -1 store temp shared 4 mapping=g_idata index=threadIdx.x + (threadIdx.x >> 5)
    temp[bi + bankOffsetB] = g_idata[bi];
    // EXPECT-ACCESS: -1 load g_idata global 4 index=threadIdx.x + n / 2
    for (int d = n >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (thid < d) {
            int ai = offset * (2 * thid + 1) - 1;
            int bi = offset * (2 * thid + 2) - 1;
            ai += CONFLICT_FREE_OFFSET(ai);
            bi += CONFLICT_FREE_OFFSET(bi);
            temp[bi] += temp[ai];
            // EXPECT-ACCESS: -1 load temp shared 4 loops=d guard={threadIdx.x < d} index=offset * (2 * threadIdx.x + 1) - 1 + (offset * (2 * threadIdx.x + 1) - 1 >> 5)
            // EXPECT-ORDER: -2 load temp, -2 load temp, -2 store temp
        }
        offset *= 2;
    }
    // the stride doubles in the same loop: `offset` is a variable there
    // EXPECT-LOOP: -14 var=d trip=unknown
    // EXPECT-LINE: -4 offset = offset * 2
    if (thid == 0)
        temp[n - 1 + CONFLICT_FREE_OFFSET(n - 1)] = 0;
    // EXPECT-ACCESS: -1 store temp shared 4 guard={threadIdx.x == 0} index=n - 1 + (n - 1 >> 5)
    for (int d = 1; d < n; d *= 2) {
        offset >>= 1;
        __syncthreads();
        if (thid < d) {
            int ai = offset * (2 * thid + 1) - 1;
            int bi = offset * (2 * thid + 2) - 1;
            float t = temp[ai];
            temp[ai] = temp[bi];
            temp[bi] += t;
        }
    }
    // EXPECT-LOOP: -11 var=d trip=unknown
    // EXPECT-ACCESS: -6 load temp shared 4 loops=d index=offset * (2 * threadIdx.x + 1) - 1
    __syncthreads();
    g_odata[ai] = temp[ai + bankOffsetA];
    // EXPECT-ACCESS: -1 store g_odata global 4 index=threadIdx.x
    // 2 * 512 elements padded by 1024 >> 5 = 32: (1024 + 32) * 4 bytes
    // EXPECT-LAUNCH: grid=(1,1,1) block=(512,1,1) shared=4224 source=host-call
    // EXPECT-ARRAY: temp shared float[1056] 4B extern
}

int main()
{
    const int n = 1024;
    float *d_out, *d_in;
    int shmem = (n + CONFLICT_FREE_OFFSET(n)) * sizeof(float);
    prescan<<<1, n / 2, shmem>>>(d_out, d_in, n);
    return 0;
}
