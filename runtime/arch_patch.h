/* Writing architecture files: a measured or fitted value replaces the value
 * of its key in an existing description (a built-in or the user's file), so
 * that every other value keeps its comment and its source. Used by
 * `hms-lint calibrate` and hms-probe. */
#ifndef HMS_RUNTIME_ARCH_PATCH_H
#define HMS_RUNTIME_ARCH_PATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "runtime/arch.h"

typedef struct {
    const char *path;  /* "coefficients.hsm.c1", as in docs/architectures.md */
    char value[96];    /* YAML text of the new value */
    char comment[160]; /* replaces the line's comment; "" = none */
} hms_yaml_edit;

/* The YAML text `a` was loaded from: the embedded file of a built-in, or the
 * file it was read from. Returns a malloc'd NUL-terminated copy, or NULL with
 * a reason in err. */
char *hms_arch_yaml_text(const hms_arch *a, char *err, size_t errlen);

/* Applies the edits to `yaml` (each key must hold a scalar or a [flow list];
 * a key its section lacks is added as the section's last line),
 * puts `header` (comment lines) on top and `trailer` (new top-level keys,
 * such as a probe: section) at the end; either may be NULL. The result is
 * parsed again as a check; returns it malloc'd, or NULL with "origin:
 * reason" in err (an unknown key, a value the schema rejects). */
char *hms_arch_patch(const char *yaml, const char *origin, const char *header, const char *trailer,
                     const hms_yaml_edit *edits, size_t nedits, char *err, size_t errlen);

#endif
