/* SPDX-License-Identifier: Zlib */
/*
 * Blend sounds and one-shot pools.
 *
 * A blend is one voice made of up to eight looping layers whose gains and pitches follow
 * curves over named parameters (an engine's recordings crossfading with its rpm). Its
 * entry is immutable once registered (a voice reads it on the audio thread): registering
 * a name again adds an entry that later plays find first. Each blend voice takes a set
 * of layer voices (ear_stage.layer_voices) at start and gives it back when it ends. A
 * placed blend's layers are read and summed (each scaled by its curves, ramped over the
 * block) before the voice's filters, delay line and pan, which run once for the blend:
 * they share one position, and the filters are linear. A flat blend renders its layers
 * as voices of their own.
 *
 * A pool picks one of its clips with the stage's seeded generator (never the last one
 * with no_repeat), a volume and a pitch in its ranges, and fades out its oldest instance
 * beyond max_instances. Pools are read only on the game thread, so re-registering one
 * replaces it.
 */
#include "portable_math.h"
#include "reverb.h"
#include "stage_internal.h"

#include <math.h>
#include <string.h>

#define MODULE "mixer"

/* ---- game side: blends --------------------------------------------------- */

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

/* Frees the superseded entries that no voice plays, with their clips (before, redefining
 * one name 64 times filled the table and kept every old clip). No voice refers to a freed
 * entry, so the audio side never reads it again. Runs only when there is one to free:
 * registering a name that has an idle entry, or after a superseded entry's last voice
 * ended (api.c counts those in blends_reclaimable), never on every play. */
static void reclaim_blends(ear_stage *s) {
    for (uint32_t k = 0; k < EAR__MAX_BLENDS; k++) {
        ear__blend *b = &s->blends[k];
        if (!b->used || !b->superseded || b->voices > 0) continue;
        for (uint32_t l = 0; l < b->def.layer_count; l++)
            ear_clip_release(b->def.layers[l].clip);
        memset(b, 0, sizeof *b);
    }
    s->blends_reclaimable = 0;
}

