// A row filter whose loop branches on the loop variable, so every iteration
// is traced (no loop summary): one block issues thousands of warp accesses,
// and the analysis budget, not the 256-block sample, decides how many
// blocks are simulated (testsuite/unit/test_analysis_budget.c).
#define ROW 512

// hms-lint: launch grid(4096) block(32, 8)
__global__ void longRows(const float *in, float *out)
{
    int row = blockIdx.x * blockDim.y + threadIdx.y;
    float acc = 0.0f;
    for (int k = 0; k < ROW; k++) {
        if (k % 4 == 0)
            acc *= 0.5f;
        acc += in[row * ROW + ((k + threadIdx.x) & (ROW - 1))];
    }
    out[row * 32 + threadIdx.x] = acc;
}
