/* hms-lint hermetic CUDA headers: a minimal cuRAND device API (generator
 * states, curand_init and the common distributions). */
#ifndef HMS_CURAND_KERNEL_H
#define HMS_CURAND_KERNEL_H
#define CURAND_KERNEL_H_

#include "curand.h"
#include "hms_model.h"
#include "vector_functions.h"

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

/* The generator state lives where the pointer points: in global memory when
 * a kernel passes &states[id], in registers when it works on a local copy.
 * curand_init writes the whole state; each draw reads it and writes it back
 * (modelled as whole-struct copies, hms_model.h); the numbers drawn are
 * values the analysis cannot know. */
#define HMS_CURAND_STATE_API(S)                                                                    \
    __device__ __HMS_MODEL__ inline void curand_init(unsigned long long seed,                      \
                                                     unsigned long long subsequence,               \
                                                     unsigned long long offset, S *state)          \
    {                                                                                              \
        __hms::state_write(state);                                                                 \
    }                                                                                              \
    __device__ __HMS_MODEL__ inline unsigned int curand(S *state)                                  \
    {                                                                                              \
        __hms::state_step(state);                                                                  \
        return __hms::random_bits();                                                               \
    }                                                                                              \
    __device__ __HMS_MODEL__ inline float curand_uniform(S *state)                                 \
    {                                                                                              \
        __hms::state_step(state);                                                                  \
        return (float)__hms::random_bits();                                                        \
    }                                                                                              \
    __device__ __HMS_MODEL__ inline double curand_uniform_double(S *state)                         \
    {                                                                                              \
        __hms::state_step(state);                                                                  \
        return (double)__hms::random_bits();                                                       \
    }                                                                                              \
    __device__ __HMS_MODEL__ inline float curand_normal(S *state)                                  \
    {                                                                                              \
        __hms::state_step(state);                                                                  \
        return (float)__hms::random_bits();                                                        \
    }                                                                                              \
    __device__ __HMS_MODEL__ inline double curand_normal_double(S *state)                          \
    {                                                                                              \
        __hms::state_step(state);                                                                  \
        return (double)__hms::random_bits();                                                       \
    }                                                                                              \
    __device__ __HMS_MODEL__ inline float2 curand_normal2(S *state)                                \
    {                                                                                              \
        __hms::state_step(state);                                                                  \
        return make_float2((float)__hms::random_bits(), (float)__hms::random_bits());              \
    }                                                                                              \
    __device__ __HMS_MODEL__ inline double2 curand_normal2_double(S *state)                        \
    {                                                                                              \
        __hms::state_step(state);                                                                  \
        return make_double2((double)__hms::random_bits(), (double)__hms::random_bits());           \
    }                                                                                              \
    __device__ __HMS_MODEL__ inline float curand_log_normal(S *state, float mean, float stddev)    \
    {                                                                                              \
        __hms::state_step(state);                                                                  \
        return (float)__hms::random_bits();                                                        \
    }                                                                                              \
    __device__ __HMS_MODEL__ inline unsigned int curand_poisson(S *state, double lambda)           \
    {                                                                                              \
        __hms::state_step(state);                                                                  \
        return __hms::random_bits();                                                               \
    }                                                                                              \
    __device__ __HMS_MODEL__ inline void skipahead(unsigned long long n, S *state)                 \
    {                                                                                              \
        __hms::state_step(state);                                                                  \
    }
HMS_CURAND_STATE_API(curandStateXORWOW_t)
HMS_CURAND_STATE_API(curandStatePhilox4_32_10_t)
HMS_CURAND_STATE_API(curandStateMRG32k3a_t)
#undef HMS_CURAND_STATE_API

__device__ __HMS_MODEL__ inline uint4 curand4(curandStatePhilox4_32_10_t *state)
{
    __hms::state_step(state);
    return make_uint4(__hms::random_bits(), __hms::random_bits(), __hms::random_bits(),
                      __hms::random_bits());
}
__device__ __HMS_MODEL__ inline float4 curand_uniform4(curandStatePhilox4_32_10_t *state)
{
    __hms::state_step(state);
    return make_float4((float)__hms::random_bits(), (float)__hms::random_bits(),
                       (float)__hms::random_bits(), (float)__hms::random_bits());
}
__device__ __HMS_MODEL__ inline float4 curand_normal4(curandStatePhilox4_32_10_t *state)
{
    __hms::state_step(state);
    return make_float4((float)__hms::random_bits(), (float)__hms::random_bits(),
                       (float)__hms::random_bits(), (float)__hms::random_bits());
}

#endif
