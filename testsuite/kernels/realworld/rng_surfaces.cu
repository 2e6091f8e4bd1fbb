// CUDA-samples style random-number and surface kernels: generator states
// initialised and drawn from in global memory (MonteCarlo / piestimator
// style), a local copy of the state worked on in registers, a 12-byte
// float3 record copied whole, and surface writes and reads (simpleSurfaceWrite,
// bindlessTexture mipmap style).
#include <cuda_runtime.h>
#include <curand_kernel.h>

// One state per thread, initialised in place: a store of the whole 48-byte
// curandState per lane.
__global__ void initRNG(curandState *const rngStates, const unsigned int seed)
{
    unsigned int tid = blockIdx.x * blockDim.x + threadIdx.x;
    curand_init(seed, tid, 0, &rngStates[tid]);
}

// Each draw through the pointer reads and writes the state in global memory.
__global__ void drawInPlace(float *out, curandState *state, int n)
{
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    if (id < n)
        out[id] = curand_uniform(&state[id]);
}

// The usual form: copy the state to a local, draw from registers, copy back.
__global__ void piEstimate(unsigned int *results, curandState *const rngStates,
                           const unsigned int numSims)
{
    unsigned int tid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int step = gridDim.x * blockDim.x;
    curandState localState = rngStates[tid];
    unsigned int inside = 0;
    for (unsigned int i = tid; i < numSims; i += step) {
        float x = curand_uniform(&localState);
        float y = curand_uniform(&localState);
        inside += x * x + y * y < 1.0f ? 1 : 0;
    }
    rngStates[tid] = localState;
    results[tid] = inside;
}

// Array-of-structures positions: a float3 copy is three 4-byte loads per lane.
__global__ void shiftPositions(float3 *pos, const float3 *vel, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float3 p = pos[i];
        float3 v = vel[i];
        p.x += v.x;
        p.y += v.y;
        p.z += v.z;
        pos[i] = p;
    }
}

surface<void, 2> outputSurface;

// simpleSurfaceWrite: x in bytes, y in rows.
__global__ void surfaceWriteKernel(const float *gIData, int width)
{
    unsigned int x = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int y = blockIdx.y * blockDim.y + threadIdx.y;
    surf2Dwrite(gIData[y * width + x], outputSurface, x * 4, y);
}

// A mip level read and written through a surface object, uchar4 texels;
// and a column walk (x fixed per thread row) to show the strided form.
__global__ void mipScale(cudaSurfaceObject_t mip, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) {
        uchar4 c = surf2Dread<uchar4>(mip, x * sizeof(uchar4), y);
        surf2Dwrite(c, mip, y * (int)sizeof(uchar4), x);
    }
}

int main()
{
    const int threads = 128, blocks = 8, n = threads * blocks;
    curandState *states;
    float *out;
    unsigned int *results;
    cudaMalloc(&states, n * sizeof(curandState));
    cudaMalloc(&out, n * sizeof(float));
    cudaMalloc(&results, n * sizeof(unsigned int));
    initRNG<<<blocks, threads>>>(states, 1234);
    drawInPlace<<<blocks, threads>>>(out, states, n);
    piEstimate<<<blocks, threads>>>(results, states, 4 * n);
    float3 *pos, *vel;
    cudaMalloc(&pos, n * sizeof(float3));
    cudaMalloc(&vel, n * sizeof(float3));
    shiftPositions<<<blocks, threads>>>(pos, vel, n);
    dim3 block(32, 8), grid(4, 8);
    surfaceWriteKernel<<<grid, block>>>(out, 128);
    cudaSurfaceObject_t mip = 0;
    mipScale<<<grid, block>>>(mip, 128, 64);
    return 0;
}
