/* SPDX-License-Identifier: Zlib */
/*
 * tests/test.h checks what it says. Each assert is run on values that must pass and, in a
 * helper whose failure is caught (its stderr read back into `said`), on values that must
 * fail; the failure must print both values. The integer asserts compare signed with
 * unsigned by value, ASSERT_FLOAT_EQ is bit for bit (one ulp apart fails, a NaN equals
 * the same NaN, -0.0 is not 0.0), SETUP_ONCE runs its helper once and remembers a failure.
 * What must not compile (ASSERT_EQ on floats or pointers) and how the executable answers an
 * unknown test name are checked by tests/harness/check-harness, which also runs
 * harness_fails.c, an executable whose failure is expected.
 */
#define _POSIX_C_SOURCE 200809L
#include <unistd.h>

#include "test.h"

/* What the last helper run by run_capturing printed on stderr. */
static char said[4096];

static void run_capturing(void (*fn)(void)) {
    fflush(stderr);
    int saved = dup(2);
    FILE *tmp = tmpfile();
    if (saved < 0 || !tmp) {
        fprintf(stderr, "run_capturing: no temporary file\n");
        abort();
    }
    dup2(fileno(tmp), 2);
    fn();
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(tmp);
    size_t n = fread(said, 1, sizeof said - 1, tmp);
    said[n] = '\0';
    fclose(tmp);
}

