/* SPDX-License-Identifier: Zlib */
/*
 * The kind of a JSON value for messages (json_kind.h): the one place its words are written.
 */
#include "json_kind.h"

const char *ear__json_kind(const json_t *v) {
    if (!v) return "null";
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER:
    case JSON_REAL: return "a number";
    case JSON_TRUE: return "true";
    case JSON_FALSE: return "false";
    case JSON_NULL: break;
    }
    return "null";
}
