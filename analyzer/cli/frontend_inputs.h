/* The front end's inputs (frontend_options.h) taken from the command line. */
#ifndef HMS_ANALYZER_FRONTEND_INPUTS_H
#define HMS_ANALYZER_FRONTEND_INPUTS_H

#include "analyzer/cli/options.h"
#include "analyzer/frontend/frontend_options.h"

/* Views into o (valid while o is); arch as the command resolved it (may be NULL). */
hms_frontend_options hms_frontend_inputs(const hms_options *o, const hms_arch *arch);

#endif
