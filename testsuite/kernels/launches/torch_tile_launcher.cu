// A PyTorch extension in the style of hand-tuned attention/GEMM repositories:
// a kernel template with a dozen shape parameters, launched from a host
// function template whose locals derive the tile from the head dimension,
// itself picked by a switch over a tensor's size. The torch API comes from
// hms-lint's own headers (no libtorch here).
#include <cuda_fp16.h>
#include <torch/extension.h>
#include <torch/types.h>

#define WARP_SIZE 32
#define CHECK_HALF(T)                                                                              \
    if ((T).options().dtype() != torch::kHalf) {                                                   \
        std::cout << "Tensor Info:" << (T).options() << std::endl;                                 \
        throw std::runtime_error("values must be torch::kHalf");                                   \
    }

template <const int kHeadDim, const int kAtomM, const int kAtomN, const int kTileM,
          const int kTileN, const int kWarpM, const int kWarpN, const int kWarpD, const int kStage,
          const int kPad>
__global__ void __launch_bounds__(WARP_SIZE *kTileM *kTileN)
    tile_rows_kernel(half *Q, half *O, int seqlen)
{
    constexpr int Br = kAtomM * kTileM * kWarpM;
    __shared__ half tile[Br][kHeadDim + kPad];
    int row = blockIdx.x * Br;
    int tid = threadIdx.x;
    for (int i = tid; i < Br * kHeadDim; i += blockDim.x)
        tile[i / kHeadDim][i % kHeadDim] = Q[(row + i / kHeadDim) * kHeadDim + i % kHeadDim];
    __syncthreads();
    for (int i = tid; i < Br * kHeadDim; i += blockDim.x)
        O[(row + i / kHeadDim) * kHeadDim + i % kHeadDim] = tile[i / kHeadDim][i % kHeadDim];
}

template <const int kHeadDim, const int kStage>
void launch_tile_rows(torch::Tensor Q, torch::Tensor O)
{
    constexpr int kAtomM = 16;
    constexpr int kAtomN = 8;
    constexpr int kTileM = 2;
    constexpr int kTileN = 4;
    constexpr int kWarpM = 2;
    constexpr int kWarpN = 2;
    constexpr int kWarpD = (kHeadDim / (kAtomN * kTileN)); // 32 -> 1, 64 -> 2
    constexpr int Br = kAtomM * kTileM * kWarpM;           // 64 rows per block
    constexpr int kThreads = WARP_SIZE * kTileM * kTileN;  // 256
    constexpr int kPad = 8;
    const int seqlen = Q.size(2);
    assert(seqlen % Br == 0);
    dim3 grid((seqlen + Br - 1) / Br, Q.size(0) * Q.size(1));
    dim3 block(kThreads);
    tile_rows_kernel<kHeadDim, kAtomM, kAtomN, kTileM, kTileN, kWarpM, kWarpN, kWarpD, kStage, kPad>
        <<<grid, block>>>(reinterpret_cast<half *>(Q.data_ptr()),
                          reinterpret_cast<half *>(O.data_ptr()), seqlen);
}

void tile_rows(torch::Tensor Q, torch::Tensor O, int stages)
{
    CHECK_HALF(Q)
    CHECK_HALF(O)
    const int d = Q.size(3);
    switch (d) {
    case 32:
        launch_tile_rows<32, 1>(Q, O);
        break;
    case 64:
        launch_tile_rows<64, 2>(Q, O);
        break;
    default:
        throw std::runtime_error("headdim not support!");
    }
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("tile_rows", &tile_rows, "tile rows"); }
