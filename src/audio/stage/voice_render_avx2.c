/* SPDX-License-Identifier: Zlib */
/*
 * The per-voice kernel of voice_render.c with AVX2 and FMA, eight frames at a time.
 * Same passes and same filters; only rounding differs (FMA, the read weight taken
 * from the cursor's top 24 fraction bits, the filter's and the steady far ear's
 * arrangement below), so the output stays within 1e-5 of the scalar kernel's. Every
 * function here is compiled for AVX2+FMA through target attributes and is called only
 * after ear__kernel_avx2_available() said yes, so the rest of the library still runs on
 * any x86-64. No -march flag is involved and no result depends on data alignment, so
 * the kernel is deterministic.
 *
 *  1. Read (mono clips, blocks clear of the clip's end and crossfade): the cursor
 *     relative to the block start, C(j) = frac0 + j step0 + j (j + 1) / 2 dstep in
 *     64-bit integers, is exactly the scalar recurrence's value; it is computed for
 *     eight frames by adding per-lane increments and split into index and fraction
 *     (with a steady step, from 32-bit lanes and a carry: the same values); the two
 *     neighbours come from unaligned loads permuted into place (steps up to 2 frames)
 *     or from gathers. Other blocks use the scalar read.
 *  2. Filter: the TPT one-pole rewritten so that its recurrence is one FMA,
 *     s' = (1 - 2G) s + 2G x, with y = (s + s') / 2 (the same filter).
 *  3. Mix: the gain ramp and the crossfade between two fixed delays are plain
 *     vector arithmetic on unaligned loads; a block whose gains and delay hold adds
 *     fixed gains, the far ear's as g (1 - w) and g w on its two taps.
 *
 * A 16-bit clip (voice->s16) takes the same read with its eight samples widened to
 * floats q / 32768 as they are loaded (exact), so it renders bit for bit as the float
 * clip of those values.
 */
#include "stage_internal.h"

#include <math.h>
#include <string.h>

#if defined(__x86_64__)

#include <immintrin.h>

#define AVX2 __attribute__((target("avx2,fma")))
/* Per-block helpers called once or twice per voice: inlined, their call overhead (saved
 * registers, vzeroupper) would be a visible share of a 160-frame block. */
#define AVX2_INLINE AVX2 inline __attribute__((always_inline))

bool ear__kernel_avx2_available(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}

/* a times each 64-bit lane of k (k < 2^32), modulo 2^64. */
AVX2 static __m256i mul_small(uint64_t a, __m256i k) {
    __m256i lo = _mm256_mul_epu32(_mm256_set1_epi64x((long long)a), k);
    __m256i hi = _mm256_mul_epu32(_mm256_set1_epi64x((long long)(a >> 32)), k);
    return _mm256_add_epi64(lo, _mm256_slli_epi64(hi, 32));
}

/* j + 1 for the eight lanes of the frame group starting at j. */
AVX2_INLINE static __m256 ramp_index(uint32_t j) {
    return _mm256_add_ps(_mm256_set1_ps((float)(j + 1)),
                         _mm256_setr_ps(0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f));
}

/* Where read_mono puts frame group j's eight samples x: stored to out + j, or (a blend
 * layer) added into out + j with a gain ramped from g0 by dg per frame, with
 * mix_plain's operations (a steady gain, dg = 0, gives the same values with g0 alone). */
typedef struct read_sink {
    bool add, ramp;
    __m256 g0, dg;
} read_sink;

AVX2_INLINE static void put8(float *out, uint32_t j, __m256 x, const read_sink *k) {
    if (k->add && !k->ramp) {
        _mm256_storeu_ps(out + j, _mm256_fmadd_ps(k->g0, x, _mm256_loadu_ps(out + j)));
    } else if (k->add) {
        __m256 g = _mm256_fmadd_ps(k->dg, ramp_index(j), k->g0);
        _mm256_storeu_ps(out + j, _mm256_fmadd_ps(g, x, _mm256_loadu_ps(out + j)));
    } else {
        _mm256_storeu_ps(out + j, x);
    }
}

/* Eight samples from index k of a clip's data d (floats, or 16-bit where s16), as
 * floats: a 16-bit sample q is q / 32768, exact. */
AVX2_INLINE static __m256 load8(const void *d, uint64_t k, bool s16) {
    if (!s16) return _mm256_loadu_ps((const float *)d + k);
    __m128i q = _mm_loadu_si128((const __m128i *)((const int16_t *)d + k));
    return _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_cvtepi16_epi32(q)),
                         _mm256_set1_ps(1.0f / 32768.0f));
}

/* Samples ix and ix + 1 of each lane from d, gathered: for 16-bit data one 32-bit
 * gather holds both (little-endian: ix in the low half, ix + 1 in the high half). */
AVX2_INLINE static void gather2(const void *d, __m256i ix, bool s16, __m256 *a, __m256 *b) {
    if (!s16) {
        *a = _mm256_i32gather_ps((const float *)d, ix, 4);
        *b = _mm256_i32gather_ps((const float *)d + 1, ix, 4);
        return;
    }
    __m256i g = _mm256_i32gather_epi32((const int *)d, ix, 2);
    const __m256 k = _mm256_set1_ps(1.0f / 32768.0f);
    *a = _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_srai_epi32(_mm256_slli_epi32(g, 16), 16)), k);
    *b = _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_srai_epi32(g, 16)), k);
}

