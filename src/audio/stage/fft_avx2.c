/* SPDX-License-Identifier: Zlib */
/*
 * The stage's real FFT with AVX2 (fft.h): the same operations as fft.c's scalar kernel,
 * eight elements at a time, in the same order and without FMA, so both give the same
 * bits. Passes at strides 1, 2 and 4 write their outputs interleaved (unpacks and lane
 * permutes: a 4 x 8 transpose for radix 4 at stride 1); from stride 8 on every store is
 * contiguous.
 *
 * What it does not do as the scalar kernel does is move the data: the forward transform's
 * first pass reads the real input in place (first_pass, from 16-float windows of the
 * pieces) and splits even and odd samples in registers; the last two passes run as one
 * where they are radix 4 then 3, 2 then 3, 2 then 5, or 4 then 2 (last43, last23, last25,
 * last42: the
 * outputs of the first of the two are the inputs of the second in the same lanes); the
 * inverse's last pass writes the interleaved real output. The passes and splits are
 * always-inline bodies instantiated with m a constant for the HRTF path's lengths
 * (forward_win, inverse_avx2), so that every stride is an immediate.
 * Compiled for AVX2 through target attributes and used only where the CPU has it.
 */
#include "fft.h"

#include <stdbool.h>
#include <string.h>

#if defined(__x86_64__)

#include <immintrin.h>

#define AVX2 __attribute__((target("avx2")))
/* The small pieces, always inlined (with their loops unrolled) into each pass, so that
 * the pass's eight-element vectors stay in registers and the constants (inv, y) fold. */
#define AVX2_INLINE __attribute__((target("avx2"), always_inline)) static inline
#define UNROLL      _Pragma("GCC unroll 4")

/* Stores s (the sums) and d (the differences) of eight elements of stage t at o, o + s. */
AVX2_INLINE void put(uint32_t t, float *y, uint32_t e, __m256 sum, __m256 dif) {
    if (t == 0) { /* y[2e] = sum, y[2e + 1] = dif */
        __m256 lo = _mm256_unpacklo_ps(sum, dif), hi = _mm256_unpackhi_ps(sum, dif);
        _mm256_storeu_ps(y + 2u * e, _mm256_permute2f128_ps(lo, hi, 0x20));
        _mm256_storeu_ps(y + 2u * e + 8u, _mm256_permute2f128_ps(lo, hi, 0x31));
    } else if (t == 1) { /* pairs: y[4p + q], y[4p + q + 2] */
        __m256d a = _mm256_castps_pd(sum), b = _mm256_castps_pd(dif);
        __m256d lo = _mm256_unpacklo_pd(a, b), hi = _mm256_unpackhi_pd(a, b);
        _mm256_storeu_ps(y + 2u * e, _mm256_castpd_ps(_mm256_permute2f128_pd(lo, hi, 0x20)));
        _mm256_storeu_ps(y + 2u * e + 8u,
                         _mm256_castpd_ps(_mm256_permute2f128_pd(lo, hi, 0x31)));
    } else if (t == 2) { /* quads: y[8p + q], y[8p + q + 4] */
        _mm256_storeu_ps(y + 2u * e, _mm256_permute2f128_ps(sum, dif, 0x20));
        _mm256_storeu_ps(y + 2u * e + 8u, _mm256_permute2f128_ps(sum, dif, 0x31));
    } else {
        uint32_t s = 1u << t, o = ((e >> t) << (t + 1u)) + (e & (s - 1u));
        _mm256_storeu_ps(y + o, sum);
        _mm256_storeu_ps(y + o + s, dif);
    }
}

AVX2 static void radix2_avx2(const ear__fft *f, const ear__fft_pass *ps, bool inv,
                             const float *xr, const float *xi, float *yr, float *yi) {
    uint32_t half = f->m / 2u, t = 0;
    while ((1u << t) < ps->s) t++;
    const float *wr = f->tw_re + ps->tw, *wi = f->tw_im + ps->tw;
    const __m256 sign = _mm256_set1_ps(-0.0f);
    for (uint32_t e = 0; e < half; e += 8u) {
        __m256 ar = _mm256_loadu_ps(xr + e), ai = _mm256_loadu_ps(xi + e);
        __m256 br = _mm256_loadu_ps(xr + e + half), bi = _mm256_loadu_ps(xi + e + half);
        __m256 dr = _mm256_sub_ps(ar, br), di = _mm256_sub_ps(ai, bi);
        __m256 c = _mm256_loadu_ps(wr + e), d = _mm256_loadu_ps(wi + e);
        if (inv) d = _mm256_xor_ps(d, sign);
        __m256 orr = _mm256_sub_ps(_mm256_mul_ps(dr, c), _mm256_mul_ps(di, d));
        __m256 oi = _mm256_add_ps(_mm256_mul_ps(dr, d), _mm256_mul_ps(di, c));
        put(t, yr, e, _mm256_add_ps(ar, br), orr);
        put(t, yi, e, _mm256_add_ps(ai, bi), oi);
    }
}

/* Eight complex outputs at element k: into yr, yi, or interleaved into y[2k ..] when y is
 * not NULL (the inverse transform's last pass writes the real output directly). */
AVX2_INLINE void put_out(float *yr, float *yi, float *y, uint32_t k, __m256 re, __m256 im) {
    if (y) {
        __m256 lo = _mm256_unpacklo_ps(re, im), hi = _mm256_unpackhi_ps(re, im);
        _mm256_storeu_ps(y + 2u * k, _mm256_permute2f128_ps(lo, hi, 0x20));
        _mm256_storeu_ps(y + 2u * k + 8u, _mm256_permute2f128_ps(lo, hi, 0x31));
    } else {
        _mm256_storeu_ps(yr + k, re);
        _mm256_storeu_ps(yi + k, im);
    }
}

/* Stores a radix-4 pass's four outputs of eight elements from e on (e = q + s p):
 * y[4sp + q + i s] = v[i]. */
