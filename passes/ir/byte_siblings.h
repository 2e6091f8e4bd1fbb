/* Accesses of one array that fill neighbouring bytes of each lane's piece
 * (a struct's fields read one after another, a packed pixel's channels, a
 * stencil's shifted reads): L1 keeps the lines the first of them fetched
 * (loads) and L2 merges the partial sector writes (stores), so together
 * they move the bytes one access of their combined width would. Compared
 * by byte address, not by index: `bLines[i].CP[k]` (index 5 * i + k of
 * 8-byte float2) and `bLines[i].vertexPos` (index i of 40-byte structs,
 * field offset 24) are neighbours. */
#ifndef HMS_PASSES_BYTE_SIBLINGS_H
#define HMS_PASSES_BYTE_SIBLINGS_H

#include "passes/analyze.h"

/* Bytes per lane that site s and its siblings fill together around s's
 * own bytes (at least s's width). Siblings: same array and kind, request
 * counts within a quarter (boundary guards skip a few), byte address the
 * same up to a constant within 64 bytes. A site shifted from its siblings
 * by a lane-uniform term (`pixel[face / 2]` beside `pixel[0..3]`) counts
 * their width when they fill the whole lane stride: whatever the shift, it
 * lands on bytes the same warp's siblings touch. */
int hms_sibling_bytes(const hms_check_ctx *c, const hms_site_metrics *s);

#endif
