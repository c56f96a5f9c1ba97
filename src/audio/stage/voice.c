/* SPDX-License-Identifier: Zlib */
/*
 * One voice on the audio side: its targets, its smoothing, one block of it, and catching
 * a skipped voice up.
 *
 * A voice's state evolves once per control block (ear__voice_step_state): volume, pitch
 * and occlusion follow their targets exponentially, a stop fade falls linearly, a music
 * envelope moves along sin or cos, a blend's parameters follow theirs. A voice whose
 * step would change nothing is settled (ear__voice_settled, the one predicate that says
 * so): its step is skipped, and a skipped virtual voice catches up on many blocks with
 * one cursor advance.
 *
 * Targets come in two parts. The coarse ones (ear__voice_targets) every due voice needs,
 * rendered or not: the gain before panning (volume, fade, envelope, distance, cone,
 * occlusion), the playback step with doppler, and the audibility the voice manager ranks
 * by. The fine ones (ear__voice_targets_fine) only a voice about to render needs: the
 * pan, the interaural delays and the filter coefficients. Both reuse the last placement
 * while the listener and the voice's motion are unchanged.
 *
 * ear__voice_block renders a real voice into its bus through the kernel chosen at create
 * (grouping placed voices for the SIMD kernel) or only moves a virtual one's cursor.
 * A blend voice's block is blends.c's; it uses the same begin/end and render helpers.
 */
#include "portable_math.h"
#include "reverb.h"
#include "stage_internal.h"

#include <math.h>
#include <string.h>

/* ---- smoothing and steps ------------------------------------------------- */

float ear__smoothing_k(const ear_stage *s, float smoothing_ms) {
    return (float)ear__exp(-s->block_s / ((double)smoothing_ms * 0.001));
}

float ear__smooth(float current, float target, float k) {
    if (current == target) return target;
    float next = target + (current - target) * k;
    return fabsf(next - target) < 1e-7f ? target : next;
}

uint64_t ear__to_fx(double step) {
    /* Clamp to (0, 65536] frames per frame: enough for 384 kHz clips at pitch 256. */
    if (!(step > 1.0 / 4294967296.0)) step = 1.0 / 4294967296.0;
    if (step > 65536.0) step = 65536.0;
    /* llround without the libm call: x is in [1, 2^48], where the truncation and
     * x - truncation are exact, and rounding half away from zero is truncation plus
     * one when the fraction is at least one half. */
    double x = step * 4294967296.0;
    uint64_t whole = (uint64_t)x;
    return whole + (x - (double)whole >= 0.5 ? 1u : 0u);
}

/* ---- starting, commands, stopping ---------------------------------------- */

/* A PLAY command's voice, from its slot's start parameters: everything but a stream's
 * FIFO (music.c) and a blend's layers (blends.c), which the block loop adds next. */
void ear__voice_start(ear_stage *s, uint32_t id) {
    uint32_t slot = (id & 0xffffu) - 1u;
    const ear__start *st = &s->start[slot];
    ear__voice *v = &s->voices[slot];
    memset(v, 0, sizeof *v);
    const ear_play *p = &st->p;
    v->id = id;
    v->active = true;
    v->looping = p->looping;
    v->placed = p->placed;
    v->doppler_on = p->placed && !p->no_doppler;
    v->behind_cue = !p->no_behind_cue;
    v->spatializer = (uint8_t)p->spatializer;
    v->volume_target = v->volume_s = p->volume;
    v->pitch_target = v->pitch_s = p->pitch;
    v->occ_target = v->occ_s = p->occlusion;
    v->smooth_k = ear__smoothing_k(s, p->smoothing_ms);
    v->pan = p->pan;
    v->position = p->position;
    v->velocity = p->velocity;
    s->motion[slot].position = p->position;
    s->motion[slot].velocity = p->velocity;
    s->slot_id[slot] = id;
    v->forward = p->forward;
    v->att = p->attenuation;
    v->cone = p->cone;
    v->doppler_factor = p->doppler_factor;
    v->fade = 1.0f;
    v->base_step = 1.0;
    v->stream = v->blend = v->layers = -1;
    if (st->clip) {
        v->clip = st->clip;
        v->s16 = (ear_clip_flags(st->clip) & EAR_CLIP_S16) != 0;
        v->data = v->s16 ? (const void *)ear_clip_data_s16(st->clip)
                         : (const void *)ear_clip_data(st->clip);
        v->frames = ear_clip_frames(st->clip);
        v->channels = ear_clip_channels(st->clip);
        v->base_step = (double)ear_clip_sample_rate(st->clip) / (double)s->config.sample_rate;
        uint64_t xf = (uint64_t)llround((double)p->loop_crossfade_s *
                                        (double)ear_clip_sample_rate(st->clip));
        if (!p->looping || xf * 2u > v->frames) xf = p->looping ? v->frames / 2u : 0u;
        if (p->loop_crossfade_s <= 0.0f) xf = 0;
        v->xfade = xf;
        v->loop_len = v->frames - xf;
        v->pos = p->start_frame < v->loop_len ? p->start_frame : 0;
    }
    v->bus = (uint8_t)st->p.bus;
    v->priority = st->p.priority;
    v->rv_send = st->p.reverb_send;
    ear__reverb_send_set(s, v);
    v->serial = s->serial++;
    s->vflags[slot] = EAR__VF_NEW | (st->stream >= 0 ? EAR__VF_ALWAYS : 0u);
    s->state_at[slot] = (uint32_t)s->block_index; /* the block about to render */
    s->aud[slot] = 0.0f;
    s->prio[slot] = v->priority;
    s->serial_of[slot] = v->serial;
    v->env = 1.0f;
    if (st->env_in_s > 0.0f) {
        v->env_kind = EAR__ENV_IN;
        v->env_len_s = st->env_in_s;
        v->env = 0.0f;
    }
}

