/* Spaced launch chevrons: `kernel<< <grid, block >> >(args)`, as Visual
 * Studio's formatter writes them (Rodinia's particlefilter), are accepted by
 * nvcc but are a syntax error for clang. They are joined in the text given
 * to clang, never on disk. */
#ifndef HMS_LAUNCH_CHEVRONS_H
#define HMS_LAUNCH_CHEVRONS_H

#include <stdbool.h>
#include <stddef.h>

/* Rewrites each `<<` + blanks + `<` outside comments and literals (and not
 * after `operator`) to `<<<` + blanks, and the `>>` + blanks + `>` that
 * closes it to `>>>` + blanks: same length, so every offset and every line
 * stays where it was. True when something changed. */
bool hms_join_spaced_chevrons(char *text, size_t len);

#endif
