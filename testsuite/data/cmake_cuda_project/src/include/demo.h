// Tests the toolkit's include guard, as the CUDA samples' helper_cuda.h does.
#ifndef DEMO_H
#define DEMO_H
#ifdef __DRIVER_TYPES_H__
#define DEMO_N 4096
#endif
#endif
