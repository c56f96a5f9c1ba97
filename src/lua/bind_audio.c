/* SPDX-License-Identifier: Zlib */
/*
 * The audio bindings, thin over the stage and the assets (docs/lua.md, "earshot: sound"):
 * earshot.play returns a voice, a userdata holding only the stage's voice id (a handle
 * with a generation, so a voice that ended answers EAR_E_STALE_ID, never another voice's
 * sound). Units are the stage's, named: volume_db in decibels, pan -1 .. 1, pitch as a
 * rate factor, positions in metres (x east, y up, z south). The listener faces by degrees
 * clockwise from north (-Z). Buses, music, the room reverb and the spatializer follow.
 */
#include "lua_internal.h"

#include "earshot/hrtf.h"
#include "earshot/mixer.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define VOICE_MT "earshot.voice"

typedef struct lua_voice {
    ear_voice_id id;
} lua_voice;

static ear_stage *stage_of(lua_State *L) {
    return ear_ctx_stage(ear__lua_ctx(L));
}

static const char *const bus_names[] = {"sfx",    "master",   "music", "ui",
                                        "engine", "ambience", NULL};

static ear_bus check_bus(lua_State *L, int index) {
    return (ear_bus)luaL_checkoption(L, index, "sfx", bus_names);
}

static float field_number(lua_State *L, int t, const char *name, float fallback) {
    lua_getfield(L, t, name);
    float v = lua_isnil(L, -1) ? fallback : (float)luaL_checknumber(L, -1);
    lua_pop(L, 1);
    return v;
}

static bool field_bool(lua_State *L, int t, const char *name) {
    lua_getfield(L, t, name);
    bool v = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return v;
}

static float db_to_gain(double db) {
    return db <= -200 ? -1.0f : (float)pow(10.0, db / 20.0);
}

static const char *const model_names[] = {"default", "inverse", "linear", "exponential",
                                          "none",    "fade",    NULL};

static const char *const spatializer_names[] = {"default", "pan", "hrtf", NULL};

/* The play options of the table at index t (docs/lua.md, "earshot.play"): loop,
 * volume_db, pan, pitch, x, y, z (placed when any is given), bus, reverb_send, priority,
 * model, ref_distance, max_distance, rolloff, no_doppler, spatializer. */
static void read_play(lua_State *L, int t, ear_play *p) {
    memset(p, 0, sizeof *p);
    if (lua_isnoneornil(L, t)) return;
    luaL_checktype(L, t, LUA_TTABLE);
    p->looping = field_bool(L, t, "loop");
    p->volume = db_to_gain(field_number(L, t, "volume_db", 0));
    p->pan = field_number(L, t, "pan", 0);
    p->pitch = field_number(L, t, "pitch", 1);
    p->no_doppler = field_bool(L, t, "no_doppler");
    lua_getfield(L, t, "x");
    lua_getfield(L, t, "y");
    lua_getfield(L, t, "z");
    p->placed = !lua_isnil(L, -1) || !lua_isnil(L, -2) || !lua_isnil(L, -3);
    lua_pop(L, 3);
    p->position = ear_vec3_make(field_number(L, t, "x", 0), field_number(L, t, "y", 0),
                                field_number(L, t, "z", 0));
    lua_getfield(L, t, "bus");
    if (!lua_isnil(L, -1)) p->bus = check_bus(L, -1);
    lua_pop(L, 1);
    p->reverb_send = field_number(L, t, "reverb_send", 0);
    p->priority = (uint8_t)field_number(L, t, "priority", 0);
    lua_getfield(L, t, "model");
    if (!lua_isnil(L, -1))
        p->attenuation.model = (ear_distance_model)luaL_checkoption(L, -1, NULL, model_names);
    lua_pop(L, 1);
    lua_getfield(L, t, "spatializer");
    if (!lua_isnil(L, -1))
        p->spatializer = (ear_spatializer)luaL_checkoption(L, -1, NULL, spatializer_names);
    lua_pop(L, 1);
    p->attenuation.ref_distance_m = field_number(L, t, "ref_distance", 0);
    p->attenuation.max_distance_m = field_number(L, t, "max_distance", 0);
    p->attenuation.rolloff = field_number(L, t, "rolloff", 0);
}

