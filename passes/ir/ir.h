/* The kernel IR: what the front end (analyzer/) understood of one kernel,
 * and all that the passes see. A small explicit tree, built once per kernel
 * (per template instantiation) from the libclang AST. No libclang types here.
 *
 * Memory: every node of a kernel lives in the kernel's arena and is freed
 * with ir_kernel_free(). Strings are arena copies too.
 *
 * Semantics, as the front end (analyzer/ir_build*.c) builds it and an
 * evaluator (passes/trace/stream_gen.c) must read it; docs/ir.md has examples.
 *  - Evaluation is per lane, in statement order, under an active mask.
 *    Expressions are 64-bit signed integers with C semantics: / and %
 *    truncate toward zero, comparisons and && || ! give 0 or 1, a shift by a
 *    negative amount or >= 64 has no defined value. Unsigned wrap-around of
 *    the source (unsigned tid - 1 at tid 0) is NOT reproduced: the value is
 *    the mathematical one (-1).
 *  - IR_VAR reads the lane's current value of the variable. PARAM vars are
 *    fixed for the launch (has_value/value, value_source says from where;
 *    "default" values are estimates). LOCAL and LOOP vars change only by
 *    IR_S_ASSIGN on the lanes active there; a LOCAL read before any ASSIGN
 *    on that lane's path is unknown. Locals whose value is known where they
 *    are used are substituted into expressions instead (no var, no ASSIGN):
 *    only values that must live across a loop back edge, a branch merge or
 *    a reassignment of something they depend on become vars. Pointer locals
 *    that move ("p += 32" in a loop) become a var "p.off" holding the offset
 *    in elements of the array the pointer points into.
 *  - IR_UNKNOWN has no value. It is never a silent zero: an expression
 *    containing one makes what depends on it an estimate. When one reaches an
 *    access index, a loop condition or a branch condition, the kernel has an
 *    ir_limit saying so (with the unknown's reason). One with a `site` is
 *    the value that load site last read on the lane: unknown, but the same
 *    on every lane whose load used the same address.
 *  - IF: lanes where cond != 0 run `then`, the others `els`.
 *  - LOOP: `init` once; then, while cond != 0 (cond NULL = forever; a
 *    do-while runs the body once before the first test), `body` then `step`.
 *    A condition that reads memory is evaluated at the top of the body
 *    (its loads, then `if (!cond) break`) and cond is NULL. BREAK leaves the
 *    innermost loop, CONTINUE goes to its `step`; both deactivate the lane
 *    until then. RETURN deactivates the lane for the rest of the kernel
 *    (returns inside inlined __device__ functions are not RETURN: they set a
 *    "<fn>.done" var and later statements are guarded by it).
 *  - ACCESS: byte address = base(array) + index * elem_stride + field_offset
 *    (index2 is tex2D's y). index is in elements of elem_stride bytes, which
 *    is the accessed type's size except for members of structs and vectors
 *    (stride = struct size, field_offset = member offset, width = member
 *    size) and accesses through a pointer cast to an unrelated size (stride 1,
 *    index in bytes). Accesses appear in evaluation order: in `s[i] = a[j]`
 *    the load of a precedes the store to s; `a[i] += x` is a load then a
 *    store of a[i].
 *  - SYNC is a block-wide barrier (__syncthreads, cg::sync(block),
 *    block.sync()); warp-level syncs are not SYNC. */
#ifndef HMS_PASSES_IR_H
#define HMS_PASSES_IR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runtime/stream.h" /* hms_space, hms_access_kind */

typedef struct {
    const char *file; /* arena string; may be shared by many locs */
    unsigned line, col;
    unsigned end_line, end_col; /* 0 when unknown */
} ir_loc;

/* ---- expressions ---------------------------------------------------------- */

typedef enum {
    IR_SYM_TID_X,
    IR_SYM_TID_Y,
    IR_SYM_TID_Z,
    IR_SYM_BID_X,
    IR_SYM_BID_Y,
    IR_SYM_BID_Z,
    IR_SYM_BDIM_X,
    IR_SYM_BDIM_Y,
    IR_SYM_BDIM_Z,
    IR_SYM_GDIM_X,
    IR_SYM_GDIM_Y,
    IR_SYM_GDIM_Z,
    IR_SYM_WARPSIZE,
    IR_SYM_LANEID, /* threadIdx linearised % warpSize (cooperative groups thread_rank etc.) */
    IR_SYM_COUNT
} ir_sym;

