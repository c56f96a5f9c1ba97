/*
 * The stage's real FFT (fft.h): tables, the scalar kernel, and the real <-> complex split
 * both kernels share.
 *
 * The complex transform of m = n/2 points is Stockham's: stage t (t = 0..log2 m - 1, with
 * s = 2^t and L = m / s) reads a[e] and b[e + m/2] for e = q + s p (p < L/2, q < s) and
 * writes a + b to y[2 s p + q] and (a - b) w_p to y[2 s p + q + s], w_p = e^(-2 pi i p/L)
 * (conjugated for the inverse). Reads run in order at every stage and the output comes in
 * natural order, so no bit reversal is needed; the twiddles are stored per element, so a
 * stage is one pass of loads, three adds and a complex multiply.
 *
 * The real transform packs the even samples in the real part and the odd ones in the
 * imaginary part (z = x_even + i x_odd), transforms m points, and splits:
 * E = (Z[k] + conj Z[m-k]) / 2, O = (Z[k] - conj Z[m-k]) / 2i, X[k] = E + W^k O and
 * X[m-k] = conj(E - W^k O) with W = e^(-2 pi i/n). The inverse runs the same backwards
 * without the halvings, so it returns n times the signal.
 */
#include "fft.h"

#include "earshot/portable_math.h"

#include <string.h>

#define TWO_PI 6.283185307179586476925286766559

int ear__fft_length_ok(uint32_t n) {
    if (n >= EAR__FFT_MIN && n <= EAR__FFT_MAX && (n & (n - 1u)) == 0) return 1;
    if (n % 3u || n < 192u || n > 6144u) return 0;
    uint32_t p = n / 3u;
    return (p & (p - 1u)) == 0;
}

/* m = n/2 = 3^r3 x 2^stages. */
static void shape(uint32_t n, uint32_t *m, uint32_t *stages, uint32_t *r3) {
    *m = n / 2u;
    *r3 = *m % 3u == 0;
    uint32_t p = *r3 ? *m / 3u : *m;
    *stages = 0;
    while ((1u << *stages) < p) (*stages)++;
}

size_t ear__fft_table_floats(uint32_t n) {
    uint32_t m, stages, r3;
    shape(n, &m, &stages, &r3);
    size_t half = m / 2u;
    /* two arrays of stages x m/2, two of m/2 + 1, each rounded up to 8 floats */
    size_t a = (stages * half + 7u) & ~(size_t)7u, b = (half + 1u + 7u) & ~(size_t)7u;
    return 2u * a + 2u * b;
}

void ear__fft_init(ear__fft *f, uint32_t n, float *mem) {
    uint32_t m, stages, r3;
    shape(n, &m, &stages, &r3);
    size_t half = m / 2u;
    size_t a = (stages * half + 7u) & ~(size_t)7u, b = (half + 1u + 7u) & ~(size_t)7u;
    f->n = n;
    f->m = m;
    f->stages = stages;
    f->radix3 = r3;
    f->tw_re = mem;
    f->tw_im = mem + a;
    f->rw_re = mem + 2u * a;
    f->rw_im = mem + 2u * a + b;
    for (uint32_t t = 0; t < stages; t++) {
        uint32_t L = m >> t;
        for (uint32_t e = 0; e < half; e++) {
            uint32_t p = e >> t;
            double ang = -TWO_PI * (double)p / (double)L;
            f->tw_re[t * half + e] = (float)ear__cos(ang);
            f->tw_im[t * half + e] = (float)ear__sin(ang);
        }
    }
    for (uint32_t k = 0; k <= half; k++) {
        double ang = -TWO_PI * (double)k / (double)n;
        f->rw_re[k] = (float)ear__cos(ang);
        f->rw_im[k] = (float)ear__sin(ang);
    }
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

static void stage_scalar(const ear__fft *f, uint32_t t, int inv, const float *xr,
                         const float *xi, float *yr, float *yi) {
    uint32_t half = f->m / 2u, s = 1u << t;
    const float *wr = f->tw_re + (size_t)t * half, *wi = f->tw_im + (size_t)t * half;
    for (uint32_t e = 0; e < half; e++) {
        uint32_t o = ((e >> t) << (t + 1u)) + (e & (s - 1u));
        float ar = xr[e], ai = xi[e], br = xr[e + half], bi = xi[e + half];
        float dr = ar - br, di = ai - bi;
        float c = wr[e], d = inv ? -wi[e] : wi[e];
        yr[o] = ar + br;
        yi[o] = ai + bi;
        yr[o + s] = dr * c - di * d;
        yi[o + s] = dr * d + di * c;
    }
}

/* The last stage when m = 3 x 2^stages: L = 3, s = m/3, no twiddles; with
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

/* Runs every stage from (work[0..m), work[m..2m)); returns where the result is. */
static float *complex_scalar(const ear__fft *f, int inv, float *work) {
    uint32_t m = f->m;
    float *a = work, *b = work + 2u * m;
    for (uint32_t t = 0; t < f->stages; t++) {
        stage_scalar(f, t, inv, a, a + m, b, b + m);
        float *tmp = a;
        a = b;
        b = tmp;
    }
    if (f->radix3) {
        radix3_scalar(m, inv, a, a + m, b, b + m);
        a = b;
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
