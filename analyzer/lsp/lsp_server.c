/* `hms-lint --lsp`: a Language Server Protocol server on stdin/stdout.
 *
 * One thread, one poll() loop over the client's stdin and the running lints.
 * Each lint is a child process, this very binary run as
 * `hms-lint --format=json --fail-on=never [-p db] file -- flags`, whose JSON
 * report becomes the file's diagnostics (lsp_convert.c). A child is cheap to
 * cancel (a changed file kills its stale run), and a crash in the analysis
 * cannot take the editor's server down.
 *
 * Open and save lint the file on disk at once; a change lints the buffer
 * after a quiet period (debounce), from a copy in a private temporary
 * directory (the source file is never written), with the file's directory
 * on the include path and the original's .hms-lint as --config-file. Flags come from the nearest
 * compile_commands.json above the file (or build/compile_commands.json beside a parent), or from
 * initializationOptions: {"compilationDatabase": dir, "extraArgs": [...],
 * "arch": name, "debounceMs": n}. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "analyzer/cli/commands.h"
#include "analyzer/cli/config.h"
#include "analyzer/lsp/lsp_convert.h"
#include "analyzer/lsp/lsp_io.h"
#include "analyzer/report/diag_sink.h"

#define DEFAULT_DEBOUNCE_MS 300

/* JSON-RPC error codes */
enum {
    PARSE_ERROR = -32700,
    INVALID_REQUEST = -32600,
    METHOD_NOT_FOUND = -32601,
    INVALID_PARAMS = -32602,
    SERVER_NOT_INITIALIZED = -32002
};

typedef struct {
    char *uri, *path;
    char *text; /* the buffer as the client has it */
    bool dirty; /* changed since open/save: lint the buffer, not the disk */
    double due; /* when to start the next run (0: none scheduled) */
    pid_t pid;  /* running lint, 0 none */
    int fd;     /* its stdout */
    char *out;  /* what it printed so far */
    size_t outlen, outcap;
    char *run_text;    /* the text it lints (positions are converted with it) */
    char *tmpdir;      /* private copy of the buffer for buffer runs */
    json_t *report;    /* files[0] of the last finished run */
    char *report_text; /* the text of that run */
} lsp_doc;

typedef struct {
    lsp_doc **docs;
    size_t ndocs;
    bool initialized, shutdown;
    char *db;      /* initializationOptions.compilationDatabase */
    json_t *extra; /* initializationOptions.extraArgs */
    char *arch;    /* initializationOptions.arch */
    int debounce_ms;
    char exe[4096];
} lsp_server;

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The server's own problems, on stderr (the client's log), through the
 * diagnostic sink's printer: "hms-lint: warning: --lsp: ...", or at a file. */
