/* SPDX-License-Identifier: Zlib */
/*
 * Strict UTF-8 validation, shared by every module that reads text (translations, saves,
 * the command tool's JSON reader): no overlong forms, no surrogates, nothing above
 * U+10FFFF. NUL bytes are valid UTF-8; callers that refuse them check for themselves.
 */
#include "earshot/core.h"

bool ear_utf8_valid(const char *text, size_t size) {
    const unsigned char *s = (const unsigned char *)text;
    size_t i = 0;
    while (i < size) {
        unsigned char c = s[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t len;
        uint32_t cp;
        if (c >= 0xC2 && c <= 0xDF) {
            len = 2;
            cp = c & 0x1Fu;
        } else if (c >= 0xE0 && c <= 0xEF) {
            len = 3;
            cp = c & 0x0Fu;
        } else if (c >= 0xF0 && c <= 0xF4) {
            len = 4;
            cp = c & 0x07u;
        } else {
            return false;
        }
        if (size - i < len) return false;
        for (size_t k = 1; k < len; k++) {
            if ((s[i + k] & 0xC0) != 0x80) return false;
            cp = (cp << 6) | (s[i + k] & 0x3Fu);
        }
        if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) || cp > 0x10FFFF ||
            (cp >= 0xD800 && cp <= 0xDFFF))
            return false;
        i += len;
    }
    return true;
}
