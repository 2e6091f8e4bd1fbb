/* hms-lint hermetic CUDA headers: what CUDA declares alike for both 16-bit
 * float families (__half/__half2 in cuda_fp16.h, __nv_bfloat16/
 * __nv_bfloat162 in cuda_bf16.h): arithmetic and comparison intrinsics,
 * operators, cache-hinted loads and stores, shuffles and atomics. One macro,
 * expanded once per family. Not a toolkit header. */
#ifndef HMS_HALF_FAMILY_H
#define HMS_HALF_FAMILY_H

#include "device_atomic_functions.h"
#include "sm_30_intrinsics.h"
#include "sm_32_intrinsics.h"

#define HMS_HF_1(H, N) __device__ H N(H a);
#define HMS_HF_2(H, N) __device__ H N(H a, H b);

/* H: the scalar type, H2: the pair. */
#define HMS_HALF_FAMILY(H, H2)                                                                     \
    HMS_HF_2(H, __hadd)                                                                            \
    HMS_HF_2(H, __hsub) HMS_HF_2(H, __hmul) HMS_HF_2(H, __hdiv) HMS_HF_2(H, __hadd_sat) HMS_HF_2(  \
        H, __hsub_sat) HMS_HF_2(H, __hmul_sat) HMS_HF_2(H, __hmax) HMS_HF_2(H, __hmin)             \
        HMS_HF_2(H, __hmax_nan) HMS_HF_2(H, __hmin_nan) HMS_HF_1(H, __hneg) HMS_HF_1(              \
            H, __habs) HMS_HF_1(H, hsqrt) HMS_HF_1(H, hrsqrt) HMS_HF_1(H, hrcp) HMS_HF_1(H, hexp)  \
            HMS_HF_1(H, hexp2) HMS_HF_1(H, hexp10) HMS_HF_1(H, hlog) HMS_HF_1(H, hlog2) HMS_HF_1(  \
                H, hlog10) HMS_HF_1(H, hsin) HMS_HF_1(H, hcos) HMS_HF_1(H, hfloor)                 \
                HMS_HF_1(H, hceil) HMS_HF_1(H, htrunc) HMS_HF_1(H, hrint) HMS_HF_2(H2, __hadd2)    \
                    HMS_HF_2(H2, __hsub2) HMS_HF_2(H2, __hmul2) HMS_HF_2(H2, __h2div)              \
                        HMS_HF_2(H2, __hadd2_sat) HMS_HF_2(H2, __hsub2_sat)                        \
                            HMS_HF_2(H2, __hmul2_sat) HMS_HF_2(H2, __hmax2) HMS_HF_2(H2, __hmin2)  \
                                HMS_HF_1(H2, __hneg2) HMS_HF_1(H2, __habs2) HMS_HF_1(H2, h2sqrt)   \
                                    HMS_HF_1(H2, h2rsqrt) HMS_HF_1(H2, h2rcp) HMS_HF_1(H2, h2exp)  \
                                        HMS_HF_1(H2, h2exp2) HMS_HF_1(H2, h2log)                   \
                                            HMS_HF_1(H2, h2log2) HMS_HF_1(H2, h2sin)               \
                                                HMS_HF_1(H2, h2cos) HMS_HF_1(H2, h2floor)          \
                                                    HMS_HF_1(H2, h2ceil) HMS_HF_1(H2, h2trunc)     \
                                                        HMS_HF_1(H2, h2rint) __device__ H          \
                                                        __hfma(H a, H b, H c);                     \
    __device__ H __hfma_sat(H a, H b, H c);                                                        \
    __device__ H2 __hfma2(H2 a, H2 b, H2 c);                                                       \
    __device__ H2 __hfma2_sat(H2 a, H2 b, H2 c);                                                   \
    __device__ bool __heq(H a, H b);                                                               \
    __device__ bool __hne(H a, H b);                                                               \
    __device__ bool __hlt(H a, H b);                                                               \
    __device__ bool __hle(H a, H b);                                                               \
    __device__ bool __hgt(H a, H b);                                                               \
    __device__ bool __hge(H a, H b);                                                               \
    __device__ bool __hisnan(H a);                                                                 \
    __device__ int __hisinf(H a);                                                                  \
    __device__ bool __hbeq2(H2 a, H2 b);                                                           \
    __device__ bool __hbne2(H2 a, H2 b);                                                           \
    __device__ H2 __heq2(H2 a, H2 b);                                                              \
    __device__ H2 __hne2(H2 a, H2 b);                                                              \
    __device__ H2 __hlt2(H2 a, H2 b);                                                              \
    __device__ H2 __hgt2(H2 a, H2 b);                                                              \
    __device__ H2 __hisnan2(H2 a);                                                                 \
    __device__ float __low2float(H2 h);                                                            \
    __device__ float __high2float(H2 h);                                                           \
    __device__ H2 __lowhigh2highlow(H2 h);                                                         \
    HMS_HF_OPS(H)                                                                                  \
    HMS_HF_OPS(H2) HMS_HF_ORDER(H) HMS_CACHE_HINTED(H) HMS_CACHE_HINTED(H2) HMS_WARP_SHUFFLES(H)   \
        HMS_WARP_SHUFFLES(H2) HMS_ATOMIC(H, atomicAdd, H *address, H val)                          \
            HMS_ATOMIC(H2, atomicAdd, H2 *address, H2 val)

/* Operators (the toolkit's, when __CUDA_NO_HALF_OPERATORS__ /
 * __CUDA_NO_BFLOAT16_OPERATORS__ are unset). */
#define HMS_HF_OPS(T)                                                                              \
    __device__ T operator+(const T &a, const T &b);                                                \
    __device__ T operator-(const T &a, const T &b);                                                \
    __device__ T operator*(const T &a, const T &b);                                                \
    __device__ T operator/(const T &a, const T &b);                                                \
    __device__ T &operator+=(T &a, const T &b);                                                    \
    __device__ T &operator-=(T &a, const T &b);                                                    \
    __device__ T &operator*=(T &a, const T &b);                                                    \
    __device__ T &operator/=(T &a, const T &b);                                                    \
    __device__ T operator-(const T &a);                                                            \
    __device__ T operator+(const T &a);                                                            \
    __device__ bool operator==(const T &a, const T &b);                                            \
    __device__ bool operator!=(const T &a, const T &b);
#define HMS_HF_ORDER(T)                                                                            \
    __device__ bool operator<(const T &a, const T &b);                                             \
    __device__ bool operator>(const T &a, const T &b);                                             \
    __device__ bool operator<=(const T &a, const T &b);                                            \
    __device__ bool operator>=(const T &a, const T &b);

#endif
