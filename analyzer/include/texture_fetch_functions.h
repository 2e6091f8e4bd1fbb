/* hms-lint hermetic CUDA headers: fetches through legacy texture references
 * (`tex1Dfetch(texRef, i)`, `tex2D(texRef, x, y)`, ...). A reference read in
 * cudaReadModeNormalizedFloat returns float (or float2/float4) whatever T is. */
#ifndef HMS_TEXTURE_FETCH_FUNCTIONS_H
#define HMS_TEXTURE_FETCH_FUNCTIONS_H
#define __TEXTURE_FETCH_FUNCTIONS_H__

#include "cuda_texture_types.h"

template <class T, enum cudaTextureReadMode M> struct __hms_tex_result { typedef T type; };
template <class T> struct __hms_tex_result<T, cudaReadModeNormalizedFloat> {
    typedef float type;
};
#define HMS_NORM_RESULT(T, R)                                                                      \
    template <> struct __hms_tex_result<T, cudaReadModeNormalizedFloat> {                          \
        typedef R type;                                                                            \
    };
HMS_NORM_RESULT(char2, float2)
HMS_NORM_RESULT(uchar2, float2)
HMS_NORM_RESULT(short2, float2)
HMS_NORM_RESULT(ushort2, float2)
HMS_NORM_RESULT(char4, float4)
HMS_NORM_RESULT(uchar4, float4)
HMS_NORM_RESULT(short4, float4)
HMS_NORM_RESULT(ushort4, float4)
#undef HMS_NORM_RESULT

#define HMS_TEXREF_RESULT typename __hms_tex_result<T, M>::type

template <class T, enum cudaTextureReadMode M>
__device__ HMS_TEXREF_RESULT tex1Dfetch(texture<T, cudaTextureType1D, M> t, int x);
template <class T, enum cudaTextureReadMode M>
__device__ HMS_TEXREF_RESULT tex1D(texture<T, cudaTextureType1D, M> t, float x);
template <class T, enum cudaTextureReadMode M>
__device__ HMS_TEXREF_RESULT tex2D(texture<T, cudaTextureType2D, M> t, float x, float y);
template <class T, enum cudaTextureReadMode M>
__device__ HMS_TEXREF_RESULT tex3D(texture<T, cudaTextureType3D, M> t, float x, float y, float z);
template <class T, enum cudaTextureReadMode M>
__device__ HMS_TEXREF_RESULT tex1DLayered(texture<T, cudaTextureType1DLayered, M> t, float x,
                                          int layer);
template <class T, enum cudaTextureReadMode M>
__device__ HMS_TEXREF_RESULT tex2DLayered(texture<T, cudaTextureType2DLayered, M> t, float x,
                                          float y, int layer);
template <class T, enum cudaTextureReadMode M>
__device__ HMS_TEXREF_RESULT texCubemap(texture<T, cudaTextureTypeCubemap, M> t, float x, float y,
                                        float z);
template <class T, enum cudaTextureReadMode M>
__device__ HMS_TEXREF_RESULT tex1DLod(texture<T, cudaTextureType1D, M> t, float x, float level);
template <class T, enum cudaTextureReadMode M>
__device__ HMS_TEXREF_RESULT tex2DLod(texture<T, cudaTextureType2D, M> t, float x, float y,
                                      float level);
template <class T, enum cudaTextureReadMode M>
__device__ HMS_TEXREF_RESULT tex3DLod(texture<T, cudaTextureType3D, M> t, float x, float y, float z,
                                      float level);

#undef HMS_TEXREF_RESULT

#endif
