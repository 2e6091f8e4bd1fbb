// One extern __shared__ allocation carved into several arrays by pointer
// arithmetic (CUDA programming guide idiom), with a symbolic split point.
#include <cuda_runtime.h>

__global__ void carve(const float *in, float *out, int nf)
{
    extern __shared__ float array[];
    short *array0 = (short *)array;
    float *array1 = (float *)&array0[128];
    int *array2 = (int *)&array1[64];
    array0[threadIdx.x] = (short)threadIdx.x;
    // EXPECT-ACCESS: -1 store array0 shared 2 index=threadIdx.x
    array1[threadIdx.x % 64] = in[blockIdx.x * blockDim.x + threadIdx.x];
    // EXPECT-ACCESS: -1 store array1 shared 4 mapping=in index=threadIdx.x % 64
    array2[threadIdx.x] = 7;
    // EXPECT-ARRAY: array0 shared short[512] 2B extern base=array+0 written
    // extents fill the rest of the 1024 bytes: 512 shorts, (1024 - 256) / 4 = 192 floats
    // 128 shorts = 256 bytes
    // EXPECT-ARRAY: array1 shared float[192] 4B extern base=array+256 written
    // 256 + 64 floats = 512 bytes; 1024 - 512 = 512 bytes left: 128 ints
    // EXPECT-ARRAY: array2 shared int[128] 4B extern base=array+512 written
    float *tail = array + nf;
    out[threadIdx.x] = tail[threadIdx.x];
    // a symbolic offset stays an offset into `array`
    // EXPECT-ACCESS: -2 load array shared 4 index=nf + threadIdx.x
    // EXPECT-LAUNCH: grid=(8,1,1) block=(128,1,1) shared=1024 source=annotation
    // EXPECT-NO-LIMIT
}
// hms-lint: launch kernel=carve grid(8) block(128) shared(1024)
