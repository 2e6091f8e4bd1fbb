// Launches whose under-fill or placement gain is not the code's to fix, in
// the style of the CUDA samples (graphConditionalNodes, MonteCarloMultiGPU,
// interval, simpleCubemapTexture), with controls that still warn. For
// hms-lint's check tests (expectation syntax: see transpose.cu).
// EXPECT-ARCHES: h100
#include <cstdio>
#include <cuda_runtime.h>

// A graph node's kernel (launched through cudaGraphAddKernelNode, which the
// front end does not fold): one thread reads a flag the host updates. Under
// the assumed default grid, the flag looks like 64K broadcast reads; no
// placement verdict rests on that.
// EXPECT-NO: @+1 hms-placement
__global__ void setConditionFromFlag(char *dPtr)
{
    unsigned int value = *dPtr & 0x01;
    printf("GPU: condition set to %d\n", value);
}

// One block per option: four broadcast reads of the option's data beside a
// long random-number loop. The kernel is bound by its arithmetic; a faster
// home for the option data gains it nothing.
struct OptionData {
    float S, X, MuByT, VBySqrtT;
};

__device__ inline float endCallValue(float S, float X, float r, float MuByT, float VBySqrtT)
{
    float callValue = S * __expf(MuByT + VBySqrtT * r) - X;
    return callValue > 0.0f ? callValue : 0.0f;
}

#define THREAD_N 256

// EXPECT-NO: @+1 hms-placement
__global__ void monteCarloOneBlockPerOption(unsigned *rngStates,
                                            const OptionData *__restrict d_OptionData,
                                            float *d_CallValue, int pathN, int optionN)
{
    __shared__ float s_SumCall[THREAD_N];
    unsigned state = rngStates[threadIdx.x + blockIdx.x * blockDim.x];
    for (int optionIndex = blockIdx.x; optionIndex < optionN; optionIndex += gridDim.x) {
        const float S = d_OptionData[optionIndex].S;
        const float X = d_OptionData[optionIndex].X;
        const float MuByT = d_OptionData[optionIndex].MuByT;
        const float VBySqrtT = d_OptionData[optionIndex].VBySqrtT;
        float sumCall = 0;
        for (int i = threadIdx.x; i < pathN; i += THREAD_N) {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            float u1 = (state & 0xffffff) * (1.0f / 16777216.0f) + 1e-7f;
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            float u2 = (state & 0xffffff) * (1.0f / 16777216.0f);
            float r = sqrtf(-2.0f * __logf(u1)) * __cosf(6.2831853f * u2);
            sumCall += endCallValue(S, X, r, MuByT, VBySqrtT);
        }
        s_SumCall[threadIdx.x] = sumCall;
        __syncthreads();
        for (int s = THREAD_N / 2; s > 0; s >>= 1) {
            if (threadIdx.x < s)
                s_SumCall[threadIdx.x] += s_SumCall[threadIdx.x + s];
            __syncthreads();
        }
        if (threadIdx.x == 0)
            d_CallValue[optionIndex] = s_SumCall[0] / pathN;
        __syncthreads();
    }
}

// Interval bisection: every thread searches its own function's roots with a
// stack of its own (in local memory), pushing the roots it finds to a global
// stack interleaved by thread. The loop runs until the thread's stack is
// empty: sequential work of one thread, which more threads cannot share.
#define GRID_SIZE 1024
#define BLOCK_SIZE 64
#define THREADS (GRID_SIZE * BLOCK_SIZE)
#define DEPTH 16

struct Interval {
    float lo, hi;
};

template <int N> class ThreadStack
{
    Interval buf[N];
    int tos;

  public:
    __device__ ThreadStack() : tos(-1) {}
    __device__ void push(const Interval &v)
    {
        buf[++tos] = v;
    }
    __device__ Interval pop()
    {
        return buf[tos--];
    }
    __device__ bool empty() const
    {
        return tos < 0;
    }
    __device__ bool full() const
    {
        return tos == N - 1;
    }
};

class InterleavedResults
{
    Interval *buf;
    int next;

  public:
    __device__ InterleavedResults(Interval *b, int thread_id) : buf(b), next(thread_id) {}
    __device__ void push(const Interval &v)
    {
        buf[next] = v;
        next += THREADS;
    }
    __device__ int size() const
    {
        return next / THREADS;
    }
};