AVX2_INLINE void put4(uint32_t s, float *y, uint32_t e, __m256 v0, __m256 v1, __m256 v2,
                      __m256 v3) {
    if (s == 1u) { /* y[4p + i]: a 4 x 8 transpose */
        __m256 t0 = _mm256_unpacklo_ps(v0, v1), t1 = _mm256_unpackhi_ps(v0, v1);
        __m256 t2 = _mm256_unpacklo_ps(v2, v3), t3 = _mm256_unpackhi_ps(v2, v3);
        __m256 u0 =
            _mm256_castpd_ps(_mm256_unpacklo_pd(_mm256_castps_pd(t0), _mm256_castps_pd(t2)));
        __m256 u1 =
            _mm256_castpd_ps(_mm256_unpackhi_pd(_mm256_castps_pd(t0), _mm256_castps_pd(t2)));
        __m256 u2 =
            _mm256_castpd_ps(_mm256_unpacklo_pd(_mm256_castps_pd(t1), _mm256_castps_pd(t3)));
        __m256 u3 =
            _mm256_castpd_ps(_mm256_unpackhi_pd(_mm256_castps_pd(t1), _mm256_castps_pd(t3)));
        float *o = y + 4u * e;
        _mm256_storeu_ps(o, _mm256_permute2f128_ps(u0, u1, 0x20));
        _mm256_storeu_ps(o + 8u, _mm256_permute2f128_ps(u2, u3, 0x20));
        _mm256_storeu_ps(o + 16u, _mm256_permute2f128_ps(u0, u1, 0x31));
        _mm256_storeu_ps(o + 24u, _mm256_permute2f128_ps(u2, u3, 0x31));
    } else if (s == 4u) { /* y[16p + 4i + q]: quads */
        float *o = y + 4u * e;
        _mm256_storeu_ps(o, _mm256_permute2f128_ps(v0, v1, 0x20));
        _mm256_storeu_ps(o + 8u, _mm256_permute2f128_ps(v2, v3, 0x20));
        _mm256_storeu_ps(o + 16u, _mm256_permute2f128_ps(v0, v1, 0x31));
        _mm256_storeu_ps(o + 24u, _mm256_permute2f128_ps(v2, v3, 0x31));
    } else {                                                    /* s a multiple of 8 */
        float *o = y + ((e & ~(s - 1u)) << 2) + (e & (s - 1u)); /* s a power of two */
        _mm256_storeu_ps(o, v0);
        _mm256_storeu_ps(o + s, v1);
        _mm256_storeu_ps(o + 2u * s, v2);
        _mm256_storeu_ps(o + 3u * s, v3);
    }
}

/* The butterfly of fft.c's radix4_scalar on eight elements: a..d = x[0..7] (re, im
 * pairs), twiddles w = c1 s1 c2 s2 c3 s3 (s already conjugated for the inverse); writes
 * y = y0r y0i y1r y1i y2r y2i y3r y3i. */
AVX2_INLINE void bfly4_even(const __m256 *x, const __m256 *w, __m256 *y) {
    __m256 pr = _mm256_add_ps(x[0], x[4]), pi = _mm256_add_ps(x[1], x[5]);
    __m256 qr = _mm256_add_ps(x[2], x[6]), qi = _mm256_add_ps(x[3], x[7]);
    __m256 y2r = _mm256_sub_ps(pr, qr), y2i = _mm256_sub_ps(pi, qi);
    y[0] = _mm256_add_ps(pr, qr);
    y[1] = _mm256_add_ps(pi, qi);
    y[4] = _mm256_sub_ps(_mm256_mul_ps(y2r, w[2]), _mm256_mul_ps(y2i, w[3]));
    y[5] = _mm256_add_ps(_mm256_mul_ps(y2r, w[3]), _mm256_mul_ps(y2i, w[2]));
}
AVX2_INLINE void bfly4_odd(bool inv, const __m256 *x, const __m256 *w, __m256 *y) {
    const __m256 sign = _mm256_set1_ps(-0.0f);
    __m256 mr = _mm256_sub_ps(x[0], x[4]), mi = _mm256_sub_ps(x[1], x[5]);
    __m256 nr = _mm256_sub_ps(x[2], x[6]), ni = _mm256_sub_ps(x[3], x[7]);
    __m256 jr = inv ? ni : _mm256_xor_ps(ni, sign), ji = inv ? _mm256_xor_ps(nr, sign) : nr;
    __m256 y1r = _mm256_sub_ps(mr, jr), y1i = _mm256_sub_ps(mi, ji);
    __m256 y3r = _mm256_add_ps(mr, jr), y3i = _mm256_add_ps(mi, ji);
    y[2] = _mm256_sub_ps(_mm256_mul_ps(y1r, w[0]), _mm256_mul_ps(y1i, w[1]));
    y[3] = _mm256_add_ps(_mm256_mul_ps(y1r, w[1]), _mm256_mul_ps(y1i, w[0]));
    y[6] = _mm256_sub_ps(_mm256_mul_ps(y3r, w[4]), _mm256_mul_ps(y3i, w[5]));
    y[7] = _mm256_add_ps(_mm256_mul_ps(y3r, w[5]), _mm256_mul_ps(y3i, w[4]));
}
AVX2_INLINE void bfly4(bool inv, const __m256 *x, const __m256 *w, __m256 *y) {
    bfly4_even(x, w, y);
    bfly4_odd(inv, x, w, y);
}

/* The twiddles of eight elements from wr / wi (the three tables q4 apart). */
AVX2_INLINE void twiddles4(bool inv, const float *wr, const float *wi, uint32_t q4, __m256 *w) {
    const __m256 sign = _mm256_set1_ps(-0.0f);
    UNROLL for (uint32_t j = 0; j < 3u; j++) {
        w[2u * j] = _mm256_loadu_ps(wr + j * q4);
        w[2u * j + 1u] = _mm256_loadu_ps(wi + j * q4);
        if (inv) w[2u * j + 1u] = _mm256_xor_ps(w[2u * j + 1u], sign);
    }
}

