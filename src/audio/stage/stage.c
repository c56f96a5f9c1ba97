/*
 * The stage: the game-side API, the command path, and the block loop.
 *
 * Game side. Each call validates and sanitises its arguments (bad gains become
 * silence, bad pitches are floored, non-finite vectors are refused with a warning),
 * then sends one 64-byte command. If the ring is full the command waits, in order,
 * in an overflow queue that later game-side calls (and offline renders) move into
 * the ring: nothing is lost and the audio side never waits.
 *
 * Audio side. ear_stage_render serves frames from a one-block buffer; whenever it
 * is empty it renders the next control block: drain every command, compute each
 * voice's end-of-block targets, run the kernel (voice_render.c) for real voices and
 * only the cursor for virtual ones, then apply the master gain while interleaving.
 * Because commands are applied only at block boundaries and blocks are always whole,
 * the output does not depend on how the caller splits its render calls.
 *
 * Ended voices go back to the game side through the return ring with their clip, so
 * a clip's last reference is never dropped on the audio thread.
 */
#include "stage_internal.h"

#include <math.h>
#include <string.h>

#define MODULE "stage"

/* ---- configuration ------------------------------------------------------------------ */

ear_stage_config ear_stage_config_default(void) {
    ear_stage_config c;
    memset(&c, 0, sizeof c);
    c.sample_rate = 48000;
    c.channels = 2;
    c.block_frames = 160;
    c.max_voices = 64;
    c.max_total_voices = 512;
    c.command_capacity = 8192;
    c.max_blend_voices = 32;
    c.seed = 1;
    c.speed_of_sound = 343.0f;
    c.doppler_scale = 1.0f;
    c.allocator = NULL;
    return c;
}

static bool is_pow2(uint32_t v) {
    return v && !(v & (v - 1));
}

static ear_result validate_config(const ear_stage_config *c) {
    if (c->sample_rate < 8000 || c->sample_rate > 384000) return EAR_E_INVALID_ARG;
    if (c->channels != 2) return EAR_E_UNSUPPORTED;
    if (c->block_frames < 16 || c->block_frames > 4096) return EAR_E_INVALID_ARG;
    if (c->max_total_voices < 1 || c->max_total_voices > 65535u - EAR__STEAL_RESERVE)
        return EAR_E_INVALID_ARG;
    if (c->max_voices < 1) return EAR_E_INVALID_ARG;
    if (!is_pow2(c->command_capacity) || c->command_capacity < 16) return EAR_E_INVALID_ARG;
    if (c->max_blend_voices > 4096) return EAR_E_INVALID_ARG;
    if (!(c->speed_of_sound > 0.0f) || !isfinite(c->speed_of_sound)) return EAR_E_INVALID_ARG;
    if (!(c->doppler_scale >= 0.0f) || !isfinite(c->doppler_scale)) return EAR_E_INVALID_ARG;
    if (c->kernel != EAR_KERNEL_AUTO && c->kernel != EAR_KERNEL_SCALAR &&
        c->kernel != EAR_KERNEL_AVX2)
        return EAR_E_INVALID_ARG;
    if (c->kernel == EAR_KERNEL_AVX2 && !ear__kernel_avx2_available()) return EAR_E_UNSUPPORTED;
    return EAR_OK;
}

/* ---- allocation ---------------------------------------------------------------------- */

void *ear__zalloc(const ear_allocator *a, size_t size) {
    void *p = a->alloc_fn(size ? size : 1, a->user);
    if (p) memset(p, 0, size);
    return p;
}

void ear__dealloc(const ear_allocator *a, void *p) {
    if (p) a->free_fn(p, a->user);
}

void *ear__zalloc_lines(const ear_allocator *a, size_t size) {
    unsigned char *raw = ear__zalloc(a, size + 64u + sizeof(void *));
    if (!raw) return NULL;
    uintptr_t at = ((uintptr_t)(raw + sizeof(void *)) + 63u) & ~(uintptr_t)63u;
    unsigned char *p = raw + (at - (uintptr_t)raw);
    memcpy(p - sizeof(void *), &raw, sizeof raw);
    return p;
}

void ear__dealloc_lines(const ear_allocator *a, void *p) {
    if (!p) return;
    void *raw;
    memcpy(&raw, (unsigned char *)p - sizeof(void *), sizeof raw);
    ear__dealloc(a, raw);
}

uint32_t ear__hist_len(const ear_stage *s) {
    return (uint32_t)ceilf(EAR__ITD_S * (float)s->config.sample_rate) + 2u;
}

