/*
 * The mixer's game side: bus and duck settings, the blend and pool tables, music
 * tracks and streams, fire-and-forget events, and statistics. Every change reaches
 * the audio side as a command (mixdown.c applies them at block boundaries); what the
 * game reads back is its own copy of what it asked for, or atomics the audio side
 * publishes.
 *
 * Blend entries are immutable once registered (a voice reads its entry on the audio
 * thread): registering a name again adds a new entry that later plays find first.
 * Pools are read only here, on the game thread, so re-registering one replaces it.
 */
#include "stage_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MODULE "mixer"

static const char *const bus_names[EAR_BUS_COUNT] = {"sfx", "master", "music",
                                                     "ui",  "engine", "ambience"};

const char *ear_bus_name(ear_bus bus) {
    return (unsigned)bus < EAR_BUS_COUNT ? bus_names[bus] : NULL;
}

ear_result ear_bus_from_name(const char *name, ear_bus *out_bus) {
    if (!name || !out_bus) return EAR_E_INVALID_ARG;
    for (uint32_t b = 0; b < EAR_BUS_COUNT; b++)
        if (strcmp(name, bus_names[b]) == 0) {
            *out_bus = (ear_bus)b;
            return EAR_OK;
        }
    return EAR_E_NOT_FOUND;
}

/* ---- lifetime ------------------------------------------------------------------------ */

static uint32_t stream_capacity(const ear_stage *s) {
    /* Enough for one block of the fastest stream (384 kHz) plus interpolation. */
    return (uint32_t)((uint64_t)s->config.block_frames * 384000u / s->config.sample_rate) + 8u;
}

bool ear__mixer_create(ear_stage *s) {
    const ear_allocator *a = &s->alloc;
    uint32_t n = s->slot_count, b = s->config.block_frames;
    s->stolen = ear__zalloc(a, n);
    s->slot_priority = ear__zalloc(a, n);
    s->aud_bits = ear__zalloc(a, n * sizeof *s->aud_bits);
    s->real_flag = ear__zalloc(a, n * sizeof *s->real_flag);
    s->rank = ear__zalloc(a, n * sizeof *s->rank);
    s->ended_scratch = ear__zalloc(a, n);
    s->blend_sum = ear__zalloc_lines(a, (b + 8u) * sizeof(float));
    s->layer_buf = ear__zalloc_lines(a, (b + 8u) * sizeof(float));
    s->vflags = ear__zalloc(a, n);
    s->work = ear__zalloc(a, n * sizeof *s->work);
    s->motion = ear__zalloc(a, n * sizeof *s->motion);
    s->slot_id = ear__zalloc(a, n * sizeof *s->slot_id);
    s->state_at = ear__zalloc(a, n * sizeof *s->state_at);
    s->aud = ear__zalloc(a, n * sizeof *s->aud);
    s->prio = ear__zalloc(a, n);
    s->serial_of = ear__zalloc(a, n * sizeof *s->serial_of);
    s->real_idx = ear__zalloc(a, n);
    s->eff = ear__zalloc(a, n * sizeof *s->eff);
    s->blends = ear__zalloc(a, EAR__MAX_BLENDS * sizeof *s->blends);
    s->pools = ear__zalloc(a, EAR__MAX_POOLS * sizeof *s->pools);
    bool ok = s->stolen && s->slot_priority && s->aud_bits && s->real_flag && s->rank &&
              s->ended_scratch && s->blend_sum && s->layer_buf && s->vflags && s->work &&
              s->motion && s->slot_id && s->state_at && s->aud && s->prio && s->serial_of &&
              s->real_idx && s->eff && s->blends && s->pools;
    for (uint32_t k = 0; k < EAR_BUS_COUNT; k++) {
        s->bus_l[k] = ear__zalloc_lines(a, b * sizeof(float));
        s->bus_r[k] = ear__zalloc_lines(a, b * sizeof(float));
        ok = ok && s->bus_l[k] && s->bus_r[k];
    }
    for (uint32_t k = 0; k < EAR__MAX_STREAMS; k++) {
        s->streams[k].capacity = stream_capacity(s);
        s->streams[k].fifo = ear__zalloc(a, (size_t)s->streams[k].capacity * 2 * sizeof(float));
        ok = ok && s->streams[k].fifo;
    }
    uint32_t blends = s->config.max_blend_voices;
    if (blends) {
        s->layer_voices = ear__zalloc_lines(a, (size_t)blends * EAR_BLEND_MAX_LAYERS *
                                                   sizeof *s->layer_voices);
        s->layer_free = ear__zalloc(a, blends * sizeof *s->layer_free);
        ok = ok && s->layer_voices && s->layer_free;
    }
    return ok;
}

