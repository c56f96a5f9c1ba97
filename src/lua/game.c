/* SPDX-License-Identifier: Zlib */
/*
 * A Lua script as a scene. The script's compiled chunk waits in the registry until the
 * first frame, then runs as the main coroutine: wait() yields back here with the real time
 * it wants to wake at, and each frame resumes it once that time has come. Every frame also
 * fires the script's timers and calls its global update(dt). Any error (a syntax error in
 * a file it requires, a runtime error, the instruction budget, the memory budget) is
 * handled the one way: logged with the file, line and traceback, spoken (interrupting),
 * counted, and then the script's on_error(message) runs, or its menu() in a fresh main
 * coroutine, or nothing more (update goes on). The engine never stops for a script error.
 */
#define _DEFAULT_SOURCE
#include "lua_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

ear_lua_config ear_lua_config_default(void) {
    ear_lua_config c = {0};
    c.memory_budget_bytes = (size_t)64 << 20;
    c.instruction_budget = 200000000u;
    return c;
}

/* What the player hears of an error: the message's first line, without the traceback. */
static void report(ear_lua_game *g, const char *message) {
    g->errors++;
    snprintf(g->last_error, sizeof g->last_error, "%s", message);
    ear_log(EAR_LOG_ERROR, "lua", "%s", message);
    if (!g->ctx) return;
    char spoken[400];
    size_t n = strcspn(message, "\n");
    if (n > sizeof spoken - 20) n = sizeof spoken - 20;
    snprintf(spoken, sizeof spoken, "Script error: %.*s", (int)n, message);
    /* A report, not an answer to a key: queued, so the menu that follows does not cut it
     * (docs/modules/speech.md, "What interrupts"); menu() starts again once it is said. */
    ear_speech_speak_queued(ear_ctx_speech(g->ctx), spoken);
}

static void start_main(ear_lua_game *g, lua_State *L, const char *global);

/* After an error: on_error(message), else menu() afresh, else nothing. */
static void recover(ear_lua_game *g, lua_State *L, const char *message) {
    if (lua_getglobal(L, "on_error") == LUA_TFUNCTION) {
        lua_pushcfunction(L, ear__lua_traceback);
        lua_insert(L, -2);
        lua_pushstring(L, message);
        ear__lua_arm(g, L);
        int status = lua_pcall(L, 1, 0, -3);
        if (status != LUA_OK) {
            ear__lua_describe_memory_error(L, status);
            char again[1024];
            snprintf(again, sizeof again, "in on_error: %s", lua_tostring(L, -1));
            lua_pop(L, 1);
            report(g, again); /* no further recovery: that would loop */
        }
        lua_pop(L, 1);
        return;
    }
    lua_pop(L, 1);
    if (lua_getglobal(L, "menu") == LUA_TFUNCTION && !g->recovering) {
        lua_pop(L, 1);
        /* a menu() that fails before its first wait is not started again and again: the
         * game goes on with update() until the next error */
        if (g->ctx && ear_speech_speaking(ear_ctx_speech(g->ctx))) {
            g->menu_after_error = true; /* after the error's line (scene_update) */
            return;
        }
        g->recovering++;
        start_main(g, L, "menu");
        g->recovering--;
        return;
    }
    lua_pop(L, 1);
}

/* Resumes the main coroutine (on top of the registry's main_ref) with nargs arguments
 * already pushed on it. */
static void resume_main(ear_lua_game *g, lua_State *L) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, g->main_ref);
    lua_State *co = lua_tothread(L, -1);
    lua_pop(L, 1);
    ear__lua_arm(g, co);
    int results = 0;
    g->wake_at_s = -1;
    int status = lua_resume(co, L, 0, &results);
    if (status == LUA_YIELD) {
        lua_pop(co, results);
        return;
    }
    luaL_unref(L, LUA_REGISTRYINDEX, g->main_ref);
    g->main_ref = LUA_NOREF;
    if (status == LUA_OK) {
        lua_pop(co, results);
        g->main_done = true;
        return;
    }
    lua_xmove(co, L, 1);
    ear__lua_push_error(L, co, 0);
    char message[1024];
    snprintf(message, sizeof message, "%s", lua_tostring(L, -1));
    lua_pop(L, 1);
    report(g, message);
    recover(g, L, message);
}

/* Makes a main coroutine of the function on top of L (popped) and runs it to its first
 * wait. global: the function's name, when it is one of the script's (for messages). */
static void start_main(ear_lua_game *g, lua_State *L, const char *global) {
    if (global) lua_getglobal(L, global);
    if (g->main_ref != LUA_NOREF) {
        luaL_unref(L, LUA_REGISTRYINDEX, g->main_ref);
        g->main_ref = LUA_NOREF;
    }
    lua_State *co = lua_newthread(L);
    lua_insert(L, -2);
    lua_xmove(L, co, 1);
    g->main_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    g->main_done = false;
    resume_main(g, L);
}

/* Calls a global function of the script with one number, if it has one. */
/* Calls the function under its nargs arguments on top of L, with the traceback as its
 * message handler and the budgets armed; an error is reported and recovered from. */
