/* hms-lint hermetic CUDA headers: the C runtime API (memory, copies, streams,
 * events, devices, errors, textures). Host functions, except the few the
 * device runtime also offers to kernels (dynamic parallelism). */
#ifndef HMS_CUDA_RUNTIME_API_H
#define HMS_CUDA_RUNTIME_API_H
#define __CUDA_RUNTIME_API_H__

#include "driver_types.h"
#include "surface_types.h"
#include "texture_types.h"
#include "vector_types.h"

#define HMS_API extern "C" __host__ cudaError_t
#define HMS_HD_API extern "C" __host__ __device__ cudaError_t

/* Devices. */
HMS_API cudaGetDeviceCount(int *count);
HMS_HD_API cudaGetDevice(int *device);
HMS_API cudaSetDevice(int device);
HMS_API cudaSetDeviceFlags(unsigned int flags);
HMS_API cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device);
HMS_HD_API cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device);
HMS_API cudaChooseDevice(int *device, const struct cudaDeviceProp *prop);
HMS_API cudaDeviceReset(void);
HMS_HD_API cudaDeviceSynchronize(void);
HMS_API cudaDeviceSetCacheConfig(enum cudaFuncCache config);
HMS_API cudaDeviceGetCacheConfig(enum cudaFuncCache *config);
HMS_API cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config);
HMS_API cudaDeviceGetSharedMemConfig(enum cudaSharedMemConfig *config);
HMS_API cudaDeviceSetLimit(enum cudaLimit limit, size_t value);
HMS_API cudaDeviceGetLimit(size_t *value, enum cudaLimit limit);
HMS_API cudaDeviceCanAccessPeer(int *canAccess, int device, int peerDevice);
HMS_API cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags);
HMS_API cudaDeviceDisablePeerAccess(int peerDevice);
HMS_API cudaThreadSynchronize(void);
HMS_API cudaThreadExit(void);
HMS_API cudaDriverGetVersion(int *version);
HMS_API cudaRuntimeGetVersion(int *version);

/* Errors. */
HMS_HD_API cudaGetLastError(void);
HMS_HD_API cudaPeekAtLastError(void);
extern "C" __host__ __device__ const char *cudaGetErrorString(cudaError_t error);
extern "C" __host__ __device__ const char *cudaGetErrorName(cudaError_t error);

/* Memory. */
HMS_HD_API cudaMalloc(void **devPtr, size_t size);
HMS_HD_API cudaFree(void *devPtr);
HMS_API cudaMallocHost(void **ptr, size_t size);
HMS_API cudaHostAlloc(void **pHost, size_t size, unsigned int flags);
HMS_API cudaFreeHost(void *ptr);
HMS_API cudaHostRegister(void *ptr, size_t size, unsigned int flags);
HMS_API cudaHostUnregister(void *ptr);
HMS_API cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags);
HMS_API cudaMallocManaged(void **devPtr, size_t size, unsigned int flags = cudaMemAttachGlobal);
HMS_API cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height);
HMS_API cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr, struct cudaExtent extent);
HMS_API cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, size_t width,
                        size_t height = 0, unsigned int flags = 0);
HMS_API cudaMalloc3DArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                          struct cudaExtent extent, unsigned int flags = 0);
HMS_API cudaFreeArray(cudaArray_t array);
HMS_API cudaMemGetInfo(size_t *free, size_t *total);
HMS_API cudaMemPrefetchAsync(const void *devPtr, size_t count, int dstDevice,
                             cudaStream_t stream = 0);
HMS_API cudaMemAdvise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice, int device);
HMS_API cudaPointerGetAttributes(struct cudaPointerAttributes *attributes, const void *ptr);

/* Copies and fills. */
HMS_API cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
HMS_HD_API cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                           cudaStream_t stream = 0);
HMS_API cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                     size_t height, enum cudaMemcpyKind kind);
HMS_HD_API cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                             size_t height, enum cudaMemcpyKind kind, cudaStream_t stream = 0);
HMS_API cudaMemcpy3D(const struct cudaMemcpy3DParms *p);
HMS_API cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t stream = 0);
HMS_API cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                          size_t count, enum cudaMemcpyKind kind);
HMS_API cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                            size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind);
HMS_API cudaMemcpyFromArray(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                            size_t count, enum cudaMemcpyKind kind);
HMS_API cudaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice, size_t count);
HMS_API cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset = 0,
                           enum cudaMemcpyKind kind = cudaMemcpyHostToDevice);
