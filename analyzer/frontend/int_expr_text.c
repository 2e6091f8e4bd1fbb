/* A recursive-descent evaluator for integer constant expressions in text
 * (int_expr_text.h). Precedence follows C++: one function per level. */
#include "analyzer/frontend/int_expr_text.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *p;
    bool ok;
} cursor;

static long long ternary(cursor *c);

static void blanks(cursor *c)
{
    while (isspace((unsigned char)*c->p))
        c->p++;
}

/* Consumes op when it comes next and is not the start of a longer operator
 * whose next character `longer` lists ("<" does not take half of "<<"). */
static bool take(cursor *c, const char *op, const char *longer)
{
    blanks(c);
    size_t n = strlen(op);
    if (strncmp(c->p, op, n) != 0)
        return false;
    if (longer && c->p[n] && strchr(longer, c->p[n]))
        return false;
    c->p += n;
    return true;
}

static long long fail(cursor *c)
{
    c->ok = false;
    return 0;
}

static bool word(cursor *c, const char *w)
{
    size_t n = strlen(w);
    if (strncmp(c->p, w, n) != 0 || isalnum((unsigned char)c->p[n]) || c->p[n] == '_')
        return false;
    c->p += n;
    return true;
}

static long long primary(cursor *c)
{
    blanks(c);
    if (take(c, "(", NULL)) {
        long long v = ternary(c);
        return take(c, ")", NULL) ? v : fail(c);
    }
    if (word(c, "true"))
        return 1;
    if (word(c, "false"))
        return 0;
    if (!isdigit((unsigned char)*c->p))
        return fail(c);
    char *end = NULL;
    unsigned long long v = strtoull(c->p, &end, 0);
    if (end == c->p || v > (unsigned long long)__LONG_LONG_MAX__)
        return fail(c);
    while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L')
        end++;
    if (isalnum((unsigned char)*end) || *end == '_' || *end == '.')
        return fail(c); /* a floating literal or an identifier */
    c->p = end;
    return (long long)v;
}

static long long unary(cursor *c)
{
    long long v, r;
    if (take(c, "-", "-=")) {
        v = unary(c);
        return __builtin_sub_overflow(0LL, v, &r) ? fail(c) : r;
    }
    if (take(c, "+", "+="))
        return unary(c);
    if (take(c, "~", NULL))
        return ~unary(c);
    if (take(c, "!", "="))
        return !unary(c);
    return primary(c);
}

static long long multiplicative(cursor *c)
{
    long long v = unary(c), r;
    for (;;) {
        if (take(c, "*", "=")) {
            long long w = unary(c);
            v = __builtin_mul_overflow(v, w, &r) ? fail(c) : r;
        } else if (take(c, "/", "=") || take(c, "%", "=")) {
            bool div = c->p[-1] == '/';
            long long w = unary(c);
            if (w == 0 || (w == -1 && v == -__LONG_LONG_MAX__ - 1))
                return fail(c);
            v = div ? v / w : v % w;
        } else
            return v;
    }
}

static long long additive(cursor *c)
{
    long long v = multiplicative(c), r;
    for (;;) {
        if (take(c, "+", "+=")) {
            long long w = multiplicative(c);
            v = __builtin_add_overflow(v, w, &r) ? fail(c) : r;
        } else if (take(c, "-", "-=")) {
            long long w = multiplicative(c);
            v = __builtin_sub_overflow(v, w, &r) ? fail(c) : r;
        } else
            return v;
    }
}

static long long shift(cursor *c)
{
    long long v = additive(c);
    for (;;) {
        bool left = take(c, "<<", "="), right = !left && take(c, ">>", "=");
        if (!left && !right)
            return v;
        long long w = additive(c);
        if (w < 0 || w > 62 || v < 0)
            return fail(c);
        if (left && v > (__LONG_LONG_MAX__ >> w))
            return fail(c);
        v = left ? v << w : v >> w;
    }
}

static long long relational(cursor *c)
{
    long long v = shift(c);
    for (;;) {
        if (take(c, "<=", NULL))
            v = v <= shift(c);
        else if (take(c, ">=", NULL))
            v = v >= shift(c);
        else if (take(c, "<", "<="))
            v = v < shift(c);
        else if (take(c, ">", ">="))
            v = v > shift(c);
        else
            return v;
    }
}

static long long equality(cursor *c)
{
    long long v = relational(c);
    for (;;) {
        if (take(c, "==", NULL))
            v = v == relational(c);
        else if (take(c, "!=", NULL))
            v = v != relational(c);
        else
            return v;
    }
}

static long long bit_and(cursor *c)
{
    long long v = equality(c);
    while (take(c, "&", "&="))
        v &= equality(c);
    return v;
}

static long long bit_xor(cursor *c)
{
    long long v = bit_and(c);
    while (take(c, "^", "="))
        v ^= bit_and(c);
    return v;
}

static long long bit_or(cursor *c)
{
    long long v = bit_xor(c);
    while (take(c, "|", "|="))
        v |= bit_xor(c);
    return v;
}

static long long logical_and(cursor *c)
{
    long long v = bit_or(c);
    while (take(c, "&&", NULL)) {
        long long w = bit_or(c);
        v = v && w;
    }
    return v;
}

static long long logical_or(cursor *c)
{
    long long v = logical_and(c);
    while (take(c, "||", NULL)) {
        long long w = logical_and(c);
        v = v || w;
    }
    return v;
}

static long long ternary(cursor *c)
{
    long long v = logical_or(c);
    if (!take(c, "?", NULL))
        return v;
    long long a = ternary(c);
    if (!take(c, ":", NULL))
        return fail(c);
    long long b = ternary(c);
    return v ? a : b;
}

bool hms_int_expr_text(const char *text, long long *out)
{
    cursor c = {text, true};
    long long v = ternary(&c);
    blanks(&c);
    if (!c.ok || *c.p)
        return false;
    *out = v;
    return true;
}
