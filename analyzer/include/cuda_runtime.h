/* hms-lint's hermetic stand-in for the CUDA runtime header: enough for clang
 * to parse CUDA device and host code without a toolkit. nvcc includes this
 * file implicitly in every .cu file, and so does hms-lint (-include), so code
 * that never names it still sees threadIdx, dim3, cudaMalloc and the device
 * math library.
 *
 * Resolution: hms-lint passes -nocudainc (clang adds no toolkit include path
 * and no __clang_cuda_runtime_wrapper.h) and puts this directory first among
 * the -I paths, so `#include <cuda_runtime.h>` resolves here even when a CUDA
 * toolkit (e.g. CUDA 13 in /usr/local/cuda, which clang 19 cannot parse) is
 * installed; include paths into a toolkit found in compile_commands.json are
 * dropped. clang still adds its cuda_wrappers directory (<cmath>, <new>,
 * <complex>, <algorithm> wrappers), which is harmless and wanted.
 *
 * Order matters below: the device overloads of the math and C library
 * functions are declared before <cmath>/<cstdlib> so that libstdc++'s
 * `using ::sqrt;`-style declarations see both execution spaces. */
#ifndef HMS_CUDA_RUNTIME_H
#define HMS_CUDA_RUNTIME_H
#define __CUDA_RUNTIME_H__

#include "host_defines.h"

#include "builtin_types.h"
#include "channel_descriptor.h"
#include "cuda_runtime_api.h"
#include "device_launch_parameters.h"

#include "device_atomic_functions.h"
#include "device_functions.h"
#include "math_functions.h"
#include "sm_30_intrinsics.h"
#include "sm_32_intrinsics.h"

#include "cuda_surface_types.h"
#include "cuda_texture_types.h"
#include "surface_functions.h"
#include "texture_fetch_functions.h"
#include "texture_indirect_functions.h"

/* What nvcc's runtime headers pull in, so code relying on it still parses. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmath>
#include <cstdlib>
#include <new>

/* Device operator new/delete, placement forms included, as nvcc provides
 * them. clang's cuda_wrappers/<new> declares the same when clang adds that
 * directory (then __CLANG_CUDA_WRAPPERS_NEW is set); libclang parses may
 * not, so they are declared here otherwise, under that guard. */
#ifndef __CLANG_CUDA_WRAPPERS_NEW
#define __CLANG_CUDA_WRAPPERS_NEW
__device__ inline void *operator new(size_t size)
{
    return malloc(size ? size : 1);
}
__device__ inline void *operator new[](size_t size)
{
    return ::operator new(size);
}
__device__ inline void operator delete(void *ptr) noexcept
{
    free(ptr);
}
__device__ inline void operator delete[](void *ptr) noexcept
{
    ::operator delete(ptr);
}
__device__ inline void operator delete(void *ptr, size_t) noexcept
{
    ::operator delete(ptr);
}
__device__ inline void operator delete[](void *ptr, size_t) noexcept
{
    ::operator delete(ptr);
}
__device__ inline void *operator new(size_t, void *ptr) noexcept
{
    return ptr;
}
__device__ inline void *operator new[](size_t, void *ptr) noexcept
{
    return ptr;
}
__device__ inline void operator delete(void *, void *) noexcept {}
__device__ inline void operator delete[](void *, void *) noexcept {}
#endif

/* The C++ API: typed overloads of the C functions. */
template <class T> static __inline__ __host__ cudaError_t cudaMalloc(T **devPtr, size_t size)
{
    return cudaMalloc((void **)devPtr, size);
}
template <class T>
static __inline__ __host__ cudaError_t cudaMallocHost(T **ptr, size_t size, unsigned int flags = 0)
{
    return flags ? cudaHostAlloc((void **)ptr, size, flags) : cudaMallocHost((void **)ptr, size);
}
template <class T>
static __inline__ __host__ cudaError_t cudaHostAlloc(T **ptr, size_t size, unsigned int flags)
{
    return cudaHostAlloc((void **)ptr, size, flags);
}
template <class T>
static __inline__ __host__ cudaError_t cudaMallocManaged(T **devPtr, size_t size,
                                                         unsigned int flags = cudaMemAttachGlobal)
{
    return cudaMallocManaged((void **)devPtr, size, flags);
}
template <class T>
static __inline__ __host__ cudaError_t cudaMallocPitch(T **devPtr, size_t *pitch, size_t width,
                                                       size_t height)
{
    return cudaMallocPitch((void **)devPtr, pitch, width, height);
}
template <class T>
static __inline__ __host__ cudaError_t cudaHostGetDevicePointer(T **pDevice, void *pHost,
                                                                unsigned int flags)
{
    return cudaHostGetDevicePointer((void **)pDevice, pHost, flags);
}
template <class T>
static __inline__ __host__ cudaError_t
cudaMemcpyToSymbol(const T &symbol, const void *src, size_t count, size_t offset = 0,
                   enum cudaMemcpyKind kind = cudaMemcpyHostToDevice)
{
    return cudaMemcpyToSymbol((const void *)&symbol, src, count, offset, kind);
}
template <class T>
static __inline__ __host__ cudaError_t
cudaMemcpyToSymbolAsync(const T &symbol, const void *src, size_t count, size_t offset = 0,
                        enum cudaMemcpyKind kind = cudaMemcpyHostToDevice, cudaStream_t stream = 0)
{
    return cudaMemcpyToSymbolAsync((const void *)&symbol, src, count, offset, kind, stream);
}
template <class T>
static __inline__ __host__ cudaError_t
cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t count, size_t offset = 0,
                     enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost)
{
    return cudaMemcpyFromSymbol(dst, (const void *)&symbol, count, offset, kind);
}
template <class T>
static __inline__ __host__ cudaError_t cudaGetSymbolAddress(void **devPtr, const T &symbol)
{
    return cudaGetSymbolAddress(devPtr, (const void *)&symbol);
}
template <class T>
static __inline__ __host__ cudaError_t cudaGetSymbolSize(size_t *size, const T &symbol)
{
    return cudaGetSymbolSize(size, (const void *)&symbol);
}
static __inline__ __host__ cudaError_t cudaEventCreate(cudaEvent_t *event, unsigned int flags)
{
    return cudaEventCreateWithFlags(event, flags);
}