/* fn's assert must fail, printing `text`; the failure is then taken back. */
#define MUST_FAIL_SAYING(fn, text)                                                             \
    do {                                                                                       \
        ear_test_failed_ = 0;                                                                  \
        run_capturing(fn);                                                                     \
        int failed_ = ear_test_failed_;                                                        \
        ear_test_failed_ = 0;                                                                  \
        if (!failed_) EAR_FAIL_("%s passed; it must fail", #fn);                               \
        ASSERT_STR_CONTAINS(said, text);                                                       \
    } while (0)

static void u64_max_is_not_minus_one(void) {
    ASSERT_EQ(UINT64_MAX, -1);
}
static void minus_one_is_below_zero_unsigned(void) {
    ASSERT_GE(-1, 0u);
}
static void two_to_the_63_is_not_int64_min(void) {
    ASSERT_EQ((uint64_t)1 << 63, INT64_MIN);
}
static void a_size_is_not_minus_one(void) {
    size_t n = SIZE_MAX;
    ASSERT_EQ(n, -1);
}

TEST(integers_compare_by_value_across_signedness) {
    ASSERT_LT(-1, UINT64_MAX);
    ASSERT_NE(UINT64_MAX, -1);
    ASSERT_EQ((uint64_t)1 << 63, 9223372036854775808u);
    ASSERT_GT((uint64_t)1 << 63, INT64_MAX);
    ASSERT_EQ(INT64_MIN, INT64_MIN);
    ASSERT_LE(INT64_MIN, 0u);
    ASSERT_EQ((unsigned char)200, 200);
    ASSERT_EQ((signed char)-56, -56);
    MUST_FAIL_SAYING(u64_max_is_not_minus_one,
                     "ASSERT(UINT64_MAX == -1) failed: 18446744073709551615 vs -1");
    MUST_FAIL_SAYING(minus_one_is_below_zero_unsigned, "ASSERT(-1 >= 0u) failed: -1 vs 0");
    MUST_FAIL_SAYING(two_to_the_63_is_not_int64_min,
                     "failed: 9223372036854775808 vs -9223372036854775808");
    MUST_FAIL_SAYING(a_size_is_not_minus_one,
                     "ASSERT(n == -1) failed: 18446744073709551615 vs -1");
}

static void one_ulp_apart(void) {
    ASSERT_FLOAT_EQ(0.1f, nextafterf(0.1f, 1.0f));
}
static void float_against_its_double(void) {
    ASSERT_FLOAT_EQ(0.1f, 0.1);
}
static void zero_is_not_minus_zero(void) {
    ASSERT_FLOAT_EQ(0.0, -0.0);
}
static void float_zero_is_not_minus_zero(void) {
    ASSERT_FLOAT_EQ(0.0f, -0.0f);
}
static void nan_is_not_minus_nan(void) {
    ASSERT_FLOAT_EQ(NAN, -NAN);
}
static void a_sample_is_not_a_quarter(void) {
    float sample = 0.9f;
    ASSERT_FLOAT_EQ(sample, 0.25f);
}

TEST(float_eq_is_bit_for_bit) {
    float half = 0.5f;
    ASSERT_FLOAT_EQ(half, 0.5);
    ASSERT_FLOAT_EQ(0.1f, (float)0.1);
    ASSERT_FLOAT_EQ(NAN, NAN);
    ASSERT_FLOAT_EQ((double)NAN, (double)NAN);
    ASSERT_FLOAT_EQ(-0.0f, -0.0f);
    ASSERT_FLOAT_EQ(INFINITY, INFINITY);
    float zero = 0.0f;
    ASSERT_FLOAT_EQ(zero, 0); /* an integer operand is converted, as == would */
    MUST_FAIL_SAYING(one_ulp_apart, "0.100000001 (0x1.99999ap-4, bits 0x3dcccccd) vs "
                                    "0.100000009 (0x1.99999cp-4, bits 0x3dccccce)");
    MUST_FAIL_SAYING(float_against_its_double, "ASSERT_FLOAT_EQ(0.1f, 0.1) failed");
    MUST_FAIL_SAYING(zero_is_not_minus_zero, "bits 0x0000000000000000) vs -0");
    MUST_FAIL_SAYING(float_zero_is_not_minus_zero,
                     "bits 0x00000000) vs -0 (-0x0p+0, bits 0x80000000)");
    MUST_FAIL_SAYING(nan_is_not_minus_nan, "bits 0x7fc00000) vs -nan");
    MUST_FAIL_SAYING(a_sample_is_not_a_quarter,
                     "ASSERT_FLOAT_EQ(sample, 0.25f) failed: 0.899999976");
}

static void far_apart(void) {
    ASSERT_NEAR(1.0f, 1.5, 0.25);
}
static void nan_is_near_nothing(void) {
    ASSERT_NEAR(NAN, 0.0, 1e9);
}
static void relatively_far(void) {
    ASSERT_REL(110.0, 100.0, 0.05);
}
static void not_below(void) {
    ASSERT_DBL_LT(2.0, 1.5f);
}

TEST(tolerances_and_order) {
    ASSERT_NEAR(1.0f, 1.2, 0.25);
    ASSERT_REL(104.0, 100.0, 0.05);
    ASSERT_DBL_LE(1.5f, 1.5);
    MUST_FAIL_SAYING(far_apart, "ASSERT_NEAR(1.0f, 1.5, 0.25) failed: 1 vs 1.5 (diff 0.5)");
    MUST_FAIL_SAYING(nan_is_near_nothing, "failed: nan vs 0");
    MUST_FAIL_SAYING(relatively_far, "failed: 110 vs 100 (rel 0.1)");
    MUST_FAIL_SAYING(not_below, "ASSERT(2.0 < 1.5f) failed: 2 vs 1.5");
}

static void third_byte_differs(void) {
    const char a[4] = "abc", b[4] = "abd";
    ASSERT_MEM_EQ(a, b, sizeof a);
}
static void null_memory(void) {
    const char a[4] = "abc";
    ASSERT_MEM_EQ(a, NULL, sizeof a);
}

TEST(mem_eq_names_the_first_difference) {
    const float x[3] = {1, 2, 3}, y[3] = {1, 2, 3};
    ASSERT_MEM_EQ(x, y, sizeof x);
    MUST_FAIL_SAYING(third_byte_differs, "byte 2 of 4 differs: 0x63 vs 0x64");
    MUST_FAIL_SAYING(null_memory, "NULL is NULL");
}

static int target, other;
static void different_pointers(void) {
    ASSERT_PTR_EQ(&target, &other);
}
static void same_pointers(void) {
    ASSERT_PTR_NE(&target, &target);
}
static void not_null(void) {
    ASSERT_NULL(&target);
}
static void null(void) {
    ASSERT_NOT_NULL(NULL);
}

TEST(pointers_and_null) {
    const int *p = &target;
    ASSERT_PTR_EQ(p, &target);
    ASSERT_PTR_NE(p, &other);
    ASSERT_NULL(NULL);
    ASSERT_NOT_NULL(p);
    MUST_FAIL_SAYING(different_pointers, "ASSERT_PTR_EQ(&target, &other) failed: 0x");
    MUST_FAIL_SAYING(same_pointers, "failed: both 0x");
    MUST_FAIL_SAYING(not_null, "ASSERT_NULL(&target) failed: 0x");
    MUST_FAIL_SAYING(null, "ASSERT_NOT_NULL(NULL) failed: NULL");
}

static void strings_differ(void) {
    ASSERT_STR_EQ("left", "right");
}
static void a_null_string(void) {
    ASSERT_STR_EQ(NULL, "right");
}
static void strings_equal(void) {
    ASSERT_STR_NE("same", "same");
}
static void not_contained(void) {
    ASSERT_STR_CONTAINS("a file named x.wav", "y.wav");
}
static void contained(void) {
    ASSERT_STR_NOT_CONTAINS("a file named x.wav", "x.wav");
}
static void not_the_start(void) {
    ASSERT_STR_STARTS("line 17", "line 18");
}

TEST(strings) {
    ASSERT_STR_EQ("same", "same");
    ASSERT_STR_NE("left", "right");
    ASSERT_STR_CONTAINS("a file named x.wav", "x.wav");
    ASSERT_STR_NOT_CONTAINS("a file named x.wav", "y.wav");
    ASSERT_STR_STARTS("line 17, column 3", "line 17");
    MUST_FAIL_SAYING(strings_differ,
                     "ASSERT_STR_EQ(\"left\", \"right\") failed: \"left\" vs \"right\"");
    MUST_FAIL_SAYING(a_null_string, "failed: \"(null)\" vs \"right\"");
    MUST_FAIL_SAYING(strings_equal, "failed: \"same\" vs \"same\"");
    MUST_FAIL_SAYING(not_contained, "\"a file named x.wav\" does not contain \"y.wav\"");
    MUST_FAIL_SAYING(contained, "\"a file named x.wav\" contains \"x.wav\"");
    MUST_FAIL_SAYING(not_the_start, "\"line 17\" does not start with \"line 18\"");
}

static int made;
static void make_it(void) {
    made++;
}
static int tried;
static void fail_to_make_it(void) {
    tried++;
    ASSERT_EQ(tried, 0);
}
static void needs_the_failed_setup(void) {
    SETUP_ONCE(fail_to_make_it);
}

TEST(setup_once_runs_once_and_remembers_a_failure) {
    SETUP_ONCE(make_it);
    SETUP_ONCE(make_it);
    ASSERT_EQ(made, 1);
    MUST_FAIL_SAYING(needs_the_failed_setup, "SETUP_ONCE(fail_to_make_it) failed");
    MUST_FAIL_SAYING(needs_the_failed_setup,
                     "SETUP_ONCE(fail_to_make_it) failed earlier in this run");
    ASSERT_EQ(tried, 1);
}

TEST_MAIN(TEST_ENTRY(integers_compare_by_value_across_signedness),
          TEST_ENTRY(float_eq_is_bit_for_bit), TEST_ENTRY(tolerances_and_order),
          TEST_ENTRY(mem_eq_names_the_first_difference), TEST_ENTRY(pointers_and_null),
          TEST_ENTRY(strings), TEST_ENTRY(setup_once_runs_once_and_remembers_a_failure))