static void push_voice(lua_State *L, ear_voice_id id) {
    lua_voice *v = lua_newuserdatauv(L, sizeof *v, 0);
    v->id = id;
    luaL_setmetatable(L, VOICE_MT);
}

/* earshot.play(name [, options]) -> voice (options: read_play's, and offset_s: where in the
 * sound to start, in seconds). */
static int l_play(lua_State *L) {
    const char *name = luaL_checkstring(L, 1);
    ear_ctx *ctx = ear__lua_ctx(L);
    ear_play p;
    read_play(L, 2, &p);
    double offset_s = 0;
    if (!lua_isnoneornil(L, 2)) {
        lua_getfield(L, 2, "offset_s");
        offset_s = lua_isnil(L, -1) ? 0 : luaL_checknumber(L, -1);
        lua_pop(L, 1);
        if (!(offset_s >= 0 && offset_s < 86400))
            return luaL_error(L,
                              "earshot.play(\"%s\"): offset_s %f: expected 0 or more seconds",
                              name, offset_s);
    }
    ear_voice_id id = EAR_VOICE_NONE;
    ear_result r = EAR_OK;
    if (offset_s > 0) {
        /* the offset counts in the clip's own frames */
        ear_clip *clip = NULL;
        r = ear_assets_get(ear_ctx_assets(ctx), name, &clip);
        if (r == EAR_OK)
            p.start_frame = (uint64_t)(offset_s * (double)ear_clip_sample_rate(clip) + 0.5);
    }
    if (r == EAR_OK)
        r = ear_assets_play(ear_ctx_assets(ctx), ear_ctx_stage(ctx), name, &p, &id);
    if (r != EAR_OK) {
        const char *why = ear_assets_last_load_error(ear_ctx_assets(ctx));
        return luaL_error(L, "earshot.play(\"%s\"): %s: %s", name, ear_result_name(r),
                          why && *why ? why : ear_result_string(r));
    }
    push_voice(L, id);
    return 1;
}

static ear_voice_id check_voice(lua_State *L) {
    return ((lua_voice *)luaL_checkudata(L, 1, VOICE_MT))->id;
}

/* Voice calls on an ended voice are no error to a game (it ended): they return false. */
static int voice_result(lua_State *L, ear_result r, const char *what) {
    if (r == EAR_OK || r == EAR_E_STALE_ID) {
        lua_pushboolean(L, r == EAR_OK);
        return 1;
    }
    return ear__lua_fail(L, r, what);
}

static int v_stop(lua_State *L) {
    ear_voice_id id = check_voice(L);
    return voice_result(L, ear_stage_stop(stage_of(L), id, (float)luaL_optnumber(L, 2, 0.005)),
                        "voice:stop");
}
static int v_playing(lua_State *L) {
    ear_voice_id id = check_voice(L);
    lua_pushboolean(L, ear_stage_is_playing(stage_of(L), id));
    return 1;
}
static int v_set_volume_db(lua_State *L) {
    ear_voice_id id = check_voice(L);
    return voice_result(
        L, ear_stage_set_volume(stage_of(L), id, db_to_gain(luaL_checknumber(L, 2))),
        "voice:set_volume_db");
}
static int v_set_pan(lua_State *L) {
    ear_voice_id id = check_voice(L);
    return voice_result(L, ear_stage_set_pan(stage_of(L), id, (float)luaL_checknumber(L, 2)),
                        "voice:set_pan");
}
static int v_set_pitch(lua_State *L) {
    ear_voice_id id = check_voice(L);
    return voice_result(L, ear_stage_set_pitch(stage_of(L), id, (float)luaL_checknumber(L, 2)),
                        "voice:set_pitch");
}
static int v_set_position(lua_State *L) {
    ear_voice_id id = check_voice(L);
    ear_vec3 p = ear_vec3_make((float)luaL_checknumber(L, 2), (float)luaL_checknumber(L, 3),
                               (float)luaL_checknumber(L, 4));
    return voice_result(L, ear_stage_set_position(stage_of(L), id, p), "voice:set_position");
}
static int v_set_reverb_send(lua_State *L) {
    ear_voice_id id = check_voice(L);
    return voice_result(
        L, ear_stage_set_reverb_send(stage_of(L), id, (float)luaL_checknumber(L, 2)),
        "voice:set_reverb_send");
}
/* voice:set_param(name, value): a blend voice's parameter. */
static int v_set_param(lua_State *L) {
    ear_voice_id id = check_voice(L);
    const char *param = luaL_checkstring(L, 2);
    return voice_result(
        L, ear_stage_set_param(stage_of(L), id, param, (float)luaL_checknumber(L, 3)),
        "voice:set_param");
}
/* voice:set_spatializer("default" | "pan" | "hrtf") */
static int v_set_spatializer(lua_State *L) {
    ear_voice_id id = check_voice(L);
    ear_spatializer sp = (ear_spatializer)luaL_checkoption(L, 2, NULL, spatializer_names);
    return voice_result(L, ear_stage_set_voice_spatializer(stage_of(L), id, sp),
                        "voice:set_spatializer");
}
static int v_tostring(lua_State *L) {
    lua_pushfstring(L, "voice %I", (lua_Integer)check_voice(L));
    return 1;
}

