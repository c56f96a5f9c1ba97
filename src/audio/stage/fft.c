/* SPDX-License-Identifier: Zlib */
/*
 * The stage's real FFT (fft.h): tables, the scalar kernel, and the real <-> complex split
 * both kernels share.
 *
 * The complex transform of m = n/2 points is Stockham's, in passes of radix 4 (then one of
 * radix 2 if a two is left, then one of radix 3 for 3 x 2^j, or 5 for 5 x 2^j). A radix-2 pass
 * at stride s (sub-length L = m / s) reads a[e] and b[e + m/2] for e = q + s p (p < L/2, q < s)
 * and writes a + b to y[2 s p + q] and (a - b) w^p to y[2 s p + q + s], w = e^(-2 pi i/L)
 * (conjugated for the inverse); a radix-4 pass reads four elements m/4 apart and writes
 * a 4-point butterfly's outputs, times w^0..3p, to y[4 s p + q + i s]. Reads run in order at
 * every pass and the output comes in natural order, so no bit reversal is needed; the
 * twiddles are stored per element.
 *
 * The real transform packs the even samples in the real part and the odd ones in the
 * imaginary part (z = x_even + i x_odd), transforms m points, and splits:
 * E = (Z[k] + conj Z[m-k]) / 2, O = (Z[k] - conj Z[m-k]) / 2i, X[k] = E + W^k O and
 * X[m-k] = conj(E - W^k O) with W = e^(-2 pi i/n). The inverse runs the same backwards
 * without the halvings, so it returns n times the signal.
 */
#include "fft.h"

#include "portable_math.h"

#include <string.h>

#define TWO_PI 6.283185307179586476925286766559

int ear__fft_length_ok(uint32_t n) {
    if (n >= EAR__FFT_MIN && n <= EAR__FFT_MAX && (n & (n - 1u)) == 0) return 1;
    uint32_t p;
    if (n % 3u == 0 && n >= 192u && n <= 6144u)
        p = n / 3u;
    else if (n % 5u == 0 && n >= 320u && n <= 5120u)
        p = n / 5u;
    else
        return 0;
    return (p & (p - 1u)) == 0;
}

/* The passes for m = n/2 = 2^k, 3 x 2^k or 5 x 2^k: radix 4 while four divides the power
 * of two left, a radix 2 if one two is left, a radix 3 or 5 last; the twiddle floats they
 * need. */
static size_t plan(ear__fft *f, uint32_t n) {
    uint32_t m = n / 2u, r3 = m % 3u == 0, r5 = m % 5u == 0;
    uint32_t p = r3 ? m / 3u : r5 ? m / 5u : m, s = 1, np = 0;
    size_t tw = 0;
    while (p >= 4u) {
        f->pass[np++] = (ear__fft_pass){4u, s, (uint32_t)tw};
        tw += 3u * (m / 4u);
        s *= 4u;
        p /= 4u;
    }
    if (p == 2u) {
        f->pass[np++] = (ear__fft_pass){2u, s, (uint32_t)tw};
        tw += m / 2u;
        s *= 2u;
    }
    if (r3) f->pass[np++] = (ear__fft_pass){3u, s, (uint32_t)tw};
    if (r5) f->pass[np++] = (ear__fft_pass){5u, s, (uint32_t)tw};
    f->n = n;
    f->m = m;
    f->passes = np;
    return (tw + 7u) & ~(size_t)7u;
}

/* The floats of each of t1_re, t1_im: 3 x m/4. */
static size_t first_floats(uint32_t n) {
    return 3u * (n / 8u);
}

size_t ear__fft_table_floats(uint32_t n) {
    ear__fft f;
    size_t a = plan(&f, n), b = (n / 4u + 1u + 7u) & ~(size_t)7u;
    return 2u * a + 2u * b + 2u * first_floats(n);
}

static void twiddle(float *re, float *im, uint64_t num, uint64_t den) {
    double ang = -TWO_PI * (double)(num % den) / (double)den;
    *re = (float)ear__cos(ang);
    *im = (float)ear__sin(ang);
}

