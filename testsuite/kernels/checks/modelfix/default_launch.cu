// No launch site and no annotation: the launch is assumed. Stores that all
// land on one DRAM channel would look like partition camping, but under an
// assumed launch the check does not judge it.
__global__ void columnStoreNoLaunch(float *out, const float *in)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    out[row * 8192] = in[row];
}
