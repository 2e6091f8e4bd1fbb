// One block per row of 768 floats, coalesced strided reads, each element
// read once: staging the row in shared memory would only copy it.
// Expectations (syntax: see transpose.cu): no placement advice for inp.
// EXPECT-ARCHES: h100
// hms-lint: launch grid(8192) block(256) shared(1024)
// hms-lint: param C=768
__global__ void rowMean(float *mean, const float *inp, int C)
{
    extern __shared__ float part[];
    const float *x = inp + blockIdx.x * C;
    float sum = 0.0f;
    for (int i = threadIdx.x; i < C; i += blockDim.x)
        sum += x[i]; // EXPECT-NO: hms-placement
    part[threadIdx.x] = sum;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride >= 1; stride /= 2) {
        __syncthreads();
        if (threadIdx.x < stride)
            part[threadIdx.x] += part[threadIdx.x + stride];
    }
    if (threadIdx.x == 0)
        mean[blockIdx.x] = part[0] / C;
}

// One thread per row of 768 floats: it reads its row twice (sum, then the
// centred output); the second pass re-reads only its own elements.
// hms-lint: launch grid(64) block(128)
// hms-lint: param C=768
__global__ void rowCentreOwn(float *out, const float *inp, int C)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    const float *x = inp + r * C;
    float sum = 0.0f;
    for (int i = 0; i < C; i++)
        sum += x[i]; // EXPECT-NO: hms-placement
    float m = sum / C;
    for (int i = 0; i < C; i++)
        out[r * C + i] = x[i] - m; // EXPECT-NO: hms-placement
}
