/* The order in which an SM issues a stream's records: shared by the DRAM
 * queue model, the placement re-simulation and the passes' cache pass, so
 * every model sees the same timeline. */
#ifndef HMS_RUNTIME_ISSUE_ORDER_H
#define HMS_RUNTIME_ISSUE_ORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runtime/stream.h"

/* A record (or request) index with the time it issues. */
typedef struct {
    double time;
    size_t index;
} hms_timed;

/* Sorts by time, ties by index (so the order is stable and repeatable). */
void hms_timed_sort(hms_timed *v, size_t n);

/* Per-record issue time within its warp: the record's `time` field, or its
 * position within its warp when the stream carries no times at all.
 * Returns a malloc'd array of s->n values, NULL on allocation failure. */
double *hms_stream_warp_times(const hms_stream *s);

/* Records in issue order: blocks run in waves of `blocks_per_wave` (resident
 * blocks per SM x SMs); within a wave the warps interleave, so a record issues
 * at (wave * span + warp_time) * warps_per_sm * cpi, span being the longest
 * warp's time. Returns a malloc'd, sorted array of s->n entries, or NULL. */
hms_timed *hms_stream_issue_order(const hms_stream *s, uint64_t blocks_per_wave,
                                  double warps_per_sm, double cpi);

#endif
