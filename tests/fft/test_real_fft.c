/* SPDX-License-Identifier: Zlib */
/*
 * The general real FFT (src/audio/fft, src/audio/fft/real_fft.h) against a direct DFT in long
 * double, at every power of two from 2 to 4096, in float and in double, forward and
 * inverse; then at lengths a direct DFT cannot reach in a test (up to 2^21, the analysis
 * module's longest): a tone on a bin lands on that bin alone, and the inverse gives back
 * n times the signal.
 *
 * The error measure is the largest error over all bins (or samples) divided by the
 * signal's energy norm (sqrt of the sum of squares, a typical bin's size for noise):
 * float's rounding is 6e-8 and each pass adds about one rounding, so the float transform
 * stays under 1e-6 up to 4096 points (measured: 4.5e-7 forward, 5.2e-7 inverse at most),
 * the double one under 4e-15 (measured 8.4e-16 and 7.8e-16).
 */
#include "earshot/core.h"
#include "real_fft.h"
#include "test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct errors {
    double fwd_f, inv_f, fwd_d, inv_d;
} errors;

static errors measure(uint32_t n, uint64_t seed) {
    uint32_t m = n / 2u;
    ear_rng rng;
    ear_rng_seed(&rng, seed);
    double *x = malloc(sizeof(double) * n);
    long double *cs = malloc(sizeof(long double) * n), *sn = malloc(sizeof(long double) * n);
    long double *rr = malloc(sizeof(long double) * (m + 1u));
    long double *ri = malloc(sizeof(long double) * (m + 1u));
    float *fr = malloc(sizeof(float) * (m + 1u)), *fi = malloc(sizeof(float) * (m + 1u));
    float *fw = malloc(sizeof(float) * n);
    double *dr = malloc(sizeof(double) * (m + 1u)), *di = malloc(sizeof(double) * (m + 1u));
    double *dw = malloc(sizeof(double) * n);
    double *tab = malloc(sizeof(double) * ear__rfft_table_doubles(n));
    double energy = 0;
    for (uint32_t j = 0; j < n; j++) {
        /* Values exact in float, so both precisions transform the same signal. */
        x[j] = (double)(float)(2.0 * ear_rng_uniform(&rng) - 1.0);
        energy += x[j] * x[j];
        cs[j] = cosl(2.0L * 3.14159265358979323846264338327950288L * (long double)j / n);
        sn[j] = sinl(2.0L * 3.14159265358979323846264338327950288L * (long double)j / n);
    }
    double norm = sqrt(energy);
    for (uint32_t k = 0; k <= m; k++) {
        long double sr = 0, si = 0;
        for (uint32_t j = 0; j < n; j++) {
            uint32_t t = (uint32_t)(((uint64_t)j * k) % n);
            sr += x[j] * cs[t];
            si -= x[j] * sn[t];
        }
        rr[k] = sr;
        ri[k] = si;
    }
    ear__rfft f;
    ear__rfft_init(&f, n, tab);
    for (uint32_t j = 0; j < m; j++) {
        fr[j] = (float)x[2u * j];
        fi[j] = (float)x[2u * j + 1u];
        dr[j] = x[2u * j];
        di[j] = x[2u * j + 1u];
    }
    ear__rfft_forward(&f, fr, fi, fw);
    ear__rfftd_forward(&f, dr, di, dw);
    errors e = {0, 0, 0, 0};
    for (uint32_t k = 0; k <= m; k++) {
        e.fwd_f = fmax(e.fwd_f, (double)hypotl(fr[k] - rr[k], fi[k] - ri[k]) / norm);
        e.fwd_d = fmax(e.fwd_d, (double)hypotl(dr[k] - rr[k], di[k] - ri[k]) / norm);
    }
    /* The inverse of the exact spectrum gives n x. */
    for (uint32_t k = 0; k <= m; k++) {
        fr[k] = (float)rr[k];
        fi[k] = (float)ri[k];
        dr[k] = (double)rr[k];
        di[k] = (double)ri[k];
    }
    ear__rfft_inverse(&f, fr, fi, fw);
    ear__rfftd_inverse(&f, dr, di, dw);
    for (uint32_t j = 0; j < m; j++) {
        double want0 = (double)n * x[2u * j], want1 = (double)n * x[2u * j + 1u];
        /* The spectrum's norm is sqrt(n) times the signal's, and n x has n times it. */
        double scale = norm * sqrt((double)n);
        e.inv_f = fmax(e.inv_f, fmax(fabs(fr[j] - want0), fabs(fi[j] - want1)) / scale);
        e.inv_d = fmax(e.inv_d, fmax(fabs(dr[j] - want0), fabs(di[j] - want1)) / scale);
    }
    free(x);
    free(cs);
    free(sn);
    free(rr);
    free(ri);
    free(fr);
    free(fi);
    free(fw);
    free(dr);
    free(di);
    free(dw);
    free(tab);
    return e;
}

TEST(every_power_of_two_to_4096_matches_a_direct_dft) {
    errors worst = {0, 0, 0, 0};
    for (uint32_t n = 2; n <= 4096u; n *= 2u) {
        errors e = measure(n, 1000u + n);
        printf("  n %5u: forward %.2e (float) %.2e (double), inverse %.2e %.2e\n", n, e.fwd_f,
               e.fwd_d, e.inv_f, e.inv_d);
        worst.fwd_f = fmax(worst.fwd_f, e.fwd_f);
        worst.inv_f = fmax(worst.inv_f, e.inv_f);
        worst.fwd_d = fmax(worst.fwd_d, e.fwd_d);
        worst.inv_d = fmax(worst.inv_d, e.inv_d);
    }
    ASSERT_DBL_LT(worst.fwd_f, 1e-6);
    ASSERT_DBL_LT(worst.inv_f, 1e-6);
    ASSERT_DBL_LT(worst.fwd_d, 4e-15);
    ASSERT_DBL_LT(worst.inv_d, 4e-15);
}

