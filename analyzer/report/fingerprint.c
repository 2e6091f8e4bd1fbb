/* Finding fingerprints (see fingerprint.h). */
#include "analyzer/report/fingerprint.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* 64-bit FNV-1a: small, fast, and stable across platforms and versions,
 * which is all a fingerprint needs (it is not a security boundary). */
static uint64_t fnv1a(uint64_t h, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

static uint64_t add_field(uint64_t h, const char *s)
{
    h = fnv1a(h, s ? s : "", s ? strlen(s) : 0);
    return fnv1a(h, "\x1f", 1); /* field separator: "ab","c" differs from "a","bc" */
}

static int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

hms_fingerprint hms_finding_fingerprint(const hms_finding *f, const char *file_path,
                                        const char *kernel, hms_source_cache *src)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    h = add_field(h, f->check);
    h = add_field(h, kernel);
    size_t len = 0;
    const char *path = f->file ? f->file : file_path;
    const char *line = src && path ? hms_source_line(src, path, f->line, &len) : NULL;
    if (line) {
        size_t lead = 0;
        while (lead < len && is_blank(line[lead]))
            lead++;
        for (size_t i = 0; i < len; i++)
            if (!is_blank(line[i]))
                h = fnv1a(h, &line[i], 1);
        h = fnv1a(h, "\x1f", 1);
        char col[24];
        unsigned c = f->col > lead ? f->col - (unsigned)lead : 0;
        snprintf(col, sizeof col, "%u", c);
        h = add_field(h, col);
    } else {
        h = add_field(h, f->message);
    }
    hms_fingerprint out;
    snprintf(out.hex, sizeof out.hex, "%016llx", (unsigned long long)h);
    return out;
}

const hms_kernel_report *hms_kernel_of_finding(const hms_file_report *file, const hms_finding *f)
{
    uintptr_t p = (uintptr_t)f;
    for (size_t k = 0; file && k < file->nkernels; k++) {
        const hms_kernel_report *kr = &file->kernels[k];
        uintptr_t lo = (uintptr_t)kr->diagnostics;
        if (kr->ndiagnostics && p >= lo && p < lo + kr->ndiagnostics * sizeof *kr->diagnostics)
            return kr;
    }
    return NULL;
}
