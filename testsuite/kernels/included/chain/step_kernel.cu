// One explicit step of each cell's 4 state variables, stored variable-major
// (4 arrays of `cells`). Uses `real` and STEP_THREADS without declaring
// them: main.cu does, two includes up (main.cu -> work.cu -> this file).
__global__ void stepCells(int cells, real *y, real *dy, real h)
{
    __shared__ real rates[4][STEP_THREADS];
    int c = blockIdx.x * STEP_THREADS + threadIdx.x;
    if (c >= cells)
        return;
    for (int v = 0; v < 4; v++)
        rates[v][threadIdx.x] = dy[v * cells + c];
    for (int v = 0; v < 4; v++)
        y[v * cells + c] += h * rates[v][threadIdx.x];
}
