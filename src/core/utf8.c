/* SPDX-License-Identifier: Zlib */
/*
 * UTF-8 for every module that reads or cuts text (translations, saves, speech, the UI's
 * text fields, maps, the command tool's JSON), strictly: no overlong forms, no
 * surrogates, nothing above U+10FFFF. NUL bytes are valid UTF-8; callers that refuse
 * them check for themselves. The boundary functions (cut, next, prev, count) only look
 * at continuation bytes (10xxxxxx), so they never read past `len` and stay safe on text
 * that is not well-formed.
 */
#include "earshot/core.h"

static bool is_continuation(unsigned char c) {
    return (c & 0xC0u) == 0x80u;
}

size_t ear_utf8_decode(const char *text, size_t size, uint32_t *cp) {
    if (!text || size == 0) return 0;
    const unsigned char *s = (const unsigned char *)text;
    unsigned char c = s[0];
    size_t len;
    uint32_t v;
    if (c < 0x80) {
        if (cp) *cp = c;
        return 1;
    } else if (c >= 0xC2 && c <= 0xDF) {
        len = 2;
        v = c & 0x1Fu;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        v = c & 0x0Fu;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        v = c & 0x07u;
    } else {
        return 0;
    }
    if (size < len) return 0;
    for (size_t k = 1; k < len; k++) {
        if (!is_continuation(s[k])) return 0; /* also stops at a NUL */
        v = (v << 6) | (s[k] & 0x3Fu);
    }
    if ((len == 3 && v < 0x800) || (len == 4 && v < 0x10000) || v > 0x10FFFF ||
        (v >= 0xD800 && v <= 0xDFFF))
        return 0;
    if (cp) *cp = v;
    return len;
}

bool ear_utf8_valid(const char *text, size_t size) {
    size_t i = 0;
    while (i < size) {
        size_t n = ear_utf8_decode(text + i, size - i, NULL);
        if (n == 0) return false;
        i += n;
    }
    return true;
}

size_t ear_utf8_encode(uint32_t cp, char out[4]) {
    if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

size_t ear_utf8_cut(const char *text, size_t len, size_t max) {
    if (len <= max) return len;
    size_t n = max;
    /* text[n] is the first byte left out: back up while it continues a character. */
    while (n > 0 && is_continuation((unsigned char)text[n])) n--;
    return n;
}

size_t ear_utf8_next(const char *text, size_t len, size_t at) {
    if (at >= len) return len;
    at++;
    while (at < len && is_continuation((unsigned char)text[at])) at++;
    return at;
}

size_t ear_utf8_prev(const char *text, size_t at) {
    if (at == 0) return 0;
    at--;
    while (at > 0 && is_continuation((unsigned char)text[at])) at--;
    return at;
}

size_t ear_utf8_count(const char *text, size_t len) {
    size_t n = 0;
    for (size_t i = 0; i < len; i++)
        if (!is_continuation((unsigned char)text[i])) n++;
    return n;
}
