/* hms-lint hermetic CUDA headers: fetches through texture objects
 * (`tex1Dfetch<float>(obj, i)`, `tex2D<float4>(obj, x, y)`, ...), in both the
 * value-returning and the pointer-result forms. */
#ifndef HMS_TEXTURE_INDIRECT_FUNCTIONS_H
#define HMS_TEXTURE_INDIRECT_FUNCTIONS_H
#define __TEXTURE_INDIRECT_FUNCTIONS_H__

#include "texture_types.h"
#include "vector_types.h"

template <class T> __device__ T tex1Dfetch(cudaTextureObject_t obj, int x);
template <class T> __device__ void tex1Dfetch(T *ret, cudaTextureObject_t obj, int x);
template <class T> __device__ T tex1D(cudaTextureObject_t obj, float x);
template <class T> __device__ void tex1D(T *ret, cudaTextureObject_t obj, float x);
template <class T> __device__ T tex2D(cudaTextureObject_t obj, float x, float y);
template <class T> __device__ void tex2D(T *ret, cudaTextureObject_t obj, float x, float y);
template <class T> __device__ T tex3D(cudaTextureObject_t obj, float x, float y, float z);
template <class T>
__device__ void tex3D(T *ret, cudaTextureObject_t obj, float x, float y, float z);
template <class T> __device__ T tex1DLayered(cudaTextureObject_t obj, float x, int layer);
template <class T> __device__ T tex2DLayered(cudaTextureObject_t obj, float x, float y, int layer);
template <class T> __device__ T texCubemap(cudaTextureObject_t obj, float x, float y, float z);
template <class T> __device__ T tex1DLod(cudaTextureObject_t obj, float x, float level);
template <class T> __device__ T tex2DLod(cudaTextureObject_t obj, float x, float y, float level);
template <class T>
__device__ T tex3DLod(cudaTextureObject_t obj, float x, float y, float z, float level);
template <class T> __device__ T tex1DGrad(cudaTextureObject_t obj, float x, float dPdx, float dPdy);
template <class T>
__device__ T tex2DGrad(cudaTextureObject_t obj, float x, float y, float2 dPdx, float2 dPdy);
template <class T>
__device__ T tex2Dgather(cudaTextureObject_t obj, float x, float y, int comp = 0);

#endif
