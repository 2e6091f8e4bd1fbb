/* Key-by-key edits of an architecture YAML file, located with libyaml's
 * node marks so that comments and layout elsewhere stay as they were. */
#include "runtime/arch_patch.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "runtime/arch_embedded.h"

#define MAX_TEXT_BYTES (1u << 20)

char *hms_arch_yaml_text(const hms_arch *a, char *err, size_t errlen)
{
    if (strcmp(a->source_path, "<builtin>") != 0) {
        FILE *f = fopen(a->source_path, "rb");
        if (!f) {
            snprintf(err, errlen, "%s: cannot read: %s", a->source_path, strerror(errno));
            return NULL;
        }
        char *buf = malloc(MAX_TEXT_BYTES + 1);
        size_t n = buf ? fread(buf, 1, MAX_TEXT_BYTES, f) : 0;
        fclose(f);
        if (!buf) {
            snprintf(err, errlen, "%s: out of memory", a->source_path);
            return NULL;
        }
        buf[n] = '\0';
        return buf;
    }
    for (const struct hms_embedded_arch *e = hms_embedded_arches; e->stem; e++) {
        hms_arch b;
        char perr[256];
        if (hms_arch_parse(e->yaml, strlen(e->yaml), e->stem, &b, perr, sizeof perr) &&
            strcmp(b.name, a->name) == 0) {
            char *s = strdup(e->yaml);
            if (!s)
                snprintf(err, errlen, "%s: out of memory", a->name);
            return s;
        }
    }
    snprintf(err, errlen, "%s: no embedded description of this built-in", a->name);
    return NULL;
}

typedef struct {
    size_t start, end; /* byte range of the value; for an insertion both are the point */
    bool found;
    bool insert;     /* the key is new: a line of its own at the end of its mapping */
    unsigned indent; /* column of the mapping's keys, for an insertion */
} span;

static const char *leaf_of(const char *path)
{
    const char *dot = strrchr(path, '.');
    return dot ? dot + 1 : path;
}

/* Depth-first over mappings, matching dotted key paths. */
static void find(yaml_document_t *d, yaml_node_t *node, char *path, size_t plen,
                 const hms_yaml_edit *edits, size_t n, span *spans)
{
    if (!node || node->type != YAML_MAPPING_NODE)
        return;
    for (yaml_node_pair_t *p = node->data.mapping.pairs.start; p < node->data.mapping.pairs.top;
         p++) {
        yaml_node_t *k = yaml_document_get_node(d, p->key);
        yaml_node_t *v = yaml_document_get_node(d, p->value);
        if (!k || k->type != YAML_SCALAR_NODE || !v)
            continue;
        size_t klen = k->data.scalar.length;
        if (plen + klen + 2 > 256)
            continue;
        size_t at = plen;
        if (plen)
            path[at++] = '.';
        memcpy(path + at, k->data.scalar.value, klen);
        path[at + klen] = '\0';
        for (size_t i = 0; i < n; i++)
            if (strcmp(edits[i].path, path) == 0 &&
                (v->type == YAML_SCALAR_NODE ||
                 (v->type == YAML_SEQUENCE_NODE &&
                  v->data.sequence.style == YAML_FLOW_SEQUENCE_STYLE))) {
                spans[i].start = v->start_mark.index;
                spans[i].end = v->end_mark.index;
                spans[i].found = true;
            }
        find(d, v, path, at + klen, edits, n, spans);
        path[plen] = '\0';
    }
    /* keys of this mapping the file does not have yet: after its last line */
    yaml_node_pair_t *first = node->data.mapping.pairs.start, *last = node->data.mapping.pairs.top;
    if (first == last || node->data.mapping.style == YAML_FLOW_MAPPING_STYLE)
        return;
    yaml_node_t *k0 = yaml_document_get_node(d, first->key);
    yaml_node_t *vlast = yaml_document_get_node(d, (last - 1)->value);
    for (size_t i = 0; k0 && vlast && i < n; i++) {
        const char *leaf = leaf_of(edits[i].path);
        size_t parent_len = (size_t)(leaf - edits[i].path);
        bool child = plen ? parent_len == plen + 1 && strncmp(edits[i].path, path, plen) == 0
                          : parent_len == 0;
        if (child && !spans[i].found) {
            spans[i].start = spans[i].end = vlast->end_mark.index;
            spans[i].found = spans[i].insert = true;
            spans[i].indent = (unsigned)k0->start_mark.column;
        }
    }
}

