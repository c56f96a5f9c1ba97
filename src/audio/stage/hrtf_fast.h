/* SPDX-License-Identifier: Zlib */
/*
 * The HRTF's fast convolution, frequency-domain loops (hrtf_stage.c): plain C that both
 * kernels compile, hrtf_stage.c as it is and hrtf_conv_avx2.c inside AVX2 functions,
 * which the compiler vectorises eight bins at a time. Element by element the operations
 * and their order are the same (no FMA), so both kernels give the same bits.
 *
 * A spectrum is kpad reals then kpad imaginaries (k = fft_n / 2 + 1 bins used).
 */
#ifndef EAR_HRTF_FAST_H
#define EAR_HRTF_FAST_H

#include <stdint.h>

/* Both ears (ear e's spectra at + 2 kpad e in s, a0, a1): a0 += X S and, when a1 (a path
 * fading out on its output), a1 -= X S. Two loops, not one testing a1: GCC 12 vectorises
 * neither half of the one. */
static inline void ear__hf_mac(uint32_t k, uint32_t kpad, const float *restrict x,
                               const float *restrict s, float *restrict a0,
                               float *restrict a1) {
    const float *xr = x, *xi = x + kpad;
    const float *lr = s, *li = s + kpad, *rr = s + 2u * kpad, *ri = s + 3u * kpad;
    float *l0r = a0, *l0i = a0 + kpad, *r0r = a0 + 2u * kpad, *r0i = a0 + 3u * kpad;
    if (a1) {
        float *l1r = a1, *l1i = a1 + kpad, *r1r = a1 + 2u * kpad, *r1i = a1 + 3u * kpad;
        for (uint32_t j = 0; j < k; j++) {
            float plr = xr[j] * lr[j] - xi[j] * li[j], pli = xr[j] * li[j] + xi[j] * lr[j];
            float prr = xr[j] * rr[j] - xi[j] * ri[j], pri = xr[j] * ri[j] + xi[j] * rr[j];
            l0r[j] += plr;
            l0i[j] += pli;
            r0r[j] += prr;
            r0i[j] += pri;
            l1r[j] -= plr;
            l1i[j] -= pli;
            r1r[j] -= prr;
            r1i[j] -= pri;
        }
    } else {
        for (uint32_t j = 0; j < k; j++) {
            l0r[j] += xr[j] * lr[j] - xi[j] * li[j];
            l0i[j] += xr[j] * li[j] + xi[j] * lr[j];
            r0r[j] += xr[j] * rr[j] - xi[j] * ri[j];
            r0i[j] += xr[j] * ri[j] + xi[j] * rr[j];
        }
    }
}

/* out[j] = (g0 + d (j0 + j)) x[j]: a part of a voice's block, gained, into its ring. */
static inline void ear__hf_gain(uint32_t n, uint32_t j0, float g0, float d,
                                const float *restrict x, float *restrict out) {
    int32_t i0 = (int32_t)j0;
    for (int32_t j = 0; j < (int32_t)n; j++) out[j] = (g0 + d * (float)(i0 + j)) * x[j];
}

/* One ear's product alone: y = X S (a voice's own output). */
static inline void ear__hf_product(uint32_t k, uint32_t kpad, const float *restrict x,
                                   const float *restrict s, float *restrict y) {
    const float *xr = x, *xi = x + kpad, *sr = s, *si = s + kpad;
    float *yi = y + kpad;
    for (uint32_t j = 0; j < k; j++) {
        y[j] = xr[j] * sr[j] - xi[j] * si[j];
        yi[j] = xr[j] * si[j] + xi[j] * sr[j];
    }
}

/* The block where the filters change (o: old, n: new; P = X S), both ears:
 * a0 += Po, a1 += Pn - Po. */
static inline void ear__hf_mac_xfade(uint32_t k, uint32_t kpad, const float *restrict x,
                                     const float *restrict so, const float *restrict sn,
                                     float *restrict a0, float *restrict a1) {
    const float *xr = x, *xi = x + kpad;
    for (uint32_t e = 0; e < 2u; e++) {
        /* Pointers for the imaginary halves (not [kpad + j]: GCC 12 vectorises neither
         * loop with an index that may wrap). */
        const float *orr = so + 2u * kpad * e, *oi = orr + kpad;
        const float *nr = sn + 2u * kpad * e, *ni = nr + kpad;
        float *b0r = a0 + 2u * kpad * e, *b0i = b0r + kpad;
        float *b1r = a1 + 2u * kpad * e, *b1i = b1r + kpad;
        for (uint32_t j = 0; j < k; j++) {
            float por = xr[j] * orr[j] - xi[j] * oi[j];
            float poi = xr[j] * oi[j] + xi[j] * orr[j];
            float pnr = xr[j] * nr[j] - xi[j] * ni[j];
            float pni = xr[j] * ni[j] + xi[j] * nr[j];
            b0r[j] += por;
            b0i[j] += poi;
            b1r[j] += pnr - por;
            b1i[j] += pni - poi;
        }
    }
}

/* out[j] += y0 + r y1, r = (j0 + j + 1) / B; y1 may be NULL. */
static inline void ear__hf_combine(uint32_t h, uint32_t j0, float inv_b,
                                   const float *restrict y0, const float *restrict y1,
                                   float *restrict out) {
    if (y1) {
        for (uint32_t j = 0; j < h; j++) {
            float r = (float)(j0 + j + 1u) * inv_b;
            out[j] += y0[j] + r * y1[j];
        }
    } else {
        for (uint32_t j = 0; j < h; j++) out[j] += y0[j];
    }
}

/* One ear's filter spectrum for a direction: the blend of four measured directions'
 * spectra m[i] (weights w[i]), times the fractional delay's spectrum (interpolated between
 * two tabulated fractions fa, fb at fx) and the whole delay's phase ramp q. */
static inline void ear__hf_build(uint32_t k, uint32_t kpad, const float *restrict m0,
                                 const float *restrict m1, const float *restrict m2,
                                 const float *restrict m3, const float w[4],
                                 const float *restrict fa, const float *restrict fb, float fx,
                                 const float *restrict q, float *restrict out) {
    float w0 = w[0], w1 = w[1], w2 = w[2], w3 = w[3];
    const float *m0i = m0 + kpad, *m1i = m1 + kpad, *m2i = m2 + kpad, *m3i = m3 + kpad;
    const float *fai = fa + kpad, *fbi = fb + kpad, *qi = q + kpad;
    float *oi = out + kpad;
    for (uint32_t j = 0; j < k; j++) {
        float br = w0 * m0[j] + w1 * m1[j] + w2 * m2[j] + w3 * m3[j];
        float bi = w0 * m0i[j] + w1 * m1i[j] + w2 * m2i[j] + w3 * m3i[j];
        float fr = fa[j] + fx * (fb[j] - fa[j]);
        float fi = fai[j] + fx * (fbi[j] - fai[j]);
        float cr = fr * q[j] - fi * qi[j], ci = fr * qi[j] + fi * q[j];
        out[j] = br * cr - bi * ci;
        oi[j] = br * ci + bi * cr;
    }
}

#endif
