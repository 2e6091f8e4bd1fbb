/* Internals shared by the ir_build_*.c files: the builder state for one
 * kernel, name bindings, and the small libclang helpers they all use.
 * Not for use outside analyzer/ir_build*.c. */
#ifndef HMS_ANALYZER_IR_BUILD_IMPL_H
#define HMS_ANALYZER_IR_BUILD_IMPL_H

#include <clang-c/Index.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyzer/frontend/cursor_util.h"
#include "analyzer/frontend/launch_config.h"
#include "passes/ir/ir.h"

/* bptr.array / blval.array for the thread's own values (a struct or scalar
 * local, `this` of a method called on one, a member array of such a value):
 * registers, not memory. Accesses through it make no access site. */
#define IRB_REGISTERS (-2)

/* A pointer value: `unit`-byte steps from the start of an array. */
typedef struct {
    int array;    /* -1: memory we cannot name; IRB_REGISTERS: a register value */
    ir_expr *off; /* in units of `unit` bytes */
    int unit;
} bptr;

/* What an expression evaluated to. */
typedef struct {
    ir_expr *e;    /* integer value (IR_UNKNOWN when unknowable or not an integer) */
    int load_site; /* the value is exactly what this load site read, else -1 */
} bval;

/* A memory lvalue: the byte address array + index * stride + field. */
typedef struct {
    int array;
    ir_expr *index;
    int stride;
    int64_t field;
    int width;
    ir_expr *index2; /* 2D texture y */
} blval;

typedef enum {
    BIND_VAR,    /* integer scalar: var, subst */
    BIND_PTR,    /* pointer: ptr (offset held in var when it changes) */
    BIND_ARRAY,  /* array object: ptr.array */
    BIND_VARREF, /* reference to another binding: target */
    BIND_MEMREF, /* reference to memory: ptr + width */
    BIND_OTHER,  /* a value we do not follow (float, struct): load_site only */
} bind_kind;

typedef struct {
    CXCursor decl;
    CXCursor parent; /* struct parameter fields: the parameter (decl is the field) */
    unsigned hash;
    bind_kind kind;
    int var;        /* BIND_VAR: its var; BIND_PTR: offset var or -1 */
    ir_expr *subst; /* BIND_VAR: current value when known, NULL = read the var */
    int load_site;
    bptr ptr;
    blval mem;     /* BIND_MEMREF: the referenced memory */
    size_t target; /* BIND_VARREF */
    const char *name;
} binding;

/* One inlined call being built (the kernel itself is frame 0). */
typedef struct {
    CXCursor fn;
    int ret_var;    /* integer result var in flag mode, else -1 */
    int done_var;   /* set to 1 by a return in flag mode, else -1 */
    bool flag_mode; /* returns other than a final one */
    bool want_ptr;  /* the call's value is a pointer */
    bool have_ret;
    bval ret; /* simple mode: the value of the final return */
    bptr ret_ptr;
    int loop_depth; /* loops entered inside this frame */
    bool has_this;  /* a method or constructor: this_ptr is `this` */
    bptr this_ptr;
} inline_frame;

typedef struct {
    CXCursor decl;
    int array;
} global_array;

typedef struct irb {
    ir_kernel *k;
    CXTranslationUnit tu;
    const char *main_path;     /* as given on the command line */
    const hms_launch_cli *cli; /* values for locals named by -D */
    /* location cache */
    CXFile last_file;
    const char *last_file_name;
    const char *main_contents;
    size_t main_len;
    CXFile main_file;
    /* where statements go */
    ir_stmt *cur;
    /* scoped bindings */
    binding *binds;
    size_t nbinds, capbinds;
    /* file-scope and static arrays, created on first use */
    global_array *globals;
    size_t nglobals, capglobals;
    int unknown_array; /* synthetic array for memory we cannot name, -1 until needed */
    int extern_shared; /* first extern __shared__ array, -1 */
    inline_frame frames[16];
    int nframes;
    int loop_depth;
    bool uses_tid[3], uses_bid[3];
    unsigned budget; /* AST nodes left before we give up (per kernel) */
    /* Inside the body of a header model function (hms_model.h): locations
     * and texts are those of the user's call to it. */
    int model_depth;
    CXCursor model_call;
    bool out_of_budget;
    /* Cursors the assignment prescan (ir_build_bind.c) may still visit: an
     * else-if chain rescans its tail at every arm, quadratic in its length. */
    unsigned long prescan_budget;
    bool prescan_exhausted, prescan_warned;
} irb;

/* ---- cursor helpers (ir_build_util.c) ------------------------------------- */

typedef struct {
    CXCursor *v;
    unsigned n, cap;
    CXCursor small[8];
} cursor_list;