void ear__mixer_init(ear_stage *s) {
    for (uint32_t b = 0; b < EAR_BUS_COUNT; b++) {
        s->bus_vol[b] = s->bus_target[b] = s->bus_gain[b] = 1.0f;
        s->bus_game[b].volume = 1.0f;
        s->bus_game[b].muted = false;
    }
    s->music_bus = EAR_BUS_MUSIC;
    for (uint32_t k = 0; k < EAR__MAX_STREAMS; k++) s->stream_free[k] = 1;
    for (uint32_t k = 0; k < s->config.max_blend_voices; k++)
        s->layer_free[k] = s->config.max_blend_voices - 1 - k;
    s->layer_free_count = s->config.max_blend_voices;
    for (uint32_t i = 0; i < s->slot_count; i++) {
        atomic_init(&s->aud_bits[i], 0u);
        atomic_init(&s->real_flag[i], 0u);
    }
    atomic_init(&s->stat_real, 0u);
    atomic_init(&s->stat_virtual, 0u);
}

void ear__mixer_free(ear_stage *s) {
    const ear_allocator *a = &s->alloc;
    if (s->blends)
        for (uint32_t k = 0; k < EAR__MAX_BLENDS; k++)
            if (s->blends[k].used)
                for (uint32_t l = 0; l < s->blends[k].def.layer_count; l++)
                    ear_clip_release(s->blends[k].def.layers[l].clip);
    if (s->pools)
        for (uint32_t k = 0; k < EAR__MAX_POOLS; k++)
            if (s->pools[k].used)
                for (uint32_t c = 0; c < s->pools[k].def.clip_count; c++)
                    ear_clip_release(s->pools[k].def.clips[c]);
    ear__dealloc(a, s->stolen);
    ear__dealloc(a, s->slot_priority);
    ear__dealloc(a, (void *)s->aud_bits);
    ear__dealloc(a, (void *)s->real_flag);
    ear__dealloc(a, s->rank);
    ear__dealloc(a, s->ended_scratch);
    ear__dealloc_lines(a, s->blend_sum);
    ear__dealloc_lines(a, s->layer_buf);
    ear__dealloc(a, s->vflags);
    ear__dealloc(a, s->work);
    ear__dealloc(a, s->motion);
    ear__dealloc(a, s->slot_id);
    ear__dealloc(a, s->state_at);
    ear__dealloc(a, s->aud);
    ear__dealloc(a, s->prio);
    ear__dealloc(a, s->serial_of);
    ear__dealloc(a, s->real_idx);
    ear__dealloc(a, s->eff);
    ear__dealloc(a, s->blends);
    ear__dealloc(a, s->pools);
    for (uint32_t k = 0; k < EAR_BUS_COUNT; k++) {
        ear__dealloc_lines(a, s->bus_l[k]);
        ear__dealloc_lines(a, s->bus_r[k]);
    }
    for (uint32_t k = 0; k < EAR__MAX_STREAMS; k++) ear__dealloc(a, s->streams[k].fifo);
    ear__dealloc_lines(a, s->layer_voices);
    ear__dealloc(a, s->layer_free);
}

