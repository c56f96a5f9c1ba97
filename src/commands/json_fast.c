/* SPDX-License-Identifier: Zlib */
/*
 * A fast reader for the common case of a serve or MCP line: a JSON object read straight
 * into jansson values in one pass over the bytes. jansson's own reader costs about 4 us for
 * a 130-byte audio.voice.set line (it reads through a character stream with a buffer per
 * token); this one about 1 us, which is what lets serve reach its commands-per-second target.
 *
 * It is deliberately strict and gives up rather than guess: on anything it does not accept
 * (bad JSON, a duplicate key, invalid UTF-8, \u0000, an integer or real out of range, more
 * than 64 levels, a top level that is not an object) it returns NULL, and the caller reads
 * the line again with json_loadb, which then gives the same value or its own error with line
 * and column. So whatever this accepts is valid JSON that jansson reads to the same values.
 */
#include "commands_internal.h"

#include <errno.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 64

typedef struct reader {
    const char *p, *end;
    char *scratch; /* a string's bytes after unescaping */
    size_t scratch_cap;
} reader;

static void skip_ws(reader *r) {
    while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r'))
        r->p++;
}

static bool put(reader *r, size_t *len, char c) {
    if (*len + 1 >= r->scratch_cap) {
        size_t cap = r->scratch_cap ? r->scratch_cap * 2 : 256;
        char *grown = realloc(r->scratch, cap);
        if (!grown) return false;
        r->scratch = grown;
        r->scratch_cap = cap;
    }
    r->scratch[(*len)++] = c;
    return true;
}

static int hex4(const char *p) {
    int v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p[i];
        int d = c >= '0' && c <= '9'   ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                       : -1;
        if (d < 0) return -1;
        v = v * 16 + d;
    }
    return v;
}

/* Reads a string (at its opening quote) into r->scratch, NUL-terminated; its length in
 * *out_len. UTF-8 is checked by the caller (json_stringn / the key check). */
static bool read_string(reader *r, size_t *out_len) {
    r->p++; /* the quote */
    size_t len = 0;
    for (;;) {
        if (r->p >= r->end) return false;
        unsigned char c = (unsigned char)*r->p;
        if (c == '"') {
            r->p++;
            break;
        }
        if (c < 0x20) return false;
        if (c != '\\') {
            /* Copy a run of plain bytes at once. */
            const char *start = r->p;
            while (r->p < r->end && *r->p != '"' && *r->p != '\\' &&
                   (unsigned char)*r->p >= 0x20)
                r->p++;
            size_t n = (size_t)(r->p - start);
            while (len + n + 1 >= r->scratch_cap) {
                size_t cap = r->scratch_cap ? r->scratch_cap * 2 : 256;
                char *grown = realloc(r->scratch, cap);
                if (!grown) return false;
                r->scratch = grown;
                r->scratch_cap = cap;
            }
            memcpy(r->scratch + len, start, n);
            len += n;
            continue;
        }
        if (r->p + 1 >= r->end) return false;
        char e = r->p[1];
        r->p += 2;
        char out;
        switch (e) {
        case '"': out = '"'; break;
        case '\\': out = '\\'; break;
        case '/': out = '/'; break;
        case 'b': out = '\b'; break;
        case 'f': out = '\f'; break;
        case 'n': out = '\n'; break;
        case 'r': out = '\r'; break;
        case 't': out = '\t'; break;
        case 'u': {
            if (r->end - r->p < 4) return false;
            int u = hex4(r->p);
            r->p += 4;
            if (u <= 0) return false; /* bad hex, or \u0000 (jansson refuses it) */
            long cp = u;
            if (u >= 0xD800 && u <= 0xDBFF) {
                if (r->end - r->p < 6 || r->p[0] != '\\' || r->p[1] != 'u') return false;
                int lo = hex4(r->p + 2);
                if (lo < 0xDC00 || lo > 0xDFFF) return false;
                r->p += 6;
                cp = 0x10000 + ((long)(u - 0xD800) << 10) + (lo - 0xDC00);
            } else if (u >= 0xDC00 && u <= 0xDFFF) {
                return false;
            }
            char utf8[4];
            size_t bytes = ear_utf8_encode((uint32_t)cp, utf8);
            bool ok = bytes > 0;
            for (size_t k = 0; ok && k < bytes; k++) ok = put(r, &len, utf8[k]);
            if (!ok) return false;
            continue;
        }
        default: return false;
        }
        if (!put(r, &len, out)) return false;
    }
    if (!put(r, &len, '\0')) return false;
    *out_len = len - 1;
    return true;
}

