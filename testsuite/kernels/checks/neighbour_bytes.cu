// Accesses whose extra sectors other accesses of the same warp already
// move, in the style of the CUDA samples (cdpBezierTessellation,
// simpleD3D11Texture, jacobiCudaGraphs), with controls that still warn;
// and a shared store at a slot loaded from memory (eigenvalues' compaction).
// For hms-lint's check tests (expectation syntax: see transpose.cu).
// EXPECT-ARCHES: h100
#include <cuda_runtime.h>

// Array of 40-byte structs, a thread per line: the three control points
// (float2, index 5 * i + k of 8-byte elements) are read, then the vertex
// pointer at byte 24 of the same struct. Its sectors are the ones the
// control points just brought in: one read of 32 bytes per lane, 4x fewer
// bytes than the sectors fetched is not what a rewrite would save. The
// count written into a field nothing else touches is a real AoS store.
struct BezierLine {
    float2 CP[3];
    float2 *vertexPos;
    int nVertices;
};

__global__ void tessellationCounts(BezierLine *bLines, int *needAlloc, int nLines)
{
    int lidx = threadIdx.x + blockDim.x * blockIdx.x;
    if (lidx < nLines) {
        float2 d1 = bLines[lidx].CP[1];
        float2 d0 = bLines[lidx].CP[0];
        float2 d2 = bLines[lidx].CP[2];
        float cx = d1.x - 0.5f * (d0.x + d2.x), cy = d1.y - 0.5f * (d0.y + d2.y);
        float curvature = sqrtf(cx * cx + cy * cy);
        int nTessPoints = min(max((int)(curvature * 16.0f), 4), 32);
        needAlloc[lidx] = bLines[lidx].vertexPos == nullptr; // EXPECT-NO: hms-uncoalesced-access
        bLines[lidx].nVertices = nTessPoints; // EXPECT-WARNING: hms-uncoalesced-access a coalesced store to 'bLines' would move 8x fewer bytes
    }
}

// RGBA8 pixels, a thread per pixel: alpha, then blue, green and red, then
// the channel the face selects (a lane-uniform shift) overwritten. The four
// channel stores tile each lane's 4 bytes, so whatever channel the face
// picks, the warp's sectors are the ones it is writing anyway.
__global__ void cubeFacePixels(unsigned char *surface, int width, int height, size_t pitch, int face, float t)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height)
        return;
    unsigned char *pixel = surface + y * pitch + 4 * x;
    unsigned char value = 255 * (0.6f + 0.4f * __cosf(t + x * 0.01f));
    pixel[3] = 255;
    pixel[0] = pixel[1] = pixel[2] = value;
    pixel[face / 2] = 127; // EXPECT-NO: hms-uncoalesced-access
}

// Control: one channel of each pixel written at a lane-uniform offset, with
// no neighbours filling the rest: a quarter of the bytes used.
__global__ void oneChannel(unsigned char *surface, int width, size_t pitch, int channel)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y;
    if (x < width)
        surface[y * pitch + 4 * x + channel] = 0; // EXPECT-WARNING: hms-uncoalesced-access 4 sectors per request where 1 would do
}

// Jacobi sweep, 8 rows per block: the rows are read coalesced, then 8 lanes
// read their row's diagonal element, rows 2 KB apart: 8 sectors for 32
// bytes, once per 8 rows of 512 floats, under 2% of the kernel's sectors
// (and lines the row loop just read).
#define N_ROWS 512
#define ROWS_PER_CTA 8

__global__ void jacobiRows(const float *A, const double *b, double *x, double *x_new)
{
    __shared__ double x_shared[N_ROWS];
    __shared__ double b_shared[ROWS_PER_CTA];
    for (int i = threadIdx.x; i < N_ROWS; i += blockDim.x)
        x_shared[i] = x[i];
    if (threadIdx.x < ROWS_PER_CTA)
        b_shared[threadIdx.x] = b[blockIdx.x * ROWS_PER_CTA + threadIdx.x];
    __syncthreads();
    for (int k = 0; k < ROWS_PER_CTA; k++) {
        int i = blockIdx.x * ROWS_PER_CTA + k;
        double rowSum = 0.0;
        for (int j = threadIdx.x; j < N_ROWS; j += blockDim.x)
            rowSum += A[i * N_ROWS + j] * x_shared[j];
        for (int offset = 16; offset > 0; offset /= 2)
            rowSum += __shfl_down_sync(0xffffffff, rowSum, offset);
        if ((threadIdx.x & 31) == 0)
            atomicAdd(&b_shared[k], -rowSum);
    }
    __syncthreads();
    if (threadIdx.x < ROWS_PER_CTA) {
        int i = blockIdx.x * ROWS_PER_CTA + threadIdx.x;
        double dx = b_shared[threadIdx.x] / A[i * N_ROWS + i]; // EXPECT-NO: hms-uncoalesced-access
        x_new[i] = x_shared[i] + dx;
    }
}

// Stream compaction in shared memory (eigenvalues' bisection style): each
// thread writes its interval to the slot a scan gave it. The slot is data
// (a prefix sum of flags), so the bank degree the analysis could give it is
// its stand-in values', not the kernel's: no verdict.
#define COMPACT_THREADS 256
__global__ void compactIntervals(const float *g_left, const unsigned *g_flags, float *g_out)
{
    __shared__ unsigned s_scan[COMPACT_THREADS];
    __shared__ float s_compact[COMPACT_THREADS + 1];
    unsigned tid = threadIdx.x;
    s_scan[tid] = g_flags[blockIdx.x * COMPACT_THREADS + tid];
    __syncthreads();
    for (unsigned d = 1; d < COMPACT_THREADS; d <<= 1) {
        unsigned v = tid >= d ? s_scan[tid - d] : 0;
        __syncthreads();
        s_scan[tid] += v;
        __syncthreads();
    }
    unsigned slot = 0;
    if (g_flags[blockIdx.x * COMPACT_THREADS + tid])
        slot = s_scan[tid];
    s_compact[slot + 1] = g_left[blockIdx.x * COMPACT_THREADS + tid]; // EXPECT-NO: hms-shared-bank-conflict
    __syncthreads();
    g_out[blockIdx.x * COMPACT_THREADS + tid] = s_compact[tid];
}

void runNeighbourBytes(BezierLine *lines, int *needAlloc, unsigned char *surface, const float *A, const double *b,
                       double *x, double *xn)
{
    tessellationCounts<<<4, 64>>>(lines, needAlloc, 256);
    dim3 block(16, 16), grid(16, 16);
    cubeFacePixels<<<grid, block>>>(surface, 256, 256, 1024, 3, 0.5f);
    oneChannel<<<dim3(2, 256), 128>>>(surface, 256, 1024, 1);
    jacobiRows<<<N_ROWS / ROWS_PER_CTA, 256>>>(A, b, x, xn);
    compactIntervals<<<1024, COMPACT_THREADS>>>((const float *)A, (const unsigned *)b, (float *)x);
}