typedef enum {
    IR_CONST,   /* value */
    IR_SYM,     /* built-in variable: sym */
    IR_VAR,     /* kernel variable (parameter, local, loop variable): var */
    IR_UNARY,   /* op a */
    IR_BINARY,  /* a op b */
    IR_SELECT,  /* a ? b : c */
    IR_UNKNOWN, /* a value the IR cannot know: reason (+ array when loaded from memory) */
} ir_expr_kind;

typedef enum {
    IR_OP_ADD,
    IR_OP_SUB,
    IR_OP_MUL,
    IR_OP_DIV,
    IR_OP_MOD,
    IR_OP_SHL,
    IR_OP_SHR,
    IR_OP_AND,
    IR_OP_OR,
    IR_OP_XOR,
    IR_OP_MIN,
    IR_OP_MAX,
    IR_OP_LT,
    IR_OP_LE,
    IR_OP_GT,
    IR_OP_GE,
    IR_OP_EQ,
    IR_OP_NE,
    IR_OP_LAND,
    IR_OP_LOR,
    /* unary */
    IR_OP_NEG,
    IR_OP_NOT,
    IR_OP_BITNOT,
} ir_op;

typedef struct ir_expr ir_expr;
struct ir_expr {
    ir_expr_kind kind;
    ir_op op;
    int64_t value;      /* IR_CONST */
    ir_sym sym;         /* IR_SYM */
    int var;            /* IR_VAR: index into ir_kernel.vars */
    ir_expr *a, *b, *c; /* operands */
    const char *reason; /* IR_UNKNOWN: why ("value loaded from memory: col[j]") */
    int array;          /* IR_UNKNOWN: array it was loaded from, or -1 */
    int site;           /* IR_UNKNOWN: the load site whose value this is (a function of it
                           only), or -1; a load at a warp-uniform address gives every lane
                           the same value (passes/trace/lanes.h "opaque") */
    ir_loc loc;
};

/* ---- variables, arrays ----------------------------------------------------- */

typedef enum {
    IR_VAR_PARAM, /* scalar kernel parameter */
    IR_VAR_LOCAL, /* local scalar (followed through assignments) */
    IR_VAR_LOOP,  /* loop induction variable */
} ir_var_kind;

typedef struct {
    const char *name;
    ir_var_kind kind;
    bool has_value; /* a known value: --param, annotation, host call, or default */
    int64_t value;
    const char *value_source; /* "cli" | "annotation" | "host-call" | "default" | NULL */
    const char *default_why;  /* value_source "default": how it was chosen, for notes; or NULL */
    ir_loc loc;
    bool return_flag; /* set to 1 by a `return` in an inlined function: the lanes that returned */
} ir_var;

typedef struct {
    const char *name;
    hms_space space;       /* GLOBAL, SHARED, CONSTANT, TEXTURE, LOCAL */
    const char *elem_type; /* "float", "float4", "struct Body" */
    int elem_bytes;
    int ndims;       /* 0 for a plain pointer */
    int64_t dims[4]; /* extents, outermost first; 0 = unknown (extern shared) */
    bool is_param;   /* a kernel pointer parameter */
    bool is_const;   /* pointee const-qualified */
    bool is_restrict;
    bool is_extern_shared; /* extern __shared__ (size from the launch) */
    bool is_volatile;
    bool written, read, atomic; /* how the kernel uses it */
    bool via_ldg;               /* read with __ldg somewhere */
    bool in_registers;          /* local array whose every index is known at compile time after
                                   unrolling: held in registers, it has no access sites */
    int tex_dims;               /* texture: 1 or 2 */
    int64_t base_offset;        /* bytes from the start of the space's allocation (extern
                                   shared carved into arrays by pointer arithmetic) */
    int base_array;             /* when carved from another array's storage, its id; else -1 */
    ir_loc loc;                 /* declaration */
    ir_loc dim_loc[4];          /* source range of each extent expression between its brackets
                                   (`TILE + 1` in `[TILE + 1]`), outermost first, end exclusive;
                                   line 0 when unknown. For padding fix-its. */
} ir_array;

/* ---- statements ------------------------------------------------------------- */

typedef enum {
    IR_S_BLOCK,  /* items */
    IR_S_ACCESS, /* one memory access site */
    IR_S_ASSIGN, /* var = value (compound assignments already expanded) */
    IR_S_IF,     /* if (cond) then else els */
    IR_S_LOOP,   /* init; while (cond) { body; step } ; do-while: test_first=false */
    IR_S_SYNC,   /* __syncthreads() and equivalents */
    IR_S_BREAK,
    IR_S_CONTINUE,
    IR_S_RETURN,
} ir_stmt_kind;

typedef struct ir_stmt ir_stmt;

typedef struct {
    ir_stmt **v;
    size_t n, cap;
} ir_stmt_list;

