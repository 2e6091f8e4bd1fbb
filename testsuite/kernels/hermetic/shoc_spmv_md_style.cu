// SHOC style (spmv, md, reduction): texture readers as functor templates,
// double values fetched as int2 pairs, warp-synchronous volatile shared
// memory, neighbour lists and a checkCudaErrors-like macro of its own.
#include <cassert>
#include <cfloat>
#include <iostream>
#include <string>
#include <cuda.h>
#include <cuda_runtime.h>

#define CUDA_SAFE_CALL(call)                                                                      \
    do {                                                                                          \
        cudaError_t err = call;                                                                   \
        if (cudaSuccess != err) {                                                                 \
            fprintf(stderr, "Cuda error in file '%s' in line %i : %s.\n", __FILE__, __LINE__,     \
                    cudaGetErrorString(err));                                                     \
            exit(EXIT_FAILURE);                                                                   \
        }                                                                                         \
    } while (0)

texture<float, 1> vecTex;
texture<int2, 1> vecTexD;
texture<float4, 1, cudaReadModeElementType> posTexture;

struct texReaderSP {
    __device__ __forceinline__ float operator()(const int idx) const { return tex1Dfetch(vecTex, idx); }
};
struct texReaderDP {
    __device__ __forceinline__ double operator()(const int idx) const
    {
        int2 v = tex1Dfetch(vecTexD, idx);
        return __hiloint2double(v.y, v.x);
    }
};

template <typename fpType, typename texReader>
__global__ void spmv_csr_scalar_kernel(const fpType *__restrict__ val, const int *__restrict__ cols,
                                       const int *__restrict__ rowDelimiters, const int dim,
                                       fpType *__restrict__ out)
{
    int myRow = blockIdx.x * blockDim.x + threadIdx.x;
    texReader vecTexReader;
    if (myRow < dim) {
        fpType t = 0.0f;
        int start = rowDelimiters[myRow];
        int end = rowDelimiters[myRow + 1];
        for (int j = start; j < end; j++) {
            int col = cols[j];
            t += val[j] * vecTexReader(col);
        }
        out[myRow] = t;
    }
}

template <typename fpType, typename texReader>
__global__ void spmv_csr_vector_kernel(const fpType *__restrict__ val, const int *__restrict__ cols,
                                       const int *__restrict__ rowDelimiters, const int dim,
                                       fpType *__restrict__ out)
{
    int t = threadIdx.x;
    int id = t & (warpSize - 1);
    int warpsPerBlock = blockDim.x / warpSize;
    int myRow = (blockIdx.x * warpsPerBlock) + (t / warpSize);
    texReader vecTexReader;
    __shared__ volatile fpType partialSums[128];
    if (myRow < dim) {
        int warpStart = rowDelimiters[myRow];
        int warpEnd = rowDelimiters[myRow + 1];
        fpType mySum = 0;
        for (int j = warpStart + id; j < warpEnd; j += warpSize) {
            int col = cols[j];
            mySum += val[j] * vecTexReader(col);
        }
        partialSums[t] = mySum;
        if (id < 16) partialSums[t] += partialSums[t + 16];
        if (id < 8) partialSums[t] += partialSums[t + 8];
        if (id < 4) partialSums[t] += partialSums[t + 4];
        if (id < 2) partialSums[t] += partialSums[t + 2];
        if (id < 1) partialSums[t] += partialSums[t + 1];
        if (id == 0)
            out[myRow] = partialSums[t];
    }
}

