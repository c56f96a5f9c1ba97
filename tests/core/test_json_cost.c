/* SPDX-License-Identifier: Zlib */
/*
 * ear_json_measure against jansson itself: this process routes jansson's allocations
 * through counting functions (json_set_alloc_funcs, set before any JSON is made) that
 * keep the live bytes in malloc chunks (a block of n bytes is a chunk of
 * max(32, (n + 8 + 15) & ~15)) and their peak. For documents of every shape (dense
 * numbers, empty objects and arrays, long and many keys, long strings, deep nesting, the
 * example worlds and scenes, a real serve line) the peak of parsing and holding the
 * result never passes the measured bound, and the bound is within 4 times the peak (so a
 * budget is not refused for what it could hold). Without the member cost the object
 * documents pass the bound; without the element cost the dense arrays do.
 */
#include "earshot/core.h"

#include "test.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t live, peak;

static size_t chunk(size_t n) {
    size_t c = (n + 8u + 15u) & ~(size_t)15u;
    return c < 32u ? 32u : c;
}

static void *count_malloc(size_t n) {
    size_t *p = malloc(n + 16u);
    if (!p) return NULL;
    p[0] = n;
    live += chunk(n);
    if (live > peak) peak = live;
    return (char *)p + 16;
}

static void count_free(void *q) {
    if (!q) return;
    size_t *p = (size_t *)(void *)((char *)q - 16);
    live -= chunk(p[0]);
    free(p);
}

/* The counting functions, set before this process makes any JSON (each test runs alone
 * or first in its process, and nothing else here calls jansson). */
static void counting(void) {
    static bool set;
    if (!set) json_set_alloc_funcs(count_malloc, count_free);
    set = true;
}

/* Parses text and returns jansson's peak over the live bytes before it; *freed whether
 * everything came back. */
static size_t parse_peak(const char *text, size_t n, bool *ok, bool *freed) {
    counting();
    size_t base = live;
    peak = live;
    json_t *v = json_loadb(text, n, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, NULL);
    *ok = v != NULL;
    json_decref(v);
    *freed = live == base;
    return peak - base;
}

static void check(const char *what, const char *text, size_t n) {
    bool ok, freed;
    size_t real = parse_peak(text, n, &ok, &freed);
    ear_json_cost cost = ear_json_measure(text, n);
    printf("%-28s %9zu bytes of text, %8llu values: jansson %10zu, bound %10llu (%.2fx)\n",
           what, n, (unsigned long long)cost.values, real, (unsigned long long)cost.bytes,
           real ? (double)cost.bytes / (double)real : 0.0);
    ASSERT_TRUE(ok);
    ASSERT_TRUE(freed);
    ASSERT_LE(real, cost.bytes);
    ASSERT_LE(cost.bytes, 4u * (uint64_t)real + 256u);
}

/* "[" + count * item joined by "," + "]" (or the object form with keys). */
static char *repeat(const char *open, const char *item, const char *close, size_t count,
                    bool keys, size_t *n) {
    size_t cap = strlen(open) + strlen(close) + count * (strlen(item) + 24u) + 1u;
    char *s = malloc(cap);
    if (!s) abort();
    size_t at = (size_t)snprintf(s, cap, "%s", open);
    for (size_t i = 0; i < count; i++) {
        if (keys)
            at += (size_t)snprintf(s + at, cap - at, "%s\"k%zu\":%s", i ? "," : "", i, item);
        else
            at += (size_t)snprintf(s + at, cap - at, "%s%s", i ? "," : "", item);
    }
    at += (size_t)snprintf(s + at, cap - at, "%s", close);
    *n = at;
    return s;
}

TEST(bound_holds_for_every_shape) {
    static const struct {
        const char *what, *open, *item, *close;
        size_t count;
        bool keys;
    } shapes[] = {
        {"dense integers", "[", "0", "]", 200000, false},
        {"dense reals", "[", "1.5e3", "]", 100000, false},
        {"empty objects", "[", "{}", "]", 100000, false},
        {"empty arrays", "[", "[]", "]", 100000, false},
        {"literals", "[", "true,null", "]", 100000, false},
        {"short strings", "[", "\"a\"", "]", 100000, false},
        {"members", "{", "1", "}", 100000, true},
        {"objects of one member", "[", "{\"a\":1}", "]", 50000, false},
        {"long strings", "[",
         "\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
         "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"",
         "]", 20000, false},
        {"nested objects", "{\"a\":", "{\"b\":[1,2,{}]}", "}", 1, false},
        {"a small command", "",
         "{\"command\":\"audio.play\",\"params\":{\"sound\":\"synth:"
         "sine:440:0.5\",\"position\":[1,2,3]},\"id\":7}",
         "", 1, false},
    };
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        size_t n;
        char *text = repeat(shapes[i].open, shapes[i].item, shapes[i].close, shapes[i].count,
                            shapes[i].keys, &n);
        check(shapes[i].what, text, n);
        free(text);
    }
    /* Deep nesting, to jansson's limit of 2048. */
    char deep[2 * 2000 + 1];
    memset(deep, '[', 2000);
    memset(deep + 2000, ']', 2000);
    check("2000 nested arrays", deep, 4000);
    /* One string of 1 MB: the lexer's buffer doubles as it reads it. */
    size_t big = 1u << 20;
    char *s = malloc(big + 3);
    ASSERT_TRUE(s != NULL);
    s[0] = '"';
    memset(s + 1, 'x', big);
    s[big + 1] = '"';
    check("one 1 MB string", s, big + 2);
    free(s);
}

TEST(bound_holds_for_the_example_documents) {
    static const char *const files[] = {EAR_EXAMPLE_DIR "/worlds/room.json",
                                        EAR_EXAMPLE_DIR "/worlds/drive_by.world.json",
                                        EAR_EXAMPLE_DIR "/scenes/demo.scene.json"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char *text = NULL;
        size_t n = 0;
        char why[300];
        if (ear_file_read(files[i], EAR_FILE_MAX_DOCUMENT_BYTES, NULL, &text, &n, why,
                          sizeof why) != EAR_OK) {
            printf("skipped %s: %s\n", files[i], why);
            continue;
        }
        check(files[i], text, n);
        free(text);
    }
}

TEST(what_is_not_json_measures_as_far_as_it_goes) {
    ear_json_cost none = ear_json_measure(NULL, 5);
    ASSERT_EQ(none.values, 0u);
    ASSERT_EQ(none.bytes, 0u);
    ear_json_cost open = ear_json_measure("[\"never closed", 14);
    ASSERT_EQ(open.values, 2u);
    ear_json_cost escaped = ear_json_measure("[\"a\\\"b\", 1]", 11);
    ASSERT_EQ(escaped.values, 3u);
}

TEST_MAIN(TEST_ENTRY(bound_holds_for_every_shape),
          TEST_ENTRY(bound_holds_for_the_example_documents),
          TEST_ENTRY(what_is_not_json_measures_as_far_as_it_goes))
