/* hms-lint hermetic CUDA headers: profiler range control. */
#ifndef HMS_CUDA_PROFILER_API_H
#define HMS_CUDA_PROFILER_API_H
#define __CUDA_PROFILER_API_H__

#include "driver_types.h"

extern "C" __host__ cudaError_t cudaProfilerStart(void);
extern "C" __host__ cudaError_t cudaProfilerStop(void);

#endif
