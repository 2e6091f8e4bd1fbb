/* GitHub code scanning's documented rules for an uploaded SARIF file
 * ("SARIF support for code scanning", docs.github.com), written as a check:
 * what GitHub requires to ingest and place a result, what it recommends
 * for showing and tracking alerts, and its upload limits. */
#ifndef HMS_TEST_GITHUB_SARIF_H
#define HMS_TEST_GITHUB_SARIF_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* True when `doc` follows every rule; else false with the first broken one
 * ("runs[0].results[2]: no partialFingerprints") in err. */
bool hms_github_sarif_check(json_t *doc, char *err, size_t errlen);

#endif
