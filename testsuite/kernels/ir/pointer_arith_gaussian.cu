// Rodinia gaussian: accesses written as pointer arithmetic on a base, a
// pointer alias p = a + off used with p[i], and a pointer walked in a loop.
#include <cuda_runtime.h>

__global__ void Fan1(float *m_cuda, float *a_cuda, int Size, int t)
{
    if (threadIdx.x + blockIdx.x * blockDim.x >= Size - 1 - t)
        return;
    *(m_cuda + Size * (blockDim.x * blockIdx.x + threadIdx.x + t + 1) + t) =
        *(a_cuda + Size * (blockDim.x * blockIdx.x + threadIdx.x + t + 1) + t) / *(a_cuda + Size * t + t);
    // EXPECT-ACCESS: -1 load a_cuda global 4 index=Size * (blockDim.x * blockIdx.x + threadIdx.x + t + 1) + t
    // EXPECT-ACCESS: -2 load a_cuda global 4 index=Size * t + t
    // EXPECT-ACCESS: -4 store m_cuda global 4 index=Size * (blockDim.x * blockIdx.x + threadIdx.x + t + 1) + t
    // EXPECT-ORDER: -4 load a_cuda, -4 load a_cuda, -5 store m_cuda
    // EXPECT-PARAM: Size int = 1024 (cli)
    // EXPECT-PARAM: t int = 0 (host-call)
}

__global__ void alias_rows(const float *a, float *out, int pitch)
{
    const float *row = a + blockIdx.x * pitch;
    float *o = out + blockIdx.x * pitch;
    o[threadIdx.x] = row[threadIdx.x] + row[threadIdx.x + 1];
    // EXPECT-ACCESS: -1 load a global 4 index=blockIdx.x * pitch + threadIdx.x
    // EXPECT-ACCESS: -2 load a global 4 index=blockIdx.x * pitch + threadIdx.x + 1
    // EXPECT-ACCESS: -3 store out global 4 index=blockIdx.x * pitch + threadIdx.x
}

__global__ void walk(const int *a, int *out, int n)
{
    const int *p = a + threadIdx.x;
    int s = 0;
    for (int k = 0; k < n; k++) {
        s += *p;
        p += 32;
    }
    // EXPECT-ACCESS: -3 load a global 4 loops=k index=p.off
    // EXPECT-LINE: -3 p.off = p.off + 32
    // EXPECT-LINE: -6 p.off = threadIdx.x
    out[threadIdx.x] = s;
}

int main()
{
    int Size = 1024;
    float *m_cuda, *a_cuda;
    int block_size = 512;
    int grid = (Size + block_size - 1) / block_size;
    for (int t = 0; t < Size - 1; t++)
        Fan1<<<grid, block_size>>>(m_cuda, a_cuda, Size, 0);
    return 0;
}
// RUN-ARGS: --param Fan1.Size=1024
