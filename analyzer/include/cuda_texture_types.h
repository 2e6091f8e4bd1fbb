/* hms-lint hermetic CUDA headers: the legacy `texture<T, dim, mode>` template.
 * clang's device_builtin_texture_type attribute makes file-scope variables of
 * this type usable from device code, as with nvcc. */
#ifndef HMS_CUDA_TEXTURE_TYPES_H
#define HMS_CUDA_TEXTURE_TYPES_H
#define __CUDA_TEXTURE_TYPES_H__

#include "channel_descriptor.h"
#include "texture_types.h"

template <class T, int texType = cudaTextureType1D,
          enum cudaTextureReadMode mode = cudaReadModeElementType>
struct __device_builtin_texture_type__ texture : public textureReference {
    __host__ texture(int norm = 0, enum cudaTextureFilterMode fMode = cudaFilterModePoint,
                     enum cudaTextureAddressMode aMode = cudaAddressModeClamp)
    {
        normalized = norm;
        filterMode = fMode;
        addressMode[0] = addressMode[1] = addressMode[2] = aMode;
        channelDesc = cudaCreateChannelDesc<T>();
    }
    __host__ texture(int norm, enum cudaTextureFilterMode fMode, enum cudaTextureAddressMode aMode,
                     struct cudaChannelFormatDesc desc)
    {
        normalized = norm;
        filterMode = fMode;
        addressMode[0] = addressMode[1] = addressMode[2] = aMode;
        channelDesc = desc;
    }
};

#endif
