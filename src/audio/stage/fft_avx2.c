/*
 * The stage's real FFT with AVX2 (fft.h): the same operations as fft.c's scalar kernel,
 * eight elements at a time, in the same order and without FMA, so both give the same
 * bits. Passes at strides 1, 2 and 4 write their outputs interleaved (unpacks and lane
 * permutes: a 4 x 8 transpose for radix 4 at stride 1); from stride 8 on every store is
 * contiguous.
 * Compiled for AVX2 through target attributes and used only where the CPU has it.
 */
#include "fft.h"

#include <stdbool.h>

#if defined(__x86_64__)

#include <immintrin.h>

#define AVX2 __attribute__((target("avx2")))

/* Stores s (the sums) and d (the differences) of eight elements of stage t at o, o + s. */
AVX2 static inline void put(uint32_t t, float *y, uint32_t e, __m256 sum, __m256 dif) {
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

/* Stores a radix-4 pass's four outputs of eight elements from e on (e = q + s p):
 * y[4sp + q + i s] = v[i]. */
AVX2 static inline void put4(uint32_t s, float *y, uint32_t e, __m256 v0, __m256 v1, __m256 v2,
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
    } else { /* s a multiple of 8 */
        float *o = y + (e / s) * 4u * s + e % s;
        _mm256_storeu_ps(o, v0);
        _mm256_storeu_ps(o + s, v1);
        _mm256_storeu_ps(o + 2u * s, v2);
        _mm256_storeu_ps(o + 3u * s, v3);
    }
}

/* fft.c's radix4_scalar, eight elements at a time (s = 1, 4 or a multiple of 8). */
AVX2 static void radix4_avx2(const ear__fft *f, const ear__fft_pass *ps, bool inv,
                             const float *xr, const float *xi, float *yr, float *yi) {
    uint32_t q4 = f->m / 4u, s = ps->s;
    const float *wr = f->tw_re + ps->tw, *wi = f->tw_im + ps->tw;
    const __m256 sign = _mm256_set1_ps(-0.0f);
    for (uint32_t e = 0; e < q4; e += 8u) {
        __m256 ar = _mm256_loadu_ps(xr + e), ai = _mm256_loadu_ps(xi + e);
        __m256 br = _mm256_loadu_ps(xr + e + q4), bi = _mm256_loadu_ps(xi + e + q4);
        __m256 cr = _mm256_loadu_ps(xr + e + 2u * q4), ci = _mm256_loadu_ps(xi + e + 2u * q4);
        __m256 dr = _mm256_loadu_ps(xr + e + 3u * q4), di = _mm256_loadu_ps(xi + e + 3u * q4);
        __m256 pr = _mm256_add_ps(ar, cr), pi = _mm256_add_ps(ai, ci);
        __m256 mr = _mm256_sub_ps(ar, cr), mi = _mm256_sub_ps(ai, ci);
        __m256 qr = _mm256_add_ps(br, dr), qi = _mm256_add_ps(bi, di);
        __m256 nr = _mm256_sub_ps(br, dr), ni = _mm256_sub_ps(bi, di);
        __m256 jr = inv ? ni : _mm256_xor_ps(ni, sign), ji = inv ? _mm256_xor_ps(nr, sign) : nr;
        __m256 y1r = _mm256_sub_ps(mr, jr), y1i = _mm256_sub_ps(mi, ji);
        __m256 y2r = _mm256_sub_ps(pr, qr), y2i = _mm256_sub_ps(pi, qi);
        __m256 y3r = _mm256_add_ps(mr, jr), y3i = _mm256_add_ps(mi, ji);
        __m256 c1 = _mm256_loadu_ps(wr + e), s1 = _mm256_loadu_ps(wi + e);
        __m256 c2 = _mm256_loadu_ps(wr + q4 + e), s2 = _mm256_loadu_ps(wi + q4 + e);
        __m256 c3 = _mm256_loadu_ps(wr + 2u * q4 + e), s3 = _mm256_loadu_ps(wi + 2u * q4 + e);
        if (inv) {
            s1 = _mm256_xor_ps(s1, sign);
            s2 = _mm256_xor_ps(s2, sign);
            s3 = _mm256_xor_ps(s3, sign);
        }
        __m256 o1r = _mm256_sub_ps(_mm256_mul_ps(y1r, c1), _mm256_mul_ps(y1i, s1));
        __m256 o1i = _mm256_add_ps(_mm256_mul_ps(y1r, s1), _mm256_mul_ps(y1i, c1));
        __m256 o2r = _mm256_sub_ps(_mm256_mul_ps(y2r, c2), _mm256_mul_ps(y2i, s2));
        __m256 o2i = _mm256_add_ps(_mm256_mul_ps(y2r, s2), _mm256_mul_ps(y2i, c2));
        __m256 o3r = _mm256_sub_ps(_mm256_mul_ps(y3r, c3), _mm256_mul_ps(y3i, s3));
        __m256 o3i = _mm256_add_ps(_mm256_mul_ps(y3r, s3), _mm256_mul_ps(y3i, c3));
        put4(s, yr, e, _mm256_add_ps(pr, qr), o1r, o2r, o3r);
        put4(s, yi, e, _mm256_add_ps(pi, qi), o1i, o2i, o3i);
    }
}

