/* SPDX-License-Identifier: Zlib */
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
 *
 * Two forms of the same rules: ear_schema_check reads the JSON schema as it goes and says
 * what is wrong; a compiled schema (ear__schema_compile) answers only "valid or not", from
 * structs with the keywords looked up once, for the commands' hot path (serve's
 * audio.voice.set). The registry asks the compiled form first and the JSON form only for
 * a value that fails, so both must accept exactly the same values.
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

/* ---- Compiled schemas ------------------------------------------------------------------ */

enum {
    T_OBJECT = 1,
    T_ARRAY = 2,
    T_STRING = 4,
    T_INTEGER = 8,
    T_NUMBER = 16,
    T_BOOLEAN = 32,
    T_NULL = 64,
};

typedef struct snode snode;
typedef struct sprop {
    const char *key;
    snode *node;
} sprop;

struct snode {
    unsigned types; /* 0: any */
    bool has_min, has_max;
    double min, max;
    long long min_len, max_len; /* -1: none */
    const char **choices;       /* enum of strings; NULL: none */
    size_t choice_count;
    bool has_enum;
    long long min_items, max_items; /* -1: none */
    snode *items;
    sprop *props;
    size_t prop_count;
    const char **required;
    size_t required_count;
    int additional; /* 0: allowed, 1: false, 2: the schema in `extra` */
    snode *extra;
    snode **one_of;
    size_t one_of_count;
};

static unsigned type_bit(const char *t) {
    static const char *const names[] = {"object", "array",   "string", "integer",
                                        "number", "boolean", "null"};
    for (unsigned i = 0; i < 7; i++)
        if (strcmp(t, names[i]) == 0) return 1u << i;
    return 0;
}

void ear__schema_free(ear__schema *node) {
    snode *n = (snode *)node;
    if (!n) return;
    ear__schema_free((ear__schema *)n->items);
    ear__schema_free((ear__schema *)n->extra);
    for (size_t i = 0; i < n->prop_count; i++)
        ear__schema_free((ear__schema *)n->props[i].node);
    for (size_t i = 0; i < n->one_of_count; i++) ear__schema_free((ear__schema *)n->one_of[i]);
    free(n->props);
    free(n->one_of);
    free(n->required);
    free(n->choices);
    free(n);
}

static long long int_or(const json_t *v, long long fallback) {
    return json_is_integer(v) ? (long long)json_integer_value(v) : fallback;
}

/* Strings point into the JSON schema, which must outlive the compiled form. */
ear__schema *ear__schema_compile(const json_t *schema) {
    snode *n = calloc(1, sizeof *n);
    if (!n) return NULL;
    n->min_len = n->max_len = n->min_items = n->max_items = -1;
    if (!json_is_object(schema)) return (ear__schema *)n;
    bool ok = true;
    const json_t *type = json_object_get(schema, "type");
    if (json_is_string(type)) n->types = type_bit(json_string_value(type));
    if (json_is_array(type)) {
        size_t i;
        const json_t *t;
        json_array_foreach(type, i, t) {
            if (json_is_string(t)) n->types |= type_bit(json_string_value(t));
        }
        /* A list of only unknown names accepts nothing; keep that apart from "any". */
        if (!n->types) n->types = 1u << 7;
    }
    const json_t *v;
    if (json_is_number(v = json_object_get(schema, "minimum"))) {
        n->has_min = true;
        n->min = json_number_value(v);
    }
    if (json_is_number(v = json_object_get(schema, "maximum"))) {
        n->has_max = true;
        n->max = json_number_value(v);
    }
    n->min_len = int_or(json_object_get(schema, "minLength"), -1);
    n->max_len = int_or(json_object_get(schema, "maxLength"), -1);
    n->min_items = int_or(json_object_get(schema, "minItems"), -1);
    n->max_items = int_or(json_object_get(schema, "maxItems"), -1);
    const json_t *choices = json_object_get(schema, "enum");
    if (json_is_array(choices)) {
        n->has_enum = true;
        n->choice_count = json_array_size(choices);
        n->choices = calloc(n->choice_count + 1, sizeof *n->choices);
        ok = ok && n->choices;
        for (size_t i = 0; ok && i < n->choice_count; i++)
            n->choices[i] = json_string_value(json_array_get(choices, i)); /* NULL: no match */
    }
    const json_t *items = json_object_get(schema, "items");
    if (ok && json_is_object(items)) ok = (n->items = (snode *)ear__schema_compile(items));
    const json_t *props = json_object_get(schema, "properties");
    if (ok && json_is_object(props)) {
        n->props = calloc(json_object_size(props) + 1, sizeof *n->props);
        ok = n->props != NULL;
        const char *key;
        json_t *sub;
        json_object_foreach((json_t *)props, key, sub) {
            if (!ok) break;
            n->props[n->prop_count].key = key;
            ok = (n->props[n->prop_count].node = (snode *)ear__schema_compile(sub));
            if (ok) n->prop_count++;
        }
    }
    const json_t *required = json_object_get(schema, "required");
    if (ok && json_is_array(required)) {
        n->required = calloc(json_array_size(required) + 1, sizeof *n->required);
        ok = n->required != NULL;
        size_t i;
        const json_t *r;
        json_array_foreach(required, i, r) {
            if (ok && json_is_string(r))
                n->required[n->required_count++] = json_string_value(r);
        }
    }
    const json_t *additional = json_object_get(schema, "additionalProperties");
    if (json_is_false(additional)) n->additional = 1;
    if (ok && json_is_object(additional)) {
        n->additional = 2;
        ok = (n->extra = (snode *)ear__schema_compile(additional));
    }
    const json_t *one_of = json_object_get(schema, "oneOf");
    if (ok && json_is_array(one_of)) {
        n->one_of = calloc(json_array_size(one_of) + 1, sizeof *n->one_of);
        ok = n->one_of != NULL;
        size_t i;
        const json_t *c;
        json_array_foreach(one_of, i, c) {
            if (!ok) break;
            ok = (n->one_of[n->one_of_count] = (snode *)ear__schema_compile(c));
            if (ok) n->one_of_count++;
        }
    }
    if (!ok) {
        ear__schema_free((ear__schema *)n);
        return NULL;
    }
    return (ear__schema *)n;
}

