// The CuMAPz motivating example (Kim & Shrivastava, Fig. 1-2 and Tables I-III):
// out = in[c] * in[c+1] * in[c+2] along rows of a 1024 x 1024 matrix, with
// 16 x 16 blocks; without shared memory, with the c+1 reference fetched into
// a shared buffer read column-wise (Fig. 2), row-wise, column-wise with a
// padded buffer, and with the output written column-wise. Written afresh for
// hms-lint's check tests (expectation syntax: see transpose.cu). Checked on
// the paper's GPU (Tesla C1060, gt200: 16 banks, 8 partitions of 256 bytes)
// and on the default one.
// EXPECT-ARCHES: gt200 h100
#include <cuda_runtime.h>

#define BLKDIM 16
#define MAX 1024

__global__ void noShared(float *out, const float *in)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    out[row * MAX + col] = in[row * MAX + col] * in[row * MAX + col + 1] * in[row * MAX + col + 2]; // EXPECT-NO: hms-partition-camping
}

// Fig. 2: the buffer is stored and read column-wise.
__global__ void fetchColumnWise(float *out, const float *in)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    float t1, t2, t3;
    __shared__ float s_in[BLKDIM][BLKDIM];
    // EXPECT-WARNING-GT200: @+2 hms-shared-bank-conflict 16-way bank conflict: 32 wavefronts per request where 2 would do (lanes 16 floats apart in 's_in'); 534 cycles per request instead of 54; padding the rows to [16][16 + 1] removes it
    // EXPECT-WARNING-H100: @+1 hms-shared-bank-conflict 8-way bank conflict: 8 wavefronts per request where 1 would do (lanes 16 floats apart in 's_in'); 37 cycles per request instead of 23; padding the rows to [16][16 + 2] removes it
    s_in[threadIdx.x][threadIdx.y] = in[row * MAX + col + 1];
    __syncthreads();
    // The lanes with threadIdx.x == 0 (one of 16 in a row) read global memory:
    // 2 of 32 lanes per warp, 8 warps where 16 lanes fit one.
    // EXPECT-WARNING: @+2 hms-divergent-access thread-dependent branch leaves 6.2% of the lanes active in this load of 'in': 8 requests per block where 1 would do with the active lanes packed into whole warps (8x fewer)
    if (threadIdx.x == 0)
        t1 = in[row * MAX + col];
    else // EXPECT-WARNING: @+1 hms-shared-bank-conflict wavefronts per request
        t1 = s_in[threadIdx.x - 1][threadIdx.y];
    t2 = s_in[threadIdx.x][threadIdx.y]; // EXPECT-WARNING: hms-shared-bank-conflict wavefronts per request
    // EXPECT-WARNING: @+3 hms-divergent-access 6.2% of the lanes active in this load of 'in'
    // EXPECT-NO: @+4 hms-divergent-access
    if (threadIdx.x == blockDim.x - 1)
        t3 = in[row * MAX + col + 2];
    else // EXPECT-WARNING: @+1 hms-shared-bank-conflict wavefronts per request
        t3 = s_in[threadIdx.x + 1][threadIdx.y];
    out[row * MAX + col] = t1 * t2 * t3; // EXPECT-NO: hms-uncoalesced-access
}

// Table II, row-wise: the same buffer stored and read along rows.
__global__ void fetchRowWise(float *out, const float *in)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    float t1, t2, t3;
    __shared__ float s_in[BLKDIM][BLKDIM];
    s_in[threadIdx.y][threadIdx.x] = in[row * MAX + col + 1]; // EXPECT-NO: hms-shared-bank-conflict
    __syncthreads();
    if (threadIdx.x == 0)
        t1 = in[row * MAX + col];
    else
        t1 = s_in[threadIdx.y][threadIdx.x - 1];
    t2 = s_in[threadIdx.y][threadIdx.x]; // EXPECT-NO: hms-shared-bank-conflict
    if (threadIdx.x == blockDim.x - 1)
        t3 = in[row * MAX + col + 2];
    else
        t3 = s_in[threadIdx.y][threadIdx.x + 1];
    out[row * MAX + col] = t1 * t2 * t3;
}

// Table II, BLKDIM+1: column-wise with one padding column.
__global__ void fetchPadded(float *out, const float *in)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    float t1, t2, t3;
    __shared__ float s_in[BLKDIM][BLKDIM + 1];
    // EXPECT-NO-GT200: @+1 hms-shared-bank-conflict
    s_in[threadIdx.x][threadIdx.y] = in[row * MAX + col + 1]; // EXPECT-WARNING-H100: hms-shared-bank-conflict 2-way bank conflict: 2 wavefronts per request where 1 would do (lanes 17 floats apart in 's_in'); 25 cycles per request instead of 23; padding the rows to [16][17 + 1] removes it
    __syncthreads();
    if (threadIdx.x == 0)
        t1 = in[row * MAX + col];
    else // EXPECT-NO-GT200: @+2 hms-shared-bank-conflict
        t1 = s_in[threadIdx.x - 1][threadIdx.y];
    t2 = s_in[threadIdx.x][threadIdx.y]; // EXPECT-WARNING-H100: hms-shared-bank-conflict 2-way bank conflict
    if (threadIdx.x == blockDim.x - 1)
        t3 = in[row * MAX + col + 2];
    else // EXPECT-NO: @+1 hms-shared-bank-conflict
        t3 = s_in[threadIdx.x + 1][threadIdx.y];
    out[row * MAX + col] = t1 * t2 * t3;
}

// Table III: the output written column-wise.
__global__ void columnStore(float *out, const float *in)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    // EXPECT-WARNING-GT200: @+4 hms-partition-camping concurrent stores to 'out' from the first resident blocks fall on 1 of 8 DRAM channels where they could use 8: the busiest channel carries 8x its even share (CuMAPz channel skew 8)
    // H100 hashes addresses across its HBM channels (dram.address_hashed): not judged there.
    // EXPECT-NO-H100: @+2 hms-partition-camping
    // EXPECT-NOTE-H100: @-7 hms-analysis-limit hms-partition-camping not judged: this architecture hashes addresses
    out[col * MAX + row] = in[row * MAX + col] * in[row * MAX + col + 1] * in[row * MAX + col + 2]; // EXPECT-WARNING: hms-uncoalesced-access stride of 1024 floats between lanes: 16 sectors per request where 4 would do (25% of fetched bytes used); a coalesced store to 'out' would move 4x fewer bytes
}

int main()
{
    float *in, *out;
    cudaMalloc(&in, (MAX * MAX + 2) * sizeof(float));
    cudaMalloc(&out, MAX * MAX * sizeof(float));
    dim3 grid(MAX / BLKDIM, MAX / BLKDIM), block(BLKDIM, BLKDIM);
    noShared<<<grid, block>>>(out, in);
    fetchColumnWise<<<grid, block>>>(out, in);
    fetchRowWise<<<grid, block>>>(out, in);
    fetchPadded<<<grid, block>>>(out, in);
    columnStore<<<grid, block>>>(out, in);
    return 0;
}