static json_t *read_number(reader *r) {
    const char *start = r->p;
    bool real = false;
    if (r->p < r->end && *r->p == '-') r->p++;
    if (r->p >= r->end) return NULL;
    if (*r->p == '0') {
        r->p++;
    } else if (*r->p >= '1' && *r->p <= '9') {
        while (r->p < r->end && *r->p >= '0' && *r->p <= '9') r->p++;
    } else {
        return NULL;
    }
    if (r->p < r->end && *r->p == '.') {
        real = true;
        r->p++;
        if (r->p >= r->end || *r->p < '0' || *r->p > '9') return NULL;
        while (r->p < r->end && *r->p >= '0' && *r->p <= '9') r->p++;
    }
    if (r->p < r->end && (*r->p == 'e' || *r->p == 'E')) {
        real = true;
        r->p++;
        if (r->p < r->end && (*r->p == '+' || *r->p == '-')) r->p++;
        if (r->p >= r->end || *r->p < '0' || *r->p > '9') return NULL;
        while (r->p < r->end && *r->p >= '0' && *r->p <= '9') r->p++;
    }
    char buf[64];
    size_t n = (size_t)(r->p - start);
    if (n >= sizeof buf) return NULL; /* long numbers: jansson decides */
    memcpy(buf, start, n);
    buf[n] = '\0';
    errno = 0;
    if (!real) {
        long long v = strtoll(buf, NULL, 10);
        if (errno == ERANGE) return NULL;
        return json_integer((json_int_t)v);
    }
    /* Clinger's fast path: a decimal of at most 15 significant digits and no exponent is an
     * integer below 2^53 divided by an exact power of ten, so one correctly rounded
     * division gives exactly what strtod gives. */
    if (!memchr(buf, 'e', n) && !memchr(buf, 'E', n)) {
        static const double pow10[] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                       1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
        unsigned long long m = 0; /* wraps harmlessly when there are too many digits */
        int digits = 0, frac = 0;
        bool in_frac = false, started = false;
        for (const char *q = buf; *q; q++) {
            if (*q == '-') continue;
            if (*q == '.') {
                in_frac = true;
                continue;
            }
            if (*q != '0' || started) {
                started = true;
                digits++;
            }
            m = m * 10 + (unsigned long long)(*q - '0');
            if (in_frac) frac++;
        }
        if (digits <= 15 && frac <= 15) {
            double d = (double)m / pow10[frac];
            return json_real(buf[0] == '-' ? -d : d);
        }
    }
    double d = strtod(buf, NULL);
    if (isinf(d)) return NULL;
    return json_real(d);
}

static json_t *read_value(reader *r, int depth);

static json_t *read_object(reader *r, int depth) {
    r->p++; /* { */
    json_t *obj = json_object();
    if (!obj) return NULL;
    skip_ws(r);
    if (r->p < r->end && *r->p == '}') {
        r->p++;
        return obj;
    }
    for (;;) {
        skip_ws(r);
        size_t len;
        if (r->p >= r->end || *r->p != '"' || !read_string(r, &len)) break;
        /* Keys: no NUL (read_string refused \u0000) and valid UTF-8. The value read next
         * reuses the scratch buffer, so the key is copied (on the stack when short). */
        if (!ear_utf8_valid(r->scratch, len)) break;
        char small[64];
        char *key = len < sizeof small ? small : malloc(len + 1);
        if (!key) break;
        memcpy(key, r->scratch, len + 1);
        bool duplicate = json_object_get(obj, key) != NULL;
        skip_ws(r);
        bool ok = !duplicate && r->p < r->end && *r->p == ':';
        json_t *v = NULL;
        if (ok) {
            r->p++;
            v = read_value(r, depth + 1);
            ok = v && json_object_set_new_nocheck(obj, key, v) == 0;
        }
        if (key != small) free(key);
        if (!ok) break;
        skip_ws(r);
        if (r->p < r->end && *r->p == ',') {
            r->p++;
            continue;
        }
        if (r->p < r->end && *r->p == '}') {
            r->p++;
            return obj;
        }
        break;
    }
    json_decref(obj);
    return NULL;
}

static json_t *read_array(reader *r, int depth) {
    r->p++; /* [ */
    json_t *arr = json_array();
    if (!arr) return NULL;
    skip_ws(r);
    if (r->p < r->end && *r->p == ']') {
        r->p++;
        return arr;
    }
    for (;;) {
        json_t *v = read_value(r, depth + 1);
        if (!v || json_array_append_new(arr, v) != 0) break;
        skip_ws(r);
        if (r->p < r->end && *r->p == ',') {
            r->p++;
            continue;
        }
        if (r->p < r->end && *r->p == ']') {
            r->p++;
            return arr;
        }
        break;
    }
    json_decref(arr);
    return NULL;
}

static bool word(reader *r, const char *w) {
    size_t n = strlen(w);
    if ((size_t)(r->end - r->p) < n || memcmp(r->p, w, n) != 0) return false;
    r->p += n;
    return true;
}

