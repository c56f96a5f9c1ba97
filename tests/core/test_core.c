/* SPDX-License-Identifier: Zlib */
/*
 * Core: result strings cover every code, vectors, the seeded generator's sequence and
 * ranges, the log callback's routing and filtering, the default allocator, UTF-8 and FNV-1a.
 */
#include "earshot/core.h"
#include "test.h"

TEST(every_result_has_a_message_and_a_name) {
    for (int r = 0; r >= EAR_E_CRYPTO; r--) {
        ASSERT_STR_NE(ear_result_string((ear_result)r), "unknown result");
        ASSERT_STR_NE(ear_result_name((ear_result)r), "EAR_E_UNKNOWN");
    }
    ASSERT_STR_EQ(ear_result_string((ear_result)-999), "unknown result");
    ASSERT_STR_EQ(ear_result_name(EAR_E_STALE_ID), "EAR_E_STALE_ID");
}

TEST(vectors) {
    ear_vec3 a = {3, 4, 12};
    ASSERT_NEAR(ear_vec3_length(a), 13.0, 1e-6);
    ear_vec3 n = ear_vec3_normalize_or(a, ear_vec3_make(0, 0, -1));
    ASSERT_NEAR(ear_vec3_length(n), 1.0, 1e-6);
    ear_vec3 f = ear_vec3_normalize_or(ear_vec3_make(0, 0, 0), ear_vec3_make(0, 0, -1));
    ASSERT_NEAR(f.z, -1.0, 0);
    f = ear_vec3_normalize_or(ear_vec3_make(NAN, 1, 0), ear_vec3_make(1, 0, 0));
    ASSERT_NEAR(f.x, 1.0, 0);
    /* Right-handed: forward (-Z) x up (+Y) = right (+X). */
    ear_vec3 r = ear_vec3_cross(ear_vec3_make(0, 0, -1), ear_vec3_make(0, 1, 0));
    ASSERT_NEAR(r.x, 1.0, 0);
    ASSERT_FALSE(ear_vec3_is_finite(ear_vec3_make(0, INFINITY, 0)));
}

TEST(rng_is_seeded_and_in_range) {
    ear_rng a, b;
    ear_rng_seed(&a, 42);
    ear_rng_seed(&b, 42);
    for (int i = 0; i < 1000; i++) ASSERT_U64_EQ(ear_rng_next(&a), ear_rng_next(&b));
    ear_rng_seed(&b, 43);
    ASSERT_NE(ear_rng_next(&a), ear_rng_next(&b));
    /* Seed 0 is a valid state, and a known first value pins the algorithm. */
    ear_rng z;
    ear_rng_seed(&z, 0);
    ASSERT_NE(ear_rng_next(&z), 0);
    double sum = 0;
    int counts[7] = {0};
    for (int i = 0; i < 70000; i++) {
        double u = ear_rng_uniform(&a);
        ASSERT_DBL_GE(u, 0.0);
        ASSERT_DBL_LT(u, 1.0);
        sum += u;
        float f = ear_rng_range(&a, -2.0f, 3.0f);
        ASSERT_DBL_GE(f, -2.0f);
        ASSERT_DBL_LE(f, 3.0f);
        counts[ear_rng_below(&a, 7)]++;
    }
    ASSERT_NEAR(sum / 70000.0, 0.5, 0.01);
    for (int k = 0; k < 7; k++) ASSERT_NEAR(counts[k], 10000, 500); /* about 5 sigma */
    ASSERT_EQ(ear_rng_below(&a, 0), 0);
    ASSERT_NEAR(ear_rng_range(&a, 5.0f, 1.0f), 5.0, 0);
}

static int calls;
static char last_module[32];
static void capture(void *user, ear_log_level level, const char *module, const char *message) {
    (void)level;
    calls += *(int *)user;
    snprintf(last_module, sizeof last_module, "%s", module);
    (void)message;
}

TEST(log_callback_routes_and_filters) {
    int one = 1;
    ear_log_set(capture, &one, EAR_LOG_WARN);
    calls = 0;
    ear_log(EAR_LOG_INFO, "test", "dropped %d", 1);
    ear_log(EAR_LOG_WARN, "test", "kept %s", "yes");
    ear_log(EAR_LOG_ERROR, NULL, "kept");
    ASSERT_EQ(calls, 2);
    ASSERT_STR_EQ(last_module, "earshot");
    ear_log_set(NULL, NULL, EAR_LOG_WARN);
}

TEST(default_allocator) {
    const ear_allocator *a = ear_allocator_default();
    void *p = a->alloc_fn(100, a->user);
    ASSERT_NOT_NULL(p);
    p = a->realloc_fn(p, 1000, a->user);
    ASSERT_NOT_NULL(p);
    a->free_fn(p, a->user);
}

/* The library says the project's version (CMakeLists.txt), as --version prints it. */
TEST(the_version_is_the_projects) {
    ASSERT_STR_EQ(ear_version(), EAR_PROJECT_VERSION);
    unsigned major, minor, patch;
    char rest;
    ASSERT_EQ(sscanf(ear_version(), "%u.%u.%u%c", &major, &minor, &patch, &rest), 3);
}

/* Every code point round-trips through encode and decode, and the strict rules refuse
 * what is not UTF-8: overlong forms, surrogates, values above U+10FFFF, cut sequences. */
