/* hms-lint hermetic CUDA headers: cache-hinted loads and stores (__ldg
 * through the read-only data cache, __ldcg/__ldca/__ldcs/__ldlu/__ldcv,
 * __stwb/__stcg/__stcs/__stwt) for the scalar and vector types. */
#ifndef HMS_SM_32_INTRINSICS_H
#define HMS_SM_32_INTRINSICS_H
#define __SM_32_INTRINSICS_H__

#include "vector_types.h"

/* Kept defined: cuda_fp16.h, cuda_bf16.h and cuda_fp8.h declare the same set
 * for their types. */
#define HMS_CACHE_HINTED(T)                                                                        \
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

HMS_CACHE_HINTED(char)
HMS_CACHE_HINTED(signed char)
HMS_CACHE_HINTED(unsigned char)
HMS_CACHE_HINTED(short)
HMS_CACHE_HINTED(unsigned short)
HMS_CACHE_HINTED(int)
HMS_CACHE_HINTED(unsigned int)
HMS_CACHE_HINTED(long)
HMS_CACHE_HINTED(unsigned long)
HMS_CACHE_HINTED(long long)
HMS_CACHE_HINTED(unsigned long long)
HMS_CACHE_HINTED(float)
HMS_CACHE_HINTED(double)
HMS_CACHE_HINTED(char2)
HMS_CACHE_HINTED(char4)
HMS_CACHE_HINTED(uchar2)
HMS_CACHE_HINTED(uchar4)
HMS_CACHE_HINTED(short2)
HMS_CACHE_HINTED(short4)
HMS_CACHE_HINTED(ushort2)
HMS_CACHE_HINTED(ushort4)
HMS_CACHE_HINTED(int2)
HMS_CACHE_HINTED(int4)
HMS_CACHE_HINTED(uint2)
HMS_CACHE_HINTED(uint4)
HMS_CACHE_HINTED(longlong2)
HMS_CACHE_HINTED(ulonglong2)
HMS_CACHE_HINTED(float2)
HMS_CACHE_HINTED(float4)
HMS_CACHE_HINTED(double2)

#endif
