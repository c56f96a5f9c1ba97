/* SPDX-License-Identifier: Zlib */
/*
 * Portable elementary functions for the stage's audio path, the synth and the physics
 * world's directions (portable_math.h says why).
 *
 * Each float function works in double and rounds once at the end: its polynomial and
 * its reduction are accurate to about 1e-14 relative, far inside half a float ulp
 * (6e-8), so the result is the nearest float but for arguments whose exact value lies
 * within 1e-6 ulp or so of a half-way point, and never more than 1 ulp off. Nothing
 * here calls libm (not even for NaN or infinity: those come from their bits), and every
 * expression is a chain of single IEEE operations in the order written, which C without
 * -ffast-math and without contraction keeps on every target.
 *
 * Reductions:
 *   exp:  x = k ln 2 + r, |r| <= ln 2 / 2, k by the round-to-nearest of adding and
 *         taking away 1.5 * 2^52 (exact in double), ln 2 in two parts whose first times
 *         k is exact; e^r by its Taylor series to r^13 (error below 5e-18), times 2^k
 *         built from its bits.
 *   log:  x = m 2^e with m in [sqrt(1/2), sqrt(2)) from the bits; log m = 2 atanh(s),
 *         s = (m - 1) / (m + 1), |s| <= 0.1716, by its series to s^21 (error 2e-17).
 *   sin, cos, tan: x = k pi / 2 + r, |r| <= pi / 4, pi / 2 in three parts of 33 bits
 *         (Cody and Waite: each product with k is exact for |k| < 2^20; none below
 *         pi / 4); sin r and cos r by fitted polynomials to r^11 and r^12 (relative
 *         errors 1.9e-14 and 1.1e-15), the quadrant from k mod 4. The quarter turns
 *         sin(t pi / 2) and cos(t pi / 2) of fades take t in [0, 1] and need none.
 *   acos: pi / 2 - asin x for |x| <= 1/2; 2 asin sqrt((1 - |x|) / 2) (or pi minus it)
 *         outside, so asin's Taylor series (to z^37) only ever sees |z| <= 1/2.
 * The coefficients are 1 / n!, 1 / (2n + 1) and (2n)! / (4^n n!^2 (2n + 1)) rounded to
 * double, and sin's and cos's fits; scripts/portable-math-coefficients prints them all
 * (17 digits, which name one double exactly).
 */
#include "portable_math.h"

#include <math.h> /* sqrt only: correctly rounded by IEEE 754 on every target */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* 1.5 * 2^52: x + SHIFT - SHIFT rounds x to the nearest integer for |x| < 2^51. */
#define SHIFT 6755399441055744.0

#define LN2_HI   0.6931471805598903 /* ln 2 to 42 bits: k * LN2_HI is exact for |k| < 2^11 */
#define LN2_LO   5.497923018708371e-14
#define INV_LN2  1.4426950408889634
#define LN2      0.6931471805599453
#define LN10     2.302585092994046
#define INV_LN10 0.4342944819032518
#define SQRT2    1.4142135623730951

#define PIO2_1      1.5707963267341256 /* pi / 2 to 33 bits */
#define PIO2_2      6.077100506303966e-11
#define PIO2_3      2.0222662487959506e-21
#define TWO_OVER_PI 0.6366197723675814
#define PIO2        1.5707963267948966
#define PIO2_LO     6.123233995736766e-17 /* pi / 2 - PIO2 */
#define PI          3.141592653589793
#define PI_LO       1.2246467991473532e-16 /* pi - PI */

