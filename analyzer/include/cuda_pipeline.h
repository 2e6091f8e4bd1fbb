/* hms-lint hermetic CUDA headers: <cuda_pipeline.h>, the pipeline
 * primitives (cuda_pipeline_primitives.h). */
#ifndef HMS_CUDA_PIPELINE_H
#define HMS_CUDA_PIPELINE_H
#define _CUDA_PIPELINE_H_

#include "cuda_pipeline_primitives.h"

#endif
