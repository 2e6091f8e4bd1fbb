/* hms-lint hermetic CUDA headers: execution-space and storage qualifiers.
 *
 * These headers stand in for the CUDA toolkit when hms-lint parses .cu files
 * with libclang. They hold declarations (and a few one-line helpers) only,
 * enough for clang to build a correct AST of device code; nothing here is
 * ever compiled to run. hms-lint parses with -nocudainc and puts this
 * directory first on the include path, so an installed toolkit (whose headers
 * clang 19 may not understand, e.g. CUDA 13 in /usr/local/cuda) is never read:
 * <cuda_runtime.h> always resolves here. The test test_hermetic_headers checks
 * that with libclang's inclusion list. */
#ifndef HMS_HOST_DEFINES_H
#define HMS_HOST_DEFINES_H
#define __HOST_DEFINES_H__

/* nvcc defines these; CUDA code tests them to pick device paths. Clang itself
 * only defines __CUDA__ and, in device mode, __CUDA_ARCH__. */
#ifndef __CUDACC__
#define __CUDACC__ 1
#endif
#ifndef __CUDACC_VER_MAJOR__
#define __CUDACC_VER_MAJOR__ 12
#define __CUDACC_VER_MINOR__ 0
#define __CUDACC_VER_BUILD__ 0
#endif
#ifndef CUDART_VERSION
#define CUDART_VERSION 12000
#endif
#ifndef __CUDART_API_VERSION
#define __CUDART_API_VERSION CUDART_VERSION
#endif

#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __grid_constant__
#define __forceinline__ __inline__ __attribute__((always_inline))
/* __noinline__ is a keyword of clang's CUDA mode; a macro would break
 * libstdc++'s __attribute__((__noinline__)). */
#define __inline_hint__
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __restrict__ __restrict
#define __align__(n) __attribute__((aligned(n)))
#define __builtin_align__(n) __attribute__((aligned(n)))
#define __device_builtin__
#define __cudart_builtin__
#define __device_builtin_texture_type__ __attribute__((device_builtin_texture_type))
#define __device_builtin_surface_type__ __attribute__((device_builtin_surface_type))
#define __CUDA_ALIGN__(n) __attribute__((aligned(n)))
#define CUDARTAPI
#define CUDART_CB
#define CUDA_CB
#define CUDAAPI
#define __CUDA_DEPRECATED

#endif