/* One sample, as load8 does it. */
AVX2_INLINE static float sample1(const void *d, uint64_t k, bool s16) {
    return s16 ? (float)((const int16_t *)d)[k] * (1.0f / 32768.0f) : ((const float *)d)[k];
}

/* Pass 1 for a mono clip whose block stays inside the clip and clear of the loop
 * crossfade (the scalar fast path's condition); returns false, having done nothing,
 * otherwise. Inlined into read_mono twice (float and 16-bit data), and that into its
 * two callers, each with a constant sink kind. */
AVX2_INLINE static bool read_mono_as(ear__voice *v, uint64_t step_end, uint32_t frames,
                                     float *out, const read_sink *sink, float g0, float dg,
                                     bool s16) {
    if (v->channels != 1) return false;
    uint64_t step0 = v->step_fx;
    int64_t dstep =
        step_end == step0 ? 0 : ((int64_t)step_end - (int64_t)step0) / (int64_t)frames;
    uint64_t ds = (uint64_t)dstep;
    uint64_t sum = (uint64_t)frames * step0 + (uint64_t)frames * (frames + 1u) / 2u * ds;
    uint64_t end_pos = v->pos + ((v->frac + sum) >> 32) + 1u;
    uint64_t limit = v->looping ? v->loop_len : v->frames;
    bool clear_of_xfade = !v->xfade || !v->second_pass || v->pos >= v->xfade;
    if (!(end_pos + 1u < limit && clear_of_xfade)) return false;

    const void *d = s16 ? (const void *)((const int16_t *)v->data + v->pos)
                        : (const float *)v->data + v->pos;
    uint64_t frac0 = v->frac;
    uint32_t j = 0;
    if (frames >= 8) {
        /* The cursor relative to the block start at frame l is frac0 + l step0 +
         * l (l + 1) / 2 ds, and it grows by 8 step0 + (8 l + 36) ds per eight frames
         * (all modulo 2^64). The two cursor vectors hold frames (0, 1, 4, 5) and
         * (2, 3, 6, 7), so that in-lane shuffles of their even 32-bit elements
         * (fractions) and odd ones (indices) give all eight frames in order. */
        __m256i vf = _mm256_set1_epi64x((long long)frac0);
        __m256i v8s = _mm256_set1_epi64x((long long)(8u * step0));
        __m256i clo = _mm256_add_epi64(vf, mul_small(step0, _mm256_setr_epi64x(0, 1, 4, 5)));
        __m256i chi = _mm256_add_epi64(vf, mul_small(step0, _mm256_setr_epi64x(2, 3, 6, 7)));
        __m256i ilo = v8s, ihi = v8s;
        __m256i dinc = _mm256_set1_epi64x((long long)(64u * ds));
        if (ds) { /* the step ramps (a steady one, the usual block, skips these) */
            clo = _mm256_add_epi64(clo, mul_small(ds, _mm256_setr_epi64x(0, 1, 10, 15)));
            chi = _mm256_add_epi64(chi, mul_small(ds, _mm256_setr_epi64x(3, 6, 21, 28)));
            ilo = _mm256_add_epi64(ilo, mul_small(ds, _mm256_setr_epi64x(36, 44, 68, 76)));
            ihi = _mm256_add_epi64(ihi, mul_small(ds, _mm256_setr_epi64x(52, 60, 84, 92)));
        }
        __m256 scale = _mm256_set1_ps(1.0f / 16777216.0f);
        /* Without gathers (slow on some CPUs): a step of at most 2 frames keeps eight
         * frames' indices within 15 of the first, and the clip must have seventeen
         * readable frames past the block's last index. */
        uint64_t max_step = step0 > step_end ? step0 : step_end;
        bool no_gather = max_step <= (2ull << 32) && end_pos + 18u < v->frames;
        /* A step of at most one frame keeps all eight indices within seven of the
         * first: one load and one permute per neighbour. Up to two frames, within
         * fifteen: two loads and two permutes per neighbour, blended. Either way the
         * first index comes from a scalar copy of lane 0's exact cursor instead of
         * being read out of the vector. */
        bool narrow = no_gather && max_step <= (1ull << 32);
        uint64_t c0 = frac0, inc0 = 8u * step0 + 36u * ds, dinc0 = 64u * ds;
        if (no_gather && !ds && j + 8 <= frames) {
            /* A steady step (up to two frames): frame l of a group is at c0 + l step0, so with
             * the group's first fraction f = c0 mod 2^32 and l step0 = (hi_l, lo_l) as 32 + 32
             * bits, its index is hi_l plus the carry out of f + lo_l and its fraction that
             * sum's low 32 bits: 32-bit lanes only. The vector holds f ^ 2^31, so a
             * signed compare finds the unsigned carry, and the weight, (f + lo_l) / 2^32,
             * is the signed value's top 24 bits times 2^-24 plus one half: exactly the
             * ramped loop's weight. */
            uint32_t lo[8], hi[8];
            for (uint32_t l = 0; l < 8; l++) {
                uint64_t L = (uint64_t)l * step0;
                lo[l] = (uint32_t)L;
                hi[l] = (uint32_t)(L >> 32);
            }
            __m256i vlo = _mm256_loadu_si256((const __m256i *)lo);
            __m256i vhi = _mm256_loadu_si256((const __m256i *)hi);
            __m256i fx = _mm256_set1_epi32((int)((uint32_t)c0 ^ 0x80000000u));
            __m256i f8 = _mm256_set1_epi32((int)(uint32_t)(8u * step0));
            const __m256 half = _mm256_set1_ps(0.5f);
            const __m256i seven8 = _mm256_set1_epi32(7);
            for (; j + 8 <= frames; j += 8) {
                __m256i sx = _mm256_add_epi32(fx, vlo);
                __m256i rel = _mm256_sub_epi32(vhi, _mm256_cmpgt_epi32(fx, sx));
                __m256 w =
                    _mm256_fmadd_ps(_mm256_cvtepi32_ps(_mm256_srai_epi32(sx, 8)), scale, half);
                uint64_t p = c0 >> 32;
                __m256 a = _mm256_permutevar8x32_ps(load8(d, p, s16), rel);
                __m256 b = _mm256_permutevar8x32_ps(load8(d, p + 1, s16), rel);
                if (!narrow && ((c0 + 7u * step0) >> 32) - (c0 >> 32) > 7u) {
                    /* A step over one frame: as in the loop for such steps below. */
                    __m256 h = _mm256_castsi256_ps(_mm256_cmpgt_epi32(rel, seven8));
                    a = _mm256_blendv_ps(a, _mm256_permutevar8x32_ps(load8(d, p + 8, s16), rel),
                                         h);
                    b = _mm256_blendv_ps(b, _mm256_permutevar8x32_ps(load8(d, p + 9, s16), rel),
                                         h);
                }
                put8(out, j, _mm256_fmadd_ps(w, _mm256_sub_ps(b, a), a), sink);
                fx = _mm256_add_epi32(fx, f8);
                c0 += inc0;
            }
        }
        const __m256i seven = _mm256_set1_epi32(7);
        /* The cursor of the group's last frame less its first's: 7 step0 + (7 l + 28) ds
         * for the group starting at frame l. */
        uint64_t span7 = 7u * step0 + (7u * j + 28u) * ds, dspan7 = 56u * ds;
        for (; no_gather && j + 8 <= frames; j += 8) {
            __m256i fr = _mm256_castps_si256(_mm256_shuffle_ps(
                _mm256_castsi256_ps(clo), _mm256_castsi256_ps(chi), _MM_SHUFFLE(2, 0, 2, 0)));
            __m256i ix = _mm256_castps_si256(_mm256_shuffle_ps(
                _mm256_castsi256_ps(clo), _mm256_castsi256_ps(chi), _MM_SHUFFLE(3, 1, 3, 1)));
            __m256 w = _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_srli_epi32(fr, 8)), scale);
            __m256i rel = _mm256_sub_epi32(ix, _mm256_set1_epi32((int)(c0 >> 32)));
            uint64_t p = c0 >> 32;
            __m256 a = _mm256_permutevar8x32_ps(load8(d, p, s16), rel);
            __m256 b = _mm256_permutevar8x32_ps(load8(d, p + 1, s16), rel);
            if (!narrow && ((c0 + span7) >> 32) - (c0 >> 32) > 7u) {
                /* The permutes use rel's low three bits; lanes past the first eight
                 * frames take the second loads'. A step a little over one frame (a
                 * source coming closer) mostly stays within the first; a step of at most
                 * one always does. */
                __m256 hi = _mm256_castsi256_ps(_mm256_cmpgt_epi32(rel, seven));
                a = _mm256_blendv_ps(a, _mm256_permutevar8x32_ps(load8(d, p + 8, s16), rel),
                                     hi);
                b = _mm256_blendv_ps(b, _mm256_permutevar8x32_ps(load8(d, p + 9, s16), rel),
                                     hi);
            }
            put8(out, j, _mm256_fmadd_ps(w, _mm256_sub_ps(b, a), a), sink);
            clo = _mm256_add_epi64(clo, ilo);
            chi = _mm256_add_epi64(chi, ihi);
            ilo = _mm256_add_epi64(ilo, dinc);
            ihi = _mm256_add_epi64(ihi, dinc);
            c0 += inc0;
            inc0 += dinc0;
            span7 += dspan7;
        }
        for (; j + 8 <= frames; j += 8) {
            __m256i fr = _mm256_castps_si256(_mm256_shuffle_ps(
                _mm256_castsi256_ps(clo), _mm256_castsi256_ps(chi), _MM_SHUFFLE(2, 0, 2, 0)));
            __m256i ix = _mm256_castps_si256(_mm256_shuffle_ps(
                _mm256_castsi256_ps(clo), _mm256_castsi256_ps(chi), _MM_SHUFFLE(3, 1, 3, 1)));
            __m256 w = _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_srli_epi32(fr, 8)), scale);
            __m256 a, b;
            gather2(d, ix, s16, &a, &b);
            put8(out, j, _mm256_fmadd_ps(w, _mm256_sub_ps(b, a), a), sink);
            clo = _mm256_add_epi64(clo, ilo);
            chi = _mm256_add_epi64(chi, ihi);
            ilo = _mm256_add_epi64(ilo, dinc);
            ihi = _mm256_add_epi64(ihi, dinc);
        }
    }
    for (; j < frames; j++) {
        uint64_t cj = frac0 + (uint64_t)j * step0 + (uint64_t)j * (j + 1u) / 2u * ds;
        uint64_t i = cj >> 32;
        float w = (float)(uint32_t)((cj & 0xffffffffu) >> 8) * (1.0f / 16777216.0f);
        float di = sample1(d, i, s16);
        float x = fmaf(w, sample1(d, i + 1, s16) - di, di);
        out[j] = sink->add ? fmaf(fmaf(dg, (float)(j + 1), g0), x, out[j]) : x;
    }
    uint64_t acc = frac0 + sum;
    v->pos += acc >> 32;
    v->frac = (uint32_t)acc;
    v->step_fx = step_end;
    return true;
}