// EXPECT-NO: @+1 hms-latency-hiding
__global__ void bisectRoots(Interval *results, int *nresults, Interval start, float eps)
{
    int thread_id = blockIdx.x * BLOCK_SIZE + threadIdx.x;
    InterleavedResults found(results, thread_id);
    ThreadStack<DEPTH> work;
    work.push(start);
    float c = 1.0f + thread_id * 1e-4f;
    while (!work.empty()) {
        Interval iv = work.pop();
        if (iv.hi - iv.lo < eps) {
            found.push(iv);
        } else if (!work.full()) {
            float mid = 0.5f * (iv.lo + iv.hi);
            Interval left = {iv.lo, mid}, right = {mid, iv.hi};
            if (mid * mid - c < 0.0f)
                work.push(right);
            else
                work.push(left);
        }
    }
    nresults[thread_id] = found.size();
}

// A 64 x 64 cube map, a thread per texel, the same six faces for every
// texel: the grid is the data's (it grows with the cube map), so its
// under-fill says the cube map is small, not that the launch is wrong.
// EXPECT-NO: @+1 hms-latency-hiding
__global__ void transformCubemap(float *g_odata, const float *g_idata, int width)
{
    unsigned int x = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int y = blockIdx.y * blockDim.y + threadIdx.y;
    for (unsigned int face = 0; face < 6; face++)
        g_odata[face * width * width + y * width + x] =
            -g_idata[face * width * width + y * width + x];
}

