/* The L1 a kernel gets beside its shared carve-out (runtime/l1_carveout.h),
 * and which overlap model an architecture file selects (Hong & Kim's cases
 * unless the file says otherwise or fits eq. 11's coefficients). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/arch.h"
#include "runtime/arch_patch.h"
#include "runtime/l1_carveout.h"

static const hms_arch *builtin(const char *name)
{
    char err[256];
    const hms_arch *a = hms_arch_get(name, err, sizeof err);
    cr_assert(a, "%s", err);
    return a;
}

#define KB 1024u

/* H100: 256 KB of L1 and shared memory per SM, 28 KB of L1 beside the
 * largest (228 KB) carve-out. */
Test(l1_carveout, h100_l1_is_what_the_carveout_leaves)
{
    const hms_arch *a = builtin("h100");
    cr_assert_eq(a->l1_unified_bytes, 256 * KB);
    cr_assert_eq(hms_l1_bytes_for_shared(a, 0), 256 * KB);
    cr_assert_eq(hms_l1_bytes_for_shared(a, -5), 256 * KB);
    /* 1 byte to 8 KB take the 8 KB step; 8 KB + 1 the next */
    cr_assert_eq(hms_l1_bytes_for_shared(a, 1), 248 * KB);
    cr_assert_eq(hms_l1_bytes_for_shared(a, 8 * KB), 248 * KB);
    cr_assert_eq(hms_l1_bytes_for_shared(a, 8 * KB + 1), 240 * KB);
    /* the largest carve-out and beyond: never less than the file's L1 */
    cr_assert_eq(hms_l1_bytes_for_shared(a, 228 * KB), 28 * KB);
    cr_assert_eq(hms_l1_bytes_for_shared(a, 1000 * KB), 28 * KB);

    hms_arch b;
    cr_assert(hms_arch_with_carveout(a, 32 * KB, &b));
    cr_assert_eq(b.l1.size_bytes, 224 * KB);
    cr_assert_eq(b.l1.ways, a->l1.ways);
    cr_assert_eq(b.l1.line_bytes, a->l1.line_bytes);
    cr_assert_str_eq(b.name, a->name);
    /* nothing to change: a plain copy, false */
    cr_assert_not(hms_arch_with_carveout(a, 228 * KB, &b));
    cr_assert_eq(b.l1.size_bytes, a->l1.size_bytes);
}

/* Fermi and Kepler split 64 KB by a cache preference, not a carve-out the
 * model knows: no unified size, the file's L1 always. */
Test(l1_carveout, no_unified_array_keeps_the_l1)
{
    const char *names[] = {"gt200", "fermi", "kepler", "maxwell"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        const hms_arch *a = builtin(names[i]);
        cr_assert_eq(a->l1_unified_bytes, 0, "%s", names[i]);
        hms_arch b;
        cr_assert_not(hms_arch_with_carveout(a, 0, &b), "%s", names[i]);
        cr_assert_eq(b.l1.size_bytes, a->l1.size_bytes, "%s", names[i]);
    }
}

/* The built-in file's text with its overlap section's `default:` line
 * replaced by `def` plus `line` (each may be empty), parsed. */
static void parse_edited(const char *arch, const char *def, const char *line, hms_arch *out)
{
    char err[256];
    char *yaml = hms_arch_yaml_text(builtin(arch), err, sizeof err);
    cr_assert(yaml, "%s", err);
    const char *ov = strstr(yaml, "\n  overlap:");
    cr_assert(ov);
    const char *d = strstr(ov, "\n    default:");
    cr_assert(d);
    const char *eol = strchr(d + 1, '\n');
    cr_assert(eol);
    size_t n = strlen(yaml) + strlen(def) + strlen(line) + 8;
    char *text = malloc(n);
    cr_assert(text);
    snprintf(text, n, "%.*s\n%s\n%s%s", (int)(d - yaml), yaml, def, line, eol);
    bool ok = hms_arch_parse(text, strlen(text), "<edited>", out, err, sizeof err);
    cr_assert(ok, "%s", err);
    free(text);
    free(yaml);
}

Test(l1_carveout, overlap_model_from_the_file)
{
    /* every built-in ships unfitted coefficients: Hong & Kim's cases */
    const char *names[] = {"gt200", "fermi", "kepler", "maxwell", "v100", "a100", "h100"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        cr_assert(builtin(names[i])->overlap_hong_kim, "%s", names[i]);
    hms_arch a;
    /* eq. 11 explicitly */
    parse_edited("h100", "    default: true", "    hong_kim: false", &a);
    cr_assert_not(a.overlap_hong_kim);
    parse_edited("h100", "    default: true", "    hong_kim: true", &a);
    cr_assert(a.overlap_hong_kim);
    /* fitted coefficients and no key: the equation they were fitted to */
    parse_edited("h100", "    default: false", "", &a);
    cr_assert_not(a.overlap_coeffs_default);
    cr_assert_not(a.overlap_hong_kim);
}
