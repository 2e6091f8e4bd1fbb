/* hms-lint hermetic CUDA headers: single and double complex numbers
 * (cuFloatComplex = float2, cuDoubleComplex = double2) and their
 * arithmetic. */
#ifndef HMS_CUCOMPLEX_H
#define HMS_CUCOMPLEX_H
#define CU_COMPLEX_H_

#include "vector_functions.h"
#include "vector_types.h"

typedef float2 cuFloatComplex;
typedef double2 cuDoubleComplex;
typedef cuFloatComplex cuComplex;

#define HMS_COMPLEX_OPS(C, R, S)                                                                   \
    __host__ __device__ static __inline__ R cuCreal##S(C x)                                        \
    {                                                                                              \
        return x.x;                                                                                \
    }                                                                                              \
    __host__ __device__ static __inline__ R cuCimag##S(C x)                                        \
    {                                                                                              \
        return x.y;                                                                                \
    }                                                                                              \
    __host__ __device__ static __inline__ C cuConj##S(C x)                                         \
    {                                                                                              \
        x.y = -x.y;                                                                                \
        return x;                                                                                  \
    }                                                                                              \
    __host__ __device__ static __inline__ C cuCadd##S(C x, C y)                                    \
    {                                                                                              \
        x.x += y.x;                                                                                \
        x.y += y.y;                                                                                \
        return x;                                                                                  \
    }                                                                                              \
    __host__ __device__ static __inline__ C cuCsub##S(C x, C y)                                    \
    {                                                                                              \
        x.x -= y.x;                                                                                \
        x.y -= y.y;                                                                                \
        return x;                                                                                  \
    }                                                                                              \
    __host__ __device__ static __inline__ C cuCmul##S(C x, C y)                                    \
    {                                                                                              \
        C r;                                                                                       \
        r.x = x.x * y.x - x.y * y.y;                                                               \
        r.y = x.x * y.y + x.y * y.x;                                                               \
        return r;                                                                                  \
    }                                                                                              \
    __host__ __device__ static __inline__ C cuCdiv##S(C x, C y)                                    \
    {                                                                                              \
        R d = y.x * y.x + y.y * y.y;                                                               \
        C r;                                                                                       \
        r.x = (x.x * y.x + x.y * y.y) / d;                                                         \
        r.y = (x.y * y.x - x.x * y.y) / d;                                                         \
        return r;                                                                                  \
    }
HMS_COMPLEX_OPS(cuFloatComplex, float, f)
HMS_COMPLEX_OPS(cuDoubleComplex, double, )
#undef HMS_COMPLEX_OPS

__host__ __device__ static __inline__ cuFloatComplex make_cuFloatComplex(float r, float i)
{
    return make_float2(r, i);
}
__host__ __device__ static __inline__ cuDoubleComplex make_cuDoubleComplex(double r, double i)
{
    return make_double2(r, i);
}
__host__ __device__ static __inline__ cuComplex make_cuComplex(float r, float i)
{
    return make_float2(r, i);
}
__host__ __device__ float cuCabsf(cuFloatComplex x);
__host__ __device__ double cuCabs(cuDoubleComplex x);

#endif
