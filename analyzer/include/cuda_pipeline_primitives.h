/* hms-lint hermetic CUDA headers: the pipeline primitives
 * (__pipeline_memcpy_async, commit, wait): a thread's asynchronous copy of
 * 4, 8 or 16 bytes, global -> shared, modelled by hms_model.h. */
#ifndef HMS_CUDA_PIPELINE_PRIMITIVES_H
#define HMS_CUDA_PIPELINE_PRIMITIVES_H
#define _CUDA_PIPELINE_PRIMITIVES_H_

#include "hms_model.h"

__device__ __HMS_MODEL__ inline void __pipeline_memcpy_async(void *dst_shared,
                                                             const void *src_global,
                                                             size_t size_and_align,
                                                             size_t zfill = 0)
{
    __hms::copy_async_size(dst_shared, src_global, size_and_align, 0, 1);
}
__device__ void __pipeline_commit(void);
__device__ void __pipeline_wait_prior(size_t prior);

#endif
