/* SPDX-License-Identifier: Zlib */
/*
 * The game side of voices: play, the per-voice setters, stop, fire-and-forget events,
 * stealing when the budget is spent, what the game reads back about its voices, and the
 * listener and the master gain they are heard with.
 *
 * Each call validates and sanitises its arguments (bad gains become silence, bad pitches
 * are floored, non-finite vectors are refused with a warning) and sends its command
 * through the command path (api.c). ear__play fills the slot's start parameters before
 * it sends the PLAY command; the audio side reads them when the command arrives
 * (voice.c). What the game reads back (is_playing, cursors, statistics) is its own copy
 * or atomics the audio side publishes.
 */
#include "stage_internal.h"

#include <math.h>
#include <string.h>

#define MODULE "stage"

/* ---- stealing ------------------------------------------------------------ */

/* Makes room for a voice of `priority` when the budget is spent: the quietest voice of
 * equal or lower priority (as of the last block) fades out over 5 ms in a reserve slot.
 * False when nothing may be stolen or no reserve slot is left. */
bool ear__steal(ear_stage *s, uint8_t priority) {
    if (s->free_count == 0) return false;
    uint32_t best = UINT32_MAX;
    float best_aud = 0.0f;
    for (uint32_t slot = 0; slot < s->slot_count; slot++) {
        if (!s->alive[slot] || s->stolen[slot] || s->slot_priority[slot] > priority) continue;
        uint32_t bits = atomic_load_explicit(&s->aud_bits[slot], memory_order_relaxed);
        float aud;
        memcpy(&aud, &bits, sizeof aud);
        if (best == UINT32_MAX || aud < best_aud) best = slot, best_aud = aud;
    }
    if (best == UINT32_MAX) return false;
    ear__cmd cmd = {.type = EAR__CMD_STOP,
                    .id = ear__make_id(best, s->gen[best]),
                    .u.fade_s = EAR__MIN_FADE_S};
    if (ear__send(s, &cmd) != EAR_OK) return false;
    s->stolen[best] = 1;
    s->counted--;
    s->stolen_count++;
    return true;
}

/* ---- sanitising ---------------------------------------------------------- */

static float sane_unit(float v) {
    if (!isfinite(v) || v < 0.0f) return 0.0f;
    return v > 1.0f ? 1.0f : v;
}

static float sane_pan(float v) {
    if (!isfinite(v)) return 0.0f;
    return v < -1.0f ? -1.0f : (v > 1.0f ? 1.0f : v);
}

static ear_attenuation sane_attenuation(ear_attenuation a) {
    if (a.model < EAR_MODEL_DEFAULT || a.model > EAR_MODEL_FADE) a.model = EAR_MODEL_INVERSE;
    if (a.model == EAR_MODEL_DEFAULT) a.model = EAR_MODEL_INVERSE;
    if (!(a.ref_distance_m > 0.0f) || !isfinite(a.ref_distance_m)) a.ref_distance_m = 1.0f;
    if (!(a.max_distance_m > 0.0f) || !isfinite(a.max_distance_m)) a.max_distance_m = 100.0f;
    if (a.max_distance_m < a.ref_distance_m) a.max_distance_m = a.ref_distance_m;
    if (!(a.rolloff > 0.0f) || !isfinite(a.rolloff)) a.rolloff = 1.0f;
    return a;
}

/* ---- voices -------------------------------------------------------------- */

