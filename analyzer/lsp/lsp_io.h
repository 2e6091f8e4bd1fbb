/* JSON-RPC framing of the Language Server Protocol over a byte stream:
 * "Content-Length: N\r\n\r\n" + N bytes of JSON, both ways. */
#ifndef HMS_LSP_IO_H
#define HMS_LSP_IO_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* Bytes read from the client, not yet split into messages. */
typedef struct {
    char *buf;
    size_t len, cap;
} hms_lsp_reader;

typedef enum {
    HMS_LSP_NEED_MORE = 0, /* no complete message buffered yet */
    HMS_LSP_MESSAGE,       /* *body is one message's JSON text (malloc'd, NUL-terminated) */
    HMS_LSP_BAD_HEADER,    /* a header block without a usable Content-Length: skipped */
} hms_lsp_frame;

/* Appends n bytes read from the client. False when out of memory. */
bool hms_lsp_reader_feed(hms_lsp_reader *r, const char *data, size_t n);
/* Takes the next framed message off the buffer. */
hms_lsp_frame hms_lsp_reader_next(hms_lsp_reader *r, char **body);
void hms_lsp_reader_free(hms_lsp_reader *r);

/* Writes msg framed to fd (all of it, retrying short writes); steals msg. */
bool hms_lsp_send(int fd, json_t *msg);

#endif
