/* SPDX-License-Identifier: Zlib */
/*
 * The AVX2 kernel (voice_render_avx2.c) sixteen frames and sixteen voices at a time, with
 * AVX-512 (F, BW, DQ, VL), where the CPU has it. Its output is the AVX2 kernel's bit for
 * bit (tests/stage/test_kernels.c): every frame gets the same operations in the same
 * order, only more of them side by side, and whatever this file does not widen it hands
 * to the AVX2 kernel's own functions through their table.
 *
 *  1. Read (mono clips, steps up to two frames, blocks clear of the clip's end and
 *     crossfade by 33 frames): the cursor as the AVX2 read keeps it, for sixteen frames;
 *     the two neighbours of all sixteen come from a 32-float window (two unaligned loads)
 *     by one two-source permute each, where AVX2 needs a permute and a blend per eight.
 *     Other blocks, and voices with an occlusion filter or a blend's layers, take the AVX2
 *     read.
 *  2. Filter: the behind cue's one-pole as sixteen SIMD lanes, a 16 x 16 transpose either
 *     side, each lane the AVX2 lanes' recurrence.
 *  3. Mix: the AVX2 mix's forms sixteen frames at a time. A block length that is not a
 *     whole number of sixteen frames (the default, 160, is) leaves the group to the AVX2
 *     kernel, whose eight-frame steps and tails this file does not repeat.
 *
 * Compiled through target attributes and called only after ear__kernel_avx512_available()
 * said yes, like the AVX2 kernel; no -march flag, no result that depends on alignment.
 */
#include "stage_internal.h"

#include <math.h>
#include <string.h>

#if defined(__x86_64__)

#include <immintrin.h>

#define AVX512        __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,avx2,fma")))
#define AVX512_INLINE AVX512 inline __attribute__((always_inline))

bool ear__kernel_avx512_available(void) {
    if (!ear__kernel_avx2_available()) return false;
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
}

/* Sixteen samples from index k of a clip's data (floats, or 16-bit q read as q / 32768,
 * exact: the AVX2 kernel's load8 sixteen wide). */
AVX512_INLINE static __m512 load16(const void *d, uint64_t k, bool s16) {
    if (!s16) return _mm512_loadu_ps((const float *)d + k);
    __m256i q = _mm256_loadu_si256((const __m256i *)((const int16_t *)d + k));
    return _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_cvtepi16_epi32(q)),
                         _mm512_set1_ps(1.0f / 32768.0f));
}

AVX512_INLINE static float sample1(const void *d, uint64_t k, bool s16) {
    return s16 ? (float)((const int16_t *)d)[k] * (1.0f / 32768.0f) : ((const float *)d)[k];
}

/* The interpolated samples at the lanes' cursors, rel (each lane's index less p, at
 * most 31; at most 15 where narrow) and weights w: a + w (b - a) from the window of 32
 * (narrow) or 33 samples from p. */
AVX512_INLINE static __m512 interp16(const void *d, uint64_t p, __m512i rel, __m512 w,
                                     bool narrow, bool s16) {
    __m512 a0 = load16(d, p, s16), a1 = load16(d, p + 16, s16);
    __m512 a = _mm512_permutex2var_ps(a0, rel, a1), b;
    if (narrow) {
        b = _mm512_permutex2var_ps(a0, _mm512_add_epi32(rel, _mm512_set1_epi32(1)), a1);
    } else {
        b = _mm512_permutex2var_ps(load16(d, p + 1, s16), rel, load16(d, p + 17, s16));
    }
    return _mm512_fmadd_ps(w, _mm512_sub_ps(b, a), a);
}

/* Pass 1 of a mono voice into out, where every group's window lies inside the clip and
 * clear of the crossfade; false, having done nothing, otherwise. The cursor relative to
 * the block start at frame l is C(l) = frac0 + l step0 + l (l + 1) / 2 ds (mod 2^64), and
 * frame l reads index C(l) >> 32 with the weight of its fraction's top 24 bits: the AVX2
 * read's values for every frame. */
