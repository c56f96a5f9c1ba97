/* SPDX-License-Identifier: Zlib */
/*
 * The game bindings (docs/lua.md): speech, keys, the clocks, wait and timers, the save,
 * translations, files, quit and the run's summary. Timers live in a registry table of
 * {due, every, fn} by id; the scene fires the due ones each frame, in id order, at game
 * time (a paused game pauses them). wait(ms) yields the main coroutine until that much
 * real time has passed (BGT's wait: the frame goes back to the engine meanwhile).
 */
#include "lua_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TIMERS "earshot.timers"

/* ---- speech --------------------------------------------------------------------------- */

/* earshot.say(text [, interrupt=true]) */
static int l_say(lua_State *L) {
    const char *text = luaL_checkstring(L, 1);
    bool interrupt = lua_isnoneornil(L, 2) ? true : lua_toboolean(L, 2);
    ear_ctx *ctx = ear__lua_ctx(L);
    ear_result r = interrupt ? ear_say(ctx, text) : ear_say_queued(ctx, text);
    if (r != EAR_OK) return ear__lua_fail(L, r, "earshot.say");
    return 0;
}
static int l_stop_speech(lua_State *L) {
    ear_speech_stop(ear_ctx_speech(ear__lua_ctx(L)));
    return 0;
}
static int l_repeat_last(lua_State *L) {
    ear_result r = ear_say_repeat_last(ear__lua_ctx(L));
    lua_pushboolean(L, r == EAR_OK);
    return 1;
}
static int l_spoken(lua_State *L) {
    lua_pushinteger(L, (lua_Integer)ear_speech_total(ear_ctx_speech(ear__lua_ctx(L))));
    return 1;
}

/* ---- keys ----------------------------------------------------------------------------- */

static ear_key check_key(lua_State *L, int index) {
    const char *name = luaL_checkstring(L, index);
    ear_key k = ear_key_from_name(name);
    if (k == EAR_KEY_UNKNOWN)
        luaL_error(L,
                   "no key named \"%s\" (names as in key scripts: A, SPACE, RETURN, "
                   "ESCAPE, LEFT, F1 ...)",
                   name);
    return k;
}
static int l_key_pressed(lua_State *L) {
    ear_key k = check_key(L, 1);
    lua_pushboolean(L, ear_key_pressed(ear__lua_ctx(L), k));
    return 1;
}
static int l_key_released(lua_State *L) {
    ear_key k = check_key(L, 1);
    lua_pushboolean(L, ear_key_released(ear__lua_ctx(L), k));
    return 1;
}
static int l_key_down(lua_State *L) {
    ear_key k = check_key(L, 1);
    lua_pushboolean(L, ear_key_held(ear__lua_ctx(L), k));
    return 1;
}
/* earshot.key_repeating(name [, delay_s=0.5, every_s=0.1]) */
static int l_key_repeating(lua_State *L) {
    ear_key k = check_key(L, 1);
    double delay = luaL_optnumber(L, 2, 0.5), every = luaL_optnumber(L, 3, 0.1);
    lua_pushboolean(L, ear_key_repeating(ear__lua_ctx(L), k, delay, every));
    return 1;
}
static int l_text_typed(lua_State *L) {
    const char *t = ear_text_typed(ear__lua_ctx(L));
    lua_pushstring(L, t ? t : "");
    return 1;
}

/* ---- time, wait, timers --------------------------------------------------------------- */

static int l_time(lua_State *L) {
    lua_pushnumber(L, ear_ctx_time(ear__lua_ctx(L))->game_s);
    return 1;
}
static int l_real_time(lua_State *L) {
    lua_pushnumber(L, ear_ctx_time(ear__lua_ctx(L))->real_s);
    return 1;
}
static int l_dt(lua_State *L) {
    lua_pushnumber(L, ear_ctx_dt(ear__lua_ctx(L)));
    return 1;
}
static int l_frame(lua_State *L) {
    lua_pushinteger(L, (lua_Integer)ear_ctx_frame(ear__lua_ctx(L)));
    return 1;
}
static int l_headless(lua_State *L) {
    lua_pushboolean(L, ear_ctx_headless(ear__lua_ctx(L)));
    return 1;
}

