/* Draft-04 JSON Schema subset (see json_schema.h). */
#include "testsuite/support/json_schema.h"

#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

typedef struct {
    json_t *root;
    char *err;
    size_t errlen;
    int depth;
} ctx;

static bool fail(ctx *c, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static bool fail(ctx *c, const char *path, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(c->err, c->errlen, "%s: %s", *path ? path : "/", msg);
    return false;
}

/* "#/definitions/a~1b" -> the node, unescaping ~1 and ~0 (RFC 6901). */
static json_t *resolve_ref(json_t *root, const char *ref)
{
    if (strncmp(ref, "#", 1) != 0)
        return NULL;
    const char *p = ref + 1;
    json_t *node = root;
    while (*p == '/' && node) {
        p++;
        char tok[256];
        size_t n = 0;
        while (*p && *p != '/' && n + 1 < sizeof tok) {
            if (p[0] == '~' && p[1] == '1') {
                tok[n++] = '/';
                p += 2;
            } else if (p[0] == '~' && p[1] == '0') {
                tok[n++] = '~';
                p += 2;
            } else {
                tok[n++] = *p++;
            }
        }
        tok[n] = '\0';
        node = json_is_array(node) ? json_array_get(node, (size_t)atol(tok))
                                   : json_object_get(node, tok);
    }
    return *p ? NULL : node;
}

static bool type_matches(const char *type, json_t *v)
{
    if (!strcmp(type, "object"))
        return json_is_object(v);
    if (!strcmp(type, "array"))
        return json_is_array(v);
    if (!strcmp(type, "string"))
        return json_is_string(v);
    if (!strcmp(type, "boolean"))
        return json_is_boolean(v);
    if (!strcmp(type, "null"))
        return json_is_null(v);
    if (!strcmp(type, "number"))
        return json_is_number(v);
    if (!strcmp(type, "integer"))
        return json_is_integer(v) ||
               (json_is_real(v) && json_real_value(v) == floor(json_real_value(v)));
    return false;
}

static const char *type_name(json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT:
        return "object";
    case JSON_ARRAY:
        return "array";
    case JSON_STRING:
        return "string";
    case JSON_INTEGER:
        return "integer";
    case JSON_REAL:
        return "number";
    case JSON_TRUE:
    case JSON_FALSE:
        return "boolean";
    default:
        return "null";
    }
}

static bool validate(ctx *c, json_t *schema, json_t *v, const char *path);

static void child_path(char *out, size_t len, const char *path, const char *key)
{
    snprintf(out, len, "%s/%s", path, key);
}

static bool check_type(ctx *c, json_t *t, json_t *v, const char *path)
{
    if (json_is_string(t)) {
        if (!type_matches(json_string_value(t), v))
            return fail(c, path, "expected %s, got %s", json_string_value(t), type_name(v));
        return true;
    }
    size_t i;
    json_t *x;
    json_array_foreach(t, i, x) if (json_is_string(x) &&
                                    type_matches(json_string_value(x), v)) return true;
    return fail(c, path, "value of type %s is not one of the allowed types", type_name(v));
}

static bool check_object(ctx *c, json_t *s, json_t *v, const char *path)
{
    json_t *req = json_object_get(s, "required");
    size_t i;
    json_t *x;
    json_array_foreach(req, i, x)
    {
        if (json_is_string(x) && !json_object_get(v, json_string_value(x)))
            return fail(c, path, "missing required property \"%s\"", json_string_value(x));
    }
    json_t *props = json_object_get(s, "properties");
    json_t *pattern_props = json_object_get(s, "patternProperties");
    json_t *additional = json_object_get(s, "additionalProperties");
    const char *key;
    json_t *val;
    json_object_foreach(v, key, val)
    {
        char cp[1024];
        child_path(cp, sizeof cp, path, key);
        bool known = false;
        json_t *ps = json_object_get(props, key);
        if (ps) {
            known = true;
            if (!validate(c, ps, val, cp))
                return false;
        }
        const char *pat;
        json_t *psch;
        json_object_foreach(pattern_props, pat, psch)
        {
            regex_t re;
            if (regcomp(&re, pat, REG_EXTENDED | REG_NOSUB) != 0)
                return fail(c, path, "schema pattern '%s' does not compile", pat);
            bool m = regexec(&re, key, 0, NULL, 0) == 0;
            regfree(&re);
            if (m) {
                known = true;
                if (!validate(c, psch, val, cp))
                    return false;
            }
        }
        if (!known && additional) {
            if (json_is_false(additional))
                return fail(c, path, "property \"%s\" is not allowed", key);
            if (json_is_object(additional) && !validate(c, additional, val, cp))
                return false;
        }
    }
    return true;
}

static bool check_array(ctx *c, json_t *s, json_t *v, const char *path)
{
    size_t n = json_array_size(v);
    json_t *mi = json_object_get(s, "minItems");
    json_t *ma = json_object_get(s, "maxItems");
    if (json_is_integer(mi) && (json_int_t)n < json_integer_value(mi))
        return fail(c, path, "%zu items, fewer than minItems %lld", n,
                    (long long)json_integer_value(mi));
    if (json_is_integer(ma) && (json_int_t)n > json_integer_value(ma))
        return fail(c, path, "%zu items, more than maxItems %lld", n,
                    (long long)json_integer_value(ma));
    if (json_is_true(json_object_get(s, "uniqueItems")))
        for (size_t i = 0; i < n; i++)
            for (size_t j = i + 1; j < n; j++)
                if (json_equal(json_array_get(v, i), json_array_get(v, j)))
                    return fail(c, path, "items %zu and %zu are equal (uniqueItems)", i, j);
    json_t *items = json_object_get(s, "items");
    for (size_t i = 0; items && i < n; i++) {
        json_t *is = json_is_array(items) ? json_array_get(items, i) : items;
        if (!is)
            break; /* past a tuple: additionalItems, not used by our schemas */
        char idx[32], cp[1024];
        snprintf(idx, sizeof idx, "%zu", i);
        child_path(cp, sizeof cp, path, idx);
        if (!validate(c, is, json_array_get(v, i), cp))
            return false;
    }
    return true;
}