AVX512_INLINE static bool read16_as(ear__voice *v, uint64_t step_end, uint32_t frames,
                                    float *out, bool s16) {
    if (v->channels != 1) return false;
    uint64_t step0 = v->step_fx;
    int64_t dstep =
        step_end == step0 ? 0 : ((int64_t)step_end - (int64_t)step0) / (int64_t)frames;
    uint64_t ds = (uint64_t)dstep;
    uint64_t sum = (uint64_t)frames * step0 + (uint64_t)frames * (frames + 1u) / 2u * ds;
    uint64_t end_pos = v->pos + ((v->frac + sum) >> 32) + 1u;
    uint64_t limit = v->looping ? v->loop_len : v->frames;
    bool clear_of_xfade = !v->xfade || !v->second_pass || v->pos >= v->xfade;
    uint64_t max_step = step0 > step_end ? step0 : step_end;
    /* The last group's window starts at most at end_pos - 1 and reads 33 samples. */
    if (!(end_pos + 33u < limit && end_pos + 33u < v->frames && clear_of_xfade &&
          max_step <= (2ull << 32)))
        return false;
    bool narrow = max_step <= (1ull << 32);

    const void *d = s16 ? (const void *)((const int16_t *)v->data + v->pos)
                        : (const float *)v->data + v->pos;
    uint64_t frac0 = v->frac, c0 = frac0;
    const __m512 scale = _mm512_set1_ps(1.0f / 16777216.0f);
    uint32_t j = 0;
    if (!ds) {
        /* A steady step: lane l of a group at c0 is at c0 + l step0, its index the high
         * half of l step0 plus the carry out of the group's fraction plus the low half
         * (found by a signed compare against f ^ 2^31), its weight that sum's top 24
         * bits: the AVX2 steady loop's arithmetic, sixteen lanes wide. */
        uint32_t lo[16], hi[16];
        for (uint32_t l = 0; l < 16; l++) {
            uint64_t L = (uint64_t)l * step0;
            lo[l] = (uint32_t)L;
            hi[l] = (uint32_t)(L >> 32);
        }
        const __m512i vlo = _mm512_loadu_si512(lo), vhi = _mm512_loadu_si512(hi);
        const __m512i one = _mm512_set1_epi32(1);
        const __m512i f16 = _mm512_set1_epi32((int)(uint32_t)(16u * step0));
        const __m512 half = _mm512_set1_ps(0.5f);
        __m512i fx = _mm512_set1_epi32((int)((uint32_t)c0 ^ 0x80000000u));
        for (; j + 16 <= frames; j += 16) {
            __m512i sx = _mm512_add_epi32(fx, vlo);
            __mmask16 carry = _mm512_cmpgt_epi32_mask(fx, sx);
            __m512i rel = _mm512_mask_add_epi32(vhi, carry, vhi, one);
            __m512 w =
                _mm512_fmadd_ps(_mm512_cvtepi32_ps(_mm512_srai_epi32(sx, 8)), scale, half);
            _mm512_storeu_ps(out + j, interp16(d, c0 >> 32, rel, w, narrow, s16));
            fx = _mm512_add_epi32(fx, f16);
            c0 += 16u * step0;
        }
    } else {
        /* A ramped step: the cursors of lanes 0-7 and 8-15 in 64-bit lanes, each growing
         * by 16 step0 + (16 l + 136) ds per group of frames l..l+15, that by 256 ds; the
         * fractions and indices are their even and odd halves. */
        const __m512i m0 = _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7);
        const __m512i m1 = _mm512_setr_epi64(8, 9, 10, 11, 12, 13, 14, 15);
        const __m512i vs = _mm512_set1_epi64((long long)step0);
        const __m512i vd = _mm512_set1_epi64((long long)ds);
        const __m512i tri0 = _mm512_setr_epi64(0, 1, 3, 6, 10, 15, 21, 28);
        const __m512i tri1 = _mm512_setr_epi64(36, 45, 55, 66, 78, 91, 105, 120);
        const __m512i vf = _mm512_set1_epi64((long long)frac0);
        __m512i ca = _mm512_add_epi64(
            vf, _mm512_add_epi64(_mm512_mullo_epi64(vs, m0), _mm512_mullo_epi64(vd, tri0)));
        __m512i cb = _mm512_add_epi64(
            vf, _mm512_add_epi64(_mm512_mullo_epi64(vs, m1), _mm512_mullo_epi64(vd, tri1)));
        const __m512i v16s = _mm512_set1_epi64((long long)(16u * step0));
        const __m512i k136 = _mm512_set1_epi64(136);
        const __m512i k16 = _mm512_set1_epi64(16);
        __m512i ia = _mm512_add_epi64(
            v16s, _mm512_mullo_epi64(vd, _mm512_add_epi64(_mm512_mullo_epi64(k16, m0), k136)));
        __m512i ib = _mm512_add_epi64(
            v16s, _mm512_mullo_epi64(vd, _mm512_add_epi64(_mm512_mullo_epi64(k16, m1), k136)));
        const __m512i dinc = _mm512_set1_epi64((long long)(256u * ds));
        const __m512i even =
            _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
        const __m512i odd =
            _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
        uint64_t inc0 = 16u * step0 + 136u * ds, dinc0 = 256u * ds;
        for (; j + 16 <= frames; j += 16) {
            __m512i fr = _mm512_permutex2var_epi32(ca, even, cb);
            __m512i ix = _mm512_permutex2var_epi32(ca, odd, cb);
            __m512 w = _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_srli_epi32(fr, 8)), scale);
            __m512i rel = _mm512_sub_epi32(ix, _mm512_set1_epi32((int)(uint32_t)(c0 >> 32)));
            _mm512_storeu_ps(out + j, interp16(d, c0 >> 32, rel, w, narrow, s16));
            ca = _mm512_add_epi64(ca, ia);
            cb = _mm512_add_epi64(cb, ib);
            ia = _mm512_add_epi64(ia, dinc);
            ib = _mm512_add_epi64(ib, dinc);
            c0 += inc0;
            inc0 += dinc0;
        }
    }
    for (; j < frames; j++) { /* the AVX2 read's tail, frame by frame */
        uint64_t cj = frac0 + (uint64_t)j * step0 + (uint64_t)j * (j + 1u) / 2u * ds;
        uint64_t i = cj >> 32;
        float w = (float)(uint32_t)((cj & 0xffffffffu) >> 8) * (1.0f / 16777216.0f);
        float di = sample1(d, i, s16);
        out[j] = fmaf(w, sample1(d, i + 1, s16) - di, di);
    }
    uint64_t acc = frac0 + sum;
    v->pos += acc >> 32;
    v->frac = (uint32_t)acc;
    v->step_fx = step_end;
    return true;
}

