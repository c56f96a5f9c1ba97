/* SPDX-License-Identifier: Zlib */
/*
 * The general real FFT (src/audio/fft/real_fft.h): the plan and its twiddle tables here, the
 * transform in real_fft_body.h, compiled once in float (ear__rfft_*) and once in double
 * (ear__rfftd_*).
 *
 * Twiddles. Every twiddle the passes need is e^(-2 pi i t / n) for some 0 <= t < n/2 (the
 * complex passes' w^p, w^2p = e^(-2 pi i 2ps / n), 4ps / n; the split's W^k with k <= n/4),
 * or radix 4's w^3p up to t < 3n/4, which is minus the one at t - n/2. Up to m = 2^12 they
 * are one table of m entries. Beyond, with t = hi 2^b + lo (b about half of log2 m), each
 * is the product of two table entries, one of 2^b for lo and one of m / 2^b for hi: about
 * 2 sqrt(m) complex doubles instead of m, which is what lets analysis transform 2^21
 * points within its stated memory. Each entry is cos and sin of an angle reduced to the
 * first octant (so t = 0 and t = n/4 are exactly 1 and -i), within an ulp or so of
 * double, and a product adds about two more: far below float, and at double's own level
 * for the HRTF loader (tests/fft measures both against a direct DFT in long double).
 */
#include "real_fft.h"

#include <math.h>
#include <string.h>

#define TWO_PI 6.283185307179586476925286766559

int ear__rfft_length_ok(size_t n) {
    return n >= EAR__RFFT_MIN && n <= EAR__RFFT_MAX && (n & (n - 1u)) == 0;
}

/* log2 of a power of two. */
static uint32_t log2u(uint32_t v) {
    uint32_t b = 0;
    while ((1u << b) < v) b++;
    return b;
}

/* lo_bits for length n: all of log2(m) up to m = 2^EAR__RFFT_FULL_BITS (one table, no
 * product), half of it, rounded up, beyond. */
static uint32_t lo_bits_of(uint32_t n) {
    uint32_t b = log2u(n / 2u);
    return b <= EAR__RFFT_FULL_BITS ? b : (b + 1u) / 2u;
}

size_t ear__rfft_table_doubles(uint32_t n) {
    uint32_t m = n / 2u, b = lo_bits_of(n);
    return 2u * ((size_t)(1u << b) + (m >> b));
}

/* cos and -sin of 2 pi t / n (0 <= t < n/2), from the first octant by symmetry. */
static void unit(uint64_t t, uint64_t n, double *c, double *s) {
    /* 2 pi t / n in (pi/2, pi): cos = -cos(pi - a), sin = sin(pi - a). */
    int flip = 4u * t > n;
    if (flip) t = n / 2u - t;
    /* In (pi/4, pi/2]: cos a = sin(pi/2 - a), sin a = cos(pi/2 - a). */
    int swap = 8u * t > n;
    if (swap) t = n / 4u - t;
    double a = TWO_PI * (double)t / (double)n, cs = cos(a), sn = sin(a);
    if (swap) {
        double x = cs;
        cs = sn;
        sn = x;
    }
    if (flip) cs = -cs;
    *c = cs;
    *s = -sn;
}

void ear__rfft_init(ear__rfft *f, uint32_t n, double *table) {
    uint32_t m = n / 2u, b = lo_bits_of(n), nlo = 1u << b, nhi = m >> b;
    f->n = n;
    f->m = m;
    f->lo_bits = b;
    double *lo_re = table, *lo_im = table + nlo;
    double *hi_re = table + 2u * nlo, *hi_im = hi_re + nhi;
    for (uint32_t i = 0; i < nlo; i++) unit(i, n, &lo_re[i], &lo_im[i]);
    for (uint32_t i = 0; i < nhi; i++) unit((uint64_t)i << b, n, &hi_re[i], &hi_im[i]);
    f->lo_re = lo_re;
    f->lo_im = lo_im;
    f->hi_re = hi_re;
    f->hi_im = hi_im;
}

#define REAL    float
#define NAME(x) ear__rfft_##x
#include "real_fft_body.h"
#undef REAL
#undef NAME

#define REAL    double
#define NAME(x) ear__rfftd_##x
#include "real_fft_body.h"
#undef REAL
#undef NAME
