/* SPDX-License-Identifier: Zlib */
/*
 * The audio world: components on bodies reconciled against the stage once a sync.
 *
 * Data. One entry per body the world knows (a source, a listener, an impact sound, a
 * vehicle's sounds, the followed body, or attached voices), in an array sorted by body
 * id, so every loop visits them in the same order and a run repeats bit for bit. Each
 * entry keeps what the game asked for and, next to it, what was last sent to the stage
 * (positions, velocities, volumes, parameters, occlusion): a sync sends only what
 * differs, so a world where nothing moves sends the stage nothing at all. Attached voices
 * and queued fire-and-forget events are two more arrays.
 *
 * Invariants. An entry's voice ids are either EAR_VOICE_NONE or a voice this world
 * started and has not stopped; a body that is gone has no entry after the sync that
 * noticed it. The physics world is only read (const): audio never changes its hash.
 */
#include "world_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MODULE "world"

static void copy_name(char *dst, size_t cap, const char *src) {
    size_t n = src ? strlen(src) : 0;
    if (n >= cap) n = cap - 1;
    if (n) memcpy(dst, src, n);
    dst[n] = '\0';
}

/* ---- defaults --------------------------------------------------------------------------- */

ear_world_config ear_world_config_default(void) {
    ear_world_config c;
    memset(&c, 0, sizeof c);
    c.teleport_speed_mps = 400.0f;
    c.occlusion_per_body = 0.75f;
    c.stop_fade_s = 0.005f;
    c.engine_fade_s = 0.3f;
    c.snap_distance_m = 2.0f;
    c.seed = 1;
    return c;
}

ear_source ear_source_default(void) {
    ear_source s;
    memset(&s, 0, sizeof s);
    s.bus = EAR_BUS_SFX;
    s.volume = 1.0f;
    s.pitch = 1.0f;
    s.play = true;
    s.spatial = true;
    s.doppler = 1.0f;
    s.smoothing_ms = 20.0f;
    return s;
}

ear_drive ear_drive_default(const char *param, const char *from) {
    ear_drive d;
    memset(&d, 0, sizeof d);
    copy_name(d.param, sizeof d.param, param);
    copy_name(d.from, sizeof d.from, from);
    d.scale = 1.0f;
    return d;
}

ear_listener_component ear_listener_component_default(void) {
    return (ear_listener_component){.enabled = true, .volume = 1.0f};
}

ear_impact ear_impact_default(void) {
    ear_impact i;
    memset(&i, 0, sizeof i);
    i.min_speed_mps = 1.0f;
    i.full_speed_mps = 10.0f;
    i.volume = 1.0f;
    i.cooldown_s = 0.1f;
    i.duck_hold_s = 0.5f;
    return i;
}

ear_vehicle_sound ear_vehicle_sound_default(void) {
    ear_vehicle_sound v;
    memset(&v, 0, sizeof v);
    copy_name(v.rpm_param, sizeof v.rpm_param, "rpm");
    copy_name(v.load_param, sizeof v.load_param, "load");
    v.idle_pitch = 1.0f;
    v.max_pitch = 2.0f;
    v.volume = 1.0f;
    v.bus = EAR_BUS_ENGINE;
    v.crash_full_speed_mps = 15.0f;
    return v;
}

/* The line both impacts and crashes follow: 15 % at min, full at full, linear between. */
static float hit_line(float speed, float min, float full) {
    if (!(speed >= min)) return 0.0f;
    float t = full > min ? (speed - min) / (full - min) : 1.0f;
    if (t > 1.0f) t = 1.0f;
    return 0.15f + 0.85f * t;
}

float ear_impact_volume(const ear_impact *impact, float speed_mps) {
    if (!impact) return 0.0f;
    return impact->volume * hit_line(speed_mps, impact->min_speed_mps, impact->full_speed_mps);
}

/* ---- create / destroy ----------------------------------------------------------------------
 */

static bool nonneg(float v) {
    return isfinite(v) && v >= 0.0f;
}

ear_result ear_world_create(const ear_world_config *config, ear_world **out) {
    if (!out || !config || !config->stage || !config->assets || !config->physics)
        return EAR_E_INVALID_ARG;
    ear_world_config c = *config;
    if (!nonneg(c.teleport_speed_mps) || !nonneg(c.occlusion_per_body) ||
        !nonneg(c.stop_fade_s) || !nonneg(c.engine_fade_s) || !nonneg(c.snap_distance_m))
        return EAR_E_INVALID_ARG;
    if (c.teleport_speed_mps == 0.0f) c.teleport_speed_mps = 400.0f;
    if (c.stop_fade_s < 0.005f) c.stop_fade_s = 0.005f;
    if (c.engine_fade_s < 0.005f) c.engine_fade_s = 0.005f;
    ear_world *w = calloc(1, sizeof *w);
    if (!w) return EAR_E_OUT_OF_MEMORY;
    w->config = c;
    ear_rng_seed(&w->rng, c.seed ? c.seed : 1);
    w->phys_steps_seen = ear_physics_steps(c.physics);
    w->phys_time_seen_s = ear_physics_time_s(c.physics);
    ear_assets_stats as = ear_assets_get_stats(c.assets);
    w->library_seen =
        as.loads + as.definitions + ear_stage_get_stats(c.stage).blends_registered;
    *out = w;
    return EAR_OK;
}

static void stop_voice(ear_world *w, ear_voice_id *v, float fade_s) {
    if (*v == EAR_VOICE_NONE) return;
    if (ear_stage_stop(w->config.stage, *v, fade_s) == EAR_OK) w->stats.stopped++;
    *v = EAR_VOICE_NONE;
}

void ear_world_destroy(ear_world *w) {
    if (!w) return;
    for (size_t i = 0; i < w->entry_count; i++) {
        stop_voice(w, &w->entries[i].src.voice, w->config.stop_fade_s);
        stop_voice(w, &w->entries[i].engine, w->config.stop_fade_s);
    }
    for (size_t i = 0; i < w->attached_count; i++)
        stop_voice(w, &w->attached[i].voice, w->config.stop_fade_s);
    for (size_t i = 0; i < w->once_count; i++) free(w->once[i]);
    free(w->once);
    free(w->entries);
    free(w->attached);
    free(w->events);
    free(w->zones);
    free(w);
}

