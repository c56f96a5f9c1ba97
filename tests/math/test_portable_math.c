/* SPDX-License-Identifier: Zlib */
/*
 * The portable elementary functions (src/math, earshot/portable_math.h) against
 * the double-precision libm: the error of each float function in float ulps of the exact
 * value (the double libm's, whose own error is a billionth of a float ulp) over the
 * ranges the stage uses and beyond, exact values where they exist, symmetries that hold
 * bit for bit, and the special values.
 *
 * The promise measured: within 0.5 + 1e-4 ulp, that is the nearest float except for an
 * exact value within 1e-4 ulp of half-way between two floats (then either neighbour).
 */
#include "portable_math.h"
#include "test.h"

#include <float.h>
#include <stdint.h>

#define BOUND_ULP 0.5001
#define PI_D      3.14159265358979323846

static double ulp_of(double ref) {
    double a = fabs(ref);
    if (a < (double)FLT_MIN) return ldexp(1.0, -149);
    int e;
    frexp(a, &e); /* a = m 2^e, m in [0.5, 1) */
    return ldexp(1.0, e - 24);
}

static double ulp_err(float got, double ref) {
    if (isinf(ref) && (double)got == ref) return 0.0;
    return fabs((double)got - ref) / ulp_of(ref);
}

static float lerpf(double a, double b, uint32_t i, uint32_t n) {
    return (float)(a + (b - a) * (double)i / (double)(n - 1));
}

typedef float (*fn_f)(float);
typedef double (*fn_d)(double);

/* The largest error over n points evenly spread over [a, b] (as floats). */
static double max_err(fn_f f, fn_d ref, double a, double b, uint32_t n, float *worst_x) {
    double worst = 0.0;
    for (uint32_t i = 0; i < n; i++) {
        float x = lerpf(a, b, i, n);
        double e = ulp_err(f(x), ref((double)x));
        if (!(e <= worst)) worst = e, *worst_x = x;
    }
    return worst;
}

/* Every float in [a, b] with the given bit stride (dense near zero as floats are). */
static double max_err_bits(fn_f f, fn_d ref, float a, float b, uint32_t stride,
                           float *worst_x) {
    double worst = 0.0;
    uint32_t ua, ub;
    memcpy(&ua, &a, 4);
    memcpy(&ub, &b, 4);
    for (uint32_t u = ua; u <= ub && u >= ua; u += stride) {
        float x;
        memcpy(&x, &u, 4);
        double e = ulp_err(f(x), ref((double)x));
        if (!(e <= worst)) worst = e, *worst_x = x;
    }
    return worst;
}

#define CHECK_RANGE(f, ref, a, b, n)                                                           \
    do {                                                                                       \
        float wx_ = 0;                                                                         \
        double e_ = max_err(f, ref, a, b, n, &wx_);                                            \
        printf("  %-12s [%g, %g]: max %.6f ulp (at %.9g)\n", #f, (double)(a), (double)(b), e_, \
               (double)wx_);                                                                   \
        ASSERT_DBL_LE(e_, BOUND_ULP);                                                          \
    } while (0)

#define CHECK_BITS(f, ref, a, b, stride)                                                       \
    do {                                                                                       \
        float wx_ = 0;                                                                         \
        double e_ = max_err_bits(f, ref, a, b, stride, &wx_);                                  \
        printf("  %-12s all floats in [%g, %g] / %u: max %.6f ulp (at %.9g)\n", #f,            \
               (double)(a), (double)(b), (unsigned)(stride), e_, (double)wx_);                 \
        ASSERT_DBL_LE(e_, BOUND_ULP);                                                          \
    } while (0)

static double exp2_d(double x) {
    return exp2(x);
}
static double exp10_d(double x) {
    return pow(10.0, x);
}

