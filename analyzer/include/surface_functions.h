/* hms-lint hermetic CUDA headers: surface reads and writes, through surface
 * objects and legacy `surface<void, dim>` references. */
#ifndef HMS_SURFACE_FUNCTIONS_H
#define HMS_SURFACE_FUNCTIONS_H
#define __SURFACE_FUNCTIONS_H__

#include "cuda_surface_types.h"
#include "surface_types.h"

#define HMS_BMODE enum cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap

template <class T> __device__ T surf1Dread(cudaSurfaceObject_t s, int x, HMS_BMODE);
template <class T> __device__ void surf1Dread(T *res, cudaSurfaceObject_t s, int x, HMS_BMODE);
template <class T> __device__ T surf2Dread(cudaSurfaceObject_t s, int x, int y, HMS_BMODE);
template <class T>
__device__ void surf2Dread(T *res, cudaSurfaceObject_t s, int x, int y, HMS_BMODE);
template <class T> __device__ T surf3Dread(cudaSurfaceObject_t s, int x, int y, int z, HMS_BMODE);
template <class T> __device__ void surf1Dwrite(T val, cudaSurfaceObject_t s, int x, HMS_BMODE);
template <class T>
__device__ void surf2Dwrite(T val, cudaSurfaceObject_t s, int x, int y, HMS_BMODE);
template <class T>
__device__ void surf3Dwrite(T val, cudaSurfaceObject_t s, int x, int y, int z, HMS_BMODE);

/* Layered and cubemap surfaces (objects only). */
template <class T>
__device__ T surf1DLayeredread(cudaSurfaceObject_t s, int x, int layer, HMS_BMODE);
template <class T>
__device__ void surf1DLayeredread(T *res, cudaSurfaceObject_t s, int x, int layer, HMS_BMODE);
template <class T>
__device__ void surf1DLayeredwrite(T val, cudaSurfaceObject_t s, int x, int layer, HMS_BMODE);
template <class T>
__device__ T surf2DLayeredread(cudaSurfaceObject_t s, int x, int y, int layer, HMS_BMODE);
template <class T>
__device__ void surf2DLayeredread(T *res, cudaSurfaceObject_t s, int x, int y, int layer,
                                  HMS_BMODE);
template <class T>
__device__ void surf2DLayeredwrite(T val, cudaSurfaceObject_t s, int x, int y, int layer,
                                   HMS_BMODE);
template <class T>
__device__ T surfCubemapread(cudaSurfaceObject_t s, int x, int y, int face, HMS_BMODE);
template <class T>
__device__ void surfCubemapread(T *res, cudaSurfaceObject_t s, int x, int y, int face, HMS_BMODE);
template <class T>
__device__ void surfCubemapwrite(T val, cudaSurfaceObject_t s, int x, int y, int face, HMS_BMODE);
template <class T>
__device__ T surfCubemapLayeredread(cudaSurfaceObject_t s, int x, int y, int layerFace, HMS_BMODE);
template <class T>
__device__ void surfCubemapLayeredread(T *res, cudaSurfaceObject_t s, int x, int y, int layerFace,
                                       HMS_BMODE);
template <class T>
__device__ void surfCubemapLayeredwrite(T val, cudaSurfaceObject_t s, int x, int y, int layerFace,
                                        HMS_BMODE);
template <class T>
__device__ void surf3Dread(T *res, cudaSurfaceObject_t s, int x, int y, int z, HMS_BMODE);

template <class T> __device__ void surf1Dread(T *res, surface<void, 1> s, int x, HMS_BMODE);
template <class T> __device__ T surf1Dread(surface<void, 1> s, int x, HMS_BMODE);
template <class T> __device__ void surf2Dread(T *res, surface<void, 2> s, int x, int y, HMS_BMODE);
template <class T> __device__ T surf2Dread(surface<void, 2> s, int x, int y, HMS_BMODE);
template <class T> __device__ void surf1Dwrite(T val, surface<void, 1> s, int x, HMS_BMODE);
template <class T> __device__ void surf2Dwrite(T val, surface<void, 2> s, int x, int y, HMS_BMODE);
template <class T>
__device__ void surf3Dwrite(T val, surface<void, 3> s, int x, int y, int z, HMS_BMODE);

#undef HMS_BMODE

#endif
