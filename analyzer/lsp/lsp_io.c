/* Content-Length framing (LSP base protocol). */
#include "analyzer/cli/atomic_file.h"
#include "analyzer/lsp/lsp_io.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* A header block larger than this without a blank line is garbage. */
#define MAX_HEADER_BYTES 8192
/* Largest message accepted (a whole source file fits many times over). */
#define MAX_BODY_BYTES (64u << 20)

bool hms_lsp_reader_feed(hms_lsp_reader *r, const char *data, size_t n)
{
    if (r->len + n + 1 > r->cap) {
        size_t cap = r->cap ? r->cap : 65536;
        while (cap < r->len + n + 1)
            cap *= 2;
        char *nb = realloc(r->buf, cap);
        if (!nb)
            return false;
        r->buf = nb;
        r->cap = cap;
    }
    memcpy(r->buf + r->len, data, n);
    r->len += n;
    r->buf[r->len] = '\0';
    return true;
}

static void drop_front(hms_lsp_reader *r, size_t n)
{
    memmove(r->buf, r->buf + n, r->len - n);
    r->len -= n;
    r->buf[r->len] = '\0';
}

/* The Content-Length value of a header block (header names are
 * case-insensitive), or -1. */
static long content_length(const char *hdr, size_t len)
{
    const char *p = hdr, *end = hdr + len;
    while (p < end) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        size_t ll = eol ? (size_t)(eol - p) : (size_t)(end - p);
        static const char name[] = "Content-Length:";
        if (ll > sizeof name - 1 && strncasecmp(p, name, sizeof name - 1) == 0) {
            char num[32];
            size_t nl = ll - (sizeof name - 1);
            if (nl >= sizeof num)
                return -1;
            memcpy(num, p + sizeof name - 1, nl);
            num[nl] = '\0';
            char *e;
            long v = strtol(num, &e, 10);
            while (*e == ' ' || *e == '\r' || *e == '\t')
                e++;
            return *e || v < 0 || (unsigned long)v > MAX_BODY_BYTES ? -1 : v;
        }
        p = eol ? eol + 1 : end;
    }
    return -1;
}

hms_lsp_frame hms_lsp_reader_next(hms_lsp_reader *r, char **body)
{
    *body = NULL;
    if (!r->len)
        return HMS_LSP_NEED_MORE;
    char *sep = strstr(r->buf, "\r\n\r\n");
    if (!sep) {
        if (r->len > MAX_HEADER_BYTES) {
            r->len = 0; /* no header will ever end: discard it all */
            return HMS_LSP_BAD_HEADER;
        }
        return HMS_LSP_NEED_MORE;
    }
    size_t hlen = (size_t)(sep - r->buf), start = hlen + 4;
    long n = content_length(r->buf, hlen);
    if (n < 0) {
        drop_front(r, start);
        return HMS_LSP_BAD_HEADER;
    }
    if (r->len - start < (size_t)n)
        return HMS_LSP_NEED_MORE;
    *body = malloc((size_t)n + 1);
    if (*body) {
        memcpy(*body, r->buf + start, (size_t)n);
        (*body)[n] = '\0';
    }
    drop_front(r, start + (size_t)n);
    return *body ? HMS_LSP_MESSAGE : HMS_LSP_BAD_HEADER;
}

void hms_lsp_reader_free(hms_lsp_reader *r)
{
    free(r->buf);
    memset(r, 0, sizeof *r);
}

bool hms_lsp_send(int fd, json_t *msg)
{
    char *text = json_dumps(msg, JSON_COMPACT);
    json_decref(msg);
    if (!text)
        return false;
    char hdr[64];
    int hl = snprintf(hdr, sizeof hdr, "Content-Length: %zu\r\n\r\n", strlen(text));
    bool ok = hms_write_all(fd, hdr, (size_t)hl) && hms_write_all(fd, text, strlen(text));
    free(text);
    return ok;
}
