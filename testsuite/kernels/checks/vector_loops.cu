// Short loops over a thread's own run of elements (llm.c f128/x128 style:
// `for (k = 0; k < size; k++) dst[idx + k] = ...`), for hms-lint's check
// tests (expectation syntax: see transpose.cu). nvcc unrolls the constant
// loop; one iteration's request leaves gaps between lanes that the next
// iterations fill (L1 keeps the loaded lines, L2 merges partial sector
// writes), so the loop moves the bytes one vector access would: not an
// uncoalesced access. A run of a lane far from its neighbours' still wastes
// the rest of each sector.
// EXPECT-ARCHES: h100 v100
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define RUN 4

// Four halves per thread (8 bytes), lanes 8 bytes apart: the k loop writes
// every byte of the 256-byte span of the warp.
// hms-lint: launch grid(1024) block(256)
// hms-lint: param n=1048576 m=8
__global__ void addPartials(half *dst, const float *src, int n, int m)
{
    int idx = (blockIdx.x * blockDim.x + threadIdx.x) * RUN;
    if (idx >= n)
        return;
    float acc[RUN];
    for (int k = 0; k < RUN; k++)
        acc[k] = 0.0f;
    for (int l = 0; l < m; l++) {
        float4 s = *reinterpret_cast<const float4 *>(src + idx + n * l); // EXPECT-NO: hms-uncoalesced-access
        acc[0] += s.x;
        acc[1] += s.y;
        acc[2] += s.z;
        acc[3] += s.w;
    }
    for (int k = 0; k < RUN; k++)
        dst[idx + k] = __float2half(__half2float(dst[idx + k]) + acc[k]); // EXPECT-NO: hms-uncoalesced-access
}

// Four floats per thread, but each thread's run starts a row of 64 floats:
// 16 useful bytes of every 32-byte sector, whatever the loop does.
// hms-lint: launch grid(256) block(256)
__global__ void rowHeads(float *out, const float *in)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    for (int k = 0; k < RUN; k++) {
        // EXPECT-WARNING: @+1 hms-uncoalesced-access stride of 64 floats between lanes: 32 sectors per request where 16 would do
        out[row * 64 + k] = 2.0f * in[row * 64 + k]; // EXPECT-WARNING: hms-uncoalesced-access where 16 would do
    }
}

// Planar to packed RGB (cuda-samples NV12toBGRandResize style): three byte
// stores per lane at x * 3 + 0, 1, 2 write the lane's 3 neighbouring bytes;
// together they fill every byte of the warp's 96-byte span, as one packed
// write would. Reading only two of four floats of each element still wastes
// half of every sector.
// hms-lint: launch grid(512) block(256)
// hms-lint: param n=131072 batch=4
__global__ void planarToPacked(unsigned char *dst, const float *src, const float4 *quad, float *out,
                               int n, int batch)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= n)
        return;
    for (int j = 0; j < batch; j++) {
        dst[j * n * 3 + x * 3 + 0] = (unsigned char)src[j * n * 3 + x];         // EXPECT-NO: hms-uncoalesced-access
        dst[j * n * 3 + x * 3 + 1] = (unsigned char)src[j * n * 3 + n + x];     // EXPECT-NO: hms-uncoalesced-access
        dst[j * n * 3 + x * 3 + 2] = (unsigned char)src[j * n * 3 + 2 * n + x]; // EXPECT-NO: hms-uncoalesced-access
    }
    const float *q = reinterpret_cast<const float *>(quad);
    out[x] = q[x * 4 + 0] + q[x * 4 + 1]; // EXPECT-WARNING: hms-uncoalesced-access 16 sectors per request where 8 would do
}

// Neighbour reads of an image (cuda-samples Mandelbrot anti-aliasing
// style): dst[p - 1] and dst[p + 1] are the centre read shifted by one
// pixel, their extra (misaligned) sectors already fetched by it; boundary
// guards make their request counts differ slightly.
// hms-lint: launch grid(32,32) block(16,16)
// hms-lint: param w=512 h=512
__global__ void edgeCount(int *count, const uchar4 *dst, int w, int h)
{
    int ix = blockIdx.x * blockDim.x + threadIdx.x;
    int iy = blockIdx.y * blockDim.y + threadIdx.y;
    int p = iy * w + ix;
    uchar4 c = dst[p];
    int n = 0;
    if (ix > 0)
        n += abs(dst[p - 1].x - c.x) > 10; // EXPECT-NO: hms-uncoalesced-access
    if (ix + 1 < w)
        n += abs(dst[p + 1].x - c.x) > 10; // EXPECT-NO: hms-uncoalesced-access
    count[p] = n;
}