void ear__fft_init(ear__fft *f, uint32_t n, float *mem) {
    size_t a = plan(f, n), b = (n / 4u + 1u + 7u) & ~(size_t)7u;
    uint32_t m = f->m;
    size_t half = m / 2u;
    f->tw_re = mem;
    f->tw_im = mem + a;
    f->rw_re = mem + 2u * a;
    f->rw_im = mem + 2u * a + b;
    f->t1_re = mem + 2u * a + 2u * b;
    f->t1_im = f->t1_re + first_floats(n);
    for (uint32_t k = 0; k < f->passes; k++) {
        const ear__fft_pass *ps = &f->pass[k];
        uint32_t L = m / ps->s;
        if (ps->radix == 4u) {
            uint32_t q4 = m / 4u;
            for (uint32_t e = 0; e < q4; e++) {
                uint64_t p = e / ps->s;
                for (uint32_t j = 1; j <= 3; j++)
                    twiddle(f->tw_re + ps->tw + (j - 1u) * q4 + e,
                            f->tw_im + ps->tw + (j - 1u) * q4 + e, j * p, L);
            }
        } else if (ps->radix == 2u) {
            for (uint32_t e = 0; e < half; e++)
                twiddle(f->tw_re + ps->tw + e, f->tw_im + ps->tw + e, e / ps->s, L);
        }
    }
    /* Lane i of a group of eight holds element (i & 1) | (i & 2) << 1 | (i & 4) >> 1: bits 1
     * and 2 swapped (the first pass is radix 4 at stride 1 for every length). */
    for (uint32_t j = 0; j < 3u * (m / 4u); j++) {
        uint32_t g = j & ~7u, i = j & 7u, e = g | (i & 1u) | (i & 2u) << 1 | (i & 4u) >> 1;
        f->t1_re[j] = f->tw_re[f->pass[0].tw + e];
        f->t1_im[j] = f->tw_im[f->pass[0].tw + e];
    }
    for (uint32_t k = 0; k <= half; k++) twiddle(f->rw_re + k, f->rw_im + k, k, n);
    /* Exact at the ends, so that the middle bin's two formulas agree. */
    f->rw_re[0] = 1.0f;
    f->rw_im[0] = 0.0f;
    f->rw_re[half] = 0.0f;
    f->rw_im[half] = -1.0f;
}

/* ---- the split both kernels share (k0..k1 of 0..m/2) ------------------------- */

void ear__fft_split_forward(const ear__fft *f, const float *zr, const float *zi, float *re,
                            float *im, uint32_t k0, uint32_t k1) {
    for (uint32_t k = k0; k <= k1; k++) {
        if (k == 0) {
            uint32_t m = f->m;
            re[0] = zr[0] + zi[0];
            im[0] = 0.0f;
            re[m] = zr[0] - zi[0];
            im[m] = 0.0f;
            continue;
        }
        ear__fft_split_fwd1(f, zr, zi, re, im, k);
    }
}

void ear__fft_split_inverse(const ear__fft *f, const float *re, const float *im, float *zr,
                            float *zi, uint32_t k0, uint32_t k1) {
    for (uint32_t k = k0; k <= k1; k++) {
        if (k == 0) {
            uint32_t m = f->m;
            zr[0] = re[0] + re[m];
            zi[0] = re[0] - re[m];
            continue;
        }
        ear__fft_split_inv1(f, re, im, zr, zi, k);
    }
}

/* ---- the scalar kernel ------------------------------------------------------- */

/* A radix-2 pass: a = x[e], b = x[e + m/2] (e = q + s p) -> y[2sp + q] = a + b,
 * y[2sp + q + s] = (a - b) w. */
static void radix2_scalar(const ear__fft *f, const ear__fft_pass *ps, int inv, const float *xr,
                          const float *xi, float *yr, float *yi) {
    uint32_t half = f->m / 2u, s = ps->s;
    const float *wr = f->tw_re + ps->tw, *wi = f->tw_im + ps->tw;
    for (uint32_t e = 0; e < half; e++) {
        uint32_t o = (e / s) * 2u * s + e % s;
        float ar = xr[e], ai = xi[e], br = xr[e + half], bi = xi[e + half];
        float dr = ar - br, di = ai - bi;
        float c = wr[e], d = inv ? -wi[e] : wi[e];
        yr[o] = ar + br;
        yi[o] = ai + bi;
        yr[o + s] = dr * c - di * d;
        yi[o + s] = dr * d + di * c;
    }
}

/* A radix-4 pass: a, b, c, d = x[e + l m/4] (e = q + s p) ->
 * y[4sp + q]      = (a + c) + (b + d),
 * y[4sp + q + s]  = ((a - c) -+ i (b - d)) w,
 * y[4sp + q + 2s] = ((a + c) - (b + d)) w^2,
 * y[4sp + q + 3s] = ((a - c) +- i (b - d)) w^3   (forward, inverse; w conjugated too). */