/* earshot.listener(x, y, z [, facing_deg]): the ears, facing clockwise from north. */
static int l_listener(lua_State *L) {
    ear_listener li = {0};
    li.position = ear_vec3_make((float)luaL_checknumber(L, 1), (float)luaL_checknumber(L, 2),
                                (float)luaL_checknumber(L, 3));
    double deg = luaL_optnumber(L, 4, 0);
    double rad = deg * 3.14159265358979323846 / 180.0;
    li.forward = ear_vec3_make((float)sin(rad), 0, (float)-cos(rad));
    li.up = ear_vec3_make(0, 1, 0);
    ear_result r = ear_stage_set_listener(stage_of(L), &li);
    if (r != EAR_OK) return ear__lua_fail(L, r, "earshot.listener");
    return 0;
}

/* earshot.music(name [, loop=true, volume_db=0, crossfade_s=1]) */
static int l_music(lua_State *L) {
    const char *name = luaL_checkstring(L, 1);
    ear_ctx *ctx = ear__lua_ctx(L);
    bool loop = lua_isnoneornil(L, 2) ? true : lua_toboolean(L, 2);
    ear_result r = ear_assets_play_music(ear_ctx_assets(ctx), ear_ctx_stage(ctx), name, loop,
                                         db_to_gain(luaL_optnumber(L, 3, 0)),
                                         (float)luaL_optnumber(L, 4, 1));
    if (r != EAR_OK) return ear__lua_fail(L, r, "earshot.music");
    return 0;
}
static int l_stop_music(lua_State *L) {
    ear_result r = ear_stage_music_stop(stage_of(L), (float)luaL_optnumber(L, 1, 1));
    if (r != EAR_OK) return ear__lua_fail(L, r, "earshot.stop_music");
    return 0;
}
static int l_bus_volume(lua_State *L) {
    ear_bus bus = check_bus(L, 1);
    ear_result r =
        ear_stage_set_bus_volume(stage_of(L), bus, db_to_gain(luaL_checknumber(L, 2)));
    if (r != EAR_OK) return ear__lua_fail(L, r, "earshot.bus_volume");
    return 0;
}
static int l_stop_all(lua_State *L) {
    ear_result r = ear_stage_stop_all(stage_of(L));
    if (r != EAR_OK) return ear__lua_fail(L, r, "earshot.stop_all");
    return 0;
}
/* earshot.reverb(preset [, transition_s]) */
static int l_reverb(lua_State *L) {
    const char *name = luaL_checkstring(L, 1);
    ear_reverb_preset preset;
    ear_reverb_params params;
    ear_result r = ear_reverb_preset_from_name(name, &preset);
    if (r == EAR_OK) r = ear_reverb_preset_params(preset, &params);
    if (r == EAR_OK)
        r = ear_stage_set_reverb(stage_of(L), &params, (float)luaL_optnumber(L, 2, 0.5));
    if (r != EAR_OK) return ear__lua_fail(L, r, "earshot.reverb");
    return 0;
}
/* earshot.spatializer("pan" | "hrtf") */
static int l_spatializer(lua_State *L) {
    ear_spatializer s = (ear_spatializer)luaL_checkoption(L, 1, NULL, spatializer_names);
    ear_result r = ear_stage_set_spatializer(stage_of(L), s);
    if (r != EAR_OK) return ear__lua_fail(L, r, "earshot.spatializer");
    return 0;
}
static int l_voices(lua_State *L) {
    lua_pushinteger(L, ear_stage_voice_count(stage_of(L)));
    return 1;
}

