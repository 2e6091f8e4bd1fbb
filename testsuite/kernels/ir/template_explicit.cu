// Templates analysed per instantiation: an explicit instantiation, a launch
// of another instantiation, a type parameter changing the element size, and
// a branch on the block-size parameter that folds away.
#include <cuda_runtime.h>

// EXPECT-KERNELS: 3

template <typename T, int BS>
__global__ void scale(T *out, const T *in, int n)
{
    __shared__ T buf[BS];
    int i = blockIdx.x * BS + threadIdx.x;
    buf[threadIdx.x] = in[i];
    __syncthreads();
    if (BS >= 256)
        out[i] = buf[BS - 1 - threadIdx.x];
    else
        out[i] = buf[threadIdx.x];
    // EXPECT-ACCESS: @scale<float, 128> -1 load buf shared 4 unguarded index=threadIdx.x
    // EXPECT-NO-ACCESS: @scale<float, 128> -4
    // EXPECT-ACCESS: @scale<double, 256> -5 load buf shared 8 unguarded index=255 - threadIdx.x
    // EXPECT-NO-ACCESS: @scale<double, 256> -4
    // EXPECT-ARRAY: @scale<double, 256> buf shared double[256] 8B
    // EXPECT-ARRAY: @scale<float, 128> buf shared float[128] 4B
    // EXPECT-ACCESS: @scale<double, 256> -12 load in global 8 index=blockIdx.x * 256 + threadIdx.x
    // EXPECT-LAUNCH: @scale<double, 256> grid=(40,1,1) block=(256,1,1) source=host-call
    // no launch of the float instantiation: the documented default
    // EXPECT-LAUNCH: @scale<float, 128> grid=(256,1,1) block=(256,1,1) source=default
    // EXPECT-LIMIT: @scale<float, 128> no launch configuration found
}

template __global__ void scale<float, 128>(float *, const float *, int);

template <int N> __global__ void fill(int *p)
{
    p[threadIdx.x * N] = N;
    // EXPECT-ACCESS: @fill<4> -1 store p global 4 index=threadIdx.x * 4
    // EXPECT-LAUNCH: @fill grid=(1,1,1) block=(32,1,1) source=host-call
}

// never instantiated: reported on stderr, not built
template <int N> __global__ void unused(int *p) { p[N] = 0; }

int main()
{
    double *d, *e;
    int *p;
    scale<double, 256><<<10240 / 256, 256>>>(d, e, 10240);
    fill<4><<<1, 32>>>(p);
    return 0;
}