typedef struct {
    int id;    /* site id: index into ir_kernel.sites */
    int array; /* index into ir_kernel.arrays */
    hms_access_kind kind;
    bool via_ldg;         /* __ldg / read-only path requested at this site */
    int width;            /* bytes read or written per lane */
    ir_expr *index;       /* element index (flattened), in units of elem_stride */
    int elem_stride;      /* bytes per index step */
    int64_t field_offset; /* extra bytes (struct member, vector component) */
    ir_expr *index2;      /* tex2D: y coordinate (index is x), else NULL */
    int mapping;      /* shared store filled from a global load: ir_kernel.mappings id, else -1 */
    const char *text; /* source text of the access, for messages */
    ir_loc loc;       /* line/col where the subscript expression starts */
} ir_access;

struct ir_stmt {
    ir_stmt_kind kind;
    ir_loc loc;
    ir_stmt_list items;          /* BLOCK */
    ir_access access;            /* ACCESS */
    int var;                     /* ASSIGN */
    ir_expr *value;              /* ASSIGN */
    ir_expr *cond;               /* IF, LOOP (NULL = forever) */
    ir_stmt *then, *els;         /* IF (els may be NULL) */
    ir_stmt *init, *step, *body; /* LOOP (init/step may be NULL) */
    bool test_first;             /* LOOP: false for do-while */
    bool lane_mask;              /* IF: the lanes one warp-collective instruction takes
                                    addresses from (a header model's guard, e.g. ldmatrix
                                    .x2 reading 16 lanes' addresses), not a branch that
                                    splits the warp */
    int loop_var;                /* LOOP: induction variable or -1 */
    int64_t trip_count;          /* LOOP: when affine and known, else -1 */
    ir_expr *trip;               /* LOOP: iterations as an expression of values known at loop
                                    entry (params, symbols, outer loop vars) when the loop is
                                    affine, assuming a positive step; NULL when not known */
    uint32_t fp_ops, fp_flops;   /* BLOCK: floating-point arithmetic of the source statement
                                    here, per thread: instructions (an FMA is one) and FLOPs
                                    (an FMA is two); not modelled otherwise, they feed the
                                    roofline's FP32 and issue bounds only */
};

/* CuMAPz shared-memory mapping: the shared store `access_site` takes its value
 * from the global load `fetch_site`. */
typedef struct {
    int shared_array;
    int global_array;
    int fetch_site;  /* global load */
    int access_site; /* shared store */
} ir_mapping;

/* Something the front end could not represent; becomes hms-analysis-limit. */
typedef struct {
    const char *reason;
    const char *hint; /* the annotation or option that would fix it, or NULL */
    ir_loc loc;
} ir_limit;

typedef enum {
    IR_LAUNCH_DEFAULT = 0,
    IR_LAUNCH_CLI,
    IR_LAUNCH_ANNOTATION,
    IR_LAUNCH_HOST_CALL
} ir_launch_source;

/* One fully known configuration of a host-call launch and the values of the
 * scalar parameters that call path passes (by var id; known[v] false where
 * it passes none we can fold). */
typedef struct {
    uint32_t grid[3], block[3];
    uint32_t shared_bytes;
    bool shared_known;
    const char *via;
    int64_t *values;
    bool *known;
} ir_launch_alt;

typedef struct {
    uint32_t grid[3], block[3];
    uint32_t shared_bytes; /* dynamic shared memory */
    ir_launch_source source;
    ir_loc loc; /* the annotation or <<<>>> call, when there is one */
    /* host-call launches folded through calls of the enclosing host function:
     * the call path the values came from, and the configurations other paths
     * give; NULL when not so */
    const char *via, *others;
    bool partial; /* host-call: some dimension did not fold and is the default */
    /* Two or more configurations (a loop over constant block sizes, several
     * calls): each is analysed and the slowest by predicted time reported
     * (analyzer/frontend/launch_alts.h); alts[0] is the first in source order. */
    ir_launch_alt *alts;
    size_t nalts;
} ir_launch;

typedef struct {
    const char *name;
    const char *type;
    bool is_pointer;
    int array; /* pointer parameter: its array id, else -1 */
    int var;   /* scalar parameter: its var id, else -1 */
} ir_param;

typedef struct ir_arena ir_arena;

typedef struct {
    const char *name; /* "transpose" or "reduce<256>" for an instantiation */
    ir_loc loc;
    ir_param *params;
    size_t nparams;
    ir_var *vars;
    size_t nvars;
    ir_array *arrays;
    size_t narrays;
    ir_access **sites;
    size_t nsites; /* every access, by site id */
    ir_mapping *mappings;
    size_t nmappings;
    ir_limit *limits;
    size_t nlimits;
    ir_stmt *body;
    ir_launch launch;
    int regs_per_thread; /* from ptxas (--ptxas); 0 = unknown: estimated
                            (passes/figures/registers.h) */
    int bounds_threads;  /* __launch_bounds__ maximum threads per block; 0 = none */
    int bounds_blocks;   /* __launch_bounds__ minimum blocks per SM; 0 = none */
    int static_shared_bytes;
    ir_arena *arena;
} ir_kernel;

