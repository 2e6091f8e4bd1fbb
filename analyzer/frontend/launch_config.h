/* Launch configurations and scalar values that do not come from host code:
 * the command line (--launch, --param, -D) and inline annotations
 *   // hms-lint: launch [kernel=NAME] grid(X[,Y[,Z]]) block(X[,Y[,Z]]) [shared(N)]
 *   // hms-lint: param [kernel=NAME] n=4096 [m=512 ...]
 * plus the documented default launch used when nothing else is known.
 * Precedence (applied in ir_build.c): cli > annotation > host call > default. */
#ifndef HMS_ANALYZER_LAUNCH_CONFIG_H
#define HMS_ANALYZER_LAUNCH_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "analyzer/frontend/frontend_options.h"
#include "passes/ir/ir.h"
#include "analyzer/report/diag_sink.h"

/* Hardware limits checked on every launch we are given (CUDA programming
 * guide, "Compute capabilities" table: grid x up to 2^31-1, y/z up to 65535;
 * block x/y up to 1024, z up to 64, at most 1024 threads). */
#define HMS_MAX_GRID_X 2147483647u
#define HMS_MAX_GRID_YZ 65535u
#define HMS_MAX_BLOCK_XY 1024u
#define HMS_MAX_BLOCK_Z 64u
#define HMS_MAX_BLOCK_THREADS 1024u
#define HMS_MAX_DYNAMIC_SHARED (1u << 30)

/* The default launch when nothing better is known (documented in docs/ir.md):
 * 1D kernels grid(256) block(256); a kernel that uses the y dimension of
 * threadIdx/blockDim gets block(16,16), of blockIdx/gridDim grid(16,16);
 * z adds 4 in that dimension (block(8,8,4) / grid(16,16,4)). */
#define HMS_DEFAULT_GRID_1D 256u
#define HMS_DEFAULT_BLOCK_1D 256u

typedef struct {
    char *kernel; /* NULL: every kernel */
    uint32_t grid[3], block[3];
    bool has_shared;
    uint32_t shared;
} hms_launch_spec;

typedef struct {
    char *kernel; /* NULL: any kernel with a parameter or local of that name */
    char *name;
    int64_t value;
    /* A value with a fraction (0.25, 1e-3): accepted for floating-point
     * parameters, which take no part in the model's address arithmetic, so it
     * is never applied to an integer variable. 4096.0 reads as the integer. */
    bool is_real;
    double real;
    bool from_define; /* given as -D NAME=VALUE (also a macro) */
} hms_param_spec;

typedef struct {
    hms_launch_spec *launches;
    size_t nlaunches;
    hms_param_spec *params;
    size_t nparams;
} hms_launch_cli;

/* Parses one --launch value: [<kernel>:]grid=X[,Y[,Z]]:block=X[,Y[,Z]][:shared=N].
 * max_threads is the target's threads-per-block limit (0 = 1024). On error
 * returns false with the reason in err. */
bool hms_parse_launch_spec(const char *s, uint32_t max_threads, hms_launch_spec *out, char *err,
                           size_t errlen);
/* Parses one --param value: [<kernel>.]<name>=<number> (see is_real). */
bool hms_parse_param_spec(const char *s, hms_param_spec *out, char *err, size_t errlen);
void hms_launch_spec_free(hms_launch_spec *s);
/* Does a --param/-D value apply to variable `var` of kernel `kernel`?
 * Variables of struct parameters have dotted names ("A.width"), so
 * "MatMul.A.width=1024" and "A.width=1024" both select A.width. */
bool hms_param_matches(const hms_param_spec *p, const char *kernel, const char *var);
void hms_param_spec_free(hms_param_spec *p);

/* All of o's --launch/--param/-D values. -D values that are not NAME=<integer>
 * are plain macros and are skipped; a bad --launch or --param prints
 * "hms-lint: error: --launch '<value>': <reason>" (to diags, may be NULL) and
 * returns 2, else 0. */
int hms_launch_cli_parse(const hms_frontend_options *o, hms_launch_cli *out, hms_diag_sink *diags);
void hms_launch_cli_free(hms_launch_cli *c);

/* Warns to diags, "hms-lint: warning: --launch '<value>' matches no kernel
 * (kernels: a, b<32>)", for each --launch/--param whose kernel part names
 * none of the kernels analysed (names[0..n)). -D values are macros too, so
 * they are never warned about. Returns how many warnings. */
size_t hms_launch_cli_warn_unmatched(const hms_frontend_options *o, const hms_launch_cli *c,
                                     const char *const *names, size_t n, hms_diag_sink *diags);

typedef struct {
    unsigned line;  /* of the comment */
    void *file;     /* the file holding it (a CXFile; NULL: the main file) */
    char *kernel;   /* kernel=NAME, or NULL */
    bool is_launch; /* else a param annotation */
    hms_launch_spec launch;
    char *name; /* param */
    int64_t value;
} hms_annotation;

typedef struct {
    hms_annotation *v;
    size_t n;
} hms_annotations;

/* Collects the hms-lint: annotations in a source text. Malformed ones are
 * reported to diags as "<path>:<line>:<col>: warning: <reason>" and skipped. */
void hms_scan_annotations(const char *text, size_t len, const char *path, uint32_t max_threads,
                          hms_annotations *out, hms_diag_sink *diags);
void hms_annotations_free(hms_annotations *a);

/* Does a user-written kernel name select kernel `name`? "reduce" selects
 * every instantiation "reduce<...>"; spaces are ignored ("reduce<256,float>"
 * selects "reduce<256, float>"). */
bool hms_kernel_name_matches(const char *pattern, const char *name);

/* Fills l with the default launch for a kernel using these dimensions
 * (uses[0..2]: threadIdx/blockDim x,y,z; guses[0..2]: blockIdx/gridDim). */
void hms_default_launch(const bool uses[3], const bool guses[3], ir_launch *l);

/* Checks a launch against the hardware limits; false with a reason. */
bool hms_launch_valid(const uint32_t grid[3], const uint32_t block[3], uint32_t max_threads,
                      char *err, size_t errlen);

#endif