TEST(sin_cos_tan_accuracy) {
    /* The stage's envelopes and crossfades: [0, pi / 2]; its filters' tan: (0, pi / 2). */
    CHECK_RANGE(ear__sinf, sin, 0.0, 1.5707964, 50001);
    CHECK_RANGE(ear__cosf, cos, 0.0, 1.5707964, 50001);
    CHECK_RANGE(ear__tanf, tan, 0.0, 1.5707963, 50001);
    CHECK_BITS(ear__sinf, sin, 1e-30f, 2.0f, 389);
    CHECK_BITS(ear__cosf, cos, 1e-30f, 2.0f, 389);
    CHECK_BITS(ear__tanf, tan, 1e-30f, 2.0f, 389);
    CHECK_RANGE(ear__sinf, sin, -65536.0, 65536.0, 100001);
    CHECK_RANGE(ear__cosf, cos, -65536.0, 65536.0, 100001);
    CHECK_RANGE(ear__tanf, tan, -65536.0, 65536.0, 100001);
}

/* sin(t pi / 2) and cos(t pi / 2), the fades' and equal-power curves' quarter turns. */
TEST(quarter_turns) {
    double worst_s = 0, worst_c = 0;
    float ws = 0, wc = 0;
    for (uint32_t i = 0; i <= 200000; i++) {
        float t = lerpf(0.0, 1.0, i, 200001);
        double es = ulp_err(ear__sin_quarter(t), sin((double)t * (PI_D / 2)));
        /* cos(t pi / 2) as sin((1 - t) pi / 2): exact at t = 1, where cos of the double
         * nearest pi / 2 is 6e-17, not 0. */
        double ec = ulp_err(ear__cos_quarter(t), sin((1.0 - (double)t) * (PI_D / 2)));
        if (es > worst_s) worst_s = es, ws = t;
        if (ec > worst_c) worst_c = ec, wc = t;
    }
    printf("  ear__sin_quarter [0, 1]: max %.6f ulp (at %.9g); ear__cos_quarter: max %.6f ulp "
           "(at %.9g)\n",
           worst_s, (double)ws, worst_c, (double)wc);
    ASSERT_DBL_LE(worst_s, BOUND_ULP);
    ASSERT_DBL_LE(worst_c, BOUND_ULP);
    ASSERT_FLOAT_EQ(ear__sin_quarter(0.0f), 0.0f);
    ASSERT_FLOAT_EQ(ear__sin_quarter(1.0f), 1.0f);
    ASSERT_FLOAT_EQ(ear__cos_quarter(0.0f), 1.0f);
    ASSERT_FLOAT_EQ(ear__cos_quarter(1.0f), 0.0f);
    ASSERT_FLOAT_EQ(ear__sin_quarter(0.5f), ear__cos_quarter(0.5f));
    ASSERT_FLOAT_EQ(ear__sin_quarter(0.5f), (float)sqrt(0.5));
    ASSERT_FLOAT_EQ(ear__sin_quarter(-3.0f), 0.0f); /* clamped into [0, 1] */
    ASSERT_FLOAT_EQ(ear__cos_quarter(7.0f), 0.0f);
    ASSERT_FLOAT_EQ(ear__sin_quarter(NAN), 0.0f);
}

TEST(sin_cos_tan_symmetry_and_values) {
    ASSERT_FLOAT_EQ(ear__sinf(0.0f), 0.0f);
    ASSERT_FLOAT_EQ(ear__cosf(0.0f), 1.0f);
    ASSERT_FLOAT_EQ(ear__tanf(0.0f), 0.0f);
    ASSERT_FLOAT_EQ(ear__sinf((float)(PI_D / 2)), 1.0f);
    ASSERT_FLOAT_EQ(ear__sinf((float)(PI_D / 6)), 0.5f);
    ASSERT_FLOAT_EQ(ear__tanf((float)(PI_D / 4)), 1.0f);
    for (uint32_t i = 0; i < 100000; i++) {
        float x = lerpf(0.0, 100.0, i, 100000);
        if (ear__sinf(-x) != -ear__sinf(x) || ear__cosf(-x) != ear__cosf(x) ||
            ear__tanf(-x) != -ear__tanf(x))
            EAR_FAIL_("symmetry broken at x = %.9g", (double)x);
    }
    ASSERT_TRUE(isnan(ear__sinf(INFINITY)));
    ASSERT_TRUE(isnan(ear__cosf(-INFINITY)));
    ASSERT_TRUE(isnan(ear__tanf(NAN)));
}

