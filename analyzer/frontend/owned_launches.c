/* Launches of the kernels a translation unit owns (owned_launches.h). */
#include "analyzer/frontend/owned_launches.h"

#include <stdlib.h>
#include <string.h>

#include "analyzer/frontend/kernel_discovery.h"
#include "analyzer/frontend/launch_config.h"
#include "analyzer/frontend/launch_sites.h"

size_t hms_owned_kernel_launches(const hms_tu *t, size_t *nkernels)
{
    hms_kernel_set ks;
    hms_discover_kernels(t, &ks);
    if (nkernels)
        *nkernels = ks.n;
    size_t n = 0;
    if (ks.n) {
        hms_launch_sites sites;
        hms_find_launch_sites(t->tu, &sites);
        for (size_t i = 0; i < sites.n; i++) {
            const char *usr = sites.v[i].kernel_usr;
            bool mine = false;
            /* A launch site names the kernel as written (its template for an
             * instance). */
            for (size_t j = 0; usr && j < ks.n && !mine; j++) {
                CXString u = clang_getCursorUSR(ks.v[j].pattern);
                mine = clang_getCString(u) && !strcmp(clang_getCString(u), usr);
                clang_disposeString(u);
            }
            n += mine;
        }
        hms_launch_sites_free(&sites);
    }
    hms_kernel_set_free(&ks);
    return n;
}

bool hms_file_has_launch_annotation(const hms_tu *t)
{
    CXFile f = clang_getFile(t->tu, t->path);
    size_t len = 0;
    const char *text = f ? clang_getFileContents(t->tu, f, &len) : NULL;
    if (!text)
        return false;
    hms_annotations notes;
    hms_scan_annotations(text, len, t->path, 0, &notes, NULL); /* warned about when built */
    bool launch = false;
    for (size_t i = 0; i < notes.n && !launch; i++)
        launch = notes.v[i].is_launch;
    hms_annotations_free(&notes);
    return launch;
}