/* A command that names a live voice (volume, pitch, pan, forward, occlusion, stop, a
 * music envelope, a blend parameter). */
void ear__voice_apply(ear_stage *s, ear__voice *v, const ear__cmd *c) {
    /* A virtual voice is brought up to date at once when its level or pitch changes or it
     * stops; a move waits for its turn (at most EAR__VIRTUAL_EVERY - 1 blocks). */
    if (c->type == EAR__CMD_VOLUME || c->type == EAR__CMD_PITCH || c->type == EAR__CMD_STOP ||
        c->type == EAR__CMD_ENVELOPE)
        s->vflags[(c->id & 0xffffu) - 1u] |= EAR__VF_TOUCHED;
    switch ((ear__cmd_type)c->type) {
    case EAR__CMD_VOLUME: v->volume_target = c->u.value; break;
    case EAR__CMD_PITCH: v->pitch_target = c->u.value; break;
    case EAR__CMD_PAN: v->pan = c->u.value; break;
    case EAR__CMD_FORWARD: v->forward = c->u.vec; break;
    case EAR__CMD_OCCLUSION: v->occ_target = c->u.value; break;
    case EAR__CMD_STOP: ear__begin_stop(s, v, c->u.fade_s); break;
    case EAR__CMD_ENVELOPE:
        v->env_kind = (uint8_t)c->u.envelope.kind;
        v->env_len_s = c->u.envelope.seconds;
        v->env_t_s = 0.0f;
        if (v->env_kind == EAR__ENV_OUT && !(v->env_len_s > 0.0f)) {
            v->env_kind = EAR__ENV_NONE;
            ear__begin_stop(s, v, EAR__MIN_FADE_S);
        }
        break;
    case EAR__CMD_REVERB_SEND:
        v->rv_send = c->u.value;
        ear__reverb_send_set(s, v);
        break;
    case EAR__CMD_SPATIALIZER: /* a voice's own (the stage's is hrtf_stage.c's) */
        v->spatializer = (uint8_t)c->u.spatializer;
        v->sp_fine_valid = false; /* pan and HRTF targets differ */
        break;
    case EAR__CMD_PARAM:
        if (v->blend >= 0 && c->u.param.index < EAR_BLEND_MAX_PARAMS)
            v->param_target[c->u.param.index] = c->u.param.value;
        break;
    default: break;
    }
}

ear__voice *ear__voice_for(ear_stage *s, uint32_t id) {
    uint32_t slot = (id & 0xffffu) - 1u;
    ear__voice *v = &s->voices[slot];
    if (!v->active || v->id != id) return NULL;
    return v;
}

void ear__begin_stop(ear_stage *s, ear__voice *v, float fade_s) {
    float step = (float)(s->block_s / (double)fade_s);
    if (!v->stopping || step > v->fade_step) v->fade_step = step;
    v->stopping = true;
}