AVX2_INLINE static bool read_mono(ear__voice *v, uint64_t step_end, uint32_t frames, float *out,
                                  const read_sink *sink, float g0, float dg) {
    if (v->s16) return read_mono_as(v, step_end, frames, out, sink, g0, dg, true);
    return read_mono_as(v, step_end, frames, out, sink, g0, dg, false);
}

/* One TPT one-pole low-pass over x in place, G ramped from g0 to g1. The recurrence is
 * one FMA, s' = (1 - 2G) s + 2G x, and the output the mean of the states either side,
 * y = (s + s') / 2 (the same filter as v = G (x - s), y = s + v, s' = y + v). With
 * g2 = 2G = fma(2 dg, j + 1, 2 g0) per frame; a steady G (g0 = g1) gives the same
 * values with g2 hoisted, since fma(0, k, g) = g. */
AVX2 static void lowpass(float *x, uint32_t frames, float *state, float g0, float g1) {
    if (g0 >= 1.0f && g1 >= 1.0f) {
        *state = x[frames - 1];
        return;
    }
    float s = *state;
    float g20 = 2.0f * g0, dg2 = 2.0f * ((g1 - g0) / (float)frames);
    for (uint32_t j = 0; j < frames; j++) {
        float g2 = fmaf(dg2, (float)(j + 1), g20);
        float sn = fmaf(1.0f - g2, s, g2 * x[j]);
        x[j] = (s + sn) * 0.5f;
        s = sn;
    }
    *state = isfinite(s) ? s : 0.0f;
}