TEST(utf8_round_trips_every_code_point) {
    size_t encoded = 0;
    for (uint32_t cp = 0; cp <= 0x10FFFF; cp++) {
        char buf[4];
        size_t n = ear_utf8_encode(cp, buf);
        if (cp >= 0xD800 && cp <= 0xDFFF) {
            ASSERT_EQ(n, 0);
            continue;
        }
        size_t want = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
        ASSERT_EQ(n, want);
        uint32_t back = 0xFFFFFFFFu;
        ASSERT_EQ(ear_utf8_decode(buf, n, &back), n);
        ASSERT_EQ(back, cp);
        ASSERT_TRUE(ear_utf8_valid(buf, n));
        if (n > 1) ASSERT_EQ(ear_utf8_decode(buf, n - 1, NULL), 0); /* cut short */
        encoded++;
    }
    ASSERT_EQ(encoded, 0x110000 - 0x800);
    char out[4] = {1, 2, 3, 4};
    ASSERT_EQ(ear_utf8_encode(0x110000, out), 0);
    ASSERT_EQ(out[0], 1);
    uint32_t cp = 7;
    ASSERT_EQ(ear_utf8_decode("\xC0\x80", 2, &cp), 0);         /* overlong NUL */
    ASSERT_EQ(ear_utf8_decode("\xE0\x80\xAF", 3, &cp), 0);     /* overlong '/' */
    ASSERT_EQ(ear_utf8_decode("\xED\xA0\x80", 3, &cp), 0);     /* a surrogate */
    ASSERT_EQ(ear_utf8_decode("\xF4\x90\x80\x80", 4, &cp), 0); /* above U+10FFFF */
    ASSERT_EQ(ear_utf8_decode("\xC3\x28", 2, &cp), 0);         /* no continuation */
    ASSERT_EQ(ear_utf8_decode("", 0, &cp), 0);
    ASSERT_EQ(cp, 7); /* untouched on failure */
    ASSERT_FALSE(ear_utf8_valid("a\xC3", 2));
    ASSERT_TRUE(ear_utf8_valid("a\0b", 3)); /* NUL bytes are valid UTF-8 */
}

/* Cuts and steps never split a character: "aé€😀" is 1 + 2 + 3 + 4 bytes. */
TEST(utf8_boundaries) {
    const char *s = "a\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80";
    size_t len = strlen(s);
    ASSERT_EQ(len, 10);
    ASSERT_EQ(ear_utf8_count(s, len), 4);
    const size_t cuts[11] = {0, 1, 1, 3, 3, 3, 6, 6, 6, 6, 10};
    for (size_t max = 0; max <= len; max++) ASSERT_EQ(ear_utf8_cut(s, len, max), cuts[max]);
    ASSERT_EQ(ear_utf8_cut(s, len, 99), len);
    ASSERT_EQ(ear_utf8_next(s, len, 0), 1);
    ASSERT_EQ(ear_utf8_next(s, len, 1), 3);
    ASSERT_EQ(ear_utf8_next(s, len, 3), 6);
    ASSERT_EQ(ear_utf8_next(s, len, 6), 10);
    ASSERT_EQ(ear_utf8_next(s, len, 10), 10);
    ASSERT_EQ(ear_utf8_prev(s, 10), 6);
    ASSERT_EQ(ear_utf8_prev(s, 6), 3);
    ASSERT_EQ(ear_utf8_prev(s, 3), 1);
    ASSERT_EQ(ear_utf8_prev(s, 1), 0);
    ASSERT_EQ(ear_utf8_prev(s, 0), 0);
}

/* FNV-1a against the published test vectors (Fowler, Noll and Vo's reference table). */
TEST(fnv1a_matches_the_reference_vectors) {
    ASSERT_U64_EQ(ear_fnv1a64(EAR_FNV1A64_OFFSET, "", 0), UINT64_C(0xcbf29ce484222325));
    ASSERT_U64_EQ(ear_fnv1a64(EAR_FNV1A64_OFFSET, "a", 1), UINT64_C(0xaf63dc4c8601ec8c));
    ASSERT_U64_EQ(ear_fnv1a64(EAR_FNV1A64_OFFSET, "foobar", 6), UINT64_C(0x85944171f73967e8));
    /* Fed in pieces, the same hash. */
    ASSERT_U64_EQ(ear_fnv1a64(ear_fnv1a64(EAR_FNV1A64_OFFSET, "foo", 3), "bar", 3),
                  UINT64_C(0x85944171f73967e8));
    ASSERT_EQ(ear_fnv1a32_str(""), 0x811c9dc5u);
    ASSERT_EQ(ear_fnv1a32_str("a"), 0xe40c292cu);
    ASSERT_EQ(ear_fnv1a32_str("foobar"), 0xbf9cf968u);
    /* A float is fed by its bits, least significant byte first: 1.0f is 0x3f800000. */
    const float one = 1.0f;
    const unsigned char bytes[4] = {0x00, 0x00, 0x80, 0x3f};
    ASSERT_U64_EQ(ear_fnv1a64_floats(EAR_FNV1A64_OFFSET, &one, 1),
                  ear_fnv1a64(EAR_FNV1A64_OFFSET, bytes, 4));
}

TEST_MAIN(TEST_ENTRY(every_result_has_a_message_and_a_name),
          TEST_ENTRY(the_version_is_the_projects), TEST_ENTRY(vectors),
          TEST_ENTRY(rng_is_seeded_and_in_range), TEST_ENTRY(log_callback_routes_and_filters),
          TEST_ENTRY(default_allocator), TEST_ENTRY(utf8_round_trips_every_code_point),
          TEST_ENTRY(utf8_boundaries), TEST_ENTRY(fnv1a_matches_the_reference_vectors))