TEST(acos_accuracy_and_values) {
    CHECK_RANGE(ear__acosf, acos, -1.0, 1.0, 100001);
    CHECK_BITS(ear__acosf, acos, 1e-30f, 1.0f, 127);
    CHECK_BITS(ear__acosf, acos, 0.45f, 0.55f, 7); /* both sides of the switch at 1/2 */
    float wx = 0;
    double e = 0;
    for (uint32_t u = 0x0d000000u; u <= 0x3f800000u; u += 127) { /* the negative half */
        float x;
        memcpy(&x, &u, 4);
        x = -x;
        double ei = ulp_err(ear__acosf(x), acos((double)x));
        if (!(ei <= e)) e = ei, wx = x;
    }
    printf("  ear__acosf   floats in [-1, -1e-30] / 127: max %.6f ulp (at %.9g)\n", e,
           (double)wx);
    ASSERT_DBL_LE(e, BOUND_ULP);
    ASSERT_FLOAT_EQ(ear__acosf(1.0f), 0.0f);
    ASSERT_FLOAT_EQ(ear__acosf(0.0f), (float)(PI_D / 2));
    ASSERT_FLOAT_EQ(ear__acosf(-1.0f), (float)PI_D);
    ASSERT_FLOAT_EQ(ear__acosf(0.5f), (float)(PI_D / 3));
    ASSERT_TRUE(isnan(ear__acosf(1.0000001f)));
    ASSERT_TRUE(isnan(ear__acosf(-2.0f)));
    ASSERT_TRUE(isnan(ear__acosf(NAN)));
}

TEST(exp_accuracy_and_values) {
    CHECK_RANGE(ear__expf, exp, -103.0, 88.72, 100001);
    CHECK_RANGE(ear__exp2f, exp2_d, -149.0, 127.99, 100001);
    CHECK_RANGE(ear__exp10f, exp10_d, -44.8, 38.53, 100001);
    /* The stage: 10^(dB / 20) for ducks and occlusion, 2^(semitones / 12) for blends. */
    CHECK_RANGE(ear__exp10f, exp10_d, -5.0, 1.0, 50001);
    CHECK_RANGE(ear__exp2f, exp2_d, -4.0, 4.0, 50001);
    for (int n = -149; n <= 127; n++)
        if (ear__exp2f((float)n) != ldexpf(1.0f, n)) EAR_FAIL_("2^%d is not exact", n);
    float p = 1.0f;
    for (int n = 0; n <= 10; n++, p *= 10.0f)
        if (ear__exp10f((float)n) != p) EAR_FAIL_("10^%d is not exact", n);
    ASSERT_FLOAT_EQ(ear__expf(0.0f), 1.0f);
    ASSERT_FLOAT_EQ(ear__expf(89.0f), INFINITY);
    ASSERT_FLOAT_EQ(ear__expf(-104.0f), 0.0f);
    ASSERT_FLOAT_EQ(ear__exp(-INFINITY), 0.0);
    ASSERT_FLOAT_EQ(ear__exp(INFINITY), INFINITY);
    ASSERT_TRUE(isnan(ear__exp(NAN)));
}