/* fft.c's radix4_scalar, eight elements at a time (s = 1, 4 or a multiple of 8). */
AVX2_INLINE void radix4_body(const ear__fft *f, const ear__fft_pass *ps, bool inv, uint32_t m,
                             uint32_t s, const float *xr, const float *xi, float *yr, float *yi,
                             float *out) {
    uint32_t q4 = m / 4u;
    const float *wr = f->tw_re + ps->tw, *wi = f->tw_im + ps->tw;
    for (uint32_t e = 0; e < q4; e += 8u) {
        __m256 x[8], w[6], y[8];
        UNROLL for (uint32_t l = 0; l < 4u; l++) {
            x[2u * l] = _mm256_loadu_ps(xr + e + l * q4);
            x[2u * l + 1u] = _mm256_loadu_ps(xi + e + l * q4);
        }
        twiddles4(inv, wr + e, wi + e, q4, w);
        bfly4(inv, x, w, y);
        if (out) { /* the inverse's last pass (s a multiple of 8): interleaved into out */
            uint32_t o = ((e & ~(s - 1u)) << 2) + (e & (s - 1u));
            UNROLL for (uint32_t i = 0; i < 4u; i++)
                put_out(NULL, NULL, out, o + i * s, y[2u * i], y[2u * i + 1u]);
            continue;
        }
        put4(s, yr, e, y[0], y[2], y[4], y[6]);
        put4(s, yi, e, y[1], y[3], y[5], y[7]);
    }
}

/* The forward transform's first pass (radix 4 at stride 1) reading the real input
 * directly: the 16 floats of window v (x[16 v .. 16 v + 16), eight complex elements
 * z = x_even + i x_odd) at win[v]. The even / odd split is one in-lane shuffle, which
 * leaves the elements in lane order (0 1 4 5 2 3 6 7); the twiddles (t1_re, t1_im) are
 * stored in that order and the 4 x 8 transpose of the stores puts the outputs back in
 * natural order. The same operations as radix4_scalar. */
AVX2_INLINE void first_pass(const ear__fft *f, uint32_t m, const float *const *win, float *yr,
                            float *yi) {
    uint32_t q4 = m / 4u, vq = q4 / 8u;
    for (uint32_t e = 0, v = 0; e < q4; e += 8u, v++) {
        __m256 x[8], w[6], y[8];
        UNROLL for (uint32_t l = 0; l < 4u; l++) {
            const float *p = win[v + l * vq];
            __m256 a = _mm256_loadu_ps(p), b = _mm256_loadu_ps(p + 8);
            x[2u * l] = _mm256_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0));
            x[2u * l + 1u] = _mm256_shuffle_ps(a, b, _MM_SHUFFLE(3, 1, 3, 1));
        }
        twiddles4(false, f->t1_re + e, f->t1_im + e, q4, w);
        bfly4(false, x, w, y);
        UNROLL for (uint32_t c = 0; c < 2u; c++) {
            __m256 v0 = y[c], v1 = y[2u + c], v2 = y[4u + c], v3 = y[6u + c];
            __m256 t0 = _mm256_unpacklo_ps(v0, v1), t1 = _mm256_unpackhi_ps(v0, v1);
            __m256 t2 = _mm256_unpacklo_ps(v2, v3), t3 = _mm256_unpackhi_ps(v2, v3);
            __m256d d0 = _mm256_castps_pd(t0), d1 = _mm256_castps_pd(t1);
            __m256d d2 = _mm256_castps_pd(t2), d3 = _mm256_castps_pd(t3);
            __m256 u0 = _mm256_castpd_ps(_mm256_unpacklo_pd(d0, d2));
            __m256 u1 = _mm256_castpd_ps(_mm256_unpackhi_pd(d0, d2));
            __m256 u2 = _mm256_castpd_ps(_mm256_unpacklo_pd(d1, d3));
            __m256 u3 = _mm256_castpd_ps(_mm256_unpackhi_pd(d1, d3));
            /* lanes 0, 1 | 4, 5 of u0..u3 hold elements 0, 1 | 2, 3; lanes 2, 3 | 6, 7
             * elements 4, 5 | 6, 7 */
            float *o = (c ? yi : yr) + 4u * e;
            _mm256_storeu_ps(o, _mm256_permute2f128_ps(u0, u1, 0x20));
            _mm256_storeu_ps(o + 8u, _mm256_permute2f128_ps(u0, u1, 0x31));
            _mm256_storeu_ps(o + 16u, _mm256_permute2f128_ps(u2, u3, 0x20));
            _mm256_storeu_ps(o + 24u, _mm256_permute2f128_ps(u2, u3, 0x31));
        }
    }
}

/* The butterfly of fft.c's radix3_scalar: a0, a1, a2 (re, im) -> y = y0r y0i y1r y1i y2r y2i.
 */
AVX2_INLINE void bfly3(bool inv, __m256 a0r, __m256 a0i, __m256 a1r, __m256 a1i, __m256 a2r,
                       __m256 a2i, __m256 *y) {
    const __m256 h = _mm256_set1_ps(EAR__FFT_HALF), r = _mm256_set1_ps(EAR__FFT_SIN60);
    const __m256 sign = _mm256_set1_ps(-0.0f);
    __m256 t1r = _mm256_add_ps(a1r, a2r), t1i = _mm256_add_ps(a1i, a2i);
    __m256 t2r = _mm256_sub_ps(a0r, _mm256_mul_ps(h, t1r));
    __m256 t2i = _mm256_sub_ps(a0i, _mm256_mul_ps(h, t1i));
    __m256 t3r = _mm256_mul_ps(r, _mm256_sub_ps(a1r, a2r));
    __m256 t3i = _mm256_mul_ps(r, _mm256_sub_ps(a1i, a2i));
    if (inv) {
        t3r = _mm256_xor_ps(t3r, sign);
        t3i = _mm256_xor_ps(t3i, sign);
    }
    y[0] = _mm256_add_ps(a0r, t1r);
    y[1] = _mm256_add_ps(a0i, t1i);
    y[2] = _mm256_add_ps(t2r, t3i);
    y[3] = _mm256_sub_ps(t2i, t3r);
    y[4] = _mm256_sub_ps(t2r, t3i);
    y[5] = _mm256_add_ps(t2i, t3r);
}

