/*
 * A validator for the subset of JSON Schema the command schemas use: type (a name or a
 * list), properties, required, enum (of strings), minimum/maximum, minLength/maxLength,
 * items, minItems/maxItems, additionalProperties (false or a schema) and oneOf. Keywords it
 * does not know (title, description) are ignored, as JSON Schema says.
 *
 * The first violation found is the answer: an E_BAD_PARAM error whose "where" is the JSON
 * path of the value at fault ("params.position[1]") and whose "expected" says what would
 * have been right. Recursion follows the schema, not the value, so a deeply nested value
 * costs no deeper stack than its schema.
 */
#include "commands_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

typedef char json_path[256];

/* Where a value sits, as a chain from the root: built on the stack as the check descends
 * and written out as text only when an error needs it (the common case, a value that
 * conforms, formats nothing). */
typedef struct seg {
    const struct seg *parent;
    const char *key; /* NULL: an array index */
    size_t index;
} seg;

static void render(const seg *s, char *out, size_t cap) {
    if (!s) {
        out[0] = '\0';
        return;
    }
    render(s->parent, out, cap);
    size_t used = strlen(out);
    if (used >= cap - 1) return;
    if (!s->parent)
        snprintf(out + used, cap - used, "%s", s->key);
    else if (s->key)
        snprintf(out + used, cap - used, ".%s", s->key);
    else
        snprintf(out + used, cap - used, "[%zu]", s->index);
}

static const char *type_of(const json_t *v) {
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "object";
    case JSON_ARRAY: return "array";
    case JSON_STRING: return "string";
    case JSON_INTEGER: return "integer";
    case JSON_REAL: return "number";
    case JSON_TRUE:
    case JSON_FALSE: return "boolean";
    case JSON_NULL: return "null";
    }
    return "?";
}

static bool is_type(const json_t *v, const char *type) {
    if (strcmp(type, "number") == 0) return json_is_number(v);
    if (strcmp(type, "integer") == 0) {
        if (json_is_integer(v)) return true;
        /* 3.0 is an integer in JSON Schema. */
        if (!json_is_real(v)) return false;
        double d = json_real_value(v);
        return isfinite(d) && d == floor(d) && fabs(d) < 9007199254740992.0;
    }
    return strcmp(type_of(v), type) == 0;
}

static json_t *bad(const seg *at, const char *expected, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static json_t *bad(const seg *at, const char *expected, const char *format, ...) {
    json_path path;
    render(at, path, sizeof path);
    char message[400];
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof message, format, args);
    va_end(args);
    json_t *e = ear_command_error("E_BAD_PARAM", path, "%s: %s", path, message);
    if (e) json_object_set_new(e, "expected", json_string(expected));
    return e;
}

static json_t *check(const json_t *schema, const json_t *value, const seg *path);

static json_t *check_type(const json_t *schema, const json_t *value, const seg *path) {
    const json_t *type = json_object_get(schema, "type");
    if (!type) return NULL;
    char expected[128] = "";
    if (json_is_string(type)) {
        if (is_type(value, json_string_value(type))) return NULL;
        snprintf(expected, sizeof expected, "%s", json_string_value(type));
    } else if (json_is_array(type)) {
        size_t i;
        const json_t *t;
        json_array_foreach(type, i, t) {
            if (!json_is_string(t)) continue;
            if (is_type(value, json_string_value(t))) return NULL;
            size_t used = strlen(expected);
            snprintf(expected + used, sizeof expected - used, "%s%s", i ? " or " : "",
                     json_string_value(t));
        }
    } else {
        return NULL;
    }
    return bad(path, expected, "expected %s, got %s", expected, type_of(value));
}

static json_t *check_number(const json_t *schema, const json_t *value, const seg *path) {
    if (!json_is_number(value)) return NULL;
    double d = json_number_value(value);
    const json_t *lo = json_object_get(schema, "minimum");
    const json_t *hi = json_object_get(schema, "maximum");
    char expected[128];
    if ((lo && d < json_number_value(lo)) || (hi && d > json_number_value(hi)) ||
        !isfinite(d)) {
        if (lo && hi)
            snprintf(expected, sizeof expected, "a number from %.17g to %.17g",
                     json_number_value(lo), json_number_value(hi));
        else if (lo)
            snprintf(expected, sizeof expected, "a number of at least %.17g",
                     json_number_value(lo));
        else
            snprintf(expected, sizeof expected, "a number of at most %.17g",
                     json_number_value(hi));
        return bad(path, expected, "%.17g is out of range (expected %s)", d, expected);
    }
    return NULL;
}

