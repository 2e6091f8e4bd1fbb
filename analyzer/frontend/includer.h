/* Files meant to be #included by another file: Rodinia's srad_v1 kernels
 * (compress_kernel.cu, ...) use the type `fp` and NUMBER_THREADS that main.cu
 * defines before its `#include "compress_kernel.cu"`. Alone such a file has
 * "unknown type" / "undeclared identifier" errors and its kernels lose every
 * statement that uses them. As clangd does for a header without a compile
 * command of its own, hms-lint then looks for a file that includes it and
 * parses that file's translation unit instead, reporting only this file's
 * kernels and diagnostics (parse.h: hms_tu.includer). */
#ifndef HMS_ANALYZER_INCLUDER_H
#define HMS_ANALYZER_INCLUDER_H

#include <clang-c/Index.h>
#include <stdbool.h>
#include <stddef.h>

/* Most candidate includers returned, and parsed at most. */
#define HMS_MAX_INCLUDERS 3

/* Errors in file f of the kind a missing context causes ("unknown type
 * name", "use of undeclared identifier") inside kernels and __device__
 * functions (host code is not analysed: what it lacks does not matter). */
unsigned hms_context_errors(CXTranslationUnit tu, CXFile f);

/* Source files (.cu .cpp .cc .cxx .c) whose text #includes a file named
 * like path (the include's last component equal to path's file name),
 * closest first: path's own folder, then its parent's and grandparent's
 * trees (a few levels deep, a bounded number of files read), then the CUDA
 * sources of <build_dir>/compile_commands.json when build_dir is given.
 * Writes at most HMS_MAX_INCLUDERS malloc'd paths to out; returns how many.
 * Only a textual scan: the parse decides whether one really includes it. */
size_t hms_find_includers(const char *path, const char *build_dir, char **out);

#endif
