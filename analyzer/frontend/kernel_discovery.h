/* Kernel discovery, written once: which kernels, kernel templates and
 * template instances a translation unit holds (the IR builder builds them),
 * and the declarations around them that --list-kernels shows (device
 * functions, variables). One scope rule: namespaces, linkage specs and
 * classes are entered; hms-lint's own and system headers are not. */
#ifndef HMS_ANALYZER_KERNEL_DISCOVERY_H
#define HMS_ANALYZER_KERNEL_DISCOVERY_H

#include <clang-c/Index.h>
#include <stddef.h>

#include "analyzer/frontend/parse.h"

typedef enum {
    HMS_FOUND_KERNEL,          /* a __global__ function definition */
    HMS_FOUND_KERNEL_TEMPLATE, /* a __global__ function template definition */
    /* An explicit instantiation or specialization of a kernel template
     * written at file scope (a definition or not). */
    HMS_FOUND_KERNEL_INSTANCE,
    HMS_FOUND_DEVICE_FUNCTION, /* a __device__ function or method definition */
    HMS_FOUND_VARIABLE,        /* a variable at namespace or class scope */
} hms_found_kind;

/* Calls found(c, kind, ctx) for each declaration of the kinds above that t
 * owns (hms_tu_owns: in an includer's translation unit, only those written
 * in the file itself), in source order. */
typedef void (*hms_found_fn)(CXCursor c, hms_found_kind kind, void *ctx);
void hms_discover_decls(const hms_tu *t, hms_found_fn found, void *ctx);

/* One kernel to analyse. */
typedef struct {
    CXCursor fn;      /* the definition to build (the instance's, for a template) */
    CXCursor pattern; /* the kernel as written (its template, for an instance) */
    CXCursor named;   /* whose template arguments name an instance; fn otherwise */
} hms_found_kernel;

typedef struct {
    hms_found_kernel *v; /* in discovery order; an instance may repeat */
    size_t n, cap;
    CXCursor *templates; /* every kernel template defined, used or not */
    size_t ntemplates, captemplates;
} hms_kernel_set;

/* The kernels t owns: each plain kernel, each explicit instance, and each
 * instance of a kernel template that anything refers to (a launch, an
 * explicit instantiation, a kernel passed around). */
void hms_discover_kernels(const hms_tu *t, hms_kernel_set *out);
void hms_kernel_set_free(hms_kernel_set *s);

#endif