void ear__mixer_voice_ended(ear_stage *s, uint32_t slot, const ear__ret *ret) {
    if (!s->stolen[slot]) s->counted--;
    s->stolen[slot] = 0;
    if (s->counted < s->config.max_total_voices) s->saturated = false;
    if (s->start[slot].blend >= 0) s->blend_alive--;
    if (ret->stream >= 0) {
        ear_stream *st = &s->stream_game[ret->stream];
        if (st->release) st->release(st->user);
        s->stream_free[ret->stream] = 1;
    }
}

/* ---- buses ---------------------------------------------------------------------------- */

static ear_result bus_cmd(ear_stage *s, ear__cmd_type type, ear_bus bus, float a, float b) {
    if (!s || (unsigned)bus >= EAR_BUS_COUNT) return EAR_E_INVALID_ARG;
    ear__collect(s);
    ear__cmd cmd = {.type = (uint32_t)type};
    cmd.f[0] = (float)bus;
    cmd.f[1] = a;
    cmd.f[2] = b;
    return ear__send(s, &cmd);
}

ear_result ear_stage_set_bus_volume(ear_stage *stage, ear_bus bus, float volume) {
    float v = ear__sane_gain(volume);
    ear_result r = bus_cmd(stage, EAR__CMD_BUS_VOLUME, bus, v, 0.0f);
    if (r == EAR_OK) stage->bus_game[bus].volume = v;
    return r;
}

ear_result ear_stage_set_bus_muted(ear_stage *stage, ear_bus bus, bool muted) {
    ear_result r = bus_cmd(stage, EAR__CMD_BUS_MUTE, bus, muted ? 1.0f : 0.0f, 0.0f);
    if (r == EAR_OK) stage->bus_game[bus].muted = muted;
    return r;
}

ear_result ear_stage_fade_bus(ear_stage *stage, ear_bus bus, float volume, float seconds) {
    if (!isfinite(seconds) || seconds < 0.0f) return EAR_E_INVALID_ARG;
    float v = ear__sane_gain(volume);
    ear_result r = bus_cmd(stage, EAR__CMD_BUS_VOLUME, bus, v, seconds);
    if (r == EAR_OK) stage->bus_game[bus].volume = v;
    return r;
}

ear_bus_state ear_stage_get_bus(const ear_stage *stage, ear_bus bus) {
    ear_bus_state none = {0.0f, false};
    if (!stage || (unsigned)bus >= EAR_BUS_COUNT) return none;
    return stage->bus_game[bus];
}

/* ---- ducks ---------------------------------------------------------------------------- */

static int find_duck(const ear_stage *s, const char *name) {
    for (uint32_t k = 0; k < EAR__MAX_DUCKS; k++)
        if (s->duck_game_used[k] && strcmp(s->duck_game[k].name, name) == 0) return (int)k;
    return -1;
}

static bool name_ok(const char *name) {
    return name && name[0] && strlen(name) < EAR_NAME_MAX;
}

static float or_default(float v, float d) {
    return (v == 0.0f || !isfinite(v) || v < 0.0f) ? d : v;
}

