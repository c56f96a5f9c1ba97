/* SPDX-License-Identifier: Zlib */
/*
 * The UI's bounded strings: ids, labels and announcements live in fixed arrays
 * (EAR_UI_ID_MAX, EAR_UI_TEXT_MAX), so every copy and append is cut to its array, and cut
 * on a UTF-8 character boundary (never half a sequence: a screen reader would read it as
 * garbage). First-letter navigation compares characters lower-cased (ASCII and Latin-1).
 *
 * The base of src/ui (src/ui/ORDER): it calls only core's UTF-8 helpers.
 */
#include "ui_internal.h"

#include <string.h>

size_t ear__ui_copy(char *dst, size_t size, const char *src) {
    if (!size) return 0;
    dst[0] = '\0';
    return ear__ui_append(dst, size, src);
}

size_t ear__ui_append(char *dst, size_t size, const char *src) {
    size_t len = strlen(dst);
    if (!src) return len;
    size_t n = strlen(src);
    if (len + n + 1 > size) {
        /* Cut on a character boundary: never leave half a UTF-8 sequence. */
        n = ear_utf8_cut(src, n, size - 1 - len);
    }
    memcpy(dst + len, src, n);
    dst[len + n] = '\0';
    return len + n;
}

uint32_t ear__utf8_lower_at(const char *s, size_t len, size_t at, size_t *out_next) {
    size_t next = ear_utf8_next(s, len, at);
    if (out_next) *out_next = next;
    if (at >= len) return 0;
    /* A malformed sequence compares as its first byte. */
    uint32_t cp = (unsigned char)s[at];
    ear_utf8_decode(s + at, next - at, &cp);
    /* ASCII and Latin-1 capitals (Ä, Ö, Ü ...; not the multiplication sign). */
    if (cp >= 'A' && cp <= 'Z')
        cp += 32;
    else if (cp >= 0xc0 && cp <= 0xde && cp != 0xd7)
        cp += 32;
    return cp;
}