/* The double functions: relative error in double ulps against libm's. */
TEST(exp_log_double) {
    double worst_e = 0, worst_l = 0;
    for (uint32_t i = 0; i < 100000; i++) {
        double x = -700.0 + 1400.0 * (double)i / 99999.0;
        double r = exp(x), e = fabs(ear__exp(x) - r) / (r * DBL_EPSILON);
        if (e > worst_e) worst_e = e;
        double y = exp(-700.0 + 1400.0 * ((double)i + 0.37) / 100000.0);
        double lr = log(y);
        double l =
            lr == 0 ? fabs(ear__log(y)) : fabs(ear__log(y) - lr) / fabs(lr * DBL_EPSILON);
        if (l > worst_l) worst_l = l;
    }
    for (uint32_t i = 1; i < 50000; i++) { /* near 1, where log is small */
        double y = 1.0 + ((double)i - 25000.0) * 4e-6;
        double lr = log(y);
        if (lr == 0) continue;
        double l = fabs(ear__log(y) - lr) / fabs(lr * DBL_EPSILON);
        if (l > worst_l) worst_l = l;
    }
    printf("  ear__exp [-700, 700]: max %.3f ulp; ear__log: max %.3f ulp\n", worst_e, worst_l);
    ASSERT_DBL_LE(worst_e, 4.0);
    ASSERT_DBL_LE(worst_l, 4.0);
    double worst_m = 0, worst_t = 0;
    for (uint32_t i = 0; i < 100000; i++) {
        /* e^x - 1 from -40 to 40, and down to 1e-12 on both sides (release constants). */
        double x = -40.0 + 80.0 * ((double)i + 0.5) / 100000.0;
        double m = ear__expm1(x), mr = expm1(x);
        if (fabs(m - mr) / fabs(mr * DBL_EPSILON) > worst_m)
            worst_m = fabs(m - mr) / fabs(mr * DBL_EPSILON);
        double tiny = (i & 1 ? -1.0 : 1.0) * exp(-27.6 + 27.0 * (double)i / 100000.0);
        double t = ear__expm1(tiny), tr = expm1(tiny);
        if (fabs(t - tr) / fabs(tr * DBL_EPSILON) > worst_m)
            worst_m = fabs(t - tr) / fabs(tr * DBL_EPSILON);
        /* 10^y: y ln 10 rounds once, so the error may grow by |y ln 10| ulp: measured as a
         * share of 3 + |y ln 10| ulp. */
        double y = -30.0 + 60.0 * (double)i / 100000.0, tr10 = pow(10.0, y);
        double e10 =
            fabs(ear__exp10(y) - tr10) / (tr10 * DBL_EPSILON) / (3.0 + fabs(y) * 2.303);
        if (e10 > worst_t) worst_t = e10;
    }
    printf("  ear__expm1 [-40, 40] and +-[1e-12, 0.5]: max %.3f ulp; ear__exp10 [-30, 30]: max "
           "%.3f of its bound\n",
           worst_m, worst_t);
    ASSERT_DBL_LE(worst_m, 4.0);
    ASSERT_DBL_LE(worst_t, 1.0);
    ASSERT_FLOAT_EQ(ear__expm1(0.0), 0.0);
    ASSERT_FLOAT_EQ(ear__log(1.0), 0.0);
    ASSERT_FLOAT_EQ(ear__log(0.0), -INFINITY);
    ASSERT_TRUE(isnan(ear__log(-1.0)));
    ASSERT_FLOAT_EQ(ear__log(INFINITY), INFINITY);
    ASSERT_DBL_LE(fabs(ear__log(4.9406564584124654e-324) - log(4.9406564584124654e-324)),
                  1e-12); /* subnormal */
}

TEST(pow_accuracy_and_values) {
    /* Distance models: (d / ref)^(-rolloff); occlusion cutoffs: ratio^amount. */
    uint64_t st = 12345;
    double worst = 0;
    float wx = 0, wy = 0;
    for (uint32_t i = 0; i < 100000; i++) {
        st = st * 6364136223846793005ull + 1442695040888963407ull;
        double ux = (double)(st >> 11) / 9007199254740992.0;
        st = st * 6364136223846793005ull + 1442695040888963407ull;
        double uy = (double)(st >> 11) / 9007199254740992.0;
        float x = (float)exp(-10.0 + 20.0 * ux), y = (float)(-8.0 + 16.0 * uy);
        double e = ulp_err(ear__powf(x, y), pow((double)x, (double)y));
        if (e > worst) worst = e, wx = x, wy = y;
    }
    printf("  ear__powf x in [e^-10, e^10], y in [-8, 8]: max %.6f ulp (at %.9g^%.9g)\n", worst,
           (double)wx, (double)wy);
    ASSERT_DBL_LE(worst, BOUND_ULP);
    for (uint32_t i = 1; i < 100000; i++) {
        float x = (float)i * 0.37f;
        if (ear__powf(x, 1.0f) != x) EAR_FAIL_("%.9g^1 is not itself", (double)x);
    }
    ASSERT_FLOAT_EQ(ear__powf(0.0f, 2.0f), 0.0f);
    ASSERT_FLOAT_EQ(ear__powf(0.0f, -2.0f), INFINITY);
    ASSERT_FLOAT_EQ(ear__powf(5.0f, 0.0f), 1.0f);
    ASSERT_FLOAT_EQ(ear__powf(1.0f, NAN), 1.0f);
    ASSERT_FLOAT_EQ(ear__powf(2.0f, 10.0f), 1024.0f);
    ASSERT_FLOAT_EQ(ear__powf(10.0f, -2.0f), 0.01f);
    ASSERT_TRUE(isnan(ear__powf(-2.0f, 2.0f)));
    ASSERT_TRUE(isnan(ear__powf(NAN, 2.0f)));
    ASSERT_FLOAT_EQ(ear__powf(INFINITY, -1.0f), 0.0f);
}