static bool check_number(ctx *c, json_t *s, json_t *v, const char *path)
{
    double x = json_number_value(v);
    json_t *mn = json_object_get(s, "minimum");
    json_t *mx = json_object_get(s, "maximum");
    bool excl_min = json_is_true(json_object_get(s, "exclusiveMinimum"));
    bool excl_max = json_is_true(json_object_get(s, "exclusiveMaximum"));
    if (json_is_number(mn) && (excl_min ? x <= json_number_value(mn) : x < json_number_value(mn)))
        return fail(c, path, "%g is below the minimum %g", x, json_number_value(mn));
    if (json_is_number(mx) && (excl_max ? x >= json_number_value(mx) : x > json_number_value(mx)))
        return fail(c, path, "%g is above the maximum %g", x, json_number_value(mx));
    return true;
}

static size_t utf8_length(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

static bool check_string(ctx *c, json_t *s, json_t *v, const char *path)
{
    const char *str = json_string_value(v);
    size_t len = utf8_length(str);
    json_t *mn = json_object_get(s, "minLength");
    json_t *mx = json_object_get(s, "maxLength");
    if (json_is_integer(mn) && (json_int_t)len < json_integer_value(mn))
        return fail(c, path, "string shorter than minLength");
    if (json_is_integer(mx) && (json_int_t)len > json_integer_value(mx))
        return fail(c, path, "string longer than maxLength");
    const char *pat = json_string_value(json_object_get(s, "pattern"));
    if (pat) {
        regex_t re;
        if (regcomp(&re, pat, REG_EXTENDED | REG_NOSUB) != 0)
            return fail(c, path, "schema pattern '%s' does not compile", pat);
        bool m = regexec(&re, str, 0, NULL, 0) == 0;
        regfree(&re);
        if (!m)
            return fail(c, path, "\"%s\" does not match the pattern %s", str, pat);
    }
    return true;
}

static bool check_combinators(ctx *c, json_t *s, json_t *v, const char *path)
{
    size_t i;
    json_t *sub;
    char saved[1024];
    json_t *all = json_object_get(s, "allOf");
    json_array_foreach(all, i, sub) if (!validate(c, sub, v, path)) return false;

    json_t *any = json_object_get(s, "anyOf");
    if (json_is_array(any)) {
        bool hit = false;
        json_array_foreach(any, i, sub) if (!hit && validate(c, sub, v, path)) hit = true;
        if (!hit)
            return fail(c, path, "matches none of the anyOf alternatives");
    }
    json_t *one = json_object_get(s, "oneOf");
    if (json_is_array(one)) {
        size_t hits = 0;
        json_array_foreach(one, i, sub) if (validate(c, sub, v, path)) hits++;
        if (hits != 1)
            return fail(c, path, "matches %zu of the oneOf alternatives, not exactly 1", hits);
    }
    json_t *not = json_object_get(s, "not");
    if (json_is_object(not )) {
        snprintf(saved, sizeof saved, "%s", c->err);
        if (validate(c, not, v, path))
            return fail(c, path, "matches a schema it must not (not)");
        snprintf(c->err, c->errlen, "%s", saved);
    }
    return true;
}

static bool validate(ctx *c, json_t *s, json_t *v, const char *path)
{
    if (json_is_true(s) || (json_is_object(s) && json_object_size(s) == 0))
        return true;
    if (!json_is_object(s))
        return fail(c, path, "schema is not an object");
    if (++c->depth > 200) {
        c->depth--;
        return fail(c, path, "schema nesting too deep (a $ref cycle?)");
    }
    bool ok = true;
    json_t *ref = json_object_get(s, "$ref");
    if (json_is_string(ref)) {
        /* draft-04: a $ref replaces the schema it sits in. */
        json_t *target = resolve_ref(c->root, json_string_value(ref));
        ok = target ? validate(c, target, v, path)
                    : fail(c, path, "unresolvable $ref %s", json_string_value(ref));
        c->depth--;
        return ok;
    }
    json_t *t = json_object_get(s, "type");
    if (t && !check_type(c, t, v, path))
        ok = false;
    json_t *en = json_object_get(s, "enum");
    if (ok && json_is_array(en)) {
        bool hit = false;
        size_t i;
        json_t *x;
        json_array_foreach(en, i, x) if (json_equal(x, v)) hit = true;
        if (!hit)
            ok = fail(c, path, "value is not one of the enum values");
    }
    json_t *cn = json_object_get(s, "const");
    if (ok && cn && !json_equal(cn, v))
        ok = fail(c, path, "value differs from const");
    if (ok && json_is_object(v))
        ok = check_object(c, s, v, path);
    if (ok && json_is_array(v))
        ok = check_array(c, s, v, path);
    if (ok && json_is_number(v))
        ok = check_number(c, s, v, path);
    if (ok && json_is_string(v))
        ok = check_string(c, s, v, path);
    if (ok)
        ok = check_combinators(c, s, v, path);
    c->depth--;
    return ok;
}

bool hms_json_schema_validate(json_t *schema, json_t *instance, char *err, size_t errlen)
{
    ctx c = {schema, err, errlen, 0};
    bool ok = validate(&c, schema, instance, "");
    if (ok && errlen)
        err[0] = '\0'; /* failed anyOf branches may have left a message */
    return ok;
}
