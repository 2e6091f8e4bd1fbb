/* hms-lint hermetic CUDA headers: rounding-mode enumeration. */
#ifndef HMS_DEVICE_TYPES_H
#define HMS_DEVICE_TYPES_H
#define __DEVICE_TYPES_H__

enum cudaRoundMode { cudaRoundNearest, cudaRoundZero, cudaRoundPosInf, cudaRoundMinInf };

#endif