static bool valid(const snode *n, const json_t *value) {
    if (n->types) {
        unsigned have = 0;
        switch (json_typeof(value)) {
        case JSON_OBJECT: have = T_OBJECT; break;
        case JSON_ARRAY: have = T_ARRAY; break;
        case JSON_STRING: have = T_STRING; break;
        case JSON_INTEGER: have = T_INTEGER | T_NUMBER; break;
        case JSON_REAL: have = T_NUMBER | (is_type(value, "integer") ? T_INTEGER : 0u); break;
        case JSON_TRUE:
        case JSON_FALSE: have = T_BOOLEAN; break;
        case JSON_NULL: have = T_NULL; break;
        }
        if (!(have & n->types)) return false;
    }
    switch (json_typeof(value)) {
    case JSON_INTEGER:
    case JSON_REAL: {
        double d = json_number_value(value);
        if ((n->has_min && d < n->min) || (n->has_max && d > n->max) || !isfinite(d))
            return false;
        break;
    }
    case JSON_STRING: {
        long long len = (long long)json_string_length(value);
        if ((n->min_len >= 0 && len < n->min_len) || (n->max_len >= 0 && len > n->max_len))
            return false;
        if (n->has_enum) {
            bool found = false;
            for (size_t i = 0; i < n->choice_count && !found; i++)
                found = n->choices[i] && strcmp(n->choices[i], json_string_value(value)) == 0;
            if (!found) return false;
        }
        break;
    }
    case JSON_ARRAY: {
        long long size = (long long)json_array_size(value);
        if ((n->min_items >= 0 && size < n->min_items) ||
            (n->max_items >= 0 && size > n->max_items))
            return false;
        if (n->items)
            for (size_t i = 0; i < (size_t)size; i++)
                if (!valid(n->items, json_array_get(value, i))) return false;
        break;
    }
    case JSON_OBJECT: {
        for (size_t i = 0; i < n->required_count; i++)
            if (!json_object_get(value, n->required[i])) return false;
        const char *key;
        json_t *v;
        json_object_foreach((json_t *)value, key, v) {
            const snode *sub = NULL;
            for (size_t i = 0; i < n->prop_count && !sub; i++)
                if (strcmp(n->props[i].key, key) == 0) sub = n->props[i].node;
            if (!sub) {
                if (n->additional == 1) return false;
                if (n->additional == 2) sub = n->extra;
            }
            if (sub && !valid(sub, v)) return false;
        }
        break;
    }
    default: break;
    }
    if (n->one_of_count) {
        size_t matched = 0;
        for (size_t i = 0; i < n->one_of_count; i++) matched += valid(n->one_of[i], value);
        if (matched != 1) return false;
    }
    return true;
}

bool ear__schema_valid(const ear__schema *schema, const json_t *value) {
    return schema && value && valid((const snode *)schema, value);
}
