/* Values a host function's parameters take at its calls, for launches whose
 * configuration depends on them (`void launch(int block_size) { k<<<n /
 * block_size, block_size>>>(...); }` called from main), and the kernels a
 * function-pointer variable may hold at a launch through it. */
#ifndef HMS_ANALYZER_HOST_CALLS_H
#define HMS_ANALYZER_HOST_CALLS_H

#include <clang-c/Index.h>
#include <stddef.h>

#include "analyzer/frontend/const_fold.h"

/* Bounds: call paths followed per function, callers' callers followed, and
 * iterations of a counted loop enumerated. */
#define HMS_MAX_CALL_CONTEXTS 64
#define HMS_MAX_CALL_DEPTH 4
#define HMS_MAX_LOOP_VALUES 32
#define HMS_MAX_POINTER_TARGETS 16

/* One call path: the function's parameters bound to what the arguments fold
 * to there, and a description, e.g.
 * "launch(n=4096, bs=64) called at main.cu:40 [j=1] <- run(...) called at ...". */
typedef struct {
    hms_fold_binding *binds;
    size_t nbinds;
    char *via;
    char *targs; /* a function template's arguments at the call, "float, 256", else NULL */
} hms_call_context;

typedef struct {
    hms_call_context *v;
    size_t n;
} hms_call_contexts;

/* The call paths of `function` in tu, in source order. A call inside a
 * counted loop over constants (hms_fold_loop_values) whose arguments fold
 * only per iteration gives one path per iteration; a call in a function
 * with parameters itself is followed through that function's calls. */
void hms_host_call_contexts(CXTranslationUnit tu, CXCursor function, hms_call_contexts *out);
void hms_call_contexts_free(hms_call_contexts *c);

/* "float, 256": the template arguments of a function-template
 * specialization; returns how many (0: none, or one that cannot be spelled). */
size_t hms_template_args_text(CXCursor spec, char *buf, size_t len);

/* The argument lists a function template `tmpl` is instantiated with: those
 * of its calls (contexts cx, from hms_host_call_contexts) and of its explicit
 * instantiations, each once, in that order. *out (caller frees each string
 * and the array) gets them. */
size_t hms_template_instances(CXTranslationUnit tu, CXCursor tmpl, const hms_call_contexts *cx,
                              char ***out);

/* The kernels `callee` (a function-pointer variable, or an element of an
 * array of them, as the callee of a launch in `function`) may hold: its
 * initializer, the array's elements and its assignments in `function`, through
 * &, casts and ?:. Returns how many, at most max. */
size_t hms_pointer_targets(CXCursor function, CXCursor callee, CXCursor *out, size_t max);

#endif
