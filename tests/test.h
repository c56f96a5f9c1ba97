/* SPDX-License-Identifier: Zlib */
/*
 * A tiny test harness in the manner of libuv's task.h: each test file is one
 * executable run by CTest (so each runs in its own process with a timeout), made of
 * TEST(name) functions listed in a table. Typed assertions print both values and
 * the expression, file and line, then fail the test; the run goes on with the next
 * test and the executable exits non-zero if any failed.
 *
 * Each assert compares values of its own type:
 *   integers   ASSERT_EQ / NE / LT / LE / GT / GE: any mix of signed and unsigned
 *              operands is compared by value (-1 < UINT64_MAX, 2^63 stays 2^63), and
 *              a float, double or pointer operand does not compile;
 *   floats     ASSERT_FLOAT_EQ exact, bit for bit in the operands' common type (float
 *              or double; so -0.0 differs from 0.0 and a NaN equals a NaN of the same
 *              bits), ASSERT_NEAR within an absolute tolerance, ASSERT_REL within a
 *              relative one, ASSERT_DBL_LT / LE / GT / GE ordered;
 *   memory     ASSERT_MEM_EQ (the first differing byte), pointers ASSERT_PTR_EQ / NE,
 *              ASSERT_NULL, ASSERT_NOT_NULL; strings ASSERT_STR_EQ / NE,
 *              ASSERT_STR_CONTAINS / NOT_CONTAINS, ASSERT_STR_STARTS;
 *   results    ASSERT_OK (an ear_result, or any int, that must be 0);
 *   the rest   ASSERT_TRUE / ASSERT_FALSE, for a condition that is not a comparison.
 * An assert returns from the function it is in, so it belongs in a test or in a void
 * helper; a test can check ear_test_failed_ after calling a helper. Shared setup is made
 * on first use by SETUP_ONCE (below), never by a test of its own that others rely on.
 *
 * The executable runs every test in its table; with names as arguments, only those (an
 * unknown name is an error, exit status 2); `--list` prints the names, one a line, so
 * scripts/check-tests-alone can run each test in a process of its own. A test must pass
 * alone: what it needs, it sets up and tears down itself.
 */
#ifndef EARSHOT_TEST_H
#define EARSHOT_TEST_H

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
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

/* The helpers below print the failure themselves and return 0; the macro then marks the
 * test failed and returns from it. */
#define EAR_CHECK_(ok)                                                                         \
    do {                                                                                       \
        if (!(ok)) {                                                                           \
            ear_test_failed_ = 1;                                                              \
            return;                                                                            \
        }                                                                                      \
    } while (0)

