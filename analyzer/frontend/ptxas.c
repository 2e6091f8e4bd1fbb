#include "analyzer/frontend/ptxas.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

bool hms_ptxas_parse(const char *text, hms_ptxas_counts *out)
{
    *out = (hms_ptxas_counts){0};
    size_t cap = 0;
    char *cur = NULL; /* entry being compiled */
    for (const char *p = text; p && *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        const char *e = memmem(p, len, "Compiling entry function '", 26);
        if (e) {
            const char *s = e + 26, *q = memchr(s, '\'', len - (size_t)(s - p));
            free(cur);
            cur = q ? strndup(s, (size_t)(q - s)) : NULL;
        }
        const char *u = memmem(p, len, "Used ", 5);
        if (u && cur && memmem(p, len, " registers", 10)) {
            int regs = atoi(u + 5);
            if (out->n == cap) {
                size_t c = cap ? cap * 2 : 8;
                hms_ptxas_entry *w = realloc(out->v, c * sizeof *w);
                if (!w) {
                    free(cur);
                    return false;
                }
                out->v = w;
                cap = c;
            }
            out->v[out->n++] = (hms_ptxas_entry){cur, regs};
            cur = NULL;
        }
        p = nl ? nl + 1 : NULL;
    }
    free(cur);
    return true;
}

void hms_ptxas_free(hms_ptxas_counts *c)
{
    for (size_t i = 0; i < c->n; i++)
        free(c->v[i].mangled);
    free(c->v);
    *c = (hms_ptxas_counts){0};
}

/* <source-name> ::= <length> <identifier>; advances *p. */
static bool source_name(const char **p, const char **name, size_t *len)
{
    if (!isdigit((unsigned char)**p))
        return false;
    char *end;
    unsigned long n = strtoul(*p, &end, 10);
    if (strlen(end) < n)
        return false;
    *name = end;
    *len = n;
    *p = end + n;
    return true;
}

/* The unqualified name, and the integral template arguments in order
 * (L<type><value>E, 'n' for minus) with `types` set when any is not one. */
static bool demangle(const char *m, const char **name, size_t *len, long long *args, int *nargs,
                     bool *types)
{
    *nargs = 0;
    *types = false;
    if (strncmp(m, "_Z", 2) != 0)
        return false;
    const char *p = m + 2;
    if (*p == 'N') { /* nested: the last source name */
        p++;
        while (*p == 'K' || *p == 'V' || *p == 'r')
            p++;
        bool any = false;
        while (isdigit((unsigned char)*p)) {
            if (!source_name(&p, name, len))
                return false;
            any = true;
        }
        if (!any)
            return false;
    } else if (!source_name(&p, name, len)) {
        return false;
    }
    if (*p != 'I')
        return true;
    p++;
    while (*p && *p != 'E') {
        if (*p == 'L' && *nargs < 16) {
            p++;
            while (*p && isalpha((unsigned char)*p) && *p != 'n' && !isdigit((unsigned char)*p))
                p++; /* the type code, one letter for builtins */
            bool neg = *p == 'n';
            if (neg)
                p++;
            long long v = strtoll(p, (char **)&p, 10);
            args[(*nargs)++] = neg ? -v : v;
            if (*p != 'E')
                return false;
            p++;
        } else {
            *types = true;
            return true; /* a type argument: its grammar is not followed further */
        }
    }
    return true;
}

bool hms_ptxas_name_matches(const char *mangled, const char *name)
{
    const char *n;
    size_t len;
    long long args[16];
    int nargs;
    bool types;
    if (!demangle(mangled, &n, &len, args, &nargs, &types))
        return false;
    const char *lt = strchr(name, '<');
    const char *base = name;
    for (const char *q = name; *q && (!lt || q < lt); q++)
        if (q[0] == ':' && q[1] == ':')
            base = q + 2;
    size_t blen = lt ? (size_t)(lt - base) : strlen(base);
    if (blen != len || strncmp(base, n, len) != 0)
        return false;
    if (!lt)
        return nargs == 0 && !types;
    if (types)
        return true;
    const char *p = lt + 1;
    for (int i = 0; i < nargs; i++) {
        while (*p == ' ' || *p == '(' || isalpha((unsigned char)*p) || *p == ')')
            p++; /* "(int)128" */
        char *end;
        long long v = strtoll(p, &end, 0);
        if (end == p || v != args[i])
            return false;
        p = end;
        while (*p == 'u' || *p == 'U' || *p == 'l' || *p == 'L')
            p++;
        if (*p == ',')
            p++;
        while (*p == ' ')
            p++;
    }
    return *p == '>';
}

