// A kernel that makes no memory access at all: the stream is empty.
// hms-lint: launch grid(4) block(64)
__global__ void noAccess(int n)
{
    int x = threadIdx.x * n;
    x = x + 1;
    __syncthreads();
    (void)x;
}
