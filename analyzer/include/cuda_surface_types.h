/* hms-lint hermetic CUDA headers: the legacy `surface<T, dim>` template. */
#ifndef HMS_CUDA_SURFACE_TYPES_H
#define HMS_CUDA_SURFACE_TYPES_H
#define __CUDA_SURFACE_TYPES_H__

#include "channel_descriptor.h"
#include "surface_types.h"

template <class T, int dim = 1>
struct __device_builtin_surface_type__ surface : public surfaceReference {
    __host__ surface()
    {
        channelDesc = cudaCreateChannelDesc<T>();
    }
    __host__ surface(struct cudaChannelFormatDesc desc)
    {
        channelDesc = desc;
    }
};

#endif