/* A cosine on bin k0 of an n-point transform (its samples rounded to float): bin k0 is
 * n/2 and every other bin under 1e-6 of that (-120 dB; measured 2e-8 to 6e-8 at 2^14,
 * 2^18 and 2^21, the float input's own rounding); the inverse gives back n times it, each
 * sample within 2e-6. */
TEST(long_transforms_put_a_tone_on_its_bin_and_invert) {
    uint32_t sizes[] = {1u << 14, 1u << 18, 1u << 21};
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        uint32_t n = sizes[si], m = n / 2u, k0 = n / 7u;
        float *re = malloc(sizeof(float) * (m + 1u)), *im = malloc(sizeof(float) * (m + 1u));
        float *w = malloc(sizeof(float) * n);
        double *tab = malloc(sizeof(double) * ear__rfft_table_doubles(n));
        ear__rfft f;
        ear__rfft_init(&f, n, tab);
        for (uint32_t j = 0; j < n; j++) {
            double v = cos(6.283185307179586 * (double)(((uint64_t)j * k0) % n) / n);
            if (j & 1u)
                im[j / 2u] = (float)v;
            else
                re[j / 2u] = (float)v;
        }
        ear__rfft_forward(&f, re, im, w);
        double worst_other = 0;
        for (uint32_t k = 0; k <= m; k++)
            if (k != k0) worst_other = fmax(worst_other, hypot(re[k], im[k]));
        printf("  n %7u: bin %u = %.3f (want %.1f); largest other %.2e of it\n", n, k0,
               (double)re[k0], n / 2.0, worst_other / (n / 2.0));
        ASSERT_REL(hypot(re[k0], im[k0]), n / 2.0, 1e-6);
        ASSERT_DBL_LT(worst_other / (n / 2.0), 1e-6);
        ear__rfft_inverse(&f, re, im, w);
        double worst = 0;
        for (uint32_t j = 0; j < n; j++) {
            double v = cos(6.283185307179586 * (double)(((uint64_t)j * k0) % n) / n);
            double got = (j & 1u) ? im[j / 2u] : re[j / 2u];
            worst = fmax(worst, fabs(got / n - v));
        }
        printf("           inverse: largest error %.2e\n", worst);
        ASSERT_DBL_LT(worst, 2e-6);
        free(re);
        free(im);
        free(w);
        free(tab);
    }
}

TEST(lengths_and_tables) {
    ASSERT_TRUE(ear__rfft_length_ok(2) && ear__rfft_length_ok(4096) &&
                ear__rfft_length_ok((size_t)1 << 21) && ear__rfft_length_ok((size_t)1 << 30));
    ASSERT_FALSE(ear__rfft_length_ok(0) || ear__rfft_length_ok(1) || ear__rfft_length_ok(3) ||
                 ear__rfft_length_ok(96) || ear__rfft_length_ok((size_t)1 << 31));
    /* The two tables: 2^10 + 2^10 complex entries at 2^21 (m = 2^20), 32 KiB. */
    ASSERT_EQ(ear__rfft_table_doubles(1u << 21), 2u * (1024u + 1024u));
    ASSERT_EQ(ear__rfft_table_doubles(2), 4u);
    /* One table up to m = 2^12, two beyond. */
    ASSERT_EQ(ear__rfft_table_doubles(8192), 2u * (4096u + 1u));
    ASSERT_EQ(ear__rfft_table_doubles(16384), 2u * (128u + 64u));
    /* t = 0 and t = n/4 are exact (1 and -i), in one table and in two: the split's middle
     * bin is computed exactly. */
    uint32_t lens[] = {64, 1u << 15};
    for (int i = 0; i < 2; i++) {
        uint32_t n = lens[i];
        double *tab = malloc(sizeof(double) * ear__rfft_table_doubles(n));
        ear__rfft f;
        ear__rfft_init(&f, n, tab);
        uint32_t quarter = n / 4u, hi = quarter >> f.lo_bits,
                 lo = quarter & ((1u << f.lo_bits) - 1u);
        ASSERT_NEAR(f.lo_re[0], 1.0, 0.0);
        ASSERT_NEAR(f.lo_im[0], 0.0, 0.0);
        ASSERT_NEAR(f.hi_re[0], 1.0, 0.0);
        ASSERT_NEAR(f.hi_im[0], 0.0, 0.0);
        if (hi == 0) {
            ASSERT_NEAR(f.lo_re[lo], 0.0, 0.0);
            ASSERT_NEAR(f.lo_im[lo], -1.0, 0.0);
        } else {
            ASSERT_EQ(lo, 0);
            ASSERT_NEAR(f.hi_re[hi], 0.0, 0.0);
            ASSERT_NEAR(f.hi_im[hi], -1.0, 0.0);
        }
        free(tab);
    }
}

TEST_MAIN(TEST_ENTRY(every_power_of_two_to_4096_matches_a_direct_dft),
          TEST_ENTRY(long_transforms_put_a_tone_on_its_bin_and_invert),
          TEST_ENTRY(lengths_and_tables))
