/* hms-lint hermetic CUDA headers: warp-level primitives (shuffles, votes,
 * match, reduce, __syncwarp), with and without the _sync mask argument. */
#ifndef HMS_SM_30_INTRINSICS_H
#define HMS_SM_30_INTRINSICS_H
#define __SM_30_INTRINSICS_H__

#include "host_defines.h"

/* Kept defined: the half, bfloat16 headers declare the same for their types. */
#define HMS_WARP_SHUFFLES(T)                                                                       \
    __device__ T __shfl_sync(unsigned int mask, T var, int srcLane, int width = 32);               \
    __device__ T __shfl_up_sync(unsigned int mask, T var, unsigned int delta, int width = 32);     \
    __device__ T __shfl_down_sync(unsigned int mask, T var, unsigned int delta, int width = 32);   \
    __device__ T __shfl_xor_sync(unsigned int mask, T var, int laneMask, int width = 32);          \
    __device__ T __shfl(T var, int srcLane, int width = 32);                                       \
    __device__ T __shfl_up(T var, unsigned int delta, int width = 32);                             \
    __device__ T __shfl_down(T var, unsigned int delta, int width = 32);                           \
    __device__ T __shfl_xor(T var, int laneMask, int width = 32);
HMS_WARP_SHUFFLES(int)
HMS_WARP_SHUFFLES(unsigned int)
HMS_WARP_SHUFFLES(long)
HMS_WARP_SHUFFLES(unsigned long)
HMS_WARP_SHUFFLES(long long)
HMS_WARP_SHUFFLES(unsigned long long)
HMS_WARP_SHUFFLES(float)
HMS_WARP_SHUFFLES(double)

__device__ unsigned int __ballot_sync(unsigned int mask, int predicate);
__device__ int __any_sync(unsigned int mask, int predicate);
__device__ int __all_sync(unsigned int mask, int predicate);
__device__ int __uni_sync(unsigned int mask, int predicate);
__device__ unsigned int __ballot(int predicate);
__device__ int __any(int predicate);
__device__ int __all(int predicate);
__device__ unsigned int __activemask(void);
__device__ void __syncwarp(unsigned int mask = 0xffffffffu);

#define HMS_MATCH(T)                                                                               \
    __device__ unsigned int __match_any_sync(unsigned int mask, T value);                          \
    __device__ unsigned int __match_all_sync(unsigned int mask, T value, int *pred);
HMS_MATCH(int)
HMS_MATCH(unsigned int)
HMS_MATCH(long long)
HMS_MATCH(unsigned long long)
HMS_MATCH(float)
HMS_MATCH(double)
#undef HMS_MATCH

__device__ int __reduce_add_sync(unsigned int mask, int value);
__device__ unsigned int __reduce_add_sync(unsigned int mask, unsigned int value);
__device__ int __reduce_min_sync(unsigned int mask, int value);
__device__ unsigned int __reduce_min_sync(unsigned int mask, unsigned int value);
__device__ int __reduce_max_sync(unsigned int mask, int value);
__device__ unsigned int __reduce_max_sync(unsigned int mask, unsigned int value);
__device__ unsigned int __reduce_and_sync(unsigned int mask, unsigned int value);
__device__ unsigned int __reduce_or_sync(unsigned int mask, unsigned int value);
__device__ unsigned int __reduce_xor_sync(unsigned int mask, unsigned int value);

__device__ unsigned int __lanemask_lt(void);
__device__ unsigned int __lanemask_le(void);
__device__ unsigned int __lanemask_eq(void);
__device__ unsigned int __lanemask_gt(void);
__device__ unsigned int __lanemask_ge(void);

#endif
