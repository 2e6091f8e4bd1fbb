/* hms-lint hermetic CUDA headers: surface reference/object descriptors. */
#ifndef HMS_SURFACE_TYPES_H
#define HMS_SURFACE_TYPES_H
#define __SURFACE_TYPES_H__

#include "driver_types.h"

#define cudaSurfaceType1D 0x01
#define cudaSurfaceType2D 0x02
#define cudaSurfaceType3D 0x03

enum cudaSurfaceBoundaryMode {
    cudaBoundaryModeZero = 0,
    cudaBoundaryModeClamp = 1,
    cudaBoundaryModeTrap = 2
};

enum cudaSurfaceFormatMode { cudaFormatModeForced = 0, cudaFormatModeAuto = 1 };

struct surfaceReference {
    struct cudaChannelFormatDesc channelDesc;
};

typedef unsigned long long cudaSurfaceObject_t;

#endif