/* ---- the mixer: ducks, blends, pools ------------------------------------------------- */

/* Copies a name the mixer keeps in EAR_NAME_MAX bytes, or raises an error naming it. */
static void copy_name(lua_State *L, char *out, const char *name, const char *what) {
    size_t n = strlen(name);
    if (n == 0 || n >= EAR_NAME_MAX)
        luaL_error(L, "%s: the name \"%s\" is not 1..%d bytes", what, name, EAR_NAME_MAX - 1);
    memcpy(out, name, n + 1);
}

static const char *field_string(lua_State *L, int t, const char *name, const char *what) {
    lua_getfield(L, t, name);
    if (lua_type(L, -1) != LUA_TSTRING)
        luaL_error(L, "%s: the field \"%s\" must be a string", what, name);
    const char *s = lua_tostring(L, -1);
    lua_pop(L, 1); /* the table still holds the string */
    return s;
}

static ear_bus field_bus(lua_State *L, int t, const char *name, ear_bus fallback) {
    lua_getfield(L, t, name);
    ear_bus b = lua_isnil(L, -1) ? fallback : check_bus(L, -1);
    lua_pop(L, 1);
    return b;
}

/* earshot.duck{name=, trigger=, target=, gain_db=, threshold=, attack_s=, hold_s=,
 * release_s=}: adds or replaces a duck rule (zero fields: the mixer's defaults). */
static int l_duck(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    ear_duck_rule d;
    memset(&d, 0, sizeof d);
    copy_name(L, d.name, field_string(L, 1, "name", "earshot.duck"), "earshot.duck");
    d.trigger = field_bus(L, 1, "trigger", EAR_BUS_SFX);
    d.target = field_bus(L, 1, "target", EAR_BUS_MUSIC);
    d.gain_db = field_number(L, 1, "gain_db", 0);
    d.threshold = field_number(L, 1, "threshold", 0);
    d.attack_s = field_number(L, 1, "attack_s", 0);
    d.hold_s = field_number(L, 1, "hold_s", 0);
    d.release_s = field_number(L, 1, "release_s", 0);
    ear_result r = ear_stage_set_duck(stage_of(L), &d);
    if (r != EAR_OK) return ear__lua_fail(L, r, "earshot.duck");
    return 0;
}
static int l_remove_duck(lua_State *L) {
    ear_result r = ear_stage_remove_duck(stage_of(L), luaL_checkstring(L, 1));
    lua_pushboolean(L, r == EAR_OK);
    return 1;
}
/* earshot.trigger_duck(name, hold_s): holds the duck down as if its trigger sounded. */
static int l_trigger_duck(lua_State *L) {
    ear_result r = ear_stage_trigger_duck(stage_of(L), luaL_checkstring(L, 1),
                                          (float)luaL_checknumber(L, 2));
    if (r != EAR_OK) return ear__lua_fail(L, r, "earshot.trigger_duck");
    return 0;
}

/* A sound by name as a clip for a blend layer or a pool (borrowed from the cache: the
 * registration takes its own reference). */
static ear_clip *clip_named(lua_State *L, const char *name, const char *what) {
    ear_ctx *ctx = ear__lua_ctx(L);
    ear_clip *clip = NULL;
    ear_result r = ear_assets_get(ear_ctx_assets(ctx), name, &clip);
    if (r != EAR_OK) {
        const char *why = ear_assets_last_load_error(ear_ctx_assets(ctx));
        luaL_error(L, "%s: the sound \"%s\": %s: %s", what, name, ear_result_name(r),
                   why && *why ? why : ear_result_string(r));
    }
    return clip;
}

