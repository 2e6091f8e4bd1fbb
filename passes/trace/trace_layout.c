/* Where each array lives: extents for spreading unknown indices before
 * tracing, bases once the trace knows what it touched (policy in
 * stream_gen.h, "Addresses"). */
#include <stdlib.h>

#include "passes/trace/trace_internal.h"

/* Local arrays of unknown size get this many bytes per thread. */
#define LOCAL_DEFAULT_BYTES 1024
/* A texture row pitch is a multiple of this (cudaMallocPitch/texture pitch
 * alignment on current GPUs). */
#define TEX_PITCH_ALIGN 32
/* Spans beyond this are treated as runaway arithmetic: the array is given
 * this much room and later addresses may alias the next array. */
#define MAX_SPAN (1ll << 40)

uint64_t trace_elem_align(int elem_bytes)
{
    if (elem_bytes <= 0)
        return 1;
    uint64_t a = (uint64_t)elem_bytes & (uint64_t) - (int64_t)elem_bytes; /* lowest set bit */
    return a > 16 ? 16 : a;
}

static int64_t align_up(int64_t x, int64_t a)
{
    int64_t r = x % a;
    if (r < 0)
        r += a;
    return r ? x + (a - r) : x;
}

/* Declared size in bytes, or 0 when a dimension is unknown. */
static int64_t declared_bytes(const ir_array *a)
{
    if (a->ndims <= 0 || a->elem_bytes <= 0)
        return 0;
    int64_t n = a->elem_bytes;
    for (int d = 0; d < a->ndims && d < 4; d++) {
        if (a->dims[d] <= 0 || __builtin_mul_overflow(n, a->dims[d], &n))
            return 0;
    }
    return n > MAX_SPAN ? MAX_SPAN : n;
}

bool trace_layout_prepare(tracer *t)
{
    const ir_kernel *k = t->k;
    size_t n = k->narrays ? k->narrays : 1;
    t->touched_lo = malloc(n * sizeof *t->touched_lo);
    t->touched_hi = malloc(n * sizeof *t->touched_hi);
    t->extent_bytes = malloc(n * sizeof *t->extent_bytes);
    t->size_known = malloc(n * sizeof *t->size_known);
    t->local_bytes = malloc(n * sizeof *t->local_bytes);
    t->pitch_known = malloc(n * sizeof *t->pitch_known);
    t->pitch_bytes = malloc(n * sizeof *t->pitch_bytes);
    if (!t->touched_lo || !t->touched_hi || !t->extent_bytes || !t->size_known || !t->local_bytes ||
        !t->pitch_known || !t->pitch_bytes)
        return false;
    for (size_t i = 0; i < k->narrays; i++) {
        const ir_array *a = &k->arrays[i];
        int64_t bytes = declared_bytes(a);
        t->touched_lo[i] = INT64_MAX;
        t->touched_hi[i] = INT64_MIN;
        t->size_known[i] = bytes > 0;
        t->extent_bytes[i] = bytes > 0 ? bytes : (int64_t)t->opt.default_array_bytes;
        int64_t chunk = (int64_t)trace_elem_align(a->elem_bytes);
        t->local_bytes[i] = align_up(bytes > 0 ? bytes : LOCAL_DEFAULT_BYTES, chunk);
        /* 2D texture: dims = {height, width}, outermost first */
        bool width_known = a->ndims >= 2 && a->dims[1] > 0;
        int64_t width = width_known ? a->dims[1] : t->opt.default_param;
        if (width <= 0)
            width = HMS_TRACE_DEFAULT_PARAM;
        int64_t elem = a->elem_bytes > 0 ? a->elem_bytes : 1;
        t->pitch_known[i] = width_known;
        t->pitch_bytes[i] =
            align_up(width > MAX_SPAN / elem ? MAX_SPAN : width * elem, TEX_PITCH_ALIGN);
    }
    return true;
}