// Control: 64 blocks (one per bin) each walk all partial histograms with a
// block-stride loop. The grid stays 64 blocks however many partials there
// are: its under-fill is the launch's choice. Its lanes read 256 bytes apart
// (32 sectors a request, 1/8 of each used), so the launch moves 8x its data
// through L2 and the L2 bandwidth bound (52429 cycles on h100) sets its time;
// the same work spread over every SM moves the same L2 bytes and is predicted
// no faster, so the under-fill is not what to fix (coalescing is). Eq. 11's
// unfitted ratio predicted 1.6x by leaving 80% of T_mem exposed at 8 warps and
// charging each uncoalesced replay as a dependent instruction.
// EXPECT-NO: @+1 hms-latency-hiding
__global__ void mergeBins(unsigned *d_Histogram, const unsigned *d_Partial, int histogramCount)
{
    __shared__ unsigned data[256];
    unsigned sum = 0;
    for (int i = threadIdx.x; i < histogramCount; i += 256)
        sum += d_Partial[blockIdx.x + i * 64];
    data[threadIdx.x] = sum;
    __syncthreads();
    for (unsigned stride = 128; stride > 0; stride >>= 1) {
        if (threadIdx.x < stride)
            data[threadIdx.x] += data[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        d_Histogram[blockIdx.x] = data[0];
}

// A kernel written for one block (simpleHyperQ's clock sum): its threads
// share the data out by threadIdx alone, so more blocks would each repeat
// the whole sum, not take a share of it. Not a launch to enlarge.
// EXPECT-NO: @+1 hms-latency-hiding
__global__ void sumClocks(long long *d_clocks, int N)
{
    __shared__ long long s_clocks[32];
    long long my_sum = 0;
    for (int i = threadIdx.x; i < N; i += blockDim.x)
        my_sum += d_clocks[i];
    s_clocks[threadIdx.x] = my_sum;
    __syncthreads();
    for (int i = 16; i > 0; i /= 2) {
        if (threadIdx.x < i)
            s_clocks[threadIdx.x] += s_clocks[threadIdx.x + i];
        __syncthreads();
    }
    d_clocks[0] = s_clocks[0];
}

// A tiled matrix product instantiated for 32 x 32 tiles and launched
// through the driver API (cuLaunchKernel, not folded): the assumed 16 x 16
// block puts two tile rows in each warp, and rows 32 floats apart meet in
// the same banks. With the block the tile implies, a warp holds one row and
// the stores are conflict-free: the 2-way is the guess's, not the code's.
template <int block_size> __device__ void matrixMulTile(float *C, const float *A, const float *B, int wA, int wB)
{
    __shared__ float As[block_size][block_size];
    __shared__ float Bs[block_size][block_size];
    int tx = threadIdx.x, ty = threadIdx.y;
    int aBegin = wA * block_size * blockIdx.y, bBegin = block_size * blockIdx.x;
    float Csub = 0;
    for (int a = aBegin, b = bBegin; a < aBegin + wA; a += block_size, b += block_size * wB) {
        As[ty][tx] = A[a + wA * ty + tx]; // EXPECT-NO: hms-shared-bank-conflict
        Bs[ty][tx] = B[b + wB * ty + tx]; // EXPECT-NO: hms-shared-bank-conflict
        __syncthreads();
        for (int k = 0; k < block_size; ++k)
            Csub += As[ty][k] * Bs[k][tx]; // EXPECT-NO: hms-shared-bank-conflict
        __syncthreads();
    }
    C[wB * block_size * blockIdx.y + block_size * blockIdx.x + wB * ty + tx] = Csub;
}

extern "C" __global__ void matrixMul_bs32(float *C, const float *A, const float *B, int wA, int wB)
{
    matrixMulTile<32>(C, A, B, wA, wB);
}

// Control: a histogram with a hard-coded grid (64 blocks of 3 warps) and a
// grid-stride loop over data of any size: whatever size the analysis
// assumes for dataN, the grid is the launch's choice and more blocks would
// share the data out.
// EXPECT-WARNING: @+1 hms-latency-hiding grid of 64 blocks under-fills the GPU
__global__ void histogramGridStride(unsigned *d_Result, const unsigned *d_Data, int dataN)
{
    __shared__ unsigned s_Hist[3 * 256];
    for (int i = threadIdx.x; i < 3 * 256; i += blockDim.x)
        s_Hist[i] = 0;
    __syncthreads();
    for (int pos = blockIdx.x * blockDim.x + threadIdx.x; pos < dataN; pos += blockDim.x * gridDim.x) {
        unsigned data = d_Data[pos];
        atomicAdd(&s_Hist[(threadIdx.x >> 5) * 256 + (data & 255)], 1);
        atomicAdd(&s_Hist[(threadIdx.x >> 5) * 256 + ((data >> 8) & 255)], 1);
    }
    __syncthreads();
    for (int bin = threadIdx.x; bin < 256; bin += blockDim.x)
        atomicAdd(&d_Result[bin], s_Hist[bin] + s_Hist[256 + bin] + s_Hist[512 + bin]);
}

// The last pass of a two-pass reduction: one block sums the first pass's
// per-block partials, grid-stride so that it works for any count. One block
// is the design (the input is the first grid's size, unknown here): more
// blocks would need a third pass, not a bigger launch.
// EXPECT-NO: @+1 hms-latency-hiding
__global__ void reduceFinalPass(const double *partials, double *result, size_t count)
{
    __shared__ double tmp[512];
    size_t tid = blockIdx.x * blockDim.x + threadIdx.x;
    double sum = 0.0;
    for (size_t i = tid; i < count; i += gridDim.x * blockDim.x)
        sum += partials[i];
    tmp[threadIdx.x] = sum;
    __syncthreads();
    for (unsigned s = 256; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            tmp[threadIdx.x] += tmp[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        *result = tmp[0];
}

void runSmallLaunches(unsigned *rng, const OptionData *opt, float *call, Interval *res, int *nres,
                      float *cube, const float *cubeIn, unsigned *hist, const unsigned *partial, long long *clocks)
{
    monteCarloOneBlockPerOption<<<256, THREAD_N>>>(rng, opt, call, 1 << 18, 256);
    bisectRoots<<<GRID_SIZE, BLOCK_SIZE>>>(res, nres, Interval{0.0f, 4.0f}, 1e-3f);
    dim3 block(8, 8, 1), grid(64 / 8, 64 / 8, 1);
    transformCubemap<<<grid, block>>>(cube, cubeIn, 64);
    mergeBins<<<64, 256>>>(hist, partial, 32768);
    sumClocks<<<1, 32>>>(clocks, 4096);
    histogramGridStride<<<64, 96>>>(hist, partial, hist[0]);
    reduceFinalPass<<<1, 512>>>((const double *)call, (double *)call, (size_t)hist[1]);
}