static double log2_d(double x) {
    return log2(x);
}

TEST(asin_atan2_and_logs) {
    CHECK_RANGE(ear__asinf, asin, -1.0, 1.0, 100001);
    CHECK_BITS(ear__asinf, asin, 1e-30f, 1.0f, 127);
    CHECK_RANGE(ear__logf, log, 1e-6, 1e6, 100001);
    CHECK_BITS(ear__logf, log, 1e-38f, 3e38f, 4099);
    CHECK_BITS(ear__log2f, log2_d, 1e-38f, 3e38f, 4099);
    CHECK_BITS(ear__log10f, log10, 1e-38f, 3e38f, 4099);
    CHECK_RANGE(ear__log10f, log10, 1e-5, 1.0, 100001); /* gains to dB */
    ASSERT_FLOAT_EQ(ear__log10f(1000.0f), 3.0f);
    ASSERT_FLOAT_EQ(ear__log2f(0.125f), -3.0f);
    ASSERT_FLOAT_EQ(ear__log10f(0.0f), -INFINITY);
    ASSERT_TRUE(isnan(ear__logf(-1.0f)));
    ASSERT_FLOAT_EQ(ear__asinf(1.0f), (float)(PI_D / 2));
    ASSERT_FLOAT_EQ(ear__asinf(-0.5f), (float)(-PI_D / 6));
    ASSERT_TRUE(isnan(ear__asinf(1.5f)));

    /* atan2 over a grid of directions of every size and sign. */
    double worst_f = 0, worst_d = 0;
    float wy = 0, wx = 0;
    uint64_t st = 99;
    for (uint32_t i = 0; i < 100000; i++) {
        st = st * 6364136223846793005ull + 1442695040888963407ull;
        double a = (double)(st >> 11) / 9007199254740992.0;
        st = st * 6364136223846793005ull + 1442695040888963407ull;
        double b = (double)(st >> 11) / 9007199254740992.0;
        float y = (float)((a - 0.5) * exp(40.0 * b - 20.0));
        float x = (float)((b - 0.5) * exp(40.0 * a - 20.0));
        double ref = atan2((double)y, (double)x);
        double e = ulp_err(ear__atan2f(y, x), ref);
        if (e > worst_f) worst_f = e, wy = y, wx = x;
        double yd = (a - 0.5) * exp(60.0 * b - 30.0), xd = (b - 0.5) * exp(60.0 * a - 30.0);
        double rd = atan2(yd, xd);
        double ed = fabs(ear__atan2(yd, xd) - rd) / fabs(rd);
        if (ed > worst_d) worst_d = ed;
    }
    printf("  ear__atan2f: max %.6f ulp (at y %.9g, x %.9g); ear__atan2: max relative %.3g\n",
           worst_f, (double)wy, (double)wx, worst_d);
    ASSERT_DBL_LE(worst_f, BOUND_ULP);
    ASSERT_DBL_LE(worst_d, 5e-14);
    const float z = 0.0f, inf = INFINITY;
    const float cases[][2] = {{z, z},   {-z, z},  {z, -z},   {-z, -z},    {1, z},
                              {-1, -z}, {z, -1},  {-z, -1},  {inf, inf},  {-inf, -inf},
                              {inf, 1}, {1, inf}, {1, -inf}, {-1, -inf},  {3, 4},
                              {-3, 4},  {3, -4},  {-3, -4},  {1e-30f, 1}, {1, 1e-30f}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        float y = cases[i][0], x = cases[i][1];
        float got = ear__atan2f(y, x), want = (float)atan2((double)y, (double)x);
        if (got != want || signbit(got) != signbit(want))
            EAR_FAIL_("atan2(%g, %g) = %.9g, not %.9g", (double)y, (double)x, (double)got,
                      (double)want);
    }
    ASSERT_TRUE(isnan(ear__atan2f(NAN, 1.0f)));
}