/* A list of curves at field `name` of the layer table t: { {param=, points={{x, y}, ...},
 * shape="linear"|"equal_power"}, ... } into out (at most EAR_BLEND_MAX_CURVES). */
static uint32_t read_curves(lua_State *L, int t, const char *name, ear_curve *out) {
    lua_getfield(L, t, name);
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        return 0;
    }
    luaL_checktype(L, -1, LUA_TTABLE);
    int list = lua_gettop(L);
    lua_Integer n = luaL_len(L, list);
    if (n > EAR_BLEND_MAX_CURVES)
        luaL_error(L, "earshot.blend: %d %s curves, at most %d", (int)n, name,
                   EAR_BLEND_MAX_CURVES);
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, list, i);
        luaL_checktype(L, -1, LUA_TTABLE);
        int c = lua_gettop(L);
        ear_curve *cv = &out[i - 1];
        memset(cv, 0, sizeof *cv);
        copy_name(L, cv->param, field_string(L, c, "param", "earshot.blend"), "earshot.blend");
        lua_getfield(L, c, "shape");
        if (!lua_isnil(L, -1)) {
            static const char *const shapes[] = {"linear", "equal_power", NULL};
            cv->shape = (ear_curve_shape)luaL_checkoption(L, -1, NULL, shapes);
        }
        lua_pop(L, 1);
        lua_getfield(L, c, "points");
        luaL_checktype(L, -1, LUA_TTABLE);
        lua_Integer m = luaL_len(L, -1);
        if (m < 1 || m > EAR_CURVE_MAX_POINTS)
            luaL_error(L, "earshot.blend: a curve of %d points, 1..%d", (int)m,
                       EAR_CURVE_MAX_POINTS);
        for (lua_Integer k = 1; k <= m; k++) {
            lua_rawgeti(L, -1, k);
            luaL_checktype(L, -1, LUA_TTABLE);
            lua_rawgeti(L, -1, 1);
            lua_rawgeti(L, -2, 2);
            cv->x[k - 1] = (float)luaL_checknumber(L, -2);
            cv->y[k - 1] = (float)luaL_checknumber(L, -1);
            lua_pop(L, 3);
        }
        cv->count = (uint32_t)m;
        lua_pop(L, 2);
    }
    lua_pop(L, 1);
    return (uint32_t)n;
}

/* earshot.blend{name=, bus=, volume_db=, smoothing_ms=, params={ {name=, min=, max=,
 * initial=}, ... }, layers={ {sound=, loop_crossfade_s=, gain={curves}, pitch={curves}},
 * ... }}: registers a blend sound (earshot.play_blend plays it). */
