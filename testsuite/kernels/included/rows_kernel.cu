// Another kernel file of the same program: each thread copies one column of
// a row-major image into a transposed buffer (a strided store).
__global__ void transposeRows(long d_Nr, long d_Nc, fp *d_in, fp *d_out)
{
    int col = blockIdx.x * NUMBER_THREADS + threadIdx.x;
    if (col < d_Nc) {
        for (int row = 0; row < d_Nr; row++)
            d_out[col * d_Nr + row] = d_in[row * d_Nc + col];
    }
}