ear_result ear__play(ear_stage *stage, ear_clip *clip, const ear_play *params, int32_t blend,
                     int32_t stream, float env_in_s, ear_voice_id *out_id) {
    if (!stage || (!clip && blend < 0 && stream < 0)) return EAR_E_INVALID_ARG;
    ear__collect(stage);
    ear_play p;
    if (params)
        p = *params;
    else
        memset(&p, 0, sizeof p);
    if (p.placed &&
        (!ear__sane_vec(p.position, "position") || !ear__sane_vec(p.velocity, "velocity") ||
         !ear__sane_vec(p.forward, "forward")))
        return EAR_E_INVALID_ARG;
    if ((unsigned)p.bus >= EAR_BUS_COUNT) return EAR_E_INVALID_ARG;
    if ((unsigned)p.spatializer > EAR_SPATIALIZER_HRTF) return EAR_E_INVALID_ARG;
    if (stage->counted >= stage->config.max_total_voices || stage->free_count == 0) {
        if (!ear__steal(stage, p.priority)) {
            stage->refused++;
            if (!stage->saturated)
                ear_log(EAR_LOG_WARN, MODULE,
                        "voice budget of %u spent: refusing new voices until some end",
                        stage->config.max_total_voices);
            stage->saturated = true;
            return EAR_E_TOO_MANY_VOICES;
        }
    }

    p.volume = p.volume == 0.0f ? 1.0f : ear__sane_gain(p.volume);
    p.pitch = p.pitch == 0.0f ? 1.0f : ear__sane_pitch(p.pitch);
    p.pan = sane_pan(p.pan);
    p.attenuation = sane_attenuation(p.attenuation);
    if (!isfinite(p.cone.inner_angle_rad) || !isfinite(p.cone.outer_angle_rad) ||
        !(p.cone.outer_angle_rad > 0.0f)) {
        p.cone.inner_angle_rad = p.cone.outer_angle_rad = 0.0f;
    }
    p.cone.outer_gain = ear__sane_gain(p.cone.outer_gain);
    p.doppler_factor =
        (p.doppler_factor == 0.0f || !isfinite(p.doppler_factor) || p.doppler_factor < 0.0f)
            ? 1.0f
            : p.doppler_factor;
    p.smoothing_ms =
        (!(p.smoothing_ms > 0.0f) || !isfinite(p.smoothing_ms)) ? 20.0f : p.smoothing_ms;
    p.loop_crossfade_s = (!(p.loop_crossfade_s > 0.0f) || !isfinite(p.loop_crossfade_s))
                             ? 0.0f
                             : p.loop_crossfade_s;
    p.occlusion = sane_unit(p.occlusion);
    p.reverb_send = sane_unit(p.reverb_send);
    if (!clip || p.start_frame >= ear_clip_frames(clip)) p.start_frame = 0;

    uint32_t slot = stage->free_slots[stage->free_count - 1];
    ear_voice_id id = ear__make_id(slot, stage->gen[slot]);
    ear_clip_retain(clip);
    ear__start *st = &stage->start[slot];
    st->clip = clip;
    st->p = p;
    st->blend = blend;
    st->stream = stream;
    st->env_in_s = env_in_s;
    ear__cmd cmd = {.type = EAR__CMD_PLAY, .id = id};
    ear_result r = ear__send(stage, &cmd);
    if (r != EAR_OK) {
        ear_clip_release(clip);
        return r;
    }
    stage->free_count--;
    stage->alive[slot] = 1;
    stage->alive_count++;
    stage->counted++;
    stage->stolen[slot] = 0;
    stage->stopping[slot] = 0;
    stage->slot_priority[slot] = p.priority;
    atomic_store_explicit(&stage->cursor[slot], p.start_frame, memory_order_relaxed);
    /* Until its first block, a new voice counts as fully audible: it is not stolen
     * before anyone heard it. */
    float loud = 1e30f;
    uint32_t bits;
    memcpy(&bits, &loud, sizeof bits);
    atomic_store_explicit(&stage->aud_bits[slot], bits, memory_order_relaxed);
    if (out_id) *out_id = id;
    return EAR_OK;
}

ear_result ear_stage_play(ear_stage *stage, ear_clip *clip, const ear_play *params,
                          ear_voice_id *out_id) {
    if (!clip) return EAR_E_INVALID_ARG;
    return ear__play(stage, clip, params, -1, -1, 0.0f, out_id);
}

/* Sends a voice command to the live voice `id`: its type and `bytes` of payload (the
 * start of the command's union). */
static EAR__ALWAYS_INLINE ear_result voice_cmd(ear_stage *s, ear_voice_id id,
                                               ear__cmd_type type, const void *payload,
                                               size_t bytes) {
    if (!s) return EAR_E_INVALID_ARG;
    ear__collect(s);
    uint32_t slot;
    if (!ear__id_slot(s, id, &slot)) return EAR_E_STALE_ID;
    /* The common case writes the command straight into the ring. */
    ear__cmd *c =
        s->overflow_count == s->overflow_head ? ear__ring_reserve(&s->commands) : NULL;
    if (c) {
        c->type = (uint32_t)type;
        c->id = id;
        memcpy(&c->u, payload, bytes);
        ear__ring_commit(&s->commands);
        s->commands_sent++;
        return EAR_OK;
    }
    ear__cmd cmd = {.type = (uint32_t)type, .id = id};
    memcpy(&cmd.u, payload, bytes);
    return ear__send(s, &cmd);
}