ear_result ear_stage_set_duck(ear_stage *stage, const ear_duck_rule *rule) {
    if (!stage || !rule || !name_ok(rule->name)) return EAR_E_INVALID_ARG;
    if ((unsigned)rule->trigger >= EAR_BUS_COUNT || (unsigned)rule->target >= EAR_BUS_COUNT ||
        rule->trigger == rule->target) {
        ear_log(EAR_LOG_WARN, MODULE, "duck \"%s\": trigger and target must be two buses",
                rule->name);
        return EAR_E_INVALID_ARG;
    }
    ear__collect(stage);
    ear_duck_rule r = *rule;
    r.gain_db = (r.gain_db == 0.0f || !isfinite(r.gain_db)) ? -12.0f : r.gain_db;
    if (r.gain_db > 0.0f) r.gain_db = -r.gain_db;
    r.threshold = or_default(r.threshold, 0.01f);
    r.attack_s = or_default(r.attack_s, 0.05f);
    r.hold_s = or_default(r.hold_s, 0.2f);
    r.release_s = or_default(r.release_s, 0.5f);
    int k = find_duck(stage, r.name);
    if (k < 0)
        for (uint32_t i = 0; i < EAR__MAX_DUCKS && k < 0; i++)
            if (!stage->duck_game_used[i]) k = (int)i;
    if (k < 0) {
        ear_log(EAR_LOG_WARN, MODULE, "duck \"%s\": all %u duck rules are in use", r.name,
                EAR__MAX_DUCKS);
        return EAR_E_STATE;
    }
    ear__cmd cmd = {.type = EAR__CMD_DUCK_SET,
                    .id = (uint32_t)k | (uint32_t)r.trigger << 8 | (uint32_t)r.target << 16};
    float f[5] = {r.gain_db, r.threshold, r.attack_s, r.hold_s, r.release_s};
    memcpy(cmd.f, f, sizeof f);
    ear_result res = ear__send(stage, &cmd);
    if (res != EAR_OK) return res;
    stage->duck_game[k] = r;
    stage->duck_game_used[k] = true;
    return EAR_OK;
}

ear_result ear_stage_remove_duck(ear_stage *stage, const char *name) {
    if (!stage || !name) return EAR_E_INVALID_ARG;
    int k = find_duck(stage, name);
    if (k < 0) return EAR_E_NOT_FOUND;
    ear__cmd cmd = {.type = EAR__CMD_DUCK_REMOVE, .id = (uint32_t)k};
    ear_result r = ear__send(stage, &cmd);
    if (r == EAR_OK) stage->duck_game_used[k] = false;
    return r;
}

ear_result ear_stage_trigger_duck(ear_stage *stage, const char *name, float hold_s) {
    if (!stage || !name || !isfinite(hold_s) || hold_s < 0.0f) return EAR_E_INVALID_ARG;
    int k = find_duck(stage, name);
    if (k < 0) return EAR_E_NOT_FOUND;
    ear__cmd cmd = {.type = EAR__CMD_DUCK_TRIGGER, .id = (uint32_t)k};
    cmd.f[0] = hold_s;
    return ear__send(stage, &cmd);
}

ear_result ear_stage_get_duck(const ear_stage *stage, const char *name, ear_duck_rule *out) {
    if (!stage || !name || !out) return EAR_E_INVALID_ARG;
    int k = find_duck(stage, name);
    if (k < 0) return EAR_E_NOT_FOUND;
    *out = stage->duck_game[k];
    return EAR_OK;
}

/* ---- blends ----------------------------------------------------------------------------- */

static int find_param(const ear_blend_def *d, const char *name) {
    for (uint32_t k = 0; k < d->param_count; k++)
        if (strcmp(d->params[k].name, name) == 0) return (int)k;
    return -1;
}

static bool check_curve(const ear_blend_def *d, const ear_curve *c, uint8_t *param,
                        uint32_t layer, const char *kind) {
    int k = find_param(d, c->param);
    if (k < 0) {
        ear_log(EAR_LOG_WARN, MODULE,
                "blend \"%s\": layers[%u].%s names unknown parameter \"%s\"", d->name, layer,
                kind, c->param);
        return false;
    }
    *param = (uint8_t)k;
    if (c->count == 0 || c->count > EAR_CURVE_MAX_POINTS) {
        ear_log(EAR_LOG_WARN, MODULE, "blend \"%s\": layers[%u].%s needs 1 to %u points",
                d->name, layer, kind, EAR_CURVE_MAX_POINTS);
        return false;
    }
    for (uint32_t i = 0; i < c->count; i++) {
        if (!isfinite(c->x[i]) || !isfinite(c->y[i]) || (i > 0 && !(c->x[i] > c->x[i - 1]))) {
            ear_log(EAR_LOG_WARN, MODULE,
                    "blend \"%s\": layers[%u].%s: points must be finite with increasing x",
                    d->name, layer, kind);
            return false;
        }
    }
    return true;
}

