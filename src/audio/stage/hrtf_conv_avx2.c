/* SPDX-License-Identifier: Zlib */
/*
 * The HRTF's fast convolution with AVX2 (hrtf_fast.h): the frequency-domain products,
 * sums and the weighted mix into a bus, compiled inside AVX2 functions so that the
 * compiler runs them eight bins (or frames) at a time. The same operations in the same
 * order as the scalar kernel, without FMA: the same bits. Used only when the stage's
 * kernel is the AVX2 kernel, chosen only where the CPU runs it.
 */
#include "hrtf_fast.h"
#include "stage_internal.h"

#if defined(__x86_64__)

#define AVX2 __attribute__((target("avx2")))

AVX2 static void mac_avx2(uint32_t k, uint32_t kpad, const float *x, const float *sp, float *a0,
                          float *a1) {
    ear__hf_mac(k, kpad, x, sp, a0, a1);
}

AVX2 static void mac_xfade_avx2(uint32_t k, uint32_t kpad, const float *x, const float *so,
                                const float *sn, float *a0, float *a1) {
    ear__hf_mac_xfade(k, kpad, x, so, sn, a0, a1);
}

AVX2 static void combine_avx2(uint32_t h, uint32_t j0, float inv_b, const float *y0,
                              const float *y1, float *out) {
    ear__hf_combine(h, j0, inv_b, y0, y1, out);
}

AVX2 static void build_avx2(uint32_t k, uint32_t kpad, const float *m0, const float *m1,
                            const float *m2, const float *m3, const float w[4], const float *fa,
                            const float *fb, float fx, const float *q, float *out) {
    ear__hf_build(k, kpad, m0, m1, m2, m3, w, fa, fb, fx, q, out);
}

AVX2 static void product_avx2(uint32_t k, uint32_t kpad, const float *x, const float *sp,
                              float *y) {
    ear__hf_product(k, kpad, x, sp, y);
}

AVX2 static void gain_avx2(uint32_t n, uint32_t j0, float g0, float d, const float *x,
                           float *out) {
    ear__hf_gain(n, j0, g0, d, x, out);
}

static const ear__hf_kernel kernel = {mac_avx2,   mac_xfade_avx2, combine_avx2,
                                      build_avx2, product_avx2,   gain_avx2};
const ear__hf_kernel *const ear__hf_avx2 = &kernel;

#else

const ear__hf_kernel *const ear__hf_avx2 = NULL;

#endif