/* earshot.wait(ms): only in the main coroutine (the script's body, menu()). */
static int l_wait(lua_State *L) {
    double ms = luaL_optnumber(L, 1, 0);
    ear_lua_game *g = ear__lua_game_of(L);
    ear_ctx *ctx = ear__lua_ctx(L);
    lua_rawgeti(L, LUA_REGISTRYINDEX, g->main_ref);
    bool in_main = g->main_ref != LUA_NOREF && lua_tothread(L, -1) == L;
    lua_pop(L, 1);
    if (!in_main || !lua_isyieldable(L))
        return luaL_error(L, "wait() gives the frame back to the engine, so it runs only in "
                             "the game's main loop (the script's body or menu()), not in "
                             "update() or a timer");
    g->wake_at_s = ear_ctx_time(ctx)->real_s + (ms > 0 ? ms / 1000.0 : 0);
    return lua_yield(L, 0);
}

static int add_timer(lua_State *L, bool repeat) {
    double seconds = luaL_checknumber(L, 1);
    luaL_checktype(L, 2, LUA_TFUNCTION);
    if (!(seconds >= 0) || (repeat && !(seconds > 0)))
        return luaL_error(L, "earshot.%s: %f seconds: expected a number %s",
                          repeat ? "every" : "after", seconds,
                          repeat ? "above 0" : "of at least 0");
    double now = ear_ctx_time(ear__lua_ctx(L))->game_s;
    lua_getfield(L, LUA_REGISTRYINDEX, TIMERS);
    lua_getfield(L, -1, "next");
    lua_Integer id = lua_tointeger(L, -1) + 1;
    lua_pop(L, 1);
    lua_pushinteger(L, id);
    lua_setfield(L, -2, "next");
    lua_createtable(L, 0, 3);
    lua_pushnumber(L, now + seconds);
    lua_setfield(L, -2, "due");
    lua_pushnumber(L, repeat ? seconds : 0);
    lua_setfield(L, -2, "every");
    lua_pushvalue(L, 2);
    lua_setfield(L, -2, "fn");
    lua_rawseti(L, -2, id);
    lua_pushinteger(L, id);
    return 1;
}
static int l_after(lua_State *L) {
    return add_timer(L, false);
}
static int l_every(lua_State *L) {
    return add_timer(L, true);
}
static int l_cancel(lua_State *L) {
    lua_Integer id = luaL_checkinteger(L, 1);
    lua_getfield(L, LUA_REGISTRYINDEX, TIMERS);
    bool had = lua_rawgeti(L, -1, id) != LUA_TNIL;
    lua_pop(L, 1);
    lua_pushnil(L);
    lua_rawseti(L, -2, id);
    lua_pushboolean(L, had);
    return 1;
}

bool ear__lua_fire_timers(ear_lua_game *g, lua_State *L, double now_s) {
    int base = lua_gettop(L);
    lua_getfield(L, LUA_REGISTRYINDEX, TIMERS);
    int timers = lua_gettop(L);
    lua_getfield(L, timers, "next");
    lua_Integer last = lua_tointeger(L, -1);
    lua_pop(L, 1);
    for (lua_Integer id = 1; id <= last; id++) {
        if (lua_rawgeti(L, timers, id) != LUA_TTABLE) {
            lua_pop(L, 1);
            continue;
        }
        int t = lua_gettop(L);
        lua_getfield(L, t, "due");
        double due = lua_tonumber(L, -1);
        lua_getfield(L, t, "every");
        double every = lua_tonumber(L, -1);
        lua_pop(L, 2);
        if (due > now_s) {
            lua_pop(L, 1);
            continue;
        }
        if (every > 0) {
            lua_pushnumber(L, due + every * (1 + (double)(long long)((now_s - due) / every)));
            lua_setfield(L, t, "due");
        } else {
            lua_pushnil(L);
            lua_rawseti(L, timers, id);
        }
        lua_pushcfunction(L, ear__lua_traceback);
        lua_getfield(L, t, "fn");
        ear__lua_arm(g, L);
        int status = lua_pcall(L, 0, 0, -2);
        if (status != LUA_OK) {
            ear__lua_describe_memory_error(L, status);
            /* the timer's error goes the way of every error (the scene reports it) */
            lua_replace(L, base + 1);
            lua_settop(L, base + 1);
            return false;
        }
        lua_pop(L, 2);
    }
    lua_pop(L, 1);
    return true;
}

