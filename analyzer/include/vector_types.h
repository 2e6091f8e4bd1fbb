/* hms-lint hermetic CUDA headers: built-in vector types (char1 .. double4),
 * uint3 and dim3, with the sizes and alignments of the CUDA Programming
 * Guide's "Built-in Vector Types" table (e.g. float4: 16 bytes, 16-aligned;
 * float3: 12 bytes, 4-aligned), plus the make_<type>() constructors. */
#ifndef HMS_VECTOR_TYPES_H
#define HMS_VECTOR_TYPES_H
#define __VECTOR_TYPES_H__

#include "host_defines.h"

/* HMS_VEC(name, base type, 2-wide align, 4-wide align) declares name1..name4;
 * the 1- and 3-wide types keep the base type's alignment. */
#define HMS_VEC1(N, T)                                                                             \
    typedef struct N##1                                                                            \
    {                                                                                              \
        T x;                                                                                       \
    }                                                                                              \
    N##1;
#define HMS_VEC2(N, T, A)                                                                          \
    typedef struct __align__(A) N##2                                                               \
    {                                                                                              \
        T x, y;                                                                                    \
    }                                                                                              \
    N##2;
#define HMS_VEC3(N, T)                                                                             \
    typedef struct N##3                                                                            \
    {                                                                                              \
        T x, y, z;                                                                                 \
    }                                                                                              \
    N##3;
#define HMS_VEC4(N, T, A)                                                                          \
    typedef struct __align__(A) N##4                                                               \
    {                                                                                              \
        T x, y, z, w;                                                                              \
    }                                                                                              \
    N##4;
#define HMS_VEC(N, T, A2, A4) HMS_VEC1(N, T) HMS_VEC2(N, T, A2) HMS_VEC3(N, T) HMS_VEC4(N, T, A4)

HMS_VEC(char, signed char, 2, 4)
HMS_VEC(uchar, unsigned char, 2, 4)
HMS_VEC(short, short, 4, 8)
HMS_VEC(ushort, unsigned short, 4, 8)
HMS_VEC(int, int, 8, 16)
HMS_VEC1(uint, unsigned int)
HMS_VEC2(uint, unsigned int, 8)
HMS_VEC4(uint, unsigned int, 16)
HMS_VEC(long, long, 2 * sizeof(long), 16)
HMS_VEC(ulong, unsigned long, 2 * sizeof(unsigned long), 16)
HMS_VEC(longlong, long long, 16, 16)
HMS_VEC(ulonglong, unsigned long long, 16, 16)
HMS_VEC(float, float, 8, 16)
HMS_VEC(double, double, 16, 16)

/* uint3 converts to and from dim3, so it is written out. */
typedef struct uint3 {
    unsigned int x, y, z;
} uint3;

struct dim3 {
    unsigned int x, y, z;
    __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1,
                                       unsigned int vz = 1)
        : x(vx), y(vy), z(vz)
    {
    }
    __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
    __host__ __device__ constexpr operator uint3() const
    {
        return uint3{x, y, z};
    }
};
typedef struct dim3 dim3;

#undef HMS_VEC
#undef HMS_VEC1
#undef HMS_VEC2
#undef HMS_VEC3
#undef HMS_VEC4

#include "vector_functions.h"

#endif
