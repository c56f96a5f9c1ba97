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

#include <math.h>
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

/* earshot.play(name [, options]) -> voice. options: loop, volume_db, pan, pitch, x, y, z
 * (placed when any is given), bus, reverb_send, priority, model, ref_distance,
 * max_distance, rolloff, no_doppler. */
static int l_play(lua_State *L) {
    const char *name = luaL_checkstring(L, 1);
    ear_ctx *ctx = ear__lua_ctx(L);
    ear_play p = {0};
    if (!lua_isnoneornil(L, 2)) {
        luaL_checktype(L, 2, LUA_TTABLE);
        p.looping = field_bool(L, 2, "loop");
        p.volume = db_to_gain(field_number(L, 2, "volume_db", 0));
        p.pan = field_number(L, 2, "pan", 0);
        p.pitch = field_number(L, 2, "pitch", 1);
        p.no_doppler = field_bool(L, 2, "no_doppler");
        lua_getfield(L, 2, "x");
        lua_getfield(L, 2, "y");
        lua_getfield(L, 2, "z");
        p.placed = !lua_isnil(L, -1) || !lua_isnil(L, -2) || !lua_isnil(L, -3);
        lua_pop(L, 3);
        p.position = ear_vec3_make(field_number(L, 2, "x", 0), field_number(L, 2, "y", 0),
                                   field_number(L, 2, "z", 0));
        lua_getfield(L, 2, "bus");
        if (!lua_isnil(L, -1)) p.bus = check_bus(L, -1);
        lua_pop(L, 1);
        p.reverb_send = field_number(L, 2, "reverb_send", 0);
        p.priority = (uint8_t)field_number(L, 2, "priority", 0);
        lua_getfield(L, 2, "model");
        if (!lua_isnil(L, -1))
            p.attenuation.model =
                (ear_distance_model)luaL_checkoption(L, -1, NULL, model_names);
        lua_pop(L, 1);
        p.attenuation.ref_distance_m = field_number(L, 2, "ref_distance", 0);
        p.attenuation.max_distance_m = field_number(L, 2, "max_distance", 0);
        p.attenuation.rolloff = field_number(L, 2, "rolloff", 0);
    }
    ear_voice_id id = EAR_VOICE_NONE;
    ear_result r = ear_assets_play(ear_ctx_assets(ctx), ear_ctx_stage(ctx), name, &p, &id);
    if (r != EAR_OK) {
        const char *why = ear_assets_last_load_error(ear_ctx_assets(ctx));
        return luaL_error(L, "earshot.play(\"%s\"): %s: %s", name, ear_result_name(r),
                          why && *why ? why : ear_result_string(r));
    }
    lua_voice *v = lua_newuserdatauv(L, sizeof *v, 0);
    v->id = id;
    luaL_setmetatable(L, VOICE_MT);
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
    static const char *const names[] = {"default", "pan", "hrtf", NULL};
    ear_spatializer s = (ear_spatializer)luaL_checkoption(L, 1, NULL, names);
    ear_result r = ear_stage_set_spatializer(stage_of(L), s);
    if (r != EAR_OK) return ear__lua_fail(L, r, "earshot.spatializer");
    return 0;
}
static int l_voices(lua_State *L) {
    lua_pushinteger(L, ear_stage_voice_count(stage_of(L)));
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