template <class T, class forceVecType, class posVecType>
__global__ void compute_lj_force(forceVecType *__restrict__ force3, const posVecType *__restrict__ position,
                                 const int neighCount, const int *__restrict__ neighList,
                                 const T cutsq, const T lj1, const T lj2, const int inum)
{
    uint idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= inum)
        return;
    posVecType ipos = tex1Dfetch(posTexture, idx);
    forceVecType f = {0.0f, 0.0f, 0.0f, 0.0f};
    int j = 0;
    while (j < neighCount) {
        int jidx = neighList[j * inum + idx];
        posVecType jpos = tex1Dfetch(posTexture, jidx);
        T delx = ipos.x - jpos.x;
        T dely = ipos.y - jpos.y;
        T delz = ipos.z - jpos.z;
        T r2inv = delx * delx + dely * dely + delz * delz;
        if (r2inv < cutsq) {
            r2inv = (T)1.0 / r2inv;
            T r6inv = r2inv * r2inv * r2inv;
            T forceC = r2inv * r6inv * (lj1 * r6inv - lj2);
            f.x += delx * forceC;
            f.y += dely * forceC;
            f.z += delz * forceC;
        }
        j++;
    }
    force3[idx] = f;
}

template <class T, int blockSize>
__global__ void reduce(const T *__restrict__ g_idata, T *__restrict__ g_odata, const unsigned int n)
{
    const unsigned int tid = threadIdx.x;
    unsigned int i = (blockIdx.x * (blockDim.x * 2)) + tid;
    const unsigned int gridSize = blockDim.x * 2 * gridDim.x;
    extern __shared__ char smemRaw[];
    T *sdata = reinterpret_cast<T *>(smemRaw);
    sdata[tid] = 0.0f;
    while (i < n) {
        sdata[tid] += g_idata[i] + g_idata[i + blockDim.x];
        i += gridSize;
    }
    __syncthreads();
    if (blockSize >= 512) { if (tid < 256) { sdata[tid] += sdata[tid + 256]; } __syncthreads(); }
    if (blockSize >= 256) { if (tid < 128) { sdata[tid] += sdata[tid + 128]; } __syncthreads(); }
    if (blockSize >= 128) { if (tid < 64) { sdata[tid] += sdata[tid + 64]; } __syncthreads(); }
    if (tid < warpSize) {
        volatile T *smem = sdata;
        if (blockSize >= 64) smem[tid] += smem[tid + 32];
        if (blockSize >= 32) smem[tid] += smem[tid + 16];
        if (blockSize >= 16) smem[tid] += smem[tid + 8];
        if (blockSize >= 8) smem[tid] += smem[tid + 4];
        if (blockSize >= 4) smem[tid] += smem[tid + 2];
        if (blockSize >= 2) smem[tid] += smem[tid + 1];
    }
    if (tid == 0)
        g_odata[blockIdx.x] = sdata[0];
}

int main()
{
    const int numRows = 1024, nnz = 8192;
    float *d_val, *d_vec, *d_out;
    int *d_cols, *d_rowDelimiters;
    CUDA_SAFE_CALL(cudaMalloc(&d_val, nnz * sizeof(float)));
    CUDA_SAFE_CALL(cudaMalloc(&d_cols, nnz * sizeof(int)));
    CUDA_SAFE_CALL(cudaMalloc(&d_vec, numRows * sizeof(float)));
    CUDA_SAFE_CALL(cudaMalloc(&d_out, numRows * sizeof(float)));
    CUDA_SAFE_CALL(cudaMalloc(&d_rowDelimiters, (numRows + 1) * sizeof(int)));
    CUDA_SAFE_CALL(cudaBindTexture(0, vecTex, d_vec, numRows * sizeof(float)));
    int nBlocksScalar = (int)ceil((float)numRows / 128);
    spmv_csr_scalar_kernel<float, texReaderSP><<<nBlocksScalar, 128>>>(d_val, d_cols, d_rowDelimiters,
                                                                       numRows, d_out);
    int nBlocksVector = (int)ceil(numRows / (float)(128 / 32));
    spmv_csr_vector_kernel<float, texReaderSP><<<nBlocksVector, 128>>>(d_val, d_cols, d_rowDelimiters,
                                                                       numRows, d_out);
    reduce<float, 256><<<64, 256, 256 * sizeof(float)>>>(d_val, d_out, nnz);
    CUDA_SAFE_CALL(cudaUnbindTexture(vecTex));
    std::string name = "spmv";
    std::cout << name << " done" << std::endl;
    cudaFree(d_val);
    return 0;
}
