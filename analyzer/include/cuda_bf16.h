/* hms-lint hermetic CUDA headers: bfloat16 (__nv_bfloat16, __nv_bfloat162)
 * with the conversions, arithmetic intrinsics and operators CUDA provides
 * (the same set as for __half, with bfloat16 in the conversion names). */
#ifndef HMS_CUDA_BF16_H
#define HMS_CUDA_BF16_H
#define __CUDA_BF16_H__
#define __CUDA_BF16_HPP__
#define __CUDA_BF16_TYPES_EXIST__

#include "cuda_fp16.h"

typedef struct __nv_bfloat16_raw {
    unsigned short x;
} __nv_bfloat16_raw;
typedef struct __nv_bfloat162_raw {
    unsigned short x, y;
} __nv_bfloat162_raw;

/* Trivial default constructors keep both usable in __shared__ arrays. */
struct __align__(2) __nv_bfloat16
{
    unsigned short __x;
    __nv_bfloat16() = default;
    __host__ __device__ __nv_bfloat16(const __nv_bfloat16_raw &r) : __x(r.x) {}
    __host__ __device__ __nv_bfloat16(float f);
    __host__ __device__ __nv_bfloat16(double f);
    __host__ __device__ __nv_bfloat16(const __half f);
    __host__ __device__ __nv_bfloat16(int i);
    __host__ __device__ __nv_bfloat16(unsigned int i);
    __host__ __device__ __nv_bfloat16(short i);
    __host__ __device__ __nv_bfloat16(unsigned short i);
    __host__ __device__ __nv_bfloat16(long long i);
    __host__ __device__ __nv_bfloat16(unsigned long long i);
    __host__ __device__ operator float() const;
    __host__ __device__ operator __nv_bfloat16_raw() const;
    __host__ __device__ __nv_bfloat16 &operator=(float f);
    __host__ __device__ __nv_bfloat16 &operator=(const __nv_bfloat16_raw &r);
};

struct __align__(4) __nv_bfloat162
{
    __nv_bfloat16 x, y;
    __nv_bfloat162() = default;
    __host__ __device__ __nv_bfloat162(const __nv_bfloat16 &a, const __nv_bfloat16 &b) : x(a), y(b)
    {
    }
    __host__ __device__ __nv_bfloat162(const __nv_bfloat162_raw &r);
    __host__ __device__ operator __nv_bfloat162_raw() const;
};

typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;

__host__ __device__ __nv_bfloat16 __float2bfloat16(float f);
__host__ __device__ __nv_bfloat16 __float2bfloat16_rn(float f);
__host__ __device__ __nv_bfloat16 __float2bfloat16_rz(float f);
__host__ __device__ __nv_bfloat16 __float2bfloat16_rd(float f);
__host__ __device__ __nv_bfloat16 __float2bfloat16_ru(float f);
__host__ __device__ __nv_bfloat16 __double2bfloat16(double d);
__host__ __device__ float __bfloat162float(__nv_bfloat16 h);
__host__ __device__ __nv_bfloat162 __float2bfloat162_rn(float f);
__host__ __device__ __nv_bfloat162 __floats2bfloat162_rn(float a, float b);
__host__ __device__ __nv_bfloat162 __float22bfloat162_rn(float2 f);
__host__ __device__ float2 __bfloat1622float2(__nv_bfloat162 h);
__device__ __nv_bfloat16 __int2bfloat16_rn(int i);
__device__ __nv_bfloat16 __uint2bfloat16_rn(unsigned int i);
__device__ __nv_bfloat16 __short2bfloat16_rn(short i);
__device__ __nv_bfloat16 __ushort2bfloat16_rn(unsigned short i);
__device__ __nv_bfloat16 __ll2bfloat16_rn(long long i);
__device__ int __bfloat162int_rn(__nv_bfloat16 h);
__device__ int __bfloat162int_rz(__nv_bfloat16 h);
__device__ unsigned int __bfloat162uint_rn(__nv_bfloat16 h);
__device__ unsigned int __bfloat162uint_rz(__nv_bfloat16 h);
__device__ short __bfloat162short_rn(__nv_bfloat16 h);
__device__ short __bfloat162short_rz(__nv_bfloat16 h);
__device__ __nv_bfloat16 __low2bfloat16(__nv_bfloat162 h);
__device__ __nv_bfloat16 __high2bfloat16(__nv_bfloat162 h);
__device__ __nv_bfloat162 __low2bfloat162(__nv_bfloat162 h);
__device__ __nv_bfloat162 __high2bfloat162(__nv_bfloat162 h);
__device__ __nv_bfloat162 __halves2bfloat162(__nv_bfloat16 lo, __nv_bfloat16 hi);
__device__ __nv_bfloat162 __bfloat162bfloat162(__nv_bfloat16 h);
__device__ __nv_bfloat162 __lows2bfloat162(__nv_bfloat162 a, __nv_bfloat162 b);
__device__ __nv_bfloat162 __highs2bfloat162(__nv_bfloat162 a, __nv_bfloat162 b);
__host__ __device__ unsigned short __bfloat16_as_ushort(__nv_bfloat16 h);
__host__ __device__ short __bfloat16_as_short(__nv_bfloat16 h);
__host__ __device__ __nv_bfloat16 __ushort_as_bfloat16(unsigned short u);
__host__ __device__ __nv_bfloat16 __short_as_bfloat16(short u);

HMS_HALF_FAMILY(__nv_bfloat16, __nv_bfloat162)

#endif
