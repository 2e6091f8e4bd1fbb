/* hms-lint hermetic CUDA headers: a minimal cuRAND device API (generator
 * states, curand_init and the common distributions). */
#ifndef HMS_CURAND_KERNEL_H
#define HMS_CURAND_KERNEL_H
#define CURAND_KERNEL_H_

#include "curand.h"

struct curandStateXORWOW {
    unsigned int d, v[5];
    int boxmuller_flag, boxmuller_flag_double;
    float boxmuller_extra;
    double boxmuller_extra_double;
};
struct curandStatePhilox4_32_10 {
    uint4 ctr, output;
    uint2 key;
    unsigned int STATE;
    int boxmuller_flag, boxmuller_flag_double;
    float boxmuller_extra;
    double boxmuller_extra_double;
};
struct curandStateMRG32k3a {
    unsigned int s1[3], s2[3];
    int boxmuller_flag, boxmuller_flag_double;
    float boxmuller_extra;
    double boxmuller_extra_double;
};
typedef struct curandStateXORWOW curandStateXORWOW_t;
typedef struct curandStatePhilox4_32_10 curandStatePhilox4_32_10_t;
typedef struct curandStateMRG32k3a curandStateMRG32k3a_t;
typedef curandStateXORWOW_t curandState_t;
typedef curandState_t curandState;

#define HMS_CURAND_STATE_API(S)                                                                    \
    __device__ void curand_init(unsigned long long seed, unsigned long long subsequence,           \
                                unsigned long long offset, S *state);                              \
    __device__ unsigned int curand(S *state);                                                      \
    __device__ float curand_uniform(S *state);                                                     \
    __device__ double curand_uniform_double(S *state);                                             \
    __device__ float curand_normal(S *state);                                                      \
    __device__ double curand_normal_double(S *state);                                              \
    __device__ float2 curand_normal2(S *state);                                                    \
    __device__ double2 curand_normal2_double(S *state);                                            \
    __device__ float curand_log_normal(S *state, float mean, float stddev);                        \
    __device__ unsigned int curand_poisson(S *state, double lambda);                               \
    __device__ void skipahead(unsigned long long n, S *state);
HMS_CURAND_STATE_API(curandStateXORWOW_t)
HMS_CURAND_STATE_API(curandStatePhilox4_32_10_t)
HMS_CURAND_STATE_API(curandStateMRG32k3a_t)
#undef HMS_CURAND_STATE_API

__device__ uint4 curand4(curandStatePhilox4_32_10_t *state);
__device__ float4 curand_uniform4(curandStatePhilox4_32_10_t *state);
__device__ float4 curand_normal4(curandStatePhilox4_32_10_t *state);

#endif