void irb_children(CXCursor c, cursor_list *out);
void irb_list_free(cursor_list *l);
/* Strips parentheses and implicit casts (UnexposedExpr with one child). */
/* The spelling of a cursor as a malloc'd string (or a fixed buffer copy). */
void irb_spelling(CXCursor c, char *buf, size_t len);
void irb_type_spelling(CXType t, char *buf, size_t len);
ir_loc irb_loc(irb *b, CXCursor c);
/* The cursor's own location (a declaration's name), not its extent start. */
ir_loc irb_loc_name(irb *b, CXCursor c);
/* Source text of c (clipped to len-1 chars), "" when unavailable. */
void irb_text(irb *b, CXCursor c, char *buf, size_t len);
bool irb_is_int(CXType t);
/* Appends the float arithmetic of expression `expr` as an empty BLOCK with
 * fp_ops / fp_flops (analyzer/frontend/ir_build_flops.c). */
void sb_fp_work(irb *b, CXCursor expr);
bool irb_is_ptr(CXType t);
bool irb_is_array(CXType t);
int64_t irb_sizeof(CXType t);
/* Integer value of a constant expression (macro, constexpr, template arg, sizeof). */
bool irb_eval_int(CXCursor c, int64_t *v);
/* The object of a member call `obj.f()` / `p->f()` and the method's name
 * (len 0: not wanted); a null cursor for `f()` on the implicit this or a call
 * that is not a member call. */
CXCursor irb_member_call_object(CXCursor call, char *method, size_t len);
/* Name of the function a call refers to ("" if none), and its cursor. */
CXCursor irb_callee(CXCursor call);
bool irb_has_attr(CXCursor decl, enum CXCursorKind attr);
/* Is the declaration in our hermetic CUDA headers or a system header? */
/* Is it a header function whose body models its memory accesses
 * (__HMS_MODEL__ in hms_model.h), to be inlined like user code? */
bool irb_is_model(CXCursor decl);
/* A type (or array of it) our headers mark register-only (annotate("hms_register"):
 * WMMA fragments), whose objects are never memory however they are indexed. */
bool irb_is_register_type(CXType t);
bool irb_budget(irb *b, CXCursor at);
/* ir_add_limit, once per reason and place, at most MAX_LIMITS per kernel. */
void irb_limit(irb *b, const char *reason, const char *hint, ir_loc loc);

/* Is there a "use of undeclared identifier" error inside c's extent? Its name. */
bool irb_undeclared(irb *b, CXCursor c, char *name, size_t len);
/* When so: an unknown "undeclared identifier 'X' (from a missing header?)" and a
 * limit with the hint "define it: -D X=<value>"; else NULL. */
ir_expr *irb_undeclared_unknown(irb *b, CXCursor c);

/* ---- bindings (ir_build_bind.c) -------------------------------------------- */

/* Locals are followed by substitution: a binding's `subst` is its current
 * value as an expression, used in place of the variable. A binding becomes
 * "materialized" (gets an ir_var, and every later assignment an IR_S_ASSIGN)
 * when its value must live across a loop back edge or a branch merge, or when
 * a variable its value depends on is reassigned. */
size_t bind_push(irb *b, CXCursor decl, bind_kind kind, const char *name);
/* Index of the binding of decl, following references; SIZE_MAX if none. */
size_t bind_find(irb *b, CXCursor decl);
void bind_pop_to(irb *b, size_t n);
/* Gives binding i a variable holding its current value. */
void bind_materialize(irb *b, size_t i, ir_loc at);
/* Before `var` is reassigned: bindings whose value reads it get their own var. */
void bind_invalidate_uses(irb *b, int var, ir_loc at);
/* Bindings a statement may assign (prescan), materialized with their dependents
 * and switched to reading their variables. After each arm of a branch, each
 * pass of a loop body, and the whole statement, bind_region_reset puts them
 * back to reading their variables (the value a later merge point sees). */
typedef struct {
    size_t *v;
    size_t n;
} bind_region;
bind_region bind_prepare_region(irb *b, CXCursor const *regions, unsigned n, ir_loc at);
void bind_region_reset(irb *b, const bind_region *r);
void bind_region_free(bind_region *r);

/* ---- expressions (ir_build_expr.c) ------------------------------------------ */

