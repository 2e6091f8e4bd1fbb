/* hms-lint hermetic CUDA headers: all built-in CUDA types. */
#ifndef HMS_BUILTIN_TYPES_H
#define HMS_BUILTIN_TYPES_H
#define __BUILTIN_TYPES_H__

#include "driver_types.h"
#include "surface_types.h"
#include "texture_types.h"
#include "vector_types.h"

#endif
