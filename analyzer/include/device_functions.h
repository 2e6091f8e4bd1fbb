/* hms-lint hermetic CUDA headers: barriers, fences, integer and conversion
 * intrinsics, clocks, and the C library functions CUDA makes callable from
 * device code (printf, malloc, memcpy, assert). */
#ifndef HMS_DEVICE_FUNCTIONS_H
#define HMS_DEVICE_FUNCTIONS_H
#define __DEVICE_FUNCTIONS_H__

#include <stddef.h>

#include "host_defines.h"

/* Barriers and fences. */
__device__ void __syncthreads(void);
__device__ int __syncthreads_count(int predicate);
__device__ int __syncthreads_and(int predicate);
__device__ int __syncthreads_or(int predicate);
__device__ void __threadfence(void);
__device__ void __threadfence_block(void);
__device__ void __threadfence_system(void);
__device__ void __trap(void);
__device__ void __brkpt(void);
__device__ void __prof_trigger(int counter);
__device__ void __nanosleep(unsigned int ns);

/* Address-space conversions (the operands of cp.async/ldmatrix inline asm)
 * and tests. */
__device__ size_t __cvta_generic_to_shared(const void *ptr);
__device__ size_t __cvta_generic_to_global(const void *ptr);
__device__ size_t __cvta_generic_to_constant(const void *ptr);
__device__ size_t __cvta_generic_to_local(const void *ptr);
__device__ void *__cvta_shared_to_generic(size_t addr);
__device__ void *__cvta_global_to_generic(size_t addr);
__device__ unsigned int __isShared(const void *ptr);
__device__ unsigned int __isGlobal(const void *ptr);
__device__ unsigned int __isConstant(const void *ptr);
__device__ unsigned int __isLocal(const void *ptr);

/* Clocks. */
__device__ long long clock64(void);
__device__ unsigned long long __globaltimer(void);

/* Integer intrinsics. */
__device__ int __mul24(int x, int y);
__device__ unsigned int __umul24(unsigned int x, unsigned int y);
__device__ int __mulhi(int x, int y);
__device__ unsigned int __umulhi(unsigned int x, unsigned int y);
__device__ long long __mul64hi(long long x, long long y);
__device__ unsigned long long __umul64hi(unsigned long long x, unsigned long long y);
__device__ int __popc(unsigned int x);
__device__ int __popcll(unsigned long long x);
__device__ int __clz(int x);
__device__ int __clzll(long long x);
__device__ int __ffs(int x);
__device__ int __ffsll(long long x);
__device__ unsigned int __brev(unsigned int x);
__device__ unsigned long long __brevll(unsigned long long x);
__device__ unsigned int __byte_perm(unsigned int x, unsigned int y, unsigned int s);
__device__ unsigned int __funnelshift_l(unsigned int lo, unsigned int hi, unsigned int shift);
__device__ unsigned int __funnelshift_r(unsigned int lo, unsigned int hi, unsigned int shift);
__device__ int __hadd(int x, int y);
__device__ int __rhadd(int x, int y);
__device__ unsigned int __uhadd(unsigned int x, unsigned int y);
__device__ unsigned int __urhadd(unsigned int x, unsigned int y);
__device__ unsigned int __sad(int x, int y, unsigned int z);
__device__ unsigned int __usad(unsigned int x, unsigned int y, unsigned int z);
__device__ int __dp4a(int srcA, int srcB, int c);
__device__ unsigned int __dp4a(unsigned int srcA, unsigned int srcB, unsigned int c);

/* Bit reinterpretation and rounding conversions. */
__device__ int __float_as_int(float x);
__device__ float __int_as_float(int x);
__device__ unsigned int __float_as_uint(float x);
__device__ float __uint_as_float(unsigned int x);
__device__ long long __double_as_longlong(double x);
__device__ double __longlong_as_double(long long x);
__device__ int __double2hiint(double x);
__device__ int __double2loint(double x);
__device__ double __hiloint2double(int hi, int lo);
#define HMS_ROUNDINGS(R, A, N)                                                                     \
    __device__ R N##_rn(A x);                                                                      \
    __device__ R N##_rz(A x);                                                                      \
    __device__ R N##_ru(A x);                                                                      \
    __device__ R N##_rd(A x);
HMS_ROUNDINGS(int, float, __float2int)
HMS_ROUNDINGS(unsigned int, float, __float2uint)
HMS_ROUNDINGS(long long, float, __float2ll)
HMS_ROUNDINGS(unsigned long long, float, __float2ull)
HMS_ROUNDINGS(float, int, __int2float)
HMS_ROUNDINGS(float, unsigned int, __uint2float)
HMS_ROUNDINGS(float, long long, __ll2float)
HMS_ROUNDINGS(float, unsigned long long, __ull2float)
HMS_ROUNDINGS(int, double, __double2int)
HMS_ROUNDINGS(unsigned int, double, __double2uint)
HMS_ROUNDINGS(long long, double, __double2ll)
HMS_ROUNDINGS(unsigned long long, double, __double2ull)
HMS_ROUNDINGS(float, double, __double2float)
HMS_ROUNDINGS(double, long long, __ll2double)
HMS_ROUNDINGS(double, unsigned long long, __ull2double)
#undef HMS_ROUNDINGS
__device__ double __int2double_rn(int x);
__device__ double __uint2double_rn(unsigned int x);
__device__ unsigned short __float2half_as_ushort(float x);

/* C library entry points that CUDA provides on the device. They overload the
 * host declarations of <stdio.h>/<stdlib.h>/<string.h> by execution space.
 * printf is __host__ __device__ in CUDA (cuda_runtime.h makes it usable in
 * host code without <cstdio>): a __device__ and a plain (host) declaration
 * give that here. A single __host__ __device__ one would clash with the host
 * declaration of <stdio.h>, included before or after; this host one is a
 * compatible redeclaration of it. */
extern "C" {
__device__ int printf(const char *format, ...);
int printf(const char *__restrict format, ...);
__device__ long clock(void); /* clock_t is long on the hosts clang targets here */
__device__ void *malloc(size_t size);
__device__ void free(void *ptr);
__device__ void *memcpy(void *dst, const void *src, size_t n);
__device__ void *memset(void *dst, int c, size_t n);
__device__ void __assert_fail(const char *expr, const char *file, unsigned int line,
                              const char *func);
__device__ void __assertfail(const char *expr, const char *file, unsigned int line,
                             const char *func, size_t charSize);
}

#endif