static void free_buffers(ear_stage *s) {
    const ear_allocator *a = &s->alloc;
    ear__dealloc(a, s->gen);
    ear__dealloc(a, s->alive);
    ear__dealloc(a, s->free_slots);
    ear__dealloc(a, s->start);
    ear__dealloc(a, s->overflow);
    ear__dealloc(a, s->commands.entries);
    ear__dealloc(a, s->returns.entries);
    ear__dealloc(a, (void *)s->cursor);
    ear__dealloc(a, (void *)s->ended_id);
    ear__dealloc_lines(a, s->voices);
    ear__dealloc(a, s->active);
    ear__dealloc_lines(a, s->block_out);
    ear__dealloc_lines(a, s->mix_l);
    ear__dealloc_lines(a, s->mix_r);
    ear__dealloc_lines(a, s->mono);
    ear__dealloc_lines(a, s->right);
    ear__dealloc_lines(a, s->lanes);
    ear__dealloc(a, s->tgt);
    ear__mixer_free(s);
}

ear_result ear_stage_create(const ear_stage_config *config, ear_stage **out_stage) {
    if (!out_stage) return EAR_E_INVALID_ARG;
    ear_stage_config c = config ? *config : ear_stage_config_default();
    ear_result r = validate_config(&c);
    if (r != EAR_OK) return r;
    if (c.max_voices > c.max_total_voices) c.max_voices = c.max_total_voices;
    if (c.kernel == EAR_KERNEL_AUTO)
        c.kernel = ear__kernel_avx2_available() ? EAR_KERNEL_AVX2 : EAR_KERNEL_SCALAR;

    ear_allocator a = ear_allocator_resolve(c.allocator);
    /* On a cache line: the struct's rings are aligned to lines (producer and consumer
     * indices apart). */
    ear_stage *s = ear__zalloc_lines(&a, sizeof *s);
    if (!s) return EAR_E_OUT_OF_MEMORY;
    s->config = c;
    s->alloc = a;
    s->block_s = (double)c.block_frames / (double)c.sample_rate;
    s->render_voice = c.kernel == EAR_KERNEL_AVX2 ? ear__voice_render_avx2 : ear__voice_render;
    ear_rng_seed(&s->rng, c.seed);

    /* Slots beyond the voice budget hold voices that fade out after being stolen. */
    uint32_t n = c.max_total_voices + EAR__STEAL_RESERVE, b = c.block_frames;
    s->slot_count = n;
    uint32_t h = ear__hist_len(s);
    s->tgt = ear__zalloc(&a, n * sizeof *s->tgt);
    s->gen = ear__zalloc(&a, n * sizeof *s->gen);
    s->alive = ear__zalloc(&a, n * sizeof *s->alive);
    s->free_slots = ear__zalloc(&a, n * sizeof *s->free_slots);
    s->start = ear__zalloc(&a, n * sizeof *s->start);
    void *cmd_mem = ear__zalloc(&a, (size_t)c.command_capacity * sizeof(ear__cmd));
    uint32_t ret_cap = 1;
    while (ret_cap < n) ret_cap <<= 1;
    void *ret_mem = ear__zalloc(&a, (size_t)ret_cap * sizeof(ear__ret));
    s->cursor = ear__zalloc(&a, n * sizeof *s->cursor);
    s->ended_id = ear__zalloc(&a, n * sizeof *s->ended_id);
    s->voices = ear__zalloc_lines(&a, n * sizeof *s->voices);
    s->active = ear__zalloc(&a, n * sizeof *s->active);
    s->block_out = ear__zalloc_lines(&a, (size_t)b * c.channels * sizeof(float));
    s->mix_l = ear__zalloc_lines(&a, b * sizeof(float));
    s->mix_r = ear__zalloc_lines(&a, b * sizeof(float));
    s->mono = ear__zalloc_lines(&a, (ear__hist_room(h) + b + 4u) * sizeof(float));
    s->right = ear__zalloc_lines(&a, (b + 4u) * sizeof(float));
    s->lanes = ear__zalloc_lines(&a, EAR__LANE_FLOATS * sizeof(float));
    if (cmd_mem) ear__ring_init(&s->commands, cmd_mem, c.command_capacity, sizeof(ear__cmd));
    if (ret_mem) ear__ring_init(&s->returns, ret_mem, ret_cap, sizeof(ear__ret));
    if (!s->gen || !s->alive || !s->free_slots || !s->start || !cmd_mem || !ret_mem ||
        !s->cursor || !s->ended_id || !s->voices || !s->active || !s->block_out || !s->mix_l ||
        !s->mix_r || !s->mono || !s->right || !s->lanes || !s->tgt || !ear__mixer_create(s)) {
        if (!cmd_mem) s->commands.entries = NULL;
        if (!ret_mem) s->returns.entries = NULL;
        free_buffers(s);
        ear__dealloc_lines(&a, s);
        return EAR_E_OUT_OF_MEMORY;
    }
    for (uint32_t i = 0; i < n; i++) {
        s->gen[i] = 1;
        s->free_slots[i] = n - 1 - i; /* slot 0 is handed out first */
        atomic_init(&s->cursor[i], 0);
        atomic_init(&s->ended_id[i], 0);
    }
    s->free_count = n;
    ear_listener l = {{0, 0, 0}, {0, 0, 0}, {0, 0, -1}, {0, 1, 0}};
    s->listener_game = l;
    s->listener_audio = l;
    ear__ears_from_listener(&l, &s->ears);
    s->master_target = s->master_gain = 1.0f;
    ear__mixer_init(s);
    s->block_pos = b; /* empty: the first render makes a block */
    *out_stage = s;
    return EAR_OK;
}