AVX2 static void mix_plain(float *mix, const float *x, uint32_t frames, float g0, float g1) {
    float dg = (g1 - g0) / (float)frames;
    __m256 vg0 = _mm256_set1_ps(g0), vdg = _mm256_set1_ps(dg);
    uint32_t j = 0;
    for (; j + 8 <= frames; j += 8) {
        __m256 g = _mm256_fmadd_ps(vdg, ramp_index(j), vg0);
        __m256 m = _mm256_loadu_ps(mix + j);
        _mm256_storeu_ps(mix + j, _mm256_fmadd_ps(g, _mm256_loadu_ps(x + j), m));
    }
    for (; j < frames; j++) mix[j] = fmaf(fmaf(dg, (float)(j + 1), g0), x[j], mix[j]);
}

/* The scalar kernel's mix_ear: a crossfade from delay d0 to d1 over the block. */
AVX2 static void mix_ear(float *mix, const float *buf, uint32_t h, uint32_t frames, float g0,
                         float g1, float d0, float d1) {
    if (d0 == 0.0f && d1 == 0.0f) {
        mix_plain(mix, buf + h, frames, g0, g1);
        return;
    }
    float dg = (g1 - g0) / (float)frames;
    ear__taps tp = ear__delay_taps(buf, h, frames, d0, d1);
    const float *b0 = tp.b0, *b1 = tp.b1;
    float w0 = tp.w0, w1 = tp.w1, inv = tp.inv;
    __m256 vg0 = _mm256_set1_ps(g0), vdg = _mm256_set1_ps(dg), vinv = _mm256_set1_ps(inv);
    __m256 vw0 = _mm256_set1_ps(w0), vw1 = _mm256_set1_ps(w1);
    uint32_t j = 0;
    for (; j + 8 <= frames; j += 8) {
        __m256 k = ramp_index(j);
        __m256 g = _mm256_fmadd_ps(vdg, k, vg0);
        __m256 t = _mm256_mul_ps(k, vinv);
        __m256 a0 = _mm256_loadu_ps(b0 + j), a1 = _mm256_loadu_ps(b1 + j);
        __m256 x0 = _mm256_fmadd_ps(vw0, _mm256_sub_ps(_mm256_loadu_ps(b0 + j + 1), a0), a0);
        __m256 x1 = _mm256_fmadd_ps(vw1, _mm256_sub_ps(_mm256_loadu_ps(b1 + j + 1), a1), a1);
        __m256 y = _mm256_fmadd_ps(t, _mm256_sub_ps(x1, x0), x0);
        _mm256_storeu_ps(mix + j, _mm256_fmadd_ps(g, y, _mm256_loadu_ps(mix + j)));
    }
    for (; j < frames; j++) {
        float k = (float)(j + 1);
        float x0 = fmaf(w0, b0[j + 1] - b0[j], b0[j]);
        float x1 = fmaf(w1, b1[j + 1] - b1[j], b1[j]);
        mix[j] = fmaf(fmaf(dg, k, g0), fmaf(k * inv, x1 - x0, x0), mix[j]);
    }
}

