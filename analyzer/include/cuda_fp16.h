/* hms-lint hermetic CUDA headers: half precision (__half, __half2) with the
 * conversions, arithmetic intrinsics and operators CUDA provides. */
#ifndef HMS_CUDA_FP16_H
#define HMS_CUDA_FP16_H
/* The toolkit's guards: code tests them to know the header is in. */
#define __CUDA_FP16_H__
#define __CUDA_FP16_HPP__
#define __CUDA_FP16_TYPES_EXIST__

#include "cuda_runtime.h"
#include "hms_half_family.h"

/* Trivial default constructors keep both usable in __shared__ arrays. */
typedef struct __half_raw {
    unsigned short x;
} __half_raw;
typedef struct __half2_raw {
    unsigned short x, y;
} __half2_raw;

struct __align__(2) __half
{
    unsigned short __x;
    __half() = default;
    __host__ __device__ __half(const __half_raw &r) : __x(r.x) {}
    __host__ __device__ __half(float f);
    __host__ __device__ __half(double f);
    __host__ __device__ __half(int i);
    __host__ __device__ __half(unsigned int i);
    __host__ __device__ __half(short i);
    __host__ __device__ __half(unsigned short i);
    __host__ __device__ __half(long long i);
    __host__ __device__ __half(unsigned long long i);
    __host__ __device__ operator float() const;
    __host__ __device__ operator __half_raw() const;
    __host__ __device__ __half &operator=(float f);
    __host__ __device__ __half &operator=(const __half_raw &r);
};

struct __align__(4) __half2
{
    __half x, y;
    __half2() = default;
    __host__ __device__ __half2(const __half &a, const __half &b) : x(a), y(b) {}
    __host__ __device__ __half2(const __half2_raw &r);
    __host__ __device__ operator __half2_raw() const;
};

typedef __half half;
typedef __half2 half2;

__host__ __device__ __half __float2half(float f);
__host__ __device__ __half __float2half_rn(float f);
__host__ __device__ __half __float2half_rz(float f);
__host__ __device__ __half __float2half_rd(float f);
__host__ __device__ __half __float2half_ru(float f);
__host__ __device__ __half __double2half(double d);
__host__ __device__ float __half2float(__half h);
__host__ __device__ __half2 __float2half2_rn(float f);
__host__ __device__ __half2 __floats2half2_rn(float a, float b);
__host__ __device__ __half2 __float22half2_rn(float2 f);
__host__ __device__ float2 __half22float2(__half2 h);
__device__ __half __int2half_rn(int i);
__device__ __half __uint2half_rn(unsigned int i);
__device__ __half __short2half_rn(short i);
__device__ __half __ushort2half_rn(unsigned short i);
__device__ __half __ll2half_rn(long long i);
__device__ int __half2int_rn(__half h);
__device__ int __half2int_rz(__half h);
__device__ unsigned int __half2uint_rn(__half h);
__device__ unsigned int __half2uint_rz(__half h);
__device__ short __half2short_rn(__half h);
__device__ short __half2short_rz(__half h);
__device__ __half __low2half(__half2 h);
__device__ __half __high2half(__half2 h);
__device__ __half2 __low2half2(__half2 h);
__device__ __half2 __high2half2(__half2 h);
__device__ __half2 __halves2half2(__half lo, __half hi);
__device__ __half2 __half2half2(__half h);
__device__ __half2 __lows2half2(__half2 a, __half2 b);
__device__ __half2 __highs2half2(__half2 a, __half2 b);
__device__ unsigned short __half_as_ushort(__half h);
__device__ short __half_as_short(__half h);
__device__ __half __ushort_as_half(unsigned short u);
__device__ __half __short_as_half(short u);

HMS_HALF_FAMILY(__half, __half2)

#endif
