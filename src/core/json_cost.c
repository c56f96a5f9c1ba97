/* SPDX-License-Identifier: Zlib */
/*
 * What parsing a JSON text will cost, before it is parsed (ear_json_measure): one pass
 * over the text that counts what jansson would build (objects, arrays, members, array
 * elements, strings and numbers) and adds up an upper bound of the bytes it allocates
 * for them, so that a caller can refuse a document its memory budget has no room for
 * before a byte of it is parsed. jansson's allocation functions are process-wide
 * (json_set_alloc_funcs), shared with the application and every other library in the
 * process, so they cannot count into one session's budget; the bound stands in for them.
 *
 * The bound is jansson 2.14's on a 64-bit glibc: every block a malloc chunk (its size
 * rounded up to 16 with 8 bytes of header, at least 32), each kind's structures, and the
 * growth of tables (an array's table and an object's buckets double: at most twice their
 * final size, plus the old table while it is copied). The lexer's one token buffer is at
 * most twice the longest string. tests/core/test_json_cost.c measures jansson's real peak
 * through counting allocation functions and checks it never passes the bound (and that
 * the bound stays within a small factor of it). A text that is not valid JSON is
 * measured as far as a scan can: jansson stops at its first error, so it builds less.
 */
#include "earshot/core.h"

/* The bytes of each kind (chunk sizes; see above). */
#define COST_NUMBER  32u  /* json_integer_t / json_real_t: 24 bytes */
#define COST_STRING  80u  /* json_string_t (32 bytes) + the text's chunk overhead (< 32) */
#define COST_ARRAY   128u /* json_array_t (40 bytes) + its first table of 8 (64 bytes) */
#define COST_OBJECT  240u /* json_object_t (72 bytes) + its first 8 buckets (128 bytes) */
#define COST_ELEMENT 24u  /* one table slot, doubled, plus the old table while it grows */
#define COST_MEMBER                                                                            \
    144u /* a pair (57 bytes + the key) and its buckets (48), the key's                        \
            own string while it is parsed (the string above) */

ear_json_cost ear_json_measure(const char *text, size_t length) {
    ear_json_cost cost = {0, 0};
    if (!text) return cost;
    /* Whether the innermost container is an object, for depths jansson accepts (2048);
     * deeper than that it fails, and the scan counts as if in arrays. */
    unsigned char in_object[2048 / 8 + 1] = {0};
    size_t depth = 0, longest = 0;
    bool expect_key = false;
    uint64_t bytes = 0;
    for (size_t i = 0; i < length; i++) {
        unsigned char ch = (unsigned char)text[i];
        bool object = depth > 0 && depth <= 2048 &&
                      ((unsigned)in_object[(depth - 1) / 8] >> ((depth - 1) % 8) & 1u);
        if (ch == '"') {
            size_t start = ++i;
            while (i < length && text[i] != '"') i += text[i] == '\\' ? 2u : 1u;
            size_t n = (i < length ? i : length) - start;
            if (n > longest) longest = n;
            if (object && expect_key) {
                bytes += COST_MEMBER + COST_STRING + 2u * (uint64_t)n;
                expect_key = false;
            } else {
                bytes += COST_STRING + (uint64_t)n + (depth ? COST_ELEMENT : 0u);
            }
            cost.values++;
        } else if (ch == '{' || ch == '[') {
            bytes += (ch == '{' ? COST_OBJECT : COST_ARRAY) + (depth ? COST_ELEMENT : 0u);
            cost.values++;
            if (depth < 2048) {
                unsigned char bit = (unsigned char)(1u << (depth % 8));
                if (ch == '{')
                    in_object[depth / 8] |= bit;
                else
                    in_object[depth / 8] &= (unsigned char)~bit;
            }
            depth++;
            expect_key = ch == '{';
        } else if (ch == '}' || ch == ']') {
            if (depth) depth--;
            expect_key = false;
        } else if (ch == ',') {
            expect_key = object;
        } else if (ch == '-' || (ch >= '0' && ch <= '9')) {
            while (i + 1 < length &&
                   ((text[i + 1] >= '0' && text[i + 1] <= '9') || text[i + 1] == '.' ||
                    text[i + 1] == 'e' || text[i + 1] == 'E' || text[i + 1] == '+' ||
                    text[i + 1] == '-'))
                i++;
            bytes += COST_NUMBER + (depth ? COST_ELEMENT : 0u);
            cost.values++;
        } else if (ch == 't' || ch == 'f' || ch == 'n') {
            /* true, false and null are jansson's shared constants: only their slot. */
            while (i + 1 < length && text[i + 1] >= 'a' && text[i + 1] <= 'z') i++;
            bytes += depth ? COST_ELEMENT : 0u;
            cost.values++;
        }
    }
    /* The lexer's token buffer (it doubles as it grows) and the read buffer. */
    cost.bytes = bytes + 2u * (uint64_t)longest + 64u;
    return cost;
}
