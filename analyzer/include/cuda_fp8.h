/* hms-lint hermetic CUDA headers: 8-bit floats (__nv_fp8_e4m3,
 * __nv_fp8_e5m2, their x2/x4 packs), their storage types and the
 * conversion intrinsics. */
#ifndef HMS_CUDA_FP8_H
#define HMS_CUDA_FP8_H
#define __CUDA_FP8_H__
#define __CUDA_FP8_HPP__
#define __CUDA_FP8_TYPES_EXIST__

#include "cuda_bf16.h"
#include "cuda_fp16.h"

typedef unsigned char __nv_fp8_storage_t;
typedef unsigned short int __nv_fp8x2_storage_t;
typedef unsigned int __nv_fp8x4_storage_t;

typedef enum __nv_saturation_t { __NV_NOSAT, __NV_SATFINITE } __nv_saturation_t;
typedef enum __nv_fp8_interpretation_t { __NV_E4M3, __NV_E5M2 } __nv_fp8_interpretation_t;

__host__ __device__ __nv_fp8_storage_t __nv_cvt_double_to_fp8(double x, __nv_saturation_t s,
                                                              __nv_fp8_interpretation_t t);
__host__ __device__ __nv_fp8x2_storage_t __nv_cvt_double2_to_fp8x2(double2 x, __nv_saturation_t s,
                                                                   __nv_fp8_interpretation_t t);
__host__ __device__ __nv_fp8_storage_t __nv_cvt_float_to_fp8(float x, __nv_saturation_t s,
                                                             __nv_fp8_interpretation_t t);
__host__ __device__ __nv_fp8x2_storage_t __nv_cvt_float2_to_fp8x2(float2 x, __nv_saturation_t s,
                                                                  __nv_fp8_interpretation_t t);
__host__ __device__ __nv_fp8_storage_t __nv_cvt_halfraw_to_fp8(__half_raw x, __nv_saturation_t s,
                                                               __nv_fp8_interpretation_t t);
__host__ __device__ __nv_fp8x2_storage_t __nv_cvt_halfraw2_to_fp8x2(__half2_raw x,
                                                                    __nv_saturation_t s,
                                                                    __nv_fp8_interpretation_t t);
__host__ __device__ __nv_fp8_storage_t __nv_cvt_bfloat16raw_to_fp8(__nv_bfloat16_raw x,
                                                                   __nv_saturation_t s,
                                                                   __nv_fp8_interpretation_t t);
__host__ __device__ __nv_fp8x2_storage_t __nv_cvt_bfloat16raw2_to_fp8x2(
    __nv_bfloat162_raw x, __nv_saturation_t s, __nv_fp8_interpretation_t t);
__host__ __device__ __half_raw __nv_cvt_fp8_to_halfraw(__nv_fp8_storage_t x,
                                                       __nv_fp8_interpretation_t t);
__host__ __device__ __half2_raw __nv_cvt_fp8x2_to_halfraw2(__nv_fp8x2_storage_t x,
                                                           __nv_fp8_interpretation_t t);

/* One 8-bit float type: explicit conversions both ways, as in CUDA;
 * trivially constructible, so usable in __shared__ arrays. */
#define HMS_FP8(N)                                                                                 \
    struct __align__(1) N                                                                          \
    {                                                                                              \
        __nv_fp8_storage_t __x;                                                                    \
        N() = default;                                                                             \
        explicit __host__ __device__ N(const __half f);                                            \
        explicit __host__ __device__ N(const __nv_bfloat16 f);                                     \
        explicit __host__ __device__ N(const float f);                                             \
        explicit __host__ __device__ N(const double f);                                            \
        explicit __host__ __device__ N(const unsigned short x);                                    \
        explicit __host__ __device__ N(const unsigned int x);                                      \
        explicit __host__ __device__ N(const unsigned long long x);                                \
        explicit __host__ __device__ N(const short x);                                             \
        explicit __host__ __device__ N(const int x);                                               \
        explicit __host__ __device__ N(const long long x);                                         \
        explicit __host__ __device__ operator __half() const;                                      \
        explicit __host__ __device__ operator __nv_bfloat16() const;                               \
        explicit __host__ __device__ operator float() const;                                       \
        explicit __host__ __device__ operator double() const;                                      \
        explicit __host__ __device__ operator unsigned char() const;                               \
        explicit __host__ __device__ operator unsigned short() const;                              \
        explicit __host__ __device__ operator unsigned int() const;                                \
        explicit __host__ __device__ operator unsigned long long() const;                          \
        explicit __host__ __device__ operator char() const;                                        \
        explicit __host__ __device__ operator signed char() const;                                 \
        explicit __host__ __device__ operator short() const;                                       \
        explicit __host__ __device__ operator int() const;                                         \
        explicit __host__ __device__ operator long long() const;                                   \
        explicit __host__ __device__ operator bool() const;                                        \
    };
#define HMS_FP8X(N, S, A, H2)                                                                      \
    struct __align__(A) N                                                                          \
    {                                                                                              \
        S __x;                                                                                     \
        N() = default;                                                                             \
        explicit __host__ __device__ N(const H2 f);                                                \
        explicit __host__ __device__ N(const float2 f);                                            \
        explicit __host__ __device__ N(const double2 f);                                           \
        explicit __host__ __device__ operator H2() const;                                          \
        explicit __host__ __device__ operator float2() const;                                      \
    };

HMS_FP8(__nv_fp8_e4m3)
HMS_FP8(__nv_fp8_e5m2)
HMS_FP8X(__nv_fp8x2_e4m3, __nv_fp8x2_storage_t, 2, __half2)
HMS_FP8X(__nv_fp8x2_e5m2, __nv_fp8x2_storage_t, 2, __half2)
#undef HMS_FP8
#undef HMS_FP8X

struct __align__(4) __nv_fp8x4_e4m3
{
    __nv_fp8x4_storage_t __x;
    __nv_fp8x4_e4m3() = default;
    explicit __host__ __device__ __nv_fp8x4_e4m3(const float4 f);
    explicit __host__ __device__ __nv_fp8x4_e4m3(const double4 f);
    explicit __host__ __device__ operator float4() const;
};
struct __align__(4) __nv_fp8x4_e5m2
{
    __nv_fp8x4_storage_t __x;
    __nv_fp8x4_e5m2() = default;
    explicit __host__ __device__ __nv_fp8x4_e5m2(const float4 f);
    explicit __host__ __device__ __nv_fp8x4_e5m2(const double4 f);
    explicit __host__ __device__ operator float4() const;
};

typedef __nv_fp8_e4m3 nv_fp8_e4m3;
typedef __nv_fp8_e5m2 nv_fp8_e5m2;
typedef __nv_fp8x2_e4m3 nv_fp8x2_e4m3;
typedef __nv_fp8x2_e5m2 nv_fp8x2_e5m2;
typedef __nv_fp8x4_e4m3 nv_fp8x4_e4m3;
typedef __nv_fp8x4_e5m2 nv_fp8x4_e5m2;

#endif
