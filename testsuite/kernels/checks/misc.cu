// Kernels for the checks the other files do not exercise: a shared buffer
// that buys nothing, a stride given by a parameter nobody set, a launch
// nobody stated, a shared table that limits occupancy, and reads that walk
// down the columns of a 64 MB matrix. For hms-lint's check tests
// (expectation syntax: see transpose.cu).
#include <cuda_runtime.h>

#define THREADS 256

// Each thread reads back the one element it staged: no reuse, no coalescing gain.
// The staging is useless, but in this one-wave, latency-bound launch (7.75 blocks
// per SM on h100) it costs one shared round trip and a barrier on a chain of two
// DRAM round trips: the direct reads are predicted 1.01x faster (2358 -> 2327
// cycles, Hong & Kim's overlap), under --placement-threshold, so not reported.
// (Eq. 11's unfitted ratio gave 1.19x by hiding 90% of T_mem; docs/validation.md.)
// hms-lint: launch grid(1024) block(256)
__global__ void stagedCopy(float *out, const float *in)
{
    __shared__ float s[THREADS];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = in[i];
    __syncthreads();
    out[i] = 2.0f * s[threadIdx.x]; // EXPECT-NO: hms-shared-reuse
}

// The stride is a parameter with no value anywhere.
// hms-lint: launch grid(1024) block(256)
__global__ void stridedRead(float *out, const float *in, int stride) // EXPECT-NOTE: @+0 hms-analysis-limit parameter 'stride' has no value: assumed 64, figures that depend on it are estimates; set it with `// hms-lint: param stride=<value>` or --param=stridedRead.stride=<value>
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i * stride]; // EXPECT-WARNING: hms-uncoalesced-access stride of stride floats between lanes: uncoalesced for any stride > 8; with stride = 64 (assumed) 32 sectors per request where 4 would do (12.5% of fetched bytes used)
}

// No launch annotation and no host call: the default launch is assumed.
__global__ void noLaunch(float *out, const float *in) // EXPECT-NOTE: @+0 hms-analysis-limit grid(256,1,1) block(256,1,1)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i]; // EXPECT-NO: hms-uncoalesced-access
}

// A 32 KB table per block leaves room for 6 blocks of 4 warps per SM.
// hms-lint: launch grid(4096) block(128)
__global__ void bigTable(float *out, const float *in, const float *table) // EXPECT-WARNING: @+0 hms-latency-hiding occupancy 37.5% (24 of 64 warps per SM, limited by shared memory) hides too little memory latency (CuMAPz lat_hiding 0.75)
{
    __shared__ float s_table[8192];
    for (int j = threadIdx.x; j < 8192; j += blockDim.x)
        s_table[j] = table[j];
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] * s_table[(i * 13) & 8191]; // EXPECT-WARNING: hms-shared-reuse the direct reads would move 4096 bytes per block, filling it moves 32768 (data reuse 0.02)
}

// Lanes read rows 64 KB apart: every DRAM request opens a new row.
// 256 blocks of 8 warps fill a quarter of the H100's warp slots, but each
// thread moves one element: the grid is the data's, nothing to split.
// hms-lint: launch grid(256) block(256)
__global__ void columnWalk(float *out, const float *in) // EXPECT-NO: @+0 hms-latency-hiding
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    // EXPECT-WARNING: @+1 hms-uncoalesced-access 32 sectors per request where 4 would do (12.5% of fetched bytes used)
    out[i] = in[(i & 1023) * 16384 + (i >> 10)]; // EXPECT-WARNING: hms-dram-locality DRAM row-buffer hit rate 6.8%
}

// A handful of long rows, one block each: 100 of 132 SMs idle.
// hms-lint: launch grid(32) block(256)
__global__ void fewRows(float *out, const float *in, int n) // EXPECT-WARNING: @+0 hms-latency-hiding grid of 32 blocks under-fills the GPU: 32 of 132 SMs busy, 256 resident warps where h100's SMs hold 8448 (3%)
{
    float acc = 0.0f;
    for (int j = threadIdx.x; j < 4096; j += blockDim.x)
        acc += in[blockIdx.x * 4096 + j];
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// 2 blocks of 32 warps fit an SM, 264 at once: 300 blocks leave a second
// wave with 36 of them. The copy is bound by DRAM bandwidth, which the idle
// block slots of the tail do not change: no finding.
// hms-lint: launch grid(300) block(1024)
__global__ void tailWave(float *out, const float *in) // EXPECT-NO: @+0 hms-latency-hiding
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] + 1.0f;
}

// The same grid with 8 elements per thread and 256 FMAs each: bound by the
// FP32 rate of the busiest SM, which runs 3 blocks where whole waves would
// give it 2.3.
// hms-lint: launch grid(300) block(1024)
__global__ void tailWaveCompute(float *out, const float *in) // EXPECT-WARNING: @+0 hms-latency-hiding grid of 300 blocks runs in 2 waves of 264: the last wave fills 13.6% of the GPU, so 43.2% of the launch's block slots stay idle; the same work in whole waves is predicted
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int e = 0; e < 8; e++) {
        float x = in[e * 307200 + i];
        for (int j = 0; j < 256; j++)
            x = x * 0.999f + 0.5f;
        out[e * 307200 + i] = x;
    }
}

// 1056 blocks of 8 warps fill every SM once, exactly.
// hms-lint: launch grid(1056) block(256)
__global__ void fullWave(float *out, const float *in) // EXPECT-NO: @+0 hms-latency-hiding
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] + 1.0f;
}

// Warp-aggregated atomic: lane 0 of each warp reserves the warp's slots.
// One lane per warp is the point: nothing to pack. One element per thread:
// the small grid is the data's.
// hms-lint: launch grid(256) block(256)
__global__ void warpAggregated(int *counter, const int *flags, int *pos) // EXPECT-NO: @+0 hms-latency-hiding
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32;
    unsigned m = __ballot_sync(0xffffffffu, flags[i] != 0);
    int base = 0;
    if (lane == 0)
        base = atomicAdd(counter, __popc(m)); // EXPECT-NO: hms-divergent-access
    base = __shfl_sync(0xffffffffu, base, 0);
    pos[i] = base + __popc(m & ((1u << lane) - 1));
}

// A gather through loaded indices (cross-entropy: each row's target
// probability): where they point is data the analysis cannot know, so the
// scatter and its DRAM row misses are an assumption (hms-analysis-limit),
// not a finding.
// hms-lint: launch grid(32) block(128)
__global__ void gatherTargets(float *losses, const float *probs, const int *targets) // EXPECT-NO: @+0 hms-dram-locality
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    losses[r] = -logf(probs[r * 50257 + targets[r]]);
}

// Both components of each float2 are read (two options per thread, as in
// BlackScholes): nvcc loads the element once, 8 coalesced bytes a lane.
// hms-lint: launch grid(1024) block(128)
__global__ void bothComponents(float *out, const float2 *in)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float a = in[i].x; // EXPECT-NO: hms-uncoalesced-access
    float b = in[i].y; // EXPECT-NO: hms-uncoalesced-access
    out[i] = a * b;
}

// Only the x component: half of every fetched sector is wasted.
// hms-lint: launch grid(1024) block(128)
__global__ void oneComponent(float *out, const float2 *in)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i].x * 2.0f; // EXPECT-WARNING: hms-uncoalesced-access 8 sectors per request where 4 would do
}
