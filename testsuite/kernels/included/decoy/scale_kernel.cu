// Another program's kernel file of the same name as orphan/scale_kernel.cu.
__global__ void scaleRows(float *rows, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        rows[i] *= 2.0f;
}
