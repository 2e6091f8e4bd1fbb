// Per-thread local arrays (register-spill style), a switch on the thread
// index with case groups, and a loop that fills and reads the local array.
#include <cuda_runtime.h>

__global__ void locals(const float *in, float *out, int mode)
{
    float acc[8];
    for (int k = 0; k < 8; k++)
        acc[k] = in[k * blockDim.x + threadIdx.x];
    // EXPECT-ACCESS: -1 store acc local 4 loops=k index=k
    // EXPECT-ACCESS: -2 load in global 4 loops=k index=k * blockDim.x + threadIdx.x
    int sel;
    switch (threadIdx.x & 3) {
    case 0:
        sel = 1;
        break;
    case 1:
    case 2:
        sel = 5;
        break;
    default:
        sel = 7;
        break;
    }
    // EXPECT-LINE: -11 if ((threadIdx.x & 3) == 0)
    // EXPECT-LINE: -11 sel = 1
    // EXPECT-LINE: -10 if ((threadIdx.x & 3) == 1 || (threadIdx.x & 3) == 2)
    // EXPECT-LINE: -7 if (!((threadIdx.x & 3) == 0 || ((threadIdx.x & 3) == 1 || (threadIdx.x & 3) == 2)))
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc[sel];
    // EXPECT-ACCESS: -1 load acc local 4 index=sel
    // EXPECT-ARRAY: acc local float[8] 4B read written
    switch (mode) {
    case 3:
        out[0] = 1;
    case 4:
        out[1] = 2;
    }
    // EXPECT-LIMIT: -3 fall-through between switch cases is not followed
    // EXPECT-ACCESS: -3 store out global 4 guard={mode == 4} index=1
}