static void radix4_scalar(const ear__fft *f, const ear__fft_pass *ps, int inv, const float *xr,
                          const float *xi, float *yr, float *yi) {
    uint32_t q4 = f->m / 4u, s = ps->s;
    const float *wr = f->tw_re + ps->tw, *wi = f->tw_im + ps->tw;
    for (uint32_t e = 0; e < q4; e++) {
        uint32_t o = (e / s) * 4u * s + e % s;
        float ar = xr[e], ai = xi[e], br = xr[e + q4], bi = xi[e + q4];
        float cr = xr[e + 2u * q4], ci = xi[e + 2u * q4];
        float dr = xr[e + 3u * q4], di = xi[e + 3u * q4];
        float pr = ar + cr, pi = ai + ci, mr = ar - cr, mi = ai - ci;
        float qr = br + dr, qi = bi + di, nr = br - dr, ni = bi - di;
        /* j (b - d) = (-ni, nr); the inverse takes -j */
        float jr = inv ? ni : -ni, ji = inv ? -nr : nr;
        float y1r = mr - jr, y1i = mi - ji, y2r = pr - qr, y2i = pi - qi;
        float y3r = mr + jr, y3i = mi + ji;
        float c1 = wr[e], s1 = inv ? -wi[e] : wi[e];
        float c2 = wr[q4 + e], s2 = inv ? -wi[q4 + e] : wi[q4 + e];
        float c3 = wr[2u * q4 + e], s3 = inv ? -wi[2u * q4 + e] : wi[2u * q4 + e];
        yr[o] = pr + qr;
        yi[o] = pi + qi;
        yr[o + s] = y1r * c1 - y1i * s1;
        yi[o + s] = y1r * s1 + y1i * c1;
        yr[o + 2u * s] = y2r * c2 - y2i * s2;
        yi[o + 2u * s] = y2r * s2 + y2i * c2;
        yr[o + 3u * s] = y3r * c3 - y3i * s3;
        yi[o + 3u * s] = y3r * s3 + y3i * c3;
    }
}

/* The last pass when m = 3 x 2^k: L = 3, s = m/3, no twiddles; with
 * t1 = a1 + a2, t2 = a0 - t1/2, t3 = (sqrt 3 / 2)(a1 - a2): y0 = a0 + t1,
 * y1 = t2 -+ i t3, y2 = t2 +- i t3 (forward, inverse). */
static void radix3_scalar(uint32_t m, int inv, const float *xr, const float *xi, float *yr,
                          float *yi) {
    uint32_t s = m / 3u;
    for (uint32_t q = 0; q < s; q++) {
        float a0r = xr[q], a0i = xi[q], a1r = xr[q + s], a1i = xi[q + s];
        float a2r = xr[q + 2u * s], a2i = xi[q + 2u * s];
        float t1r = a1r + a2r, t1i = a1i + a2i;
        float t2r = a0r - EAR__FFT_HALF * t1r, t2i = a0i - EAR__FFT_HALF * t1i;
        float t3r = EAR__FFT_SIN60 * (a1r - a2r), t3i = EAR__FFT_SIN60 * (a1i - a2i);
        if (inv) {
            t3r = -t3r;
            t3i = -t3i;
        }
        yr[q] = a0r + t1r;
        yi[q] = a0i + t1i;
        yr[q + s] = t2r + t3i; /* t2 - i t3 */
        yi[q + s] = t2i - t3r;
        yr[q + 2u * s] = t2r - t3i; /* t2 + i t3 */
        yi[q + 2u * s] = t2i + t3r;
    }
}

/* The last pass when m = 5 x 2^k: L = 5, s = m/5, no twiddles; with t1 = a1 + a4,
 * t2 = a2 + a3, t3 = a1 - a4, t4 = a2 - a3, b1 = a0 + c1 t1 + c2 t2, b2 = a0 + c2 t1 + c1 t2,
 * d1 = s1 t3 + s2 t4, d2 = s2 t3 - s1 t4 (ck = cos 2 pi k/5, sk = sin 2 pi k/5):
 * y0 = a0 + (t1 + t2), y1 = b1 -+ i d1, y4 = b1 +- i d1, y2 = b2 -+ i d2, y3 = b2 +- i d2
 * (forward, inverse). */