/* fft.c's radix3_scalar, eight at a time (s = m/3 is a multiple of 8). */
AVX2 static void radix3_avx2(uint32_t m, bool inv, const float *xr, const float *xi, float *yr,
                             float *yi) {
    uint32_t s = m / 3u;
    const __m256 h = _mm256_set1_ps(EAR__FFT_HALF), r = _mm256_set1_ps(EAR__FFT_SIN60);
    const __m256 sign = _mm256_set1_ps(-0.0f);
    for (uint32_t q = 0; q < s; q += 8u) {
        __m256 a0r = _mm256_loadu_ps(xr + q), a0i = _mm256_loadu_ps(xi + q);
        __m256 a1r = _mm256_loadu_ps(xr + q + s), a1i = _mm256_loadu_ps(xi + q + s);
        __m256 a2r = _mm256_loadu_ps(xr + q + 2u * s), a2i = _mm256_loadu_ps(xi + q + 2u * s);
        __m256 t1r = _mm256_add_ps(a1r, a2r), t1i = _mm256_add_ps(a1i, a2i);
        __m256 t2r = _mm256_sub_ps(a0r, _mm256_mul_ps(h, t1r));
        __m256 t2i = _mm256_sub_ps(a0i, _mm256_mul_ps(h, t1i));
        __m256 t3r = _mm256_mul_ps(r, _mm256_sub_ps(a1r, a2r));
        __m256 t3i = _mm256_mul_ps(r, _mm256_sub_ps(a1i, a2i));
        if (inv) {
            t3r = _mm256_xor_ps(t3r, sign);
            t3i = _mm256_xor_ps(t3i, sign);
        }
        _mm256_storeu_ps(yr + q, _mm256_add_ps(a0r, t1r));
        _mm256_storeu_ps(yi + q, _mm256_add_ps(a0i, t1i));
        _mm256_storeu_ps(yr + q + s, _mm256_add_ps(t2r, t3i));
        _mm256_storeu_ps(yi + q + s, _mm256_sub_ps(t2i, t3r));
        _mm256_storeu_ps(yr + q + 2u * s, _mm256_sub_ps(t2r, t3i));
        _mm256_storeu_ps(yi + q + 2u * s, _mm256_add_ps(t2i, t3r));
    }
}