/* A reference sine and cosine that is no platform's libm (Wine's msvcrt sine is off by about
 * 1e-13): x reduced by pi/2 in three parts (fdlibm's pio2_1, pio2_2, pio2_3 and its tail,
 * each product exact in a long double for |x| < 2^20), then Taylor series to x^27 in long
 * double, which the compiler does, not the C library. Error about 1e-18 relative. */
static void reference_sincos(double x, long double *s, long double *c) {
    long double k = (long double)nearbyint(x / 1.57079632679489661923);
    long double r = (long double)x - k * 1.57079632673412561417L;
    r -= k * 6.07710050630396597660e-11L;
    r -= k * 2.02226624871116645580e-21L;
    r -= k * 8.47842766036889956997e-32L;
    long double r2 = r * r, ts = r, tc = 1.0L, sum_s = r, sum_c = 1.0L;
    for (int n = 1; n <= 13; n++) {
        ts *= -r2 / ((long double)(2 * n) * (long double)(2 * n + 1));
        tc *= -r2 / ((long double)(2 * n - 1) * (long double)(2 * n));
        sum_s += ts;
        sum_c += tc;
    }
    long long q = (long long)k & 3;
    long double qs[4] = {sum_s, sum_c, -sum_s, -sum_c}, qc[4] = {sum_c, -sum_s, -sum_c, sum_s};
    *s = qs[q];
    *c = qc[q];
}

/* The double sin and cos (for tables made at set-up, or results rounded to float), against
 * the reference above, not the platform's sin. */
TEST(sin_cos_double) {
    double worst = 0;
    for (uint32_t i = 0; i < 200000; i++) {
        double x = -1000.0 + 2000.0 * ((double)i + 0.318) / 200000.0;
        long double rs, rc;
        reference_sincos(x, &rs, &rc);
        double es = (double)(fabsl((long double)ear__sin(x) - rs) / fmaxl(fabsl(rs), 1e-300L));
        double ec = (double)(fabsl((long double)ear__cos(x) - rc) / fmaxl(fabsl(rc), 1e-300L));
        if (es > worst) worst = es;
        if (ec > worst) worst = ec;
    }
    printf("  ear__sin, ear__cos [-1000, 1000]: max relative %.3g\n", worst);
    ASSERT_DBL_LE(worst, 3e-14);
    ASSERT_FLOAT_EQ(ear__sin(0.0), 0.0);
    ASSERT_FLOAT_EQ(ear__cos(0.0), 1.0);
    ASSERT_TRUE(isnan(ear__sin(INFINITY)));
    /* ear__sincos: the very bits of the two, over every quadrant, beyond the reduction's
     * exact range and at the special values. */
    uint32_t differ = 0;
    for (uint32_t i = 0; i < 200000; i++) {
        double x = -3000.0 + 6000.0 * ((double)i + 0.271) / 200000.0;
        if (i % 1000 == 0) x = ldexp(x, 45); /* near and past 2^50 */
        double s, c;
        ear__sincos(x, &s, &c);
        if (memcmp(&s, &(double){ear__sin(x)}, sizeof s) != 0 ||
            memcmp(&c, &(double){ear__cos(x)}, sizeof c) != 0)
            differ++;
    }
    ASSERT_U64_EQ(differ, 0);
    double s, c;
    ear__sincos(-0.0, &s, &c);
    ASSERT_NEAR(s, 0.0, 0.0);           /* a zero, */
    ASSERT_FLOAT_EQ(s, ear__sin(-0.0)); /* of the sign ear__sin gives it */
    ASSERT_FLOAT_EQ(c, 1.0);
    ear__sincos(NAN, &s, &c);
    ASSERT_TRUE(isnan(s) && isnan(c));
    ear__sincos(-INFINITY, &s, &c);
    ASSERT_TRUE(isnan(s) && isnan(c));
}

TEST_MAIN(TEST_ENTRY(sin_cos_tan_accuracy), TEST_ENTRY(quarter_turns),
          TEST_ENTRY(sin_cos_tan_symmetry_and_values), TEST_ENTRY(acos_accuracy_and_values),
          TEST_ENTRY(exp_accuracy_and_values), TEST_ENTRY(exp_log_double),
          TEST_ENTRY(pow_accuracy_and_values), TEST_ENTRY(asin_atan2_and_logs),
          TEST_ENTRY(sin_cos_double))
