/* --arch: resolve the option to an architecture description, for every
 * command that needs one. */
#ifndef HMS_ANALYZER_ARCH_SELECT_H
#define HMS_ANALYZER_ARCH_SELECT_H

#include "analyzer/cli/options.h"
#include "analyzer/report/diag_sink.h"
#include "runtime/arch.h"

/* The architecture --arch names (a built-in name, sm_XX alias, or YAML file;
 * HMS_ARCH_DEFAULT when not given); on failure NULL and why (may be NULL). */
const hms_arch *hms_find_arch(const hms_options *o, hms_file_error *why);

/* Same, a failure recorded in said (the command's diagnostic sink):
 * "<file>:<line>: error: <field>: <reason>" for a bad file,
 * "hms-lint: error: <arg>: <reason>" for an unknown name; the caller exits
 * with status 2. */
const hms_arch *hms_resolve_arch(const hms_options *o, hms_diag_sink *said);

/* For commands that only parse (--list-kernels, --dump-ir): the architecture
 * --arch names, quietly the default one when it does not resolve. */
const hms_arch *hms_arch_or_default(const hms_options *o);

#endif
