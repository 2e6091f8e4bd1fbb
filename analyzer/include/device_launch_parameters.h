/* hms-lint hermetic CUDA headers: the built-in variables. They are plain
 * extern declarations (not clang's __cuda_builtin_*_t wrappers) because the
 * kernel-IR builder recognises `threadIdx.x` etc. by name, as a member
 * reference on a DeclRefExpr to one of these variables. */
#ifndef HMS_DEVICE_LAUNCH_PARAMETERS_H
#define HMS_DEVICE_LAUNCH_PARAMETERS_H
#define __DEVICE_LAUNCH_PARAMETERS_H__

#include "vector_types.h"

extern const __device__ uint3 threadIdx;
extern const __device__ uint3 blockIdx;
extern const __device__ dim3 blockDim;
extern const __device__ dim3 gridDim;
extern const __device__ int warpSize;

#endif
