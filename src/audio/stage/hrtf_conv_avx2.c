/*
 * The HRTF convolution with AVX2 and FMA: y[j] = sum_k g[k] p[j - k], 32 outputs at a
 * time in four accumulators (one broadcast tap feeds four unaligned loads and four FMAs),
 * then 8 at a time, then one by one. The same sum as ear__hrtf_conv_scalar's, in the same
 * tap order, with FMA's rounding (one rounding per tap instead of two): within 1e-6 of the
 * scalar reference on full-scale signals (tests/stage/test_hrtf.c). Compiled for
 * AVX2+FMA through a target attribute and called only when the stage's kernel is the
 * AVX2 kernel, which is chosen only where the CPU runs both.
 */
#include "stage_internal.h"

#if defined(__x86_64__)

#include <immintrin.h>

__attribute__((target("avx2,fma"))) static void
conv_avx2(const float *p, uint32_t frames, const float *g, uint32_t len, float *y) {
    uint32_t j = 0;
    for (; j + 32u <= frames; j += 32u) {
        __m256 a0 = _mm256_setzero_ps(), a1 = _mm256_setzero_ps();
        __m256 a2 = _mm256_setzero_ps(), a3 = _mm256_setzero_ps();
        const float *q = p + j;
        for (uint32_t k = 0; k < len; k++) {
            __m256 c = _mm256_broadcast_ss(g + k);
            const float *r = q - k;
            a0 = _mm256_fmadd_ps(c, _mm256_loadu_ps(r), a0);
            a1 = _mm256_fmadd_ps(c, _mm256_loadu_ps(r + 8), a1);
            a2 = _mm256_fmadd_ps(c, _mm256_loadu_ps(r + 16), a2);
            a3 = _mm256_fmadd_ps(c, _mm256_loadu_ps(r + 24), a3);
        }
        _mm256_storeu_ps(y + j, a0);
        _mm256_storeu_ps(y + j + 8, a1);
        _mm256_storeu_ps(y + j + 16, a2);
        _mm256_storeu_ps(y + j + 24, a3);
    }
    for (; j + 8u <= frames; j += 8u) {
        __m256 a0 = _mm256_setzero_ps();
        const float *q = p + j;
        for (uint32_t k = 0; k < len; k++)
            a0 = _mm256_fmadd_ps(_mm256_broadcast_ss(g + k), _mm256_loadu_ps(q - k), a0);
        _mm256_storeu_ps(y + j, a0);
    }
    for (; j < frames; j++) {
        float acc = 0.0f;
        const float *q = p + j;
        for (uint32_t k = 0; k < len; k++) acc = fmaf(g[k], q[-(int32_t)k], acc);
        y[j] = acc;
    }
}

void (*const ear__hrtf_conv_avx2)(const float *, uint32_t, const float *, uint32_t,
                                  float *) = conv_avx2;

#else

void (*const ear__hrtf_conv_avx2)(const float *, uint32_t, const float *, uint32_t,
                                  float *) = NULL;

#endif
