/* DRAM address mapping and row-buffer latencies, Huang & Li (seeds/000)
 * Sec. III-C2 Algorithm 1: two uncached loads that differ in one address bit
 * hit the same open row (column bit), conflict in one bank (row bit) or go
 * to two banks (bank bit). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "runtime/infer.h"

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

bool hms_infer_dram(hms_pair_fn fn, void *ctx, const hms_infer_dram_opts *o,
                    hms_infer_dram_result *out, char *err, size_t errlen)
{
    *out = (hms_infer_dram_result){0};
    if (o->low_bit > o->high_bit || o->high_bit > 62 || !o->bases || o->nbases == 0) {
        snprintf(err, errlen, "need low_bit <= high_bit <= 62 and at least one base address");
        return false;
    }
    unsigned nbits = o->high_bit - o->low_bit + 1;
    if (nbits < 3) {
        snprintf(err, errlen, "need at least 3 bits to tell hit, miss and conflict apart");
        return false;
    }
    double med[64], sorted[64];
    double *lat = malloc(o->nbases * sizeof *lat);
    if (!lat) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    for (unsigned i = 0; i < nbits; i++) {
        uint64_t bit = (uint64_t)1 << (o->low_bit + i);
        for (size_t b = 0; b < o->nbases; b++) {
            if (!fn(ctx, o->bases[b], o->bases[b] ^ bit, &lat[b])) {
                snprintf(err, errlen, "pair load for bit %u failed", o->low_bit + i);
                free(lat);
                return false;
            }
        }
        med[i] = sorted[i] = hms_infer_median(lat, o->nbases);
    }
    free(lat);

    /* The two widest gaps between sorted per-bit medians split the three
     * groups; each must clearly exceed every other gap. */
    qsort(sorted, nbits, sizeof *sorted, cmp_double);
    unsigned g1 = 0, g2 = 0; /* gap i lies between sorted[i] and sorted[i + 1] */
    double w1 = -1, w2 = -1, w3 = 0;
    for (unsigned i = 0; i + 1 < nbits; i++) {
        double w = sorted[i + 1] - sorted[i];
        if (w > w1) {
            w3 = w2 > w3 ? w2 : w3;
            w2 = w1, g2 = g1;
            w1 = w, g1 = i;
        } else if (w > w2) {
            w3 = w2 > w3 ? w2 : w3;
            w2 = w, g2 = i;
        } else if (w > w3)
            w3 = w;
    }
    if (!(w2 > 0) || w2 < 2 * w3) {
        snprintf(err, errlen,
                 "bits %u-%u show fewer than three latency groups (row hit, other bank, row "
                 "conflict): widen the bit range or take more bases",
                 o->low_bit, o->high_bit);
        return false;
    }
    double cut_lo = sorted[(g1 < g2 ? g1 : g2)], cut_hi = sorted[(g1 > g2 ? g1 : g2)];
    double grp[3][64];
    size_t ng[3] = {0, 0, 0};
    for (unsigned i = 0; i < nbits; i++) {
        uint64_t bit = (uint64_t)1 << (o->low_bit + i);
        int g = med[i] <= cut_lo ? 0 : med[i] <= cut_hi ? 1 : 2;
        grp[g][ng[g]++] = med[i];
        if (g == 0)
            out->column_bits |= bit;
        else if (g == 1)
            out->bank_bits |= bit;
        else
            out->row_bits |= bit;
    }
    out->hit = hms_infer_median(grp[0], ng[0]);
    out->miss = hms_infer_median(grp[1], ng[1]);
    out->conflict = hms_infer_median(grp[2], ng[2]);
    return true;
}
