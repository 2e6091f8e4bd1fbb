// Kernels whose blocks are, or are not, translations of each other
// (testsuite/unit/test_block_derive.c): the tracer derives a translating
// kernel's later blocks from its first one. Sizes come from --param /
// --launch in the tests.
#define TILE 16

// Shared-memory tiled SGEMM with no guard, its tiles reached by moving the
// matrix pointers: block (x, y) runs block (0, 0)'s code on tiles of A, B and
// C moved by a constant per block.
__global__ void tiledGemm(int N, const float *A, const float *B, float *C)
{
    __shared__ float As[TILE * TILE];
    __shared__ float Bs[TILE * TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    A += blockIdx.y * TILE * N;
    B += blockIdx.x * TILE;
    C += blockIdx.y * TILE * N + blockIdx.x * TILE;
    float acc = 0.0f;
    for (int k0 = 0; k0 < N; k0 += TILE) {
        As[ty * TILE + tx] = A[ty * N + tx];
        Bs[ty * TILE + tx] = B[ty * N + tx];
        __syncthreads();
        A += TILE;
        B += TILE * N;
        for (int k = 0; k < TILE; ++k)
            acc += As[ty * TILE + k] * Bs[k * TILE + tx];
        __syncthreads();
    }
    C[ty * N + tx] = acc;
}

// The same with global row and column indices: translating too, but the
// tracer's value table (value_table.h) sees `row` and `k0 + ty` as one value
// in the iteration where k0 = blockIdx.y * TILE, so each row of blocks
// saves an instruction in a different iteration and few blocks derive.
__global__ void indexGemm(int N, const float *A, const float *B, float *C)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < N; k0 += TILE) {
        As[ty][tx] = A[row * N + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}

// Element-wise: block b's accesses are block 0's moved by b * blockDim.x
// floats.
__global__ void scale(const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = 2.0f * x[i];
}

// The usual bounds guard: whether a lane runs depends on its block, and
// only the last block has lanes on both sides of it.
__global__ void guardedScale(int n, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = 2.0f * x[i];
}

// A loop whose trip count is the block's index.
__global__ void blockLoop(const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.0f;
    for (int j = 0; j < blockIdx.x; ++j)
        s += x[j * blockDim.x + threadIdx.x];
    y[i] = s;
}

// An index loaded from memory.
__global__ void gather(const int *idx, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = x[idx[i]];
}

// A local array indexed per thread: it lives in local memory, whose
// addresses depend on the block's resident slot.
__global__ void localArray(const float *x, float *y)
{
    float t[32];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int j = 0; j < 32; ++j)
        t[j] = x[i + j];
    y[i] = t[threadIdx.x % 32];
}

// matrixMul's loop: its bounds move with the block, its trip count does not
// (`a <= end` has the same outcome in every block).
__global__ void movingBounds(int w, const float *A, float *y)
{
    int begin = blockIdx.x * w, end = begin + w - 1;
    float s = 0.0f;
    for (int a = begin; a <= end; a += blockDim.x)
        s += A[a + threadIdx.x];
    y[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// Both sides of the comparison move with the block, so the rules call it
// the same in every block; with big near 2^63 the left side wraps around in
// the later blocks and the store stops running there: those blocks must be
// traced, not derived.
__global__ void wrapCompare(long long big, float *y)
{
    long long a = blockIdx.x * 128LL + big;
    long long b = blockIdx.x * 128LL;
    if (a > b)
        y[blockIdx.x * 32 + threadIdx.x] = 1.0f;
}

// llm.c's layernorm: one warp per row, and `mean != nullptr` compares
// addresses the front end cannot relate (an unknown with no load site): it
// decides nothing in any block, so the blocks still translate.
__global__ void rowMean(float *mean, const float *inp, int C)
{
    int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    float s = 0.0f;
    for (int i = threadIdx.x % 32; i < C; i += 32)
        s += inp[row * C + i];
    if (threadIdx.x % 32 == 0 && mean != nullptr)
        mean[row] = s / C;
}

// The same store under a branch on a loaded value: its stand-in hashes the
// address read, which moves with the block.
__global__ void rowMeanLoaded(float *mean, const float *inp, const int *flag, int C)
{
    int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    float s = 0.0f;
    for (int i = threadIdx.x % 32; i < C; i += 32)
        s += inp[row * C + i];
    if (threadIdx.x % 32 == 0 && flag[row] != 0)
        mean[row] = s / C;
}

// A stencil with a halo: the first and the last block leave out the
// neighbour outside the array, the inner blocks all run alike.
__global__ void halo(int n, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = x[i];
    if (i > 0)
        s += x[i - 1];
    if (i < n - 1)
        s += x[i + 1];
    y[i] = s;
}

// A triangle: block b's lanes below b store, so no two blocks run alike.
__global__ void triangle(float *y)
{
    if (threadIdx.x < blockIdx.x)
        y[blockIdx.x * 32 + threadIdx.x] = 1.0f;
}

// hotspot3D's clamped 2D stencil: the neighbour index is clamped at the
// grid's four edges, so the blocks fall into nine classes (four corners,
// four edges, the inner blocks).
__global__ void clamped2D(int nx, int ny, const float *x, float *y)
{
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    int j = blockDim.y * blockIdx.y + threadIdx.y;
    int c = i + j * nx;
    int W = (i == 0) ? c : c - 1;
    int E = (i == nx - 1) ? c : c + 1;
    int N = (j == 0) ? c : c - nx;
    int S = (j == ny - 1) ? c : c + nx;
    y[c] = x[c] + x[W] + x[E] + x[N] + x[S];
}
