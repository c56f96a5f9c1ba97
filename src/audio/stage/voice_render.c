/* SPDX-License-Identifier: Zlib */
/*
 * The per-voice kernel: one control block of one voice, in three passes over a
 * scratch buffer.
 *
 *  1. Read: the clip at a 32.32 fixed-point cursor with linear interpolation, the
 *     step ramped linearly from last block's value to this block's (resampling and
 *     pitch in one number). Integer cursor arithmetic cannot drift: after ten minutes
 *     a voice is exactly where the sum of its steps puts it. A block that stays
 *     inside the clip takes a loop with no bounds checks; one that crosses a loop
 *     point, a crossfade region or the end takes the careful per-frame path.
 *  2. Filter (placed voices): the occlusion low-pass (two TPT one-poles in series)
 *     and the behind/below low-pass (one TPT one-pole), each with its coefficient
 *     ramped over the block; a filter that is open at both ends of the block is
 *     skipped and its state follows the input, so opening and closing never step.
 *  3. Mix: per-ear gains ramped over the block; the far ear reads the filtered
 *     signal through a fractional delay from a short history that the voice carries
 *     between blocks. When the delay changes, the block crossfades linearly from the
 *     signal at last block's delay to the signal at this block's delay (two fixed
 *     linear-interpolated delays), so the block ends exactly at the new delay and
 *     the next one starts from it.
 *
 * A 16-bit clip's sample q is read as q / 32768, exact in a float, and everything after
 * the read is the same: its output is bit for bit the float clip of those values'.
 */
#include "stage_internal.h"

#include <math.h>
#include <string.h>

#define FX_ONE 4294967296.0 /* 2^32 */

/* Sample k of a float (s16 false) or 16-bit clip's data, as a float. */
static inline __attribute__((always_inline)) float sample(const void *data, bool s16,
                                                          uint64_t k) {
    return s16 ? (float)((const int16_t *)data)[k] * (1.0f / 32768.0f)
               : ((const float *)data)[k];
}

/* Sample value at integer index i of a looping-with-crossfade or plain clip, for
 * the careful path. `ch` is the channel; for a placed stereo clip, mixdown averages. */
static float clip_at(const ear__voice *v, uint64_t i, bool second_pass, int mode) {
    const void *dd = v->data;
    bool s16 = v->s16;
    uint32_t ch = v->channels;
    float s;
    if (ch == 1)
        s = sample(dd, s16, i);
    else if (mode == 0)
        s = 0.5f * (sample(dd, s16, 2 * i) + sample(dd, s16, 2 * i + 1));
    else
        s = sample(dd, s16, 2 * i + (uint64_t)(mode - 1));
    if (v->xfade && second_pass && i < v->xfade) {
        uint64_t j = i + v->loop_len; /* the tail that continues the previous pass */
        float t;
        if (ch == 1)
            t = sample(dd, s16, j);
        else if (mode == 0)
            t = 0.5f * (sample(dd, s16, 2 * j) + sample(dd, s16, 2 * j + 1));
        else
            t = sample(dd, s16, 2 * j + (uint64_t)(mode - 1));
        float w = (float)i / (float)v->xfade;
        s = s * w + t * (1.0f - w);
    }
    return s;
}

/* The interpolated sample at the cursor (pos, frac), careful about the end. */
static float read_careful(const ear__voice *v, uint64_t pos, uint32_t frac, int mode) {
    uint64_t limit = v->looping ? v->loop_len : v->frames;
    float a = clip_at(v, pos, v->second_pass, mode);
    uint64_t n = pos + 1;
    float b;
    if (n < limit)
        b = clip_at(v, n, v->second_pass, mode);
    else if (v->looping)
        b = clip_at(v, n - limit, true, mode);
    else
        b = 0.0f;
    float w = (float)((double)frac * (1.0 / FX_ONE));
    return a + w * (b - a);
}

/* Advances the cursor by one step; returns false when a one-shot ran off its end. */
static bool advance(ear__voice *v, uint64_t step) {
    uint64_t acc = (uint64_t)v->frac + (step & 0xffffffffu);
    v->frac = (uint32_t)acc;
    v->pos += (step >> 32) + (acc >> 32);
    if (v->looping) {
        if (v->pos >= v->loop_len) {
            v->pos %= v->loop_len;
            v->second_pass = true;
        }
        return true;
    }
    return v->pos < v->frames;
}

/* Steps for each frame of a block: start + dstep * (j + 1). dstep is truncated, so
 * the last frame lands within B units of 2^-32 of the target; the voice then adopts
 * the exact target for the next block. */
static void step_ramp(uint64_t from, uint64_t to, uint32_t frames, uint64_t *start,
                      int64_t *dstep) {
    *start = from;
    *dstep = ((int64_t)to - (int64_t)from) / (int64_t)frames;
}

/* The fast path of ear__read_block (every index and its neighbour inside the clip),
 * inlined twice: for float data and for 16-bit data (s16, a constant there). */