ear_result ear_stage_register_blend(ear_stage *stage, const ear_blend_def *def) {
    if (!stage || !def || !name_ok(def->name)) return EAR_E_INVALID_ARG;
    ear__blend b;
    memset(&b, 0, sizeof b);
    b.def = *def;
    ear_blend_def *d = &b.def;
    if (d->layer_count == 0 || d->layer_count > EAR_BLEND_MAX_LAYERS ||
        d->param_count > EAR_BLEND_MAX_PARAMS || (unsigned)d->bus >= EAR_BUS_COUNT) {
        ear_log(EAR_LOG_WARN, MODULE, "blend \"%s\": needs 1 to %u layers, at most %u params",
                d->name, EAR_BLEND_MAX_LAYERS, EAR_BLEND_MAX_PARAMS);
        return EAR_E_INVALID_ARG;
    }
    for (uint32_t k = 0; k < d->param_count; k++) {
        ear_blend_param *p = &d->params[k];
        if (!name_ok(p->name) || !isfinite(p->min) || !isfinite(p->max) || p->min > p->max) {
            ear_log(EAR_LOG_WARN, MODULE,
                    "blend \"%s\": params[%u] needs a name and min <= max", d->name, k);
            return EAR_E_INVALID_ARG;
        }
        float v = isfinite(p->initial) ? p->initial : p->min;
        p->initial = v < p->min ? p->min : (v > p->max ? p->max : v);
    }
    for (uint32_t l = 0; l < d->layer_count; l++) {
        ear_blend_layer *L = &d->layers[l];
        if (!L->clip || L->gain_count > EAR_BLEND_MAX_CURVES ||
            L->pitch_count > EAR_BLEND_MAX_CURVES) {
            ear_log(EAR_LOG_WARN, MODULE, "blend \"%s\": layers[%u] needs a clip", d->name, l);
            return EAR_E_INVALID_ARG;
        }
        for (uint32_t c = 0; c < L->gain_count; c++)
            if (!check_curve(d, &L->gain[c], &b.gain_param[l][c], l, "gain"))
                return EAR_E_INVALID_ARG;
        for (uint32_t c = 0; c < L->pitch_count; c++)
            if (!check_curve(d, &L->pitch[c], &b.pitch_param[l][c], l, "pitch"))
                return EAR_E_INVALID_ARG;
    }
    d->smoothing_ms = or_default(d->smoothing_ms, 30.0f);
    d->volume = d->volume == 0.0f ? 1.0f : ear__sane_gain(d->volume);
    uint32_t k = 0;
    while (k < EAR__MAX_BLENDS && stage->blends[k].used) k++;
    if (k == EAR__MAX_BLENDS) {
        ear_log(EAR_LOG_WARN, MODULE, "blend \"%s\": the table of %u blends is full", d->name,
                EAR__MAX_BLENDS);
        return EAR_E_STATE;
    }
    for (uint32_t l = 0; l < d->layer_count; l++) ear_clip_retain(d->layers[l].clip);
    b.used = true;
    stage->blends[k] = b;
    return EAR_OK;
}

static int find_blend(const ear_stage *s, const char *name) {
    for (int k = (int)EAR__MAX_BLENDS - 1; k >= 0; k--)
        if (s->blends[k].used && strcmp(s->blends[k].def.name, name) == 0) return k;
    return -1;
}

ear_result ear_stage_play_blend(ear_stage *stage, const char *name, const ear_play *params,
                                ear_voice_id *out_id) {
    if (!stage || !name) return EAR_E_INVALID_ARG;
    ear__collect(stage);
    int k = find_blend(stage, name);
    if (k < 0) return EAR_E_NOT_FOUND;
    if (stage->blend_alive >= stage->config.max_blend_voices) return EAR_E_TOO_MANY_VOICES;
    ear_play p;
    if (params)
        p = *params;
    else
        memset(&p, 0, sizeof p);
    if (p.bus == EAR_BUS_SFX) p.bus = stage->blends[k].def.bus;
    p.looping = true;
    ear_result r = ear__play(stage, NULL, &p, k, -1, 0.0f, out_id);
    if (r == EAR_OK) stage->blend_alive++;
    return r;
}