ear_result ear_stage_set_volume(ear_stage *stage, ear_voice_id id, float volume) {
    float f = ear__sane_gain(volume);
    return voice_cmd(stage, id, EAR__CMD_VOLUME, &f, sizeof f);
}

ear_result ear_stage_set_pitch(ear_stage *stage, ear_voice_id id, float pitch) {
    float f = ear__sane_pitch(pitch);
    return voice_cmd(stage, id, EAR__CMD_PITCH, &f, sizeof f);
}

ear_result ear_stage_set_pan(ear_stage *stage, ear_voice_id id, float pan) {
    float f = sane_pan(pan);
    return voice_cmd(stage, id, EAR__CMD_PAN, &f, sizeof f);
}

static ear_result vec_cmd(ear_stage *s, ear_voice_id id, ear__cmd_type type, ear_vec3 v,
                          const char *what) {
    if (!s) return EAR_E_INVALID_ARG;
    if (!ear__sane_vec(v, what)) {
        uint32_t slot;
        ear__collect(s);
        return ear__id_slot(s, id, &slot) ? EAR_E_INVALID_ARG : EAR_E_STALE_ID;
    }
    return voice_cmd(s, id, type, &v, sizeof v);
}

ear_result ear_stage_set_position(ear_stage *stage, ear_voice_id id, ear_vec3 position_m) {
    return vec_cmd(stage, id, EAR__CMD_POSITION, position_m, "position");
}

ear_result ear_stage_set_motion(ear_stage *stage, ear_voice_id id, ear_vec3 position_m,
                                ear_vec3 velocity_mps) {
    if (!stage) return EAR_E_INVALID_ARG;
    /* Both are checked (and warned about), so both are evaluated. */
    bool pos_ok = ear__sane_vec(position_m, "position");
    bool vel_ok = ear__sane_vec(velocity_mps, "velocity");
    if (!pos_ok || !vel_ok) {
        uint32_t slot;
        ear__collect(stage);
        return ear__id_slot(stage, id, &slot) ? EAR_E_INVALID_ARG : EAR_E_STALE_ID;
    }
    ear_vec3 motion[2] = {position_m, velocity_mps}; /* u.motion: position, velocity */
    return voice_cmd(stage, id, EAR__CMD_MOTION, motion, sizeof motion);
}

ear_result ear_stage_set_velocity(ear_stage *stage, ear_voice_id id, ear_vec3 velocity_mps) {
    return vec_cmd(stage, id, EAR__CMD_VELOCITY, velocity_mps, "velocity");
}

ear_result ear_stage_set_forward(ear_stage *stage, ear_voice_id id, ear_vec3 forward) {
    return vec_cmd(stage, id, EAR__CMD_FORWARD, forward, "forward");
}

ear_result ear_stage_set_occlusion(ear_stage *stage, ear_voice_id id, float occlusion) {
    float f = sane_unit(occlusion);
    return voice_cmd(stage, id, EAR__CMD_OCCLUSION, &f, sizeof f);
}

ear_result ear_stage_stop(ear_stage *stage, ear_voice_id id, float fade_s) {
    float f = (!(fade_s >= EAR__MIN_FADE_S) || !isfinite(fade_s)) ? EAR__MIN_FADE_S : fade_s;
    ear_result r = voice_cmd(stage, id, EAR__CMD_STOP, &f, sizeof f);
    if (r == EAR_OK) stage->stopping[(id & 0xffffu) - 1u] = 1;
    return r;
}

ear_result ear_stage_stop_all(ear_stage *stage) {
    if (!stage) return EAR_E_INVALID_ARG;
    ear__collect(stage);
    ear__cmd cmd = {.type = EAR__CMD_STOP_ALL, .u.fade_s = EAR__MIN_FADE_S};
    ear_result r = ear__send(stage, &cmd); /* one command: sent, or nothing happened */
    if (r == EAR_OK)
        for (uint32_t slot = 0; slot < stage->slot_count; slot++)
            if (stage->alive[slot]) stage->stopping[slot] = 1;
    return r;
}

ear_result ear_stage_play_event(ear_stage *stage, ear_clip *clip, const ear_play *params,
                                bool *out_dropped) {
    if (out_dropped) *out_dropped = false;
    if (!stage || !clip) return EAR_E_INVALID_ARG;
    ear_play p;
    if (params)
        p = *params;
    else
        memset(&p, 0, sizeof p);
    p.looping = false;
    if (p.placed && ear_vec3_is_finite(p.position) &&
        ear_attenuation_silent_at(
            &p.attenuation,
            ear_vec3_length(ear_vec3_sub(p.position, stage->listener_game.position)))) {
        stage->dropped_far++;
        if (out_dropped) *out_dropped = true;
        return EAR_OK;
    }
    return ear_stage_play(stage, clip, &p, NULL);
}

