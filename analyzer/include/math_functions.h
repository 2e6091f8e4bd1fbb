/* hms-lint hermetic CUDA headers: the device math library. Each function is
 * declared for device code next to the host one from <math.h>; clang resolves
 * a call by execution space. Float overloads of the unsuffixed names
 * (sqrt(float), ...) exist as in CUDA's math_functions.hpp. These must be
 * declared before <cmath>, which cuda_runtime.h includes afterwards. */
#ifndef HMS_MATH_FUNCTIONS_H
#define HMS_MATH_FUNCTIONS_H
#define __MATH_FUNCTIONS_H__

#include "host_defines.h"

/* HMS_MATH1(f): float f##f(float), double f(double), float f(float). */
#define HMS_MATH1(F)                                                                               \
    __device__ float F##f(float x);                                                                \
    __device__ double F(double x);                                                                 \
    __device__ float F(float x);
#define HMS_MATH2(F)                                                                               \
    __device__ float F##f(float x, float y);                                                       \
    __device__ double F(double x, double y);                                                       \
    __device__ float F(float x, float y);
#define HMS_MATH3(F)                                                                               \
    __device__ float F##f(float x, float y, float z);                                              \
    __device__ double F(double x, double y, double z);                                             \
    __device__ float F(float x, float y, float z);
/* Functions CUDA has but C does not: no host declaration to overload. */
#define HMS_CUDA_MATH1(F)                                                                          \
    __device__ float F##f(float x);                                                                \
    __device__ double F(double x);

HMS_MATH1(sqrt)
HMS_MATH1(cbrt)
HMS_MATH1(exp)
HMS_MATH1(exp2)
HMS_MATH1(expm1)
HMS_MATH1(log)
HMS_MATH1(log2)
HMS_MATH1(log10)
HMS_MATH1(log1p)
HMS_MATH1(logb)
HMS_MATH1(sin)
HMS_MATH1(cos)
HMS_MATH1(tan)
HMS_MATH1(asin)
HMS_MATH1(acos)
HMS_MATH1(atan)
HMS_MATH1(sinh)
HMS_MATH1(cosh)
HMS_MATH1(tanh)
HMS_MATH1(asinh)
HMS_MATH1(acosh)
HMS_MATH1(atanh)
HMS_MATH1(erf)
HMS_MATH1(erfc)
HMS_MATH1(lgamma)
HMS_MATH1(tgamma)
HMS_MATH1(fabs)
HMS_MATH1(floor)
HMS_MATH1(ceil)
HMS_MATH1(trunc)
HMS_MATH1(round)
HMS_MATH1(rint)
HMS_MATH1(nearbyint)
HMS_MATH2(pow)
HMS_MATH2(atan2)
HMS_MATH2(fmin)
HMS_MATH2(fmax)
HMS_MATH2(fdim)
HMS_MATH2(fmod)
HMS_MATH2(remainder)
HMS_MATH2(hypot)
HMS_MATH2(copysign)
HMS_MATH2(nextafter)
HMS_MATH3(fma)
HMS_CUDA_MATH1(rsqrt)
HMS_CUDA_MATH1(rcbrt)
HMS_CUDA_MATH1(exp10)
HMS_CUDA_MATH1(sinpi)
HMS_CUDA_MATH1(cospi)
HMS_CUDA_MATH1(erfinv)
HMS_CUDA_MATH1(erfcinv)
HMS_CUDA_MATH1(normcdf)
HMS_CUDA_MATH1(normcdfinv)
HMS_CUDA_MATH1(j0)
HMS_CUDA_MATH1(j1)
HMS_CUDA_MATH1(y0)
HMS_CUDA_MATH1(y1)

#undef HMS_MATH1
#undef HMS_MATH2
#undef HMS_MATH3
#undef HMS_CUDA_MATH1