static int l_blend(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    ear_blend_def *d = lua_newuserdatauv(L, sizeof *d, 0); /* collected, never leaked */
    memset(d, 0, sizeof *d);
    copy_name(L, d->name, field_string(L, 1, "name", "earshot.blend"), "earshot.blend");
    d->bus = field_bus(L, 1, "bus", EAR_BUS_SFX);
    d->smoothing_ms = field_number(L, 1, "smoothing_ms", 0);
    lua_getfield(L, 1, "volume_db");
    if (!lua_isnil(L, -1)) d->volume = db_to_gain(luaL_checknumber(L, -1));
    lua_pop(L, 1);
    lua_getfield(L, 1, "params");
    luaL_checktype(L, -1, LUA_TTABLE);
    lua_Integer np = luaL_len(L, -1);
    if (np > EAR_BLEND_MAX_PARAMS)
        return luaL_error(L, "earshot.blend: %d params, at most %d", (int)np,
                          EAR_BLEND_MAX_PARAMS);
    for (lua_Integer i = 1; i <= np; i++) {
        lua_rawgeti(L, -1, i);
        luaL_checktype(L, -1, LUA_TTABLE);
        int t = lua_gettop(L);
        ear_blend_param *bp = &d->params[i - 1];
        copy_name(L, bp->name, field_string(L, t, "name", "earshot.blend"), "earshot.blend");
        bp->min = field_number(L, t, "min", 0);
        bp->max = field_number(L, t, "max", 1);
        bp->initial = field_number(L, t, "initial", bp->min);
        lua_pop(L, 1);
    }
    d->param_count = (uint32_t)np;
    lua_pop(L, 1);
    lua_getfield(L, 1, "layers");
    luaL_checktype(L, -1, LUA_TTABLE);
    lua_Integer nl = luaL_len(L, -1);
    if (nl < 1 || nl > EAR_BLEND_MAX_LAYERS)
        return luaL_error(L, "earshot.blend: %d layers, 1..%d", (int)nl, EAR_BLEND_MAX_LAYERS);
    for (lua_Integer i = 1; i <= nl; i++) {
        lua_rawgeti(L, -1, i);
        luaL_checktype(L, -1, LUA_TTABLE);
        int t = lua_gettop(L);
        ear_blend_layer *ly = &d->layers[i - 1];
        ly->clip = clip_named(L, field_string(L, t, "sound", "earshot.blend"), "earshot.blend");
        ly->loop_crossfade_s = field_number(L, t, "loop_crossfade_s", 0);
        ly->gain_count = read_curves(L, t, "gain", ly->gain);
        ly->pitch_count = read_curves(L, t, "pitch", ly->pitch);
        lua_pop(L, 1);
    }
    d->layer_count = (uint32_t)nl;
    lua_pop(L, 1);
    ear_result r = ear_stage_register_blend(stage_of(L), d);
    if (r != EAR_OK) return ear__lua_fail(L, r, "earshot.blend");
    return 0;
}

/* earshot.play_blend(name [, options]) -> voice (options: earshot.play's). */
static int l_play_blend(lua_State *L) {
    const char *name = luaL_checkstring(L, 1);
    ear_play p;
    read_play(L, 2, &p);
    ear_voice_id id = EAR_VOICE_NONE;
    ear_result r = ear_stage_play_blend(stage_of(L), name, &p, &id);
    if (r != EAR_OK) return ear__lua_fail(L, r, "earshot.play_blend");
    push_voice(L, id);
    return 1;
}

/* earshot.pool{name=, sounds={...}, bus=, volume_db_min=, volume_db_max=,
 * pitch_semitones_min=, pitch_semitones_max=, no_repeat=, max_instances=, priority=} */
static int l_pool(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    ear_pool_def d;
    memset(&d, 0, sizeof d);
    copy_name(L, d.name, field_string(L, 1, "name", "earshot.pool"), "earshot.pool");
    d.bus = field_bus(L, 1, "bus", EAR_BUS_SFX);
    d.volume_min = db_to_gain(field_number(L, 1, "volume_db_min", 0));
    d.volume_max = db_to_gain(field_number(L, 1, "volume_db_max", 0));
    d.pitch_semitones_min = field_number(L, 1, "pitch_semitones_min", 0);
    d.pitch_semitones_max = field_number(L, 1, "pitch_semitones_max", 0);
    d.no_repeat = field_bool(L, 1, "no_repeat");
    d.max_instances = (uint32_t)field_number(L, 1, "max_instances", 0);
    d.priority = (uint8_t)field_number(L, 1, "priority", 0);
    lua_getfield(L, 1, "sounds");
    luaL_checktype(L, -1, LUA_TTABLE);
    lua_Integer n = luaL_len(L, -1);
    if (n < 1 || n > EAR_POOL_MAX_CLIPS)
        return luaL_error(L, "earshot.pool: %d sounds, 1..%d", (int)n, EAR_POOL_MAX_CLIPS);
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, -1, i);
        d.clips[i - 1] = clip_named(L, luaL_checkstring(L, -1), "earshot.pool");
        lua_pop(L, 1);
    }
    d.clip_count = (uint32_t)n;
    lua_pop(L, 1);
    ear_result r = ear_stage_register_pool(stage_of(L), &d);
    if (r != EAR_OK) return ear__lua_fail(L, r, "earshot.pool");
    return 0;
}