static const char *find_nvcc(char *buf, size_t len)
{
    const char *env = getenv("HMS_NVCC");
    if (env && *env)
        return access(env, X_OK) == 0 ? env : NULL;
    const char *path = getenv("PATH");
    while (path && *path) {
        const char *c = strchr(path, ':');
        size_t n = c ? (size_t)(c - path) : strlen(path);
        if (n > 0 && (size_t)snprintf(buf, len, "%.*s/nvcc", (int)n, path) < len &&
            access(buf, X_OK) == 0)
            return buf;
        path = c ? c + 1 : NULL;
    }
    return access("/usr/local/cuda/bin/nvcc", X_OK) == 0 ? "/usr/local/cuda/bin/nvcc" : NULL;
}

static bool wanted_flag(const char *s)
{
    return !strncmp(s, "-I", 2) || !strncmp(s, "-D", 2) || !strncmp(s, "-U", 2) ||
           !strncmp(s, "-std=", 5) || !strcmp(s, "-include");
}

/* Runs argv, returning its stdout and stderr together (malloc'd) and the
 * exit status; NULL when it could not be run. */
static char *run_capture(char *const *argv, int *status)
{
    int fd[2];
    if (pipe(fd) != 0)
        return NULL;
    pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]);
        close(fd[1]);
        return NULL;
    }
    if (pid == 0) {
        dup2(fd[1], 1);
        dup2(fd[1], 2);
        close(fd[0]);
        close(fd[1]);
        execv(argv[0], argv);
        _exit(127);
    }
    close(fd[1]);
    size_t n = 0, cap = 4096;
    char *buf = malloc(cap);
    ssize_t r;
    while (buf) {
        if (n + 1024 > cap) {
            char *w = realloc(buf, cap * 2);
            if (!w) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = w;
            cap *= 2;
        }
        r = read(fd[0], buf + n, cap - n - 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        n += (size_t)r;
    }
    close(fd[0]);
    while (waitpid(pid, status, 0) < 0 && errno == EINTR)
        ;
    if (buf)
        buf[n] = '\0';
    return buf;
}

size_t hms_ptxas_apply(const hms_frontend_options *o, const char *path, ir_kernel **kernels,
                       size_t nk, hms_diag_sink *diags)
{
    char aerr[256];
    const hms_arch *a = o->arch ? o->arch : hms_arch_get(HMS_ARCH_DEFAULT, aerr, sizeof aerr);
    if (!a)
        return 0;
    char nvcc_buf[4096];
    const char *nvcc = find_nvcc(nvcc_buf, sizeof nvcc_buf);
    if (!nvcc) {
        hms_diagf(diags, (hms_diag_head){HMS_DIAG_WARNING, path, 0, 0, NULL, NULL},
                  "--ptxas: nvcc not found (PATH, /usr/local/cuda/bin or $HMS_NVCC); registers "
                  "per thread are estimated from the IR");
        return 0;
    }
    char archopt[32];
    snprintf(archopt, sizeof archopt, "-arch=%s", a->sm);
    size_t na = 0, cap = o->compiler_args.n + 12;
    char **argv = calloc(cap, sizeof *argv);
    if (!argv)
        return 0;
    argv[na++] = (char *)nvcc;
    argv[na++] = archopt;
    argv[na++] = "--resource-usage";
    argv[na++] = "-c";
    argv[na++] = "-o";
    argv[na++] = "/dev/null";
    for (size_t i = 0; i < o->compiler_args.n; i++) {
        const char *s = o->compiler_args.v[i];
        if (!wanted_flag(s))
            continue;
        argv[na++] = (char *)s;
        /* "-I dir", "-include file": the separate argument follows */
        if ((!strcmp(s, "-I") || !strcmp(s, "-D") || !strcmp(s, "-U") || !strcmp(s, "-include")) &&
            i + 1 < o->compiler_args.n)
            argv[na++] = (char *)o->compiler_args.v[++i];
    }
    argv[na++] = (char *)path;
    argv[na] = NULL;
    int status = 0;
    char *out = run_capture(argv, &status);
    free(argv);
    if (!out || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        const char *line = out ? out : "";
        while (*line == '\n')
            line++;
        hms_diagf(diags, (hms_diag_head){HMS_DIAG_WARNING, path, 0, 0, NULL, NULL},
                  "--ptxas: nvcc -arch=%s failed (%s%.*s); registers per thread are estimated "
                  "from the IR",
                  a->sm, out ? "" : "could not run", out ? (int)strcspn(line, "\n") : 0, line);
        free(out);
        return 0;
    }
    hms_ptxas_counts c;
    bool ok = hms_ptxas_parse(out, &c);
    free(out);
    if (!ok)
        return 0;
    size_t set = 0;
    for (size_t i = 0; i < nk; i++)
        for (size_t j = 0; j < c.n; j++)
            if (kernels[i]->name && hms_ptxas_name_matches(c.v[j].mangled, kernels[i]->name) &&
                c.v[j].regs > 0) {
                kernels[i]->regs_per_thread = c.v[j].regs;
                set++;
                break;
            }
    hms_ptxas_free(&c);
    return set;
}
