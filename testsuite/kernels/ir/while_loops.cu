// Loops whose trip count is not affine: following a linked structure
// through memory, a binary search, a do-while with a data-dependent exit,
// and a loop with break and continue.
#include <cuda_runtime.h>

__global__ void chase(const int *next, const float *val, float *out, int head)
{
    int node = head + threadIdx.x;
    float s = 0;
    while (node >= 0) {
        s += val[node];
        node = next[node];
    }
    // EXPECT-LOOP: -4 while (node >= 0) trip=unknown
    // EXPECT-ACCESS: -4 load val global 4 loops=? index=node
    // EXPECT-LIMIT: -6 loop trip count depends on an unknown value: value loaded from memory: next[node]
    out[threadIdx.x] = s;
}

__global__ void bsearch(const int *keys, int n, const int *queries, int *pos)
{
    int q = queries[blockIdx.x * blockDim.x + threadIdx.x];
    int lo = 0, hi = n - 1;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (keys[mid] < q)
            lo = mid + 1;
        else
            hi = mid;
    }
    // EXPECT-LOOP: -7 while (lo < hi) trip=unknown
    // EXPECT-ACCESS: -6 load keys global 4 index=(lo + hi) / 2
    // EXPECT-LINE: -6 lo = mid + 1
    // EXPECT-LINE: -8 mid = (lo + hi) / 2
    // EXPECT-LINE: -6 hi = mid
    // EXPECT-LIMIT: -10 branch condition depends on an unknown value: value loaded from memory: keys[mid]
    pos[blockIdx.x * blockDim.x + threadIdx.x] = lo;
}

__global__ void retry(int *flags, int *out)
{
    int tries = 0;
    do {
        tries++;
    } while (atomicCAS(&flags[blockIdx.x], 0, 1) != 0 && tries < 100);
    // EXPECT-LOOP: -3 do-while (1) trip=unknown
    // EXPECT-ACCESS: -2 atomic flags global 4 loops=? index=blockIdx.x
    for (int i = 0; i < 64; i++) {
        if (i % 2)
            continue;
        if (out[i] < 0)
            break;
        out[i] = tries;
    }
    // EXPECT-LOOP: -7 var=i trip=64
    // EXPECT-LINE: -6 continue
    // EXPECT-LINE: -5 break
}