/* fft.c's radix3_scalar, eight at a time (s = m/3 is a multiple of 8); the output
 * interleaved into y when y is not NULL. */
AVX2_INLINE void radix3_body(uint32_t m, bool inv, const float *xr, const float *xi, float *yr,
                             float *yi, float *y) {
    uint32_t s = m / 3u;
    for (uint32_t q = 0; q < s; q += 8u) {
        __m256 o[6];
        bfly3(inv, _mm256_loadu_ps(xr + q), _mm256_loadu_ps(xi + q),
              _mm256_loadu_ps(xr + q + s), _mm256_loadu_ps(xi + q + s),
              _mm256_loadu_ps(xr + q + 2u * s), _mm256_loadu_ps(xi + q + 2u * s), o);
        UNROLL for (uint32_t j = 0; j < 3u; j++)
            put_out(yr, yi, y, q + j * s, o[2u * j], o[2u * j + 1u]);
    }
}

/* The butterfly of fft.c's radix5_scalar: a[0..9] = a0r a0i .. a4r a4i -> y[0..9] =
 * y0r y0i .. y4r y4i. */
AVX2_INLINE void bfly5(bool inv, const __m256 *a, __m256 *y) {
    const __m256 c1 = _mm256_set1_ps(EAR__FFT_C1), c2 = _mm256_set1_ps(EAR__FFT_C2);
    const __m256 s1 = _mm256_set1_ps(EAR__FFT_S1), s2 = _mm256_set1_ps(EAR__FFT_S2);
    const __m256 sign = _mm256_set1_ps(-0.0f);
    __m256 t1r = _mm256_add_ps(a[2], a[8]), t1i = _mm256_add_ps(a[3], a[9]);
    __m256 t2r = _mm256_add_ps(a[4], a[6]), t2i = _mm256_add_ps(a[5], a[7]);
    __m256 t3r = _mm256_sub_ps(a[2], a[8]), t3i = _mm256_sub_ps(a[3], a[9]);
    __m256 t4r = _mm256_sub_ps(a[4], a[6]), t4i = _mm256_sub_ps(a[5], a[7]);
    __m256 b1r =
        _mm256_add_ps(_mm256_add_ps(a[0], _mm256_mul_ps(c1, t1r)), _mm256_mul_ps(c2, t2r));
    __m256 b1i =
        _mm256_add_ps(_mm256_add_ps(a[1], _mm256_mul_ps(c1, t1i)), _mm256_mul_ps(c2, t2i));
    __m256 b2r =
        _mm256_add_ps(_mm256_add_ps(a[0], _mm256_mul_ps(c2, t1r)), _mm256_mul_ps(c1, t2r));
    __m256 b2i =
        _mm256_add_ps(_mm256_add_ps(a[1], _mm256_mul_ps(c2, t1i)), _mm256_mul_ps(c1, t2i));
    __m256 d1r = _mm256_add_ps(_mm256_mul_ps(s1, t3r), _mm256_mul_ps(s2, t4r));
    __m256 d1i = _mm256_add_ps(_mm256_mul_ps(s1, t3i), _mm256_mul_ps(s2, t4i));
    __m256 d2r = _mm256_sub_ps(_mm256_mul_ps(s2, t3r), _mm256_mul_ps(s1, t4r));
    __m256 d2i = _mm256_sub_ps(_mm256_mul_ps(s2, t3i), _mm256_mul_ps(s1, t4i));
    if (inv) {
        d1r = _mm256_xor_ps(d1r, sign);
        d1i = _mm256_xor_ps(d1i, sign);
        d2r = _mm256_xor_ps(d2r, sign);
        d2i = _mm256_xor_ps(d2i, sign);
    }
    y[0] = _mm256_add_ps(a[0], _mm256_add_ps(t1r, t2r));
    y[1] = _mm256_add_ps(a[1], _mm256_add_ps(t1i, t2i));
    y[2] = _mm256_add_ps(b1r, d1i); /* b1 - i d1 */
    y[3] = _mm256_sub_ps(b1i, d1r);
    y[4] = _mm256_add_ps(b2r, d2i);
    y[5] = _mm256_sub_ps(b2i, d2r);
    y[6] = _mm256_sub_ps(b2r, d2i);
    y[7] = _mm256_add_ps(b2i, d2r);
    y[8] = _mm256_sub_ps(b1r, d1i); /* b1 + i d1 */
    y[9] = _mm256_add_ps(b1i, d1r);
}

/* fft.c's radix5_scalar, eight at a time (s = m/5 is a multiple of 8); the output
 * interleaved into y when y is not NULL. */
AVX2_INLINE void radix5_body(uint32_t m, bool inv, const float *xr, const float *xi, float *yr,
                             float *yi, float *y) {
    uint32_t s = m / 5u;
    for (uint32_t q = 0; q < s; q += 8u) {
        __m256 a[10], o[10];
        UNROLL for (uint32_t j = 0; j < 5u; j++) {
            a[2u * j] = _mm256_loadu_ps(xr + q + j * s);
            a[2u * j + 1u] = _mm256_loadu_ps(xi + q + j * s);
        }
        bfly5(inv, a, o);
        UNROLL for (uint32_t j = 0; j < 5u; j++)
            put_out(yr, yi, y, q + j * s, o[2u * j], o[2u * j + 1u]);
    }
}

/* The last two passes when they are radix 4 at stride s = m/12 (L = 12) and radix 3, in
 * one: per eight q's, the three radix-4 butterflies p = 0, 1, 2 (their twiddles w^ip the
 * same for every q) and the four radix-3 ones over their outputs, without the round trip
 * through memory between the passes. The operations of radix4_scalar then radix3_scalar:
 * the radix-3 pass's input q' + j m/3 (q' = q + i s) is the radix-4 pass's output
 * 4 s p + q + i s with p = j. */