static void call_reported(ear_lua_game *g, lua_State *L, int nargs) {
    lua_pushcfunction(L, ear__lua_traceback);
    lua_insert(L, -(nargs + 2));
    ear__lua_arm(g, L);
    int status = lua_pcall(L, nargs, 0, -(nargs + 2));
    if (status != LUA_OK) {
        ear__lua_describe_memory_error(L, status);
        char message[1024];
        snprintf(message, sizeof message, "%s", lua_tostring(L, -1));
        lua_pop(L, 2);
        report(g, message);
        recover(g, L, message);
        return;
    }
    lua_pop(L, 1);
}

static void call_global(ear_lua_game *g, lua_State *L, const char *name, double arg) {
    if (lua_getglobal(L, name) != LUA_TFUNCTION) {
        lua_pop(L, 1);
        return;
    }
    lua_pushnumber(L, arg);
    call_reported(g, L, 1);
}

static void scene_start(ear_ctx *ctx, void *user) {
    ear_lua_game *g = user;
    g->ctx = ctx;
    if (g->config.on_speech)
        ear_speech_set_listener(ear_ctx_speech(ctx), g->config.on_speech,
                                g->config.speech_user);
    lua_State *L = g->L;
    lua_getfield(L, LUA_REGISTRYINDEX, "earshot.main_chunk");
    g->started = true;
    start_main(g, L, NULL);
    g->ctx = NULL;
}

static void scene_update(ear_ctx *ctx, void *user) {
    ear_lua_game *g = user;
    g->ctx = ctx;
    lua_State *L = g->L;
    ear_time *t = ear_ctx_time(ctx);
    if (!ear__lua_fire_timers(g, L, t->game_s)) {
        char message[1024];
        snprintf(message, sizeof message, "%s", lua_tostring(L, -1));
        lua_pop(L, 1);
        report(g, message);
        recover(g, L, message);
    }
    if (g->menu_after_error) { /* the old main() waits no more: the new one, once heard */
        if (!ear_speech_speaking(ear_ctx_speech(ctx))) {
            g->menu_after_error = false;
            g->recovering++;
            start_main(g, L, "menu");
            g->recovering--;
        }
    } else if (g->main_ref != LUA_NOREF && t->real_s >= g->wake_at_s) {
        resume_main(g, L);
    }
    call_global(g, L, "update", ear_ctx_dt(ctx));
    lua_settop(L, 0);
    g->ctx = NULL;
}

/* Each UI event, as it happens, to the script's on_ui(event) if it has one. */
static void scene_on_ui(ear_ctx *ctx, const ear_ui_event *event, void *user) {
    ear_lua_game *g = user;
    lua_State *L = g->L;
    if (lua_getglobal(L, "on_ui") != LUA_TFUNCTION) {
        lua_pop(L, 1);
        return;
    }
    g->ctx = ctx;
    ear__lua_push_ui_event(L, event);
    call_reported(g, L, 1);
    lua_settop(L, 0);
    g->ctx = NULL;
}

static void scene_end(ear_ctx *ctx, void *user) {
    ear_lua_game *g = user;
    g->ctx = ctx;
    call_global(g, g->L, "on_exit", 0);
    g->ctx = NULL;
}

ear_scene ear_lua_game_scene(ear_lua_game *game) {
    ear_scene s = {0};
    s.name = "lua";
    s.start = scene_start;
    s.update = scene_update;
    s.end = scene_end;
    s.on_ui = scene_on_ui;
    s.user = game;
    return s;
}

/* The folder part of path ("." when there is none). */
static void folder_of(const char *path, char *out, size_t cap) {
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(out, cap, ".");
    else if (slash == path)
        snprintf(out, cap, "/");
    else
        snprintf(out, cap, "%.*s", (int)(slash - path), path);
}

