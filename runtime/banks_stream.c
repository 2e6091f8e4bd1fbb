/* hms_banks_warp over a whole stream (banks.h). A stream repeats a few
 * access patterns over and over (a loop's shared reads in every warp and
 * block), so each pattern's result is kept in a small table: a record whose
 * lanes sit at the same offsets from a base that is a multiple of
 * hms_banks_period, with the same mask and width, has the same result. */
#include "runtime/banks.h"

#include <stdlib.h>
#include <string.h>

#include "runtime/coalesce.h"
#include "runtime/lane_pattern.h"

/* 1024 slots of ~150 bytes: a table that stays in the host's L2. */
#define PATTERN_BITS 10
#define PATTERN_SLOTS (1u << PATTERN_BITS)

typedef struct {
    uint32_t rel[HMS_WARP_LANES]; /* active lanes' address - base; 0 for others */
    uint32_t mask;
    uint8_t width;
    bool used, ok;
    hms_bank_result r;
} pattern_slot;

struct hms_bank_patterns {
    const hms_arch *arch;
    uint64_t period;
    pattern_slot slot[PATTERN_SLOTS];
};

hms_bank_patterns *hms_bank_patterns_new(const hms_arch *arch)
{
    hms_bank_patterns *m = calloc(1, sizeof *m);
    if (m) {
        m->arch = arch;
        m->period = hms_banks_period(arch);
    }
    return m;
}

void hms_bank_patterns_free(hms_bank_patterns *m)
{
    free(m);
}

bool hms_bank_patterns_warp(hms_bank_patterns *m, const hms_warp_access *r, hms_bank_result *out)
{
    uint32_t rel[HMS_WARP_LANES];
    /* a malformed record (a lane wrapping the address space) is computed:
     * hms_banks_warp rejects it */
    if (!r->mask || !hms_access_check(r, NULL, 0) || !hms_lane_pattern(r, m->period, rel))
        return hms_banks_warp(m->arch, r, out);
    pattern_slot *p = &m->slot[hms_lane_pattern_slot(rel, r->mask, r->width, PATTERN_BITS)];
    if (!p->used || p->mask != r->mask || p->width != r->width ||
        memcmp(p->rel, rel, sizeof rel) != 0) {
        memcpy(p->rel, rel, sizeof rel);
        p->mask = r->mask;
        p->width = r->width;
        p->used = true;
        p->ok = hms_banks_warp(m->arch, r, &p->r);
    }
    *out = p->r;
    return p->ok;
}

bool hms_banks_stream(const hms_arch *arch, const hms_stream *s, hms_bank_memo **out)
{
    *out = NULL;
    if (s->n == 0)
        return true;
    hms_bank_memo *v = calloc(s->n, sizeof *v);
    hms_bank_patterns *memo = hms_bank_patterns_new(arch); /* NULL: every record computed */
    if (!v) {
        hms_bank_patterns_free(memo);
        return false;
    }
    for (size_t i = 0; i < s->n; i++) {
        const hms_warp_access *r = &s->v[i];
        if (r->space != HMS_SPACE_SHARED || !r->mask)
            continue;
        v[i].ok =
            memo ? hms_bank_patterns_warp(memo, r, &v[i].r) : hms_banks_warp(arch, r, &v[i].r);
    }
    hms_bank_patterns_free(memo);
    *out = v;
    return true;
}
