/* hms-lint hermetic CUDA headers: half precision (__half, __half2) with the
 * conversions, arithmetic intrinsics and operators CUDA provides. */
#ifndef HMS_CUDA_FP16_H
#define HMS_CUDA_FP16_H

#include "cuda_runtime.h"

/* Trivial default constructors keep both usable in __shared__ arrays. */
struct __align__(2) __half
{
    unsigned short __x;
    __half() = default;
    __host__ __device__ __half(float f);
    __host__ __device__ __half(double f);
    __host__ __device__ __half(int i);
    __host__ __device__ __half(unsigned int i);
    __host__ __device__ __half(short i);
    __host__ __device__ __half(unsigned short i);
    __host__ __device__ __half(long long i);
    __host__ __device__ __half(unsigned long long i);
    __host__ __device__ operator float() const;
    __host__ __device__ __half &operator=(float f);
};

struct __align__(4) __half2
{
    __half x, y;
    __half2() = default;
    __host__ __device__ __half2(const __half &a, const __half &b) : x(a), y(b) {}
};

typedef __half half;
typedef __half2 half2;
typedef struct __half_raw {
    unsigned short x;
} __half_raw;

__host__ __device__ __half __float2half(float f);
__host__ __device__ __half __float2half_rn(float f);
__host__ __device__ __half __float2half_rz(float f);
__host__ __device__ float __half2float(__half h);
__host__ __device__ __half2 __float2half2_rn(float f);
__host__ __device__ __half2 __floats2half2_rn(float a, float b);
__host__ __device__ __half2 __float22half2_rn(float2 f);
__host__ __device__ float2 __half22float2(__half2 h);
__device__ __half __int2half_rn(int i);
__device__ int __half2int_rn(__half h);
__device__ int __half2int_rz(__half h);
__device__ float __low2float(__half2 h);
__device__ float __high2float(__half2 h);
__device__ __half __low2half(__half2 h);
__device__ __half __high2half(__half2 h);
__device__ __half2 __halves2half2(__half lo, __half hi);
__device__ __half2 __half2half2(__half h);
__device__ __half2 __lows2half2(__half2 a, __half2 b);
__device__ __half2 __highs2half2(__half2 a, __half2 b);
__device__ unsigned short __half_as_ushort(__half h);
__device__ __half __ushort_as_half(unsigned short u);

#define HMS_H1(N) __device__ __half N(__half a);
#define HMS_H2(N) __device__ __half N(__half a, __half b);
#define HMS_HH1(N) __device__ __half2 N(__half2 a);
#define HMS_HH2(N) __device__ __half2 N(__half2 a, __half2 b);
HMS_H2(__hadd)
HMS_H2(__hsub)
HMS_H2(__hmul)
HMS_H2(__hdiv)
HMS_H2(__hmax)
HMS_H2(__hmin)
HMS_H1(__hneg)
HMS_H1(__habs)
HMS_H1(hsqrt)
HMS_H1(hrsqrt)
HMS_H1(hexp)
HMS_H1(hlog)
HMS_H1(hsin)
HMS_H1(hcos)
HMS_H1(hfloor)
HMS_H1(hceil)
HMS_HH2(__hadd2)
HMS_HH2(__hsub2)
HMS_HH2(__hmul2)
HMS_HH2(__h2div)
HMS_HH2(__hmax2)
HMS_HH2(__hmin2)
HMS_HH1(__hneg2)
HMS_HH1(__habs2)
HMS_HH1(h2sqrt)
HMS_HH1(h2rsqrt)
HMS_HH1(h2exp)
HMS_HH1(h2log)
#undef HMS_H1
#undef HMS_H2
#undef HMS_HH1
#undef HMS_HH2
__device__ __half __hfma(__half a, __half b, __half c);
__device__ __half2 __hfma2(__half2 a, __half2 b, __half2 c);
__device__ bool __heq(__half a, __half b);
__device__ bool __hne(__half a, __half b);
__device__ bool __hlt(__half a, __half b);
__device__ bool __hle(__half a, __half b);
__device__ bool __hgt(__half a, __half b);
__device__ bool __hge(__half a, __half b);
__device__ bool __hisnan(__half a);
__device__ int __hisinf(__half a);

/* Operators (CUDA's cuda_fp16.hpp, when __CUDA_NO_HALF_OPERATORS__ is unset). */
#define HMS_HALF_OPS(T)                                                                            \
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
HMS_HALF_OPS(__half)
HMS_HALF_OPS(__half2)
#undef HMS_HALF_OPS
__device__ bool operator<(const __half &a, const __half &b);
__device__ bool operator>(const __half &a, const __half &b);
__device__ bool operator<=(const __half &a, const __half &b);
__device__ bool operator>=(const __half &a, const __half &b);

/* Loads, shuffles and atomics on half types. */
#define HMS_HALF_MEM(T)                                                                            \
    __device__ T __ldg(const T *ptr);                                                              \
    __device__ T __ldcg(const T *ptr);                                                             \
    __device__ T __ldcs(const T *ptr);                                                             \
    __device__ T __shfl_sync(unsigned int mask, T var, int srcLane, int width = 32);               \
    __device__ T __shfl_up_sync(unsigned int mask, T var, unsigned int delta, int width = 32);     \
    __device__ T __shfl_down_sync(unsigned int mask, T var, unsigned int delta, int width = 32);   \
    __device__ T __shfl_xor_sync(unsigned int mask, T var, int laneMask, int width = 32);          \
    __device__ T atomicAdd(T *address, T val);
HMS_HALF_MEM(__half)
HMS_HALF_MEM(__half2)
#undef HMS_HALF_MEM

#endif
