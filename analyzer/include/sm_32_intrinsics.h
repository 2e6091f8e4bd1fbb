/* hms-lint hermetic CUDA headers: cache-hinted loads and stores (__ldg
 * through the read-only data cache, __ldcg/__ldca/__ldcs/__ldlu/__ldcv,
 * __stwb/__stcg/__stcs/__stwt) for the scalar and vector types. */
#ifndef HMS_SM_32_INTRINSICS_H
#define HMS_SM_32_INTRINSICS_H

#include "vector_types.h"

#define HMS_LOADS(T)                                                                               \
    __device__ T __ldg(const T *ptr);                                                              \
    __device__ T __ldcg(const T *ptr);                                                             \
    __device__ T __ldca(const T *ptr);                                                             \
    __device__ T __ldcs(const T *ptr);                                                             \
    __device__ T __ldlu(const T *ptr);                                                             \
    __device__ T __ldcv(const T *ptr);                                                             \
    __device__ void __stwb(T *ptr, T value);                                                       \
    __device__ void __stcg(T *ptr, T value);                                                       \
    __device__ void __stcs(T *ptr, T value);                                                       \
    __device__ void __stwt(T *ptr, T value);

HMS_LOADS(char)
HMS_LOADS(signed char)
HMS_LOADS(unsigned char)
HMS_LOADS(short)
HMS_LOADS(unsigned short)
HMS_LOADS(int)
HMS_LOADS(unsigned int)
HMS_LOADS(long)
HMS_LOADS(unsigned long)
HMS_LOADS(long long)
HMS_LOADS(unsigned long long)
HMS_LOADS(float)
HMS_LOADS(double)
HMS_LOADS(char2)
HMS_LOADS(char4)
HMS_LOADS(uchar2)
HMS_LOADS(uchar4)
HMS_LOADS(short2)
HMS_LOADS(short4)
HMS_LOADS(ushort2)
HMS_LOADS(ushort4)
HMS_LOADS(int2)
HMS_LOADS(int4)
HMS_LOADS(uint2)
HMS_LOADS(uint4)
HMS_LOADS(longlong2)
HMS_LOADS(ulonglong2)
HMS_LOADS(float2)
HMS_LOADS(float4)
HMS_LOADS(double2)
#undef HMS_LOADS

#endif
