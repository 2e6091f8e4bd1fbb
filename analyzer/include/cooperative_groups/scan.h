/* hms-lint hermetic CUDA headers: cooperative_groups scans (declarations). */
#ifndef HMS_COOPERATIVE_GROUPS_SCAN_H
#define HMS_COOPERATIVE_GROUPS_SCAN_H

#include "reduce.h"

namespace cooperative_groups
{

template <class GroupT, class T> __device__ T inclusive_scan(const GroupT &group, T val);
template <class GroupT, class T, class OpT>
__device__ T inclusive_scan(const GroupT &group, T val, OpT op);
template <class GroupT, class T> __device__ T exclusive_scan(const GroupT &group, T val);
template <class GroupT, class T, class OpT>
__device__ T exclusive_scan(const GroupT &group, T val, OpT op);

} // namespace cooperative_groups

#endif