AVX512 static bool read_grouped_avx512(ear__voice *v, const ear__kernel_io *io,
                                       const ear__targets *t, float *buf) {
    bool occluded = v->placed && !(v->occ_G >= 1.0f && t->occ_G >= 1.0f);
    float *mono = buf + io->hist_len;
    bool done = false;
    if (!v->premixed && !occluded) {
        done = v->s16 ? read16_as(v, t->step_fx, io->frames, mono, true)
                      : read16_as(v, t->step_fx, io->frames, mono, false);
    }
    if (!done) {
        _mm256_zeroupper();
        return ear__kernel_avx2->read_grouped(v, io, t, buf);
    }
    if (v->placed) v->z_occ1 = v->z_occ2 = mono[io->frames - 1]; /* their open case */
    _mm256_zeroupper();
    return false;
}

/* Sixteen rows of sixteen floats transposed in place: r[m] lane l <- r[l] lane m. */
AVX512_INLINE static void transpose16(__m512 r[16]) {
    __m512 t[16];
    for (int i = 0; i < 8; i++) {
        t[2 * i] = _mm512_unpacklo_ps(r[2 * i], r[2 * i + 1]);
        t[2 * i + 1] = _mm512_unpackhi_ps(r[2 * i], r[2 * i + 1]);
    }
    for (int i = 0; i < 4; i++) {
        r[4 * i] = _mm512_shuffle_ps(t[4 * i], t[4 * i + 2], 0x44);
        r[4 * i + 1] = _mm512_shuffle_ps(t[4 * i], t[4 * i + 2], 0xEE);
        r[4 * i + 2] = _mm512_shuffle_ps(t[4 * i + 1], t[4 * i + 3], 0x44);
        r[4 * i + 3] = _mm512_shuffle_ps(t[4 * i + 1], t[4 * i + 3], 0xEE);
    }
    for (int i = 0; i < 2; i++) {
        for (int j = 0; j < 4; j++) {
            t[8 * i + j] = _mm512_shuffle_f32x4(r[8 * i + j], r[8 * i + 4 + j], 0x88);
            t[8 * i + 4 + j] = _mm512_shuffle_f32x4(r[8 * i + j], r[8 * i + 4 + j], 0xDD);
        }
    }
    for (int j = 0; j < 8; j++) {
        r[j] = _mm512_shuffle_f32x4(t[j], t[j + 8], 0x88);
        r[j + 8] = _mm512_shuffle_f32x4(t[j], t[j + 8], 0xDD);
    }
}

