/* A small JSON Schema (draft-04) validator for the tests: enough of the
 * vocabulary for the SARIF 2.1.0 schema — type, enum, const, required,
 * properties, additionalProperties, patternProperties, items (schema or
 * tuple), minItems, maxItems, uniqueItems, minimum, maximum (with draft-04
 * exclusive flags), minLength, maxLength, pattern (POSIX ERE), anyOf, oneOf,
 * allOf, not, and $ref to "#" or "#/definitions/...". "format" and
 * "default" are annotations and not checked. Unknown keywords are ignored. */
#ifndef HMS_TEST_JSON_SCHEMA_H
#define HMS_TEST_JSON_SCHEMA_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* Validates `instance` against `schema` (which is also the document $refs
 * resolve in). On failure returns false and writes the first problem as
 * "<JSON pointer of the instance>: <reason>" into err. */
bool hms_json_schema_validate(json_t *schema, json_t *instance, char *err, size_t errlen);

#endif
