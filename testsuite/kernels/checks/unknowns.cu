// Kernels whose figures rest on values the analysis cannot know, for
// hms-lint's check tests (expectation syntax: see transpose.cu): a token
// embedding whose row comes from memory but is the same for a whole warp, a
// Gaussian-elimination step whose guards only sizes nobody gave decide, and
// a kernel that does nothing under the assumed values.
#include <cuda_runtime.h>

// Token + position embedding, one thread per output element (GPT-2 style,
// C = 768): 32 consecutive threads share bt, so `ix` is one value per warp
// and wte[ix * C + c] reads 128 contiguous bytes of one row.
// hms-lint: launch grid(256) block(256)
// hms-lint: param B=4 T=64 C=768
__global__ void embedTokens(float *out, const int *tokens, const float *wte, const float *wpe,
                            int B, int T, int C) // EXPECT-NOTE: @-1 hms-analysis-limit access wte[ix * C + c] at
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= B * T * C)
        return;
    int bt = idx / C;
    int t = bt % T;
    int c = idx % C;
    int ix = tokens[bt];
    out[idx] = wte[ix * C + c] + wpe[t * C + c]; // EXPECT-NO: hms-uncoalesced-access
}

// One thread per token, each gathering its own row: 32 tokens nobody knows
// per warp. Modelled as a scatter over wte, which is an assumption, so no
// coalescing verdict, only the note saying so.
// hms-lint: launch grid(16) block(256)
// hms-lint: param C=768
__global__ void gatherOwnRow(float *out, const int *tokens, const float *wte, int C) // EXPECT-NOTE: @+0 hms-analysis-limit modelled as spread over 'wte'
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = wte[tokens[i] * C]; // EXPECT-NO: hms-uncoalesced-access
}

// The elimination step of Rodinia's gaussian (Fan2 style) with neither Size
// nor t given: t is an offset subtracted from the bound Size, so it takes a
// quarter of the 64 threads per dimension instead of cancelling the bound.
// hms-lint: launch grid(16,16) block(4,4)
__global__ void eliminate(float *m, float *a, float *b, int Size, int t) // EXPECT-NOTE: @+0 hms-analysis-limit parameter 't' has no value: assumed 16 (subtracted from a bound of a thread index
{
    if (threadIdx.x + blockIdx.x * blockDim.x >= Size - 1 - t)
        return;
    if (threadIdx.y + blockIdx.y * blockDim.y >= Size - t)
        return;
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    a[Size * (x + 1 + t) + (y + t)] -= m[Size * (x + 1 + t) + t] * a[Size * t + (y + t)];
    if (y == 0)
        b[x + 1 + t] -= m[Size * (x + 1 + t) + (y + t)] * b[t];
}

// Works only for one mode: under the assumed mode every thread leaves
// first, and no verdict is given on a kernel that did nothing.
// hms-lint: launch grid(64) block(256)
__global__ void onlyInMode(float *out, const float *in, int mode) // EXPECT-NOTE: @+0 hms-analysis-limit no access ran under the assumed values (mode = 64)
{
    if (mode != 3) // EXPECT-NO: @-1 hms-memory-bound
        return;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i];
}

// Particle likelihood (Rodinia particlefilter style): each particle sums the
// image pixels at positions it computed and stored in its own row of `ind`.
// The pixel read I[ind[...]] is a data-dependent gather in a loop, spread
// over the image by the model on every iteration: no coalescing or row
// locality advice can be given for it. The own-row walk of `ind` (countOnes
// ints apart between lanes) is a real uncoalesced access.
// hms-lint: launch grid(64) block(128)
// hms-lint: param countOnes=16 maxSize=1048576
__global__ void particleLikelihood(float *likelihood, const unsigned char *I, int *ind,
                                   const int *offsets, int countOnes, int maxSize)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int y = 0; y < countOnes; y++) {
        // EXPECT-WARNING: @+1 hms-uncoalesced-access stride of countOnes = 16 ints between lanes
        ind[i * countOnes + y] = (i * 7 + offsets[y]) % maxSize; // EXPECT-NO: hms-dram-locality
    }
    float sum = 0.0f;
    for (int x = 0; x < countOnes; x++) {
        // EXPECT-WARNING: @+1 hms-uncoalesced-access stride of countOnes = 16 ints between lanes
        int at = ind[i * countOnes + x];
        // EXPECT-NO: @+1 hms-dram-locality
        int p = I[at]; // EXPECT-NO: hms-uncoalesced-access
        sum += (p - 100) * (p - 100) - (p - 228) * (p - 228);
    }
    likelihood[i] = sum / countOnes;
}

// Token embedding with a thread per token walking its row of C floats
// (llm.c encoder_forward kernel1): the row comes from memory, but each lane
// walks its own row, so a warp's lanes sit on different rows whatever the
// tokens are: uncoalesced, and a thread per element is the fix.
// hms-lint: launch grid(16) block(256)
// hms-lint: param C=768
__global__ void embedRowPerThread(float *out, const int *tokens, const float *wte, int C)
{
    int bt = blockIdx.x * blockDim.x + threadIdx.x;
    int ix = tokens[bt];
    for (int c = 0; c < C; c++) {
        // EXPECT-WARNING: @+1 hms-uncoalesced-access a coalesced store to 'out'
        out[bt * C + c] = wte[ix * C + c]; // EXPECT-WARNING: hms-uncoalesced-access a coalesced load of 'wte'
    }
}
