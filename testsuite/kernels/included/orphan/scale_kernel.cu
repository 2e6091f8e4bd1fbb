// A kernel file whose includer is not in this tree: `fp` stays unknown. A
// file nearby includes another file of the same name (decoy.cu includes
// decoy/scale_kernel.cu): that one must not be taken for its includer.
__global__ void scaleImage(long d_Ne, fp *d_I, float factor)
{
    int ei = blockIdx.x * blockDim.x + threadIdx.x;
    if (ei < d_Ne)
        d_I[ei] = d_I[ei] * factor;
}