/* mix_plain into pm for the near ear (gain gp0 .. gp1, no delay) and mix_ear into fm
 * for the far ear (gain gf0 .. gf1, delay d0 .. d1) in one pass over the block: the
 * block is loaded once and the ramps are shared. The near ear gets mix_plain's exact
 * values; the far ear's two cheaper forms for a block whose delay holds or moves within
 * a frame (folded tap weights, one ramped weight) differ from mix_ear's crossfade in
 * rounding only (within 2e-7 of full scale), and which form runs depends only on the
 * block's targets, so the output stays deterministic and chunk-independent. */
AVX2_INLINE static void mix_pair(float *pm, float *fm, const float *buf, uint32_t h,
                                 uint32_t frames, float gp0, float gp1, float gf0, float gf1,
                                 float d0, float d1) {
    float dgp = (gp1 - gp0) / (float)frames, dgf = (gf1 - gf0) / (float)frames;
    ear__taps tp = ear__delay_taps(buf, h, frames, d0, d1);
    const float *b0 = tp.b0, *b1 = tp.b1, *x = buf + h;
    float w0 = tp.w0, w1 = tp.w1, inv = tp.inv;
    __m256 vgp0 = _mm256_set1_ps(gp0), vdgp = _mm256_set1_ps(dgp);
    __m256 vgf0 = _mm256_set1_ps(gf0), vdgf = _mm256_set1_ps(dgf), vinv = _mm256_set1_ps(inv);
    __m256 vw0 = _mm256_set1_ps(w0), vw1 = _mm256_set1_ps(w1);
    __m256 k = _mm256_setr_ps(1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f);
    const __m256 eight = _mm256_set1_ps(8.0f);
    uint32_t j = 0;
    if (d0 == d1 && gp0 == gp1 && gf0 == gf1) {
        /* Nothing moves (most blocks: a game moves its voices once a frame, several
         * blocks apart): fixed gains, and the far ear's tap weights folded into its
         * gain, gf (a + w (b - a)) = gf (1 - w) a + gf w b. */
        __m256 ga = _mm256_set1_ps(gf0 * (1.0f - w1)), gb = _mm256_set1_ps(gf0 * w1);
        for (; j + 8 <= frames; j += 8) {
            _mm256_storeu_ps(
                pm + j, _mm256_fmadd_ps(vgp0, _mm256_loadu_ps(x + j), _mm256_loadu_ps(pm + j)));
            __m256 f = _mm256_fmadd_ps(ga, _mm256_loadu_ps(b1 + j), _mm256_loadu_ps(fm + j));
            _mm256_storeu_ps(fm + j, _mm256_fmadd_ps(gb, _mm256_loadu_ps(b1 + j + 1), f));
        }
        k = _mm256_add_ps(k, _mm256_set1_ps((float)j));
    }
    /* A delay that holds, or moves within one frame (the usual move: the interaural
     * delay of a source a game moved by a step changes by a fraction of a frame), keeps
     * both taps on the same two samples: the crossfade of their two weights is one
     * weight ramped from w0 to w1, (1 - t) (a + w0 (b - a)) + t (a + w1 (b - a)) =
     * a + w(t) (b - a); a delay that holds ramps it by zero. */
    __m256 vdw = _mm256_set1_ps((w1 - w0) / (float)frames);
    for (; b0 == b1 && j + 8 <= frames; j += 8) {
        __m256 gp = _mm256_fmadd_ps(vdgp, k, vgp0);
        __m256 gf = _mm256_fmadd_ps(vdgf, k, vgf0);
        __m256 w = _mm256_fmadd_ps(vdw, k, vw0);
        _mm256_storeu_ps(pm + j,
                         _mm256_fmadd_ps(gp, _mm256_loadu_ps(x + j), _mm256_loadu_ps(pm + j)));
        __m256 a = _mm256_loadu_ps(b1 + j);
        __m256 y = _mm256_fmadd_ps(w, _mm256_sub_ps(_mm256_loadu_ps(b1 + j + 1), a), a);
        _mm256_storeu_ps(fm + j, _mm256_fmadd_ps(gf, y, _mm256_loadu_ps(fm + j)));
        k = _mm256_add_ps(k, eight);
    }
    for (; j + 8 <= frames; j += 8) {
        __m256 gp = _mm256_fmadd_ps(vdgp, k, vgp0);
        __m256 gf = _mm256_fmadd_ps(vdgf, k, vgf0);
        __m256 t = _mm256_mul_ps(k, vinv);
        _mm256_storeu_ps(pm + j,
                         _mm256_fmadd_ps(gp, _mm256_loadu_ps(x + j), _mm256_loadu_ps(pm + j)));
        __m256 a0 = _mm256_loadu_ps(b0 + j), a1 = _mm256_loadu_ps(b1 + j);
        __m256 x0 = _mm256_fmadd_ps(vw0, _mm256_sub_ps(_mm256_loadu_ps(b0 + j + 1), a0), a0);
        __m256 x1 = _mm256_fmadd_ps(vw1, _mm256_sub_ps(_mm256_loadu_ps(b1 + j + 1), a1), a1);
        __m256 y = _mm256_fmadd_ps(t, _mm256_sub_ps(x1, x0), x0);
        _mm256_storeu_ps(fm + j, _mm256_fmadd_ps(gf, y, _mm256_loadu_ps(fm + j)));
        k = _mm256_add_ps(k, eight);
    }
    for (; j < frames; j++) {
        float kj = (float)(j + 1);
        pm[j] = fmaf(fmaf(dgp, kj, gp0), x[j], pm[j]);
        float x0 = fmaf(w0, b0[j + 1] - b0[j], b0[j]);
        float x1 = fmaf(w1, b1[j + 1] - b1[j], b1[j]);
        fm[j] = fmaf(fmaf(dgf, kj, gf0), fmaf(kj * inv, x1 - x0, x0), fm[j]);
    }
}