ear_stage_config ear_stage_get_config(const ear_stage *stage) {
    return stage->config;
}

/* ---- ids ------------------------------------------------------------------------------ */

uint32_t ear__make_id(uint32_t slot, uint16_t gen) {
    return ((uint32_t)gen << 16) | (slot + 1u);
}

/* True when id names a voice that exists in the game's view: handed out and its end
 * not yet collected. */
bool ear__id_slot(const ear_stage *s, ear_voice_id id, uint32_t *slot) {
    uint32_t sl = (id & 0xffffu);
    if (sl == 0 || sl > s->slot_count) return false;
    sl -= 1u;
    if (!s->alive[sl] || s->gen[sl] != (uint16_t)(id >> 16)) return false;
    *slot = sl;
    return true;
}

/* id_slot, and the audio side has not yet reported the voice ended. */
bool ear__id_live(const ear_stage *s, ear_voice_id id, uint32_t *slot) {
    if (!ear__id_slot(s, id, slot)) return false;
    return atomic_load_explicit(&s->ended_id[*slot], memory_order_acquire) != id;
}

/* ---- game side: returns and the overflow queue ------------------------------------- */

void ear__collect_returns(ear_stage *s) {
    ear__ret ret;
    while (ear__ring_pop(&s->returns, &ret)) {
        uint32_t slot = (ret.id & 0xffffu) - 1u;
        s->alive[slot] = 0;
        uint16_t g = (uint16_t)(s->gen[slot] + 1u);
        s->gen[slot] = g ? g : 1u;
        s->free_slots[s->free_count++] = slot;
        s->alive_count--;
        ear__mixer_voice_ended(s, slot, &ret);
        ear_clip_release(ret.clip);
    }
}

static void flush_overflow(ear_stage *s) {
    while (s->overflow_head < s->overflow_count) {
        if (!ear__ring_push(&s->commands, &s->overflow[s->overflow_head])) return;
        s->overflow_head++;
    }
    s->overflow_head = s->overflow_count = 0;
}

ear_result ear__send(ear_stage *s, const ear__cmd *cmd) {
    s->commands_sent++;
    flush_overflow(s);
    if (s->overflow_count == 0 && ear__ring_push(&s->commands, cmd)) return EAR_OK;
    if (s->overflow_count == s->overflow_cap) {
        size_t cap = s->overflow_cap ? s->overflow_cap * 2 : 256;
        ear__cmd *grown = s->alloc.realloc_fn(s->overflow, cap * sizeof *grown, s->alloc.user);
        if (!grown) return EAR_E_OUT_OF_MEMORY;
        s->overflow = grown;
        s->overflow_cap = cap;
    }
    s->overflow[s->overflow_count++] = *cmd;
    return EAR_OK;
}

void ear_stage_update(ear_stage *stage) {
    if (!stage) return;
    ear__collect(stage);
    flush_overflow(stage);
}

/* ---- game side: sanitising ------------------------------------------------------------- */

float ear__sane_gain(float g) {
    if (!isfinite(g) || g < 0.0f) return 0.0f;
    return g > 1000.0f ? 1000.0f : g;
}

float ear__sane_pitch(float p) {
    if (!isfinite(p) || p < EAR__MIN_PITCH) return EAR__MIN_PITCH;
    return p > EAR__MAX_PITCH ? EAR__MAX_PITCH : p;
}

static float sane_unit(float v) {
    if (!isfinite(v) || v < 0.0f) return 0.0f;
    return v > 1.0f ? 1.0f : v;
}

static float sane_pan(float v) {
    if (!isfinite(v)) return 0.0f;
    return v < -1.0f ? -1.0f : (v > 1.0f ? 1.0f : v);
}

