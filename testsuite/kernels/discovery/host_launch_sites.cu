// Host launch sites whose configuration folds and those whose does not:
// parameters, argv, addresses taken, loops, conditionals, references,
// lambdas, dim3 assignments and copies, streams, member functions.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void work(float *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] += 1.0f;
}

int g_blocks = 8;                // mutable global: may change anywhere
const int g_threads = 96;        // constant global: folds

void configure(int &bs) { bs = 512; }
int twice(const int &v) { return 2 * v; }

void from_params(float *p, int n, dim3 grid)
{
    work<<<grid, n>>>(p, n);
}

namespace app {
struct Runner {
    float *buf;
    void run(cudaStream_t s)
    {
        const int nb = 12;
        work<<<nb, 64, 0, s>>>(buf, nb * 64);
    }
};
} // namespace app

int main(int argc, char **argv)
{
    float *p;
    cudaMalloc(&p, 1 << 20);
    int n = atoi(argv[1]);
    work<<<n / 256, 256>>>(p, n);
    int m = 0;
    scanf("%d", &m);
    work<<<m, 32>>>(p, m);
    int blocks = 4;
    for (int it = 0; it < 3; ++it) {
        work<<<blocks, 128>>>(p, 128);
        blocks *= 2;
    }
    int t = 128;
    if (argc > 2)
        t = 256;
    work<<<1, t>>>(p, t);
    if (argc > 3) {
        int q = 5;
        work<<<q, 32>>>(p, q * 32);
    }
    int bs = 64;
    configure(bs);
    work<<<1, bs>>>(p, bs);
    int cs = 32;
    int doubled = twice(cs);
    work<<<1, cs>>>(p, doubled);
    dim3 g;
    g = dim3(10, 20);
    dim3 g2 = g;
    work<<<g2, dim3(8, 8)>>>(p, 640);
    int nb = 3;
    auto grow = [&] { nb *= 2; };
    grow();
    work<<<nb, 32>>>(p, 32);
    for (int it = 0; it < 3; ++it) {
        int local = 4;
        work<<<local, 64>>>(p, 256);
    }
    for (int s = 1; s < 8; s *= 2)
        work<<<s, 32>>>(p, 32);
    work<<<g_blocks, g_threads>>>(p, g_threads);
    cudaStream_t stream;
    cudaStreamCreate(&stream);
    app::Runner r{p};
    r.run(stream);
    work<<<2, 32, 0, stream>>>(p, 64);
    return 0;
}

// EXPECT-KERNEL: work line=8 params=float *p, int n
// EXPECT-LAUNCH: work line=23 grid=?(grid) block=?(n) shared=0 args=p, n
// EXPECT-LAUNCH: work line=32 grid=(12,1,1) block=(64,1,1) shared=0 stream=s args=buf, nb * 64=768
// n comes from atoi(argv[1]); m from scanf through &m
// EXPECT-LAUNCH: work line=42 grid=?(n / 256) block=(256,1,1)
// EXPECT-LAUNCH: work line=45 grid=?(m) block=(32,1,1)
// blocks changes in the loop around the launch
// EXPECT-LAUNCH: work line=48 grid=?(blocks) block=(128,1,1) shared=0 args=p, 128
// t is set under a condition
// EXPECT-LAUNCH: work line=54 grid=(1,1,1) block=?(t) shared=0 args=p, t
// q is straight-line code in the same block as its launch
// EXPECT-LAUNCH: work line=57 grid=(5,1,1) block=(32,1,1) shared=0 args=p, q * 32=160
// bs goes to a non-const reference; cs only to a const one
// EXPECT-LAUNCH: work line=61 grid=(1,1,1) block=?(bs)
// EXPECT-LAUNCH: work line=64 grid=(1,1,1) block=(32,1,1) shared=0 args=p, doubled
// EXPECT-LAUNCH: work line=68 grid=(10,20,1) block=(8,8,1) shared=0 args=p, 640
// a lambda captures nb by reference
// EXPECT-LAUNCH: work line=72 grid=?(nb) block=(32,1,1)
// local is declared inside the loop body, s is the loop variable
// EXPECT-LAUNCH: work line=75 grid=(4,1,1) block=(64,1,1)
// EXPECT-LAUNCH: work line=78 grid=?(s) block=(32,1,1)
// EXPECT-LAUNCH: work line=79 grid=?(g_blocks) block=(96,1,1) shared=0 args=p, g_threads=96
// EXPECT-LAUNCH: work line=84 grid=(2,1,1) block=(32,1,1) shared=0 stream=stream args=p, 64
// EXPECT-SUMMARY: 1 kernel, 0 variables, 15 launch sites