/* ---- construction helpers (ir.c) ----------------------------------------- */

ir_kernel *ir_kernel_new(const char *name);
void ir_kernel_free(ir_kernel *k);
void *ir_alloc(ir_kernel *k, size_t size); /* zeroed, arena-owned */
const char *ir_strdup(ir_kernel *k, const char *s);

ir_expr *ir_const(ir_kernel *k, int64_t v);
ir_expr *ir_symbol(ir_kernel *k, ir_sym s);
ir_expr *ir_var_ref(ir_kernel *k, int var);
ir_expr *ir_unary(ir_kernel *k, ir_op op, ir_expr *a);
ir_expr *ir_binary(ir_kernel *k, ir_op op, ir_expr *a, ir_expr *b);
ir_expr *ir_select(ir_kernel *k, ir_expr *c, ir_expr *a, ir_expr *b);
ir_expr *ir_unknown(ir_kernel *k, const char *reason, int array, ir_loc loc);

ir_stmt *ir_stmt_new(ir_kernel *k, ir_stmt_kind kind, ir_loc loc);
void ir_stmt_append(ir_kernel *k, ir_stmt *block, ir_stmt *item);

int ir_add_var(ir_kernel *k, const ir_var *v);     /* returns id */
int ir_add_array(ir_kernel *k, const ir_array *a); /* returns id */
int ir_add_param(ir_kernel *k, const ir_param *p);
int ir_add_mapping(ir_kernel *k, const ir_mapping *m);
void ir_add_limit(ir_kernel *k, const char *reason, const char *hint, ir_loc loc);
/* Makes an ACCESS statement and registers it as a site (sets access.id). */
ir_stmt *ir_access_new(ir_kernel *k, const ir_access *a, ir_loc loc);

/* ---- inspection --------------------------------------------------------- */

const char *ir_sym_name(ir_sym s); /* "threadIdx.x" */
const char *ir_op_name(ir_op op);  /* "+", "min" */
bool ir_op_compares(ir_op op);     /* < <= > >= == != */
/* The operands of an operation (unary: a; binary: a, b; select: a, b, c),
 * NULL past the last. */
static inline void ir_expr_operands(const ir_expr *e, const ir_expr *ops[3])
{
    ops[0] = e->a;
    ops[1] = e->kind == IR_UNARY ? NULL : e->b;
    ops[2] = e->kind == IR_SELECT ? e->c : NULL;
}
/* Source-like rendering, e.g. "blockIdx.x * 16 + threadIdx.x"; returns chars
 * that would have been written (snprintf semantics). */
int ir_expr_format(const ir_kernel *k, const ir_expr *e, char *buf, size_t len);
bool ir_expr_has_unknown(const ir_expr *e);
/* Structural equality. Two unknowns are equal only when by_load_site is set
 * and they are the value of the same load site (>= 0): the same element read
 * twice; otherwise unknowns are never known to be equal. */
bool ir_expr_same(const ir_expr *x, const ir_expr *y, bool by_load_site);

/* Does s only leave: a return, break or continue, alone or at the end of a
 * block of assignments (a guard's early exit)? */
bool ir_stmt_only_leaves(const ir_stmt *s);
/* Does e read variable `var` anywhere? */
bool ir_expr_uses_var(const ir_expr *e, int var);

/* Calls visit on s and on every statement nested in it (block items,
 * both arms of an if, a loop's init, body and step), in that order. The
 * one walk over statements: passes that look at assignments or accesses
 * anywhere in a kernel build on it. */
typedef void (*ir_stmt_visit_fn)(const ir_stmt *s, void *ctx);
void ir_stmt_each(const ir_stmt *s, ir_stmt_visit_fn visit, void *ctx);

/* Does e depend on what a pass tracks, given the variables already flagged? */
typedef bool (*ir_expr_dep_fn)(const ir_expr *e, const bool *flags);
/* One pass over the assignments of s (into branches and loops): flags
 * every variable assigned a value `dep` says depends; true when a flag
 * changed. Call until false to close the flags over chains of
 * assignments (thread-, block- or unknown-dependence, loop taint). */
bool ir_flag_assignments(const ir_stmt *s, bool *flags, size_t nvars, ir_expr_dep_fn dep);

#endif
