/* The YAML architecture files compiled into the binary (generated table). */
#ifndef HMS_RUNTIME_ARCH_EMBEDDED_H
#define HMS_RUNTIME_ARCH_EMBEDDED_H

struct hms_embedded_arch {
    const char *stem; /* file name without .yaml */
    const char *yaml; /* NUL-terminated contents */
};

extern const struct hms_embedded_arch hms_embedded_arches[]; /* ends with {0, 0} */

#endif