__device__ float rhypotf(float x, float y);
__device__ double rhypot(double x, double y);
__device__ float norm3df(float a, float b, float c);
__device__ float rnorm3df(float a, float b, float c);
__device__ float norm4df(float a, float b, float c, float d);
__device__ float rnorm4df(float a, float b, float c, float d);
__device__ double norm3d(double a, double b, double c);
__device__ double rnorm3d(double a, double b, double c);
__device__ void sincosf(float x, float *s, float *c);
__device__ void sincos(double x, double *s, double *c);
__device__ void sincospif(float x, float *s, float *c);
__device__ void sincospi(double x, double *s, double *c);
__device__ float frexpf(float x, int *e);
__device__ double frexp(double x, int *e);
__device__ float ldexpf(float x, int e);
__device__ double ldexp(double x, int e);
__device__ float scalbnf(float x, int e);
__device__ double scalbn(double x, int e);
__device__ float modff(float x, float *ip);
__device__ double modf(double x, double *ip);
__device__ float remquof(float x, float y, int *q);
__device__ double remquo(double x, double y, int *q);
__device__ int ilogbf(float x);
__device__ int ilogb(double x);
__device__ long lrintf(float x);
__device__ long lrint(double x);
__device__ long lroundf(float x);
__device__ long lround(double x);
__device__ long long llrintf(float x);
__device__ long long llrint(double x);
__device__ long long llroundf(float x);
__device__ long long llround(double x);
__device__ float nanf(const char *tag);
__device__ double nan(const char *tag);
__device__ float fdividef(float x, float y);
__device__ double fdivide(double x, double y);

/* Fast, reduced-precision intrinsics (CUDA C Programming Guide, "Intrinsic
 * Functions"). */
__device__ float __sinf(float x);
__device__ float __cosf(float x);
__device__ float __tanf(float x);
__device__ void __sincosf(float x, float *s, float *c);
__device__ float __expf(float x);
__device__ float __exp10f(float x);
__device__ float __logf(float x);
__device__ float __log2f(float x);
__device__ float __log10f(float x);
__device__ float __powf(float x, float y);
__device__ float __fdividef(float x, float y);
__device__ float __saturatef(float x);
#define HMS_ROUNDED2(T, N)                                                                         \
    __device__ T N##_rn(T x, T y);                                                                 \
    __device__ T N##_rz(T x, T y);                                                                 \
    __device__ T N##_ru(T x, T y);                                                                 \
    __device__ T N##_rd(T x, T y);
HMS_ROUNDED2(float, __fadd)
HMS_ROUNDED2(float, __fsub)
HMS_ROUNDED2(float, __fmul)
HMS_ROUNDED2(float, __fdiv)
HMS_ROUNDED2(double, __dadd)
HMS_ROUNDED2(double, __dsub)
HMS_ROUNDED2(double, __dmul)
HMS_ROUNDED2(double, __ddiv)
#undef HMS_ROUNDED2
#define HMS_ROUNDED1(T, N)                                                                         \
    __device__ T N##_rn(T x);                                                                      \
    __device__ T N##_rz(T x);                                                                      \
    __device__ T N##_ru(T x);                                                                      \
    __device__ T N##_rd(T x);
#define HMS_ROUNDED3(T, N)                                                                         \
    __device__ T N##_rn(T x, T y, T z);                                                            \
    __device__ T N##_rz(T x, T y, T z);                                                            \
    __device__ T N##_ru(T x, T y, T z);                                                            \
    __device__ T N##_rd(T x, T y, T z);
HMS_ROUNDED1(float, __fsqrt)
HMS_ROUNDED1(float, __frcp)
HMS_ROUNDED1(double, __dsqrt)
HMS_ROUNDED1(double, __drcp)
HMS_ROUNDED3(float, __fmaf)
HMS_ROUNDED3(float, __fmaf_ieee)
HMS_ROUNDED3(double, __fma)
#undef HMS_ROUNDED1
#undef HMS_ROUNDED3
__device__ float __frsqrt_rn(float x);
__device__ float __tanhf(float x);

/* Integer min/max under their CUDA names (the IR builder folds them). */
__device__ unsigned int umin(unsigned int a, unsigned int b);
__device__ unsigned int umax(unsigned int a, unsigned int b);
__device__ long long llmin(long long a, long long b);
__device__ long long llmax(long long a, long long b);
__device__ unsigned long long ullmin(unsigned long long a, unsigned long long b);
__device__ unsigned long long ullmax(unsigned long long a, unsigned long long b);

/* SIMD intrinsics on 2 x 16-bit and 4 x 8-bit lanes of a 32-bit word. */
#define HMS_SIMD2(N)                                                                               \
    __device__ unsigned int N##2(unsigned int a, unsigned int b);                                  \
    __device__ unsigned int N##4(unsigned int a, unsigned int b);