ear_result ear_stage_set_param(ear_stage *stage, ear_voice_id id, const char *param,
                               float value) {
    if (!stage || !param) return EAR_E_INVALID_ARG;
    ear__collect(stage);
    uint32_t slot;
    if (!ear__id_slot(stage, id, &slot)) return EAR_E_STALE_ID;
    int b = stage->start[slot].blend;
    if (b < 0) return EAR_E_NOT_FOUND;
    const ear_blend_def *d = &stage->blends[b].def;
    int k = find_param(d, param);
    if (k < 0) return EAR_E_NOT_FOUND;
    if (!isfinite(value)) return EAR_E_INVALID_ARG;
    float v = value < d->params[k].min ? d->params[k].min
                                       : (value > d->params[k].max ? d->params[k].max : value);
    ear__cmd cmd = {.type = EAR__CMD_PARAM, .id = id};
    cmd.f[0] = (float)k;
    cmd.f[1] = v;
    return ear__send(stage, &cmd);
}

/* ---- pools ---------------------------------------------------------------------------- */

static int find_pool(const ear_stage *s, const char *name) {
    for (uint32_t k = 0; k < EAR__MAX_POOLS; k++)
        if (s->pools[k].used && strcmp(s->pools[k].def.name, name) == 0) return (int)k;
    return -1;
}

ear_result ear_stage_register_pool(ear_stage *stage, const ear_pool_def *def) {
    if (!stage || !def || !name_ok(def->name)) return EAR_E_INVALID_ARG;
    ear_pool_def d = *def;
    if (d.clip_count == 0 || d.clip_count > EAR_POOL_MAX_CLIPS ||
        (unsigned)d.bus >= EAR_BUS_COUNT) {
        ear_log(EAR_LOG_WARN, MODULE, "pool \"%s\": needs 1 to %u clips", d.name,
                EAR_POOL_MAX_CLIPS);
        return EAR_E_INVALID_ARG;
    }
    for (uint32_t c = 0; c < d.clip_count; c++)
        if (!d.clips[c]) {
            ear_log(EAR_LOG_WARN, MODULE, "pool \"%s\": clips[%u] is missing", d.name, c);
            return EAR_E_INVALID_ARG;
        }
    if (d.volume_min == 0.0f && d.volume_max == 0.0f) d.volume_min = d.volume_max = 1.0f;
    if (!isfinite(d.volume_min) || !isfinite(d.volume_max) || d.volume_min < 0.0f ||
        d.volume_max < d.volume_min || !isfinite(d.pitch_semitones_min) ||
        !isfinite(d.pitch_semitones_max) || d.pitch_semitones_max < d.pitch_semitones_min ||
        d.max_instances > EAR__POOL_MAX_INSTANCES) {
        ear_log(EAR_LOG_WARN, MODULE,
                "pool \"%s\": ranges must be finite with min <= max (max_instances <= %u)",
                d.name, EAR__POOL_MAX_INSTANCES);
        return EAR_E_INVALID_ARG;
    }
    int k = find_pool(stage, d.name);
    if (k < 0)
        for (uint32_t i = 0; i < EAR__MAX_POOLS && k < 0; i++)
            if (!stage->pools[i].used) k = (int)i;
    if (k < 0) return EAR_E_STATE;
    for (uint32_t c = 0; c < d.clip_count; c++) ear_clip_retain(d.clips[c]);
    ear__pool *pool = &stage->pools[k];
    if (pool->used)
        for (uint32_t c = 0; c < pool->def.clip_count; c++)
            ear_clip_release(pool->def.clips[c]);
    memset(pool, 0, sizeof *pool);
    pool->def = d;
    pool->used = true;
    pool->last_pick = -1;
    return EAR_OK;
}