static inline __attribute__((always_inline)) void read_fast(ear__voice *v, uint64_t step0,
                                                            int64_t dstep, uint32_t frames,
                                                            float *out, float *out_r,
                                                            bool stereo_flat, bool s16) {
    const void *d = v->data;
    uint64_t pos = v->pos;
    uint64_t frac = v->frac;
    uint64_t step = step0;
    const float scale = (float)(1.0 / FX_ONE);
    if (v->channels == 1) {
        for (uint32_t j = 0; j < frames; j++) {
            float a = sample(d, s16, pos), b = sample(d, s16, pos + 1);
            out[j] = a + (float)frac * scale * (b - a);
            step += (uint64_t)dstep;
            frac += step;
            pos += frac >> 32;
            frac &= 0xffffffffu;
        }
    } else if (!stereo_flat) {
        for (uint32_t j = 0; j < frames; j++) {
            float a = 0.5f * (sample(d, s16, 2 * pos) + sample(d, s16, 2 * pos + 1));
            float b = 0.5f * (sample(d, s16, 2 * pos + 2) + sample(d, s16, 2 * pos + 3));
            out[j] = a + (float)frac * scale * (b - a);
            step += (uint64_t)dstep;
            frac += step;
            pos += frac >> 32;
            frac &= 0xffffffffu;
        }
    } else {
        for (uint32_t j = 0; j < frames; j++) {
            float w = (float)frac * scale;
            float al = sample(d, s16, 2 * pos), bl = sample(d, s16, 2 * pos + 2);
            float ar = sample(d, s16, 2 * pos + 1), br = sample(d, s16, 2 * pos + 3);
            out[j] = al + w * (bl - al);
            out_r[j] = ar + w * (br - ar);
            step += (uint64_t)dstep;
            frac += step;
            pos += frac >> 32;
            frac &= 0xffffffffu;
        }
    }
    v->pos = pos;
    v->frac = (uint32_t)frac;
}

/* Pass 1. Writes `frames` samples to out (and out_r for flat stereo), zeros after a
 * one-shot's end; returns true when the one-shot ended in this block. */
bool ear__read_block(ear__voice *v, uint64_t step_end, uint32_t frames, float *out,
                     float *out_r) {
    uint64_t step0;
    int64_t dstep;
    step_ramp(v->step_fx, step_end, frames, &step0, &dstep);
    bool stereo_flat = v->channels == 2 && !v->placed;

    /* Where the block ends if nothing wraps: the sum of its steps. */
    uint64_t sum = (uint64_t)frames * step0 +
                   (uint64_t)((int64_t)((uint64_t)frames * (frames + 1u) / 2u) * dstep);
    uint64_t end_pos = v->pos + ((v->frac + sum) >> 32) + 1u;
    uint64_t limit = v->looping ? v->loop_len : v->frames;
    bool clear_of_xfade = !v->xfade || !v->second_pass || v->pos >= v->xfade;
    bool ended = false;

    if (end_pos + 1u < limit && clear_of_xfade) {
        /* Fast path: every index and its neighbour are inside the clip. */
        if (v->s16)
            read_fast(v, step0, dstep, frames, out, out_r, stereo_flat, true);
        else
            read_fast(v, step0, dstep, frames, out, out_r, stereo_flat, false);
    } else {
        uint64_t step = step0;
        for (uint32_t j = 0; j < frames; j++) {
            if (stereo_flat) {
                out[j] = read_careful(v, v->pos, v->frac, 1);
                out_r[j] = read_careful(v, v->pos, v->frac, 2);
            } else {
                out[j] = read_careful(v, v->pos, v->frac, 0);
            }
            step += (uint64_t)dstep;
            if (!advance(v, step)) {
                ended = true;
                for (uint32_t k = j + 1; k < frames; k++) {
                    out[k] = 0.0f;
                    if (stereo_flat) out_r[k] = 0.0f;
                }
                break;
            }
        }
    }
    v->step_fx = step_end;
    return ended;
}

/* Adds x[j] * gain(j) into mix, the gain ramped over the block. */
static void mix_plain(float *mix, const float *x, uint32_t frames, float g0, float g1) {
    if (g0 == g1) {
        for (uint32_t j = 0; j < frames; j++) mix[j] += g1 * x[j];
        return;
    }
    float dg = (g1 - g0) / (float)frames;
    for (uint32_t j = 0; j < frames; j++) mix[j] += (g0 + dg * (float)(j + 1)) * x[j];
}

/* Adds g(j) * [(1 - t(j)) D(d0, j) + t(j) D(d1, j)] into mix, t(j) = (j + 1) / frames,
 * g ramped like mix_plain's, where D(d, j) reads buf at h + j - d with linear
 * interpolation. buf holds h frames of history, then the block, then at least one
 * readable pad frame. */