HMS_SIMD2(__vadd)
HMS_SIMD2(__vaddss)
HMS_SIMD2(__vaddus)
HMS_SIMD2(__vsub)
HMS_SIMD2(__vsubss)
HMS_SIMD2(__vsubus)
HMS_SIMD2(__vavgs)
HMS_SIMD2(__vavgu)
HMS_SIMD2(__vhaddu)
HMS_SIMD2(__vabsdiffs)
HMS_SIMD2(__vabsdiffu)
HMS_SIMD2(__vmaxs)
HMS_SIMD2(__vmaxu)
HMS_SIMD2(__vmins)
HMS_SIMD2(__vminu)
HMS_SIMD2(__vsads)
HMS_SIMD2(__vsadu)
HMS_SIMD2(__vseteq)
HMS_SIMD2(__vsetne)
HMS_SIMD2(__vsetges)
HMS_SIMD2(__vsetgeu)
HMS_SIMD2(__vsetgts)
HMS_SIMD2(__vsetgtu)
HMS_SIMD2(__vsetles)
HMS_SIMD2(__vsetleu)
HMS_SIMD2(__vsetlts)
HMS_SIMD2(__vsetltu)
HMS_SIMD2(__vcmpeq)
HMS_SIMD2(__vcmpne)
HMS_SIMD2(__vcmpges)
HMS_SIMD2(__vcmpgeu)
HMS_SIMD2(__vcmpgts)
HMS_SIMD2(__vcmpgtu)
HMS_SIMD2(__vcmples)
HMS_SIMD2(__vcmpleu)
HMS_SIMD2(__vcmplts)
HMS_SIMD2(__vcmpltu)
#undef HMS_SIMD2
__device__ unsigned int __vabs2(unsigned int a);
__device__ unsigned int __vabs4(unsigned int a);
__device__ unsigned int __vabsss2(unsigned int a);
__device__ unsigned int __vabsss4(unsigned int a);
__device__ unsigned int __vneg2(unsigned int a);
__device__ unsigned int __vneg4(unsigned int a);
__device__ unsigned int __vnegss2(unsigned int a);
__device__ unsigned int __vnegss4(unsigned int a);

/* Integer abs; min/max, which CUDA declares for host and device. */
extern "C" {
__device__ int abs(int x);
__device__ long labs(long x);
__device__ long long llabs(long long x);
}
__device__ long abs(long x);
__device__ long long abs(long long x);
__device__ float abs(float x);
__device__ double abs(double x);

#define HMS_MINMAX(T)                                                                              \
    static __inline__ __host__ __device__ T min(T a, T b)                                          \
    {                                                                                              \
        return a < b ? a : b;                                                                      \
    }                                                                                              \
    static __inline__ __host__ __device__ T max(T a, T b)                                          \
    {                                                                                              \
        return a > b ? a : b;                                                                      \
    }
HMS_MINMAX(int)
HMS_MINMAX(unsigned int)
HMS_MINMAX(long)
HMS_MINMAX(unsigned long)
HMS_MINMAX(long long)
HMS_MINMAX(unsigned long long)
HMS_MINMAX(float)
HMS_MINMAX(double)
#undef HMS_MINMAX
/* Mixed signed/unsigned calls go unsigned, as in CUDA. */
static __inline__ __host__ __device__ unsigned int min(int a, unsigned int b)
{
    return min((unsigned int)a, b);
}
static __inline__ __host__ __device__ unsigned int min(unsigned int a, int b)
{
    return min(a, (unsigned int)b);
}
static __inline__ __host__ __device__ unsigned int max(int a, unsigned int b)
{
    return max((unsigned int)a, b);
}
static __inline__ __host__ __device__ unsigned int max(unsigned int a, int b)
{
    return max(a, (unsigned int)b);
}
static __inline__ __host__ __device__ double min(float a, double b)
{
    return min((double)a, b);
}
static __inline__ __host__ __device__ double min(double a, float b)
{
    return min(a, (double)b);
}
static __inline__ __host__ __device__ double max(float a, double b)
{
    return max((double)a, b);
}
static __inline__ __host__ __device__ double max(double a, float b)
{
    return max(a, (double)b);
}

#endif