/* The cue's one-pole on k (1 .. 16) voices at once, one per lane, every lane with the AVX2
 * lanes' operations (s' = (1 - 2G) s + 2G x, y = (s + s') / 2, 2G = fma(2 dg, j + 1, 2 g0)
 * per frame where G ramps): x[l] is voice l's block, state[l] its state, g0[l] .. g1[l] its
 * coefficient. An idle lane repeats voice 0 and stores the same values over its. frames is
 * a multiple of 16. */
AVX512 static void lowpass_lanes16(float *const *x, uint32_t k, uint32_t frames,
                                   float *const *state, const float *g0, const float *g1) {
    float vs[16], vg[16], vdg[16];
    float *row[16];
    bool ramp = false;
    for (uint32_t l = 0; l < 16; l++) {
        uint32_t from = l < k ? l : 0u;
        vs[l] = *state[from];
        vg[l] = 2.0f * g0[from];
        vdg[l] = 2.0f * ((g1[from] - g0[from]) / (float)frames);
        row[l] = x[from];
        ramp = ramp || g0[from] != g1[from];
    }
    __m512 s = _mm512_loadu_ps(vs);
    const __m512 g20 = _mm512_loadu_ps(vg), dg2 = _mm512_loadu_ps(vdg);
    const __m512 one = _mm512_set1_ps(1.0f), half = _mm512_set1_ps(0.5f);
    __m512 kv = one;
    for (uint32_t j = 0; j + 16 <= frames; j += 16) {
        __m512 r[16];
        for (uint32_t l = 0; l < 16; l++) r[l] = _mm512_loadu_ps(row[l] + j);
        transpose16(r);
        __m512 g2 = g20, c = _mm512_sub_ps(one, g2);
        for (uint32_t m = 0; m < 16; m++) {
            if (ramp) {
                g2 = _mm512_fmadd_ps(dg2, kv, g20);
                c = _mm512_sub_ps(one, g2);
                kv = _mm512_add_ps(kv, one);
            }
            __m512 sn = _mm512_fmadd_ps(c, s, _mm512_mul_ps(g2, r[m]));
            r[m] = _mm512_mul_ps(_mm512_add_ps(s, sn), half);
            s = sn;
        }
        transpose16(r);
        for (uint32_t l = 0; l < 16; l++) _mm512_storeu_ps(row[l] + j, r[l]);
    }
    _mm512_storeu_ps(vs, s);
    for (uint32_t l = 0; l < k; l++) *state[l] = isfinite(vs[l]) ? vs[l] : 0.0f;
}

