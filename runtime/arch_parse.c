/* YAML architecture description -> hms_arch. A table lists every key of the
 * schema (docs/architectures.md); the walker rejects any other key, so a typo
 * is an error with its line instead of a silently missing value. */
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

#include "runtime/arch_internal.h"

typedef enum {
    T_INT,     /* int */
    T_U32,     /* uint32_t */
    T_DOUBLE,  /* double */
    T_BOOL,    /* bool */
    T_TEXT,    /* char[cap] */
    T_NAME,    /* char[cap]: letters, digits, '_', '-', '.' */
    T_SM,      /* "sm_35" -> sm, cc_major, cc_minor */
    T_ALIASES, /* [name, ...] -> aliases, alias_count */
    T_LATENCY, /* [c1, c2, c4, c8, c16, c32] -> int[HMS_ARCH_MAX_CONFLICT_WAYS] */
    T_BITS,    /* [3-7, 22-29] -> uint64_t mask */
    T_REPL,    /* lru | fermi_l1 | random */
    T_ALLOC,   /* warp | block -> reg_alloc_per_block */
} ftype;

enum {
    REQ = 1 << 0,    /* must be written, unless its section is "none" */
    POS = 1 << 1,    /* > 0 */
    NONNEG = 1 << 2, /* >= 0 */
    POW2 = 1 << 3,   /* a power of two */
    SIZE = 1 << 4,   /* byte count: K/M/G suffixes (binary) accepted */
};

/* Parse target: the architecture plus values that only feed derived fields. */
typedef struct {
    hms_arch a;
    uint32_t tlb_entries[2];
} scratch;

typedef struct {
    const char *path;
    ftype type;
    size_t off;
    size_t cap; /* buffer size for text fields */
    unsigned flags;
} field;

#define F(p, t, member, fl)                                                                        \
    {                                                                                              \
        p, t, offsetof(scratch, member), 0, fl                                                     \
    }
#define TXT(p, t, member, fl)                                                                      \
    {                                                                                              \
        p, t, offsetof(scratch, member), sizeof(((scratch *)0)->member), fl                        \
    }

#define CACHE_FIELDS(p, m)                                                                         \
    F(p ".size", T_U32, a.m.size_bytes, REQ | POS | SIZE),                                         \
        F(p ".line", T_U32, a.m.line_bytes, REQ | POS | POW2 | SIZE),                              \
        F(p ".ways", T_U32, a.m.ways, REQ | POS), F(p ".sets", T_U32, a.m.sets, POS),              \
        F(p ".set_bit_low", T_U32, a.m.set_bit_low, NONNEG),                                       \
        F(p ".set0_ways", T_U32, a.m.set0_ways, POS),                                              \
        F(p ".replacement", T_REPL, a.m.replacement, REQ),                                         \
        F(p ".latency", T_U32, a.m.hit_latency, REQ | NONNEG)

#define TLB_FIELDS(p, m, i)                                                                        \
    F(p ".entries", T_U32, tlb_entries[i], REQ | POS),                                             \
        F(p ".page", T_U32, a.m.line_bytes, REQ | POS | POW2 | SIZE),                              \
        F(p ".ways", T_U32, a.m.ways, REQ | POS), F(p ".sets", T_U32, a.m.sets, POS),              \
        F(p ".set0_ways", T_U32, a.m.set0_ways, POS),                                              \
        F(p ".replacement", T_REPL, a.m.replacement, REQ),                                         \
        F(p ".latency", T_U32, a.m.hit_latency, REQ | NONNEG)

