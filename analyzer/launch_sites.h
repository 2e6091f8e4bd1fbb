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
} hms_launch_site;

typedef struct {
    hms_launch_site *v;
    size_t n;
} hms_launch_sites;

/* Finds every <<<...>>> launch in the main file of tu and in the source
 * files it #includes (.cu, .inc, ...: not headers such as .h/.cuh, not system
 * or hermetic headers), in translation-unit order. hms_launch_site.file
 * names the file of each.
 * Arguments fold (hms_folded_arg.folded) when they are integral and known at
 * the site: see analyzer/const_fold.h for what is followed. */
void hms_find_launch_sites(CXTranslationUnit tu, hms_launch_sites *out);
void hms_launch_sites_free(hms_launch_sites *s);

#endif