/* Eight rows of eight floats transposed in place: r[m] lane l <- r[l] lane m. */
AVX2 static inline __attribute__((always_inline)) void transpose8(__m256 r[8]) {
    __m256 t0 = _mm256_unpacklo_ps(r[0], r[1]), t1 = _mm256_unpackhi_ps(r[0], r[1]);
    __m256 t2 = _mm256_unpacklo_ps(r[2], r[3]), t3 = _mm256_unpackhi_ps(r[2], r[3]);
    __m256 t4 = _mm256_unpacklo_ps(r[4], r[5]), t5 = _mm256_unpackhi_ps(r[4], r[5]);
    __m256 t6 = _mm256_unpacklo_ps(r[6], r[7]), t7 = _mm256_unpackhi_ps(r[6], r[7]);
    __m256 u0 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0));
    __m256 u1 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));
    __m256 u2 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0));
    __m256 u3 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2));
    __m256 u4 = _mm256_shuffle_ps(t4, t6, _MM_SHUFFLE(1, 0, 1, 0));
    __m256 u5 = _mm256_shuffle_ps(t4, t6, _MM_SHUFFLE(3, 2, 3, 2));
    __m256 u6 = _mm256_shuffle_ps(t5, t7, _MM_SHUFFLE(1, 0, 1, 0));
    __m256 u7 = _mm256_shuffle_ps(t5, t7, _MM_SHUFFLE(3, 2, 3, 2));
    r[0] = _mm256_permute2f128_ps(u0, u4, 0x20);
    r[1] = _mm256_permute2f128_ps(u1, u5, 0x20);
    r[2] = _mm256_permute2f128_ps(u2, u6, 0x20);
    r[3] = _mm256_permute2f128_ps(u3, u7, 0x20);
    r[4] = _mm256_permute2f128_ps(u0, u4, 0x31);
    r[5] = _mm256_permute2f128_ps(u1, u5, 0x31);
    r[6] = _mm256_permute2f128_ps(u2, u6, 0x31);
    r[7] = _mm256_permute2f128_ps(u3, u7, 0x31);
}

/* Eight voices' filter state and coefficients, one voice per lane (lowpass()'s
 * variables). An idle lane repeats the chunk's first voice (same input, state and
 * ramp), so it computes the same values and may store them over that voice's. */
typedef struct lp_chunk {
    float *row[8];
    __m256 s, g20, dg2;
} lp_chunk;

AVX2_INLINE static void lp_chunk_init(lp_chunk *ch, float *const *x, uint32_t k,
                                      uint32_t frames, float *const *state, const float *g0,
                                      const float *g1) {
    float vs[8], vg[8], vd[8];
    for (uint32_t l = 0; l < 8; l++) {
        uint32_t from = l < k ? l : 0u;
        vs[l] = *state[from];
        vg[l] = 2.0f * g0[from];
        vd[l] = 2.0f * ((g1[from] - g0[from]) / (float)frames);
        ch->row[l] = x[from];
    }
    ch->s = _mm256_loadu_ps(vs);
    ch->g20 = _mm256_loadu_ps(vg);
    ch->dg2 = _mm256_loadu_ps(vd);
}

/* Frames j .. j + 7 of a chunk: transposed so that each lane runs its voice's
 * recurrence, then transposed back. kv holds j + 1 in every lane. A steady chunk (no
 * lane ramps) hoists g2; a ramping one computes it per frame, as lowpass() does. */
