/* SPDX-License-Identifier: Zlib */
/*
 * The stage's FFT (fft.c, fft_avx2.c): a real transform of length n = 2^j (64..8192),
 * 3 x 2^j (192..6144) or 5 x 2^j (320..5120) through a complex Stockham transform of n/2
 * points on split real and imaginary arrays (radix-4 passes, then a radix 2 and a radix 3
 * or 5 where needed; no bit
 * reversal: every pass reads and writes in order), for the
 * HRTF's fast convolution (hrtf_stage.c). Only +, -, x and exact halvings, in the same
 * order in both kernels: the scalar and the AVX2 transforms give the same bits, natively
 * and in the web build. Twiddles come from portable_math.c.
 *
 *   forward: X[k] = sum_j x[j] e^(-2 pi i jk/n), k = 0..n/2 (n/2 + 1 bins);
 *   inverse: given the n/2 + 1 bins of a real signal's spectrum, y = n * x.
 */
#ifndef EAR_STAGE_FFT_H
#define EAR_STAGE_FFT_H

#include <stddef.h>
#include <stdint.h>

#define EAR__FFT_MIN   64u
#define EAR__FFT_HALF  0.5f
#define EAR__FFT_SIN60 0.866025403784438646763723170752936183f
/* The radix-5 butterfly's cos and sin of 2 pi / 5 and 4 pi / 5. */
#define EAR__FFT_C1  0.309016994374947424102293417182819059f
#define EAR__FFT_C2  (-0.809016994374947424102293417182819059f)
#define EAR__FFT_S1  0.951056516295153572116439333379382143f
#define EAR__FFT_S2  0.587785252292473129168705954639072769f
#define EAR__FFT_MAX 8192u

#define EAR__FFT_MAX_PASSES 8u

/* One pass of the complex transform: radix 4, 2, 3 or 5 at stride s (the sub-length being
 * L = m / s), its twiddles at tw in tw_re / tw_im. */
typedef struct ear__fft_pass {
    uint32_t radix, s, tw;
} ear__fft_pass;

typedef struct ear__fft {
    uint32_t n, m;   /* real length, complex length n/2 */
    uint32_t passes; /* radix 4 while four divides what is left, then 2, then 3 or 5 */
    ear__fft_pass pass[EAR__FFT_MAX_PASSES];
    float *tw_re, *tw_im; /* radix 4: w^p, w^2p, w^3p for each of m/4 elements; radix 2: w^p
                           * for each of m/2 (w = e^(-2 pi i / L)) */
    float *rw_re, *rw_im; /* m/2 + 1: e^(-2 pi i k/n), for the real split */
    float *t1_re, *t1_im; /* the first pass's (radix 4 at stride 1) w^p, w^2p, w^3p again,
                           * each group of eight in the lane order (0 1 4 5 2 3 6 7) that
                           * the AVX2 forward transform's in-register deinterleave leaves */
} ear__fft;

/* Whether the transform takes length n. */
int ear__fft_length_ok(uint32_t n);
/* The floats of tables ear__fft_init places for length n (ear__fft_length_ok). */
size_t ear__fft_table_floats(uint32_t n);
/* Places and fills f's tables in mem (ear__fft_table_floats(n) floats, 32-byte aligned). */
void ear__fft_init(ear__fft *f, uint32_t n, float *mem);

/* Scratch floats a transform needs (4 * m, for the complex ping-pong). */
#define EAR__FFT_WORK(n) (2u * (n))

typedef struct ear__fft_kernel {
    /* x: n reals -> re, im: n/2 + 1 bins each. */
    void (*forward)(const ear__fft *f, const float *x, float *re, float *im, float *work);
    /* The same for x given in nseg pieces one after the other, each of an even length
     * (len[i] floats at seg[i], n in all). */
    void (*forward_segs)(const ear__fft *f, const float *const *seg, const uint32_t *len,
                         uint32_t nseg, float *re, float *im, float *work);
    /* re, im: n/2 + 1 bins of a real signal's spectrum -> y: n reals, scaled by n. */
    void (*inverse)(const ear__fft *f, const float *re, const float *im, float *y, float *work);
} ear__fft_kernel;

extern const ear__fft_kernel ear__fft_scalar;
/* NULL where the CPU or the build has no AVX2. */
extern const ear__fft_kernel *const ear__fft_avx2;

/* One bin k (0 < k <= m/2) of the forward split and of the inverse one, inline so that
 * each kernel compiles them with its own instructions (the same operations). */
static inline void ear__fft_split_fwd1(const ear__fft *f, const float *zr, const float *zi,
                                       float *re, float *im, uint32_t k) {
    uint32_t m = f->m, j = m - k;
    float ar = zr[k], ai = zi[k], br = zr[j], bi = -zi[j];
    float er = 0.5f * (ar + br), ei = 0.5f * (ai + bi);
    float or_ = 0.5f * (ai - bi), oi = 0.5f * (br - ar);
    float c = f->rw_re[k], s = f->rw_im[k];
    float tr = c * or_ - s * oi, ti = c * oi + s * or_;
    re[k] = er + tr;
    im[k] = ei + ti;
    if (k != m / 2u) {
        re[j] = er - tr;
        im[j] = ti - ei;
    }
}
static inline void ear__fft_split_inv1(const ear__fft *f, const float *re, const float *im,
                                       float *zr, float *zi, uint32_t k) {
    uint32_t m = f->m, j = m - k;
    float ar = re[k], ai = im[k], br = re[j], bi = -im[j];
    float er = ar + br, ei = ai + bi;
    float dr = ar - br, di = ai - bi;
    float c = f->rw_re[k], s = f->rw_im[k];
    float or_ = dr * c + di * s, oi = di * c - dr * s;
    zr[k] = er - oi;
    zi[k] = ei + or_;
    if (k != m / 2u) {
        zr[j] = er + oi;
        zi[j] = or_ - ei;
    }
}

/* The shared pieces both kernels use (fft.c). */
void ear__fft_split_forward(const ear__fft *f, const float *zr, const float *zi, float *re,
                            float *im, uint32_t k0, uint32_t k1);
void ear__fft_split_inverse(const ear__fft *f, const float *re, const float *im, float *zr,
                            float *zi, uint32_t k0, uint32_t k1);

#endif