#define ASSERT_TRUE(e)                                                                         \
    do {                                                                                       \
        if (!(e)) EAR_FAIL_("ASSERT_TRUE(%s) failed", #e);                                     \
    } while (0)
#define ASSERT_FALSE(e)                                                                        \
    do {                                                                                       \
        if (e) EAR_FAIL_("ASSERT_FALSE(%s) failed", #e);                                       \
    } while (0)

/* Integers. Unary plus promotes the operand as arithmetic would (and refuses a pointer);
 * the kind is then 1 for a signed integer, 2 for an unsigned one, 0 for a floating type.
 * The value travels as uintmax_t with its signedness beside it, so nothing is lost. */
#define EAR_INT_KIND_(x)                                                                       \
    _Generic(+(x), int : 1, long : 1, long long : 1, unsigned int : 2, unsigned long : 2,      \
             unsigned long long : 2, default : 0)
#define EAR_INT_ONLY_(name, x)                                                                 \
    _Static_assert(EAR_INT_KIND_(x) != 0,                                                      \
                   name " compares integers: for a float use ASSERT_FLOAT_EQ (exact), "        \
                        "ASSERT_NEAR or ASSERT_REL (within a tolerance) or ASSERT_DBL_*")

/* -1, 0 or 1 as a is below, equal to or above b, each read with its signedness. */
static inline int ear_test_int_cmp_(uintmax_t a, int a_signed, uintmax_t b, int b_signed) {
    int a_neg = a_signed && (intmax_t)a < 0, b_neg = b_signed && (intmax_t)b < 0;
    if (a_neg != b_neg) return a_neg ? -1 : 1;
    if (a_neg) {
        intmax_t sa = (intmax_t)a, sb = (intmax_t)b;
        return (sa > sb) - (sa < sb);
    }
    return (a > b) - (a < b);
}

static inline const char *ear_test_int_str_(char *buf, size_t size, uintmax_t v,
                                            int is_signed) {
    if (is_signed)
        snprintf(buf, size, "%jd", (intmax_t)v);
    else
        snprintf(buf, size, "%ju", v);
    return buf;
}

static inline int ear_test_int_op_(uintmax_t a, int a_signed, uintmax_t b, int b_signed,
                                   int want, int want2, const char *op, const char *ea,
                                   const char *eb, const char *file, int line) {
    int c = ear_test_int_cmp_(a, a_signed, b, b_signed);
    if (c == want || c == want2) return 1;
    char sa[32], sb[32];
    fprintf(stderr, "%s:%d: ASSERT(%s %s %s) failed: %s vs %s\n", file, line, ea, op, eb,
            ear_test_int_str_(sa, sizeof sa, a, a_signed),
            ear_test_int_str_(sb, sizeof sb, b, b_signed));
    return 0;
}

/* want and want2 are the results of ear_test_int_cmp_ that pass (twice the same for ==);
 * ea and eb the operands as written (stringified here, a macro operand would be expanded). */
#define ASSERT_INT_OP_(name, a, op, b, want, want2, ea, eb)                                    \
    do {                                                                                       \
        EAR_INT_ONLY_(name, a);                                                                \
        EAR_INT_ONLY_(name, b);                                                                \
        uintmax_t a_ = (uintmax_t)(a), b_ = (uintmax_t)(b);                                    \
        EAR_CHECK_(ear_test_int_op_(a_, EAR_INT_KIND_(a) == 1, b_, EAR_INT_KIND_(b) == 1,      \
                                    want, want2, #op, ea, eb, __FILE__, __LINE__));            \
    } while (0)
#define ASSERT_EQ(a, b) ASSERT_INT_OP_("ASSERT_EQ", a, ==, b, 0, 0, #a, #b)
#define ASSERT_NE(a, b) ASSERT_INT_OP_("ASSERT_NE", a, !=, b, -1, 1, #a, #b)
#define ASSERT_LT(a, b) ASSERT_INT_OP_("ASSERT_LT", a, <, b, -1, -1, #a, #b)
#define ASSERT_LE(a, b) ASSERT_INT_OP_("ASSERT_LE", a, <=, b, -1, 0, #a, #b)
#define ASSERT_GT(a, b) ASSERT_INT_OP_("ASSERT_GT", a, >, b, 1, 1, #a, #b)
#define ASSERT_GE(a, b) ASSERT_INT_OP_("ASSERT_GE", a, >=, b, 1, 0, #a, #b)
/* The name the 64-bit hashes have always been compared with; ASSERT_EQ now does the same. */
#define ASSERT_U64_EQ(a, b) ASSERT_INT_OP_("ASSERT_U64_EQ", a, ==, b, 0, 0, #a, #b)

/* Floats, exact: the operands' common type must be float or double (an integer operand
 * is converted to it, as == would); the bits are compared. */
#define EAR_FLOAT_KIND_(x) _Generic((x), float : 1, double : 2, default : 0)

static inline int ear_test_float_eq_(float a, float b, const char *ea, const char *eb,
                                     const char *file, int line) {
    uint32_t ua, ub;
    memcpy(&ua, &a, sizeof ua);
    memcpy(&ub, &b, sizeof ub);
    if (ua == ub) return 1;
    fprintf(stderr,
            "%s:%d: ASSERT_FLOAT_EQ(%s, %s) failed: %.9g (%a, bits 0x%08" PRIx32
            ") vs %.9g (%a, bits 0x%08" PRIx32 ")\n",
            file, line, ea, eb, (double)a, (double)a, ua, (double)b, (double)b, ub);
    return 0;
}

static inline int ear_test_double_eq_(double a, double b, const char *ea, const char *eb,
                                      const char *file, int line) {
    uint64_t ua, ub;
    memcpy(&ua, &a, sizeof ua);
    memcpy(&ub, &b, sizeof ub);
    if (ua == ub) return 1;
    fprintf(stderr,
            "%s:%d: ASSERT_FLOAT_EQ(%s, %s) failed: %.17g (%a, bits 0x%016" PRIx64
            ") vs %.17g (%a, bits 0x%016" PRIx64 ")\n",
            file, line, ea, eb, a, a, ua, b, b, ub);
    return 0;
}

#define ASSERT_FLOAT_EQ(a, b)                                                                  \
    do {                                                                                       \
        _Static_assert(                                                                        \
            EAR_FLOAT_KIND_((a) + (b)) != 0,                                                   \
            "ASSERT_FLOAT_EQ compares float or double values (ASSERT_EQ integers)");           \
        EAR_CHECK_(_Generic((a) + (b), float                                                   \
                            : ear_test_float_eq_, default                                      \
                            : ear_test_double_eq_)((a), (b), #a, #b, __FILE__, __LINE__));     \
    } while (0)

#define ASSERT_DBL_OP_(a, op, b, ea, eb)                                                       \
    do {                                                                                       \
        double a_ = (double)(a), b_ = (double)(b);                                             \
        if (!(a_ op b_))                                                                       \
            EAR_FAIL_("ASSERT(%s %s %s) failed: %.9g vs %.9g", ea, #op, eb, a_, b_);           \
    } while (0)
#define ASSERT_DBL_LT(a, b) ASSERT_DBL_OP_(a, <, b, #a, #b)
#define ASSERT_DBL_LE(a, b) ASSERT_DBL_OP_(a, <=, b, #a, #b)
#define ASSERT_DBL_GT(a, b) ASSERT_DBL_OP_(a, >, b, #a, #b)
#define ASSERT_DBL_GE(a, b) ASSERT_DBL_OP_(a, >=, b, #a, #b)
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

/* Memory: n bytes at a and at b. */
static inline int ear_test_mem_eq_(const void *a, const void *b, size_t n, const char *ea,
                                   const char *eb, const char *en, const char *file, int line) {
    if (!a || !b) {
        fprintf(stderr, "%s:%d: ASSERT_MEM_EQ(%s, %s, %s) failed: %s is NULL\n", file, line, ea,
                eb, en, !a ? ea : eb);
        return 0;
    }
    const unsigned char *pa = a, *pb = b;
    for (size_t i = 0; i < n; i++) {
        if (pa[i] != pb[i]) {
            fprintf(stderr,
                    "%s:%d: ASSERT_MEM_EQ(%s, %s, %s) failed: byte %zu of %zu differs: 0x%02x "
                    "vs 0x%02x\n",
                    file, line, ea, eb, en, i, n, pa[i], pb[i]);
            return 0;
        }
    }
    return 1;
}
#define ASSERT_MEM_EQ(a, b, n)                                                                 \
    EAR_CHECK_(ear_test_mem_eq_((a), (b), (n), #a, #b, #n, __FILE__, __LINE__))

/* Pointers (to objects). */
#define ASSERT_PTR_EQ(a, b)                                                                    \
    do {                                                                                       \
        const void *a_ = (a), *b_ = (b);                                                       \
        if (a_ != b_) EAR_FAIL_("ASSERT_PTR_EQ(%s, %s) failed: %p vs %p", #a, #b, a_, b_);     \
    } while (0)
#define ASSERT_PTR_NE(a, b)                                                                    \
    do {                                                                                       \
        const void *a_ = (a), *b_ = (b);                                                       \
        if (a_ == b_) EAR_FAIL_("ASSERT_PTR_NE(%s, %s) failed: both %p", #a, #b, a_);          \
    } while (0)
#define ASSERT_NULL(p)                                                                         \
    do {                                                                                       \
        const void *p_ = (p);                                                                  \
        if (p_ != NULL) EAR_FAIL_("ASSERT_NULL(%s) failed: %p", #p, p_);                       \
    } while (0)
#define ASSERT_NOT_NULL(p)                                                                     \
    do {                                                                                       \
        const void *p_ = (p);                                                                  \
        if (p_ == NULL) EAR_FAIL_("ASSERT_NOT_NULL(%s) failed: NULL", #p);                     \
    } while (0)

/* Strings (a NULL fails either assert). */
#define ASSERT_STR_EQ(a, b)                                                                    \
    do {                                                                                       \
        const char *a_ = (a), *b_ = (b);                                                       \
        if (!a_ || !b_ || strcmp(a_, b_) != 0)                                                 \
            EAR_FAIL_("ASSERT_STR_EQ(%s, %s) failed: \"%s\" vs \"%s\"", #a, #b,                \
                      a_ ? a_ : "(null)", b_ ? b_ : "(null)");                                 \
    } while (0)
#define ASSERT_STR_NE(a, b)                                                                    \
    do {                                                                                       \
        const char *a_ = (a), *b_ = (b);                                                       \
        if (!a_ || !b_ || strcmp(a_, b_) == 0)                                                 \
            EAR_FAIL_("ASSERT_STR_NE(%s, %s) failed: \"%s\" vs \"%s\"", #a, #b,                \
                      a_ ? a_ : "(null)", b_ ? b_ : "(null)");                                 \
    } while (0)

/* needle within haystack, or not; a NULL fails either. */
#define ASSERT_STR_CONTAINS(haystack, needle)                                                  \
    do {                                                                                       \
        const char *h_ = (haystack), *n_ = (needle);                                           \
        if (!h_ || !n_ || !strstr(h_, n_))                                                     \
            EAR_FAIL_("ASSERT_STR_CONTAINS(%s, %s) failed: \"%s\" does not contain \"%s\"",    \
                      #haystack, #needle, h_ ? h_ : "(null)", n_ ? n_ : "(null)");             \
    } while (0)
#define ASSERT_STR_NOT_CONTAINS(haystack, needle)                                              \
    do {                                                                                       \
        const char *h_ = (haystack), *n_ = (needle);                                           \
        if (!h_ || !n_ || strstr(h_, n_))                                                      \
            EAR_FAIL_("ASSERT_STR_NOT_CONTAINS(%s, %s) failed: \"%s\" contains \"%s\"",        \
                      #haystack, #needle, h_ ? h_ : "(null)", n_ ? n_ : "(null)");             \
    } while (0)
/* s begins with prefix. */
#define ASSERT_STR_STARTS(s, prefix)                                                           \
    do {                                                                                       \
        const char *s_ = (s), *p_ = (prefix);                                                  \
        if (!s_ || !p_ || strncmp(s_, p_, strlen(p_)) != 0)                                    \
            EAR_FAIL_("ASSERT_STR_STARTS(%s, %s) failed: \"%s\" does not start with \"%s\"",   \
                      #s, #prefix, s_ ? s_ : "(null)", p_ ? p_ : "(null)");                    \
    } while (0)

/* Fixtures. A file's tests that share something costly (files made by sox, a dataset
 * loaded) make it in a void setup helper, whose asserts may fail, and name it at their
 * start: SETUP_ONCE(make_files) runs the helper the first time any test of the process
 * names it (so a test run alone makes what it needs) and ends the test if it failed; a
 * later test that names a failed helper fails at once. The helper registers its teardown
 * with atexit(), so what it made is removed however the run ends. */
static inline int ear_test_setup_once_(void (*fn)(void), const char *name, const char *file,
                                       int line) {
    static struct {
        void (*fn)(void);
        int ok;
    } done[16];
    static size_t count = 0;
    for (size_t i = 0; i < count; i++) {
        if (done[i].fn != fn) continue;
        if (!done[i].ok)
            fprintf(stderr, "%s:%d: SETUP_ONCE(%s) failed earlier in this run\n", file, line,
                    name);
        return done[i].ok;
    }
    if (count == sizeof done / sizeof done[0]) {
        fprintf(stderr, "%s:%d: SETUP_ONCE(%s): more than %zu setup helpers\n", file, line,
                name, count);
        return 0;
    }
    size_t i = count++;
    done[i].fn = fn;
    done[i].ok = 0;
    int failed_before = ear_test_failed_;
    ear_test_failed_ = 0;
    fn();
    done[i].ok = !ear_test_failed_;
    ear_test_failed_ |= failed_before;
    if (!done[i].ok) fprintf(stderr, "%s:%d: SETUP_ONCE(%s) failed\n", file, line, name);
    return done[i].ok;
}
#define SETUP_ONCE(fn) EAR_CHECK_(ear_test_setup_once_(fn, #fn, __FILE__, __LINE__))

/* Runs the named tests (all without names) in a process; see the comment at the top. */
static inline int ear_test_run_(const ear_test_case *cases, size_t n, int argc, char **argv) {
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            if (strcmp(cases[i].name, cases[j].name) == 0) {
                fprintf(stderr, "%s: the table lists the test \"%s\" twice\n", argv[0],
                        cases[i].name);
                return 2;
            }
    if (argc == 2 && strcmp(argv[1], "--list") == 0) {
        for (size_t i = 0; i < n; i++) printf("%s\n", cases[i].name);
        return 0;
    }
    for (int a = 1; a < argc; a++) {
        size_t i = 0;
        while (i < n && strcmp(argv[a], cases[i].name) != 0) i++;
        if (i == n) {
            fprintf(stderr, "%s: no test named \"%s\" (usage: %s [--list | test...])\n",
                    argv[0], argv[a], argv[0]);
            return 2;
        }
    }
    int passed = 0, failed = 0;
    int runs = argc > 1 ? argc - 1 : (int)n;
    for (int r = 0; r < runs; r++) {
        size_t i = (size_t)r;
        if (argc > 1)
            for (i = 0; strcmp(argv[r + 1], cases[i].name) != 0; i++) continue;
        ear_test_failed_ = 0;
        cases[i].fn();
        if (ear_test_failed_) {
            failed++;
            printf("FAIL %s\n", cases[i].name);
        } else {
            passed++;
            printf("ok   %s\n", cases[i].name);
        }
        fflush(stdout);
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}

/* The table of tests and main(); prints "N passed, N failed" as its last line. */
#define TEST_MAIN(...)                                                                         \
    int ear_test_failed_ = 0;                                                                  \
    int main(int argc, char **argv) {                                                          \
        static const ear_test_case cases[] = {__VA_ARGS__};                                    \
        return ear_test_run_(cases, sizeof cases / sizeof cases[0], argc, argv);               \
    }

#endif