/* ---- entries ------------------------------------------------------------------------------
 */

static size_t lower_bound(const ear_world *w, ear_body_id body) {
    size_t lo = 0, hi = w->entry_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (w->entries[mid].body < body)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static ear__entry *find(const ear_world *w, ear_body_id body) {
    size_t i = lower_bound(w, body);
    return i < w->entry_count && w->entries[i].body == body ? &w->entries[i] : NULL;
}

/* The entry of a body, made when it has none (NULL when out of memory). Pointers into
 * the array are invalidated by the next call that adds. */
static ear__entry *ensure(ear_world *w, ear_body_id body) {
    size_t i = lower_bound(w, body);
    if (i < w->entry_count && w->entries[i].body == body) return &w->entries[i];
    if (w->entry_count == w->entry_cap) {
        size_t cap = w->entry_cap ? w->entry_cap * 2 : 16;
        ear__entry *grown = realloc(w->entries, cap * sizeof *grown);
        if (!grown) return NULL;
        w->entries = grown;
        w->entry_cap = cap;
    }
    memmove(&w->entries[i + 1], &w->entries[i], (w->entry_count - i) * sizeof *w->entries);
    w->entry_count++;
    ear__entry *e = &w->entries[i];
    memset(e, 0, sizeof *e);
    e->body = body;
    return e;
}

static bool entry_unused(const ear__entry *e) {
    return !e->has_source && !e->has_listener && !e->has_impact && !e->has_vehicle &&
           !e->followed && e->attached == 0 && e->src.voice == EAR_VOICE_NONE &&
           e->engine == EAR_VOICE_NONE;
}

static void drop_entry_at(ear_world *w, size_t i) {
    memmove(&w->entries[i], &w->entries[i + 1], (w->entry_count - i - 1) * sizeof *w->entries);
    w->entry_count--;
}

static void drop_if_unused(ear_world *w, ear_body_id body) {
    size_t i = lower_bound(w, body);
    if (i < w->entry_count && w->entries[i].body == body && entry_unused(&w->entries[i]))
        drop_entry_at(w, i);
}

/* ---- sources
 * --------------------------------------------------------------------------------- */

static bool attenuation_ok(const ear_attenuation *a) {
    return nonneg(a->ref_distance_m) && nonneg(a->max_distance_m) && nonneg(a->rolloff) &&
           a->model >= EAR_MODEL_DEFAULT && a->model <= EAR_MODEL_FADE;
}

static bool source_ok(const ear_source *s) {
    if (!s->sound[0] && !s->blend[0]) return false;
    if (!nonneg(s->volume) || !nonneg(s->pitch) || !nonneg(s->doppler) ||
        !nonneg(s->smoothing_ms) || !nonneg(s->loop_crossfade_ms) || !nonneg(s->reverb_send))
        return false;
    if (!attenuation_ok(&s->attenuation)) return false;
    if (!nonneg(s->cone.inner_angle_rad) || !nonneg(s->cone.outer_angle_rad) ||
        !nonneg(s->cone.outer_gain))
        return false;
    if (s->bus < 0 || s->bus >= EAR_BUS_COUNT) return false;
    if (s->param_count > EAR_BLEND_MAX_PARAMS || s->drive_count > EAR_WORLD_MAX_DRIVES)
        return false;
    for (uint32_t i = 0; i < s->param_count; i++)
        if (!isfinite(s->params[i].value) || !s->params[i].name[0]) return false;
    for (uint32_t i = 0; i < s->drive_count; i++)
        if (!isfinite(s->drive[i].scale) || !isfinite(s->drive[i].offset) ||
            !s->drive[i].param[0])
            return false;
    return true;
}

static bool body_ok(const ear_world *w, ear_body_id body) {
    return ear_body_exists(w->config.physics, body);
}

ear_result ear_world_set_source(ear_world *w, ear_body_id body, const ear_source *source) {
    if (!w || !source) return EAR_E_INVALID_ARG;
    if (!source_ok(source)) {
        ear_log(EAR_LOG_WARN, MODULE, "refused a source: %s",
                !source->sound[0] && !source->blend[0] ? "it names neither sound nor blend"
                                                       : "a number is negative or not finite");
        return EAR_E_INVALID_ARG;
    }
    if (!body_ok(w, body)) return EAR_E_STALE_ID;
    ear__entry *e = ensure(w, body);
    if (!e) return EAR_E_OUT_OF_MEMORY;
    bool was_playing = e->has_source && e->src.want.play;
    /* A source held by a pause resumes where it was only as the same sound. */
    if (strcmp(source->sound, e->src.want.sound) != 0 ||
        strcmp(source->blend, e->src.want.blend) != 0)
        e->src.held = false;
    if (source->play && !was_playing) e->src.trigger = true;
    if (!source->play) e->src.trigger = false;
    e->src.want = *source;
    e->src.want.sound[sizeof e->src.want.sound - 1] = '\0';
    e->src.want.blend[sizeof e->src.want.blend - 1] = '\0';
    e->src.failed = false;
    e->has_source = true;
    return EAR_OK;
}

ear_result ear_world_get_source(const ear_world *w, ear_body_id body, ear_source *out) {
    if (!w || !out) return EAR_E_INVALID_ARG;
    const ear__entry *e = find(w, body);
    if (!e || !e->has_source) return EAR_E_NOT_FOUND;
    *out = e->src.want;
    return EAR_OK;
}

ear_result ear_world_set_play(ear_world *w, ear_body_id body, bool play) {
    if (!w) return EAR_E_INVALID_ARG;
    ear__entry *e = find(w, body);
    if (!e || !e->has_source) return EAR_E_NOT_FOUND;
    if (play && !e->src.want.play) e->src.trigger = true;
    if (!play) e->src.trigger = false;
    e->src.want.play = play;
    return EAR_OK;
}

ear_result ear_world_remove_source(ear_world *w, ear_body_id body) {
    if (!w) return EAR_E_INVALID_ARG;
    ear__entry *e = find(w, body);
    if (!e || !e->has_source) return EAR_E_NOT_FOUND;
    stop_voice(w, &e->src.voice, w->config.stop_fade_s);
    e->src.held = false;
    e->has_source = false;
    drop_if_unused(w, body);
    return EAR_OK;
}

ear_voice_id ear_world_source_voice(const ear_world *w, ear_body_id body) {
    const ear__entry *e = w ? find(w, body) : NULL;
    return e && e->has_source ? e->src.voice : EAR_VOICE_NONE;
}

float ear_world_source_occlusion(const ear_world *w, ear_body_id body) {
    const ear__entry *e = w ? find(w, body) : NULL;
    return e && e->has_source ? e->src.occ_target : 0.0f;
}

/* ---- listener, impact, vehicle components ------------------------------------------------ */

ear_result ear_world_set_listener(ear_world *w, ear_body_id body,
                                  const ear_listener_component *listener) {
    if (!w || !listener || !nonneg(listener->volume)) return EAR_E_INVALID_ARG;
    if (!body_ok(w, body)) return EAR_E_STALE_ID;
    ear__entry *e = ensure(w, body);
    if (!e) return EAR_E_OUT_OF_MEMORY;
    e->listener = *listener;
    e->has_listener = true;
    return EAR_OK;
}

ear_result ear_world_remove_listener(ear_world *w, ear_body_id body) {
    if (!w) return EAR_E_INVALID_ARG;
    ear__entry *e = find(w, body);
    if (!e || !e->has_listener) return EAR_E_NOT_FOUND;
    e->has_listener = false;
    drop_if_unused(w, body);
    return EAR_OK;
}

ear_body_id ear_world_ear(const ear_world *w) {
    return w && w->have_ear ? w->ear : EAR_BODY_NONE;
}

ear_result ear_world_set_impact(ear_world *w, ear_body_id body, const ear_impact *impact) {
    if (!w || !impact) return EAR_E_INVALID_ARG;
    if ((!impact->sound[0] && !impact->pool[0]) || !nonneg(impact->min_speed_mps) ||
        !nonneg(impact->full_speed_mps) || !nonneg(impact->volume) ||
        !nonneg(impact->cooldown_s) || !nonneg(impact->duck_hold_s) ||
        !nonneg(impact->duck_min_speed_mps) || !attenuation_ok(&impact->attenuation) ||
        !nonneg(impact->reverb_send) || impact->bus < 0 || impact->bus >= EAR_BUS_COUNT)
        return EAR_E_INVALID_ARG;
    if (!body_ok(w, body)) return EAR_E_STALE_ID;
    ear__entry *e = ensure(w, body);
    if (!e) return EAR_E_OUT_OF_MEMORY;
    e->impact = *impact;
    e->has_impact = true;
    return EAR_OK;
}

ear_result ear_world_remove_impact(ear_world *w, ear_body_id body) {
    if (!w) return EAR_E_INVALID_ARG;
    ear__entry *e = find(w, body);
    if (!e || !e->has_impact) return EAR_E_NOT_FOUND;
    e->has_impact = false;
    drop_if_unused(w, body);
    return EAR_OK;
}

ear_result ear_world_set_vehicle_sound(ear_world *w, ear_body_id body,
                                       const ear_vehicle_sound *sound) {
    if (!w || !sound || !nonneg(sound->volume) || !nonneg(sound->idle_pitch) ||
        !nonneg(sound->max_pitch) || !nonneg(sound->crash_full_speed_mps) ||
        !attenuation_ok(&sound->attenuation) || sound->bus < 0 || sound->bus >= EAR_BUS_COUNT)
        return EAR_E_INVALID_ARG;
    if (!body_ok(w, body)) return EAR_E_STALE_ID;
    ear__entry *e = ensure(w, body);
    if (!e) return EAR_E_OUT_OF_MEMORY;
    bool engine_changed = !e->has_vehicle || strcmp(e->vsound.engine, sound->engine) != 0 ||
                          strcmp(e->vsound.blend, sound->blend) != 0 ||
                          e->vsound.bus != sound->bus;
    if (engine_changed) stop_voice(w, &e->engine, w->config.engine_fade_s);
    e->vsound = *sound;
    e->has_vehicle = true;
    e->engine_failed = false;
    e->engine_sent_valid = false;
    return EAR_OK;
}

ear_result ear_world_remove_vehicle_sound(ear_world *w, ear_body_id body) {
    if (!w) return EAR_E_INVALID_ARG;
    ear__entry *e = find(w, body);
    if (!e || !e->has_vehicle) return EAR_E_NOT_FOUND;
    stop_voice(w, &e->engine, w->config.engine_fade_s);
    e->has_vehicle = false;
    drop_if_unused(w, body);
    return EAR_OK;
}

ear_voice_id ear_world_engine_voice(const ear_world *w, ear_body_id body) {
    const ear__entry *e = w ? find(w, body) : NULL;
    return e ? e->engine : EAR_VOICE_NONE;
}

/* ---- shortcuts -------------------------------------------------------------------------- */

ear_result ear_world_follow(ear_world *w, ear_body_id body) {
    if (!w) return EAR_E_INVALID_ARG;
    if (body != EAR_BODY_NONE && !body_ok(w, body)) return EAR_E_STALE_ID;
    if (w->follow != EAR_BODY_NONE) {
        ear__entry *old = find(w, w->follow);
        if (old) old->followed = false;
        drop_if_unused(w, w->follow);
    }
    w->follow = EAR_BODY_NONE;
    if (body == EAR_BODY_NONE) return EAR_OK;
    ear__entry *e = ensure(w, body);
    if (!e) return EAR_E_OUT_OF_MEMORY;
    e->followed = true;
    w->follow = body;
    return EAR_OK;
}

ear_result ear_world_attach(ear_world *w, const char *name, ear_body_id body,
                            const ear_play *params, ear_voice_id *out_voice) {
    if (out_voice) *out_voice = EAR_VOICE_NONE;
    if (!w || !name) return EAR_E_INVALID_ARG;
    if (!body_ok(w, body)) return EAR_E_STALE_ID;
    if (w->attached_count == w->attached_cap) {
        size_t cap = w->attached_cap ? w->attached_cap * 2 : 16;
        ear__attached *grown = realloc(w->attached, cap * sizeof *grown);
        if (!grown) return EAR_E_OUT_OF_MEMORY;
        w->attached = grown;
        w->attached_cap = cap;
    }
    ear__entry *e = ensure(w, body);
    if (!e) return EAR_E_OUT_OF_MEMORY;
    if (!ear__read_body(w, e, 0.0)) return EAR_E_STALE_ID;
    ear_play p;
    if (params)
        p = *params;
    else
        memset(&p, 0, sizeof p);
    float volume = p.volume == 0.0f ? 1.0f : p.volume;
    p.placed = true;
    p.position = e->info.desc.position_m;
    p.velocity = e->velocity;
    bool silenced = !w->have_ear;
    if (silenced) p.volume = -1.0f;
    ear_voice_id v = EAR_VOICE_NONE;
    ear_result r = ear_assets_play(w->config.assets, w->config.stage, name, &p, &v);
    if (r != EAR_OK) {
        drop_if_unused(w, body);
        return r;
    }
    w->stats.started++;
    e->attached++;
    w->attached[w->attached_count++] = (ear__attached){
        .body = body,
        .voice = v,
        .volume = volume,
        .silenced = silenced,
        .sent_pos = p.position,
        .sent_vel = p.velocity,
    };
    if (out_voice) *out_voice = v;
    return EAR_OK;
}

size_t ear_world_attached_count(const ear_world *w) {
    return w ? w->attached_count : 0;
}

bool ear_world_once(ear_world *w, const char *name) {
    if (!w || !name) return false;
    for (size_t i = 0; i < w->once_count; i++)
        if (strcmp(w->once[i], name) == 0) return false;
    if (w->once_count == w->once_cap) {
        size_t cap = w->once_cap ? w->once_cap * 2 : 16;
        char **grown = realloc(w->once, cap * sizeof *grown);
        if (!grown) return true; /* said, not remembered */
        w->once = grown;
        w->once_cap = cap;
    }
    size_t n = strlen(name) + 1;
    char *copy = malloc(n);
    if (!copy) return true;
    memcpy(copy, name, n);
    w->once[w->once_count++] = copy;
    return true;
}

/* ---- fire-and-forget ------------------------------------------------------------------- */

ear_world_event_id ear_world_play_event(ear_world *w, const char *name, ear_vec3 position_m,
                                        const ear_event_params *params) {
    if (!w || !name || !name[0] || strlen(name) >= EAR_SOUND_NAME_MAX ||
        !ear_vec3_is_finite(position_m)) {
        ear_log(EAR_LOG_WARN, MODULE, "ignored a sound event with a bad name or position");
        return 0;
    }
    if (w->event_count == w->event_cap) {
        size_t cap = w->event_cap ? w->event_cap * 2 : 16;
        ear__event *grown = realloc(w->events, cap * sizeof *grown);
        if (!grown) {
            ear_log(EAR_LOG_WARN, MODULE, "out of memory: the sound event '%s' is lost", name);
            return 0;
        }
        w->events = grown;
        w->event_cap = cap;
    }
    ear__event *ev = &w->events[w->event_count++];
    memset(ev, 0, sizeof *ev);
    ev->id = ++w->next_event_id;
    copy_name(ev->name, sizeof ev->name, name);
    ev->position = position_m;
    if (params) ev->params = *params;
    return ev->id;
}

/* Removes queued event i, keeping the others in the order they were queued. */
static void drop_event_at(ear_world *w, size_t i) {
    memmove(&w->events[i], &w->events[i + 1], (w->event_count - i - 1) * sizeof *w->events);
    w->event_count--;
    w->stats.events_cancelled++;
}

ear_result ear_world_cancel_event(ear_world *w, ear_world_event_id id) {
    if (!w) return EAR_E_INVALID_ARG;
    for (size_t i = 0; id != 0 && i < w->event_count; i++) {
        if (w->events[i].id != id) continue;
        drop_event_at(w, i);
        return EAR_OK;
    }
    return EAR_E_NOT_FOUND;
}

size_t ear_world_cancel_events_of(ear_world *w, uint64_t owner) {
    if (!w || owner == 0) return 0;
    size_t n = 0;
    for (size_t i = 0; i < w->event_count;) {
        if (w->events[i].params.owner == owner) {
            drop_event_at(w, i);
            n++;
        } else {
            i++;
        }
    }
    return n;
}

size_t ear_world_queued_events(const ear_world *w) {
    return w ? w->event_count : 0;
}

/* ---- pause ------------------------------------------------------------------------------ */

static void set_attached_volume(ear_world *w, ear__attached *a, bool silence) {
    if (silence != a->silenced &&
        ear_stage_set_volume(w->config.stage, a->voice, silence ? -1.0f : a->volume) == EAR_OK)
        a->silenced = silence;
}

void ear_world_set_paused(ear_world *w, bool paused) {
    if (!w || w->paused == paused) return;
    w->paused = paused;
    if (!paused) return; /* the next sync restarts what was held */
    ear_stage *st = w->config.stage;
    for (size_t i = 0; i < w->entry_count; i++) {
        ear__entry *e = &w->entries[i];
        ear__src *s = &e->src;
        if (s->voice != EAR_VOICE_NONE && ear_stage_is_playing(st, s->voice)) {
            uint64_t at = 0;
            (void)ear_stage_get_cursor(st, s->voice, &at);
            stop_voice(w, &s->voice, w->config.stop_fade_s);
            s->held = true;
            s->held_frame = at;
        }
        stop_voice(w, &e->engine, w->config.engine_fade_s);
    }
    for (size_t k = 0; k < w->attached_count; k++)
        set_attached_volume(w, &w->attached[k], true);
}

bool ear_world_paused(const ear_world *w) {
    return w && w->paused;
}

static void say_no_ear(ear_world *w) {
    if (w->said_no_ear) return;
    w->said_no_ear = true;
    ear_log(EAR_LOG_WARN, MODULE,
            "no listener: placed sounds are silent until a body has an enabled listener "
            "(or the world follows one)");
}

/* Plays a one-shot now: a pool by that name if the stage has one, else a sound. */
static void play_now(ear_world *w, const char *name, bool is_pool, ear_vec3 pos,
                     const ear_event_params *ep) {
    ear_play p;
    memset(&p, 0, sizeof p);
    p.volume = ep->volume > 0.0f ? ep->volume : (ep->volume < 0.0f ? -1.0f : 1.0f);
    p.pitch = ep->pitch;
    p.bus = ep->bus;
    p.priority = ep->priority;
    p.attenuation = ep->attenuation;
    p.reverb_send = ep->reverb_send;
    p.placed = !ep->flat;
    p.position = pos;
    if (p.placed) {
        if (!w->have_ear) {
            say_no_ear(w);
            w->stats.events_dropped++;
            return;
        }
        if (ear_attenuation_silent_at(&p.attenuation,
                                      ear_vec3_length(ear_vec3_sub(pos, w->ear_pos)))) {
            w->stats.events_dropped++;
            return;
        }
    }
    if (is_pool) {
        ear_result r = ear_stage_play_pool(w->config.stage, name, &p, NULL);
        if (r == EAR_OK) w->stats.started++;
        if (r != EAR_E_NOT_FOUND) return;
    }
    ear_clip *clip = NULL;
    if (ear_assets_get(w->config.assets, name, &clip) != EAR_OK) return; /* warned once */
    bool dropped = false;
    if (ear_stage_play_event(w->config.stage, clip, &p, &dropped) == EAR_OK) {
        if (dropped)
            w->stats.events_dropped++;
        else
            w->stats.started++;
    }
}

/* ---- one sync ---------------------------------------------------------------------------- */

/* 1. Bodies that are gone: their voices stop with the ramp, their entries go. */
static void drop_gone(ear_world *w, double dt_s) {
    for (size_t i = 0; i < w->entry_count;) {
        ear__entry *e = &w->entries[i];
        if (ear__read_body(w, e, dt_s)) {
            i++;
            continue;
        }
        stop_voice(w, &e->src.voice, w->config.stop_fade_s);
        stop_voice(w, &e->engine, w->config.engine_fade_s);
        for (size_t k = 0; k < w->attached_count;) {
            if (w->attached[k].body == e->body) {
                stop_voice(w, &w->attached[k].voice, w->config.stop_fade_s);
                w->attached[k] = w->attached[--w->attached_count];
            } else {
                k++;
            }
        }
        if (w->follow == e->body) w->follow = EAR_BODY_NONE;
        drop_entry_at(w, i);
    }
}

static bool vec_eq(ear_vec3 a, ear_vec3 b) {
    return a.x == b.x && a.y == b.y && a.z == b.z;
}

/* 2. The ear. */
static void sync_ear(ear_world *w) {
    ear__entry *ear = w->follow != EAR_BODY_NONE ? find(w, w->follow) : NULL;
    float gain = 1.0f;
    if (ear && !ear->info_valid) ear = NULL;
    if (ear) {
        /* A followed body with a listener of its own brings its volume. */
        if (ear->has_listener) gain = ear->listener.volume;
    } else {
        for (size_t i = 0; i < w->entry_count; i++) {
            ear__entry *e = &w->entries[i];
            if (!e->has_listener || !e->listener.enabled || !e->info_valid) continue;
            if (!ear || e->info.index < ear->info.index) ear = e;
        }
        if (ear) gain = ear->listener.volume;
    }
    w->have_ear = ear != NULL;
    w->ear = ear ? ear->body : EAR_BODY_NONE;
    if (!ear) gain = 1.0f; /* the master gain belongs to the ear */
    if (!w->master_sent || gain != w->sent_master) {
        ear_stage_set_master_gain(w->config.stage, gain);
        w->sent_master = gain;
        w->master_sent = true;
    }
    if (!ear) return;
    const ear_body_desc *d = &ear->info.desc;
    ear_listener l = {
        .position = d->position_m,
        .velocity = ear->velocity,
        .forward = ear_forward_from_facing(d->facing_deg, d->pitch_deg),
        .up = ear_forward_from_facing(d->facing_deg, d->pitch_deg + 90.0f),
    };
    w->ear_pos = l.position;
    if (w->listener_sent && vec_eq(l.position, w->sent_listener.position) &&
        vec_eq(l.velocity, w->sent_listener.velocity) &&
        vec_eq(l.forward, w->sent_listener.forward) && vec_eq(l.up, w->sent_listener.up))
        return;
    if (ear_stage_set_listener(w->config.stage, &l) == EAR_OK) {
        w->sent_listener = l;
        w->listener_sent = true;
    }
}

/* 3. The physics events of the steps since the last sync. */
static void hit(ear_world *w, ear__entry *e, const ear_physics_event *ev, double t) {
    const ear_impact *im = &e->impact;
    if (!(ev->speed_mps >= im->min_speed_mps) || ev->speed_mps <= 0.0f) return;
    if (e->hit_before && t - e->last_hit_s < (double)im->cooldown_s - 1e-9) {
        w->stats.impacts_cooled++;
        return;
    }
    e->hit_before = true;
    e->last_hit_s = t;
    ear_event_params p = {
        .volume = ear_impact_volume(im, ev->speed_mps),
        .bus = im->bus,
        .attenuation = im->attenuation,
        .priority = im->priority,
        .reverb_send = im->reverb_send,
    };
    if (p.volume <= 0.0f) p.volume = -1.0f;
    w->stats.impacts++;
    play_now(w, im->pool[0] ? im->pool : im->sound, im->pool[0] != 0, ev->point_m, &p);
    float duck_min =
        im->duck_min_speed_mps > 0.0f ? im->duck_min_speed_mps : im->full_speed_mps;
    if (im->duck[0] && ev->speed_mps >= duck_min) {
        if (ear_stage_trigger_duck(w->config.stage, im->duck, im->duck_hold_s) == EAR_OK)
            w->stats.ducks++;
        else
            ear_log(EAR_LOG_WARN, MODULE,
                    "an impact asked for the ducking rule '%s', "
                    "which the stage does not have",
                    im->duck);
    }
}

static void vehicle_event(ear_world *w, ear__entry *e, const ear_physics_event *ev) {
    const ear_vehicle_sound *vs = &e->vsound;
    ear_event_params p = {
        .volume = vs->volume, .bus = EAR_BUS_SFX, .attenuation = vs->attenuation};
    if (ev->type == EAR_PHYS_GEAR_CHANGED && vs->shift[0]) {
        play_now(w, vs->shift, false, e->info.desc.position_m, &p);
    } else if (ev->type == EAR_PHYS_CRASHED && vs->crash[0]) {
        p.volume = vs->volume * hit_line(ev->speed_mps, 0.5f, vs->crash_full_speed_mps);
        if (p.volume <= 0.0f) return;
        play_now(w, vs->crash, false, ev->point_m, &p);
    }
}

static void sync_events(ear_world *w) {
    const ear_physics *ph = w->config.physics;
    uint64_t steps = ear_physics_steps(ph);
    if (steps < w->next_event_step) w->next_event_step = 0; /* the physics was cleared */
    double step_s = steps ? ear_physics_time_s(ph) / (double)steps : 0.0;
    size_t n = 0;
    const ear_physics_event *evs = ear_physics_events(ph, &n);
    for (size_t i = 0; i < n; i++) {
        const ear_physics_event *ev = &evs[i];
        if (ev->step < w->next_event_step) continue;
        double t = (double)(ev->step + 1) * step_s;
        if (ev->type == EAR_PHYS_COLLISION_STARTED) {
            ear__entry *a = find(w, ev->body);
            if (a && a->has_impact && a->info_valid) hit(w, a, ev, t);
            ear__entry *b = find(w, ev->other);
            if (b && b->has_impact && b->info_valid) hit(w, b, ev, t);
        } else if (ev->type == EAR_PHYS_GEAR_CHANGED || ev->type == EAR_PHYS_CRASHED) {
            ear__entry *a = find(w, ev->body);
            if (a && a->has_vehicle && a->info_valid) vehicle_event(w, a, ev);
        }
    }
    w->next_event_step = steps;
}

/* 4. Sources. */

/* Fields whose change restarts the voice from its start. */
static bool restart_fields_differ(const ear_source *a, const ear_source *b) {
    return strcmp(a->sound, b->sound) != 0 || strcmp(a->blend, b->blend) != 0 ||
           a->bus != b->bus || a->looping != b->looping || a->spatial != b->spatial ||
           a->random_start != b->random_start || a->loop_crossfade_ms != b->loop_crossfade_ms;
}

/* Fields the stage cannot change on a live voice: a change restarts it where it was. */
static bool fixed_fields_differ(const ear_source *a, const ear_source *b) {
    return memcmp(&a->attenuation, &b->attenuation, sizeof a->attenuation) != 0 ||
           memcmp(&a->cone, &b->cone, sizeof a->cone) != 0 || a->doppler != b->doppler ||
           a->priority != b->priority || a->smoothing_ms != b->smoothing_ms;
}

static float heard_volume(const ear_world *w, float volume, bool spatial) {
    if (spatial && !w->have_ear) return -1.0f;
    return volume > 0.0f ? volume : -1.0f; /* -1: silence (0 would mean 1 in ear_play) */
}

static void send_param(ear_world *w, ear__src *s, const char *name, float value) {
    for (uint32_t i = 0; i < s->sent_param_count; i++) {
        if (strcmp(s->sent_params[i].name, name) != 0) continue;
        if (s->sent_params[i].value == value) return;
        if (ear_stage_set_param(w->config.stage, s->voice, name, value) == EAR_OK)
            s->sent_params[i].value = value;
        return;
    }
    if (ear_stage_set_param(w->config.stage, s->voice, name, value) != EAR_OK) return;
    if (s->sent_param_count < EAR__WORLD_SENT_PARAMS) {
        copy_name(s->sent_params[s->sent_param_count].name, EAR_NAME_MAX, name);
        s->sent_params[s->sent_param_count++].value = value;
    }
}

static void source_params(ear_world *w, ear__entry *e) {
    ear__src *s = &e->src;
    if (!s->want.blend[0]) return;
    for (uint32_t i = 0; i < s->want.param_count; i++)
        send_param(w, s, s->want.params[i].name, s->want.params[i].value);
    for (uint32_t i = 0; i < s->want.drive_count; i++) {
        const ear_drive *d = &s->want.drive[i];
        float v;
        if (!ear__drive_value(w, e, d->from, &v)) continue; /* leaves the parameter alone */
        v = v * d->scale + d->offset;
        if (isfinite(v)) send_param(w, s, d->param, v);
    }
}

static float occlusion_of(ear_world *w, const ear__entry *e) {
    if (!e->src.want.occlusion || !e->src.want.spatial || !w->have_ear) return 0.0f;
    ear_body_id ignore[2] = {e->body, w->ear};
    ear_ray_options o = {.ignore = ignore, .ignore_count = 2};
    size_t count = 0;
    w->stats.rays++;
    if (ear_physics_ray_cast_all(w->config.physics, w->ear_pos, e->info.desc.position_m, &o,
                                 NULL, 0, &count) != EAR_OK)
        return 0.0f;
    float occ = (float)count * w->config.occlusion_per_body;
    return occ > 1.0f ? 1.0f : occ;
}

static void start_source(ear_world *w, ear__entry *e, uint64_t start_frame) {
    ear__src *s = &e->src;
    const ear_source *src = &s->want;
    const ear_body_desc *d = &e->info.desc;
    if (src->spatial && !w->have_ear) say_no_ear(w);
    ear_play p;
    memset(&p, 0, sizeof p);
    p.looping = src->looping;
    p.placed = src->spatial;
    p.no_doppler = !(src->doppler > 0.0f);
    p.volume = heard_volume(w, src->volume, src->spatial);
    p.pitch = src->pitch > 0.0f ? src->pitch : 1.0f;
    p.position = d->position_m;
    p.velocity = e->velocity;
    if (src->cone.outer_angle_rad > 0.0f)
        p.forward = ear_forward_from_facing(d->facing_deg, d->pitch_deg);
    p.attenuation = src->attenuation;
    p.cone = src->cone;
    p.doppler_factor = src->doppler;
    p.smoothing_ms = src->smoothing_ms;
    p.loop_crossfade_s = src->loop_crossfade_ms / 1000.0f;
    p.occlusion = s->occ_target;
    p.reverb_send = src->reverb_send;
    p.bus = src->bus;
    p.priority = src->priority;
    p.start_frame = start_frame;
    ear_voice_id v = EAR_VOICE_NONE;
    ear_result r;
    if (src->blend[0]) {
        r = ear_assets_play_blend(w->config.assets, w->config.stage, src->blend, &p, &v);
    } else {
        if (src->random_start && src->looping && start_frame == 0) {
            ear_clip *clip = NULL;
            if (ear_assets_get(w->config.assets, src->sound, &clip) == EAR_OK) {
                uint64_t frames = ear_clip_frames(clip);
                p.start_frame =
                    ear_rng_below(&w->rng, frames > UINT32_MAX ? UINT32_MAX : (uint32_t)frames);
            }
        }
        r = ear_assets_play(w->config.assets, w->config.stage, src->sound, &p, &v);
    }
    s->trigger = false;
    s->started_as = *src;
    if (r != EAR_OK) {
        s->failed = true; /* warned once by the assets; not retried until set again */
        if (!src->looping && !src->blend[0]) s->want.play = false;
        return;
    }
    w->stats.started++;
    s->voice = v;
    s->sent_valid = true;
    s->sent_pos = p.position;
    s->sent_vel = p.velocity;
    s->sent_fwd = p.forward;
    s->sent_volume = p.volume;
    s->sent_pitch = p.pitch;
    s->sent_occ = p.occlusion;
    s->sent_send = p.reverb_send;
    s->sent_param_count = 0;
    source_params(w, e);
}

static void sync_source(ear_world *w, ear__entry *e) {
    ear__src *s = &e->src;
    ear_stage *st = w->config.stage;
    bool one_shot = !s->want.looping && !s->want.blend[0];
    if (s->voice != EAR_VOICE_NONE && !ear_stage_is_playing(st, s->voice)) {
        s->voice = EAR_VOICE_NONE; /* ended by itself (a one-shot's end, or stolen) */
        if (one_shot) s->want.play = false;
    }
    uint64_t resume_at = 0;
    if (s->held) {
        /* Held by a pause: it goes on where it was (a one-shot too, mid-clip). */
        s->held = false;
        if (s->want.play && s->voice == EAR_VOICE_NONE) {
            resume_at = s->held_frame;
            s->trigger = true;
        }
    }
    if (s->voice != EAR_VOICE_NONE) {
        if (restart_fields_differ(&s->want, &s->started_as)) {
            stop_voice(w, &s->voice, w->config.stop_fade_s);
            if (s->want.play) s->trigger = true;
        } else if (fixed_fields_differ(&s->want, &s->started_as)) {
            (void)ear_stage_get_cursor(st, s->voice, &resume_at);
            stop_voice(w, &s->voice, w->config.stop_fade_s);
            if (s->want.play) s->trigger = true;
        }
    }
    if (!s->want.play) {
        stop_voice(w, &s->voice, w->config.stop_fade_s);
    }
    s->occ_target = occlusion_of(w, e);
    if (s->want.play && s->voice == EAR_VOICE_NONE) {
        if (!s->failed && (!one_shot || s->trigger)) start_source(w, e, resume_at);
        return;
    }
    if (s->voice == EAR_VOICE_NONE) return;
    /* The live fields: only what changed is sent. */
    const ear_body_desc *d = &e->info.desc;
    float vol = heard_volume(w, s->want.volume, s->want.spatial);
    if (vol != s->sent_volume && ear_stage_set_volume(st, s->voice, vol) == EAR_OK)
        s->sent_volume = vol;
    float pitch = s->want.pitch > 0.0f ? s->want.pitch : 1.0f;
    if (pitch != s->sent_pitch && ear_stage_set_pitch(st, s->voice, pitch) == EAR_OK)
        s->sent_pitch = pitch;
    if (s->want.reverb_send != s->sent_send &&
        ear_stage_set_reverb_send(st, s->voice, s->want.reverb_send) == EAR_OK)
        s->sent_send = s->want.reverb_send;
    if (s->want.spatial) {
        if ((!vec_eq(d->position_m, s->sent_pos) || !vec_eq(e->velocity, s->sent_vel)) &&
            ear_stage_set_motion(st, s->voice, d->position_m, e->velocity) == EAR_OK) {
            s->sent_pos = d->position_m;
            s->sent_vel = e->velocity;
        }
        if (s->want.cone.outer_angle_rad > 0.0f) {
            ear_vec3 f = ear_forward_from_facing(d->facing_deg, d->pitch_deg);
            if (!vec_eq(f, s->sent_fwd) && ear_stage_set_forward(st, s->voice, f) == EAR_OK)
                s->sent_fwd = f;
        }
    }
    if (s->occ_target != s->sent_occ &&
        ear_stage_set_occlusion(st, s->voice, s->occ_target) == EAR_OK)
        s->sent_occ = s->occ_target;
    source_params(w, e);
}

/* 5. Vehicles' engine loops. */
static void sync_engine(ear_world *w, ear__entry *e) {
    ear_stage *st = w->config.stage;
    const ear_vehicle_sound *vs = &e->vsound;
    if (e->engine != EAR_VOICE_NONE && !ear_stage_is_playing(st, e->engine))
        e->engine = EAR_VOICE_NONE;
    ear_vehicle_state vst;
    bool running = ear_vehicle_get_state(w->config.physics, e->body, &vst) == EAR_OK &&
                   vst.engine_on && (vs->engine[0] || vs->blend[0]);
    if (!running) {
        stop_voice(w, &e->engine, w->config.engine_fade_s);
        return;
    }
    float idle = vst.config.idle_rpm, max = vst.config.max_rpm;
    float t = max > idle ? (vst.rpm - idle) / (max - idle) : 0.0f;
    float pitch = vs->blend[0] ? 1.0f : vs->idle_pitch + (vs->max_pitch - vs->idle_pitch) * t;
    if (!(pitch > 0.0f)) pitch = 1.0f / 256.0f;
    float vol = heard_volume(w, vs->volume, true);
    ear_vec3 pos = e->info.desc.position_m;
    if (e->engine == EAR_VOICE_NONE) {
        if (e->engine_failed) return;
        ear_play p;
        memset(&p, 0, sizeof p);
        p.looping = true;
        p.placed = true;
        p.volume = vol;
        p.pitch = pitch;
        p.position = pos;
        p.velocity = e->velocity;
        p.attenuation = vs->attenuation;
        p.bus = vs->bus;
        if (!w->have_ear) say_no_ear(w);
        ear_result r =
            vs->blend[0]
                ? ear_assets_play_blend(w->config.assets, st, vs->blend, &p, &e->engine)
                : ear_assets_play(w->config.assets, st, vs->engine, &p, &e->engine);
        if (r != EAR_OK) {
            e->engine = EAR_VOICE_NONE;
            e->engine_failed = true;
            return;
        }
        w->stats.started++;
        e->engine_sent_valid = true;
        e->engine_pos = pos;
        e->engine_vel = e->velocity;
        e->engine_pitch = pitch;
        e->engine_volume = vol;
        e->engine_rpm = e->engine_load = NAN;
    } else {
        if ((!vec_eq(pos, e->engine_pos) || !vec_eq(e->velocity, e->engine_vel)) &&
            ear_stage_set_motion(st, e->engine, pos, e->velocity) == EAR_OK) {
            e->engine_pos = pos;
            e->engine_vel = e->velocity;
        }
        if (vol != e->engine_volume && ear_stage_set_volume(st, e->engine, vol) == EAR_OK)
            e->engine_volume = vol;
        if (!vs->blend[0] && pitch != e->engine_pitch &&
            ear_stage_set_pitch(st, e->engine, pitch) == EAR_OK)
            e->engine_pitch = pitch;
    }
    if (vs->blend[0]) {
        if (vs->rpm_param[0] && vst.rpm != e->engine_rpm &&
            ear_stage_set_param(st, e->engine, vs->rpm_param, vst.rpm) == EAR_OK)
            e->engine_rpm = vst.rpm;
        if (vs->load_param[0] && vst.load != e->engine_load &&
            ear_stage_set_param(st, e->engine, vs->load_param, vst.load) == EAR_OK)
            e->engine_load = vst.load;
    }
}

/* 6. Attached sounds. */
static void sync_attached(ear_world *w) {
    ear_stage *st = w->config.stage;
    for (size_t k = 0; k < w->attached_count;) {
        ear__attached *a = &w->attached[k];
        ear__entry *e = find(w, a->body);
        if (!ear_stage_is_playing(st, a->voice) || !e || !e->info_valid) {
            if (e && e->attached) e->attached--;
            ear_body_id body = a->body;
            w->attached[k] = w->attached[--w->attached_count];
            drop_if_unused(w, body);
            continue;
        }
        ear_vec3 pos = e->info.desc.position_m;
        if ((!vec_eq(pos, a->sent_pos) || !vec_eq(e->velocity, a->sent_vel)) &&
            ear_stage_set_motion(st, a->voice, pos, e->velocity) == EAR_OK) {
            a->sent_pos = pos;
            a->sent_vel = e->velocity;
        }
        set_attached_volume(w, a, !w->have_ear || w->paused);
        k++;
    }
}

/* 7. Queued fire-and-forget events. */
static void flush_events(ear_world *w) {
    for (size_t i = 0; i < w->event_count; i++) {
        ear__event *ev = &w->events[i];
        play_now(w, ev->name, true, ev->position, &ev->params);
    }
    w->event_count = 0;
}

/* Entries whose only reason to exist has gone (a removed source whose voice ended). */
static void drop_unused(ear_world *w) {
    for (size_t i = 0; i < w->entry_count;) {
        if (entry_unused(&w->entries[i]))
            drop_entry_at(w, i);
        else
            i++;
    }
}

/* A sound or blend that could not be found may be there now: when the assets loaded or
 * defined a name, or the stage registered a blend, since the last sync, the sources and
 * engines that failed try again (a looping source or a blend plays; a one-shot that
 * failed read back play false and stays so). */
static void retry_when_the_library_changed(ear_world *w) {
    ear_assets_stats as = ear_assets_get_stats(w->config.assets);
    uint64_t now =
        as.loads + as.definitions + ear_stage_get_stats(w->config.stage).blends_registered;
    if (now == w->library_seen) return;
    w->library_seen = now;
    for (size_t i = 0; i < w->entry_count; i++) {
        ear__entry *e = &w->entries[i];
        if (e->has_source && e->src.failed && e->src.want.play) {
            e->src.failed = false;
            w->stats.retries++;
        }
        if (e->has_vehicle && e->engine_failed) {
            e->engine_failed = false;
            w->stats.retries++;
        }
    }
}

ear_result ear_world_sync(ear_world *w, double dt_s) {
    if (!w || !isfinite(dt_s) || dt_s < 0) return EAR_E_INVALID_ARG;
    w->last_dt = dt_s;
    w->stats.syncs++;
    /* How long the physics stepped since the last sync: the time doppler's motion took. */
    uint64_t steps = ear_physics_steps(w->config.physics);
    double now_s = ear_physics_time_s(w->config.physics);
    w->sync_phys_dt_s = steps > w->phys_steps_seen && now_s > w->phys_time_seen_s
                            ? now_s - w->phys_time_seen_s
                            : 0.0;
    if (steps < w->phys_steps_seen) w->sync_phys_dt_s = 0.0; /* the physics was cleared */
    if (w->sync_phys_dt_s > 0) w->phys_stepped = true;
    w->phys_steps_seen = steps;
    w->phys_time_seen_s = now_s;
    drop_gone(w, dt_s);
    sync_ear(w);
    ear__world_zones_sync(w);
    retry_when_the_library_changed(w);
    if (w->paused) {
        /* Held: nothing starts; the game's changes wait for the resume. */
        drop_unused(w);
        return EAR_OK;
    }
    sync_events(w);
    for (size_t i = 0; i < w->entry_count; i++)
        if (w->entries[i].has_source) sync_source(w, &w->entries[i]);
    for (size_t i = 0; i < w->entry_count; i++)
        if (w->entries[i].has_vehicle) sync_engine(w, &w->entries[i]);
    sync_attached(w);
    flush_events(w);
    drop_unused(w);
    return EAR_OK;
}

/* ---- drawing and counts -------------------------------------------------------------------
 */

void ear_world_note_step(ear_world *w) {
    if (!w) return;
    for (size_t i = 0; i < w->entry_count; i++) {
        ear_vec3 p;
        if (ear_body_position(w->config.physics, w->entries[i].body, &p) == EAR_OK)
            ear_pose_track_note(&w->entries[i].track, p);
    }
}

ear_result ear_world_draw_position(const ear_world *w, ear_body_id body, double alpha,
                                   ear_vec3 *out_m) {
    if (!w || !out_m || !isfinite(alpha)) return EAR_E_INVALID_ARG;
    const ear__entry *e = find(w, body);
    if (!e || !e->track.valid) return EAR_E_NOT_FOUND;
    *out_m = ear_pose_track_blend(&e->track, alpha, w->config.snap_distance_m);
    return EAR_OK;
}

ear_world_stats ear_world_get_stats(const ear_world *w) {
    ear_world_stats s;
    memset(&s, 0, sizeof s);
    return w ? w->stats : s;
}
