/* Host-side kernel launches (`kernel<<<grid, block, shmem, stream>>>(args)`)
 * found in a translation unit, with their arguments folded to numbers where
 * they are compile-time or locally constant. */
#ifndef HMS_ANALYZER_LAUNCH_SITES_H
#define HMS_ANALYZER_LAUNCH_SITES_H

#include <clang-c/Index.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    char *text;  /* source text of the argument, e.g. "(n + 255) / 256" */
    bool folded; /* value is known */
    int64_t value;
} hms_folded_arg;

/* The most fully known configurations kept per launch (others are counted). */
#define HMS_MAX_LAUNCH_ALTS 8

/* One fully known configuration of a launch folded at one call path of its
 * host function (configuration, dynamic shared bytes, kernel arguments). */
typedef struct {
    hms_folded_arg grid[3], block[3];
    bool has_shared;
    hms_folded_arg shared;
    size_t nargs;
    hms_folded_arg *args;
    char *via; /* the call path */
} hms_launch_alt;

typedef struct {
    char *kernel;     /* callee with its template arguments: "reduce<256>" or "transpose" */
    char *kernel_usr; /* clang USR of the called function (matches the kernel's cursor) */
    char *file;
    unsigned line, col;
    /* grid/block: per dimension; each component folds on its own (a launch is
     * fully known when all three fold); text is the component's expression
     * ("N / TILE", "1" when defaulted, "grid.y" when not traceable) */
    hms_folded_arg grid[3], block[3];
    char *grid_text, *block_text; /* the whole configuration arguments as written */
    bool has_shared;
    hms_folded_arg shared; /* dynamic shared bytes (0 folded when absent) */
    size_t nargs;
    hms_folded_arg *args; /* kernel call arguments */
    /* Added by the launch-site finder: */
    char *kernel_name;             /* the callee's own name, no template arguments: "reduce" */
    size_t ntemplate_args;         /* template arguments of the called specialization */
    hms_folded_arg *template_args; /* integral ones folded ("256"), types as text ("float") */
    char *stream_text;             /* stream argument as written, NULL when absent */
    /* When the configuration depends on parameters of the enclosing host
     * function, it is folded again at each call of that function (callers'
     * callers too, loops over constant values one iteration at a time): */
    char *via;       /* the call path the values come from, NULL when folded here alone */
    size_t nconfigs; /* distinct fully known configurations over all call paths */
    char *others;    /* the configurations not chosen, "grid(..) block(..); ...", or NULL */
    /* Every distinct fully known configuration (with its arguments) in source
     * order, the chosen one first, when there are at least two (at most
     * HMS_MAX_LAUNCH_ALTS); the analysis runs each (analyzer/frontend/launch_alts.h). */
    hms_launch_alt *alts;
    size_t nalts;
    char *pointer; /* the function-pointer variable launched through, or NULL */
    /* A launch written in a host function template with the kernel's
     * template arguments depending on the host's (`k<T, 512>`): this site is
     * one instantiation of the host ("k<float, 512>"), which clang does not
     * instantiate visibly; hms_template_launch_refs asks for it. */
    bool instance;
} hms_launch_site;

typedef struct {
    hms_launch_site *v;
    size_t n;
} hms_launch_sites;

/* Policy when call paths give different configurations: the first fully
 * known one in source order (for a loop, its first iteration) is the
 * site's; the others are listed in `others`. A launch through a
 * function-pointer variable gives one site per function the variable may
 * hold in its function (assignments, its initializer, array elements).
 *
 * Finds every <<<...>>> launch in the main file of tu and in the source
 * files it #includes (.cu, .inc, ...: not headers such as .h/.cuh, not system
 * or hermetic headers), in translation-unit order. hms_launch_site.file
 * names the file of each.
 * Arguments fold (hms_folded_arg.folded) when they are integral and known at
 * the site: see analyzer/frontend/const_fold.h for what is followed. */
void hms_find_launch_sites(CXTranslationUnit tu, hms_launch_sites *out);
void hms_launch_sites_free(hms_launch_sites *s);

/* Lines to append to the source so that clang instantiates the kernels of
 * `instance` sites (the form explicit_inst.h uses), or NULL when none. */
char *hms_template_launch_refs(CXTranslationUnit tu);

/* Visits every node of every function body in the files launches are
 * collected from (above), with the function and the node's ancestors below
 * it (outermost first). */
typedef void (*hms_host_node_fn)(CXCursor function, const CXCursor *stack, size_t depth,
                                 CXCursor node, void *data);
void hms_walk_host_code(CXTranslationUnit tu, hms_host_node_fn fn, void *data);

#endif