/* ---- the save ------------------------------------------------------------------------- */

static ear_storage *storage_of(lua_State *L) {
    return ear_ctx_storage(ear__lua_ctx(L));
}

/* earshot.save.set(key, value): a string, number, boolean, or nil (removes). */
static int s_set(lua_State *L) {
    const char *key = luaL_checkstring(L, 1);
    ear_storage *s = storage_of(L);
    ear_result r = EAR_OK;
    switch (lua_type(L, 2)) {
    case LUA_TNIL: ear_storage_remove(s, key); break;
    case LUA_TBOOLEAN: r = ear_storage_set_bool(s, key, lua_toboolean(L, 2)); break;
    case LUA_TNUMBER:
        if (lua_isinteger(L, 2))
            r = ear_storage_set_int(s, key, (int64_t)lua_tointeger(L, 2));
        else
            r = ear_storage_set_double(s, key, lua_tonumber(L, 2));
        break;
    case LUA_TSTRING: r = ear_storage_set_string(s, key, lua_tostring(L, 2)); break;
    default:
        return luaL_error(L,
                          "earshot.save.set(\"%s\"): a %s cannot be saved (strings, "
                          "numbers and booleans can)",
                          key, luaL_typename(L, 2));
    }
    if (r != EAR_OK) return ear__lua_fail(L, r, "earshot.save.set");
    return 0;
}
/* earshot.save.get(key [, default]): the value in the type of default (a string when
 * none is given). */
static int s_get(lua_State *L) {
    const char *key = luaL_checkstring(L, 1);
    ear_storage *s = storage_of(L);
    if (!ear_storage_has(s, key)) {
        lua_settop(L, 2);
        return 1;
    }
    switch (lua_type(L, 2)) {
    case LUA_TBOOLEAN:
        lua_pushboolean(L, ear_storage_get_bool(s, key, lua_toboolean(L, 2)));
        break;
    case LUA_TNUMBER:
        if (lua_isinteger(L, 2))
            lua_pushinteger(L, (lua_Integer)ear_storage_get_int(s, key, lua_tointeger(L, 2)));
        else
            lua_pushnumber(L, ear_storage_get_double(s, key, lua_tonumber(L, 2)));
        break;
    default: lua_pushstring(L, ear_storage_get_string(s, key, "")); break;
    }
    return 1;
}
static int s_has(lua_State *L) {
    lua_pushboolean(L, ear_storage_has(storage_of(L), luaL_checkstring(L, 1)));
    return 1;
}
static int s_remove(lua_State *L) {
    lua_pushboolean(L, ear_storage_remove(storage_of(L), luaL_checkstring(L, 1)));
    return 1;
}
/* earshot.save.write(): the save is written at the end of this frame. */
static int s_write(lua_State *L) {
    ear_ctx_request_save(ear__lua_ctx(L));
    return 0;
}

/* ---- translations, files, the run ----------------------------------------------------- */

static int l_tr(lua_State *L) {
    lua_pushstring(L, ear_tr(ear__lua_ctx(L), luaL_checkstring(L, 1)));
    return 1;
}
/* earshot.load_texts(folder): the game's .lang files (a folder under the game's). */
static int l_load_texts(lua_State *L) {
    const char *dir = luaL_checkstring(L, 1);
    char real[PATH_MAX];
    ear__lua_path(L, dir, false, real, sizeof real);
    ear_lang_load_info info;
    memset(&info, 0, sizeof info);
    ear_result r = ear_lang_load_dir(ear_ctx_lang(ear__lua_ctx(L)), real, &info);
    if (r != EAR_OK) return ear__lua_fail(L, r, "earshot.load_texts");
    if (info.malformed_lines || info.unreadable_files)
        return luaL_error(L, "earshot.load_texts(\"%s\"): %s", dir, info.first_error);
    return 0;
}
static int l_language(lua_State *L) {
    ear_lang *lang = ear_ctx_lang(ear__lua_ctx(L));
    if (!lua_isnoneornil(L, 1)) {
        ear_result r = ear_lang_set_language(lang, luaL_checkstring(L, 1));
        if (r != EAR_OK) return ear__lua_fail(L, r, "earshot.language");
    }
    lua_pushstring(L, ear_lang_language(lang));
    return 1;
}