AVX2_INLINE static void lp_chunk_tile(lp_chunk *ch, uint32_t j, __m256 kv, bool ramp) {
    const __m256 one = _mm256_set1_ps(1.0f), half = _mm256_set1_ps(0.5f);
    __m256 r[8];
    for (uint32_t l = 0; l < 8; l++) r[l] = _mm256_loadu_ps(ch->row[l] + j);
    transpose8(r);
    __m256 s = ch->s, g2 = ch->g20, c = _mm256_sub_ps(one, g2);
    for (uint32_t m = 0; m < 8; m++) {
        if (ramp) {
            g2 = _mm256_fmadd_ps(ch->dg2, kv, ch->g20);
            c = _mm256_sub_ps(one, g2);
            kv = _mm256_add_ps(kv, one);
        }
        __m256 sn = _mm256_fmadd_ps(c, s, _mm256_mul_ps(g2, r[m]));
        r[m] = _mm256_mul_ps(_mm256_add_ps(s, sn), half);
        s = sn;
    }
    ch->s = s;
    transpose8(r);
    for (uint32_t l = 0; l < 8; l++) _mm256_storeu_ps(ch->row[l] + j, r[l]);
}

/* The frames after the last whole tile, and the states back, lane by lane. */
AVX2_INLINE static void lp_chunk_finish(lp_chunk *ch, uint32_t k, uint32_t j, uint32_t frames,
                                        float *const *state) {
    float vs[8], vg[8], vd[8];
    _mm256_storeu_ps(vs, ch->s);
    _mm256_storeu_ps(vg, ch->g20);
    _mm256_storeu_ps(vd, ch->dg2);
    for (uint32_t l = 0; l < k; l++) {
        float sl = vs[l];
        float *xl = ch->row[l];
        for (uint32_t jj = j; jj < frames; jj++) {
            float g2 = fmaf(vd[l], (float)(jj + 1), vg[l]);
            float sn = fmaf(1.0f - g2, sl, g2 * xl[jj]);
            xl[jj] = (sl + sn) * 0.5f;
            sl = sn;
        }
        *state[l] = isfinite(sl) ? sl : 0.0f;
    }
}

/* lowpass() on k (2 .. 8) voices at once, one voice per SIMD lane: x[l] is voice l's
 * block, state[l] its filter state, g0[l] .. g1[l] its coefficient ramp. Every lane does
 * exactly lowpass()'s operations in lowpass()'s order, so the result is bit for bit the
 * same and the k serial chains overlap instead of adding up. */
AVX2 static void lowpass_lanes(float *const *x, uint32_t k, uint32_t frames,
                               float *const *state, const float *g0, const float *g1) {
    lp_chunk a;
    lp_chunk_init(&a, x, k, frames, state, g0, g1);
    bool ramp = false;
    for (uint32_t l = 0; l < k; l++) ramp = ramp || g0[l] != g1[l];
    __m256 kv = _mm256_set1_ps(1.0f);
    const __m256 eight = _mm256_set1_ps(8.0f);
    uint32_t j = 0;
    if (ramp) {
        for (; j + 8 <= frames; j += 8, kv = _mm256_add_ps(kv, eight))
            lp_chunk_tile(&a, j, kv, true);
    } else {
        for (; j + 8 <= frames; j += 8) lp_chunk_tile(&a, j, kv, false);
    }
    lp_chunk_finish(&a, k, j, frames, state);
}

/* Pass 1 and the occlusion filters of a placed or flat voice into buf (the block
 * starts at buf + hist_len); returns true when a one-shot ended. */
static const read_sink store_sink = {false, false, {0}, {0}};

AVX2_INLINE static bool read_filter(ear__voice *v, const ear__kernel_io *io,
                                    const ear__targets *t, float *mono) {
    bool ended = false;
    if (v->premixed)
        memcpy(mono, v->premixed, io->frames * sizeof(float)); /* a blend's summed layers */
    else if (!read_mono(v, t->step_fx, io->frames, mono, &store_sink, 0.0f, 0.0f))
        ended = ear__read_block(v, t->step_fx, io->frames, mono, io->right);
    if (v->placed && !(v->occ_G >= 1.0f && t->occ_G >= 1.0f)) {
        lowpass(mono, io->frames, &v->z_occ1, v->occ_G, t->occ_G);
        lowpass(mono, io->frames, &v->z_occ2, v->occ_G, t->occ_G);
    } else if (v->placed) {
        /* lowpass()'s open case, without the calls. */
        v->z_occ1 = v->z_occ2 = mono[io->frames - 1];
    }
    return ended;
}

/* n floats from src to dst (not overlapping) in place of a memcpy call: the history
 * is a few dozen floats, where the call's overhead is most of the cost. The last eight
 * are copied as one vector that may overlap the previous one (masked moves are slow
 * on some CPUs). */
AVX2_INLINE static void copy_floats(float *dst, const float *src, uint32_t n) {
    if (n < 8) {
        for (uint32_t j = 0; j < n; j++) dst[j] = src[j];
        return;
    }
    __m256 last = _mm256_loadu_ps(src + n - 8);
    for (uint32_t j = 0; j + 8 <= n; j += 8)
        _mm256_storeu_ps(dst + j, _mm256_loadu_ps(src + j));
    _mm256_storeu_ps(dst + n - 8, last);
}