bval xb_value(irb *b, CXCursor c);
void xb_effects(irb *b, CXCursor c);
void xb_effects_children(irb *b, CXCursor c);
ir_expr *xb_unknown(irb *b, CXCursor at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
ir_expr *irb_bin(irb *b, ir_op op, ir_expr *x, ir_expr *y);
bool irb_const_of(const ir_expr *e, int64_t *v);
/* Collects like terms of a sum with constant coefficients: (a + 16 - a) -> 16. */
ir_expr *irb_simplify_sum(irb *b, ir_expr *e);
/* Value of an expression of constants and warpSize (32), if it is one. */
bool irb_eval_const(const ir_expr *e, int64_t *v);
bool irb_uses_var(const ir_expr *e, int var);
/* Value of an expression, then ASSIGN to an integer local/param binding. */
void xb_assign_var(irb *b, size_t bind, ir_expr *value, int load_site, CXCursor at);
/* Adds a limit at `at` for each unknown in e (addressing, loop bound, condition). */
void note_unknowns_at(irb *b, const ir_expr *e, const char *what, ir_loc at);
/* Pointer local bi takes the value p. */
void pb_assign_ptr(irb *b, size_t bi, const bptr *p, CXCursor at);

/* ---- statements (ir_build_stmt.c) ------------------------------------------- */

void sb_stmt(irb *b, CXCursor c);
/* An asm statement (ir_build_asm.c): its scalar outputs become unknowns
 * whose reason starts with IRB_ASM_RESULT. */
void sb_asm_stmt(irb *b, CXCursor c);
#define IRB_ASM_RESULT "value computed by inline assembly"
#define IRB_ASM_INTO IRB_ASM_RESULT " into " /* then the variable, quoted */
void sb_append(irb *b, ir_stmt *s);
/* Builds `fn(args)` inline; returns its value (ptr result in *ptr_out). */
bool sb_inline_call(irb *b, CXCursor call, CXCursor fn, bval *out, bptr *ptr_out);
/* Runs build(b, arg) into a fresh block and returns it. */
ir_stmt *sb_capture_begin(irb *b);
ir_stmt *sb_capture_end(irb *b, ir_stmt *saved);
/* Builds then_c / else_c (either may be null) guarded by cond; their values. */
bool sb_guarded(irb *b, ir_expr *cond, CXCursor then_c, CXCursor else_c, bval *tv, bval *ev,
                ir_loc loc);
/* A struct kernel parameter's field (A.width, A.elements) bound on its own. */
bool sb_field_binding(irb *b, CXCursor member, size_t *out);

/* ---- arrays and memory (ir_build_arrays.c) ---------------------------------- */

/* p re-expressed in steps of `unit` bytes (bytes when it does not divide). */
bptr ab_convert(irb *b, bptr p, int64_t unit);
/* Pointer value of a pointer- or array-typed expression. */
bool ab_pointer(irb *b, CXCursor c, bptr *out);
/* `this` of the innermost inlined method (unknown outside one). */
bptr ab_this(irb *b, CXCursor at);
/* The object a method is called on, as the method's `this`: the address of
 * obj (or obj itself when it is a pointer, `p->f()`); a register value when
 * obj is not memory; the caller's `this` for `this->f()` / `f()`. */
bptr ab_object_address(irb *b, CXCursor obj);
/* Address of a memory lvalue (subscript, deref, member of one). */
bool ab_lvalue(irb *b, CXCursor c, blval *out);
/* Does c denote memory (as opposed to a local scalar)? */
bool ab_is_memory(irb *b, CXCursor c);
int ab_emit(irb *b, CXCursor at, const blval *lv, hms_access_kind kind, bool ldg);
int ab_array_for_decl(irb *b, CXCursor decl);
int ab_unknown_array(irb *b);
int ab_add_array(irb *b, CXCursor decl, const char *name, CXType elem_or_array, hms_space space);
/* The access at lv of width w through pointer p + index i. */
blval ab_index(irb *b, const bptr *p, ir_expr *i, int elem_bytes, CXCursor at);
bool ab_texture_fetch(irb *b, CXCursor call, const char *fname, bval *out);
/* surf1Dread, surf2Dwrite, ... (ir_build_surface.c). */
bool ab_surface_access(irb *b, CXCursor call, const char *fname, bval *out);
/* Adds a surface named `name` (addressed in bytes) to the kernel; its id. */
int ab_add_surface(irb *b, const char *name, ir_loc loc);
bool ab_atomic(irb *b, CXCursor call, bval *out);
bool ab_ldg(irb *b, CXCursor call, const char *fname, bval *out);
int64_t ab_static_shared_bytes(irb *b);
/* `T *name = <extern __shared__ storage + constant>`: a named array carved
 * from the dynamic allocation (base_array/base_offset); else p unchanged. */
bptr ab_carve(irb *b, CXCursor decl, const char *name, CXType ptr_type, bptr p);

/* ---- default parameter values (ir_build_defaults.c) -------------------------- */

/* The default of an integer parameter that is not the bound of a
 * thread-dependent index (loop counts, offsets, strides): docs/ir.md. */
#define HMS_PARAM_DEFAULT_SMALL 64
/* Gives each PARAM var with unset[var] its role-aware default (bound of a
 * thread index: grid * block along that dimension; else
 * HMS_PARAM_DEFAULT_SMALL), marked value_source "default". */
void irb_role_defaults(ir_kernel *k, const bool *unset);

/* ---- register arrays (ir_build_registers.c) ---------------------------------- */

/* Local arrays indexed only by constants and the counters of constant-trip
 * loops are registers: marks them in_registers and removes their sites. */
void irb_promote_registers(ir_kernel *k);
/* ir_build_launch_bounds.c: k->bounds_threads / bounds_blocks from the
 * kernel's __launch_bounds__ (0 when absent or not foldable). */
void irb_launch_bounds(CXTranslationUnit tu, CXCursor fn, ir_kernel *k);

/* ---- mappings (ir_build_mapping.c) ------------------------------------------ */

void mb_store(irb *b, int store_site, int value_load_site);

#endif
