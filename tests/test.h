/* SPDX-License-Identifier: Zlib */
/*
 * A tiny test harness in the manner of libuv's task.h: each test file is one
 * executable run by CTest (so each runs in its own process with a timeout), made of
 * TEST(name) functions listed in a table. Typed assertions print both values and
 * the expression, file and line, then fail the test; the run goes on with the next
 * test and the executable exits non-zero if any failed.
 */
#ifndef EARSHOT_TEST_H
#define EARSHOT_TEST_H

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct ear_test_case {
    const char *name;
    void (*fn)(void);
} ear_test_case;

extern int ear_test_failed_;

#define TEST(name) static void test_##name(void)
#define TEST_ENTRY(name)                                                                       \
    { #name, test_##name }

#define EAR_FAIL_(...)                                                                         \
    do {                                                                                       \
        fprintf(stderr, "%s:%d: ", __FILE__, __LINE__);                                        \
        fprintf(stderr, __VA_ARGS__);                                                          \
        fprintf(stderr, "\n");                                                                 \
        ear_test_failed_ = 1;                                                                  \
        return;                                                                                \
    } while (0)

#define ASSERT_TRUE(e)                                                                         \
    do {                                                                                       \
        if (!(e)) EAR_FAIL_("ASSERT_TRUE(%s) failed", #e);                                     \
    } while (0)
#define ASSERT_FALSE(e)                                                                        \
    do {                                                                                       \
        if (e) EAR_FAIL_("ASSERT_FALSE(%s) failed", #e);                                       \
    } while (0)
#define ASSERT_INT_OP_(a, op, b)                                                               \
    do {                                                                                       \
        long long a_ = (long long)(a), b_ = (long long)(b);                                    \
        if (!(a_ op b_))                                                                       \
            EAR_FAIL_("ASSERT(%s %s %s) failed: %lld vs %lld", #a, #op, #b, a_, b_);           \
    } while (0)
#define ASSERT_EQ(a, b) ASSERT_INT_OP_(a, ==, b)
#define ASSERT_NE(a, b) ASSERT_INT_OP_(a, !=, b)
#define ASSERT_LT(a, b) ASSERT_INT_OP_(a, <, b)
#define ASSERT_LE(a, b) ASSERT_INT_OP_(a, <=, b)
#define ASSERT_GT(a, b) ASSERT_INT_OP_(a, >, b)
#define ASSERT_GE(a, b) ASSERT_INT_OP_(a, >=, b)
#define ASSERT_U64_EQ(a, b)                                                                    \
    do {                                                                                       \
        uint64_t a_ = (uint64_t)(a), b_ = (uint64_t)(b);                                       \
        if (a_ != b_)                                                                          \
            EAR_FAIL_("ASSERT_U64_EQ(%s, %s) failed: %" PRIu64 " vs %" PRIu64, #a, #b, a_,     \
                      b_);                                                                     \
    } while (0)
#define ASSERT_DBL_OP_(a, op, b)                                                               \
    do {                                                                                       \
        double a_ = (double)(a), b_ = (double)(b);                                             \
        if (!(a_ op b_))                                                                       \
            EAR_FAIL_("ASSERT(%s %s %s) failed: %.9g vs %.9g", #a, #op, #b, a_, b_);           \
    } while (0)
#define ASSERT_DBL_LT(a, b) ASSERT_DBL_OP_(a, <, b)
#define ASSERT_DBL_LE(a, b) ASSERT_DBL_OP_(a, <=, b)
#define ASSERT_DBL_GT(a, b) ASSERT_DBL_OP_(a, >, b)
#define ASSERT_DBL_GE(a, b) ASSERT_DBL_OP_(a, >=, b)
/* |a - b| <= tol */
#define ASSERT_NEAR(a, b, tol)                                                                 \
    do {                                                                                       \
        double a_ = (double)(a), b_ = (double)(b), t_ = (double)(tol);                         \
        if (!(fabs(a_ - b_) <= t_))                                                            \
            EAR_FAIL_("ASSERT_NEAR(%s, %s, %s) failed: %.9g vs %.9g (diff %.3g)", #a, #b,      \
                      #tol, a_, b_, fabs(a_ - b_));                                            \
    } while (0)
/* |a / b - 1| <= rel */
#define ASSERT_REL(a, b, rel)                                                                  \
    do {                                                                                       \
        double a_ = (double)(a), b_ = (double)(b), r_ = (double)(rel);                         \
        if (!(fabs(a_ / b_ - 1.0) <= r_))                                                      \
            EAR_FAIL_("ASSERT_REL(%s, %s, %s) failed: %.9g vs %.9g (rel %.3g)", #a, #b, #rel,  \
                      a_, b_, fabs(a_ / b_ - 1.0));                                            \
    } while (0)
#define ASSERT_OK(e)                                                                           \
    do {                                                                                       \
        int r_ = (int)(e);                                                                     \
        if (r_ != 0) EAR_FAIL_("ASSERT_OK(%s) failed: result %d", #e, r_);                     \
    } while (0)
#define ASSERT_STR_EQ(a, b)                                                                    \
    do {                                                                                       \
        const char *a_ = (a), *b_ = (b);                                                       \
        if (!a_ || !b_ || strcmp(a_, b_) != 0)                                                 \
            EAR_FAIL_("ASSERT_STR_EQ(%s, %s) failed: \"%s\" vs \"%s\"", #a, #b,                \
                      a_ ? a_ : "(null)", b_ ? b_ : "(null)");                                 \
    } while (0)

/* Runs the table; with an argument, only the test of that name. Prints
 * "N passed, N failed" as its last line. */
#define TEST_MAIN(...)                                                                         \
    int ear_test_failed_ = 0;                                                                  \
    int main(int argc, char **argv) {                                                          \
        static const ear_test_case cases[] = {__VA_ARGS__};                                    \
        int passed = 0, failed = 0;                                                            \
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {                          \
            if (argc > 1 && strcmp(argv[1], cases[i].name) != 0) continue;                     \
            ear_test_failed_ = 0;                                                              \
            cases[i].fn();                                                                     \
            if (ear_test_failed_) {                                                            \
                failed++;                                                                      \
                printf("FAIL %s\n", cases[i].name);                                            \
            } else {                                                                           \
                passed++;                                                                      \
                printf("ok   %s\n", cases[i].name);                                            \
            }                                                                                  \
        }                                                                                      \
        printf("%d passed, %d failed\n", passed, failed);                                      \
        return failed ? 1 : 0;                                                                 \
    }

#endif