static json_t *read_value(reader *r, int depth) {
    if (depth > MAX_DEPTH) return NULL;
    skip_ws(r);
    if (r->p >= r->end) return NULL;
    switch (*r->p) {
    case '{': return read_object(r, depth);
    case '[': return read_array(r, depth);
    case '"': {
        size_t len;
        if (!read_string(r, &len) || !ear_utf8_valid(r->scratch, len)) return NULL;
        return json_stringn_nocheck(r->scratch, len);
    }
    case 't': return word(r, "true") ? json_true() : NULL;
    case 'f': return word(r, "false") ? json_false() : NULL;
    case 'n': return word(r, "null") ? json_null() : NULL;
    default: return read_number(r);
    }
}

json_t *ear__json_read_fast(const char *text, size_t length) {
    reader r = {text, text + length, NULL, 0};
    skip_ws(&r);
    json_t *v = NULL;
    if (r.p < r.end && *r.p == '{') {
        v = read_object(&r, 1);
        skip_ws(&r);
        if (v && r.p != r.end) {
            json_decref(v);
            v = NULL;
        }
    }
    free(r.scratch);
    return v;
}

/* ---- Writing ------------------------------------------------------------------------ */

typedef struct writer {
    char *buf;
    size_t len, cap;
    bool failed;
} writer;

static void emit(writer *w, const char *s, size_t n) {
    if (w->failed) return;
    if (w->len + n + 1 > w->cap) {
        size_t cap = w->cap ? w->cap : 256;
        while (w->len + n + 1 > cap) cap *= 2;
        char *grown = realloc(w->buf, cap);
        if (!grown) {
            w->failed = true;
            return;
        }
        w->buf = grown;
        w->cap = cap;
    }
    memcpy(w->buf + w->len, s, n);
    w->len += n;
    w->buf[w->len] = '\0';
}

static void emit_string(writer *w, const char *s, size_t n) {
    emit(w, "\"", 1);
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c != '"' && c != '\\') continue;
        emit(w, s + run, i - run);
        run = i + 1;
        char esc[8];
        switch (c) {
        case '"': emit(w, "\\\"", 2); break;
        case '\\': emit(w, "\\\\", 2); break;
        case '\n': emit(w, "\\n", 2); break;
        case '\r': emit(w, "\\r", 2); break;
        case '\t': emit(w, "\\t", 2); break;
        case '\b': emit(w, "\\b", 2); break;
        case '\f': emit(w, "\\f", 2); break;
        default: snprintf(esc, sizeof esc, "\\u%04X", c); emit(w, esc, 6);
        }
    }
    emit(w, s + run, n - run);
    emit(w, "\"", 1);
}

static void emit_value(writer *w, const json_t *v) {
    char num[40];
    switch (json_typeof(v)) {
    case JSON_OBJECT: {
        emit(w, "{", 1);
        const char *key;
        json_t *item;
        bool first = true;
        json_object_foreach((json_t *)v, key, item) {
            if (!first) emit(w, ",", 1);
            first = false;
            emit_string(w, key, strlen(key));
            emit(w, ":", 1);
            emit_value(w, item);
        }
        emit(w, "}", 1);
        break;
    }
    case JSON_ARRAY: {
        emit(w, "[", 1);
        for (size_t i = 0; i < json_array_size(v); i++) {
            if (i) emit(w, ",", 1);
            emit_value(w, json_array_get(v, i));
        }
        emit(w, "]", 1);
        break;
    }
    case JSON_STRING: emit_string(w, json_string_value(v), json_string_length(v)); break;
    case JSON_INTEGER: {
        /* Digits by hand: snprintf is a large share of a small reply's cost. */
        long long x = (long long)json_integer_value(v);
        unsigned long long u = x < 0 ? 0ull - (unsigned long long)x : (unsigned long long)x;
        char *p = num + sizeof num;
        do {
            *--p = (char)('0' + u % 10);
            u /= 10;
        } while (u);
        if (x < 0) *--p = '-';
        emit(w, p, (size_t)(num + sizeof num - p));
        break;
    }
    case JSON_REAL: {
        double d = json_real_value(v);
        if (!isfinite(d)) {
            emit(w, "null", 4);
            break;
        }
        int n = snprintf(num, sizeof num, "%.9g", d);
        /* Like jansson: a real always reads back as a real. */
        if (n > 0 && !strpbrk(num, ".eE")) n += snprintf(num + n, sizeof num - (size_t)n, ".0");
        emit(w, num, (size_t)n);
        break;
    }
    case JSON_TRUE: emit(w, "true", 4); break;
    case JSON_FALSE: emit(w, "false", 5); break;
    case JSON_NULL: emit(w, "null", 4); break;
    }
}

char *ear__json_write(const json_t *value) {
    writer w = {NULL, 0, 0, false};
    emit_value(&w, value);
    if (w.failed) {
        free(w.buf);
        return NULL;
    }
    return w.buf;
}
