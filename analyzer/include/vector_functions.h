/* hms-lint hermetic CUDA headers: make_<vector type>() constructors. */
#ifndef HMS_VECTOR_FUNCTIONS_H
#define HMS_VECTOR_FUNCTIONS_H
#define __VECTOR_FUNCTIONS_H__

#include "vector_types.h"

#define HMS_MAKE1(N, T)                                                                            \
    static __inline__ __host__ __device__ N##1 make_##N##1(T x)                                    \
    {                                                                                              \
        return N##1 {x};                                                                           \
    }
#define HMS_MAKE2(N, T)                                                                            \
    static __inline__ __host__ __device__ N##2 make_##N##2(T x, T y)                               \
    {                                                                                              \
        return N##2 {x, y};                                                                        \
    }
#define HMS_MAKE3(N, T)                                                                            \
    static __inline__ __host__ __device__ N##3 make_##N##3(T x, T y, T z)                          \
    {                                                                                              \
        return N##3 {x, y, z};                                                                     \
    }
#define HMS_MAKE4(N, T)                                                                            \
    static __inline__ __host__ __device__ N##4 make_##N##4(T x, T y, T z, T w)                     \
    {                                                                                              \
        return N##4 {x, y, z, w};                                                                  \
    }
#define HMS_MAKE(N, T) HMS_MAKE1(N, T) HMS_MAKE2(N, T) HMS_MAKE3(N, T) HMS_MAKE4(N, T)

HMS_MAKE(char, signed char)
HMS_MAKE(uchar, unsigned char)
HMS_MAKE(short, short)
HMS_MAKE(ushort, unsigned short)
HMS_MAKE(int, int)
HMS_MAKE(uint, unsigned int)
HMS_MAKE(long, long)
HMS_MAKE(ulong, unsigned long)
HMS_MAKE(longlong, long long)
HMS_MAKE(ulonglong, unsigned long long)
HMS_MAKE(float, float)
HMS_MAKE(double, double)

#undef HMS_MAKE
#undef HMS_MAKE1
#undef HMS_MAKE2
#undef HMS_MAKE3
#undef HMS_MAKE4

#endif
