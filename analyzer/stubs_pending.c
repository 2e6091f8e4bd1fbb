/* Temporary: commands whose modules are being written. Each file that
 * implements one of these removes it from here. */
#include <stdio.h>

#include "analyzer/commands.h"

