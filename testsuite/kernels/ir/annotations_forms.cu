// Where launch configurations and values come from: an annotation inside
// the kernel, an annotation naming a kernel from anywhere, --launch and
// --param beating annotations, a host launch beaten by an annotation, and
// -D defining a macro that sizes a loop.
// RUN-ARGS: -D TILE=64 --launch=k_cli:grid=4,2:block=64,2:shared=512 --param=k_cli.m=77 --param=k_note.m=5
#include <cuda_runtime.h>

#ifndef TILE
#define TILE 16
#endif

__global__ void k_inside(float *a, int m)
{
    // hms-lint: launch grid(10,1,1) block(128)
    // hms-lint: param m=300
    a[blockIdx.x * 128 + threadIdx.x] = m;
    // EXPECT-LAUNCH: grid=(10,1,1) block=(128,1,1) source=annotation
    // EXPECT-PARAM: m int = 300 (annotation)
}

__global__ void k_cli(float *a, int m)
{
    extern __shared__ float buf[];
    buf[threadIdx.x] = a[threadIdx.x * m];
    // EXPECT-LAUNCH: grid=(4,2,1) block=(64,2,1) shared=512 source=cli
    // the --param beats the annotation at the end of the file
    // EXPECT-PARAM: m int = 77 (cli)
    // EXPECT-ARRAY: buf shared float[128] 4B extern
}

__global__ void k_note(float *a, int m)
{
    for (int t = 0; t < TILE; t++)
        a[t * m + threadIdx.x] = 0;
    // -D TILE=64 reached the preprocessor
    // EXPECT-LOOP: -3 var=t trip=64
    // the annotation beats the host launch
    // EXPECT-LAUNCH: grid=(3,3,1) block=(32,4,1) source=annotation
    // EXPECT-PARAM: m int = 5 (cli)
}

int main()
{
    float *a;
    k_note<<<100, 100>>>(a, 9);
    return 0;
}
// hms-lint: launch kernel=k_note grid(3,3) block(32,4)
// hms-lint: param kernel=k_cli m=11
