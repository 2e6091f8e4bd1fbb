// The CuMAPz motivating example (Kim & Shrivastava, seeds/001_3bb0fc5541bb7adb.txt,
// Fig. 1-2, Tables I-III): out = in[c] * in[c+1] * in[c+2] along rows of a
// 1024 x 1024 matrix, 16 x 16 blocks, on a Tesla C1060 (gt200). Written afresh
// for hms-lint's published-results tests: every fetch choice K (the reference
// in[row*MAX+col+K] staged in shared memory) with the buffer used column-wise
// (Fig. 2), row-wise, or column-wise with a padding column (Table II), and
// with the output written column-wise (Table III). A reference whose element
// the block's buffer holds reads the buffer, the others read global memory.
#include <cuda_runtime.h>

#define BLKDIM 16
#define MAX 1024

#define S_COL(x) s_in[(x)][threadIdx.y]
#define S_ROW(x) s_in[threadIdx.y][(x)]
#define OUT_ROW (row * MAX + col)
#define OUT_COL (col * MAX + row)

// t = in[row*MAX+col+J], from the buffer of fetch K when it holds the element.
#define PICK(t, J, K, S)                                                                           \
    if ((int)threadIdx.x + (J) - (K) >= 0 && (int)threadIdx.x + (J) - (K) < BLKDIM)              \
        t = S((int)threadIdx.x + (J) - (K));                                                       \
    else                                                                                           \
        t = in[row * MAX + col + (J)];

#define FETCH_KERNEL(name, K, PAD, S, OUT)                                                         \
    __global__ void name(float *out, const float *in)                                              \
    {                                                                                              \
        int row = blockIdx.y * blockDim.y + threadIdx.y;                                           \
        int col = blockIdx.x * blockDim.x + threadIdx.x;                                           \
        float t1, t2, t3;                                                                          \
        __shared__ float s_in[BLKDIM][BLKDIM + PAD];                                               \
        S((int)threadIdx.x) = in[row * MAX + col + (K)];                                           \
        __syncthreads();                                                                           \
        PICK(t1, 0, K, S)                                                                          \
        PICK(t2, 1, K, S)                                                                          \
        PICK(t3, 2, K, S)                                                                          \
        out[OUT] = t1 * t2 * t3;                                                                   \
    }

__global__ void noShared(float *out, const float *in)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    out[row * MAX + col] = in[row * MAX + col] * in[row * MAX + col + 1] * in[row * MAX + col + 2];
}

__global__ void noSharedColStore(float *out, const float *in)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    out[col * MAX + row] = in[row * MAX + col] * in[row * MAX + col + 1] * in[row * MAX + col + 2];
}

FETCH_KERNEL(col0, 0, 0, S_COL, OUT_ROW)
FETCH_KERNEL(col1, 1, 0, S_COL, OUT_ROW)
FETCH_KERNEL(col2, 2, 0, S_COL, OUT_ROW)
FETCH_KERNEL(row0, 0, 0, S_ROW, OUT_ROW)
FETCH_KERNEL(row1, 1, 0, S_ROW, OUT_ROW)
FETCH_KERNEL(row2, 2, 0, S_ROW, OUT_ROW)
FETCH_KERNEL(pad0, 0, 1, S_COL, OUT_ROW)
FETCH_KERNEL(pad1, 1, 1, S_COL, OUT_ROW)
FETCH_KERNEL(pad2, 2, 1, S_COL, OUT_ROW)
FETCH_KERNEL(rowColStore0, 0, 0, S_ROW, OUT_COL)
FETCH_KERNEL(rowColStore1, 1, 0, S_ROW, OUT_COL)
FETCH_KERNEL(rowColStore2, 2, 0, S_ROW, OUT_COL)

int main()
{
    float *in, *out;
    cudaMalloc(&in, (MAX * MAX + 2) * sizeof(float));
    cudaMalloc(&out, MAX * MAX * sizeof(float));
    dim3 grid(MAX / BLKDIM, MAX / BLKDIM), block(BLKDIM, BLKDIM);
    noShared<<<grid, block>>>(out, in);
    noSharedColStore<<<grid, block>>>(out, in);
    col0<<<grid, block>>>(out, in);
    col1<<<grid, block>>>(out, in);
    col2<<<grid, block>>>(out, in);
    row0<<<grid, block>>>(out, in);
    row1<<<grid, block>>>(out, in);
    row2<<<grid, block>>>(out, in);
    pad0<<<grid, block>>>(out, in);
    pad1<<<grid, block>>>(out, in);
    pad2<<<grid, block>>>(out, in);
    rowColStore0<<<grid, block>>>(out, in);
    rowColStore1<<<grid, block>>>(out, in);
    rowColStore2<<<grid, block>>>(out, in);
    return 0;
}