static int f_read(lua_State *L) {
    const char *path = luaL_checkstring(L, 1);
    char real[PATH_MAX];
    ear__lua_path(L, path, false, real, sizeof real);
    char *text = NULL;
    size_t size = 0;
    char why[PATH_MAX + 200];
    ear_result r =
        ear_file_read(real, EAR_FILE_MAX_DOCUMENT_BYTES, NULL, &text, &size, why, sizeof why);
    if (r != EAR_OK)
        return luaL_error(L, "earshot.file.read(\"%s\"): %s", path, ear_file_reason(why, real));
    lua_pushlstring(L, text, size);
    free(text);
    return 1;
}
static int f_write(lua_State *L) {
    const char *path = luaL_checkstring(L, 1);
    size_t size;
    const char *text = luaL_checklstring(L, 2, &size);
    char real[PATH_MAX];
    ear__lua_path(L, path, true, real, sizeof real);
    char why[PATH_MAX + 200];
    /* the save folder is the script's own: its files are replaced unasked */
    ear_file_write_config wc = ear_file_write_config_default();
    wc.overwrite = true;
    ear_result r = ear_file_write(real, text, size, &wc, why, sizeof why);
    if (r != EAR_OK)
        return luaL_error(L, "earshot.file.write(\"%s\"): %s", path,
                          ear_file_reason(why, real));
    return 0;
}
static int f_exists(lua_State *L) {
    const char *path = luaL_checkstring(L, 1);
    lua_pushcfunction(L, f_read);
    lua_pushstring(L, path);
    lua_pushboolean(L, lua_pcall(L, 1, 1, 0) == LUA_OK);
    return 1;
}

static int l_quit(lua_State *L) {
    ear_quit(ear__lua_ctx(L));
    return 0;
}
static int l_summary(lua_State *L) {
    ear_lua_game *g = ear__lua_game_of(L);
    snprintf(g->summary, sizeof g->summary, "%s", luaL_checkstring(L, 1));
    return 0;
}

static void set_table(lua_State *L, const char *name, const luaL_Reg *fns) {
    lua_newtable(L);
    luaL_setfuncs(L, fns, 0);
    lua_setfield(L, -2, name);
}

void ear__lua_open_game(lua_State *L) {
    lua_newtable(L);
    lua_pushinteger(L, 0);
    lua_setfield(L, -2, "next");
    lua_setfield(L, LUA_REGISTRYINDEX, TIMERS);
    static const luaL_Reg fns[] = {{"say", l_say},
                                   {"stop_speech", l_stop_speech},
                                   {"repeat_last", l_repeat_last},
                                   {"spoken", l_spoken},
                                   {"key_pressed", l_key_pressed},
                                   {"key_released", l_key_released},
                                   {"key_down", l_key_down},
                                   {"key_repeating", l_key_repeating},
                                   {"text_typed", l_text_typed},
                                   {"time", l_time},
                                   {"real_time", l_real_time},
                                   {"dt", l_dt},
                                   {"frame", l_frame},
                                   {"headless", l_headless},
                                   {"wait", l_wait},
                                   {"after", l_after},
                                   {"every", l_every},
                                   {"cancel", l_cancel},
                                   {"tr", l_tr},
                                   {"load_texts", l_load_texts},
                                   {"language", l_language},
                                   {"quit", l_quit},
                                   {"summary", l_summary},
                                   {NULL, NULL}};
    static const luaL_Reg save[] = {{"set", s_set},       {"get", s_get},     {"has", s_has},
                                    {"remove", s_remove}, {"write", s_write}, {NULL, NULL}};
    static const luaL_Reg file[] = {
        {"read", f_read}, {"write", f_write}, {"exists", f_exists}, {NULL, NULL}};
    lua_getglobal(L, "earshot");
    luaL_setfuncs(L, fns, 0);
    set_table(L, "save", save);
    set_table(L, "file", file);
    lua_pop(L, 1);
}
