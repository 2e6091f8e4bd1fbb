/* hms-lint hermetic CUDA headers: a minimal driver API (types, context,
 * module, memory and launch entry points) so host code using it parses. */
#ifndef HMS_CUDA_H
#define HMS_CUDA_H

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
    CUDA_ERROR_NO_DEVICE = 100,
    CUDA_ERROR_INVALID_DEVICE = 101,
    CUDA_ERROR_INVALID_IMAGE = 200,
    CUDA_ERROR_INVALID_CONTEXT = 201,
    CUDA_ERROR_FILE_NOT_FOUND = 301,
    CUDA_ERROR_NOT_FOUND = 500,
    CUDA_ERROR_NOT_READY = 600,
    CUDA_ERROR_LAUNCH_FAILED = 719,
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