static void radix5_scalar(uint32_t m, int inv, const float *xr, const float *xi, float *yr,
                          float *yi) {
    uint32_t s = m / 5u;
    const float c1 = EAR__FFT_C1, c2 = EAR__FFT_C2, s1 = EAR__FFT_S1, s2 = EAR__FFT_S2;
    for (uint32_t q = 0; q < s; q++) {
        float a0r = xr[q], a0i = xi[q];
        float a1r = xr[q + s], a1i = xi[q + s], a2r = xr[q + 2u * s], a2i = xi[q + 2u * s];
        float a3r = xr[q + 3u * s], a3i = xi[q + 3u * s], a4r = xr[q + 4u * s];
        float a4i = xi[q + 4u * s];
        float t1r = a1r + a4r, t1i = a1i + a4i, t2r = a2r + a3r, t2i = a2i + a3i;
        float t3r = a1r - a4r, t3i = a1i - a4i, t4r = a2r - a3r, t4i = a2i - a3i;
        float b1r = a0r + c1 * t1r + c2 * t2r, b1i = a0i + c1 * t1i + c2 * t2i;
        float b2r = a0r + c2 * t1r + c1 * t2r, b2i = a0i + c2 * t1i + c1 * t2i;
        float d1r = s1 * t3r + s2 * t4r, d1i = s1 * t3i + s2 * t4i;
        float d2r = s2 * t3r - s1 * t4r, d2i = s2 * t3i - s1 * t4i;
        if (inv) {
            d1r = -d1r;
            d1i = -d1i;
            d2r = -d2r;
            d2i = -d2i;
        }
        yr[q] = a0r + (t1r + t2r);
        yi[q] = a0i + (t1i + t2i);
        yr[q + s] = b1r + d1i; /* b1 - i d1 */
        yi[q + s] = b1i - d1r;
        yr[q + 4u * s] = b1r - d1i; /* b1 + i d1 */
        yi[q + 4u * s] = b1i + d1r;
        yr[q + 2u * s] = b2r + d2i;
        yi[q + 2u * s] = b2i - d2r;
        yr[q + 3u * s] = b2r - d2i;
        yi[q + 3u * s] = b2i + d2r;
    }
}

/* Runs every pass from (work[0..m), work[m..2m)); returns where the result is. */
static float *complex_scalar(const ear__fft *f, int inv, float *work) {
    uint32_t m = f->m;
    float *a = work, *b = work + 2u * m;
    for (uint32_t k = 0; k < f->passes; k++) {
        const ear__fft_pass *ps = &f->pass[k];
        if (ps->radix == 4u)
            radix4_scalar(f, ps, inv, a, a + m, b, b + m);
        else if (ps->radix == 2u)
            radix2_scalar(f, ps, inv, a, a + m, b, b + m);
        else if (ps->radix == 5u)
            radix5_scalar(m, inv, a, a + m, b, b + m);
        else
            radix3_scalar(m, inv, a, a + m, b, b + m);
        float *tmp = a;
        a = b;
        b = tmp;
    }
    return a;
}

static void forward_segs_scalar(const ear__fft *f, const float *const *seg, const uint32_t *len,
                                uint32_t nseg, float *re, float *im, float *work) {
    uint32_t m = f->m, at = 0;
    for (uint32_t g = 0; g < nseg; g++) {
        const float *x = seg[g];
        for (uint32_t i = 0; i < len[g] / 2u; i++) {
            work[at + i] = x[2u * i];
            work[m + at + i] = x[2u * i + 1u];
        }
        at += len[g] / 2u;
    }
    float *z = complex_scalar(f, 0, work);
    ear__fft_split_forward(f, z, z + m, re, im, 0, m / 2u);
}

static void forward_scalar(const ear__fft *f, const float *x, float *re, float *im,
                           float *work) {
    forward_segs_scalar(f, &x, &f->n, 1, re, im, work);
}

static void inverse_scalar(const ear__fft *f, const float *re, const float *im, float *y,
                           float *work) {
    uint32_t m = f->m;
    ear__fft_split_inverse(f, re, im, work, work + m, 0, m / 2u);
    float *z = complex_scalar(f, 1, work);
    for (uint32_t i = 0; i < m; i++) {
        y[2u * i] = z[i];
        y[2u * i + 1u] = z[m + i];
    }
}

const ear__fft_kernel ear__fft_scalar = {forward_scalar, forward_segs_scalar, inverse_scalar};
