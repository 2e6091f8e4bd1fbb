/* hms-lint hermetic CUDA headers: cooperative_groups::memcpy_async and wait
 * (declarations; the copy is global -> shared by the whole group). */
#ifndef HMS_COOPERATIVE_GROUPS_MEMCPY_ASYNC_H
#define HMS_COOPERATIVE_GROUPS_MEMCPY_ASYNC_H

#include "../cooperative_groups.h"

namespace cooperative_groups
{

template <class GroupT>
__device__ void memcpy_async(const GroupT &group, void *dst, const void *src, size_t bytes);
template <class GroupT, class T>
__device__ void memcpy_async(const GroupT &group, T *dst, const T *src, size_t bytes);
template <class GroupT> __device__ void wait(const GroupT &group);
template <unsigned int Stage, class GroupT> __device__ void wait_prior(const GroupT &group);

} // namespace cooperative_groups

#endif