/* Legacy texture and surface reference binding. */
template <class T, int dim, enum cudaTextureReadMode M>
static __inline__ __host__ cudaError_t cudaBindTexture(size_t *offset,
                                                       const struct texture<T, dim, M> &tex,
                                                       const void *devPtr,
                                                       const struct cudaChannelFormatDesc &desc,
                                                       size_t size = ~0u)
{
    return cudaBindTexture(offset, &tex, devPtr, &desc, size);
}
template <class T, int dim, enum cudaTextureReadMode M>
static __inline__ __host__ cudaError_t cudaBindTexture(size_t *offset,
                                                       const struct texture<T, dim, M> &tex,
                                                       const void *devPtr, size_t size = ~0u)
{
    return cudaBindTexture(offset, &tex, devPtr, &tex.channelDesc, size);
}
template <class T, int dim, enum cudaTextureReadMode M>
static __inline__ __host__ cudaError_t cudaBindTexture2D(size_t *offset,
                                                         const struct texture<T, dim, M> &tex,
                                                         const void *devPtr,
                                                         const struct cudaChannelFormatDesc &desc,
                                                         size_t width, size_t height, size_t pitch)
{
    return cudaBindTexture2D(offset, &tex, devPtr, &desc, width, height, pitch);
}
template <class T, int dim, enum cudaTextureReadMode M>
static __inline__ __host__ cudaError_t cudaBindTexture2D(size_t *offset,
                                                         const struct texture<T, dim, M> &tex,
                                                         const void *devPtr, size_t width,
                                                         size_t height, size_t pitch)
{
    return cudaBindTexture2D(offset, &tex, devPtr, &tex.channelDesc, width, height, pitch);
}
template <class T, int dim, enum cudaTextureReadMode M>
static __inline__ __host__ cudaError_t
cudaBindTextureToArray(const struct texture<T, dim, M> &tex, cudaArray_const_t array,
                       const struct cudaChannelFormatDesc &desc)
{
    return cudaBindTextureToArray(&tex, array, &desc);
}
template <class T, int dim, enum cudaTextureReadMode M>
static __inline__ __host__ cudaError_t cudaBindTextureToArray(const struct texture<T, dim, M> &tex,
                                                              cudaArray_const_t array)
{
    return cudaBindTextureToArray(&tex, array, &tex.channelDesc);
}
template <class T, int dim, enum cudaTextureReadMode M>
static __inline__ __host__ cudaError_t cudaUnbindTexture(const struct texture<T, dim, M> &tex)
{
    return cudaUnbindTexture(&tex);
}
template <class T, int dim>
static __inline__ __host__ cudaError_t cudaBindSurfaceToArray(const struct surface<T, dim> &surf,
                                                              cudaArray_const_t array)
{
    return cudaBindSurfaceToArray(&surf, array, &surf.channelDesc);
}

/* Kernel attributes, occupancy and explicit launches, taking the kernel. */
template <class T>
static __inline__ __host__ cudaError_t cudaFuncSetCacheConfig(T *entry, enum cudaFuncCache c)
{
    return cudaFuncSetCacheConfig((const void *)entry, c);
}
template <class T>
static __inline__ __host__ cudaError_t cudaFuncSetSharedMemConfig(T *entry,
                                                                  enum cudaSharedMemConfig c)
{
    return cudaFuncSetSharedMemConfig((const void *)entry, c);
}
template <class T>
static __inline__ __host__ cudaError_t cudaFuncSetAttribute(T *entry, enum cudaFuncAttribute a,
                                                            int value)
{
    return cudaFuncSetAttribute((const void *)entry, a, value);
}
template <class T>
static __inline__ __host__ cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr,
                                                             T *entry)
{
    return cudaFuncGetAttributes(attr, (const void *)entry);
}
template <class T>
static __inline__ __host__ cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(
    int *numBlocks, T func, int blockSize, size_t dynamicSMemSize)
{
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(numBlocks, (const void *)func, blockSize,
                                                         dynamicSMemSize);
}
template <class T>
static __inline__ __host__ cudaError_t cudaOccupancyMaxPotentialBlockSize(int *minGridSize,
                                                                          int *blockSize, T func,
                                                                          size_t dynamicSMem = 0,
                                                                          int blockSizeLimit = 0);
template <class T>
static __inline__ __host__ cudaError_t cudaLaunchKernel(T *func, dim3 gridDim, dim3 blockDim,
                                                        void **args, size_t sharedMem = 0,
                                                        cudaStream_t stream = 0)
{
    return cudaLaunchKernel((const void *)func, gridDim, blockDim, args, sharedMem, stream);
}
template <class T>
static __inline__ __host__ cudaError_t cudaLaunchCooperativeKernel(T *func, dim3 gridDim,
                                                                   dim3 blockDim, void **args,
                                                                   size_t sharedMem = 0,
                                                                   cudaStream_t stream = 0)
{
    return cudaLaunchCooperativeKernel((const void *)func, gridDim, blockDim, args, sharedMem,
                                       stream);
}

#endif