static const field fields[] = {
    TXT("name", T_NAME, a.name, REQ),
    TXT("sm", T_SM, a.sm, REQ),
    F("aliases", T_ALIASES, a.aliases, 0),
    TXT("product", T_TEXT, a.product, REQ),

    F("multiprocessor.count", T_INT, a.sm_count, REQ | POS),
    F("multiprocessor.clock_ghz", T_DOUBLE, a.clock_ghz, REQ | POS),
    F("multiprocessor.warp_size", T_INT, a.warp_size, REQ | POS),
    F("multiprocessor.max_warps", T_INT, a.max_warps_per_sm, REQ | POS),
    F("multiprocessor.max_blocks", T_INT, a.max_blocks_per_sm, REQ | POS),
    F("multiprocessor.max_threads_per_block", T_INT, a.max_threads_per_block, REQ | POS),
    F("multiprocessor.simd_width", T_INT, a.simd_width, REQ | POS | POW2),
    F("multiprocessor.schedulers_per_sm", T_INT, a.schedulers_per_sm, REQ | POS),
    F("multiprocessor.fp32_lanes", T_INT, a.fp32_lanes, POS),
    F("multiprocessor.registers", T_INT, a.regs_per_sm, REQ | POS | SIZE),
    F("multiprocessor.registers_per_block", T_INT, a.regs_per_block, REQ | POS | SIZE),
    F("multiprocessor.max_registers_per_thread", T_INT, a.max_regs_per_thread, REQ | POS),
    F("multiprocessor.register_alloc", T_ALLOC, a.reg_alloc_per_block, REQ),
    F("multiprocessor.register_alloc_unit", T_INT, a.reg_alloc_unit, REQ | POS | POW2),
    F("multiprocessor.warp_alloc_granularity", T_INT, a.warp_alloc_granularity, REQ | POS | POW2),

    F("shared.per_sm", T_INT, a.shared_per_sm, REQ | POS | SIZE),
    F("shared.per_block", T_INT, a.shared_per_block, REQ | POS | SIZE),
    F("shared.alloc_unit", T_INT, a.shared_alloc_unit, REQ | POS | POW2 | SIZE),
    F("shared.reserved_per_block", T_INT, a.shared_reserved_per_block, REQ | NONNEG | SIZE),
    F("shared.banks", T_INT, a.shared_banks, REQ | POS | POW2),
    F("shared.bank_bytes", T_INT, a.shared_bank_bytes, REQ | POS | POW2),
    F("shared.latency", T_LATENCY, a.shared_latency, REQ),

    F("global.sector_bytes", T_INT, a.sector_bytes, REQ | POS | POW2),
    F("global.line_bytes", T_INT, a.line_bytes, REQ | POS | POW2),
    F("global.half_warp_segments", T_BOOL, a.half_warp_segments, REQ),
    F("global.l1_caches_global", T_BOOL, a.l1_caches_global, REQ),
    F("global.unified_l1_texture", T_BOOL, a.unified_l1_texture, 0),
    F("global.dram_latency", T_INT, a.global_latency_dram, REQ | POS),
    F("global.tlb_miss_latency", T_INT, a.global_latency_tlb_miss, REQ | NONNEG),

    CACHE_FIELDS("caches.l1", l1),
    F("caches.l1.unified_with_shared", T_U32, a.l1_unified_bytes, POS | SIZE),
    CACHE_FIELDS("caches.texture", tex_l1),
    CACHE_FIELDS("caches.readonly", readonly),
    CACHE_FIELDS("caches.constant", constant),
    F("caches.constant.miss_latency", T_INT, a.constant_latency_miss, REQ | POS),
    CACHE_FIELDS("caches.l2", l2),
    F("caches.l2.bytes_per_clock", T_DOUBLE, a.l2_bytes_per_clock, POS),

    TLB_FIELDS("tlb.l1", tlb_l1, 0),
    TLB_FIELDS("tlb.l2", tlb_l2, 1),

    F("dram.channels", T_INT, a.dram_channels, REQ | POS),
    F("dram.channel_bytes", T_INT, a.dram_channel_bytes, REQ | POS | POW2 | SIZE),
    F("dram.address_hashed", T_BOOL, a.dram_address_hashed, 0),
    F("dram.banks_per_channel", T_INT, a.dram_banks_per_channel, REQ | POS | POW2),
    F("dram.row_bytes", T_INT, a.dram_row_bytes, REQ | POS | POW2 | SIZE),
    F("dram.bank_bits", T_BITS, a.dram_bank_bits_mask, REQ),
    F("dram.row_bits", T_BITS, a.dram_row_bits_mask, REQ),
    F("dram.row_hit_ns", T_DOUBLE, a.dram_row_hit_ns, REQ | POS),
    F("dram.row_miss_ns", T_DOUBLE, a.dram_row_miss_ns, REQ | POS),
    F("dram.row_conflict_ns", T_DOUBLE, a.dram_row_conflict_ns, REQ | POS),
    F("dram.bandwidth_gbs", T_DOUBLE, a.dram_bandwidth_gbs, REQ | POS),
    F("dram.measured_bandwidth_gbs", T_DOUBLE, a.dram_bandwidth_meas_gbs, REQ | NONNEG),

    F("coefficients.hsm.c1", T_DOUBLE, a.hsm_c1, REQ | NONNEG),
    F("coefficients.hsm.c2", T_DOUBLE, a.hsm_c2, REQ | NONNEG),
    F("coefficients.hsm.default", T_BOOL, a.hsm_coeffs_default, REQ),
    F("coefficients.overlap.global", T_DOUBLE, a.overlap_coeff[HMS_OVERLAP_GLOBAL], REQ),
    F("coefficients.overlap.constant", T_DOUBLE, a.overlap_coeff[HMS_OVERLAP_CONSTANT], REQ),
    F("coefficients.overlap.texture", T_DOUBLE, a.overlap_coeff[HMS_OVERLAP_TEXTURE], REQ),
    F("coefficients.overlap.shared", T_DOUBLE, a.overlap_coeff[HMS_OVERLAP_SHARED], REQ),
    F("coefficients.overlap.row_miss", T_DOUBLE, a.overlap_coeff[HMS_OVERLAP_ROW_MISS], REQ),
    F("coefficients.overlap.row_conflict", T_DOUBLE, a.overlap_coeff[HMS_OVERLAP_ROW_CONFLICT],
      REQ),
    F("coefficients.overlap.warps", T_DOUBLE, a.overlap_coeff[HMS_OVERLAP_WARPS], REQ),
    F("coefficients.overlap.intercept", T_DOUBLE, a.overlap_coeff[HMS_OVERLAP_INTERCEPT], REQ),
    F("coefficients.overlap.default", T_BOOL, a.overlap_coeffs_default, REQ),
    F("coefficients.overlap.hong_kim", T_BOOL, a.overlap_hong_kim, 0),

    F("probe.format", T_INT, a.probe_format, POS),
    TXT("probe.device", T_TEXT, a.probe_device, 0),
    TXT("probe.date", T_TEXT, a.probe_date, 0),
};
#define NFIELDS (sizeof fields / sizeof fields[0])