/* fft.c's radix5_scalar, eight at a time (s = m/5 is a multiple of 8). */
AVX2 static void radix5_avx2(uint32_t m, bool inv, const float *xr, const float *xi, float *yr,
                             float *yi) {
    uint32_t s = m / 5u;
    const __m256 c1 = _mm256_set1_ps(EAR__FFT_C1), c2 = _mm256_set1_ps(EAR__FFT_C2);
    const __m256 s1 = _mm256_set1_ps(EAR__FFT_S1), s2 = _mm256_set1_ps(EAR__FFT_S2);
    const __m256 sign = _mm256_set1_ps(-0.0f);
    for (uint32_t q = 0; q < s; q += 8u) {
        __m256 a0r = _mm256_loadu_ps(xr + q), a0i = _mm256_loadu_ps(xi + q);
        __m256 a1r = _mm256_loadu_ps(xr + q + s), a1i = _mm256_loadu_ps(xi + q + s);
        __m256 a2r = _mm256_loadu_ps(xr + q + 2u * s), a2i = _mm256_loadu_ps(xi + q + 2u * s);
        __m256 a3r = _mm256_loadu_ps(xr + q + 3u * s), a3i = _mm256_loadu_ps(xi + q + 3u * s);
        __m256 a4r = _mm256_loadu_ps(xr + q + 4u * s), a4i = _mm256_loadu_ps(xi + q + 4u * s);
        __m256 t1r = _mm256_add_ps(a1r, a4r), t1i = _mm256_add_ps(a1i, a4i);
        __m256 t2r = _mm256_add_ps(a2r, a3r), t2i = _mm256_add_ps(a2i, a3i);
        __m256 t3r = _mm256_sub_ps(a1r, a4r), t3i = _mm256_sub_ps(a1i, a4i);
        __m256 t4r = _mm256_sub_ps(a2r, a3r), t4i = _mm256_sub_ps(a2i, a3i);
        __m256 b1r =
            _mm256_add_ps(_mm256_add_ps(a0r, _mm256_mul_ps(c1, t1r)), _mm256_mul_ps(c2, t2r));
        __m256 b1i =
            _mm256_add_ps(_mm256_add_ps(a0i, _mm256_mul_ps(c1, t1i)), _mm256_mul_ps(c2, t2i));
        __m256 b2r =
            _mm256_add_ps(_mm256_add_ps(a0r, _mm256_mul_ps(c2, t1r)), _mm256_mul_ps(c1, t2r));
        __m256 b2i =
            _mm256_add_ps(_mm256_add_ps(a0i, _mm256_mul_ps(c2, t1i)), _mm256_mul_ps(c1, t2i));
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
        _mm256_storeu_ps(yr + q, _mm256_add_ps(a0r, _mm256_add_ps(t1r, t2r)));
        _mm256_storeu_ps(yi + q, _mm256_add_ps(a0i, _mm256_add_ps(t1i, t2i)));
        _mm256_storeu_ps(yr + q + s, _mm256_add_ps(b1r, d1i));
        _mm256_storeu_ps(yi + q + s, _mm256_sub_ps(b1i, d1r));
        _mm256_storeu_ps(yr + q + 4u * s, _mm256_sub_ps(b1r, d1i));
        _mm256_storeu_ps(yi + q + 4u * s, _mm256_add_ps(b1i, d1r));
        _mm256_storeu_ps(yr + q + 2u * s, _mm256_add_ps(b2r, d2i));
        _mm256_storeu_ps(yi + q + 2u * s, _mm256_sub_ps(b2i, d2r));
        _mm256_storeu_ps(yr + q + 3u * s, _mm256_sub_ps(b2r, d2i));
        _mm256_storeu_ps(yi + q + 3u * s, _mm256_add_ps(b2i, d2r));
    }
}

