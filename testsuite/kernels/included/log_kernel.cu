// A kernel file meant to be #included by main.cu (Rodinia srad_v1 style): it
// uses `fp` and NUMBER_THREADS without declaring them. Linted on its own,
// hms-lint analyses it in main.cu's translation unit.
__global__ void logCompress(long d_Ne, fp *d_I)
{
    int bx = blockIdx.x;                 // horizontal block index
    int tx = threadIdx.x;                // horizontal thread index
    int ei = (bx * NUMBER_THREADS) + tx; // more threads than elements
    if (ei < d_Ne) {
        d_I[ei] = log(d_I[ei]) * 255;
    }
}