static double from_bits(uint64_t u) {
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

static uint64_t to_bits(double d) {
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

static double nan_d(void) {
    return from_bits(0x7ff8000000000000ull);
}

static double inf_d(void) {
    return from_bits(0x7ff0000000000000ull);
}

/* p * 2^k for k in [-1080, 1030], in at most two exact scalings (the second rounds
 * only when the result is subnormal). */
static double scale2(double p, int k) {
    if (k > 1023) {
        p *= from_bits((uint64_t)(1023 + 1023) << 52);
        k -= 1023;
    } else if (k < -1022) {
        p *= from_bits((uint64_t)(-1022 + 1023) << 52);
        k += 1022;
    }
    return p * from_bits((uint64_t)(k + 1023) << 52);
}

double ear__exp(double x) {
    if (x != x) return x;
    if (x > 709.782712893384) return inf_d();
    if (x < -745.2) return 0.0;
    double kd = (x * INV_LN2 + SHIFT) - SHIFT;
    double r = (x - kd * LN2_HI) - kd * LN2_LO;
    double p =
        1.0 +
        r * (1.0 +
             r * (0.5 +
                  r * (0.16666666666666666 +
                       r * (0.041666666666666664 +
                            r * (0.008333333333333333 +
                                 r * (0.001388888888888889 +
                                      r * (0.0001984126984126984 +
                                           r * (2.48015873015873e-05 +
                                                r * (2.7557319223985893e-06 +
                                                     r * (2.755731922398589e-07 +
                                                          r * (2.505210838544172e-08 +
                                                               r * (2.08767569878681e-09 +
                                                                    r * 1.6059043836821613e-10))))))))))));
    return scale2(p, (int)kd);
}

double ear__log(double x) {
    if (x != x) return x;
    if (x < 0.0) return nan_d();
    if (x == 0.0) return -inf_d();
    if (x == inf_d()) return x;
    uint64_t u = to_bits(x);
    int e = 0;
    if (u < 0x0010000000000000ull) {          /* subnormal: make it normal first (exact) */
        u = to_bits(x * 18014398509481984.0); /* 2^54 */
        e = -54;
    }
    e += (int)(u >> 52) - 1023;
    double m = from_bits((u & 0x000fffffffffffffull) | 0x3ff0000000000000ull);
    if (m > SQRT2) {
        m *= 0.5;
        e += 1;
    }
    double f = m - 1.0; /* exact: m is within a factor 2 of 1 */
    double s = f / (m + 1.0), s2 = s * s;
    double q =
        s2 *
        (0.3333333333333333 +
         s2 * (0.2 +
               s2 * (0.14285714285714285 +
                     s2 * (0.1111111111111111 +
                           s2 * (0.09090909090909091 +
                                 s2 * (0.07692307692307693 +
                                       s2 * (0.06666666666666667 +
                                             s2 * (0.058823529411764705 +
                                                   s2 * (0.05263157894736842 +
                                                         s2 * 0.047619047619047616)))))))));
    double ed = (double)e;
    return ed * LN2_HI + (ed * LN2_LO + (2.0 * s + 2.0 * s * q));
}

float ear__expf(float x) {
    return (float)ear__exp((double)x);
}

float ear__exp2f(float x) {
    return (float)ear__exp((double)x * LN2);
}

float ear__exp10f(float x) {
    return (float)ear__exp((double)x * LN10);
}

float ear__powf(float x, float y) {
    if (y == 0.0f || x == 1.0f) return 1.0f;
    if (x != x || y != y) return x + y;
    if (x < 0.0f) return (float)nan_d();
    if (x == 0.0f) return y > 0.0f ? 0.0f : (float)inf_d();
    return (float)ear__exp((double)y * ear__log((double)x));
}

/* sin r and cos r for |r| <= pi / 4 (and a little more): r + r^3 P(r^2) and
 * 1 - r^2 / 2 + r^4 Q(r^2), P and Q of degree 4 fitted by Chebyshev interpolation
 * (scripts/portable-math-coefficients), relative errors 1.9e-14 and 1.1e-15. */
static double sin_poly(double r) {
    double r2 = r * r;
    return r + r * r2 *
                   (-0.16666666666663885 +
                    r2 * (0.008333333331078323 +
                          r2 * (-0.00019841266916110632 +
                                r2 * (2.7555990664728974e-06 + r2 * -2.4805611712122475e-08))));
}

static double cos_poly(double r) {
    double r2 = r * r;
    return 1.0 - 0.5 * r2 +
           r2 * r2 *
               (0.04166666666666468 +
                r2 * (-0.0013888888887276698 +
                      r2 * (2.480158521036455e-05 +
                            r2 * (-2.755636950618061e-07 + r2 * 2.0700582941271302e-09))));
}

/* x = k pi / 2 + r: returns r and k mod 4 in *quadrant. |x| < 2^50 (the callers keep
 * to that). */
static double reduce_pio2(double x, unsigned *quadrant) {
    double kd = (x * TWO_OVER_PI + SHIFT) - SHIFT;
    *quadrant = (unsigned)((int64_t)kd & 3);
    return ((x - kd * PIO2_1) - kd * PIO2_2) - kd * PIO2_3;
}

/* 1 when |x| is beyond the reduction (2^50), -1 for infinity or NaN, 0 otherwise. */
static int out_of_range(float x) {
    float a = x < 0.0f ? -x : x;
    if (!(a <= 3.4028234663852886e38f)) return -1;
    return a >= 1125899906842624.0f ? 1 : 0;
}

/* Below pi / 4 the reduction would leave x as it is (k = 0). */
#define NO_REDUCTION 0.785398f

float ear__sinf(float x) {
    if (x <= NO_REDUCTION && x >= -NO_REDUCTION) return (float)sin_poly((double)x);
    int o = out_of_range(x);
    if (o) return o < 0 ? (float)nan_d() : 0.0f;
    unsigned q;
    double r = reduce_pio2((double)x, &q);
    double v = (q & 1u) ? cos_poly(r) : sin_poly(r);
    return (float)((q & 2u) ? -v : v);
}

float ear__cosf(float x) {
    if (x <= NO_REDUCTION && x >= -NO_REDUCTION) return (float)cos_poly((double)x);
    int o = out_of_range(x);
    if (o) return o < 0 ? (float)nan_d() : 1.0f;
    unsigned q;
    double r = reduce_pio2((double)x, &q);
    double v = (q & 1u) ? sin_poly(r) : cos_poly(r);
    return (float)((q == 1u || q == 2u) ? -v : v);
}

float ear__tanf(float x) {
    int o = out_of_range(x);
    if (o) return o < 0 ? (float)nan_d() : 0.0f;
    unsigned q;
    double r = reduce_pio2((double)x, &q);
    double s = sin_poly(r), c = cos_poly(r);
    return (float)((q & 1u) ? -c / s : s / c);
}

/* sin(t pi / 2) for t in [0, 1], without a reduction: the first half directly, the
 * second as cos((1 - t) pi / 2), 1 - t exact in double for a float t. */
static double sin_quarter(double t) {
    return t <= 0.5 ? sin_poly(t * PIO2) : cos_poly((1.0 - t) * PIO2);
}

static double unit(float t) {
    return t > 0.0f ? (t < 1.0f ? (double)t : 1.0) : 0.0;
}

float ear__sin_quarter(float t) {
    return (float)sin_quarter(unit(t));
}

float ear__cos_quarter(float t) {
    return (float)sin_quarter(1.0 - unit(t));
}

/* asin z for 0 <= z <= 1/2: z + z^3 sum c_n z^(2n - 2). */
static double asin_half(double z) {
    double z2 = z * z;
    double p =
        0.16666666666666666 +
        z2 *
            (0.075 +
             z2 *
                 (0.044642857142857144 +
                  z2 *
                      (0.030381944444444444 +
                       z2 *
                           (0.022372159090909092 +
                            z2 *
                                (0.017352764423076924 +
                                 z2 *
                                     (0.01396484375 +
                                      z2 *
                                          (0.011551800896139705 +
                                           z2 *
                                               (0.009761609529194078 +
                                                z2 *
                                                    (0.008390335809616815 +
                                                     z2 *
                                                         (0.0073125258735988454 +
                                                          z2 *
                                                              (0.006447210311889649 +
                                                               z2 *
                                                                   (0.005740037670841924 +
                                                                    z2 *
                                                                        (0.005153309682319905 +
                                                                         z2 *
                                                                             (0.004660143486915096 +
                                                                              z2 *
                                                                                  (0.004240907093679363 +
                                                                                   z2 *
                                                                                       (0.003880964558837669 +
                                                                                        z2 *
                                                                                            0.0035692053938259347))))))))))))))));
    return z + z * z2 * p;
}

float ear__acosf(float x) {
    double z = (double)x;
    if (!(z >= -1.0 && z <= 1.0)) return (float)nan_d();
    if (z >= -0.5 && z <= 0.5) return (float)(PIO2 - (asin_half(z) - PIO2_LO));
    /* 1 - |z| is exact for a float z; the half-angle keeps asin's argument <= 1/2. */
    if (z > 0.0) return (float)(2.0 * asin_half(sqrt((1.0 - z) * 0.5)));
    return (float)((PI - 2.0 * asin_half(sqrt((1.0 + z) * 0.5))) + PI_LO);
}

/* asin z for 0 <= z <= 1: the half-angle above 1/2. */
static double asin_unit(double z) {
    if (z <= 0.5) return asin_half(z);
    return (PIO2 - 2.0 * asin_half(sqrt((1.0 - z) * 0.5))) + PIO2_LO;
}

float ear__asinf(float x) {
    double z = (double)x;
    if (!(z >= -1.0 && z <= 1.0)) return (float)nan_d();
    return (float)(z < 0.0 ? -asin_unit(-z) : asin_unit(z));
}

double ear__atan2(double y, double x) {
    if (y != y || x != x) return y + x;
    bool neg_x = (to_bits(x) >> 63) != 0, neg_y = (to_bits(y) >> 63) != 0;
    double ax = neg_x ? -x : x, ay = neg_y ? -y : y, a;
    if (ax == inf_d() || ay == inf_d()) {
        a = ax == ay ? PIO2 * 0.5 : (ay == inf_d() ? PIO2 : 0.0);
    } else if (ay == 0.0) {
        a = 0.0; /* atan2(+-0, x): +-0 for x >= +0, +-pi for x <= -0 (below) */
    } else if (ax == 0.0) {
        a = PIO2;
    } else {
        /* t = min / max in (0, 1]; atan t = asin(t / sqrt(1 + t^2)), an argument of at
         * most 1 / sqrt 2 where asin is well conditioned. Dividing first keeps huge and
         * tiny inputs away from overflow and underflow. */
        double t = ay <= ax ? ay / ax : ax / ay;
        a = asin_unit(t / sqrt(1.0 + t * t));
        if (ay > ax) a = (PIO2 - a) + PIO2_LO;
    }
    if (neg_x) a = (PI - a) + PI_LO;
    return neg_y ? -a : a;
}

float ear__atan2f(float y, float x) {
    return (float)ear__atan2((double)y, (double)x);
}

double ear__sin(double x) {
    double a = x < 0.0 ? -x : x;
    if (!(a <= 1.7976931348623157e308)) return nan_d();
    if (a >= 1125899906842624.0) return 0.0;
    unsigned q;
    double r = reduce_pio2(x, &q);
    double v = (q & 1u) ? cos_poly(r) : sin_poly(r);
    return (q & 2u) ? -v : v;
}

double ear__cos(double x) {
    double a = x < 0.0 ? -x : x;
    if (!(a <= 1.7976931348623157e308)) return nan_d();
    if (a >= 1125899906842624.0) return 1.0;
    unsigned q;
    double r = reduce_pio2(x, &q);
    double v = (q & 1u) ? sin_poly(r) : cos_poly(r);
    return (q == 1u || q == 2u) ? -v : v;
}

void ear__sincos(double x, double *out_sin, double *out_cos) {
    double a = x < 0.0 ? -x : x;
    if (!(a <= 1.7976931348623157e308)) {
        *out_sin = *out_cos = nan_d();
        return;
    }
    if (a >= 1125899906842624.0) {
        *out_sin = 0.0;
        *out_cos = 1.0;
        return;
    }
    unsigned q;
    double r = reduce_pio2(x, &q);
    double s = sin_poly(r), c = cos_poly(r);
    double vs = (q & 1u) ? c : s, vc = (q & 1u) ? s : c;
    *out_sin = (q & 2u) ? -vs : vs;
    *out_cos = (q == 1u || q == 2u) ? -vc : vc;
}

float ear__logf(float x) {
    return (float)ear__log((double)x);
}

float ear__log2f(float x) {
    return (float)(ear__log((double)x) * INV_LN2);
}

float ear__log10f(float x) {
    return (float)(ear__log((double)x) * INV_LN10);
}

double ear__exp10(double x) {
    return ear__exp(x * LN10);
}

double ear__expm1(double x) {
    double a = x < 0.0 ? -x : x;
    if (!(a <= 0.35)) return x != x ? x : ear__exp(x) - 1.0; /* no cancellation out here */
    /* e^x - 1 = x + x^2 (1/2 + x (1/6 + ...)): the series without its 1, so a tiny x
     * keeps its digits. */
    return x +
           x * x *
               (0.5 +
                x * (0.16666666666666666 +
                     x * (0.041666666666666664 +
                          x * (0.008333333333333333 +
                               x * (0.001388888888888889 +
                                    x * (0.0001984126984126984 +
                                         x * (2.48015873015873e-05 +
                                              x * (2.7557319223985893e-06 +
                                                   x * (2.755731922398589e-07 +
                                                        x * (2.505210838544172e-08 +
                                                             x * (2.08767569878681e-09 +
                                                                  x * 1.6059043836821613e-10)))))))))));
}
