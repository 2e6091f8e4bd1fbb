// SHOC spmv: CSR scalar kernel (one row per thread) and vector kernel (one
// warp per row); the column index comes from memory, so x[] is indirect.
#include <cuda_runtime.h>

__global__ void spmv_csr_scalar_kernel(const float *__restrict__ val, const int *__restrict__ cols,
                                       const int *__restrict__ rowDelimiters, const int dim,
                                       float *__restrict__ out, const float *__restrict__ vec)
{
    int myRow = blockIdx.x * blockDim.x + threadIdx.x;
    if (myRow < dim) {
        float t = 0.0f;
        int start = rowDelimiters[myRow];
        int end = rowDelimiters[myRow + 1];
        // EXPECT-ACCESS: -2 load rowDelimiters global 4 guard={blockIdx.x * blockDim.x + threadIdx.x < dim} index=blockIdx.x * blockDim.x + threadIdx.x
        for (int j = start; j < end; j++) {
            int col = cols[j];
            t += val[j] * vec[col];
            // EXPECT-ACCESS: -2 load cols global 4 loops=j index=j
            // EXPECT-ACCESS: -2 load vec global 4 loops=j index=unknown(value loaded from memory: cols[j])
            // EXPECT-LIMIT: -3 address of vec[col] depends on an unknown value: value loaded from memory: cols[j]
        }
        // loop bounds come from memory: no trip count
        // EXPECT-LOOP: -8 var=j trip=unknown
        // EXPECT-LIMIT: -9 loop trip count depends on an unknown value: value loaded from memory: rowDelimiters[myRow + 1]
        out[myRow] = t;
    }
    // EXPECT-ARRAY: vec global float 4B param const restrict read
}

__global__ void spmv_csr_vector_kernel(const float *__restrict__ val, const int *__restrict__ cols,
                                       const int *__restrict__ rowDelimiters, const int dim,
                                       float *__restrict__ out, const float *__restrict__ vec)
{
    int t = threadIdx.x;
    int id = t & (warpSize - 1);
    int warpsPerBlock = blockDim.x / warpSize;
    int myRow = (blockIdx.x * warpsPerBlock) + (t / warpSize);
    __shared__ volatile float partialSums[128];
    partialSums[t] = 0;
    // EXPECT-ACCESS: -1 store partialSums shared 4 index=threadIdx.x
    if (myRow < dim) {
        int warpStart = rowDelimiters[myRow];
        int warpEnd = rowDelimiters[myRow + 1];
        float mySum = 0;
        for (int j = warpStart + id; j < warpEnd; j += warpSize) {
            int col = cols[j];
            mySum += val[j] * vec[col];
        }
        // EXPECT-ACCESS: -2 load val global 4 loops=j index=j
        // EXPECT-LOOP: -5 var=j
        partialSums[t] = mySum;
        if (id < 16)
            partialSums[t] += partialSums[t + 16];
        // EXPECT-ACCESS: -1 load partialSums shared 4 guard={(threadIdx.x & warpSize - 1) < 16} index=threadIdx.x + 16
        if (id == 0)
            out[myRow] = partialSums[t];
        // EXPECT-ACCESS: -1 store out global 4 index=blockIdx.x * (blockDim.x / warpSize) + threadIdx.x / warpSize
    }
    // EXPECT-ARRAY: partialSums shared float[128] 4B volatile
    // EXPECT-LAUNCH: grid=(1024,1,1) block=(128,1,1) source=host-call
}

int main()
{
    int numRows = 8192;
    float *d_val, *d_out, *d_vec;
    int *d_cols, *d_rowDelimiters;
    int nBlocksScalar = (numRows + 127) / 128;
    int nBlocksVector = (numRows + (128 / 32) - 1) / (128 / 32) / 2;
    spmv_csr_scalar_kernel<<<nBlocksScalar, 128>>>(d_val, d_cols, d_rowDelimiters, numRows, d_out, d_vec);
    spmv_csr_vector_kernel<<<nBlocksVector, 128>>>(d_val, d_cols, d_rowDelimiters, numRows, d_out, d_vec);
    return 0;
}
