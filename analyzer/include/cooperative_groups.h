/* hms-lint hermetic CUDA headers: cooperative groups. Members that map onto
 * plain CUDA (thread_rank, size, sync, shuffles, votes) have short bodies in
 * terms of threadIdx/blockDim and the warp intrinsics, so an IR builder that
 * inlines device calls can see what they compute; grid-wide sync and other
 * runtime services are declarations only. */
#ifndef HMS_COOPERATIVE_GROUPS_H
#define HMS_COOPERATIVE_GROUPS_H
#define _COOPERATIVE_GROUPS_H_

#include "cuda_runtime.h"

namespace cooperative_groups
{

namespace details
{
/* Shuffles for the arithmetic types; other trivially copyable types go to
 * the generic declarations (no body). */
#define HMS_CG_SHFL(T)                                                                             \
    static __device__ __forceinline__ T shfl(T v, int src, int w)                                  \
    {                                                                                              \
        return __shfl_sync(0xffffffffu, v, src, w);                                                \
    }                                                                                              \
    static __device__ __forceinline__ T shfl_down(T v, unsigned int d, int w)                      \
    {                                                                                              \
        return __shfl_down_sync(0xffffffffu, v, d, w);                                             \
    }                                                                                              \
    static __device__ __forceinline__ T shfl_up(T v, unsigned int d, int w)                        \
    {                                                                                              \
        return __shfl_up_sync(0xffffffffu, v, d, w);                                               \
    }                                                                                              \
    static __device__ __forceinline__ T shfl_xor(T v, int m, int w)                                \
    {                                                                                              \
        return __shfl_xor_sync(0xffffffffu, v, m, w);                                              \
    }
HMS_CG_SHFL(int)
HMS_CG_SHFL(unsigned int)
HMS_CG_SHFL(long)
HMS_CG_SHFL(unsigned long)
HMS_CG_SHFL(long long)
HMS_CG_SHFL(unsigned long long)
HMS_CG_SHFL(float)
HMS_CG_SHFL(double)
#undef HMS_CG_SHFL
template <class T> __device__ T shfl(T v, int src, int w);
template <class T> __device__ T shfl_down(T v, unsigned int d, int w);
template <class T> __device__ T shfl_up(T v, unsigned int d, int w);
template <class T> __device__ T shfl_xor(T v, int m, int w);

static __device__ __forceinline__ unsigned int block_rank_of_thread()
{
    return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
}
static __device__ __forceinline__ unsigned int block_threads()
{
    return blockDim.x * blockDim.y * blockDim.z;
}
} // namespace details

class thread_group
{
  public:
    __device__ void sync() const;
    __device__ unsigned int size() const;
    __device__ unsigned long long num_threads() const;
    __device__ unsigned int thread_rank() const;
    __device__ bool is_valid() const;
};

class thread_block : public thread_group
{
  public:
    __device__ void sync() const
    {
        __syncthreads();
    }
    __device__ unsigned int thread_rank() const
    {
        return details::block_rank_of_thread();
    }
    __device__ unsigned int size() const
    {
        return details::block_threads();
    }
    __device__ unsigned long long num_threads() const
    {
        return details::block_threads();
    }
    __device__ dim3 group_index() const
    {
        return dim3(blockIdx.x, blockIdx.y, blockIdx.z);
    }
    __device__ dim3 thread_index() const
    {
        return dim3(threadIdx.x, threadIdx.y, threadIdx.z);
    }
    __device__ dim3 group_dim() const
    {
        return blockDim;
    }
    __device__ dim3 dim_threads() const
    {
        return blockDim;
    }
};

static __device__ __forceinline__ thread_block this_thread_block()
{
    return thread_block();
}

/* Shared scratch for tiles wider than a warp (CUDA 11+); its contents are
 * the runtime's business. */
template <unsigned int MaxBlockSize = 1024, unsigned int TileCommunicationSize = 8,
          unsigned int MaxTileSize = 32>
struct block_tile_memory {
    unsigned char scratch[TileCommunicationSize];
};
template <unsigned int A, unsigned int B, unsigned int C>
static __device__ __forceinline__ thread_block this_thread_block(block_tile_memory<A, B, C> &)
{
    return thread_block();
}

/* A power-of-two slice of a warp (or a whole warp for N = 32). As in CUDA, a
 * tile that remembers its parent type converts to the parent-less one. */
template <unsigned int N, class ParentT = void> class thread_block_tile;
template <unsigned int N> class thread_block_tile<N, void> : public thread_group
{
  public:
    static constexpr unsigned int num_threads_static = N;
    __device__ void sync() const
    {
        __syncwarp(0xffffffffu);
    }
    __device__ unsigned int thread_rank() const
    {
        return details::block_rank_of_thread() & (N - 1);
    }
    __device__ unsigned int size() const
    {
        return N;
    }
    __device__ unsigned long long num_threads() const
    {
        return N;
    }
    __device__ unsigned int meta_group_rank() const
    {
        return details::block_rank_of_thread() / N;
    }
    __device__ unsigned int meta_group_size() const
    {
        return (details::block_threads() + N - 1) / N;
    }
    template <class T> __device__ T shfl(T var, int srcRank) const
    {
        return details::shfl(var, srcRank, (int)N);
    }
    template <class T> __device__ T shfl_down(T var, unsigned int delta) const
    {
        return details::shfl_down(var, delta, (int)N);
    }
    template <class T> __device__ T shfl_up(T var, unsigned int delta) const
    {
        return details::shfl_up(var, delta, (int)N);
    }
    template <class T> __device__ T shfl_xor(T var, unsigned int laneMask) const
    {
        return details::shfl_xor(var, (int)laneMask, (int)N);
    }
    __device__ int any(int predicate) const
    {
        return __any_sync(0xffffffffu, predicate);
    }
    __device__ int all(int predicate) const
    {
        return __all_sync(0xffffffffu, predicate);
    }
    __device__ unsigned int ballot(int predicate) const
    {
        return __ballot_sync(0xffffffffu, predicate);
    }
    template <class T> __device__ unsigned int match_any(T value) const;
    template <class T> __device__ unsigned int match_all(T value, int &pred) const;
};
template <unsigned int N, class ParentT> class thread_block_tile : public thread_block_tile<N, void>
{
};

template <unsigned int N, class ParentT>
__device__ thread_block_tile<N, ParentT> tiled_partition(const ParentT &parent)
{
    return thread_block_tile<N, ParentT>();
}
__device__ thread_group tiled_partition(const thread_group &parent, unsigned int tilesz);

/* The currently active threads of a warp. */
class coalesced_group : public thread_group
{
  public:
    __device__ void sync() const
    {
        __syncwarp(__activemask());
    }
    __device__ unsigned int thread_rank() const;
    __device__ unsigned int size() const;
    __device__ unsigned long long num_threads() const;
    __device__ unsigned int meta_group_rank() const;
    __device__ unsigned int meta_group_size() const;
    template <class T> __device__ T shfl(T var, int srcRank) const;
    template <class T> __device__ T shfl_down(T var, unsigned int delta) const;
    template <class T> __device__ T shfl_up(T var, unsigned int delta) const;
    template <class T> __device__ T shfl_xor(T var, unsigned int laneMask) const;
    __device__ int any(int predicate) const
    {
        return __any_sync(__activemask(), predicate);
    }
    __device__ int all(int predicate) const
    {
        return __all_sync(__activemask(), predicate);
    }
    __device__ unsigned int ballot(int predicate) const
    {
        return __ballot_sync(__activemask(), predicate);
    }
};
__device__ coalesced_group coalesced_threads();

/* The whole grid (cooperative launches). */
class grid_group : public thread_group
{
  public:
    __device__ void sync() const;
    __device__ bool is_valid() const;
    __device__ unsigned long long thread_rank() const
    {
        return (unsigned long long)block_rank() * details::block_threads() +
               details::block_rank_of_thread();
    }
    __device__ unsigned long long size() const
    {
        return (unsigned long long)num_blocks() * details::block_threads();
    }
    __device__ unsigned long long num_threads() const
    {
        return size();
    }
    __device__ unsigned int block_rank() const
    {
        return (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
    }
    __device__ unsigned int num_blocks() const
    {
        return gridDim.x * gridDim.y * gridDim.z;
    }
    __device__ dim3 group_dim() const
    {
        return gridDim;
    }
    __device__ dim3 dim_blocks() const
    {
        return gridDim;
    }
    __device__ dim3 block_index() const
    {
        return dim3(blockIdx.x, blockIdx.y, blockIdx.z);
    }
};
__device__ grid_group this_grid();

template <class GroupT> __device__ void sync(const GroupT &g)
{
    g.sync();
}
template <class GroupT> __device__ unsigned long long thread_rank(const GroupT &g)
{
    return g.thread_rank();
}
template <class GroupT> __device__ unsigned long long group_size(const GroupT &g)
{
    return g.size();
}

} // namespace cooperative_groups

#endif
