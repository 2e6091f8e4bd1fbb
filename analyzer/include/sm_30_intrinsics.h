/* hms-lint hermetic CUDA headers: warp-level primitives (shuffles, votes,
 * match, reduce, __syncwarp), with and without the _sync mask argument. */
#ifndef HMS_SM_30_INTRINSICS_H
#define HMS_SM_30_INTRINSICS_H

#include "host_defines.h"

#define HMS_SHFL(T)                                                                                \
    __device__ T __shfl_sync(unsigned int mask, T var, int srcLane, int width = 32);               \
    __device__ T __shfl_up_sync(unsigned int mask, T var, unsigned int delta, int width = 32);     \
    __device__ T __shfl_down_sync(unsigned int mask, T var, unsigned int delta, int width = 32);   \
    __device__ T __shfl_xor_sync(unsigned int mask, T var, int laneMask, int width = 32);          \
    __device__ T __shfl(T var, int srcLane, int width = 32);                                       \
    __device__ T __shfl_up(T var, unsigned int delta, int width = 32);                             \
    __device__ T __shfl_down(T var, unsigned int delta, int width = 32);                           \
    __device__ T __shfl_xor(T var, int laneMask, int width = 32);
HMS_SHFL(int)
HMS_SHFL(unsigned int)
HMS_SHFL(long)
HMS_SHFL(unsigned long)
HMS_SHFL(long long)
HMS_SHFL(unsigned long long)
HMS_SHFL(float)
HMS_SHFL(double)
#undef HMS_SHFL

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
