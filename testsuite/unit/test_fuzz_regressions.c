/* Every input the fuzzers once broke (fuzz/regressions/source, kept by
 * scripts/fuzz.sh) goes through the real binary: it ends with a verdict
 * (exit 0, 1 or 2), never an internal error. Under the sanitizer build this
 * is where a fixed sanitizer report would come back. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <string.h>

#include "testsuite/support/run.h"

Test(fuzz_regressions, every_kept_input_ends_with_a_verdict)
{
    const char *dir = HMS_SOURCE_DIR "/fuzz/regressions/source";
    DIR *d = opendir(dir);
    cr_assert(d, "cannot open %s", dir);
    struct dirent *e;
    int n = 0;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        hms_run_result r = hms_run((const char *[]){"--format=json", path, NULL});
        cr_assert(r.status == 0 || r.status == 1 || r.status == 2, "%s: exit %d: %s", path,
                  r.status, r.err);
        cr_assert(!strstr(r.err, "internal error") && !strstr(r.err, "runtime error") &&
                      !strstr(r.err, "Sanitizer"),
                  "%s: %s", path, r.err);
        hms_run_free(&r);
        n++;
    }
    closedir(d);
    cr_assert_gt(n, 0, "no regression inputs under %s", dir);
}
