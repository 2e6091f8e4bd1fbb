/* Value stamps and the operation memo of the warp interpreter (see
 * trace_memo.h). Hashing the 32 lanes of every operation's operands for the
 * value table (trace_exec.c op_insts) dominated the tracer. Index arithmetic
 * in loops repeats: a variable takes the values it took in the previous trip
 * of an inner loop, so a node evaluated on operands with stamps seen before
 * reuses the key it hashed then. Only variables' new values are hashed here
 * (once per assignment, lanes independently), not every operation. */
#include <stdlib.h>
#include <string.h>

#include "passes/trace/trace_memo.h"

bool trace_stamps_init(trace_stamps *s, size_t nvars, const hms_lanes *var_init)
{
    memset(s, 0, sizeof *s);
    s->next = TRACE_STAMP_FIXED + 1;
    s->memo = calloc((size_t)1 << TRACE_MEMO_BITS, sizeof *s->memo);
    s->node = calloc((size_t)1 << TRACE_NODE_BITS, sizeof *s->node);
    s->intern_keys = calloc((size_t)1 << TRACE_INTERN_BITS, sizeof *s->intern_keys);
    s->interned = malloc(((size_t)1 << TRACE_INTERN_BITS) * sizeof *s->interned);
    s->results = calloc((size_t)1 << TRACE_RESULT_BITS, sizeof *s->results);
    s->var = calloc(nvars ? nvars : 1, sizeof *s->var);
    s->var_init = calloc(nvars ? nvars : 1, sizeof *s->var_init);
    s->nvars = nvars;
    if (!s->memo || !s->node || !s->intern_keys || !s->interned || !s->results || !s->var ||
        !s->var_init)
        return false;
    for (size_t v = 0; v < nvars; v++)
        s->var_init[v] = trace_stamp_of(s, &var_init[v]);
    return true;
}

void trace_stamps_free(trace_stamps *s)
{
    free(s->memo);
    free(s->node);
    free(s->intern_keys);
    free(s->interned);
    free(s->results);
    free(s->var);
    free(s->var_init);
    memset(s, 0, sizeof *s);
}

uint64_t trace_stamp_of(trace_stamps *s, const hms_lanes *v)
{
    /* It only picks a slot (equality is checked), so two cheap sums with no
     * serial chain: a plain sum and a sum of the lanes each offset by its
     * own constant then xor-folded (equal sums from swapped lanes differ). */
    uint64_t sum = 0, fold = 0;
    for (int l = 0; l < HMS_WARP_LANES; l++) {
        sum += (uint64_t)v->v[l];
        fold ^= (uint64_t)v->v[l] + (uint64_t)(l + 1) * 0x9e3779b97f4a7c15ull;
    }
    uint64_t h = sum * 0xbf58476d1ce4e5b9ull ^ fold;
    h ^= ((uint64_t)v->unknown << 32 | v->approx) ^ ((uint64_t)v->opaque << 17);
    h ^= h >> 31;
    h *= 0x94d049bb133111ebull;
    h ^= h >> 29;
    size_t i = (size_t)(h >> (64 - TRACE_INTERN_BITS));
    if (s->intern_keys[i].stamp != TRACE_STAMP_NONE && s->intern_keys[i].hash == h &&
        trace_same_value(&s->interned[i], v))
        return s->intern_keys[i].stamp;
    s->interned[i] = *v;
    s->intern_keys[i].hash = h;
    s->intern_keys[i].stamp = s->next++;
    return s->intern_keys[i].stamp;
}

uint64_t trace_stamp_uniform(trace_stamps *s, ir_sym sym, int64_t value)
{
    if (!s->sym_known[sym] || s->sym_value[sym] != value) {
        hms_lanes v;
        hms_lanes_splat(&v, value);
        s->sym[sym] = trace_stamp_of(s, &v);
        s->sym_value[sym] = value;
        s->sym_known[sym] = true;
    }
    return s->sym[sym];
}

static trace_memo *memo_slot(const trace_stamps *s, const ir_expr *e, uint32_t active, uint64_t sa,
                             uint64_t sb, uint64_t sc)
{
    uint64_t h = (uint64_t)(uintptr_t)e * 0x9e3779b97f4a7c15ull;
    h = (h ^ sa) * 0xbf58476d1ce4e5b9ull;
    h = (h ^ sb) * 0x94d049bb133111ebull;
    h = (h ^ sc ^ (uint64_t)active << 32) * 0x9e3779b97f4a7c15ull;
    return &s->memo[h >> (64 - TRACE_MEMO_BITS)];
}

static bool memo_holds(const trace_memo *m, const ir_expr *e, uint32_t active, uint64_t sa,
                       uint64_t sb, uint64_t sc)
{
    return m->e == e && m->sa == sa && m->sb == sb && m->sc == sc && m->active == active;
}

trace_memo *trace_memo_of(trace_stamps *s, const ir_expr *e, uint32_t active, uint64_t sa,
                          uint64_t sb, uint64_t sc)
{
    bool known = sa != TRACE_STAMP_NONE && sb != TRACE_STAMP_NONE && sc != TRACE_STAMP_NONE;
    trace_memo *n = trace_node_slot(s, e);
    if (known && memo_holds(n, e, active, sa, sb, sc))
        return n;
    trace_memo *m = memo_slot(s, e, active, sa, sb, sc);
    if (!(known && memo_holds(m, e, active, sa, sb, sc))) {
        m->e = e;
        m->sa = sa;
        m->sb = sb;
        m->sc = sc;
        m->active = active;
        m->result = s->next++;
        m->keyed = false;
        m->probed_run = 0;
    }
    *n = *m;
    return n;
}

void trace_memo_set_key(trace_stamps *s, trace_memo *m, uint64_t key)
{
    m->key = key;
    m->keyed = true;
    trace_memo *h = memo_slot(s, m->e, m->active, m->sa, m->sb, m->sc);
    if (memo_holds(h, m->e, m->active, m->sa, m->sb, m->sc) && h->result == m->result) {
        h->key = key;
        h->keyed = true;
    }
}