ear_result ear_lua_game_create(const ear_lua_config *config, ear_lua_game **out_game,
                               char *error, size_t error_size) {
    char scratch[8];
    if (!error) {
        error = scratch;
        error_size = sizeof scratch;
    }
    error[0] = '\0';
    if (!config || !config->script_path || !out_game) {
        snprintf(error, error_size, "no script given");
        return EAR_E_INVALID_ARG;
    }
    ear_lua_game *g = calloc(1, sizeof *g);
    if (!g) {
        snprintf(error, error_size, "out of memory");
        return EAR_E_OUT_OF_MEMORY;
    }
    g->config = *config;
    ear_lua_config d = ear_lua_config_default();
    if (!g->config.memory_budget_bytes) g->config.memory_budget_bytes = d.memory_budget_bytes;
    if (!g->config.instruction_budget) g->config.instruction_budget = d.instruction_budget;
    g->main_ref = LUA_NOREF;
    snprintf(g->script_path, sizeof g->script_path, "%s", config->script_path);
    g->config.script_path = g->script_path;
    char folder[PATH_MAX];
    folder_of(config->script_path, folder, sizeof folder);
    if (!realpath(folder, g->game_dir)) {
        snprintf(error, error_size, "%s: no such folder", folder);
        free(g);
        return EAR_E_NOT_FOUND;
    }
    if (config->save_dir && !realpath(config->save_dir, g->save_dir)) {
        snprintf(error, error_size, "%s: no such save folder", config->save_dir);
        free(g);
        return EAR_E_NOT_FOUND;
    }
    g->config.save_dir = g->save_dir[0] ? g->save_dir : NULL;
    ear_result r = ear__lua_open(g, error, error_size);
    if (r != EAR_OK) {
        free(g);
        return r;
    }
    lua_State *L = g->L;
    ear__lua_open_audio(L);
    ear__lua_open_game(L);
    ear__lua_open_world(L);
    ear__lua_open_input(L);
    ear__lua_open_ui(L);
    r = ear_ui_create(NULL, &g->ui);
    if (r != EAR_OK) {
        snprintf(error, error_size, "the UI: %s", ear_result_string(r));
        ear_lua_game_destroy(g);
        return r;
    }
    /* require("earshot") gives the same table */
    lua_getglobal(L, "package");
    lua_getfield(L, -1, "loaded");
    lua_getglobal(L, "earshot");
    lua_setfield(L, -2, "earshot");
    lua_pop(L, 2);
    /* the compat layer, as a module the script requires ("earshot.compat") */
    lua_getglobal(L, "package");
    lua_getfield(L, -1, "preload");
    if (luaL_loadbufferx(L, ear__lua_compat_text, strlen(ear__lua_compat_text),
                         "=earshot.compat", "t") != LUA_OK) {
        snprintf(error, error_size, "the compat layer: %s", lua_tostring(L, -1));
        ear_lua_game_destroy(g);
        return EAR_E_STATE;
    }
    lua_setfield(L, -2, "earshot.compat");
    lua_pop(L, 2);
    /* the script itself, compiled now so a syntax error is the creation's */
    char *text = NULL;
    size_t size = 0;
    char why[PATH_MAX + 200];
    r = ear_file_read(g->script_path, EAR_FILE_MAX_DOCUMENT_BYTES, NULL, &text, &size, why,
                      sizeof why);
    if (r != EAR_OK) {
        snprintf(error, error_size, "%s", why);
        ear_lua_game_destroy(g);
        return r;
    }
    snprintf(g->chunk_name, sizeof g->chunk_name, "@%s", g->script_path);
    int status = luaL_loadbufferx(L, text, size, g->chunk_name, "t");
    free(text);
    if (status != LUA_OK) {
        snprintf(error, error_size, "%s", lua_tostring(L, -1));
        ear_lua_game_destroy(g);
        return status == LUA_ERRMEM ? EAR_E_OUT_OF_MEMORY : EAR_E_FORMAT;
    }
    lua_setfield(L, LUA_REGISTRYINDEX, "earshot.main_chunk");
    *out_game = g;
    return EAR_OK;
}

void ear_lua_game_attach(ear_lua_game *game, ear_engine_config *config) {
    if (game && config) ear_ui_attach(game->ui, config);
}

void ear_lua_game_destroy(ear_lua_game *game) {
    if (!game) return;
    ear__lua_close(game);
    ear_ui_destroy(game->ui); /* after the state: no binding reaches it any more */
    free(game);
}

ear_result ear_lua_game_run_string(ear_lua_game *g, const char *name, const char *text,
                                   char *error, size_t error_size) {
    char scratch[8];
    if (!error) {
        error = scratch;
        error_size = sizeof scratch;
    }
    error[0] = '\0';
    if (!g || !text) return EAR_E_INVALID_ARG;
    lua_State *L = g->L;
    char chunk[256];
    snprintf(chunk, sizeof chunk, "=%s", name ? name : "string");
    lua_pushcfunction(L, ear__lua_traceback);
    if (luaL_loadbufferx(L, text, strlen(text), chunk, "t") != LUA_OK) {
        snprintf(error, error_size, "%s", lua_tostring(L, -1));
        lua_settop(L, 0);
        return EAR_E_FORMAT;
    }
    ear__lua_arm(g, L);
    ear_result r = EAR_OK;
    int status = lua_pcall(L, 0, 0, -2);
    if (status != LUA_OK) {
        ear__lua_describe_memory_error(L, status);
        snprintf(error, error_size, "%s", lua_tostring(L, -1));
        r = EAR_E_STATE;
    }
    lua_settop(L, 0);
    return r;
}

uint64_t ear_lua_game_errors(const ear_lua_game *g) {
    return g ? g->errors : 0;
}
const char *ear_lua_game_last_error(const ear_lua_game *g) {
    return g ? g->last_error : "";
}
const char *ear_lua_game_summary(const ear_lua_game *g) {
    return g ? g->summary : "";
}
size_t ear_lua_game_memory_bytes(const ear_lua_game *g) {
    return g ? g->used_bytes : 0;
}
size_t ear_lua_game_memory_peak_bytes(const ear_lua_game *g) {
    return g ? g->peak_bytes : 0;
}