/* earshot.play_pool(name [, options]) -> voice (options: earshot.play's). */
static int l_play_pool(lua_State *L) {
    const char *name = luaL_checkstring(L, 1);
    ear_play p;
    read_play(L, 2, &p);
    ear_voice_id id = EAR_VOICE_NONE;
    ear_result r = ear_stage_play_pool(stage_of(L), name, &p, &id);
    if (r != EAR_OK) return ear__lua_fail(L, r, "earshot.play_pool");
    push_voice(L, id);
    return 1;
}

/* ---- HRTF ------------------------------------------------------------------------------ */

/* earshot.hrtf([path]) -> directions: loads a SOFA set (a file under the game's or the
 * save folder; none: the system's set, EAR_HRTF_DEFAULT_PATH) for the stage's rate and
 * gives it to the stage. HRTF voices (earshot.spatializer("hrtf"), or a voice's own
 * spatializer) use it from the next block. */
static int l_hrtf(lua_State *L) {
    char real[PATH_MAX];
    if (lua_isnoneornil(L, 1))
        snprintf(real, sizeof real, "%s", EAR_HRTF_DEFAULT_PATH);
    else
        ear__lua_path(L, luaL_checkstring(L, 1), false, real, sizeof real);
    ear_stage *stage = stage_of(L);
    ear_hrtf_config c = ear_hrtf_config_default();
    c.sample_rate = ear_stage_get_config(stage).sample_rate;
    c.max_load_bytes = (uint64_t)256 << 20; /* a set larger is no game's */
    ear_hrtf_set *set = NULL;
    ear_hrtf_error err;
    memset(&err, 0, sizeof err);
    ear_result r = ear_hrtf_load(real, &c, &set, &err);
    if (r != EAR_OK)
        return luaL_error(L, "earshot.hrtf: %s: %s", ear_result_name(r),
                          err.message[0] ? err.message : ear_result_string(r));
    ear_stage_hrtf view = ear_hrtf_stage_view(set);
    r = ear_stage_set_hrtf(stage, &view); /* the stage copies the arrays */
    uint32_t count = set->count;
    ear_hrtf_free(set);
    if (r != EAR_OK) return ear__lua_fail(L, r, "earshot.hrtf");
    lua_pushinteger(L, count);
    return 1;
}

void ear__lua_open_audio(lua_State *L) {
    static const luaL_Reg voice_methods[] = {{"stop", v_stop},
                                             {"playing", v_playing},
                                             {"set_volume_db", v_set_volume_db},
                                             {"set_pan", v_set_pan},
                                             {"set_pitch", v_set_pitch},
                                             {"set_position", v_set_position},
                                             {"set_reverb_send", v_set_reverb_send},
                                             {"set_param", v_set_param},
                                             {"set_spatializer", v_set_spatializer},
                                             {NULL, NULL}};
    luaL_newmetatable(L, VOICE_MT);
    luaL_newlib(L, voice_methods);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, v_tostring);
    lua_setfield(L, -2, "__tostring");
    lua_pushliteral(L, "voice");
    lua_setfield(L, -2, "__name");
    lua_pop(L, 1);
    static const luaL_Reg fns[] = {{"play", l_play},
                                   {"listener", l_listener},
                                   {"music", l_music},
                                   {"stop_music", l_stop_music},
                                   {"bus_volume", l_bus_volume},
                                   {"stop_all", l_stop_all},
                                   {"reverb", l_reverb},
                                   {"spatializer", l_spatializer},
                                   {"voices", l_voices},
                                   {"duck", l_duck},
                                   {"remove_duck", l_remove_duck},
                                   {"trigger_duck", l_trigger_duck},
                                   {"blend", l_blend},
                                   {"play_blend", l_play_blend},
                                   {"pool", l_pool},
                                   {"play_pool", l_play_pool},
                                   {"hrtf", l_hrtf},
                                   {NULL, NULL}};
    if (lua_getglobal(L, "earshot") != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_pushvalue(L, -1);
        lua_setglobal(L, "earshot");
    }
    luaL_setfuncs(L, fns, 0);
    lua_pop(L, 1);
}
