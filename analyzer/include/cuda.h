/* hms-lint hermetic CUDA headers: a minimal driver API (types, context,
 * module, memory and launch entry points) so host code using it parses. */
#ifndef HMS_CUDA_H
#define HMS_CUDA_H
#define __cuda_cuda_h__

#include <stddef.h>

#include "host_defines.h"

#ifndef CUDA_VERSION
#define CUDA_VERSION 12000
#endif

typedef enum cudaError_enum {
    CUDA_SUCCESS = 0,
    CUDA_ERROR_INVALID_VALUE = 1,
    CUDA_ERROR_OUT_OF_MEMORY = 2,
    CUDA_ERROR_NOT_INITIALIZED = 3,
    CUDA_ERROR_DEINITIALIZED = 4,
    CUDA_ERROR_PROFILER_DISABLED = 5,
    CUDA_ERROR_PROFILER_NOT_INITIALIZED = 6,
    CUDA_ERROR_PROFILER_ALREADY_STARTED = 7,
    CUDA_ERROR_PROFILER_ALREADY_STOPPED = 8,
    CUDA_ERROR_NO_DEVICE = 100,
    CUDA_ERROR_INVALID_DEVICE = 101,
    CUDA_ERROR_INVALID_IMAGE = 200,
    CUDA_ERROR_INVALID_CONTEXT = 201,
    CUDA_ERROR_CONTEXT_ALREADY_CURRENT = 202,
    CUDA_ERROR_MAP_FAILED = 205,
    CUDA_ERROR_UNMAP_FAILED = 206,
    CUDA_ERROR_ARRAY_IS_MAPPED = 207,
    CUDA_ERROR_ALREADY_MAPPED = 208,
    CUDA_ERROR_NO_BINARY_FOR_GPU = 209,
    CUDA_ERROR_ALREADY_ACQUIRED = 210,
    CUDA_ERROR_NOT_MAPPED = 211,
    CUDA_ERROR_NOT_MAPPED_AS_ARRAY = 212,
    CUDA_ERROR_NOT_MAPPED_AS_POINTER = 213,
    CUDA_ERROR_ECC_UNCORRECTABLE = 214,
    CUDA_ERROR_UNSUPPORTED_LIMIT = 215,
    CUDA_ERROR_CONTEXT_ALREADY_IN_USE = 216,
    CUDA_ERROR_PEER_ACCESS_UNSUPPORTED = 217,
    CUDA_ERROR_INVALID_PTX = 218,
    CUDA_ERROR_INVALID_GRAPHICS_CONTEXT = 219,
    CUDA_ERROR_NVLINK_UNCORRECTABLE = 220,
    CUDA_ERROR_JIT_COMPILER_NOT_FOUND = 221,
    CUDA_ERROR_INVALID_SOURCE = 300,
    CUDA_ERROR_FILE_NOT_FOUND = 301,
    CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND = 302,
    CUDA_ERROR_SHARED_OBJECT_INIT_FAILED = 303,
    CUDA_ERROR_OPERATING_SYSTEM = 304,
    CUDA_ERROR_INVALID_HANDLE = 400,
    CUDA_ERROR_ILLEGAL_STATE = 401,
    CUDA_ERROR_NOT_FOUND = 500,
    CUDA_ERROR_NOT_READY = 600,
    CUDA_ERROR_ILLEGAL_ADDRESS = 700,
    CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701,
    CUDA_ERROR_LAUNCH_TIMEOUT = 702,
    CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING = 703,
    CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED = 704,
    CUDA_ERROR_PEER_ACCESS_NOT_ENABLED = 705,
    CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE = 708,
    CUDA_ERROR_CONTEXT_IS_DESTROYED = 709,
    CUDA_ERROR_ASSERT = 710,
    CUDA_ERROR_TOO_MANY_PEERS = 711,
    CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED = 712,
    CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED = 713,
    CUDA_ERROR_HARDWARE_STACK_ERROR = 714,
    CUDA_ERROR_ILLEGAL_INSTRUCTION = 715,
    CUDA_ERROR_MISALIGNED_ADDRESS = 716,
    CUDA_ERROR_INVALID_ADDRESS_SPACE = 717,
    CUDA_ERROR_INVALID_PC = 718,
    CUDA_ERROR_LAUNCH_FAILED = 719,
    CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE = 720,
    CUDA_ERROR_NOT_PERMITTED = 800,
    CUDA_ERROR_NOT_SUPPORTED = 801,
    CUDA_ERROR_UNKNOWN = 999
} CUresult;

typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef struct CUarray_st *CUarray;
typedef unsigned long long CUtexObject;
typedef unsigned long long CUsurfObject;

typedef enum CUdevice_attribute_enum {
    CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1,
    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 8,
    CU_DEVICE_ATTRIBUTE_WARP_SIZE = 10,
    CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76
} CUdevice_attribute;

#define HMS_DRV extern "C" __host__ CUresult
HMS_DRV cuInit(unsigned int flags);
HMS_DRV cuDriverGetVersion(int *version);
HMS_DRV cuDeviceGet(CUdevice *device, int ordinal);
HMS_DRV cuDeviceGetCount(int *count);
HMS_DRV cuDeviceGetName(char *name, int len, CUdevice dev);
HMS_DRV cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev);
HMS_DRV cuDeviceTotalMem(size_t *bytes, CUdevice dev);
HMS_DRV cuCtxCreate(CUcontext *pctx, unsigned int flags, CUdevice dev);
HMS_DRV cuCtxDestroy(CUcontext ctx);
HMS_DRV cuCtxSynchronize(void);
HMS_DRV cuCtxGetCurrent(CUcontext *pctx);
HMS_DRV cuCtxSetCurrent(CUcontext ctx);
HMS_DRV cuModuleLoad(CUmodule *module, const char *fname);
HMS_DRV cuModuleLoadData(CUmodule *module, const void *image);
HMS_DRV cuModuleUnload(CUmodule hmod);
HMS_DRV cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name);
HMS_DRV cuModuleGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUmodule hmod, const char *name);
HMS_DRV cuMemAlloc(CUdeviceptr *dptr, size_t bytesize);
HMS_DRV cuMemFree(CUdeviceptr dptr);
HMS_DRV cuMemcpyHtoD(CUdeviceptr dst, const void *src, size_t bytes);
HMS_DRV cuMemcpyDtoH(void *dst, CUdeviceptr src, size_t bytes);
HMS_DRV cuMemcpyDtoD(CUdeviceptr dst, CUdeviceptr src, size_t bytes);
HMS_DRV cuMemsetD32(CUdeviceptr dst, unsigned int ui, size_t n);
HMS_DRV cuStreamCreate(CUstream *phStream, unsigned int flags);
HMS_DRV cuStreamDestroy(CUstream hStream);
HMS_DRV cuStreamSynchronize(CUstream hStream);
HMS_DRV cuEventCreate(CUevent *phEvent, unsigned int flags);
HMS_DRV cuEventRecord(CUevent hEvent, CUstream hStream);
HMS_DRV cuEventSynchronize(CUevent hEvent);
HMS_DRV cuEventElapsedTime(float *ms, CUevent hStart, CUevent hEnd);
HMS_DRV cuEventDestroy(CUevent hEvent);
HMS_DRV cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                       unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
                       unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream,
                       void **kernelParams, void **extra);
HMS_DRV cuGetErrorString(CUresult error, const char **pStr);
HMS_DRV cuGetErrorName(CUresult error, const char **pStr);
#undef HMS_DRV

#endif