/* ---- state and targets --------------------------------------------------- */

static float occlusion_gain(float occ) {
    /* 10^0 is exactly 1: skip the call for the usual unoccluded voice. */
    return occ == 0.0f ? 1.0f : ear__exp10f(EAR__OCC_GAIN_DB * occ / 20.0f);
}

static float cutoff(float open_hz, float closed_hz, float amount) {
    return open_hz * ear__powf(closed_hz / open_hz, amount);
}

/* The behind/below cue's coefficient G for a filter amount in (0, 1]. The exact
 * ear__lowpass_G(cutoff(...)) costs a powf and a tanf per voice and block; between the
 * table's 257 exact values, linear interpolation stays within 2.3e-5 of G at 48 kHz
 * (3.2e-5 at 44.1 kHz, under 1e-5 from 96 kHz up), which moves the filter's response
 * by far less than the tests' 0.5 %. The table is used only where G is smooth over the
 * whole range (the open cutoff below 0.499 of the rate: from about 40 kHz up). */
static float cue_G(ear_stage *s, float amount, float rate) {
    if (!(EAR__CUE_OPEN_HZ < 0.499f * rate))
        return ear__lowpass_G(cutoff(EAR__CUE_OPEN_HZ, EAR__CUE_CLOSED_HZ, amount), rate);
    if (!s->cue_table_built) {
        for (uint32_t k = 0; k <= EAR__CUE_STEPS; k++)
            s->cue_table[k] = ear__lowpass_G(
                cutoff(EAR__CUE_OPEN_HZ, EAR__CUE_CLOSED_HZ, (float)k / EAR__CUE_STEPS), rate);
        s->cue_table_built = true;
    }
    float x = (amount < 1.0f ? amount : 1.0f) * (float)EAR__CUE_STEPS;
    uint32_t k = (uint32_t)x;
    if (k >= EAR__CUE_STEPS) k = EAR__CUE_STEPS - 1u;
    float f = x - (float)k;
    return s->cue_table[k] + f * (s->cue_table[k + 1u] - s->cue_table[k]);
}

/* True when a block of the voice's own evolution (ear__voice_step_state) would change
 * nothing: every smoother at its target (a blend's parameters too), no stop fade, no
 * envelope. The one test of it: the block's targets skip the step on it, and catching up
 * advances a settled voice's cursor over all the skipped blocks at once. */
bool ear__voice_settled(const ear_stage *s, const ear__voice *v) {
    if (v->stopping || v->env_kind || v->volume_s != v->volume_target ||
        v->pitch_s != v->pitch_target || v->occ_s != v->occ_target)
        return false;
    if (v->blend >= 0)
        for (uint32_t k = 0; k < s->blends[v->blend].def.param_count; k++)
            if (v->param_s[k] != v->param_target[k]) return false;
    return true;
}

/* One block of a voice's own evolution: smoothers, stop fade, envelope and blend
 * parameters (what a virtual voice catches up on when it is brought up to date). */
void ear__voice_step_state(ear_stage *s, ear__voice *v) {
    if (v->started) {
        v->volume_s = ear__smooth(v->volume_s, v->volume_target, v->smooth_k);
        v->pitch_s = ear__smooth(v->pitch_s, v->pitch_target, v->smooth_k);
        v->occ_s = ear__smooth(v->occ_s, v->occ_target, v->smooth_k);
        if (v->blend >= 0)
            for (uint32_t k = 0; k < s->blends[v->blend].def.param_count; k++)
                v->param_s[k] = ear__smooth(v->param_s[k], v->param_target[k], v->param_k);
    }
    if (v->stopping) {
        v->fade -= v->fade_step;
        if (v->fade < 0.0f) v->fade = 0.0f;
    }
    if (v->env_kind) {
        /* Music crossfades: sin in, cos out, constant power together. */
        v->env_t_s += (float)s->block_s;
        float u = v->env_len_s > 0.0f ? v->env_t_s / v->env_len_s : 1.0f;
        if (u > 1.0f) u = 1.0f;
        v->env = v->env_kind == EAR__ENV_IN ? ear__sin_quarter(u) : ear__cos_quarter(u);
        if (v->env_kind == EAR__ENV_IN && u >= 1.0f) v->env_kind = EAR__ENV_NONE, v->env = 1.0f;
        if (v->env_kind == EAR__ENV_OUT && u >= 1.0f) v->stopping = true, v->fade = 0.0f;
    }
}