/* ---- reading back -------------------------------------------------------- */

bool ear_stage_is_playing(const ear_stage *stage, ear_voice_id id) {
    uint32_t slot;
    if (!stage) return false;
    /* A voice that ended is noticed here even before its return is collected; one that was
     * stopped (or stolen) reads as finished while it fades. */
    return ear__id_live(stage, id, &slot) && !stage->stopping[slot] && !stage->stolen[slot];
}

ear_result ear_stage_get_cursor(const ear_stage *stage, ear_voice_id id, uint64_t *out_frames) {
    uint32_t slot;
    if (!stage || !out_frames) return EAR_E_INVALID_ARG;
    if (!ear__id_live(stage, id, &slot)) return EAR_E_STALE_ID;
    *out_frames = atomic_load_explicit(&stage->cursor[slot], memory_order_relaxed);
    return EAR_OK;
}

uint32_t ear_stage_voice_count(const ear_stage *stage) {
    /* Voices fading out after being stolen are counted too: they still exist. */
    return stage ? stage->alive_count : 0;
}

ear_stage_stats ear_stage_get_stats(const ear_stage *stage) {
    ear_stage_stats st;
    memset(&st, 0, sizeof st);
    if (!stage) return st;
    st.voices = stage->alive_count;
    st.real_voices = atomic_load_explicit(&stage->stat_real, memory_order_relaxed);
    st.virtual_voices = atomic_load_explicit(&stage->stat_virtual, memory_order_relaxed);
    st.refused = stage->refused;
    st.stolen = stage->stolen_count;
    st.dropped_far = stage->dropped_far;
    st.commands = stage->commands_sent;
    st.blends_registered = stage->blends_registered;
    return st;
}

bool ear_stage_is_real(const ear_stage *stage, ear_voice_id id) {
    uint32_t slot;
    if (!stage || !ear__id_live(stage, id, &slot)) return false;
    return atomic_load_explicit(&stage->real_flag[slot], memory_order_relaxed) != 0;
}

/* ---- the listener and the master gain ------------------------------------ */

ear_result ear_stage_set_listener(ear_stage *stage, const ear_listener *listener) {
    if (!stage || !listener) return EAR_E_INVALID_ARG;
    ear__collect(stage);
    /* Every vector is checked (and each bad one warned about) before anything changes. */
    bool ok = ear__sane_vec(listener->position, "listener position");
    ok = ear__sane_vec(listener->velocity, "listener velocity") && ok;
    bool fwd = ear__sane_vec(listener->forward, "listener forward");
    bool up = ear__sane_vec(listener->up, "listener up");
    if (fwd && !(ear_vec3_length(listener->forward) > 1e-9f)) {
        ear_log(EAR_LOG_WARN, MODULE, "ignored a listener forward of zero length");
        fwd = false;
    }
    if (up && !(ear_vec3_length(listener->up) > 1e-9f)) {
        ear_log(EAR_LOG_WARN, MODULE, "ignored a listener up of zero length");
        up = false;
    }
    if (!ok || !fwd || !up) return EAR_E_INVALID_ARG;
    /* Two commands, applied in order (an audio block may see the first without the second:
     * the pose then lags by one block, never mixes two poses' maths). Both are sent or
     * neither: room for both is made first. */
    ear_result r = ear__reserve(stage, 2);
    if (r != EAR_OK) return r;
    const ear_listener l = *listener;
    ear__cmd cmd = {.type = EAR__CMD_LISTENER,
                    .u.motion = {.position = l.position, .velocity = l.velocity}};
    ear__cmd axes = {.type = EAR__CMD_LISTENER_AXES,
                     .u.axes = {.forward = l.forward, .up = l.up}};
    (void)ear__send(stage, &cmd);
    (void)ear__send(stage, &axes);
    stage->listener_game = l;
    return EAR_OK;
}

ear_listener ear_stage_get_listener(const ear_stage *stage) {
    return stage->listener_game;
}

ear_result ear_stage_set_master_gain(ear_stage *stage, float gain) {
    if (!stage) return EAR_E_INVALID_ARG;
    ear__collect(stage);
    ear__cmd cmd = {.type = EAR__CMD_MASTER_GAIN, .u.value = ear__sane_gain(gain)};
    return ear__send(stage, &cmd);
}
