// Sizes from every kind of host constant: macros, enums, const and
// constexpr variables, sizeof, shifts, %, the ternary operator, min(), and
// locals followed through straight-line assignments (plain, compound,
// ++, .x member stores).
#include <cuda_runtime.h>

#define NX 1000
#define THREADS (1 << 7)
enum { WARPS_PER_BLOCK = 4, WARP = 32 };
const int kRows = 300;
constexpr int kCols = NX / 4;
static const unsigned kElem = sizeof(double);

__global__ void fill(double *p, int n, double v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = v;
}

int main()
{
    double *p;
    cudaMalloc(&p, NX * kRows * kElem);
    // (1000 + 127) / 128 = 8 (integer division: 1127 / 128 = 8.8)
    fill<<<(NX + THREADS - 1) / THREADS, THREADS>>>(p, NX, 1.0);
    // 4 * 32 = 128 threads; 300 * 250 = 75000 elements; 75000 / 128 = 585 r 120 -> 586
    int total = kRows * kCols;
    int blocks = total / (WARPS_PER_BLOCK * WARP) + (total % (WARPS_PER_BLOCK * WARP) ? 1 : 0);
    fill<<<blocks, WARPS_PER_BLOCK * WARP, WARP * kElem>>>(p, total, 2.0);
    // reassigned before the launch: 64, then doubled, then incremented -> 129
    int b2 = 16;
    b2 = 64;
    b2 *= 2;
    b2++;
    fill<<<b2, 256>>>(p, b2 << 8, 3.0);
    // .x stored after declaration; .y from a ternary; min() of two constants
    dim3 grid;
    grid.x = min(NX, 512);
    grid.y = kRows > 200 ? 3 : 2;
    fill<<<grid, 64>>>(p, NX, 4.0);
    return 0;
}

// EXPECT-KERNEL: fill line=14 params=double *p, int n, double v
// EXPECT-LAUNCH: fill line=26 grid=(8,1,1) block=(128,1,1) shared=0 args=p, NX=1000, 1.0
// 32 * sizeof(double) = 256 bytes
// EXPECT-LAUNCH: fill line=30 grid=(586,1,1) block=(128,1,1) shared=256 args=p, total=75000, 2.0
// 129 << 8 = 33024
// EXPECT-LAUNCH: fill line=36 grid=(129,1,1) block=(256,1,1) shared=0 args=p, b2 << 8=33024, 3.0
// EXPECT-LAUNCH: fill line=41 grid=(512,3,1) block=(64,1,1) shared=0