/* This block's coarse targets (steps the voice's state through the block first). */
void ear__voice_targets(ear_stage *s, ear__voice *v, ear__targets *t) {
    /* A settled voice would come out of its state step unchanged (before its first block
     * too: the step then only moves a fade or an envelope, which a settled voice has not). */
    if (!ear__voice_settled(s, v)) ear__voice_step_state(s, v);
    const ear__motion *m = &s->motion[(v->id & 0xffffu) - 1u];
    v->position = m->position;
    v->velocity = m->velocity;
    float gain = v->volume_s * v->fade * v->env;
    double doppler = 1.0;
    if (v->placed) {
        /* Placement is a pure function of the listener and the voice's position, velocity
         * and forward (the rest is fixed at play): a game moves its voices once a frame,
         * several control blocks apart, so most blocks reuse the last. */
        if (!(v->sp_valid && v->sp_ears == s->ears_version &&
              memcmp(&v->sp_position, &v->position, sizeof v->position) == 0 &&
              memcmp(&v->sp_velocity, &v->velocity, sizeof v->velocity) == 0 &&
              memcmp(&v->sp_forward, &v->forward, sizeof v->forward) == 0)) {
            ear__spatial_coarse(&s->ears, v, s->config.speed_of_sound, s->config.doppler_scale,
                                &v->sp);
            v->sp_position = v->position;
            v->sp_velocity = v->velocity;
            v->sp_forward = v->forward;
            v->sp_ears = s->ears_version;
            v->sp_valid = true;
            v->sp_fine_valid = false;
        }
        if (v->occ_s > 0.0f) gain *= occlusion_gain(v->occ_s);
        doppler = v->sp.doppler;
        gain *= v->sp.distance_gain;
    }
    v->coarse_gain = gain;
    t->step_fx = ear__to_fx(v->base_step * (double)v->pitch_s * doppler);
    v->audibility = gain * ear__bus_gain_now(s, v->bus);
    s->aud[(v->id & 0xffffu) - 1u] = v->audibility;
    if (!v->started) {
        v->step_fx = t->step_fx; /* the first block plays at its pitch: nothing to ramp */
        v->started = true;
    }
}

/* Out of line (GCC otherwise inlines it into ear__voice_targets_fine, which then no longer
 * inlines into the block loop: W64 counted +0.5 % instructions). */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
void ear__voice_targets_fine_slow(ear_stage *s, ear__voice *v, ear__targets *t) {
    float rate = (float)s->config.sample_rate, gain = v->coarse_gain;
    if (v->placed) {
        if (ear__hrtf_wants(s, v)) {
            /* The HRTF's filters place it (hrtf_stage.c): no pan, interaural delay or cue
             * filter, so none is computed (sp's pan part stays as it was; sp_fine_valid
             * then vouches for fine_t only, and every change of ear__hrtf_wants clears it:
             * a move, a set, a spatializer). */
            t->gain_l = t->gain_r = gain;
            t->delay_l = t->delay_r = 0.0f;
            t->cue_G = 1.0f;
            v->sp_fine_valid = true;
        } else {
            if (!v->sp_fine_valid) {
                ear__spatial_fine(v, rate, &v->sp);
                v->sp_fine_valid = true;
            }
            t->gain_l = gain * v->sp.gain_l;
            t->gain_r = gain * v->sp.gain_r;
            t->delay_l = v->sp.delay_l;
            t->delay_r = v->sp.delay_r;
            t->cue_G = v->sp.cue_filter > 0.0f ? cue_G(s, v->sp.cue_filter, rate) : 1.0f;
        }
        t->occ_G =
            v->occ_s > 0.0f
                ? ear__lowpass_G(cutoff(EAR__OCC_OPEN_HZ, EAR__OCC_CLOSED_HZ, v->occ_s), rate)
                : 1.0f;
        v->fine_t = *t;
        v->fine_gain_at = gain;
        v->fine_occ_at = v->occ_s;
    } else {
        /* Balance: the centre is unity on both sides; one side dims as pan moves away. */
        t->gain_l = gain * (v->pan > 0.0f ? 1.0f - v->pan : 1.0f);
        t->gain_r = gain * (v->pan < 0.0f ? 1.0f + v->pan : 1.0f);
        t->delay_l = t->delay_r = 0.0f;
        t->cue_G = t->occ_G = 1.0f;
    }
}