AVX2_INLINE void last43_body(const ear__fft *f, const ear__fft_pass *ps, bool inv, uint32_t s,
                             const float *xr, const float *xi, float *yr, float *yi, float *y) {
    uint32_t q4 = 3u * s;
    const float *wr = f->tw_re + ps->tw, *wi = f->tw_im + ps->tw;
    const __m256 sign = _mm256_set1_ps(-0.0f);
    /* Outputs 0 and 2 of the radix-4 butterflies, then 1 and 3: the inputs are loaded twice,
     * but twelve vectors are live between the passes instead of twenty-four. */
    for (uint32_t q = 0; q < s; q += 8u) {
        UNROLL for (uint32_t half = 0; half < 2u; half++) {
            __m256 t[3][8];
            UNROLL for (uint32_t p = 0; p < 3u; p++) {
                __m256 x[8], w[6];
                UNROLL for (uint32_t l = 0; l < 4u; l++) {
                    x[2u * l] = _mm256_loadu_ps(xr + q + s * p + l * q4);
                    x[2u * l + 1u] = _mm256_loadu_ps(xi + q + s * p + l * q4);
                }
                UNROLL for (uint32_t j = 0; j < 3u; j++) {
                    w[2u * j] = _mm256_broadcast_ss(wr + j * q4 + s * p);
                    w[2u * j + 1u] = _mm256_broadcast_ss(wi + j * q4 + s * p);
                    if (inv) w[2u * j + 1u] = _mm256_xor_ps(w[2u * j + 1u], sign);
                }
                if (half)
                    bfly4_odd(inv, x, w, t[p]);
                else
                    bfly4_even(x, w, t[p]);
            }
            UNROLL for (uint32_t i = half; i < 4u; i += 2u) {
                __m256 o[6];
                bfly3(inv, t[0][2u * i], t[0][2u * i + 1u], t[1][2u * i], t[1][2u * i + 1u],
                      t[2][2u * i], t[2][2u * i + 1u], o);
                UNROLL for (uint32_t j = 0; j < 3u; j++)
                    put_out(yr, yi, y, q + s * i + 4u * s * j, o[2u * j], o[2u * j + 1u]);
            }
        }
    }
}

/* The same for a radix 4 at stride s = m/8 (L = 8) then a last radix 2 (n = 2^j, j even:
 * 256, 1024, 4096): per eight q's, the two radix-4 butterflies p = 0, 1 and the four
 * radix-2 ones over their outputs, a = 4 s p + q + i s with p = 0 and b the same with p = 1
 * (radix2_scalar's e = q + i s; its twiddles, w^0, loaded per element as there). Outputs
 * 0, 2 first, then 1, 3, as in last43; the inverse's output interleaved into y. */
AVX2_INLINE void last42_body(const ear__fft *f, const ear__fft_pass *ps, bool inv, uint32_t s,
                             const float *xr, const float *xi, float *yr, float *yi, float *y) {
    uint32_t q4 = 2u * s;
    const ear__fft_pass *p2 = ps + 1;
    const float *wr = f->tw_re + ps->tw, *wi = f->tw_im + ps->tw;
    const float *vr = f->tw_re + p2->tw, *vi = f->tw_im + p2->tw;
    const __m256 sign = _mm256_set1_ps(-0.0f);
    for (uint32_t q = 0; q < s; q += 8u) {
        UNROLL for (uint32_t half = 0; half < 2u; half++) {
            __m256 t[2][8];
            UNROLL for (uint32_t p = 0; p < 2u; p++) {
                __m256 x[8], w[6];
                UNROLL for (uint32_t l = 0; l < 4u; l++) {
                    x[2u * l] = _mm256_loadu_ps(xr + q + s * p + l * q4);
                    x[2u * l + 1u] = _mm256_loadu_ps(xi + q + s * p + l * q4);
                }
                UNROLL for (uint32_t j = 0; j < 3u; j++) {
                    w[2u * j] = _mm256_broadcast_ss(wr + j * q4 + s * p);
                    w[2u * j + 1u] = _mm256_broadcast_ss(wi + j * q4 + s * p);
                    if (inv) w[2u * j + 1u] = _mm256_xor_ps(w[2u * j + 1u], sign);
                }
                if (half)
                    bfly4_odd(inv, x, w, t[p]);
                else
                    bfly4_even(x, w, t[p]);
            }
            UNROLL for (uint32_t i = half; i < 4u; i += 2u) {
                uint32_t e = q + s * i;
                __m256 ar = t[0][2u * i], ai = t[0][2u * i + 1u];
                __m256 br = t[1][2u * i], bi = t[1][2u * i + 1u];
                __m256 dr = _mm256_sub_ps(ar, br), di = _mm256_sub_ps(ai, bi);
                __m256 c = _mm256_loadu_ps(vr + e), d = _mm256_loadu_ps(vi + e);
                if (inv) d = _mm256_xor_ps(d, sign);
                put_out(yr, yi, y, e, _mm256_add_ps(ar, br), _mm256_add_ps(ai, bi));
                put_out(yr, yi, y, e + 4u * s,
                        _mm256_sub_ps(_mm256_mul_ps(dr, c), _mm256_mul_ps(di, d)),
                        _mm256_add_ps(_mm256_mul_ps(dr, d), _mm256_mul_ps(di, c)));
            }
        }
    }
}

/* The same for a radix 2 at stride s = m/6 (L = 6) then the radix 3 (n = 3 x 2^j with j
 * odd: 192, 768, 3072): per eight q's, the three radix-2 butterflies p = 0, 1, 2 (a = x[e],
 * b = x[e + m/2], e = q + s p; their twiddles w^p the same for every q) and the two radix-3
 * ones over their outputs 2 s p + q + i s (i = 0, 1). The operations of radix2_scalar then
 * radix3_scalar. */
