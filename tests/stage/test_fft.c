/* SPDX-License-Identifier: Zlib */
/*
 * The stage's real FFT (src/audio/stage/fft.h) against a direct DFT in double, at every
 * length it takes: the forward transform within 4e-7 of the largest bin, the inverse giving
 * back n x the signal within 6e-8 log2 n of its peak (about an ulp a pass), and the scalar and
 * AVX2 kernels (where the CPU has AVX2) giving the same bits, in one piece and in pieces
 * (read in place, or copied where too many of its 16-float windows straddle pieces), and the
 * inverse in place.
 */
#define _POSIX_C_SOURCE 200809L
#include "fft.h"
#include "test.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define PI_D 3.14159265358979323846

static float *aligned(size_t floats) {
#ifdef _WIN32
    return _aligned_malloc(floats * sizeof(float) + 64, 32); /* Windows has no posix_memalign */
#else
    void *p = NULL;
    if (posix_memalign(&p, 32, floats * sizeof(float) + 64)) return NULL;
    return p;
#endif
}

static void release(float *p) {
#ifdef _WIN32
    _aligned_free(p);
#else
    free(p);
#endif
}

static uint32_t rnd(uint32_t *state) {
    *state = *state * 1664525u + 1013904223u;
    return *state >> 8;
}

static void check_length(uint32_t n) {
    ear__fft f;
    float *tab = aligned(ear__fft_table_floats(n));
    ear__fft_init(&f, n, tab);
    uint32_t k = n / 2u + 1u, kp = (k + 7u) & ~7u;
    float *x = aligned(n), *re = aligned(kp), *im = aligned(kp), *re2 = aligned(kp),
          *im2 = aligned(kp), *y = aligned(n), *y2 = aligned(n), *w = aligned(EAR__FFT_WORK(n));
    uint32_t st = n;
    for (uint32_t i = 0; i < n; i++) x[i] = (float)(rnd(&st) % 20001u) / 10000.0f - 1.0f;
    ear__fft_scalar.forward(&f, x, re, im, w);
    double worst = 0, top = 0;
    for (uint32_t b = 0; b < k; b++) {
        double sr = 0, si = 0;
        for (uint32_t j = 0; j < n; j++) {
            double a = -2.0 * PI_D * (double)((uint64_t)j * b % n) / n;
            sr += x[j] * cos(a);
            si += x[j] * sin(a);
        }
        worst = fmax(worst, hypot(re[b] - sr, im[b] - si));
        top = fmax(top, hypot(sr, si));
    }
    ASSERT_DBL_LE(worst, 4e-7 * top);
    ear__fft_scalar.inverse(&f, re, im, y, w);
    double back = 0;
    for (uint32_t i = 0; i < n; i++) back = fmax(back, fabs(y[i] / (double)n - x[i]));
    uint32_t bits = 0;
    while ((1u << bits) < n) bits++;
    ASSERT_DBL_LE(back, 6e-8 * bits); /* about an ulp per pass */
    fprintf(stderr, "n %5u: forward %.2g of the largest bin, inverse %.2g\n", n, worst / top,
            back);
    if (ear__fft_avx2) {
        ear__fft_avx2->forward(&f, x, re2, im2, w);
        ASSERT_MEM_EQ(re, re2, k * sizeof(float));
        ASSERT_MEM_EQ(im, im2, k * sizeof(float));
        ear__fft_avx2->inverse(&f, re, im, y2, w);
        ASSERT_MEM_EQ(y, y2, n * sizeof(float));
    }
    /* In pieces, read in place (even lengths): one of them not a multiple of 16; a 16-float
     * window across three pieces; pieces of 2 floats; more windows across pieces than the
     * AVX2 kernel reads in place (it deinterleaves into the work buffer instead). */
    uint32_t parts[5][12] = {
        {18, n / 2u - 18, n / 2u},
        {6, 4, n - 10},
        {2, 2, 2, n - 6},
        {n - 34, 10, 24},
        {14, 18, 14, 18, 14, 18, 14, 18, 14, n > 142u ? n - 142u : 0},
    };
    uint32_t counts[5] = {3, 3, 4, 3, 10};
    for (uint32_t c = 0; c < (n > 142u ? 5u : 4u); c++) {
        const float *seg[12];
        uint32_t at = 0;
        for (uint32_t g = 0; g < counts[c]; g++) {
            seg[g] = x + at;
            at += parts[c][g];
        }
        ASSERT_EQ(at, n);
        for (int kern = 0; kern < 2; kern++) {
            const ear__fft_kernel *K = kern ? ear__fft_avx2 : &ear__fft_scalar;
            if (!K) continue;
            memset(re2, 0, kp * sizeof(float));
            memset(im2, 0, kp * sizeof(float));
            K->forward_segs(&f, seg, parts[c], counts[c], re2, im2, w);
            ASSERT_MEM_EQ(re, re2, k * sizeof(float));
            ASSERT_MEM_EQ(im, im2, k * sizeof(float));
        }
    }
    /* The inverse in place (re, im and y one buffer, as the HRTF path calls it). */
    if (ear__fft_avx2) {
        float *io = aligned(n > 2u * kp ? n : 2u * kp);
        memcpy(io, re, k * sizeof(float));
        memcpy(io + kp, im, k * sizeof(float));
        ear__fft_avx2->inverse(&f, io, io + kp, io, w);
        ASSERT_MEM_EQ(y, io, n * sizeof(float));
        release(io);
    }
    release(tab), release(x), release(re), release(im), release(re2), release(im2);
    release(y), release(y2), release(w);
}

TEST(every_length_against_a_direct_dft) {
    uint32_t n = 0, count = 0;
    for (n = EAR__FFT_MIN; n <= EAR__FFT_MAX; n += 32u) {
        if (!ear__fft_length_ok(n)) continue;
        check_length(n);
        count++;
    }
    ASSERT_EQ(count, 19); /* 64 .. 8192, 192 .. 6144 and 320 .. 5120 */
    ASSERT_TRUE(!ear__fft_length_ok(96) && !ear__fft_length_ok(160) &&
                !ear__fft_length_ok(480) && ear__fft_length_ok(320) && ear__fft_length_ok(384));
}

TEST_MAIN(TEST_ENTRY(every_length_against_a_direct_dft))