int64_t trace_local_offset(const tracer *t, int array, uint32_t warp, int lane, int64_t byte)
{
    /* Local memory is interleaved so that lane l's chunk c sits next to lane
     * l+1's chunk c: a warp reading the same local index coalesces. Slots are
     * per resident warp: local memory is allocated for resident threads only. */
    const ir_array *a = &t->k->arrays[array];
    int64_t g = (int64_t)trace_elem_align(a->elem_bytes);
    uint64_t wave = t->opt.first_wave_blocks;
    uint64_t slot_block = wave ? t->block % wave : t->block;
    int64_t slot = (int64_t)(slot_block * t->wpb + warp);
    int64_t chunks = t->local_bytes[array] / g;
    int64_t chunk = byte / g, rem = byte % g;
    if (rem < 0) {
        rem += g;
        chunk--;
    }
    uint64_t pos =
        ((uint64_t)slot * (uint64_t)chunks + (uint64_t)chunk) * HMS_WARP_LANES + (uint64_t)lane;
    return (int64_t)(pos * (uint64_t)g + (uint64_t)rem);
}

/* The bytes [lo, hi) an array's region must cover, relative to its base. */
static void region(const tracer *t, size_t i, bool reserve_default, int64_t *lo, int64_t *hi)
{
    int64_t tlo = t->touched_lo[i], thi = t->touched_hi[i];
    bool touched = tlo < thi;
    *lo = touched && tlo < 0 ? tlo : 0;
    *hi = t->size_known[i] || reserve_default ? t->extent_bytes[i] : 0;
    if (touched && thi > *hi)
        *hi = thi;
    if (*lo < -MAX_SPAN)
        *lo = -MAX_SPAN;
    if (*hi > MAX_SPAN)
        *hi = MAX_SPAN;
}

static bool in_device_memory(hms_space s)
{
    return s == HMS_SPACE_GLOBAL || s == HMS_SPACE_TEXTURE || s == HMS_SPACE_LOCAL ||
           s == HMS_SPACE_READONLY;
}

static uint64_t base_of(const tracer *t, size_t i, int depth)
{
    const ir_array *a = &t->k->arrays[i];
    hms_array_layout *L = t->out->arrays;
    if (a->base_array >= 0 && depth < HMS_TRACE_MAX_DEPTH)
        return base_of(t, (size_t)a->base_array, depth + 1) + (uint64_t)a->base_offset;
    return L[i].base;
}

bool trace_layout_finish(tracer *t)
{
    const ir_kernel *k = t->k;
    hms_array_layout *L = t->out->arrays;
    int64_t device = (int64_t)HMS_TRACE_DEVICE_BASE, shared = 0, constant = 0;
    bool any_extern = false;
    for (size_t i = 0; i < k->narrays; i++) {
        const ir_array *a = &k->arrays[i];
        int64_t lo, hi;
        L[i].size_known = t->size_known[i];
        if (a->base_array >= 0)
            continue; /* placed with its parent below */
        if (in_device_memory(a->space)) {
            /* local arrays: the interleaved region is what was touched */
            region(t, i, a->space != HMS_SPACE_LOCAL, &lo, &hi);
            int64_t base = align_up(device - lo, (int64_t)HMS_TRACE_ALLOC_ALIGN);
            L[i].base = (uint64_t)base;
            L[i].extent = (uint64_t)(hi - lo);
            device = base + hi;
        } else if (a->space == HMS_SPACE_SHARED && a->is_extern_shared) {
            any_extern = true;
        } else {
            int64_t *cursor = a->space == HMS_SPACE_SHARED ? &shared : &constant;
            region(t, i, false, &lo, &hi);
            int64_t base = align_up(*cursor - lo, (int64_t)trace_elem_align(a->elem_bytes));
            L[i].base = (uint64_t)base;
            L[i].extent = (uint64_t)(hi - lo);
            *cursor = base + hi;
        }
    }
    if (any_extern) {
        /* dynamic shared memory follows the static arrays */
        int64_t dyn = align_up(shared, 16);
        for (size_t i = 0; i < k->narrays; i++) {
            const ir_array *a = &k->arrays[i];
            if (a->base_array >= 0 || a->space != HMS_SPACE_SHARED || !a->is_extern_shared)
                continue;
            int64_t lo, hi;
            region(t, i, false, &lo, &hi);
            L[i].base = (uint64_t)(dyn + a->base_offset);
            L[i].extent = (uint64_t)(hi - lo);
        }
    }
    for (size_t i = 0; i < k->narrays; i++) {
        if (k->arrays[i].base_array < 0)
            continue;
        int64_t lo, hi;
        region(t, i, false, &lo, &hi);
        L[i].base = base_of(t, i, 0);
        L[i].extent = (uint64_t)(hi - lo);
    }
    return true;
}
