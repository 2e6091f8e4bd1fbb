// A project helper in the CUDA samples' manner: its error-check functions
// exist only when the runtime's types header was included before it, which
// it detects through the toolkit's include guard.
#ifndef CHECK_HELPER_H
#define CHECK_HELPER_H
#include <cstdio>
#include <cstdlib>

#ifdef __DRIVER_TYPES_H__
static const char *errorName(cudaError_t e)
{
    return cudaGetErrorName(e);
}
#define checkCuda(x) checkCuda_((x), #x, __FILE__, __LINE__)
inline void checkCuda_(cudaError_t e, const char *what, const char *file, int line)
{
    if (e != cudaSuccess) {
        fprintf(stderr, "%s:%d: %s: %s\n", file, line, what, errorName(e));
        exit(1);
    }
}
#endif

#ifdef __CUDA_RUNTIME_H__
inline int pickDevice()
{
    int n = 0;
    checkCuda(cudaGetDeviceCount(&n));
    return n > 0 ? 0 : -1;
}
#endif
#endif
