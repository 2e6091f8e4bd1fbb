/* hms-lint hermetic CUDA headers: cooperative_groups::reduce and its
 * operators. reduce() is written as the butterfly of shfl_xor steps that a
 * tile reduction performs. */
#ifndef HMS_COOPERATIVE_GROUPS_REDUCE_H
#define HMS_COOPERATIVE_GROUPS_REDUCE_H

#include "../cooperative_groups.h"

namespace cooperative_groups
{

template <class T> struct plus {
    __device__ T operator()(const T &a, const T &b) const
    {
        return a + b;
    }
};
template <class T> struct less {
    __device__ T operator()(const T &a, const T &b) const
    {
        return b < a ? b : a;
    }
};
template <class T> struct greater {
    __device__ T operator()(const T &a, const T &b) const
    {
        return a < b ? b : a;
    }
};
template <class T> struct bit_and {
    __device__ T operator()(const T &a, const T &b) const
    {
        return a & b;
    }
};
template <class T> struct bit_or {
    __device__ T operator()(const T &a, const T &b) const
    {
        return a | b;
    }
};
template <class T> struct bit_xor {
    __device__ T operator()(const T &a, const T &b) const
    {
        return a ^ b;
    }
};

template <class GroupT, class T, class OpT> __device__ T reduce(const GroupT &group, T val, OpT op)
{
    for (unsigned int offset = group.size() / 2; offset > 0; offset /= 2)
        val = op(val, group.shfl_xor(val, offset));
    return val;
}

} // namespace cooperative_groups

#endif