ear_result ear_stage_register_blend(ear_stage *stage, const ear_blend_def *def) {
    if (!stage || !def || !ear__name_ok(def->name)) return EAR_E_INVALID_ARG;
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
        if (!ear__name_ok(p->name) || !isfinite(p->min) || !isfinite(p->max) ||
            p->min > p->max) {
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
    d->smoothing_ms = ear__or_default(d->smoothing_ms, 30.0f);
    d->volume = d->volume == 0.0f ? 1.0f : ear__sane_gain(d->volume);
    /* The entry this one supersedes (at most one of a name is current) is freed now when
     * no voice plays it, else once its last voice has ended. */
    for (uint32_t o = 0; o < EAR__MAX_BLENDS; o++) {
        ear__blend *old = &stage->blends[o];
        if (!old->used || old->superseded || strcmp(old->def.name, d->name) != 0) continue;
        old->superseded = true;
        if (old->voices == 0) stage->blends_reclaimable++;
    }
    if (stage->blends_reclaimable) reclaim_blends(stage);
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
    stage->blends_registered++;
    return EAR_OK;
}

/* The current (newest) entry of that name, or -1. */
static int find_blend(const ear_stage *s, const char *name) {
    for (int k = 0; k < (int)EAR__MAX_BLENDS; k++)
        if (s->blends[k].used && !s->blends[k].superseded &&
            strcmp(s->blends[k].def.name, name) == 0)
            return k;
    return -1;
}

ear_result ear_stage_play_blend(ear_stage *stage, const char *name, const ear_play *params,
                                ear_voice_id *out_id) {
    if (!stage || !name) return EAR_E_INVALID_ARG;
    ear__collect(stage);
    if (stage->blends_reclaimable) reclaim_blends(stage); /* their last voices ended */
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
    if (r == EAR_OK) {
        stage->blend_alive++;
        stage->blends[k].voices++;
    }
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
    ear__cmd cmd = {.type = EAR__CMD_PARAM, .id = id, .u.param = {(uint32_t)k, v}};
    return ear__send(stage, &cmd);
}

/* ---- game side: pools ---------------------------------------------------- */

static int find_pool(const ear_stage *s, const char *name) {
    for (uint32_t k = 0; k < EAR__MAX_POOLS; k++)
        if (s->pools[k].used && strcmp(s->pools[k].def.name, name) == 0) return (int)k;
    return -1;
}

ear_result ear_stage_register_pool(ear_stage *stage, const ear_pool_def *def) {
    if (!stage || !def || !ear__name_ok(def->name)) return EAR_E_INVALID_ARG;
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
    p.pitch = (p.pitch == 0.0f ? 1.0f : p.pitch) * ear__exp2f(semis / 12.0f);
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

/* ---- audio side ---------------------------------------------------------- */

static float curve_eval(const ear_curve *c, float x) {
    if (c->count == 0) return 1.0f;
    if (x <= c->x[0]) return c->y[0];
    uint32_t last = c->count - 1;
    if (x >= c->x[last]) return c->y[last];
    uint32_t k = 0;
    while (k + 1 < last && x >= c->x[k + 1]) k++;
    float x0 = c->x[k], x1 = c->x[k + 1], y0 = c->y[k], y1 = c->y[k + 1];
    float t = x1 > x0 ? (x - x0) / (x1 - x0) : 1.0f;
    if (c->shape == EAR_CURVE_EQUAL_POWER) {
        if (y1 >= y0) return y0 + (y1 - y0) * ear__sin_quarter(t);
        return y1 + (y0 - y1) * ear__cos_quarter(t);
    }
    return y0 + (y1 - y0) * t;
}

/* A blend voice's start: its parameters at their initial values and a set of layer
 * voices (none when max_blend_voices sets are taken: the voice is then silent). */
void ear__blend_start(ear_stage *s, ear__voice *v, const ear__start *st) {
    if (st->blend >= 0 && s->layer_free_count > 0) {
        const ear__blend *bl = &s->blends[st->blend];
        v->blend = st->blend;
        v->layers = (int32_t)s->layer_free[--s->layer_free_count];
        v->param_k = ear__smoothing_k(s, bl->def.smoothing_ms);
        for (uint32_t k = 0; k < bl->def.param_count; k++)
            v->param_target[k] = v->param_s[k] = bl->def.params[k].initial;
        for (uint32_t l = 0; l < bl->def.layer_count; l++) {
            ear__voice *lv = &s->layer_voices[(size_t)v->layers * EAR_BLEND_MAX_LAYERS + l];
            const ear_blend_layer *L = &bl->def.layers[l];
            memset(lv, 0, sizeof *lv);
            lv->clip = NULL; /* the blend table holds the reference */
            lv->s16 = (ear_clip_flags(L->clip) & EAR_CLIP_S16) != 0;
            lv->data = lv->s16 ? (const void *)ear_clip_data_s16(L->clip)
                               : (const void *)ear_clip_data(L->clip);
            lv->frames = ear_clip_frames(L->clip);
            lv->channels = ear_clip_channels(L->clip);
            lv->active = true;
            lv->looping = true;
            lv->placed = v->placed;
            lv->base_step =
                (double)ear_clip_sample_rate(L->clip) / (double)s->config.sample_rate;
            uint64_t xf = (uint64_t)llround((double)L->loop_crossfade_s *
                                            (double)ear_clip_sample_rate(L->clip));
            if (xf * 2u > lv->frames) xf = lv->frames / 2u;
            lv->xfade = xf;
            lv->loop_len = lv->frames - xf;
            lv->fade = 1.0f;
            lv->env = 1.0f;
        }
    }
}

/* A blend voice's end: its layer voices go back to the free sets. */
void ear__blend_release(ear_stage *s, ear__voice *v) {
    if (v->layers >= 0) s->layer_free[s->layer_free_count++] = (uint32_t)v->layers;
    v->layers = -1;
    v->blend = -1;
}

/* Layer targets of a blend voice from its parent's and its parameters' curves. */
static void layer_targets(ear_stage *s, const ear__voice *v, const ear__blend *bl, uint32_t l,
                          const ear__targets *t, ear__voice *lv, ear__targets *lt) {
    const ear_blend_layer *L = &bl->def.layers[l];
    /* The curves are evaluated again only when a parameter moved (or at the start). */
    if (!lv->curves_valid || memcmp(lv->curve_at, v->param_s, sizeof lv->curve_at) != 0) {
        float g = bl->def.volume, p = 1.0f;
        for (uint32_t c = 0; c < L->gain_count; c++)
            g *= curve_eval(&L->gain[c], v->param_s[bl->gain_param[l][c]]);
        for (uint32_t c = 0; c < L->pitch_count; c++)
            p *= curve_eval(&L->pitch[c], v->param_s[bl->pitch_param[l][c]]);
        lv->curve_gain = g;
        lv->curve_pitch = p;
        memcpy(lv->curve_at, v->param_s, sizeof lv->curve_at);
        lv->curves_valid = true;
    }
    float g = lv->curve_gain, p = lv->curve_pitch;
    *lt = *t;
    lt->gain_l *= g;
    lt->gain_r *= g;
    /* The parent's step carries pitch and doppler (its base step is 1). */
    lt->step_fx = ear__to_fx(lv->base_step * ((double)t->step_fx / 4294967296.0) * (double)p);
    (void)s;
}

/* A blend voice's block (the block loop's, in place of ear__voice_block): its layers
 * follow their curves and read their clips; a placed blend's layers are summed and the
 * sum rendered once as the voice, a flat blend's layers render as voices of their own. */
bool ear__blend_block(ear_stage *s, ear__voice *v, ear__targets *t, const ear__kernel_io *io,
                      ear__group *group, uint32_t lanes, uint32_t stride) {
    uint32_t n = s->config.block_frames;
    bool entering = v->real && !v->was_real;
    bool first = v->rendered_blocks == 0;
    ear__kernel_io bio;
    bool render = ear__voice_block_begin(s, v, t, io, &bio);
    if (v->blend >= 0 && v->placed && render) {
        /* The layers share one position: each is read and scaled by its curves, the sum
         * goes once through the voice's filters, delay line and pan. */
        const ear__blend *bl = &s->blends[v->blend];
        float *sum = s->blend_sum, *buf = s->layer_buf;
        memset(sum, 0, n * sizeof(float));
        for (uint32_t l = 0; l < bl->def.layer_count; l++) {
            ear__voice *lv = &s->layer_voices[(size_t)v->layers * EAR_BLEND_MAX_LAYERS + l];
            ear__targets lt;
            layer_targets(s, v, bl, l, t, lv, &lt);
            if (!lv->started) {
                lv->step_fx = lt.step_fx;
                lv->started = true;
            }
            /* The layer's own gain: its curves (the voice's level and pan come after). */
            float g1 = lv->curve_gain;
            float g0 = (first || entering) ? g1 : lv->gain_l;
            s->kernel->read_layer(lv, lt.step_fx, n, buf, sum, g0, g1);
            lv->gain_l = g1;
        }
        v->pos = s->layer_voices[(size_t)v->layers * EAR_BLEND_MAX_LAYERS].pos;
        ear__voice_prime(v, t, first, entering);
        v->premixed = sum;
        (void)ear__voice_render_one(s, v, t, &bio, group, lanes, stride);
        v->premixed = NULL;
    } else {
        const ear__blend *bl = &s->blends[v->blend];
        for (uint32_t l = 0; l < bl->def.layer_count; l++) {
            ear__voice *lv = &s->layer_voices[(size_t)v->layers * EAR_BLEND_MAX_LAYERS + l];
            ear__targets lt;
            layer_targets(s, v, bl, l, t, lv, &lt);
            if (!lv->started) {
                lv->step_fx = lt.step_fx;
                lv->started = true;
            }
            if (render) {
                lv->rv_send = v->rv_send; /* a flat blend's layers send as the voice does */
                ear__reverb_send_set(s, lv);
                ear__voice_prime(lv, &lt, first, entering);
                (void)ear__voice_render_one(s, lv, &lt, &bio, group, lanes, stride);
            } else {
                (void)ear__voice_advance(lv, n, lt.step_fx);
            }
        }
        v->pos = s->layer_voices[(size_t)v->layers * EAR_BLEND_MAX_LAYERS].pos;
    }
    ear__voice_block_end(s, v);
    return false;
}