bool ear__sane_vec(ear_vec3 v, const char *what) {
    if (ear_vec3_is_finite(v)) return true;
    ear_log(EAR_LOG_WARN, MODULE, "ignored a %s that is not finite (%g, %g, %g)", what,
            (double)v.x, (double)v.y, (double)v.z);
    return false;
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

/* ---- game side: voices ------------------------------------------------------------------ */

/* Makes room for a voice of `priority` when the budget is spent: the quietest voice of
 * equal or lower priority (as of the last block) fades out over 5 ms in a reserve slot.
 * False when nothing may be stolen or no reserve slot is left. */
static bool steal(ear_stage *s, uint8_t priority) {
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
    ear__cmd cmd = {.type = EAR__CMD_STOP, .id = ear__make_id(best, s->gen[best])};
    cmd.f[0] = EAR__MIN_FADE_S;
    if (ear__send(s, &cmd) != EAR_OK) return false;
    s->stolen[best] = 1;
    s->counted--;
    s->stolen_count++;
    return true;
}

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
    if (stage->counted >= stage->config.max_total_voices || stage->free_count == 0) {
        if (!steal(stage, p.priority)) {
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

static ear_result voice_cmd(ear_stage *s, ear_voice_id id, ear__cmd_type type, const float *f,
                            int n) {
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
        for (int i = 0; i < n; i++) c->f[i] = f[i];
        ear__ring_commit(&s->commands);
        s->commands_sent++;
        return EAR_OK;
    }
    ear__cmd cmd = {.type = (uint32_t)type, .id = id};
    for (int i = 0; i < n; i++) cmd.f[i] = f[i];
    return ear__send(s, &cmd);
}

ear_result ear_stage_set_volume(ear_stage *stage, ear_voice_id id, float volume) {
    float f = ear__sane_gain(volume);
    return voice_cmd(stage, id, EAR__CMD_VOLUME, &f, 1);
}

ear_result ear_stage_set_pitch(ear_stage *stage, ear_voice_id id, float pitch) {
    float f = ear__sane_pitch(pitch);
    return voice_cmd(stage, id, EAR__CMD_PITCH, &f, 1);
}

ear_result ear_stage_set_pan(ear_stage *stage, ear_voice_id id, float pan) {
    float f = sane_pan(pan);
    return voice_cmd(stage, id, EAR__CMD_PAN, &f, 1);
}

static ear_result vec_cmd(ear_stage *s, ear_voice_id id, ear__cmd_type type, ear_vec3 v,
                          const char *what) {
    if (!s) return EAR_E_INVALID_ARG;
    if (!ear__sane_vec(v, what)) {
        uint32_t slot;
        ear__collect(s);
        return ear__id_slot(s, id, &slot) ? EAR_E_INVALID_ARG : EAR_E_STALE_ID;
    }
    float f[3] = {v.x, v.y, v.z};
    return voice_cmd(s, id, type, f, 3);
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
    float f[6] = {position_m.x,   position_m.y,   position_m.z,
                  velocity_mps.x, velocity_mps.y, velocity_mps.z};
    return voice_cmd(stage, id, EAR__CMD_MOTION, f, 6);
}

ear_result ear_stage_set_velocity(ear_stage *stage, ear_voice_id id, ear_vec3 velocity_mps) {
    return vec_cmd(stage, id, EAR__CMD_VELOCITY, velocity_mps, "velocity");
}

ear_result ear_stage_set_forward(ear_stage *stage, ear_voice_id id, ear_vec3 forward) {
    return vec_cmd(stage, id, EAR__CMD_FORWARD, forward, "forward");
}

ear_result ear_stage_set_occlusion(ear_stage *stage, ear_voice_id id, float occlusion) {
    float f = sane_unit(occlusion);
    return voice_cmd(stage, id, EAR__CMD_OCCLUSION, &f, 1);
}

ear_result ear_stage_stop(ear_stage *stage, ear_voice_id id, float fade_s) {
    float f = (!(fade_s >= EAR__MIN_FADE_S) || !isfinite(fade_s)) ? EAR__MIN_FADE_S : fade_s;
    return voice_cmd(stage, id, EAR__CMD_STOP, &f, 1);
}

void ear_stage_stop_all(ear_stage *stage) {
    if (!stage) return;
    ear__collect(stage);
    ear__cmd cmd = {.type = EAR__CMD_STOP_ALL};
    cmd.f[0] = EAR__MIN_FADE_S;
    (void)ear__send(stage, &cmd);
}

bool ear_stage_is_playing(const ear_stage *stage, ear_voice_id id) {
    uint32_t slot;
    if (!stage) return false;
    /* A voice that ended is noticed here even before its return is collected. */
    return ear__id_live(stage, id, &slot);
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

ear_result ear_stage_set_listener(ear_stage *stage, const ear_listener *listener) {
    if (!stage || !listener) return EAR_E_INVALID_ARG;
    ear__collect(stage);
    ear_listener l = stage->listener_game;
    bool ok = true;
    if (ear__sane_vec(listener->position, "listener position"))
        l.position = listener->position;
    else
        ok = false;
    if (ear__sane_vec(listener->velocity, "listener velocity"))
        l.velocity = listener->velocity;
    else
        ok = false;
    if (ear__sane_vec(listener->forward, "listener forward") &&
        ear_vec3_length(listener->forward) > 1e-9f)
        l.forward = listener->forward;
    else
        ok = false;
    if (ear__sane_vec(listener->up, "listener up") && ear_vec3_length(listener->up) > 1e-9f)
        l.up = listener->up;
    else
        ok = false;
    stage->listener_game = l;
    /* Two commands, sent together and applied in order (an audio block may see the first
     * without the second: the pose then lags by one block, never mixes two poses' maths). */
    ear__cmd cmd = {.type = EAR__CMD_LISTENER};
    float *f = cmd.f;
    f[0] = l.position.x, f[1] = l.position.y, f[2] = l.position.z;
    f[3] = l.velocity.x, f[4] = l.velocity.y, f[5] = l.velocity.z;
    ear_result r = ear__send(stage, &cmd);
    if (r != EAR_OK) return r;
    ear__cmd axes = {.type = EAR__CMD_LISTENER_AXES};
    f = axes.f;
    f[0] = l.forward.x, f[1] = l.forward.y, f[2] = l.forward.z;
    f[3] = l.up.x, f[4] = l.up.y, f[5] = l.up.z;
    r = ear__send(stage, &axes);
    if (r != EAR_OK) return r;
    return ok ? EAR_OK : EAR_E_INVALID_ARG;
}

ear_listener ear_stage_get_listener(const ear_stage *stage) {
    return stage->listener_game;
}

void ear_stage_set_master_gain(ear_stage *stage, float gain) {
    if (!stage) return;
    ear__collect(stage);
    ear__cmd cmd = {.type = EAR__CMD_MASTER_GAIN};
    cmd.f[0] = ear__sane_gain(gain);
    (void)ear__send(stage, &cmd);
}

void ear_stage_set_render_thread_separate(ear_stage *stage, bool separate) {
    if (stage) stage->render_separate = separate;
}

/* ---- audio side: commands ------------------------------------------------------------- */

float ear__smoothing_k(const ear_stage *s, float smoothing_ms) {
    return (float)exp(-s->block_s / ((double)smoothing_ms * 0.001));
}

static void start_voice(ear_stage *s, uint32_t id) {
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
        v->data = ear_clip_data(st->clip);
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
    ear__mixer_start_voice(s, v, st);
    s->active[s->active_count++] = slot;
    s->sel_valid = false;
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

static void apply_command(ear_stage *s, const ear__cmd *c) {
    if (c->type == EAR__CMD_POSITION || c->type == EAR__CMD_VELOCITY ||
        c->type == EAR__CMD_MOTION) {
        /* Moves, the commonest command (so tested first), go to the compact motion
         * table without touching the voice: with thousands of voices, most of them
         * virtual, the voice would be a cache miss. */
        uint32_t slot = (c->id & 0xffffu) - 1u;
        if (s->slot_id[slot] != c->id) return; /* ended before the command arrived */
        ear_vec3 a = {c->f[0], c->f[1], c->f[2]};
        if (c->type != EAR__CMD_VELOCITY) s->motion[slot].position = a;
        if (c->type == EAR__CMD_VELOCITY) s->motion[slot].velocity = a;
        if (c->type == EAR__CMD_MOTION)
            s->motion[slot].velocity = ear_vec3_make(c->f[3], c->f[4], c->f[5]);
        return;
    }
    if (c->type >= EAR__CMD_BUS_VOLUME && c->type <= EAR__CMD_DUCK_TRIGGER) {
        ear__mixer_apply(s, c);
        return;
    }
    if (c->type == EAR__CMD_PLAY) {
        start_voice(s, c->id);
        return;
    }
    if (c->type == EAR__CMD_LISTENER || c->type == EAR__CMD_LISTENER_AXES) {
        ear_listener *l = &s->listener_audio;
        ear_vec3 a = {c->f[0], c->f[1], c->f[2]}, b = {c->f[3], c->f[4], c->f[5]};
        if (c->type == EAR__CMD_LISTENER)
            l->position = a, l->velocity = b;
        else
            l->forward = a, l->up = b;
        ear__ears_from_listener(l, &s->ears);
        s->ears_version++; /* every cached placement is now out of date */
        return;
    }
    if (c->type == EAR__CMD_MASTER_GAIN) {
        s->master_target = c->f[0];
        return;
    }
    if (c->type == EAR__CMD_STOP_ALL) {
        for (uint32_t i = 0; i < s->active_count; i++) {
            ear__begin_stop(s, &s->voices[s->active[i]], c->f[0]);
            s->vflags[s->active[i]] |= EAR__VF_TOUCHED;
        }
        return;
    }
    ear__voice *v = ear__voice_for(s, c->id);
    if (!v) return; /* ended before the command arrived */
    /* A virtual voice is brought up to date at once when its level or pitch changes or it
     * stops; a move waits for its turn (at most EAR__VIRTUAL_EVERY - 1 blocks). */
    if (c->type == EAR__CMD_VOLUME || c->type == EAR__CMD_PITCH || c->type == EAR__CMD_STOP ||
        c->type == EAR__CMD_ENVELOPE)
        s->vflags[(c->id & 0xffffu) - 1u] |= EAR__VF_TOUCHED;
    ear_vec3 vec = {c->f[0], c->f[1], c->f[2]};
    switch ((ear__cmd_type)c->type) {
    case EAR__CMD_VOLUME: v->volume_target = c->f[0]; break;
    case EAR__CMD_PITCH: v->pitch_target = c->f[0]; break;
    case EAR__CMD_PAN: v->pan = c->f[0]; break;
    case EAR__CMD_FORWARD: v->forward = vec; break;
    case EAR__CMD_OCCLUSION: v->occ_target = c->f[0]; break;
    case EAR__CMD_STOP: ear__begin_stop(s, v, c->f[0]); break;
    case EAR__CMD_ENVELOPE:
    case EAR__CMD_PARAM: ear__mixer_apply(s, c); break;
    default: break;
    }
}

/* ---- audio side: one block ------------------------------------------------------------- */

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

static float occlusion_gain(float occ) {
    /* powf(10, 0) is exactly 1: skip the call for the usual unoccluded voice. */
    return occ == 0.0f ? 1.0f : powf(10.0f, EAR__OCC_GAIN_DB * occ / 20.0f);
}

static float cutoff(float open_hz, float closed_hz, float amount) {
    return open_hz * powf(closed_hz / open_hz, amount);
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

/* End-of-block targets of one voice; advances its smoothers and stop fade. */
/* The coarse targets every voice needs each block, rendered or not: smoothers, stop
 * fade and envelope, distance, cone and occlusion gain, doppler and the playback step,
 * and the audibility the voice manager ranks by. */
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
        v->env =
            v->env_kind == 1 ? sinf(u * (float)(EAR__PI / 2)) : cosf(u * (float)(EAR__PI / 2));
        if (v->env_kind == 1 && u >= 1.0f) v->env_kind = 0, v->env = 1.0f;
        if (v->env_kind == 2 && u >= 1.0f) v->stopping = true, v->fade = 0.0f;
    }
}

static void voice_targets(ear_stage *s, ear__voice *v, ear__targets *t) {
    /* A settled voice (smoothers at their targets, no fade, no envelope, no blend
     * parameters) would come out of its state step unchanged. */
    if (!v->started || v->stopping || v->env_kind || v->blend >= 0 ||
        v->volume_s != v->volume_target || v->pitch_s != v->pitch_target ||
        v->occ_s != v->occ_target)
        ear__voice_step_state(s, v);
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

void ear__voice_targets_fine_slow(ear_stage *s, ear__voice *v, ear__targets *t) {
    float rate = (float)s->config.sample_rate, gain = v->coarse_gain;
    if (v->placed) {
        if (!v->sp_fine_valid) {
            ear__spatial_fine(v, rate, &v->sp);
            v->sp_fine_valid = true;
        }
        t->gain_l = gain * v->sp.gain_l;
        t->gain_r = gain * v->sp.gain_r;
        t->delay_l = v->sp.delay_l;
        t->delay_r = v->sp.delay_r;
        t->cue_G = v->sp.cue_filter > 0.0f ? cue_G(s, v->sp.cue_filter, rate) : 1.0f;
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

void ear__end_voice(ear_stage *s, uint32_t index) {
    uint32_t slot = s->active[index];
    ear__voice *v = &s->voices[slot];
    ear__ret ret = {.id = v->id, .stream = v->stream, .clip = v->clip};
    ear__mixer_release_voice(s, v);
    atomic_store_explicit(&s->ended_id[slot], v->id, memory_order_release);
    s->slot_id[slot] = 0;
    /* The return ring holds one entry per slot, so this push cannot fail. */
    (void)ear__ring_push(&s->returns, &ret);
    v->active = false;
    v->clip = NULL;
    v->data = NULL;
    s->active[index] = s->active[--s->active_count];
}

/* Asks for the clip frames a voice is about to read, two voices before its turn: each
 * voice reads a fresh stretch of its own clip every block (hundreds of clips do not
 * stay in the caches), and without the hint the read waits on memory. A hint only; it
 * changes no result. */
static void prefetch_clip(const ear__voice *v, uint32_t block_frames) {
#if defined(__GNUC__)
    /* A blend has no data (its layers read their own clips); a one-shot or a stream may
     * be at its end. */
    if (!v->data || v->pos >= v->frames) return;
    uint64_t frames = ((v->step_fx >> 32) + 1u) * block_frames + 16u;
    if (frames > v->frames - v->pos) frames = v->frames - v->pos;
    const char *p = (const char *)(v->data + v->pos * v->channels);
    const char *end = p + frames * v->channels * sizeof(float);
    for (; p < end; p += 64) __builtin_prefetch(p);
#else
    (void)v, (void)block_frames;
#endif
}

/* Reads the first clip frame a voice is about to read, four voices before its turn: a
 * load, where prefetch_clip's hints are not enough. With a thousand clips the page that
 * frame sits on is rarely in the TLB, and a prefetch that misses the TLB does not help
 * (measured: the prefetches alone left W64 at N = 1024 8 % slower than with this load);
 * the load walks the page tables early. The value goes nowhere that matters. */
static void touch_clip(ear_stage *s, const ear__voice *v) {
    if (!v->data || v->pos >= v->frames) return;
    uint32_t bits;
    memcpy(&bits, v->data + v->pos * v->channels, sizeof bits);
    s->touch_sink ^= bits;
}

/* Asks for the part of a voice's state that bringing it up to date reads (everything
 * before the blend parameters). A hint only; it changes no result. */
static void prefetch_state(const ear__voice *v) {
#if defined(__GNUC__)
    const char *p = (const char *)v, *end = (const char *)&v->param_target;
    for (; p < end; p += 64) __builtin_prefetch(p);
#else
    (void)v;
#endif
}

/* Catches a skipped voice up on the blocks it missed, then computes this block's
 * coarse targets. */
static void bring_up_to_date(ear_stage *s, uint32_t slot, uint32_t i, uint32_t blk) {
    ear__voice *v = &s->voices[slot];
    uint32_t behind = blk - s->state_at[slot];
    if (behind) {
        if (ear__voice_catch_up(s, v, behind)) s->ended_scratch[i] = 1;
    }
    s->state_at[slot] = blk + 1u; /* voice_targets steps it through this block */
    s->vflags[slot] &= (uint8_t) ~(EAR__VF_TOUCHED | EAR__VF_NEW);
    voice_targets(s, v, &s->tgt[i]);
}

static void render_block(ear_stage *s) {
    /* Offline, the caller is also the producer: everything it sent before this block
     * applies now, however many times the ring had to be refilled from the overflow. */
    do {
        if (!s->render_separate) flush_overflow(s);
        /* Every command published so far, read in place, and their room freed in one go. */
        size_t at, end = ear__ring_published(&s->commands, &at);
        for (; at != end; at++)
            apply_command(s, ear__ring_entry(&s->commands, at, sizeof(ear__cmd)));
        ear__ring_release(&s->commands, end);
    } while (!s->render_separate && s->overflow_count > s->overflow_head);

    uint32_t b = s->config.block_frames;
    ear__buses_begin(s);
    /* Targets for every voice that renders or may: voices real in the last block, new
     * or changed ones, streams, and a quarter of the virtual ones in turn. The rest stay
     * untouched and catch up (state and cursor) on their turn. */
    uint64_t blk = s->block_index++;
    bool all = s->eval_all;
    s->eval_all = false;
    if (all) s->sel_valid = false;
    uint32_t nwork = 0;
    for (uint32_t i = 0; i < s->active_count; i++) {
        uint32_t slot = s->active[i];
        bool due = all ||
                   (s->vflags[slot] &
                    (EAR__VF_RENDERED | EAR__VF_TOUCHED | EAR__VF_NEW | EAR__VF_ALWAYS)) ||
                   (blk + slot) % EAR__VIRTUAL_EVERY == 0;
        if (!due) continue; /* it catches up on its turn (state_at says how far) */
        s->work[nwork++] = i;
        s->ended_scratch[i] = 0;
    }
    /* Then each due voice in turn, asking for the state of the one four places on when it
     * was virtual: with thousands of voices its state has left the caches since its last
     * turn (a voice that rendered in the last block was here a block ago). */
    for (uint32_t k = 0; k < nwork; k++) {
        if (k + 4u < nwork) {
            uint32_t ahead = s->active[s->work[k + 4u]];
            if (!(s->vflags[ahead] & EAR__VF_RENDERED)) prefetch_state(&s->voices[ahead]);
        }
        uint32_t i = s->work[k];
        bring_up_to_date(s, s->active[i], i, (uint32_t)blk);
    }
    if (ear__choose_real(s, s->work, nwork) && nwork != s->active_count) {
        /* A full choice may have made real a voice that was not brought up to date: the
         * work list becomes every voice that is due or real, still ascending. */
        uint32_t k = 0, merged = 0;
        for (uint32_t i = 0; i < s->active_count; i++) {
            bool due = k < nwork && s->work[k] == i;
            if (due) k++;
            if (!due && !s->real_idx[i]) continue;
            if (!due) {
                /* Ranked real on an older state: catch up on the blocks before this one;
                 * it renders now. */
                uint32_t slot = s->active[i];
                s->ended_scratch[i] = 0;
                bring_up_to_date(s, slot, i, (uint32_t)blk);
            }
            s->rank[merged].index = i; /* scratch: the merged list */
            merged++;
        }
        for (uint32_t m = 0; m < merged; m++) s->work[m] = s->rank[m].index;
        nwork = merged;
    }

    /* A voice's block starts on a cache line in each scratch buffer: its history (hist_len
     * frames) ends where the room for it (ear__hist_room) does. */
    uint32_t h = ear__hist_len(s), room = ear__hist_room(h);
    ear__kernel_io io = {s->mono + (room - h), s->right, NULL, NULL, b, h};
    /* With a SIMD kernel, placed voices are read one by one but filtered and mixed in
     * groups (their serial filters run side by side); a group is finished before any
     * other voice mixes, so every voice adds into its bus in the same order as one by
     * one. */
    ear__group group;
    group.n = 0;
    uint32_t stride = (room + b + 8u + 15u) & ~15u;
    uint32_t lanes = EAR__LANE_FLOATS / stride;
    if (lanes > EAR__LANES) lanes = EAR__LANES;
    if (s->config.kernel != EAR_KERNEL_AVX2) lanes = 0;
    for (uint32_t k = 0; k < nwork; k++) {
        uint32_t i = s->work[k];
        uint32_t slot = s->active[i];
        ear__voice *v = &s->voices[slot];
        if (k + 2u < nwork && s->real_idx[s->work[k + 2u]])
            prefetch_clip(&s->voices[s->active[s->work[k + 2u]]], b);
        if (k + 4u < nwork && s->real_idx[s->work[k + 4u]])
            touch_clip(s, &s->voices[s->active[s->work[k + 4u]]]);
        v->real = s->real_idx[i];
        bool ended = ear__voice_block(s, v, &s->tgt[i], &io, &group, lanes, stride);
        s->ended_scratch[i] =
            (uint8_t)(s->ended_scratch[i] || ended || (v->stopping && v->fade <= 0.0f));
        atomic_store_explicit(&s->cursor[slot], v->pos, memory_order_relaxed);
        float aud = v->audibility;
        uint32_t bits;
        memcpy(&bits, &aud, sizeof bits);
        atomic_store_explicit(&s->aud_bits[slot], bits, memory_order_relaxed);
        atomic_store_explicit(&s->real_flag[slot], (uint8_t)v->real, memory_order_relaxed);
    }
    if (group.n) ear__group_finish_avx2(&group, &io);
    /* Voices that ended leave the active list once every group is mixed. Only voices in
     * the work list can have ended; going down it, each removal moves the last active
     * voice into a place no later step looks at again. */
    for (uint32_t k = nwork; k-- > 0;) {
        uint32_t i = s->work[k];
        if (!s->ended_scratch[i]) continue;
        uint32_t last = s->active_count - 1;
        s->tgt[i] = s->tgt[last];
        s->ended_scratch[i] = s->ended_scratch[last];
        s->real_idx[i] = s->real_idx[last];
        ear__end_voice(s, i);
        s->sel_valid = false; /* indices moved: the next block chooses afresh */
    }
    ear__buses_mixdown(s);
}

ear_result ear_stage_render(ear_stage *stage, float *out, uint32_t frames) {
    if (!stage || (!out && frames)) return EAR_E_INVALID_ARG;
    uint32_t b = stage->config.block_frames, ch = stage->config.channels;
    while (frames > 0) {
        if (stage->block_pos == b) {
            render_block(stage);
            stage->block_pos = 0;
        }
        uint32_t n = b - stage->block_pos;
        if (n > frames) n = frames;
        memcpy(out, stage->block_out + (size_t)stage->block_pos * ch,
               (size_t)n * ch * sizeof(float));
        out += (size_t)n * ch;
        frames -= n;
        stage->block_pos += n;
        stage->frames_rendered += n;
    }
    return EAR_OK;
}

uint64_t ear_stage_frames_rendered(const ear_stage *stage) {
    return stage ? stage->frames_rendered : 0;
}

/* What a PLAY command that never ran still holds. */
static void release_start(ear_stage *s, uint32_t id) {
    ear__start *st = &s->start[(id & 0xffffu) - 1u];
    ear_clip_release(st->clip);
    if (st->stream >= 0 && s->stream_game[st->stream].release)
        s->stream_game[st->stream].release(s->stream_game[st->stream].user);
}

void ear_stage_destroy(ear_stage *stage) {
    if (!stage) return;
    ear__collect(stage);
    /* Clips still referenced: by live voices, and by PLAY commands not yet applied. */
    for (uint32_t i = 0; i < stage->active_count; i++) {
        ear__voice *v = &stage->voices[stage->active[i]];
        ear_clip_release(v->clip);
        if (v->stream >= 0 && stage->streams[v->stream].stream.release)
            stage->streams[v->stream].stream.release(stage->streams[v->stream].stream.user);
    }
    ear__cmd cmd;
    while (ear__ring_pop(&stage->commands, &cmd))
        if (cmd.type == EAR__CMD_PLAY) release_start(stage, cmd.id);
    for (size_t i = stage->overflow_head; i < stage->overflow_count; i++)
        if (stage->overflow[i].type == EAR__CMD_PLAY)
            release_start(stage, stage->overflow[i].id);
    ear_allocator a = stage->alloc;
    free_buffers(stage);
    ear__dealloc_lines(&a, stage);
}