static void log_msg(hms_diag_level level, const char *file, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void log_msg(hms_diag_level level, const char *file, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = NULL;
    bool made = vasprintf(&msg, fmt, ap) >= 0;
    va_end(ap);
    hms_diag_printf(stderr, (hms_diag_head){level, file, 0, 0, NULL, NULL}, "--lsp: %s",
                    made ? msg : fmt);
    if (made)
        free(msg);
}

static void send_msg(json_t *msg)
{
    if (!hms_lsp_send(STDOUT_FILENO, msg))
        log_msg(HMS_DIAG_ERROR, NULL, "cannot write to the client");
}

static void reply(json_t *id, json_t *result)
{
    send_msg(json_pack("{s:s, s:O, s:o}", "jsonrpc", "2.0", "id", id ? id : json_null(), "result",
                       result ? result : json_null()));
}

static void reply_error(json_t *id, int code, const char *message)
{
    send_msg(json_pack("{s:s, s:O, s:{s:i, s:s}}", "jsonrpc", "2.0", "id", id ? id : json_null(),
                       "error", "code", code, "message", message));
}

static void notify(const char *method, json_t *params)
{
    send_msg(json_pack("{s:s, s:s, s:o}", "jsonrpc", "2.0", "method", method, "params", params));
}

/* ---- documents ----------------------------------------------------------- */

static lsp_doc *find_doc(lsp_server *s, const char *uri)
{
    for (size_t i = 0; uri && i < s->ndocs; i++)
        if (strcmp(s->docs[i]->uri, uri) == 0)
            return s->docs[i];
    return NULL;
}

/* Kills the document's running lint (its result would be stale). */
static void cancel_run(lsp_doc *d)
{
    if (d->pid > 0) {
        kill(d->pid, SIGKILL);
        waitpid(d->pid, NULL, 0);
        close(d->fd);
    }
    d->pid = 0;
    d->fd = -1;
    d->outlen = 0;
    free(d->run_text);
    d->run_text = NULL;
}

static void remove_tmpdir(lsp_doc *d)
{
    if (!d->tmpdir)
        return;
    const char *base = strrchr(d->path, '/');
    char *copy = NULL;
    if (asprintf(&copy, "%s/%s", d->tmpdir, base ? base + 1 : d->path) >= 0) {
        unlink(copy);
        free(copy);
    }
    rmdir(d->tmpdir);
    free(d->tmpdir);
    d->tmpdir = NULL;
}

static void free_doc(lsp_doc *d)
{
    cancel_run(d);
    remove_tmpdir(d);
    free(d->uri);
    free(d->path);
    free(d->text);
    free(d->out);
    json_decref(d->report);
    free(d->report_text);
    free(d);
}

/* ---- flags ----------------------------------------------------------------- */

/* The directory of the nearest compile_commands.json above path (also
 * <parent>/build/), malloc'd, or NULL. */
static char *find_compile_db(const char *path)
{
    char *dir = strdup(path);
    while (dir) {
        char *slash = strrchr(dir, '/');
        if (!slash)
            break;
        *slash = '\0';
        static const char *const sub[] = {"", "/build"};
        for (int i = 0; i < 2; i++) {
            char *cand = NULL;
            struct stat st;
            if (asprintf(&cand, "%s%s/compile_commands.json", *dir ? dir : "", sub[i]) < 0)
                continue;
            bool found = stat(cand, &st) == 0 && S_ISREG(st.st_mode);
            free(cand);
            if (found) {
                char *out = NULL;
                if (asprintf(&out, "%s%s", *dir ? dir : "/", sub[i]) < 0)
                    out = NULL;
                free(dir);
                return out;
            }
        }
        if (!*dir)
            break;
    }
    free(dir);
    return NULL;
}

/* ---- runs -------------------------------------------------------------------- */

/* The buffer copied to a private directory under the file's own name (so
 * messages and the JSON report name it as the user knows it). */
static char *buffer_copy(lsp_doc *d)
{
    if (!d->tmpdir) {
        const char *tmp = getenv("TMPDIR");
        char *tpl = NULL;
        if (asprintf(&tpl, "%s/hms-lsp-XXXXXX", tmp && *tmp ? tmp : "/tmp") < 0)
            return NULL;
        if (!mkdtemp(tpl)) {
            free(tpl);
            return NULL;
        }
        d->tmpdir = tpl;
    }
    const char *base = strrchr(d->path, '/');
    char *copy = NULL;
    if (asprintf(&copy, "%s/%s", d->tmpdir, base ? base + 1 : d->path) < 0)
        return NULL;
    FILE *f = fopen(copy, "wb");
    bool ok = f && fwrite(d->text, 1, strlen(d->text), f) == strlen(d->text);
    if (f)
        ok &= fclose(f) == 0;
    if (!ok) {
        free(copy);
        return NULL;
    }
    return copy;
}

static void start_run(lsp_server *s, lsp_doc *d)
{
    cancel_run(d);
    d->due = 0;
    char *target = d->dirty ? buffer_copy(d) : strdup(d->path);
    if (!target) {
        log_msg(HMS_DIAG_ERROR, d->path, "cannot prepare a lint");
        return;
    }
    char *db = s->db ? strdup(s->db) : find_compile_db(d->path);
    char *dir = strdup(d->path);
    char *slash = dir ? strrchr(dir, '/') : NULL;
    if (slash)
        *slash = '\0';
    char *arch = NULL;
    if (s->arch && asprintf(&arch, "--arch=%s", s->arch) < 0)
        arch = NULL;
    /* The copy lives elsewhere: the original's .hms-lint still applies. */
    char *cfg = d->dirty ? hms_config_find(d->path) : NULL;
    char *cfg_flag = NULL, *assume = NULL;
    if (cfg && asprintf(&cfg_flag, "--config-file=%s", cfg) < 0)
        cfg_flag = NULL;
    free(cfg);
    /* ... and so do its compile_commands.json flags. */
    if (d->dirty && asprintf(&assume, "--assume-filename=%s", d->path) < 0)
        assume = NULL;

    const char *argv[64 + 16];
    size_t n = 0;
    argv[n++] = s->exe;
    argv[n++] = "--format=json";
    argv[n++] = "--fail-on=never";
    if (arch)
        argv[n++] = arch;
    if (cfg_flag)
        argv[n++] = cfg_flag;
    if (assume)
        argv[n++] = assume;
    if (db) {
        argv[n++] = "-p";
        argv[n++] = db;
    }
    argv[n++] = target;
    argv[n++] = "--";
    if (d->dirty && dir) { /* the copy's "x.h" includes are the original's */
        argv[n++] = "-iquote";
        argv[n++] = dir;
    }
    size_t i;
    json_t *a;
    json_array_foreach(s->extra, i, a)
    {
        if (json_is_string(a) && n < 64 + 14)
            argv[n++] = json_string_value(a);
    }
    argv[n] = NULL;

    int pipefd[2];
    if (pipe(pipefd) != 0) {
        log_msg(HMS_DIAG_ERROR, NULL, "pipe: %s", strerror(errno));
    } else {
        pid_t pid = fork();
        if (pid == 0) {
            dup2(pipefd[1], STDOUT_FILENO);
            int null = open("/dev/null", O_RDWR);
            if (null >= 0) {
                dup2(null, STDIN_FILENO);
                dup2(null, STDERR_FILENO);
            }
            close(pipefd[0]);
            close(pipefd[1]);
            execv(s->exe, (char *const *)argv);
            _exit(127);
        }
        close(pipefd[1]);
        if (pid < 0) {
            close(pipefd[0]);
            log_msg(HMS_DIAG_ERROR, NULL, "fork: %s", strerror(errno));
        } else {
            d->pid = pid;
            d->fd = pipefd[0];
            d->outlen = 0;
            d->run_text = strdup(d->text);
        }
    }
    free(target);
    free(db);
    free(dir);
    free(arch);
    free(cfg_flag);
    free(assume);
}

static void publish(lsp_doc *d, json_t *diagnostics)
{
    notify("textDocument/publishDiagnostics",
           json_pack("{s:s, s:o}", "uri", d->uri, "diagnostics", diagnostics));
}

/* The child closed its stdout: read its report, publish the diagnostics. */
static void finish_run(lsp_doc *d)
{
    int status = 0;
    waitpid(d->pid, &status, 0);
    close(d->fd);
    d->pid = 0;
    d->fd = -1;
    json_error_t jerr;
    json_t *report = d->outlen ? json_loadb(d->out, d->outlen, 0, &jerr) : NULL;
    json_t *file = json_array_get(json_object_get(report, "files"), 0);
    if (!file) {
        char *msg = NULL;
        if (asprintf(&msg, "hms-lint could not lint %s (exit status %d)", d->path,
                     WIFEXITED(status) ? WEXITSTATUS(status) : -1) >= 0) {
            notify("window/showMessage", json_pack("{s:i, s:s}", "type", 1, "message", msg));
            free(msg);
        }
        json_decref(report);
        free(d->run_text);
        d->run_text = NULL;
        return;
    }
    json_decref(d->report);
    free(d->report_text);
    d->report = json_incref(file);
    d->report_text = d->run_text;
    d->run_text = NULL;
    json_t *diagnostics = hms_lsp_diagnostics(d->report, json_object_get(report, "notifications"),
                                              d->report_text, d->uri);
    json_decref(report);
    publish(d, diagnostics);
}

static void read_run_output(lsp_doc *d)
{
    char buf[65536];
    ssize_t n = read(d->fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR)
        return;
    if (n <= 0) {
        finish_run(d);
        return;
    }
    if (d->outlen + (size_t)n > d->outcap) {
        size_t cap = d->outcap ? d->outcap * 2 : 65536;
        while (cap < d->outlen + (size_t)n)
            cap *= 2;
        char *no = realloc(d->out, cap);
        if (!no) {
            cancel_run(d);
            return;
        }
        d->out = no;
        d->outcap = cap;
    }
    memcpy(d->out + d->outlen, buf, (size_t)n);
    d->outlen += (size_t)n;
}

/* ---- handlers ------------------------------------------------------------------ */

static const char *str_at(json_t *o, const char *a, const char *b)
{
    json_t *v = json_object_get(o, a);
    if (b)
        v = json_object_get(v, b);
    return json_string_value(v);
}

static json_t *initialize(lsp_server *s, json_t *params)
{
    json_t *io = json_object_get(params, "initializationOptions");
    const char *db = str_at(io, "compilationDatabase", NULL);
    const char *arch = str_at(io, "arch", NULL);
    json_t *extra = json_object_get(io, "extraArgs");
    json_t *deb = json_object_get(io, "debounceMs");
    free(s->db);
    s->db = db ? strdup(db) : NULL;
    free(s->arch);
    s->arch = arch ? strdup(arch) : NULL;
    json_decref(s->extra);
    s->extra = json_is_array(extra) ? json_incref(extra) : NULL;
    if (json_is_integer(deb) && json_integer_value(deb) >= 0 && json_integer_value(deb) < 60000)
        s->debounce_ms = (int)json_integer_value(deb);
    s->initialized = true;
    return json_pack("{s:{s:{s:b, s:i, s:{s:b}}, s:b, s:{s:[s]}}, s:{s:s, s:s}}", "capabilities",
                     "textDocumentSync", "openClose", 1, "change", 1, "save", "includeText", 0,
                     "hoverProvider", 1, "codeActionProvider", "codeActionKinds", "quickfix",
                     "serverInfo", "name", "hms-lint", "version", HMS_VERSION);
}

static void did_open(lsp_server *s, json_t *params)
{
    const char *uri = str_at(params, "textDocument", "uri");
    const char *text = str_at(params, "textDocument", "text");
    char *path = hms_lsp_uri_to_path(uri);
    if (!path || !text) {
        log_msg(HMS_DIAG_WARNING, NULL, "didOpen of %s ignored: not a file:// document with text",
                uri ? uri : "");
        free(path);
        return;
    }
    lsp_doc *d = find_doc(s, uri);
    if (!d) {
        lsp_doc **nv = realloc(s->docs, (s->ndocs + 1) * sizeof *nv);
        d = nv ? calloc(1, sizeof *d) : NULL;
        if (!d) {
            free(path);
            return;
        }
        s->docs = nv;
        s->docs[s->ndocs++] = d;
        d->uri = strdup(uri);
        d->fd = -1;
    } else {
        free(d->path);
        free(d->text);
    }
    d->path = path;
    d->text = strdup(text);
    /* What the editor shows may not be what is on disk (a new file). */
    FILE *f = fopen(path, "rb");
    d->dirty = true;
    if (f) {
        size_t len = strlen(text);
        char *disk = malloc(len + 2);
        size_t got = disk ? fread(disk, 1, len + 1, f) : 0;
        d->dirty = !disk || got != len || memcmp(disk, text, len) != 0;
        free(disk);
        fclose(f);
    }
    start_run(s, d);
}

static void did_change(lsp_server *s, json_t *params)
{
    lsp_doc *d = find_doc(s, str_at(params, "textDocument", "uri"));
    json_t *changes = json_object_get(params, "contentChanges");
    /* Full sync (we asked for it): the last change holds the whole text. */
    json_t *last = json_array_get(changes, json_array_size(changes) - 1);
    const char *text = json_string_value(json_object_get(last, "text"));
    if (!d || !text || json_object_get(last, "range"))
        return;
    free(d->text);
    d->text = strdup(text);
    d->dirty = true;
    cancel_run(d);
    d->due = now_s() + s->debounce_ms / 1000.0;
}

static void did_save(lsp_server *s, json_t *params)
{
    lsp_doc *d = find_doc(s, str_at(params, "textDocument", "uri"));
    if (!d)
        return;
    const char *text = str_at(params, "text", NULL);
    if (text) {
        free(d->text);
        d->text = strdup(text);
    }
    d->dirty = false;
    start_run(s, d);
}

static void did_close(lsp_server *s, json_t *params)
{
    const char *uri = str_at(params, "textDocument", "uri");
    for (size_t i = 0; uri && i < s->ndocs; i++) {
        if (strcmp(s->docs[i]->uri, uri) == 0) {
            publish(s->docs[i], json_array());
            free_doc(s->docs[i]);
            s->docs[i] = s->docs[--s->ndocs];
            return;
        }
    }
}

static json_t *code_action(lsp_server *s, json_t *params)
{
    lsp_doc *d = find_doc(s, str_at(params, "textDocument", "uri"));
    json_t *range = json_object_get(params, "range");
    long l0 = (long)json_integer_value(json_object_get(json_object_get(range, "start"), "line"));
    long l1 = (long)json_integer_value(json_object_get(json_object_get(range, "end"), "line"));
    if (!d || !d->report)
        return json_array();
    return hms_lsp_code_actions(d->report, d->report_text, d->uri, l0, l1);
}

static json_t *hover(lsp_server *s, json_t *params)
{
    lsp_doc *d = find_doc(s, str_at(params, "textDocument", "uri"));
    json_t *pos = json_object_get(params, "position");
    if (!d || !d->report || !pos)
        return json_null();
    return hms_lsp_hover(d->report, d->report_text,
                         (long)json_integer_value(json_object_get(pos, "line")),
                         (long)json_integer_value(json_object_get(pos, "character")));
}

/* Handles one message; false when the server must stop (exit). */
static bool handle(lsp_server *s, const char *body, int *exit_code)
{
    json_error_t jerr;
    json_t *msg = json_loads(body, 0, &jerr);
    if (!msg) {
        char what[300];
        snprintf(what, sizeof what, "parse error: %s (line %d, column %d)", jerr.text, jerr.line,
                 jerr.column);
        log_msg(HMS_DIAG_WARNING, NULL, "%s", what);
        reply_error(NULL, PARSE_ERROR, what);
        return true;
    }
    json_t *id = json_object_get(msg, "id");
    const char *method = json_string_value(json_object_get(msg, "method"));
    json_t *params = json_object_get(msg, "params");
    bool request = id && (json_is_integer(id) || json_is_string(id));
    if (!json_is_object(msg) || !method || (id && !request)) {
        if (json_is_object(msg) && !method && request &&
            (json_object_get(msg, "result") || json_object_get(msg, "error"))) {
            json_decref(msg); /* a response to a request of ours: none expected */
            return true;
        }
        reply_error(request ? id : NULL, INVALID_REQUEST,
                    "invalid request: a JSON-RPC message needs a method (and an integer or "
                    "string id for a request)");
        json_decref(msg);
        return true;
    }
    bool go_on = true;
    if (strcmp(method, "initialize") == 0) {
        reply(id, initialize(s, params));
    } else if (strcmp(method, "exit") == 0) {
        *exit_code = s->shutdown ? 0 : 1;
        go_on = false;
    } else if (!s->initialized) {
        if (request)
            reply_error(id, SERVER_NOT_INITIALIZED, "the server is not initialized yet");
    } else if (strcmp(method, "shutdown") == 0) {
        s->shutdown = true;
        reply(id, NULL);
    } else if (request && !json_is_object(params) && strncmp(method, "textDocument/", 13) == 0) {
        reply_error(id, INVALID_PARAMS, "params must be an object");
    } else if (strcmp(method, "textDocument/codeAction") == 0) {
        reply(id, code_action(s, params));
    } else if (strcmp(method, "textDocument/hover") == 0) {
        reply(id, hover(s, params));
    } else if (request) {
        char what[300];
        snprintf(what, sizeof what, "method not found: %s", method);
        reply_error(id, METHOD_NOT_FOUND, what);
    } else if (!json_is_object(params)) {
        log_msg(HMS_DIAG_WARNING, NULL, "notification %s without params ignored",
                method ? method : "");
    } else if (strcmp(method, "textDocument/didOpen") == 0) {
        did_open(s, params);
    } else if (strcmp(method, "textDocument/didChange") == 0) {
        did_change(s, params);
    } else if (strcmp(method, "textDocument/didSave") == 0) {
        did_save(s, params);
    } else if (strcmp(method, "textDocument/didClose") == 0) {
        did_close(s, params);
    } /* other notifications ($/cancelRequest, initialized, ...) need nothing */
    json_decref(msg);
    return go_on;
}

/* ---- the loop ------------------------------------------------------------------- */

int hms_cmd_lsp(void)
{
    lsp_server s = {0};
    s.debounce_ms = DEFAULT_DEBOUNCE_MS;
    ssize_t n = readlink("/proc/self/exe", s.exe, sizeof s.exe - 1);
    if (n <= 0) {
        log_msg(HMS_DIAG_ERROR, NULL, "cannot find its own executable");
        return 2;
    }
    s.exe[n] = '\0';
    signal(SIGPIPE, SIG_IGN);
    hms_lsp_reader rd = {0};
    int exit_code = 1; /* the client went away without shutdown/exit */
    bool running = true, input_open = true;
    while (running && input_open) {
        struct pollfd fds[1 + 256];
        lsp_doc *owner[1 + 256];
        nfds_t nf = 0;
        fds[nf++] = (struct pollfd){STDIN_FILENO, POLLIN, 0};
        double next_due = 0;
        for (size_t i = 0; i < s.ndocs; i++) {
            lsp_doc *d = s.docs[i];
            if (d->pid > 0 && nf < 1 + 256) {
                owner[nf] = d;
                fds[nf++] = (struct pollfd){d->fd, POLLIN, 0};
            }
            if (d->due > 0 && (next_due == 0 || d->due < next_due))
                next_due = d->due;
        }
        int timeout = -1;
        if (next_due > 0) {
            double wait = next_due - now_s();
            timeout = wait <= 0 ? 0 : (int)(wait * 1000) + 1;
        }
        int r = poll(fds, nf, timeout);
        if (r < 0 && errno != EINTR)
            break;
        for (size_t i = 0; i < s.ndocs; i++) /* debounced runs now due */
            if (s.docs[i]->due > 0 && s.docs[i]->due <= now_s())
                start_run(&s, s.docs[i]);
        if (r <= 0)
            continue;
        for (nfds_t i = 1; i < nf; i++)
            if (fds[i].revents && owner[i]->pid > 0 && owner[i]->fd == fds[i].fd)
                read_run_output(owner[i]);
        if (fds[0].revents) {
            char buf[65536];
            ssize_t got = read(STDIN_FILENO, buf, sizeof buf);
            if (got < 0 && errno == EINTR)
                continue;
            if (got <= 0 || !hms_lsp_reader_feed(&rd, buf, (size_t)got)) {
                input_open = false;
                break;
            }
            char *body;
            hms_lsp_frame f;
            while (running && (f = hms_lsp_reader_next(&rd, &body)) != HMS_LSP_NEED_MORE) {
                if (f == HMS_LSP_BAD_HEADER) {
                    log_msg(HMS_DIAG_WARNING, NULL,
                            "malformed message header (no Content-Length): skipped");
                    reply_error(NULL, PARSE_ERROR,
                                "malformed message header: expected 'Content-Length: <n>'");
                    continue;
                }
                running = handle(&s, body, &exit_code);
                free(body);
            }
        }
    }
    if (!input_open && running)
        log_msg(s.shutdown ? HMS_DIAG_NOTE : HMS_DIAG_WARNING, NULL,
                "the client closed the connection%s", s.shutdown ? "" : " without 'exit'");
    for (size_t i = 0; i < s.ndocs; i++)
        free_doc(s.docs[i]);
    free(s.docs);
    free(s.db);
    free(s.arch);
    json_decref(s.extra);
    hms_lsp_reader_free(&rd);
    return exit_code;
}