AVX2_INLINE void last23_body(const ear__fft *f, const ear__fft_pass *ps, bool inv, uint32_t s,
                             const float *xr, const float *xi, float *yr, float *yi, float *y) {
    uint32_t half = 3u * s;
    const float *wr = f->tw_re + ps->tw, *wi = f->tw_im + ps->tw;
    const __m256 sign = _mm256_set1_ps(-0.0f);
    for (uint32_t q = 0; q < s; q += 8u) {
        __m256 t[3][4];
        UNROLL for (uint32_t p = 0; p < 3u; p++) {
            uint32_t e = q + s * p;
            __m256 ar = _mm256_loadu_ps(xr + e), ai = _mm256_loadu_ps(xi + e);
            __m256 br = _mm256_loadu_ps(xr + e + half), bi = _mm256_loadu_ps(xi + e + half);
            __m256 dr = _mm256_sub_ps(ar, br), di = _mm256_sub_ps(ai, bi);
            __m256 c = _mm256_broadcast_ss(wr + s * p), d = _mm256_broadcast_ss(wi + s * p);
            if (inv) d = _mm256_xor_ps(d, sign);
            t[p][0] = _mm256_add_ps(ar, br);
            t[p][1] = _mm256_add_ps(ai, bi);
            t[p][2] = _mm256_sub_ps(_mm256_mul_ps(dr, c), _mm256_mul_ps(di, d));
            t[p][3] = _mm256_add_ps(_mm256_mul_ps(dr, d), _mm256_mul_ps(di, c));
        }
        UNROLL for (uint32_t i = 0; i < 2u; i++) {
            __m256 o[6];
            bfly3(inv, t[0][2u * i], t[0][2u * i + 1u], t[1][2u * i], t[1][2u * i + 1u],
                  t[2][2u * i], t[2][2u * i + 1u], o);
            UNROLL for (uint32_t j = 0; j < 3u; j++)
                put_out(yr, yi, y, q + s * i + 2u * s * j, o[2u * j], o[2u * j + 1u]);
        }
    }
}

/* The same for a radix 2 at stride s = m/10 (L = 10) then the radix 5 (n = 5 x 2^j with j
 * even: 320, 1280, 5120): per eight q's, the five radix-2 butterflies p = 0..4 (a = x[e],
 * b = x[e + m/2], e = q + s p; their twiddles w^p the same for every q) and the two radix-5
 * ones over their outputs 2 s p + q + i s (i = 0, 1). The operations of radix2_scalar then
 * radix5_scalar. */
AVX2_INLINE void last25_body(const ear__fft *f, const ear__fft_pass *ps, bool inv, uint32_t s,
                             const float *xr, const float *xi, float *yr, float *yi, float *y) {
    uint32_t half = 5u * s;
    const float *wr = f->tw_re + ps->tw, *wi = f->tw_im + ps->tw;
    const __m256 sign = _mm256_set1_ps(-0.0f);
    for (uint32_t q = 0; q < s; q += 8u) {
        __m256 t[2][10];
        UNROLL for (uint32_t p = 0; p < 5u; p++) {
            uint32_t e = q + s * p;
            __m256 ar = _mm256_loadu_ps(xr + e), ai = _mm256_loadu_ps(xi + e);
            __m256 br = _mm256_loadu_ps(xr + e + half), bi = _mm256_loadu_ps(xi + e + half);
            __m256 dr = _mm256_sub_ps(ar, br), di = _mm256_sub_ps(ai, bi);
            __m256 c = _mm256_broadcast_ss(wr + s * p), d = _mm256_broadcast_ss(wi + s * p);
            if (inv) d = _mm256_xor_ps(d, sign);
            t[0][2u * p] = _mm256_add_ps(ar, br);
            t[0][2u * p + 1u] = _mm256_add_ps(ai, bi);
            t[1][2u * p] = _mm256_sub_ps(_mm256_mul_ps(dr, c), _mm256_mul_ps(di, d));
            t[1][2u * p + 1u] = _mm256_add_ps(_mm256_mul_ps(dr, d), _mm256_mul_ps(di, c));
        }
        UNROLL for (uint32_t i = 0; i < 2u; i++) {
            __m256 o[10];
            bfly5(inv, t[i], o);
            UNROLL for (uint32_t j = 0; j < 5u; j++)
                put_out(yr, yi, y, q + s * i + 2u * s * j, o[2u * j], o[2u * j + 1u]);
        }
    }
}

/* Passes of the complex transform from (work, work + m) on, ping-ponging with the other
 * half of work, from the second pass on when `first` (the forward's first_pass has run).
 * With inv the result goes interleaved into y (the inverse's real output) and NULL is
 * returned; else the half it is in. The plan is fft.c's (radix 4 while four divides the
 * power of two left, then 2, then 3 or 5), walked again here so that with m a constant every
 * stride is one (complex_fwd / complex_inv instantiate it for the lengths that matter). */