HMS_API cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count,
                                size_t offset = 0,
                                enum cudaMemcpyKind kind = cudaMemcpyHostToDevice,
                                cudaStream_t stream = 0);
HMS_API cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset = 0,
                             enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost);
HMS_API cudaGetSymbolAddress(void **devPtr, const void *symbol);
HMS_API cudaGetSymbolSize(size_t *size, const void *symbol);
HMS_API cudaMemset(void *devPtr, int value, size_t count);
HMS_HD_API cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream = 0);
HMS_API cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height);
HMS_API cudaMemset3D(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent);

/* Streams and events. */
HMS_API cudaStreamCreate(cudaStream_t *stream);
HMS_HD_API cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned int flags);
HMS_API cudaStreamCreateWithPriority(cudaStream_t *stream, unsigned int flags, int priority);
HMS_HD_API cudaStreamDestroy(cudaStream_t stream);
HMS_API cudaStreamSynchronize(cudaStream_t stream);
HMS_API cudaStreamQuery(cudaStream_t stream);
HMS_HD_API cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags = 0);
HMS_API cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void *userData,
                              unsigned int flags);
HMS_API cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData);
HMS_API cudaEventCreate(cudaEvent_t *event);
HMS_HD_API cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags);
HMS_HD_API cudaEventRecord(cudaEvent_t event, cudaStream_t stream = 0);
HMS_API cudaEventQuery(cudaEvent_t event);
HMS_API cudaEventSynchronize(cudaEvent_t event);
HMS_HD_API cudaEventDestroy(cudaEvent_t event);
HMS_API cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);

/* Kernels. */
HMS_API cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                         size_t sharedMem = 0, cudaStream_t stream = 0);
HMS_API cudaLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                    size_t sharedMem = 0, cudaStream_t stream = 0);
HMS_API cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache cacheConfig);
HMS_API cudaFuncSetSharedMemConfig(const void *func, enum cudaSharedMemConfig config);
HMS_API cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value);
HMS_API cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func);
HMS_API cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func,
                                                      int blockSize, size_t dynamicSMemSize);

/* Textures and surfaces. */
HMS_API cudaBindTexture(size_t *offset, const struct textureReference *texref, const void *devPtr,
                        const struct cudaChannelFormatDesc *desc, size_t size = ~0u);
HMS_API cudaBindTexture2D(size_t *offset, const struct textureReference *texref, const void *devPtr,
                          const struct cudaChannelFormatDesc *desc, size_t width, size_t height,
                          size_t pitch);
HMS_API cudaBindTextureToArray(const struct textureReference *texref, cudaArray_const_t array,
                               const struct cudaChannelFormatDesc *desc);
HMS_API cudaUnbindTexture(const struct textureReference *texref);
HMS_API cudaGetChannelDesc(struct cudaChannelFormatDesc *desc, cudaArray_const_t array);
HMS_API cudaCreateTextureObject(cudaTextureObject_t *pTexObject,
                                const struct cudaResourceDesc *pResDesc,
                                const struct cudaTextureDesc *pTexDesc,
                                const struct cudaResourceViewDesc *pResViewDesc);
HMS_API cudaDestroyTextureObject(cudaTextureObject_t texObject);
HMS_API cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject,
                                const struct cudaResourceDesc *pResDesc);
HMS_API cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject);
HMS_API cudaBindSurfaceToArray(const struct surfaceReference *surfref, cudaArray_const_t array,
                               const struct cudaChannelFormatDesc *desc);

/* The configuration call behind `k<<<grid, block, shmem, stream>>>(...)`:
 * clang looks up cudaConfigureCall when it knows no CUDA version (our case,
 * with -nocudainc) and __cudaPushCallConfiguration for CUDA >= 9.2. */
HMS_API cudaConfigureCall(dim3 gridDim, dim3 blockDim, size_t sharedMem = 0,
                          cudaStream_t stream = 0);
extern "C" __host__ unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim,
                                                         size_t sharedMem = 0, void *stream = 0);

#undef HMS_API
#undef HMS_HD_API

#endif