static json_t *check_string(const json_t *schema, const json_t *value, const seg *path) {
    if (!json_is_string(value)) return NULL;
    size_t len = json_string_length(value);
    const json_t *lo = json_object_get(schema, "minLength");
    const json_t *hi = json_object_get(schema, "maxLength");
    /* Lengths count bytes here, not code points: the limits are buffer sizes. */
    if ((lo && (json_int_t)len < json_integer_value(lo)) ||
        (hi && (json_int_t)len > json_integer_value(hi))) {
        char expected[96];
        snprintf(expected, sizeof expected, "a string of %lld to %lld bytes",
                 lo ? (long long)json_integer_value(lo) : 0LL,
                 hi ? (long long)json_integer_value(hi) : 1000000LL);
        return bad(path, expected, "a string of %zu bytes (expected %s)", len, expected);
    }
    const json_t *choices = json_object_get(schema, "enum");
    if (json_is_array(choices)) {
        size_t i;
        const json_t *c;
        char expected[300] = "one of ";
        json_array_foreach(choices, i, c) {
            if (json_equal(c, value)) return NULL;
            size_t used = strlen(expected);
            snprintf(expected + used, sizeof expected - used, "%s\"%s\"", i ? ", " : "",
                     json_is_string(c) ? json_string_value(c) : "?");
        }
        return bad(path, expected, "\"%.100s\" is not allowed (expected %s)",
                   json_string_value(value), expected);
    }
    return NULL;
}

static json_t *check_array(const json_t *schema, const json_t *value, const seg *path) {
    if (!json_is_array(value)) return NULL;
    size_t n = json_array_size(value);
    const json_t *lo = json_object_get(schema, "minItems");
    const json_t *hi = json_object_get(schema, "maxItems");
    if ((lo && (json_int_t)n < json_integer_value(lo)) ||
        (hi && (json_int_t)n > json_integer_value(hi))) {
        char expected[96];
        if (lo && hi && json_integer_value(lo) == json_integer_value(hi))
            snprintf(expected, sizeof expected, "an array of %lld items",
                     (long long)json_integer_value(lo));
        else
            snprintf(expected, sizeof expected, "an array of %lld to %lld items",
                     lo ? (long long)json_integer_value(lo) : 0LL,
                     hi ? (long long)json_integer_value(hi) : 1000000LL);
        return bad(path, expected, "%zu items (expected %s)", n, expected);
    }
    const json_t *items = json_object_get(schema, "items");
    if (!json_is_object(items)) return NULL;
    for (size_t i = 0; i < n; i++) {
        seg at = {path, NULL, i};
        json_t *e = check(items, json_array_get(value, i), &at);
        if (e) return e;
    }
    return NULL;
}

static json_t *check_object(const json_t *schema, const json_t *value, const seg *path) {
    if (!json_is_object(value)) return NULL;
    const json_t *props = json_object_get(schema, "properties");
    const json_t *required = json_object_get(schema, "required");
    if (json_is_array(required)) {
        size_t i;
        const json_t *r;
        json_array_foreach(required, i, r) {
            if (!json_is_string(r) || json_object_get(value, json_string_value(r))) continue;
            seg at = {path, json_string_value(r), 0};
            return bad(&at, "a value", "missing (it is required)");
        }
    }
    const json_t *additional = json_object_get(schema, "additionalProperties");
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)value, key, v) {
        seg at = {path, key, 0};
        const json_t *sub = props ? json_object_get(props, key) : NULL;
        if (!sub) {
            if (json_is_false(additional)) {
                char expected[400] = "one of ";
                const char *k;
                json_t *unused;
                bool first = true;
                json_object_foreach((json_t *)props, k, unused) {
                    size_t used = strlen(expected);
                    snprintf(expected + used, sizeof expected - used, "%s%s", first ? "" : ", ",
                             k);
                    first = false;
                }
                if (first) snprintf(expected, sizeof expected, "no keys at all");
                return bad(&at, expected, "unknown key (expected %s)", expected);
            }
            if (json_is_object(additional)) sub = additional;
        }
        if (sub) {
            json_t *e = check(sub, v, &at);
            if (e) return e;
        }
    }
    return NULL;
}

static json_t *check_one_of(const json_t *schema, const json_t *value, const seg *path) {
    const json_t *choices = json_object_get(schema, "oneOf");
    if (!json_is_array(choices)) return NULL;
    size_t matched = 0, i;
    const json_t *c;
    char names[200] = "";
    json_array_foreach(choices, i, c) {
        json_t *e = check(c, value, path);
        if (e)
            json_decref(e);
        else
            matched++;
        /* Name the alternatives by their required keys ("sound, blend or pool"). */
        const json_t *req = json_array_get(json_object_get(c, "required"), 0);
        size_t used = strlen(names);
        snprintf(names + used, sizeof names - used, "%s%s",
                 i == 0 ? "" : (i + 1 == json_array_size(choices) ? " or " : ", "),
                 json_is_string(req) ? json_string_value(req) : "?");
    }
    if (matched == 1) return NULL;
    char expected[240];
    snprintf(expected, sizeof expected, "exactly one of %s", names);
    return bad(path, expected, "%s given (expected %s)", matched ? "more than one" : "none",
               expected);
}

static json_t *check(const json_t *schema, const json_t *value, const seg *path) {
    if (!json_is_object(schema)) return NULL;
    json_t *e;
    if ((e = check_type(schema, value, path))) return e;
    if ((e = check_number(schema, value, path))) return e;
    if ((e = check_string(schema, value, path))) return e;
    if ((e = check_array(schema, value, path))) return e;
    if ((e = check_object(schema, value, path))) return e;
    return check_one_of(schema, value, path);
}

json_t *ear_schema_check(const json_t *schema, const json_t *value, const char *path) {
    if (!schema || !value) return ear_command_error("E_INTERNAL", "", "no schema or value");
    seg root = {NULL, path ? path : "", 0};
    return check(schema, value, &root);
}