ear_result ear_stage_play_pool(ear_stage *stage, const char *name, const ear_play *params,
                               ear_voice_id *out_id) {
    if (!stage || !name) return EAR_E_INVALID_ARG;
    ear__collect(stage);
    int k = find_pool(stage, name);
    if (k < 0) return EAR_E_NOT_FOUND;
    ear__pool *pool = &stage->pools[k];
    const ear_pool_def *d = &pool->def;
    uint32_t pick;
    if (d->no_repeat && d->clip_count >= 2 && pool->last_pick >= 0) {
        pick = ear_rng_below(&stage->rng, d->clip_count - 1);
        if (pick >= (uint32_t)pool->last_pick) pick++;
    } else {
        pick = ear_rng_below(&stage->rng, d->clip_count);
    }
    float volume = ear_rng_range(&stage->rng, d->volume_min, d->volume_max);
    float semis = ear_rng_range(&stage->rng, d->pitch_semitones_min, d->pitch_semitones_max);
    ear_play p;
    if (params)
        p = *params;
    else
        memset(&p, 0, sizeof p);
    p.volume = (p.volume == 0.0f ? 1.0f : p.volume) * volume;
    if (p.volume == 0.0f) p.volume = -1.0f; /* a picked volume of 0 is silence, not 1 */
    p.pitch = (p.pitch == 0.0f ? 1.0f : p.pitch) * powf(2.0f, semis / 12.0f);
    p.bus = d->bus;
    p.priority = d->priority;
    p.looping = false;

    /* Drop instances that have ended, then fade out the oldest beyond the limit. */
    uint32_t kept = 0;
    for (uint32_t i = 0; i < pool->instance_count; i++) {
        ear_voice_id v = pool->instances[(pool->instance_head + i) % EAR__POOL_MAX_INSTANCES];
        if (ear_stage_is_playing(stage, v)) pool->instances[kept++] = v;
    }
    pool->instance_count = kept;
    pool->instance_head = 0;
    if (d->max_instances > 0)
        while (pool->instance_count >= d->max_instances) {
            ear_stage_stop(stage, pool->instances[pool->instance_head], 0.05f);
            pool->instance_head = (pool->instance_head + 1) % EAR__POOL_MAX_INSTANCES;
            pool->instance_count--;
        }

    ear_voice_id id;
    ear_result r = ear_stage_play(stage, d->clips[pick], &p, &id);
    if (r != EAR_OK) return r;
    pool->last_pick = (int32_t)pick;
    if (pool->instance_count == EAR__POOL_MAX_INSTANCES) {
        pool->instance_head = (pool->instance_head + 1) % EAR__POOL_MAX_INSTANCES;
        pool->instance_count--;
    }
    pool->instances[(pool->instance_head + pool->instance_count) % EAR__POOL_MAX_INSTANCES] =
        id;
    pool->instance_count++;
    if (out_id) *out_id = id;
    return EAR_OK;
}

/* ---- music ------------------------------------------------------------------------------- */