/* Nested maps. Caches a GPU may lack can be written as "none". */
typedef struct {
    const char *path;
    bool may_be_none;
} section;

static const section sections[] = {
    {"multiprocessor", false},
    {"shared", false},
    {"global", false},
    {"caches", false},
    {"caches.l1", true},
    {"caches.texture", true},
    {"caches.readonly", true},
    {"caches.constant", false},
    {"caches.l2", true},
    {"tlb", false},
    {"tlb.l1", false},
    {"tlb.l2", false},
    {"dram", false},
    {"coefficients", false},
    {"coefficients.hsm", false},
    {"coefficients.overlap", false},
    {"probe", false}, /* optional: no key in it is required */
};
#define NSECTIONS (sizeof sections / sizeof sections[0])

struct hms_arch_src {
    int field_line[NFIELDS];
    int section_line[NSECTIONS];
    bool section_none[NSECTIONS];
};

typedef struct {
    yaml_document_t *doc;
    const char *origin;
    scratch *s;
    hms_arch_src *src;
    hms_file_error *err;
} ctx;

bool hms_arch_fail(hms_file_error *err, const char *origin, int line, const char *field,
                   const char *fmt, ...)
{
    char reason[sizeof err->message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    unsigned at = line > 0 ? (unsigned)line : 0;
    if (field)
        return hms_file_error_set(err, origin, at, 0, "%s: %s", field, reason);
    return hms_file_error_set(err, origin, at, 0, "%s", reason);
}

static int find_field(const char *path)
{
    for (size_t i = 0; i < NFIELDS; i++)
        if (strcmp(fields[i].path, path) == 0)
            return (int)i;
    return -1;
}

static int find_section(const char *path)
{
    for (size_t i = 0; i < NSECTIONS; i++)
        if (strcmp(sections[i].path, path) == 0)
            return (int)i;
    return -1;
}

/* The section a path lives in: the longest section path that prefixes it. */
static int parent_section(const char *path)
{
    int best = -1;
    size_t best_len = 0;
    for (size_t i = 0; i < NSECTIONS; i++) {
        size_t n = strlen(sections[i].path);
        if (n > best_len && strncmp(path, sections[i].path, n) == 0 && path[n] == '.') {
            best = (int)i;
            best_len = n;
        }
    }
    return best;
}

int hms_arch_src_line(const hms_arch_src *src, const char *path)
{
    int f = find_field(path);
    if (f >= 0 && src->field_line[f])
        return src->field_line[f];
    for (int s = find_section(path) >= 0 ? find_section(path) : parent_section(path); s >= 0;
         s = parent_section(sections[s].path))
        if (src->section_line[s])
            return src->section_line[s];
    return 1;
}

/* Is `path` a direct child of `prefix` ("" = top level)? Returns its last component. */
static const char *child_name(const char *path, const char *prefix)
{
    size_t n = strlen(prefix);
    if (n) {
        if (strncmp(path, prefix, n) != 0 || path[n] != '.')
            return NULL;
        path += n + 1;
    }
    return strchr(path, '.') ? NULL : path;
}

static bool unknown_key(ctx *c, int line, const char *path, const char *prefix)
{
    char list[512] = "";
    size_t used = 0;
    for (size_t i = 0; i < NSECTIONS + NFIELDS; i++) {
        const char *p = i < NSECTIONS ? sections[i].path : fields[i - NSECTIONS].path;
        const char *name = child_name(p, prefix);
        if (!name || used >= sizeof list)
            continue;
        used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", used ? ", " : "", name);
    }
    return hms_arch_fail(c->err, c->origin, line, path, "unknown key (expected one of: %s)", list);
}

static const char *scalar_of(const yaml_node_t *v)
{
    return v && v->type == YAML_SCALAR_NODE ? (const char *)v->data.scalar.value : NULL;
}

static int line_of(const yaml_node_t *v)
{
    return (int)v->start_mark.line + 1;
}

/* Integer with optional fraction and K/M/G suffix (binary units) when `size`.
 * Returns false on anything else, including a fractional byte count. */
static bool parse_whole(const char *s, bool size, long long *out)
{
    const char *p = s;
    bool neg = *p == '-';
    if (neg || *p == '+')
        p++;
    if (!isdigit((unsigned char)*p))
        return false;
    double v = 0;
    while (isdigit((unsigned char)*p)) {
        v = v * 10 + (*p++ - '0');
        if (v > 1e15)
            return false;
    }
    bool frac = false;
    if (size && *p == '.' && isdigit((unsigned char)p[1])) {
        frac = true;
        double scale = 1;
        for (p++; isdigit((unsigned char)*p); p++)
            v += (*p - '0') * (scale /= 10);
    }
    if (size && (*p == 'K' || *p == 'M' || *p == 'G')) {
        v *= *p == 'K' ? 1024.0 : *p == 'M' ? 1048576.0 : 1073741824.0;
        p++;
        if (strcmp(p, "B") == 0 || strcmp(p, "iB") == 0)
            p += strlen(p);
    } else if (frac) {
        return false;
    }
    if (*p || v != floor(v))
        return false;
    *out = neg ? -(long long)v : (long long)v;
    return true;
}

static bool is_pow2(long long v)
{
    return v > 0 && (v & (v - 1)) == 0;
}

static bool parse_int_field(ctx *c, const field *f, const yaml_node_t *v, void *dst)
{
    const char *s = scalar_of(v);
    const char *what = f->flags & POS ? "a positive integer" : "a non-negative integer";
    if (f->flags & SIZE)
        what = f->flags & POS ? "a positive size in bytes (e.g. 48K)"
                              : "a non-negative size in bytes (e.g. 1K)";
    long long x;
    long long max = f->type == T_U32 ? (long long)UINT32_MAX : INT_MAX;
    if (!s || !parse_whole(s, f->flags & SIZE, &x) || ((f->flags & POS) && x <= 0) ||
        ((f->flags & NONNEG) && x < 0) || x > max)
        return hms_arch_fail(c->err, c->origin, line_of(v), f->path, "expected %s, got '%s'", what,
                             s ? s : "a list or mapping");
    if ((f->flags & POW2) && !is_pow2(x))
        return hms_arch_fail(c->err, c->origin, line_of(v), f->path,
                             "expected a power of two, got '%s'", s);
    if (!hms_arch_check_range(f->path, (double)x, c->origin, line_of(v), c->err))
        return false;
    if (f->type == T_U32)
        *(uint32_t *)dst = (uint32_t)x;
    else
        *(int *)dst = (int)x;
    return true;
}

static bool parse_double_field(ctx *c, const field *f, const yaml_node_t *v, double *dst)
{
    const char *s = scalar_of(v);
    char *end = NULL;
    double x = s ? strtod(s, &end) : NAN;
    bool ok = s && end != s && *end == '\0' && isfinite(x) &&
              (isdigit((unsigned char)s[0]) || s[0] == '-' || s[0] == '+' || s[0] == '.');
    if (!ok || ((f->flags & POS) && !(x > 0)) || ((f->flags & NONNEG) && x < 0)) {
        const char *what = f->flags & POS      ? "a positive number"
                           : f->flags & NONNEG ? "a non-negative number"
                                               : "a number";
        return hms_arch_fail(c->err, c->origin, line_of(v), f->path, "expected %s, got '%s'", what,
                             s ? s : "a list or mapping");
    }
    if (!hms_arch_check_range(f->path, x, c->origin, line_of(v), c->err))
        return false;
    *dst = x;
    return true;
}

/* One of `words` (NULL-terminated); returns its index or -1 after reporting. */
static int parse_word(ctx *c, const field *f, const yaml_node_t *v, const char *const *words,
                      const char *expected)
{
    const char *s = scalar_of(v);
    for (int i = 0; s && words[i]; i++)
        if (strcasecmp(s, words[i]) == 0)
            return i;
    hms_arch_fail(c->err, c->origin, line_of(v), f->path, "expected %s, got '%s'", expected,
                  s ? s : "a list or mapping");
    return -1;
}

static bool valid_name(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-' && *s != '.')
            return false;
    return true;
}

static bool parse_text(ctx *c, const field *f, const yaml_node_t *v, char *dst, size_t cap,
                       bool name)
{
    const char *s = scalar_of(v);
    if (!s || !*s || strlen(s) >= cap)
        return hms_arch_fail(c->err, c->origin, line_of(v), f->path,
                             "expected text of 1 to %zu characters, got '%s'", cap - 1,
                             s ? s : "a list or mapping");
    if (name && !valid_name(s))
        return hms_arch_fail(c->err, c->origin, line_of(v), f->path,
                             "'%s' is not a valid name (letters, digits, '_', '-', '.')", s);
    memcpy(dst, s, strlen(s) + 1);
    return true;
}

static bool parse_sm(ctx *c, const field *f, const yaml_node_t *v)
{
    const char *s = scalar_of(v);
    size_t n = s ? strlen(s) : 0;
    bool ok = n >= 5 && n <= 6 && strncasecmp(s, "sm_", 3) == 0;
    for (size_t i = 3; ok && i < n; i++)
        ok = isdigit((unsigned char)s[i]);
    if (!ok)
        return hms_arch_fail(c->err, c->origin, line_of(v), f->path,
                             "expected sm_<major><minor> such as sm_35, got '%s'",
                             s ? s : "a list or mapping");
    int num = atoi(s + 3);
    snprintf(c->s->a.sm, sizeof c->s->a.sm, "sm_%d", num);
    c->s->a.cc_major = num / 10;
    c->s->a.cc_minor = num % 10;
    return true;
}

static yaml_node_t *item(ctx *c, const yaml_node_t *seq, size_t i)
{
    return yaml_document_get_node(c->doc, seq->data.sequence.items.start[i]);
}

static size_t item_count(const yaml_node_t *seq)
{
    return (size_t)(seq->data.sequence.items.top - seq->data.sequence.items.start);
}

static bool expect_list(ctx *c, const field *f, const yaml_node_t *v, const char *what)
{
    if (v->type == YAML_SEQUENCE_NODE)
        return true;
    const char *s = scalar_of(v);
    return hms_arch_fail(c->err, c->origin, line_of(v), f->path, "expected a list %s, got '%s'",
                         what, s ? s : "a mapping");
}

static bool parse_aliases(ctx *c, const field *f, const yaml_node_t *v)
{
    if (!expect_list(c, f, v, "of names like [gtx780]"))
        return false;
    size_t n = item_count(v);
    if (n > HMS_ARCH_MAX_ALIASES)
        return hms_arch_fail(c->err, c->origin, line_of(v), f->path, "at most %d aliases, got %zu",
                             HMS_ARCH_MAX_ALIASES, n);
    for (size_t i = 0; i < n; i++)
        if (!parse_text(c, f, item(c, v, i), c->s->a.aliases[i], sizeof c->s->a.aliases[i], true))
            return false;
    c->s->a.alias_count = (int)n;
    return true;
}

static bool parse_latency(ctx *c, const field *f, const yaml_node_t *v)
{
    const char *what = "of 6 cycle counts for 1, 2, 4, 8, 16, 32-way conflicts";
    if (!expect_list(c, f, v, what))
        return false;
    if (item_count(v) != HMS_ARCH_MAX_CONFLICT_WAYS)
        return hms_arch_fail(c->err, c->origin, line_of(v), f->path,
                             "expected a list %s, got %zu values", what, item_count(v));
    field one = *f;
    one.type = T_INT;
    one.flags = POS;
    for (size_t i = 0; i < HMS_ARCH_MAX_CONFLICT_WAYS; i++)
        if (!parse_int_field(c, &one, item(c, v, i), &c->s->a.shared_latency[i]))
            return false;
    return true;
}

/* "[3-7, 22-29, 31]": bit numbers and inclusive ranges, 0..63. */
static bool parse_bits(ctx *c, const field *f, const yaml_node_t *v, uint64_t *dst)
{
    if (!expect_list(c, f, v, "of address bits and ranges like [3-7, 22-29]"))
        return false;
    uint64_t mask = 0;
    for (size_t i = 0; i < item_count(v); i++) {
        const yaml_node_t *it = item(c, v, i);
        const char *s = scalar_of(it);
        int lo = -1, hi = -1, used = 0;
        bool ok = s && (sscanf(s, "%d-%d%n", &lo, &hi, &used) == 2 ||
                        (sscanf(s, "%d%n", &lo, &used) == 1 && (hi = lo, true)));
        if (!ok || s[used] != '\0' || lo < 0 || hi > 63 || lo > hi || !isdigit((unsigned char)*s))
            return hms_arch_fail(c->err, c->origin, line_of(it), f->path,
                                 "expected a bit number or range 'lo-hi' within 0-63, got '%s'",
                                 s ? s : "a list or mapping");
        for (int b = lo; b <= hi; b++)
            mask |= (uint64_t)1 << b;
    }
    if (!mask)
        return hms_arch_fail(c->err, c->origin, line_of(v), f->path,
                             "expected at least one address bit");
    *dst = mask;
    return true;
}

static bool parse_value(ctx *c, const field *f, const yaml_node_t *v)
{
    void *dst = (char *)c->s + f->off;
    static const char *const bools[] = {"false", "true", "no", "yes", NULL};
    static const char *const repls[] = {"lru", "fermi_l1", "random", NULL};
    static const char *const allocs[] = {"warp", "block", NULL};
    int w;
    switch (f->type) {
    case T_INT:
    case T_U32:
        return parse_int_field(c, f, v, dst);
    case T_DOUBLE:
        return parse_double_field(c, f, v, dst);
    case T_BOOL:
        if ((w = parse_word(c, f, v, bools, "true or false")) < 0)
            return false;
        *(bool *)dst = w % 2 == 1;
        return true;
    case T_TEXT:
        return parse_text(c, f, v, dst, f->cap, false);
    case T_NAME:
        return parse_text(c, f, v, dst, f->cap, true);
    case T_SM:
        return parse_sm(c, f, v);
    case T_ALIASES:
        return parse_aliases(c, f, v);
    case T_LATENCY:
        return parse_latency(c, f, v);
    case T_BITS:
        return parse_bits(c, f, v, dst);
    case T_REPL:
        if ((w = parse_word(c, f, v, repls, "lru, fermi_l1 or random")) < 0)
            return false;
        *(hms_replacement *)dst = (hms_replacement)w;
        return true;
    case T_ALLOC:
        if ((w = parse_word(c, f, v, allocs, "warp or block")) < 0)
            return false;
        *(bool *)dst = w == 1;
        return true;
    }
    return false;
}

static bool walk_map(ctx *c, const yaml_node_t *map, const char *prefix);

static bool walk_section(ctx *c, int si, const char *path, const yaml_node_t *k,
                         const yaml_node_t *v)
{
    if (c->src->section_line[si])
        return hms_arch_fail(c->err, c->origin, line_of(k), path,
                             "written twice (first on line %d)", c->src->section_line[si]);
    c->src->section_line[si] = line_of(k);
    if (v->type == YAML_MAPPING_NODE)
        return walk_map(c, v, path);
    const char *s = scalar_of(v);
    if (sections[si].may_be_none && s && strcasecmp(s, "none") == 0) {
        c->src->section_none[si] = true;
        return true;
    }
    return hms_arch_fail(c->err, c->origin, line_of(v), path, "expected a mapping%s",
                         sections[si].may_be_none ? " or 'none'" : "");
}

static bool walk_map(ctx *c, const yaml_node_t *map, const char *prefix)
{
    for (const yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top;
         p++) {
        const yaml_node_t *k = yaml_document_get_node(c->doc, p->key);
        const yaml_node_t *v = yaml_document_get_node(c->doc, p->value);
        const char *key = scalar_of(k);
        if (!key)
            return hms_arch_fail(c->err, c->origin, line_of(k), *prefix ? prefix : NULL,
                                 "keys must be plain names");
        char path[160];
        int n = snprintf(path, sizeof path, "%s%s%s", prefix, *prefix ? "." : "", key);
        if (n < 0 || (size_t)n >= sizeof path)
            return unknown_key(c, line_of(k), key, prefix);
        int si = find_section(path);
        if (si >= 0) {
            if (!walk_section(c, si, path, k, v))
                return false;
            continue;
        }
        int fi = find_field(path);
        if (fi < 0)
            return unknown_key(c, line_of(k), path, prefix);
        if (c->src->field_line[fi])
            return hms_arch_fail(c->err, c->origin, line_of(k), path,
                                 "written twice (first on line %d)", c->src->field_line[fi]);
        c->src->field_line[fi] = line_of(v);
        if (!parse_value(c, &fields[fi], v))
            return false;
    }
    return true;
}

static bool check_required(ctx *c)
{
    for (size_t i = 0; i < NFIELDS; i++) {
        if (!(fields[i].flags & REQ) || c->src->field_line[i])
            continue;
        int si = parent_section(fields[i].path);
        if (si >= 0 && c->src->section_none[si])
            continue;
        /* Report the outermost missing section, else the key itself. */
        int missing = -1;
        for (int s = si; s >= 0; s = parent_section(sections[s].path))
            if (!c->src->section_line[s])
                missing = s;
        if (missing >= 0) {
            const char *hint =
                sections[missing].may_be_none ? " (write 'none' if the GPU has no such cache)" : "";
            return hms_arch_fail(c->err, c->origin,
                                 hms_arch_src_line(c->src, sections[missing].path),
                                 sections[missing].path, "required section missing%s", hint);
        }
        return hms_arch_fail(c->err, c->origin, hms_arch_src_line(c->src, fields[i].path),
                             fields[i].path, "required key missing");
    }
    return true;
}

/* TLB reach = entries x page, which must fit the 32-bit size field. */
static bool tlb_sizes(ctx *c)
{
    hms_cache_geom *g[2] = {&c->s->a.tlb_l1, &c->s->a.tlb_l2};
    const char *path[2] = {"tlb.l1.entries", "tlb.l2.entries"};
    for (int i = 0; i < 2; i++) {
        uint64_t size = (uint64_t)c->s->tlb_entries[i] * g[i]->line_bytes;
        if (size > UINT32_MAX)
            return hms_arch_fail(c->err, c->origin, hms_arch_src_line(c->src, path[i]), path[i],
                                 "entries x page is %llu bytes, more than 4 GB",
                                 (unsigned long long)size);
        g[i]->size_bytes = (uint32_t)size;
    }
    return true;
}

static bool syntax_error(ctx *c, const yaml_parser_t *p)
{
    const yaml_mark_t *m = &p->problem_mark;
    return hms_arch_fail(c->err, c->origin, (int)m->line + 1, NULL, "YAML syntax error: %s%s%s",
                         p->problem ? p->problem : "unreadable", p->context ? " " : "",
                         p->context ? p->context : "");
}

static bool parse_document(ctx *c, yaml_parser_t *p)
{
    yaml_document_t doc;
    if (!yaml_parser_load(p, &doc))
        return syntax_error(c, p);
    c->doc = &doc;
    const yaml_node_t *root = yaml_document_get_root_node(&doc);
    bool ok;
    if (!root)
        ok = hms_arch_fail(c->err, c->origin, 1, NULL, "empty architecture description");
    else if (root->type != YAML_MAPPING_NODE)
        ok = hms_arch_fail(c->err, c->origin, line_of(root), NULL,
                           "expected a mapping of keys (name:, sm:, multiprocessor:, ...)");
    else
        ok = walk_map(c, root, "") && check_required(c) && tlb_sizes(c);
    yaml_document_delete(&doc);
    c->doc = NULL;
    if (!ok)
        return false;

    /* A stray "---" would hide everything after it: refuse a second document. */
    yaml_document_t next;
    if (!yaml_parser_load(p, &next))
        return syntax_error(c, p);
    const yaml_node_t *extra = yaml_document_get_root_node(&next);
    int line = extra ? line_of(extra) : 0;
    yaml_document_delete(&next);
    if (extra)
        return hms_arch_fail(c->err, c->origin, line, NULL,
                             "a second YAML document; one architecture per file");
    return true;
}

/* T_overlap from Hong & Kim's cases unless the file says otherwise
 * (`coefficients.overlap.hong_kim`) or fits eq. 11's coefficients: a file
 * with fitted coefficients and no key keeps the equation it was fitted to. */
static void overlap_model_default(hms_arch *a, const hms_arch_src *src)
{
    int f = find_field("coefficients.overlap.hong_kim");
    if (f >= 0 && src->field_line[f])
        return;
    bool any = false;
    for (int i = 0; i < HMS_OVERLAP_COUNT; i++)
        any |= a->overlap_coeff[i] != 0;
    a->overlap_hong_kim = a->overlap_coeffs_default || !any;
}

bool hms_arch_parse_at(const char *yaml, size_t len, const char *origin, hms_arch *out,
                       hms_file_error *err)
{
    scratch *s = calloc(1, sizeof *s);
    hms_arch_src *src = calloc(1, sizeof *src);
    ctx c = {NULL, origin, s, src, err};
    yaml_parser_t p;
    bool ok = false;
    if (!s || !src) {
        hms_file_error_set(err, origin, 0, 0, "out of memory");
    } else if (!yaml_parser_initialize(&p)) {
        hms_file_error_set(err, origin, 0, 0, "cannot start the YAML parser");
    } else {
        yaml_parser_set_input_string(&p, (const unsigned char *)yaml, len);
        ok = parse_document(&c, &p) && hms_arch_check(&s->a, src, origin, err);
        if (ok)
            overlap_model_default(&s->a, src);
        yaml_parser_delete(&p);
    }
    if (ok) {
        snprintf(s->a.source_path, sizeof s->a.source_path, "%s", origin);
        *out = s->a;
    }
    free(s);
    free(src);
    return ok;
}

bool hms_arch_parse(const char *yaml, size_t len, const char *origin, hms_arch *out, char *err,
                    size_t errlen)
{
    hms_file_error e;
    bool ok = hms_arch_parse_at(yaml, len, origin, out, &e);
    if (!ok)
        hms_file_error_text(&e, err, errlen);
    return ok;
}