AVX2_INLINE float *complex_body(const ear__fft *f, bool inv, uint32_t m, bool first,
                                float *work, float *y) {
    bool r3 = m % 3u == 0, r5 = m % 5u == 0, pow2 = !r3 && !r5;
    uint32_t p = r3 ? m / 3u : r5 ? m / 5u : m, s = 1, k = 0;
    float *a = work, *b = work + 2u * m, *t;
    if (first) {
        p /= 4u;
        s = 4u;
        k = 1;
    }
    _Pragma("GCC unroll 8") for (; p >= 4u; p /= 4u, s *= 4u, k++) {
        if (p == 4u && r3 && s % 8u == 0) {
            /* the last radix 4 and the radix 3 together */
            last43_body(f, &f->pass[k], inv, s, a, a + m, b, b + m, inv ? y : NULL);
            return inv ? NULL : b;
        }
        if (p == 8u && pow2 && s % 8u == 0) {
            /* the last radix 4 and the radix 2 together */
            last42_body(f, &f->pass[k], inv, s, a, a + m, b, b + m, inv ? y : NULL);
            return inv ? NULL : b;
        }
        if (p == 4u && pow2 && s % 8u == 0 && inv) {
            radix4_body(f, &f->pass[k], inv, m, s, a, a + m, NULL, NULL, y);
            return NULL;
        }
        radix4_body(f, &f->pass[k], inv, m, s, a, a + m, b, b + m, NULL);
        t = a, a = b, b = t;
    }
    if (p == 2u && r5 && s % 8u == 0) {
        /* the radix 2 and the radix 5 together */
        last25_body(f, &f->pass[k], inv, s, a, a + m, b, b + m, inv ? y : NULL);
        return inv ? NULL : b;
    }
    if (p == 2u && r3 && s % 8u == 0) {
        /* the radix 2 and the radix 3 together */
        last23_body(f, &f->pass[k], inv, s, a, a + m, b, b + m, inv ? y : NULL);
        return inv ? NULL : b;
    }
    if (p == 2u) {
        radix2_avx2(f, &f->pass[k], inv, a, a + m, b, b + m);
        t = a, a = b, b = t;
    }
    if (r3) {
        radix3_body(m, inv, a, a + m, b, b + m, inv ? y : NULL);
        return inv ? NULL : b;
    }
    if (r5) {
        radix5_body(m, inv, a, a + m, b, b + m, inv ? y : NULL);
        return inv ? NULL : b;
    }
    if (!inv) return a;
    for (uint32_t i = 0; i < m; i += 8u)
        put_out(NULL, NULL, y, i, _mm256_loadu_ps(a + i), _mm256_loadu_ps(a + m + i));
    return NULL;
}

AVX2_INLINE __m256 reverse8(__m256 v) {
    return _mm256_permutevar8x32_ps(v, _mm256_setr_epi32(7, 6, 5, 4, 3, 2, 1, 0));
}

/* Even and odd samples of len (even) floats at x into zr, zi. */
AVX2 static void deinterleave(const float *x, uint32_t len, float *zr, float *zi) {
    uint32_t i = 0, pairs = len / 2u;
    for (; i + 8u <= pairs; i += 8u) {
        __m256 a = _mm256_loadu_ps(x + 2u * i), b = _mm256_loadu_ps(x + 2u * i + 8u);
        __m256 ev = _mm256_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0));
        __m256 od = _mm256_shuffle_ps(a, b, _MM_SHUFFLE(3, 1, 3, 1));
        _mm256_storeu_ps(zr + i, _mm256_castpd_ps(_mm256_permute4x64_pd(
                                     _mm256_castps_pd(ev), _MM_SHUFFLE(3, 1, 2, 0))));
        _mm256_storeu_ps(zi + i, _mm256_castpd_ps(_mm256_permute4x64_pd(
                                     _mm256_castps_pd(od), _MM_SHUFFLE(3, 1, 2, 0))));
    }
    for (; i < pairs; i++) {
        zr[i] = x[2u * i];
        zi[i] = x[2u * i + 1u];
    }
}

/* Where each 16-float window v of the input (x[16 v .. 16 v + 16)) is, for first_pass:
 * inside a piece, or copied together into one of `spare` windows of tmp when it straddles
 * pieces. 0 when more windows straddle than that (or the pieces are not n floats). */
#define SPARE_WINDOWS 4u
static int find_windows(uint32_t n, const float *const *seg, const uint32_t *len, uint32_t nseg,
                        const float **win, float (*tmp)[16]) {
    uint32_t v = 0, at = 0, used = 0;
    for (uint32_t g = 0; g < nseg; g++) {
        uint32_t end = at + len[g];
        if (16u * v + 16u <= end) { /* the windows wholly inside this piece */
            uint32_t count = (end - 16u * v) / 16u;
            const float *p = seg[g] + (16u * v - at);
            _Pragma("GCC unroll 4") for (uint32_t c = 0; c < count; c++, p += 16) win[v + c] =
                p;
            v += count;
        }
        if (16u * v < end) {
            if (used == SPARE_WINDOWS) return 0;
            float *t = tmp[used++];
            uint32_t have = 0, from = 16u * v - at;
            for (uint32_t h = g; h < nseg && have < 16u; h++, from = 0) {
                uint32_t take = len[h] - from < 16u - have ? len[h] - from : 16u - have;
                memcpy(t + have, seg[h] + from, take * sizeof(float));
                have += take;
            }
            if (have < 16u) return 0;
            win[v++] = t;
        }
        at = end;
    }
    return at == n && v == n / 16u;
}

/* The forward split (fft.h's ear__fft_split_fwd1, eight bins at a time, the last eight
 * overlapping the ones before) from z = (zr, zi) into re, im. b = conj Z[m - k] is taken
 * as its real part and the unnegated imaginary part bj: a + b and a - b of the imaginary
 * parts are a - bj and a + bj, the same bits. */
AVX2_INLINE void split_fwd(const ear__fft *f, uint32_t m, const float *zr, const float *zi,
                           float *re, float *im) {
    uint32_t half = m / 2u;
    const __m256 h = _mm256_set1_ps(0.5f);
    for (uint32_t k = 1; k + 8u <= half; k += 8u) {
        uint32_t j = m - k - 7u; /* the eight mirrored bins, ascending */
        __m256 ar = _mm256_loadu_ps(zr + k), ai = _mm256_loadu_ps(zi + k);
        __m256 br = reverse8(_mm256_loadu_ps(zr + j));
        __m256 bj = reverse8(_mm256_loadu_ps(zi + j));
        __m256 er = _mm256_mul_ps(h, _mm256_add_ps(ar, br));
        __m256 ei = _mm256_mul_ps(h, _mm256_sub_ps(ai, bj));
        __m256 orr = _mm256_mul_ps(h, _mm256_add_ps(ai, bj));
        __m256 oi = _mm256_mul_ps(h, _mm256_sub_ps(br, ar));
        __m256 c = _mm256_loadu_ps(f->rw_re + k), s = _mm256_loadu_ps(f->rw_im + k);
        __m256 tr = _mm256_sub_ps(_mm256_mul_ps(c, orr), _mm256_mul_ps(s, oi));
        __m256 ti = _mm256_add_ps(_mm256_mul_ps(c, oi), _mm256_mul_ps(s, orr));
        _mm256_storeu_ps(re + k, _mm256_add_ps(er, tr));
        _mm256_storeu_ps(im + k, _mm256_add_ps(ei, ti));
        _mm256_storeu_ps(re + j, reverse8(_mm256_sub_ps(er, tr)));
        _mm256_storeu_ps(im + j, reverse8(_mm256_sub_ps(ti, ei)));
        if (k + 16u > half && k + 8u < half) k = half - 16u; /* the last eight, overlapping */
    }
    re[0] = zr[0] + zi[0];
    im[0] = 0.0f;
    re[m] = zr[0] - zi[0];
    im[m] = 0.0f;
    ear__fft_split_fwd1(f, zr, zi, re, im, half);
}

