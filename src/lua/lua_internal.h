/* SPDX-License-Identifier: Zlib */
/*
 * The Lua module's shared words: the game object a Lua state belongs to, and what each
 * file gives the files above it (src/lua/ORDER). One ear_lua_game holds one lua_State; the
 * state's extra space holds a pointer back to it (lua_getextraspace), so every binding
 * finds the engine's context without a global. The context is set only while the runner
 * calls the game (a scene callback); a binding that needs it and runs outside one (a
 * finaliser at close) gets a Lua error, never a stale pointer.
 */
#ifndef EARSHOT_LUA_INTERNAL_H
#define EARSHOT_LUA_INTERNAL_H

#include "earshot/engine.h"
#include "earshot/lua_game.h"
#include "earshot/ui.h"

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include <limits.h>
#include <stdint.h>

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

struct ear_lua_game {
    ear_lua_config config;
    lua_State *L;
    ear_ctx *ctx; /* set while the runner calls the scene; NULL otherwise */
    ear_ui *ui;   /* the game's widgets (earshot.ui), plugged in by ear_lua_game_attach */
    char script_path[PATH_MAX];
    char game_dir[PATH_MAX]; /* realpath of the script's folder */
    char save_dir[PATH_MAX]; /* realpath of the save folder, "" when there is none */
    char chunk_name[PATH_MAX + 2];
    /* memory */
    size_t used_bytes, peak_bytes;
    bool over_budget;     /* the last refusal was the budget's (not the system's) */
    size_t refused_bytes; /* what the refused allocation asked for */
    /* The thread the engine last called into, and the script's place when an allocation
     * was refused: Lua calls no message handler for a memory error, so the allocator
     * notes "<file>:<line>:" itself. */
    lua_State *running;
    char refused_where[PATH_MAX + 32];
    /* instructions since the engine last called in */
    uint64_t instructions;
    /* the main coroutine (BGT style: wait() yields to the engine) */
    int main_ref;     /* LUA_NOREF when none runs */
    double wake_at_s; /* game time the main coroutine waits for */
    bool main_done;
    int recovering; /* menu() restarts under way: one that fails at once is not restarted */
    bool menu_after_error; /* menu() restarts once the error's line has been said */
    /* counters and the script's own summary */
    uint64_t errors;
    char last_error[1024];
    char summary[512];
    bool started;
};

/* sandbox.c: the state, its allocator and hook, the refused escapes, the confined files. */
ear_lua_game *ear__lua_game_of(lua_State *L);
ear_result ear__lua_open(ear_lua_game *g, char *error, size_t error_size);
void ear__lua_close(ear_lua_game *g);
/* The message handler for lua_pcall: "<file>:<line>: <message>" and a traceback; a memory
 * error names the budget and the script line that asked. */
int ear__lua_traceback(lua_State *L);
/* The same for an error raised in coroutine co (its stack still stands): replaces the
 * message at the top of L's stack with the described message and co's traceback. */
void ear__lua_push_error(lua_State *L, lua_State *co, int level);
/* A pcall's or resume's memory error (status LUA_ERRMEM): the message at the top of L
 * becomes the one naming the budget and the line noted when the allocation was refused.
 * Other statuses leave it. */
void ear__lua_describe_memory_error(lua_State *L, int status);
/* Arms the instruction-count hook on thread L1 and resets the count (the engine is calling
 * the script anew). */
void ear__lua_arm(ear_lua_game *g, lua_State *L1);
/* A path the script may read (inside the game's folder or the save folder) or write
 * (inside the save folder): the resolved path in out, or a Lua error naming it. */
void ear__lua_path(lua_State *L, const char *path, bool for_write, char *out, size_t cap);

/* bind_audio.c: earshot.play, voices, the listener, music, buses, ducks, blends, pools,
 * hrtf, reverb. */
void ear__lua_open_audio(lua_State *L);
/* bind_game.c: speech, keys, time and timers, saves, translations, quit, the summary. */
void ear__lua_open_game(lua_State *L);
/* bind_world.c: levels from maps and their paths, physics bodies, rays, vehicles, the
 * audio world's sources. */
void ear__lua_open_world(lua_State *L);
/* bind_input.c: earshot.actions (profiles, bindings, queries) and earshot.pad. */
void ear__lua_open_input(lua_State *L);
/* bind_ui.c: earshot.ui (menus, forms, dialogs, inputs, events). */
void ear__lua_open_ui(lua_State *L);
/* Pushes a UI event as the table earshot.ui.events() lists. */
void ear__lua_push_ui_event(lua_State *L, const ear_ui_event *e);
/* The engine's context, or a Lua error when the engine is not calling the script. */
ear_ctx *ear__lua_ctx(lua_State *L);
/* Raises a Lua error carrying Earshot's result name: "<what>: EAR_E_...: <text>". */
int ear__lua_fail(lua_State *L, ear_result r, const char *what);
/* Fires the timers due at game time now_s (bind_game.c keeps them). False when one
 * raised an error: its message (with traceback) is then on top of L's stack. */
bool ear__lua_fire_timers(ear_lua_game *g, lua_State *L, double now_s);

/* compat_lua.c (generated from compat.lua): the BGT/NVGT-familiar layer's Lua text. */
extern const char ear__lua_compat_text[];

#endif /* EARSHOT_LUA_INTERNAL_H */