/* j + 1 .. j + 16. */
AVX512_INLINE static __m512 ramp16(uint32_t j) {
    return _mm512_add_ps(_mm512_set1_ps((float)(j + 1)),
                         _mm512_setr_ps(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
}

/* The AVX2 kernel's mix_plain: x times a gain ramped from g0 to g1 added into mix. */
AVX512_INLINE static void mix_plain16(float *mix, const float *x, uint32_t frames, float g0,
                                      float g1) {
    float dg = (g1 - g0) / (float)frames;
    __m512 vg0 = _mm512_set1_ps(g0), vdg = _mm512_set1_ps(dg);
    for (uint32_t j = 0; j < frames; j += 16) {
        __m512 g = _mm512_fmadd_ps(vdg, ramp16(j), vg0);
        _mm512_storeu_ps(mix + j,
                         _mm512_fmadd_ps(g, _mm512_loadu_ps(x + j), _mm512_loadu_ps(mix + j)));
    }
}

/* The AVX2 kernel's mix_ear: a crossfade from delay d0 to d1 over the block. */
AVX512_INLINE static void mix_ear16(float *mix, const float *buf, uint32_t h, uint32_t frames,
                                    float g0, float g1, float d0, float d1) {
    if (d0 == 0.0f && d1 == 0.0f) {
        mix_plain16(mix, buf + h, frames, g0, g1);
        return;
    }
    float dg = (g1 - g0) / (float)frames;
    ear__taps tp = ear__delay_taps(buf, h, frames, d0, d1);
    const float *b0 = tp.b0, *b1 = tp.b1;
    float w0 = tp.w0, w1 = tp.w1, inv = tp.inv;
    __m512 vg0 = _mm512_set1_ps(g0), vdg = _mm512_set1_ps(dg), vinv = _mm512_set1_ps(inv);
    __m512 vw0 = _mm512_set1_ps(w0), vw1 = _mm512_set1_ps(w1);
    for (uint32_t j = 0; j < frames; j += 16) {
        __m512 k = ramp16(j);
        __m512 g = _mm512_fmadd_ps(vdg, k, vg0);
        __m512 t = _mm512_mul_ps(k, vinv);
        __m512 a0 = _mm512_loadu_ps(b0 + j), a1 = _mm512_loadu_ps(b1 + j);
        __m512 x0 = _mm512_fmadd_ps(vw0, _mm512_sub_ps(_mm512_loadu_ps(b0 + j + 1), a0), a0);
        __m512 x1 = _mm512_fmadd_ps(vw1, _mm512_sub_ps(_mm512_loadu_ps(b1 + j + 1), a1), a1);
        __m512 y = _mm512_fmadd_ps(t, _mm512_sub_ps(x1, x0), x0);
        _mm512_storeu_ps(mix + j, _mm512_fmadd_ps(g, y, _mm512_loadu_ps(mix + j)));
    }
}

/* The AVX2 kernel's mix_pair (the near ear pm without delay, the far ear fm with one),
 * in the same three forms, chosen by the same conditions. */
AVX512_INLINE static void mix_pair16(float *pm, float *fm, const float *buf, uint32_t h,
                                     uint32_t frames, float gp0, float gp1, float gf0,
                                     float gf1, float d0, float d1) {
    float dgp = (gp1 - gp0) / (float)frames, dgf = (gf1 - gf0) / (float)frames;
    ear__taps tp = ear__delay_taps(buf, h, frames, d0, d1);
    const float *b0 = tp.b0, *b1 = tp.b1, *x = buf + h;
    float w0 = tp.w0, w1 = tp.w1, inv = tp.inv;
    __m512 vgp0 = _mm512_set1_ps(gp0), vdgp = _mm512_set1_ps(dgp);
    __m512 vgf0 = _mm512_set1_ps(gf0), vdgf = _mm512_set1_ps(dgf);
    if (d0 == d1 && gp0 == gp1 && gf0 == gf1) {
        __m512 ga = _mm512_set1_ps(gf0 * (1.0f - w1)), gb = _mm512_set1_ps(gf0 * w1);
        for (uint32_t j = 0; j < frames; j += 16) {
            _mm512_storeu_ps(
                pm + j, _mm512_fmadd_ps(vgp0, _mm512_loadu_ps(x + j), _mm512_loadu_ps(pm + j)));
            __m512 f = _mm512_fmadd_ps(ga, _mm512_loadu_ps(b1 + j), _mm512_loadu_ps(fm + j));
            _mm512_storeu_ps(fm + j, _mm512_fmadd_ps(gb, _mm512_loadu_ps(b1 + j + 1), f));
        }
        return;
    }
    const __m512 sixteen = _mm512_set1_ps(16.0f);
    __m512 k = ramp16(0);
    if (b0 == b1) {
        __m512 vw0 = _mm512_set1_ps(w0), vdw = _mm512_set1_ps((w1 - w0) / (float)frames);
        for (uint32_t j = 0; j < frames; j += 16) {
            __m512 gp = _mm512_fmadd_ps(vdgp, k, vgp0);
            __m512 gf = _mm512_fmadd_ps(vdgf, k, vgf0);
            __m512 w = _mm512_fmadd_ps(vdw, k, vw0);
            _mm512_storeu_ps(
                pm + j, _mm512_fmadd_ps(gp, _mm512_loadu_ps(x + j), _mm512_loadu_ps(pm + j)));
            __m512 a = _mm512_loadu_ps(b1 + j);
            __m512 y = _mm512_fmadd_ps(w, _mm512_sub_ps(_mm512_loadu_ps(b1 + j + 1), a), a);
            _mm512_storeu_ps(fm + j, _mm512_fmadd_ps(gf, y, _mm512_loadu_ps(fm + j)));
            k = _mm512_add_ps(k, sixteen);
        }
        return;
    }
    __m512 vinv = _mm512_set1_ps(inv), vw0 = _mm512_set1_ps(w0), vw1 = _mm512_set1_ps(w1);
    for (uint32_t j = 0; j < frames; j += 16) {
        __m512 gp = _mm512_fmadd_ps(vdgp, k, vgp0);
        __m512 gf = _mm512_fmadd_ps(vdgf, k, vgf0);
        __m512 t = _mm512_mul_ps(k, vinv);
        _mm512_storeu_ps(pm + j,
                         _mm512_fmadd_ps(gp, _mm512_loadu_ps(x + j), _mm512_loadu_ps(pm + j)));
        __m512 a0 = _mm512_loadu_ps(b0 + j), a1 = _mm512_loadu_ps(b1 + j);
        __m512 x0 = _mm512_fmadd_ps(vw0, _mm512_sub_ps(_mm512_loadu_ps(b0 + j + 1), a0), a0);
        __m512 x1 = _mm512_fmadd_ps(vw1, _mm512_sub_ps(_mm512_loadu_ps(b1 + j + 1), a1), a1);
        __m512 y = _mm512_fmadd_ps(t, _mm512_sub_ps(x1, x0), x0);
        _mm512_storeu_ps(fm + j, _mm512_fmadd_ps(gf, y, _mm512_loadu_ps(fm + j)));
        k = _mm512_add_ps(k, sixteen);
    }
}

/* n floats from src to dst (not overlapping), the last sixteen as one vector that may
 * overlap the one before. */
AVX512_INLINE static void copy_floats16(float *dst, const float *src, uint32_t n) {
    if (n < 16) {
        for (uint32_t j = 0; j < n; j++) dst[j] = src[j];
        return;
    }
    __m512 last = _mm512_loadu_ps(src + n - 16);
    for (uint32_t j = 0; j + 16 <= n; j += 16)
        _mm512_storeu_ps(dst + j, _mm512_loadu_ps(src + j));
    _mm512_storeu_ps(dst + n - 16, last);
}

/* Pass 3 of a placed voice whose filtered block is at buf + hist_len (the AVX2 kernel's
 * mix_placed, with the same choice of forms). */
AVX512_INLINE static void mix_placed16(ear__voice *v, float *mix_l, float *mix_r,
                                       const ear__kernel_io *io, float *buf) {
    const ear__targets *t = &v->t;
    uint32_t frames = io->frames, h = io->hist_len;
    copy_floats16(buf, v->hist, h);
    if (v->delay_r == 0.0f && t->delay_r == 0.0f && (v->delay_l != 0.0f || t->delay_l != 0.0f))
        mix_pair16(mix_r, mix_l, buf, h, frames, v->gain_r, t->gain_r, v->gain_l, t->gain_l,
                   v->delay_l, t->delay_l);
    else if (v->delay_l == 0.0f && t->delay_l == 0.0f &&
             (v->delay_r != 0.0f || t->delay_r != 0.0f))
        mix_pair16(mix_l, mix_r, buf, h, frames, v->gain_l, t->gain_l, v->gain_r, t->gain_r,
                   v->delay_r, t->delay_r);
    else {
        mix_ear16(mix_l, buf, h, frames, v->gain_l, t->gain_l, v->delay_l, t->delay_l);
        mix_ear16(mix_r, buf, h, frames, v->gain_r, t->gain_r, v->delay_r, t->delay_r);
    }
    copy_floats16(v->hist, buf + frames, h);
    ear__adopt_targets(v, t);
}

AVX512 static void group_finish_avx512(ear__group *gr, const ear__kernel_io *io) {
    uint32_t frames = io->frames, h = io->hist_len;
    if (frames % 16u != 0) {
        _mm256_zeroupper();
        ear__kernel_avx2->group_finish(gr, io);
        return;
    }
    ear__cue_lanes cl;
    ear__group_cue_lanes(gr, h, frames, &cl);
    float **x = cl.x, **st = cl.state, *g0 = cl.g0, *g1 = cl.g1;
    uint32_t k = cl.k;
    for (uint32_t c = 0; c < k; c += 16) {
        uint32_t m = k - c < 16 ? k - c : 16;
        lowpass_lanes16(x + c, m, frames, st + c, g0 + c, g1 + c);
    }
    for (uint32_t i = 0; i < gr->n; i++) /* each voice into its own bus, in group order */
        mix_placed16(gr->voice[i], gr->mix_l[i], gr->mix_r[i], io, gr->buf[i]);
    gr->n = 0;
    _mm256_zeroupper();
}

/* One voice at a time (flat voices, and placed ones outside a group) and blend layers:
 * the AVX2 kernel's. */
static bool render_avx512(ear__voice *v, const ear__kernel_io *io, const ear__targets *t) {
    return ear__kernel_avx2->render(v, io, t);
}

static void read_layer_avx512(ear__voice *v, uint64_t step_end, uint32_t frames, float *buf,
                              float *sum, float g0, float g1) {
    ear__kernel_avx2->read_layer(v, step_end, frames, buf, sum, g0, g1);
}

static const ear__kernel avx512_kernel = {
    .name = "avx512",
    .render = render_avx512,
    .read_layer = read_layer_avx512,
    .max_lanes = EAR__LANES,
    .read_grouped = read_grouped_avx512,
    .group_finish = group_finish_avx512,
};

const ear__kernel *const ear__kernel_avx512 = &avx512_kernel;

#else

bool ear__kernel_avx512_available(void) {
    return false;
}

const ear__kernel *const ear__kernel_avx512 = NULL;

#endif