/* The inverse split (ear__fft_split_inv1, eight bins at a time) from re, im into z. */
AVX2_INLINE void split_inv(const ear__fft *f, uint32_t m, const float *re, const float *im,
                           float *zr, float *zi) {
    uint32_t half = m / 2u;
    for (uint32_t k = 1; k + 8u <= half; k += 8u) {
        uint32_t j = m - k - 7u;
        __m256 ar = _mm256_loadu_ps(re + k), ai = _mm256_loadu_ps(im + k);
        __m256 br = reverse8(_mm256_loadu_ps(re + j));
        __m256 bj = reverse8(_mm256_loadu_ps(im + j));
        __m256 er = _mm256_add_ps(ar, br), ei = _mm256_sub_ps(ai, bj);
        __m256 dr = _mm256_sub_ps(ar, br), di = _mm256_add_ps(ai, bj);
        __m256 c = _mm256_loadu_ps(f->rw_re + k), s = _mm256_loadu_ps(f->rw_im + k);
        __m256 orr = _mm256_add_ps(_mm256_mul_ps(dr, c), _mm256_mul_ps(di, s));
        __m256 oi = _mm256_sub_ps(_mm256_mul_ps(di, c), _mm256_mul_ps(dr, s));
        _mm256_storeu_ps(zr + k, _mm256_sub_ps(er, oi));
        _mm256_storeu_ps(zi + k, _mm256_add_ps(ei, orr));
        _mm256_storeu_ps(zr + j, reverse8(_mm256_add_ps(er, oi)));
        _mm256_storeu_ps(zi + j, reverse8(_mm256_sub_ps(orr, ei)));
        if (k + 16u > half && k + 8u < half) k = half - 16u; /* the last eight, overlapping */
    }
    zr[0] = re[0] + re[m];
    zi[0] = re[0] - re[m];
    ear__fft_split_inv1(f, re, im, zr, zi, half);
}

/* A whole forward transform for complex length m (a constant in the instantiations):
 * the first pass from the input's windows (win, or work already deinterleaved when NULL),
 * the other passes, the split. */
AVX2_INLINE void forward_body(const ear__fft *f, uint32_t m, const float *const *win,
                              float *work, float *re, float *im) {
    float *z;
    if (win) {
        first_pass(f, m, win, work, work + m);
        z = complex_body(f, false, m, true, work, NULL);
    } else {
        z = complex_body(f, false, m, false, work, NULL);
    }
    split_fwd(f, m, z, z + m, re, im);
}

AVX2_INLINE void inverse_body(const ear__fft *f, uint32_t m, const float *re, const float *im,
                              float *y, float *work) {
    split_inv(f, m, re, im, work, work + m);
    (void)complex_body(f, true, m, false, work, y);
}

/* Each instantiated for the HRTF path's lengths, n = 256, 320, 384, 512, 768 (m = n / 2), with
 * every stride and bound a constant. */
AVX2 static void forward_win(const ear__fft *f, const float *const *win, float *work, float *re,
                             float *im) {
    switch (f->m) {
    case 128u: forward_body(f, 128u, win, work, re, im); return;
    case 160u: forward_body(f, 160u, win, work, re, im); return;
    case 192u: forward_body(f, 192u, win, work, re, im); return;
    case 256u: forward_body(f, 256u, win, work, re, im); return;
    case 384u: forward_body(f, 384u, win, work, re, im); return;
    default: forward_body(f, f->m, win, work, re, im); return;
    }
}

AVX2 static void forward_segs_avx2(const ear__fft *f, const float *const *seg,
                                   const uint32_t *len, uint32_t nseg, float *re, float *im,
                                   float *work) {
    const float *win[EAR__FFT_MAX / 16u];
    float tmp[SPARE_WINDOWS][16];
    if (find_windows(f->n, seg, len, nseg, win, tmp)) {
        forward_win(f, win, work, re, im);
        return;
    }
    for (uint32_t g = 0, at = 0; g < nseg; g++) {
        deinterleave(seg[g], len[g], work + at, work + f->m + at);
        at += len[g] / 2u;
    }
    forward_win(f, NULL, work, re, im);
}

AVX2 static void forward_avx2(const ear__fft *f, const float *x, float *re, float *im,
                              float *work) {
    forward_segs_avx2(f, &x, &f->n, 1, re, im, work);
}

AVX2 static void inverse_avx2(const ear__fft *f, const float *re, const float *im, float *y,
                              float *work) {
    switch (f->m) {
    case 128u: inverse_body(f, 128u, re, im, y, work); return;
    case 160u: inverse_body(f, 160u, re, im, y, work); return;
    case 192u: inverse_body(f, 192u, re, im, y, work); return;
    case 256u: inverse_body(f, 256u, re, im, y, work); return;
    case 384u: inverse_body(f, 384u, re, im, y, work); return;
    default: inverse_body(f, f->m, re, im, y, work); return;
    }
}

static const ear__fft_kernel kernel_avx2 = {forward_avx2, forward_segs_avx2, inverse_avx2};
const ear__fft_kernel *const ear__fft_avx2 = &kernel_avx2;

#else

const ear__fft_kernel *const ear__fft_avx2 = NULL;

#endif