typedef struct {
    char *s;
    size_t n, cap;
    bool failed;
} buf;

static void put(buf *b, const char *t, size_t len)
{
    if (b->failed)
        return;
    if (b->n + len + 1 > b->cap) {
        size_t cap = (b->n + len + 1) * 2;
        char *ns = realloc(b->s, cap);
        if (!ns) {
            b->failed = true;
            return;
        }
        b->s = ns;
        b->cap = cap;
    }
    memcpy(b->s + b->n, t, len);
    b->n += len;
    b->s[b->n] = '\0';
}

static int by_start(const void *x, const void *y, void *ctx)
{
    const span *s = ctx;
    size_t a = s[*(const size_t *)x].start, b = s[*(const size_t *)y].start;
    return (a > b) - (a < b);
}

char *hms_arch_patch(const char *yaml, const char *origin, const char *header, const char *trailer,
                     const hms_yaml_edit *edits, size_t nedits, char *err, size_t errlen)
{
    size_t len = strlen(yaml);
    yaml_parser_t parser;
    yaml_document_t doc;
    if (!yaml_parser_initialize(&parser)) {
        snprintf(err, errlen, "%s: out of memory", origin);
        return NULL;
    }
    yaml_parser_set_input_string(&parser, (const unsigned char *)yaml, len);
    if (!yaml_parser_load(&parser, &doc)) {
        snprintf(err, errlen, "%s:%zu: %s", origin, parser.problem_mark.line + 1,
                 parser.problem ? parser.problem : "YAML error");
        yaml_parser_delete(&parser);
        return NULL;
    }
    span *spans = calloc(nedits ? nedits : 1, sizeof *spans);
    size_t *order = calloc(nedits ? nedits : 1, sizeof *order);
    char path[256] = "";
    if (spans && order)
        find(&doc, yaml_document_get_root_node(&doc), path, 0, edits, nedits, spans);
    yaml_document_delete(&doc);
    yaml_parser_delete(&parser);
    if (!spans || !order) {
        free(spans);
        free(order);
        snprintf(err, errlen, "%s: out of memory", origin);
        return NULL;
    }
    for (size_t i = 0; i < nedits; i++) {
        order[i] = i;
        if (!spans[i].found) {
            snprintf(err, errlen,
                     "%s: %s: no such section in the file, or its value is not a scalar or [list]",
                     origin, edits[i].path);
            free(spans);
            free(order);
            return NULL;
        }
    }
    qsort_r(order, nedits, sizeof *order, by_start, spans);

    buf out = {0};
    if (header)
        put(&out, header, strlen(header));
    size_t at = 0;
    for (size_t r = 0; r < nedits; r++) {
        const span *s = &spans[order[r]];
        const hms_yaml_edit *e = &edits[order[r]];
        size_t eol = s->end;
        while (eol < len && yaml[eol] != '\n')
            eol++;
        if (s->insert) {
            if (eol < at)
                continue;
            put(&out, yaml + at, eol - at);
            put(&out, "\n", 1);
            for (unsigned c = 0; c < s->indent; c++)
                put(&out, " ", 1);
            put(&out, leaf_of(e->path), strlen(leaf_of(e->path)));
            put(&out, ": ", 2);
            put(&out, e->value, strlen(e->value));
        } else {
            if (s->start < at)
                continue; /* the same key twice: the first edit wins */
            put(&out, yaml + at, s->start - at);
            put(&out, e->value, strlen(e->value));
        }
        /* the rest of the line is the old comment: replace it */
        if (e->comment[0]) {
            put(&out, "  # ", 4);
            put(&out, e->comment, strlen(e->comment));
        }
        at = eol;
    }
    put(&out, yaml + at, len - at);
    if (trailer) {
        if (out.n && out.s[out.n - 1] != '\n')
            put(&out, "\n", 1);
        put(&out, trailer, strlen(trailer));
    }
    free(spans);
    free(order);
    if (out.failed || !out.s) {
        free(out.s);
        snprintf(err, errlen, "%s: out of memory", origin);
        return NULL;
    }
    hms_arch check;
    if (!hms_arch_parse(out.s, out.n, origin, &check, err, errlen)) {
        free(out.s);
        return NULL;
    }
    return out.s;
}