/* ---- one voice's block --------------------------------------------------- */

/* Before a voice renders: its first block starts at its targets; a voice coming back
 * from virtual starts from silence (its gains fade in over the block, its filters and
 * delay line start clean); every other block ramps from the last one's values. */
void ear__voice_prime(ear__voice *v, const ear__targets *t, bool first, bool entering) {
    if (!first && !entering) return;
    v->delay_l = t->delay_l;
    v->delay_r = t->delay_r;
    v->cue_G = t->cue_G;
    v->occ_G = t->occ_G;
    if (first) {
        v->gain_l = t->gain_l;
        v->gain_r = t->gain_r;
    } else {
        v->gain_l = v->gain_r = 0.0f;
        v->z_cue = v->z_occ1 = v->z_occ2 = 0.0f;
        memset(v->hist, 0, sizeof v->hist);
    }
}

/* A voice's block rendered on its own (not in a SIMD group) through its spatializer: the
 * HRTF's (hrtf_stage.c) while the voice is heard through a bank, the kernel's pan
 * otherwise. */
static bool render_alone(ear_stage *s, ear__voice *v, const ear__kernel_io *io,
                         const ear__targets *t, bool hrtf) {
    return hrtf ? ear__hrtf_render(s, v, io, t) : s->kernel->render(v, io, t);
}

/* A voice that sends to the reverb (OpenAL Soft's shape: the voice mixes into its send
 * buffers): its dry block is rendered into scratch, added into its bus, and mixed into its
 * bus's send buffer with the send gain ramped over the block. Far voices send relatively
 * more: send / sqrt(distance x cone gain). A voice's first block sends at once (as its dry
 * part starts at its targets). */
static bool render_sending(ear_stage *s, ear__voice *v, const ear__targets *t,
                           const ear__kernel_io *io, bool hrtf) {
    uint32_t n = io->frames;
    float *dl = s->reverb->dry_l, *dr = s->reverb->dry_r;
    memset(dl, 0, n * sizeof(float));
    memset(dr, 0, n * sizeof(float));
    ear__kernel_io bio = *io;
    bio.mix_l = dl;
    bio.mix_r = dr;
    bool ended = render_alone(s, v, &bio, t, hrtf);
    for (uint32_t j = 0; j < n; j++) {
        io->mix_l[j] += dl[j];
        io->mix_r[j] += dr[j];
    }
    float far = 1.0f;
    if (v->placed) {
        float g = v->sp.distance_gain;
        far = g > 1e-4f ? 1.0f / sqrtf(g) : 100.0f;
    }
    float g1 = v->rv_send * far, g0 = v->rendered_blocks == 0 ? g1 : v->rv_g;
    if (g0 > 0.0f || g1 > 0.0f) {
        float *acc = ear__reverb_send_buffer(s, v->bus, n);
        float dg = (g1 - g0) / (float)n;
        for (uint32_t j = 0; j < n; j++)
            acc[j] += (g0 + dg * (float)(j + 1u)) * 0.5f * (dl[j] + dr[j]);
    }
    v->rv_g = g1;
    ear__reverb_send_set(s, v);
    return ended;
}

/* Renders one real (or leaving) voice's block into io's buffers: placed voices on the pan
 * path that do not send join the SIMD group when there is one (finishing it when full);
 * the others render at once after the group is flushed, so voices always add into their
 * bus in the order they come. */
bool ear__voice_render_one(ear_stage *s, ear__voice *v, const ear__targets *t,
                           const ear__kernel_io *io, ear__group *group, uint32_t lanes,
                           uint32_t stride) {
    bool sends = ear__reverb_sends(s, v);
    bool hrtf = v->placed && ear__hrtf_involved(s, v); /* the one choice of its spatializer */
    if (!sends && !hrtf && v->placed && lanes >= 2) {
        float *buf = s->lanes + (size_t)group->n * stride +
                     (ear__hist_room(io->hist_len) - io->hist_len);
        bool ended = s->kernel->read_grouped(v, io, t, buf);
        group->voice[group->n] = v;
        v->t = *t; /* the group's filters and mix read the voice's own copy */
        group->buf[group->n] = buf;
        group->mix_l[group->n] = io->mix_l;
        group->mix_r[group->n] = io->mix_r;
        if (++group->n == lanes) s->kernel->group_finish(group, io);
        return ended;
    }
    if (group->n) s->kernel->group_finish(group, io);
    return sends ? render_sending(s, v, t, io, hrtf) : render_alone(s, v, io, t, hrtf);
}

