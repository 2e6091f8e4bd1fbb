/* hms-lint hermetic CUDA headers: what <cuda/barrier> and <cuda/pipeline>
 * share (libcu++): thread scopes, aligned_size_t, and cuda::memcpy_async
 * for any completion mechanism (barrier or pipeline), its copy modelled by
 * hms_model.h. Not a toolkit header. */
#ifndef HMS_CUDA_SYNC_H
#define HMS_CUDA_SYNC_H

#include <stddef.h>
#include <stdint.h>
#include <utility>

#include "../hms_model.h"

namespace cuda
{
enum thread_scope {
    thread_scope_system = 0,
    thread_scope_device = 1,
    thread_scope_block = 2,
    thread_scope_thread = 3
};

template <size_t Align> struct aligned_size_t {
    static constexpr size_t align = Align;
    size_t value;
    __host__ __device__ explicit constexpr aligned_size_t(size_t size) : value(size) {}
    __host__ __device__ constexpr operator size_t() const
    {
        return value;
    }
};

/* Sync: a cuda::barrier or cuda::pipeline. A thread's own copy ... */
template <class Sync>
__device__ __HMS_MODEL__ void memcpy_async(void *dst, const void *src, size_t n, Sync &sync)
{
    __hms::copy_async_size(dst, src, n, 0, 1);
}
template <size_t Align, class Sync>
__device__ __HMS_MODEL__ void memcpy_async(void *dst, const void *src, aligned_size_t<Align> n,
                                           Sync &sync)
{
    __hms::copy_async<Align>(dst, src, 0);
}
/* ... and a group's, shared among its threads by rank. */
template <class Group, class Sync>
__device__ __HMS_MODEL__ void memcpy_async(const Group &g, void *dst, const void *src, size_t n,
                                           Sync &sync)
{
    __hms::copy_async_size(dst, src, n, g.thread_rank(), g.size());
}
template <class Group, size_t Align, class Sync>
__device__ __HMS_MODEL__ void memcpy_async(const Group &g, void *dst, const void *src,
                                           aligned_size_t<Align> n, Sync &sync)
{
    __hms::copy_async<Align>(dst, src, g.thread_rank());
}
} // namespace cuda

#endif