ear_result ear_stage_music_play(ear_stage *stage, const char *name,
                                const ear_music_source *source, bool loop, float volume,
                                float crossfade_s) {
    if (!stage || !source || (!source->clip) == (!source->stream)) return EAR_E_INVALID_ARG;
    if (!isfinite(crossfade_s) || crossfade_s < 0.0f) return EAR_E_INVALID_ARG;
    ear__collect(stage);
    int32_t slot = -1;
    if (source->stream) {
        const ear_stream *st = source->stream;
        if (!st->read || (st->channels != 1 && st->channels != 2) || st->sample_rate < 1000 ||
            st->sample_rate > 384000)
            return EAR_E_INVALID_ARG;
        for (uint32_t k = 0; k < EAR__MAX_STREAMS && slot < 0; k++)
            if (stage->stream_free[k]) slot = (int32_t)k;
        if (slot < 0) return EAR_E_TOO_MANY_VOICES;
        stage->stream_game[slot] = *st;
    }
    /* Everything playing fades out (cos) while the new track fades in (sin). */
    uint32_t kept = 0;
    for (uint32_t i = 0; i < stage->music_count; i++) {
        ear_voice_id v = stage->music[i];
        if (!ear_stage_is_playing(stage, v)) continue;
        if (crossfade_s > 0.0f) {
            ear__cmd cmd = {.type = EAR__CMD_ENVELOPE, .id = v};
            cmd.f[0] = 2.0f;
            cmd.f[1] = crossfade_s;
            (void)ear__send(stage, &cmd);
        } else {
            ear_stage_stop(stage, v, EAR__MIN_FADE_S);
        }
        stage->music[kept++] = v;
    }
    stage->music_count = kept;
    ear_play p;
    memset(&p, 0, sizeof p);
    p.looping = loop && source->clip;
    p.volume = volume == 0.0f ? -1.0f : volume;
    p.bus = stage->music_bus;
    p.priority = 255;
    if (slot >= 0) stage->stream_free[slot] = 0;
    ear_voice_id id;
    ear_result r = ear__play(stage, source->clip, &p, -1, slot, crossfade_s, &id);
    if (r != EAR_OK) {
        if (slot >= 0) stage->stream_free[slot] = 1;
        return r;
    }
    if (stage->music_count == sizeof stage->music / sizeof stage->music[0]) {
        ear_stage_stop(stage, stage->music[0], EAR__MIN_FADE_S);
        memmove(stage->music, stage->music + 1,
                (stage->music_count - 1) * sizeof(ear_voice_id));
        stage->music_count--;
    }
    stage->music[stage->music_count++] = id;
    snprintf(stage->music_name, sizeof stage->music_name, "%s", name ? name : "");
    return EAR_OK;
}

ear_result ear_stage_music_stop(ear_stage *stage, float fade_s) {
    if (!stage) return EAR_E_INVALID_ARG;
    for (uint32_t i = 0; i < stage->music_count; i++)
        (void)ear_stage_stop(stage, stage->music[i], fade_s);
    stage->music_count = 0;
    stage->music_name[0] = '\0';
    return EAR_OK;
}

ear_result ear_stage_set_music_bus(ear_stage *stage, ear_bus bus) {
    if (!stage || (unsigned)bus >= EAR_BUS_COUNT) return EAR_E_INVALID_ARG;
    stage->music_bus = bus;
    return EAR_OK;
}

const char *ear_stage_music_name(const ear_stage *stage) {
    return stage ? stage->music_name : "";
}

/* ---- events and statistics ------------------------------------------------------------- */

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
    if (p.placed && ear_vec3_is_finite(p.position)) {
        ear_attenuation a = p.attenuation;
        float ref = a.ref_distance_m > 0.0f ? a.ref_distance_m : 1.0f;
        float max = a.max_distance_m > 0.0f ? a.max_distance_m : 100.0f;
        float rolloff = a.rolloff > 0.0f ? a.rolloff : 1.0f;
        /* A linear range at or below the reference distance does not attenuate at all
         * (ear__distance_gain gives 1), so such a request is audible everywhere. */
        bool silent_at_max = a.model == EAR_MODEL_FADE ||
                             (a.model == EAR_MODEL_LINEAR && rolloff >= 1.0f && max > ref);
        float d = ear_vec3_length(ear_vec3_sub(p.position, stage->listener_game.position));
        if (silent_at_max && d >= max) {
            stage->dropped_far++;
            if (out_dropped) *out_dropped = true;
            return EAR_OK;
        }
    }
    return ear_stage_play(stage, clip, &p, NULL);
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
    return st;
}

bool ear_stage_is_real(const ear_stage *stage, ear_voice_id id) {
    uint32_t slot;
    if (!stage || !ear__id_live(stage, id, &slot)) return false;
    return atomic_load_explicit(&stage->real_flag[slot], memory_order_relaxed) != 0;
}
