/* hms-lint hermetic CUDA headers: atomic read-modify-write functions, with
 * the _block and _system scoped variants, for the types CUDA provides. */
#ifndef HMS_DEVICE_ATOMIC_FUNCTIONS_H
#define HMS_DEVICE_ATOMIC_FUNCTIONS_H
#define __DEVICE_ATOMIC_FUNCTIONS_H__

#include "host_defines.h"

/* HMS_ATOMIC(ret, name, args): name, name_block and name_system. */
#define HMS_ATOMIC(R, N, ...)                                                                      \
    __device__ R N(__VA_ARGS__);                                                                   \
    __device__ R N##_block(__VA_ARGS__);                                                           \
    __device__ R N##_system(__VA_ARGS__);
#define HMS_ATOMIC_RMW(N, T) HMS_ATOMIC(T, N, T *address, T val)

HMS_ATOMIC_RMW(atomicAdd, int)
HMS_ATOMIC_RMW(atomicAdd, unsigned int)
HMS_ATOMIC_RMW(atomicAdd, unsigned long long)
HMS_ATOMIC_RMW(atomicAdd, float)
HMS_ATOMIC_RMW(atomicAdd, double)
HMS_ATOMIC_RMW(atomicSub, int)
HMS_ATOMIC_RMW(atomicSub, unsigned int)
HMS_ATOMIC_RMW(atomicExch, int)
HMS_ATOMIC_RMW(atomicExch, unsigned int)
HMS_ATOMIC_RMW(atomicExch, unsigned long long)
HMS_ATOMIC_RMW(atomicExch, float)
HMS_ATOMIC_RMW(atomicMin, int)
HMS_ATOMIC_RMW(atomicMin, unsigned int)
HMS_ATOMIC_RMW(atomicMin, long long)
HMS_ATOMIC_RMW(atomicMin, unsigned long long)
HMS_ATOMIC_RMW(atomicMax, int)
HMS_ATOMIC_RMW(atomicMax, unsigned int)
HMS_ATOMIC_RMW(atomicMax, long long)
HMS_ATOMIC_RMW(atomicMax, unsigned long long)
HMS_ATOMIC_RMW(atomicInc, unsigned int)
HMS_ATOMIC_RMW(atomicDec, unsigned int)
HMS_ATOMIC_RMW(atomicAnd, int)
HMS_ATOMIC_RMW(atomicAnd, unsigned int)
HMS_ATOMIC_RMW(atomicAnd, unsigned long long)
HMS_ATOMIC_RMW(atomicOr, int)
HMS_ATOMIC_RMW(atomicOr, unsigned int)
HMS_ATOMIC_RMW(atomicOr, unsigned long long)
HMS_ATOMIC_RMW(atomicXor, int)
HMS_ATOMIC_RMW(atomicXor, unsigned int)
HMS_ATOMIC_RMW(atomicXor, unsigned long long)
HMS_ATOMIC(int, atomicCAS, int *address, int compare, int val)
HMS_ATOMIC(unsigned int, atomicCAS, unsigned int *address, unsigned int compare, unsigned int val)
HMS_ATOMIC(unsigned long long, atomicCAS, unsigned long long *address, unsigned long long compare,
           unsigned long long val)
HMS_ATOMIC(unsigned short, atomicCAS, unsigned short *address, unsigned short compare,
           unsigned short val)

#undef HMS_ATOMIC_RMW
/* HMS_ATOMIC stays defined: hms_half_family.h declares atomicAdd with it. */

#endif
