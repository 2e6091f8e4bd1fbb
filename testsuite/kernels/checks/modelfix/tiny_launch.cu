// Four blocks of 32 threads cannot occupy the GPU's DRAM channels.
// hms-lint: launch grid(4) block(32)
__global__ void tinyColumnStore(float *out, const float *in)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    out[row * 8192] = in[row];
}