static void mix_ear(float *mix, const float *buf, uint32_t h, uint32_t frames, float g0,
                    float g1, float d0, float d1) {
    if (d0 == 0.0f && d1 == 0.0f) {
        mix_plain(mix, buf + h, frames, g0, g1);
        return;
    }
    float dg = (g1 - g0) / (float)frames;
    float p0 = (float)h - d0, p1 = (float)h - d1;
    float f0 = floorf(p0), f1 = floorf(p1);
    const float *b0 = buf + (uint32_t)f0, *b1 = buf + (uint32_t)f1;
    float w0 = p0 - f0, w1 = p1 - f1;
    if (d0 == d1) {
        for (uint32_t j = 0; j < frames; j++) {
            float g = g0 + dg * (float)(j + 1);
            mix[j] += g * (b1[j] + w1 * (b1[j + 1] - b1[j]));
        }
        return;
    }
    float inv = 1.0f / (float)frames;
    for (uint32_t j = 0; j < frames; j++) {
        float g = g0 + dg * (float)(j + 1);
        float t = (float)(j + 1) * inv;
        float x0 = b0[j] + w0 * (b0[j + 1] - b0[j]);
        float x1 = b1[j] + w1 * (b1[j + 1] - b1[j]);
        mix[j] += g * (x0 + t * (x1 - x0));
    }
}

bool ear__voice_render(ear__voice *v, const ear__kernel_io *io, const ear__targets *t) {
    uint32_t frames = io->frames, h = io->hist_len;
    float *mono = io->mono + h;
    bool stereo_flat = v->channels == 2 && !v->placed;
    bool ended = false;
    if (v->premixed)
        memcpy(mono, v->premixed, frames * sizeof(float)); /* a blend's summed layers */
    else
        ended = ear__read_block(v, t->step_fx, frames, mono, io->right);

    if (v->placed) {
        ear__lowpass_ramp(mono, frames, &v->z_occ1, v->occ_G, t->occ_G);
        ear__lowpass_ramp(mono, frames, &v->z_occ2, v->occ_G, t->occ_G);
        ear__lowpass_ramp(mono, frames, &v->z_cue, v->cue_G, t->cue_G);
        memcpy(io->mono, v->hist, h * sizeof(float));
        mix_ear(io->mix_l, io->mono, h, frames, v->gain_l, t->gain_l, v->delay_l, t->delay_l);
        mix_ear(io->mix_r, io->mono, h, frames, v->gain_r, t->gain_r, v->delay_r, t->delay_r);
        /* Keep the last h filtered frames for next block's delayed reads. */
        memcpy(v->hist, io->mono + frames, h * sizeof(float));
    } else {
        mix_plain(io->mix_l, mono, frames, v->gain_l, t->gain_l);
        mix_plain(io->mix_r, stereo_flat ? io->right : mono, frames, v->gain_r, t->gain_r);
    }
    ear__adopt_targets(v, t);
    return ended;
}

void ear__read_layer(ear__voice *v, uint64_t step_end, uint32_t frames, float *buf, float *sum,
                     float g0, float g1) {
    (void)ear__read_block(v, step_end, frames, buf, NULL);
    mix_plain(sum, buf, frames, g0, g1);
}

bool ear__voice_advance(ear__voice *v, uint32_t frames, uint64_t step_end_fx) {
    uint64_t step0;
    int64_t dstep;
    step_ramp(v->step_fx, step_end_fx, frames, &step0, &dstep);
    /* The same sum of steps the read pass would add, in one go. */
    uint64_t sum = (uint64_t)frames * step0 +
                   (uint64_t)((int64_t)((uint64_t)frames * (frames + 1u) / 2u) * dstep);
    uint64_t acc = (uint64_t)v->frac + (sum & 0xffffffffu);
    v->frac = (uint32_t)acc;
    v->pos += (sum >> 32) + (acc >> 32);
    v->step_fx = step_end_fx;
    if (v->looping) {
        if (v->pos >= v->loop_len) {
            v->pos %= v->loop_len;
            v->second_pass = true;
        }
        return false;
    }
    return v->pos >= v->frames;
}

void ear__group_cue_lanes(ear__group *gr, uint32_t h, uint32_t frames, ear__cue_lanes *out) {
    uint32_t k = 0;
    for (uint32_t i = 0; i < gr->n; i++) {
        ear__voice *v = gr->voice[i];
        float a = v->cue_G, b = v->t.cue_G;
        if (a >= 1.0f && b >= 1.0f) {
            v->z_cue = gr->buf[i][h + frames - 1];
            continue;
        }
        out->x[k] = gr->buf[i] + h;
        out->state[k] = &v->z_cue;
        out->g0[k] = a;
        out->g1[k] = b;
        k++;
    }
    out->k = k;
}

const ear__kernel ear__kernel_scalar = {
    .name = "scalar",
    .render = ear__voice_render,
    .read_layer = ear__read_layer,
    .max_lanes = 0, /* one voice at a time */
    .read_grouped = NULL,
    .group_finish = NULL,
};