AVX2 static float *complex_avx2(const ear__fft *f, bool inv, float *work) {
    uint32_t m = f->m;
    float *a = work, *b = work + 2u * m;
    for (uint32_t k = 0; k < f->passes; k++) {
        const ear__fft_pass *ps = &f->pass[k];
        if (ps->radix == 4u)
            radix4_avx2(f, ps, inv, a, a + m, b, b + m);
        else if (ps->radix == 2u)
            radix2_avx2(f, ps, inv, a, a + m, b, b + m);
        else if (ps->radix == 5u)
            radix5_avx2(m, inv, a, a + m, b, b + m);
        else
            radix3_avx2(m, inv, a, a + m, b, b + m);
        float *tmp = a;
        a = b;
        b = tmp;
    }
    return a;
}

AVX2 static inline __m256 reverse8(__m256 v) {
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

AVX2 static void forward_segs_avx2(const ear__fft *f, const float *const *seg,
                                   const uint32_t *len, uint32_t nseg, float *re, float *im,
                                   float *work) {
    uint32_t m = f->m, half = m / 2u, at = 0;
    for (uint32_t g = 0; g < nseg; g++) {
        deinterleave(seg[g], len[g], work + at, work + m + at);
        at += len[g] / 2u;
    }
    float *z = complex_avx2(f, false, work);
    const float *zr = z, *zi = z + m;
    const __m256 h = _mm256_set1_ps(0.5f), sign = _mm256_set1_ps(-0.0f);
    uint32_t k = 1;
    for (; k + 8u <= half; k += 8u) {
        uint32_t j = m - k - 7u; /* the eight mirrored bins, ascending */
        __m256 ar = _mm256_loadu_ps(zr + k), ai = _mm256_loadu_ps(zi + k);
        __m256 br = reverse8(_mm256_loadu_ps(zr + j));
        __m256 bi = _mm256_xor_ps(reverse8(_mm256_loadu_ps(zi + j)), sign);
        __m256 er = _mm256_mul_ps(h, _mm256_add_ps(ar, br));
        __m256 ei = _mm256_mul_ps(h, _mm256_add_ps(ai, bi));
        __m256 orr = _mm256_mul_ps(h, _mm256_sub_ps(ai, bi));
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

AVX2 static void forward_avx2(const ear__fft *f, const float *x, float *re, float *im,
                              float *work) {
    forward_segs_avx2(f, &x, &f->n, 1, re, im, work);
}

AVX2 static void inverse_avx2(const ear__fft *f, const float *re, const float *im, float *y,
                              float *work) {
    uint32_t m = f->m, half = m / 2u;
    float *zr = work, *zi = work + m;
    const __m256 sign = _mm256_set1_ps(-0.0f);
    uint32_t k = 1;
    for (; k + 8u <= half; k += 8u) {
        uint32_t j = m - k - 7u;
        __m256 ar = _mm256_loadu_ps(re + k), ai = _mm256_loadu_ps(im + k);
        __m256 br = reverse8(_mm256_loadu_ps(re + j));
        __m256 bi = _mm256_xor_ps(reverse8(_mm256_loadu_ps(im + j)), sign);
        __m256 er = _mm256_add_ps(ar, br), ei = _mm256_add_ps(ai, bi);
        __m256 dr = _mm256_sub_ps(ar, br), di = _mm256_sub_ps(ai, bi);
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
    float *z = complex_avx2(f, true, work);
    for (uint32_t i = 0; i < m; i += 8u) {
        __m256 a = _mm256_loadu_ps(z + i), b = _mm256_loadu_ps(z + m + i);
        __m256 lo = _mm256_unpacklo_ps(a, b), hi = _mm256_unpackhi_ps(a, b);
        _mm256_storeu_ps(y + 2u * i, _mm256_permute2f128_ps(lo, hi, 0x20));
        _mm256_storeu_ps(y + 2u * i + 8u, _mm256_permute2f128_ps(lo, hi, 0x31));
    }
}

static const ear__fft_kernel kernel_avx2 = {forward_avx2, forward_segs_avx2, inverse_avx2};
const ear__fft_kernel *const ear__fft_avx2 = &kernel_avx2;

#else

const ear__fft_kernel *const ear__fft_avx2 = NULL;

#endif