/* A voice's block off the fast paths starts here: whether it renders (real, or fading
 * out of the real set over this block), and if so its fine targets and its bus's buffers
 * in *bio. */
bool ear__voice_block_begin(ear_stage *s, ear__voice *v, ear__targets *t,
                            const ear__kernel_io *io, ear__kernel_io *bio) {
    bool render = v->real || v->was_real;
    *bio = *io;
    if (render) {
        ear__voice_targets_fine(s, v, t);
        if (!v->real) t->gain_l = t->gain_r = 0.0f; /* leaving the real set: fade out */
        bio->mix_l = ear__bus_buffer(s, v->bus, false);
        bio->mix_r = s->bus_r[v->bus];
    }
    return render;
}

/* And ends here: the voice manager's flag of what it was in this block. */
void ear__voice_block_end(ear_stage *s, ear__voice *v) {
    v->was_real = v->real;
    v->rendered_blocks++;
    uint32_t slot = (v->id & 0xffffu) - 1u;
    if (v->real)
        s->vflags[slot] |= EAR__VF_RENDERED;
    else
        s->vflags[slot] &= (uint8_t)~EAR__VF_RENDERED;
}

bool ear__voice_block(ear_stage *s, ear__voice *v, ear__targets *t, const ear__kernel_io *io,
                      ear__group *group, uint32_t lanes, uint32_t stride) {
    if (!v->real && !v->was_real && v->stream < 0) {
        /* A clip voice that stays virtual (most voices when thousands play): its cursor
         * moves as rendering would move it; nothing else changes. */
        v->rendered_blocks++;
        return ear__voice_advance(v, s->config.block_frames, t->step_fx);
    }
    if (v->real && v->was_real && v->stream < 0) {
        /* The steady case: a clip voice that stays real. */
        ear__voice_targets_fine(s, v, t);
        ear__kernel_io bio = *io;
        bio.mix_l = ear__bus_buffer(s, v->bus, false);
        bio.mix_r = s->bus_r[v->bus];
        v->rendered_blocks++;
        return ear__voice_render_one(s, v, t, &bio, group, lanes, stride);
    }
    bool entering = v->real && !v->was_real;
    bool first = v->rendered_blocks == 0;
    ear__kernel_io bio;
    bool render = ear__voice_block_begin(s, v, t, io, &bio);
    bool ended;
    if (v->stream >= 0) ear__stream_prepare(s, v, t->step_fx);
    if (render) {
        ear__voice_prime(v, t, first, entering);
        ended = ear__voice_render_one(s, v, t, &bio, group, lanes, stride);
    } else {
        ended = ear__voice_advance(v, s->config.block_frames, t->step_fx);
    }
    /* The read pass is done (even for a grouped voice): the FIFO may move. */
    if (v->stream >= 0) ear__stream_consume(s, v);
    ear__voice_block_end(s, v);
    return ended;
}

/* ---- catching up --------------------------------------------------------- */

bool ear__voice_catch_up(ear_stage *s, ear__voice *v, uint32_t blocks) {
    uint32_t n = s->config.block_frames;
    bool ended = false;
    /* A settled voice (the common case) moves its cursor over all the blocks in one go:
     * the same sum of equal steps. */
    uint32_t per = ear__voice_settled(s, v) ? blocks : 1u;
    for (uint32_t k = 0; k < blocks && !ended; k += per) {
        if (per == 1u) ear__voice_step_state(s, v);
        uint32_t frames = n * per;
        if (v->blend >= 0) {
            const ear__blend *bl = &s->blends[v->blend];
            for (uint32_t l = 0; l < bl->def.layer_count; l++) {
                ear__voice *lv = &s->layer_voices[(size_t)v->layers * EAR_BLEND_MAX_LAYERS + l];
                (void)ear__voice_advance(lv, frames, lv->step_fx);
            }
            v->pos = s->layer_voices[(size_t)v->layers * EAR_BLEND_MAX_LAYERS].pos;
        } else {
            ended = ear__voice_advance(v, frames, v->step_fx);
        }
        v->rendered_blocks += per;
    }
    return ended;
}