/* Pass 3 of a placed voice whose filtered block is at buf + hist_len. */
AVX2_INLINE static void mix_placed(ear__voice *v, const ear__kernel_io *io,
                                   const ear__targets *t, float *buf) {
    uint32_t frames = io->frames, h = io->hist_len;
    copy_floats(buf, v->hist, h);
    if (v->delay_r == 0.0f && t->delay_r == 0.0f && (v->delay_l != 0.0f || t->delay_l != 0.0f))
        mix_pair(io->mix_r, io->mix_l, buf, h, frames, v->gain_r, t->gain_r, v->gain_l,
                 t->gain_l, v->delay_l, t->delay_l);
    else if (v->delay_l == 0.0f && t->delay_l == 0.0f &&
             (v->delay_r != 0.0f || t->delay_r != 0.0f))
        mix_pair(io->mix_l, io->mix_r, buf, h, frames, v->gain_l, t->gain_l, v->gain_r,
                 t->gain_r, v->delay_r, t->delay_r);
    else {
        mix_ear(io->mix_l, buf, h, frames, v->gain_l, t->gain_l, v->delay_l, t->delay_l);
        mix_ear(io->mix_r, buf, h, frames, v->gain_r, t->gain_r, v->delay_r, t->delay_r);
    }
    copy_floats(v->hist, buf + frames, h);
}

AVX2 static bool render_avx2(ear__voice *v, const ear__kernel_io *io, const ear__targets *t) {
    uint32_t frames = io->frames, h = io->hist_len;
    float *mono = io->mono + h;
    bool stereo_flat = v->channels == 2 && !v->placed;
    bool ended = read_filter(v, io, t, mono);
    if (v->placed) {
        lowpass(mono, frames, &v->z_cue, v->cue_G, t->cue_G);
        mix_placed(v, io, t, io->mono);
    } else {
        mix_plain(io->mix_l, mono, frames, v->gain_l, t->gain_l);
        mix_plain(io->mix_r, stereo_flat ? io->right : mono, frames, v->gain_r, t->gain_r);
    }
    ear__adopt_targets(v, t);
    _mm256_zeroupper();
    return ended;
}

AVX2 static void read_layer_avx2(ear__voice *v, uint64_t step_end, uint32_t frames, float *buf,
                                 float *sum, float g0, float g1) {
    float dg = (g1 - g0) / (float)frames;
    bool done;
    if (g0 == g1) {
        read_sink add = {true, false, _mm256_set1_ps(g0), _mm256_setzero_ps()};
        done = read_mono(v, step_end, frames, sum, &add, g0, 0.0f);
    } else {
        read_sink add = {true, true, _mm256_set1_ps(g0), _mm256_set1_ps(dg)};
        done = read_mono(v, step_end, frames, sum, &add, g0, dg);
    }
    if (done) {
        _mm256_zeroupper();
        return;
    }
    (void)ear__read_block(v, step_end, frames, buf, NULL);
    mix_plain(sum, buf, frames, g0, g1);
    _mm256_zeroupper();
}

AVX2 static bool read_grouped_avx2(ear__voice *v, const ear__kernel_io *io,
                                   const ear__targets *t, float *buf) {
    bool ended = read_filter(v, io, t, buf + io->hist_len);
    /* Back to the caller's SSE code with clean upper halves: the compiler does not
     * always clear them after a tail call, and dirty ones slow down libm's maths. */
    _mm256_zeroupper();
    return ended;
}

AVX2 static void group_finish_avx2(ear__group *gr, const ear__kernel_io *io) {
    uint32_t frames = io->frames, h = io->hist_len;
    ear__cue_lanes cl;
    ear__group_cue_lanes(gr, h, frames, &cl);
    float **x = cl.x, **st = cl.state, *g0 = cl.g0, *g1 = cl.g1;
    uint32_t k = cl.k;
    for (uint32_t c = 0; c < k; c += 8) {
        uint32_t m = k - c < 8 ? k - c : 8;
        if (m == 1)
            lowpass(x[c], frames, st[c], g0[c], g1[c]);
        else
            lowpass_lanes(x + c, m, frames, st + c, g0 + c, g1 + c);
    }
    for (uint32_t i = 0; i < gr->n; i++) {
        ear__voice *v = gr->voice[i];
        ear__kernel_io bus_io = *io; /* each voice mixes into its own bus */
        bus_io.mix_l = gr->mix_l[i];
        bus_io.mix_r = gr->mix_r[i];
        mix_placed(v, &bus_io, &v->t, gr->buf[i]);
        ear__adopt_targets(v, &v->t);
    }
    gr->n = 0;
    _mm256_zeroupper();
}

static const ear__kernel avx2_kernel = {
    .name = "avx2",
    .render = render_avx2,
    .read_layer = read_layer_avx2,
    .max_lanes = 8,
    .read_grouped = read_grouped_avx2,
    .group_finish = group_finish_avx2,
};

const ear__kernel *const ear__kernel_avx2 = &avx2_kernel;

#else

bool ear__kernel_avx2_available(void) {
    return false;
}

const ear__kernel *const ear__kernel_avx2 = NULL;

#endif
