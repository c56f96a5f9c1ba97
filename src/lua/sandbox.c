/* SPDX-License-Identifier: Zlib */
/*
 * The sandbox a game script runs in. The state's memory comes from the game's allocator
 * through a lua_Alloc that counts every byte against a budget: an allocation that would
 * pass it is refused (Lua raises its memory error, which the message handler turns into
 * one naming the budget and the script's line). The libraries opened are the base,
 * coroutine, table, string, math, utf8, a few clock functions of os and package for
 * require; the escapes are replaced by functions that raise a clear error (os.execute,
 * io.*, package.loadlib, debug.*, C modules), so a script that tries one learns why, at
 * the line it tried. load and friends read text only (bytecode can break the VM), and
 * files only under the game's folder and the save folder (realpath, the command tool's
 * rule: a path outside reads as missing). An instruction-count hook, armed each time the
 * engine calls in, stops an endless loop with an error at its file and line.
 */
#define _DEFAULT_SOURCE
#include "lua_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HOOK_EVERY 10000 /* instructions between two hook calls */

ear_lua_game *ear__lua_game_of(lua_State *L) {
    return *(ear_lua_game **)lua_getextraspace(L);
}

/* ---- memory --------------------------------------------------------------------------- */

static void script_where(lua_State *L, char *out, size_t cap);

/* Lua's allocator contract: nsize 0 frees (ptr may be NULL); otherwise realloc, and on
 * failure the old block stays. osize is the block's size when ptr is set. */
static void *budget_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    ear_lua_game *g = ud;
    const ear_allocator *a = g->config.allocator;
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        if (ptr) {
            if (a && a->free_fn)
                a->free_fn(ptr, a->user);
            else
                free(ptr);
            g->used_bytes -= old;
        }
        return NULL;
    }
    if (nsize > old && nsize - old > g->config.memory_budget_bytes - g->used_bytes) {
        g->over_budget = true;
        g->refused_bytes = nsize;
        /* reading the call stack allocates nothing ("Sl" only) */
        if (g->running) script_where(g->running, g->refused_where, sizeof g->refused_where);
        return NULL;
    }
    void *p;
    if (a && a->realloc_fn)
        p = a->realloc_fn(ptr, nsize, a->user);
    else
        p = realloc(ptr, nsize);
    if (!p) {
        g->over_budget = false;
        g->refused_bytes = nsize;
        if (g->running) script_where(g->running, g->refused_where, sizeof g->refused_where);
        return NULL;
    }
    g->used_bytes = g->used_bytes - old + nsize;
    if (g->used_bytes > g->peak_bytes) g->peak_bytes = g->used_bytes;
    return p;
}

/* ---- errors --------------------------------------------------------------------------- */

/* The innermost Lua function's "<file>:<line>:" on L's stack ("" when there is none). */
static void script_where(lua_State *L, char *out, size_t cap) {
    lua_Debug ar;
    out[0] = '\0';
    for (int level = 0; lua_getstack(L, level, &ar); level++) {
        if (!lua_getinfo(L, "Sl", &ar)) continue;
        if (ar.currentline > 0) {
            snprintf(out, cap, "%s:%d:", ar.short_src, ar.currentline);
            return;
        }
    }
}

void ear__lua_push_error(lua_State *L, lua_State *co, int level) {
    ear_lua_game *g = ear__lua_game_of(L);
    const char *msg = lua_tostring(L, -1);
    char where[PATH_MAX + 32];
    if (!msg || strcmp(msg, "not enough memory") == 0) {
        if (msg)
            snprintf(where, sizeof where, "%s", g->refused_where);
        else
            script_where(co, where, sizeof where);
        if (msg && g->over_budget)
            lua_pushfstring(L,
                            "%s out of memory: the script asked for %I bytes, over its "
                            "budget of %I MiB (%I bytes in use)",
                            where, (lua_Integer)g->refused_bytes,
                            (lua_Integer)(g->config.memory_budget_bytes >> 20),
                            (lua_Integer)g->used_bytes);
        else if (msg)
            lua_pushfstring(L, "%s out of memory: the system refused %I bytes", where,
                            (lua_Integer)g->refused_bytes);
        else
            lua_pushfstring(L, "%s an error object of type %s (not a message)", where,
                            luaL_typename(L, -1));
        lua_remove(L, -2);
        msg = lua_tostring(L, -1);
    }
    luaL_traceback(L, co, msg, level);
    lua_remove(L, -2);
}

void ear__lua_describe_memory_error(lua_State *L, int status) {
    if (status != LUA_ERRMEM) return;
    ear_lua_game *g = ear__lua_game_of(L);
    lua_pushfstring(L, "%s out of memory: the script asked for %I bytes, %s", g->refused_where,
                    (lua_Integer)g->refused_bytes,
                    g->over_budget ? "over its budget" : "which the system refused");
    if (g->over_budget)
        lua_pushfstring(L, " of %I MiB (%I bytes in use)",
                        (lua_Integer)(g->config.memory_budget_bytes >> 20),
                        (lua_Integer)g->used_bytes);
    else
        lua_pushliteral(L, "");
    lua_concat(L, 2);
    lua_remove(L, -2);
}

int ear__lua_traceback(lua_State *L) {
    lua_settop(L, 1);
    ear__lua_push_error(L, L, 1);
    return 1;
}

/* The instruction hook: the count since the engine called in. In a hook, level 0 is the
 * running Lua function, so the message names its line (luaL_error's level 1 would name
 * its caller). */
static void count_hook(lua_State *L, lua_Debug *ar) {
    (void)ar;
    ear_lua_game *g = ear__lua_game_of(L);
    g->instructions += HOOK_EVERY;
    if (g->instructions > g->config.instruction_budget) {
        g->instructions = 0; /* the handler and on_error may run code of their own */
        char where[PATH_MAX + 32];
        script_where(L, where, sizeof where);
        lua_pushfstring(L,
                        "%s the script ran %I instructions without giving the frame back "
                        "to the engine (an endless loop? return from the callback, or call "
                        "wait())",
                        where, (lua_Integer)g->config.instruction_budget);
        lua_error(L);
    }
}

void ear__lua_arm(ear_lua_game *g, lua_State *L1) {
    g->instructions = 0;
    g->running = L1;
    g->refused_where[0] = '\0';
    lua_sethook(L1, count_hook, LUA_MASKCOUNT, HOOK_EVERY);
}

/* ---- refused escapes ------------------------------------------------------------------ */

static int refused(lua_State *L) {
    const char *name = lua_tostring(L, lua_upvalueindex(1));
    const char *why = lua_tostring(L, lua_upvalueindex(2));
    return luaL_error(L, "%s is not available to Earshot scripts (the sandbox: %s)", name, why);
}

static void refuse(lua_State *L, int table, const char *field, const char *name,
                   const char *why) {
    table = lua_absindex(L, table);
    lua_pushstring(L, name);
    lua_pushstring(L, why);
    lua_pushcclosure(L, refused, 2);
    lua_setfield(L, table, field);
}

/* A library table whose every field, read, raises "<lib>.<field> is not available". */
static int refused_index(lua_State *L) {
    const char *lib = lua_tostring(L, lua_upvalueindex(1));
    const char *why = lua_tostring(L, lua_upvalueindex(2));
    const char *field = lua_tostring(L, 2);
    return luaL_error(L, "%s.%s is not available to Earshot scripts (the sandbox: %s)", lib,
                      field ? field : "?", why);
}

static void refuse_library(lua_State *L, const char *lib, const char *why) {
    lua_newtable(L);
    lua_newtable(L);
    lua_pushstring(L, lib);
    lua_pushstring(L, why);
    lua_pushcclosure(L, refused_index, 2);
    lua_setfield(L, -2, "__index");
    lua_pushliteral(L, "refused");
    lua_setfield(L, -2, "__metatable");
    lua_setmetatable(L, -2);
    lua_setglobal(L, lib);
}

/* ---- confined files ------------------------------------------------------------------- */

static bool inside(const char *root, const char *real) {
    size_t n = strlen(root);
    return root[0] && strncmp(root, real, n) == 0 && (real[n] == '/' || real[n] == '\0');
}

void ear__lua_path(lua_State *L, const char *path, bool for_write, char *out, size_t cap) {
    ear_lua_game *g = ear__lua_game_of(L);
    if (for_write && !g->save_dir[0])
        luaL_error(L, "%s: this game has no save folder to write in", path);
    /* relative paths: reads from the game's folder, writes into the save folder */
    char joined[PATH_MAX * 2];
    const char *base = for_write ? g->save_dir : g->game_dir;
    if (path[0] == '/')
        snprintf(joined, sizeof joined, "%s", path);
    else
        snprintf(joined, sizeof joined, "%s/%s", base, path);
    char probe[PATH_MAX * 2], real[PATH_MAX];
    const char *name = NULL;
    snprintf(probe, sizeof probe, "%s", joined);
    if (for_write) {
        char *slash = strrchr(probe, '/');
        name = slash + 1;
        if (!*name || !strcmp(name, ".") || !strcmp(name, ".."))
            luaL_error(L, "%s: not a file name", path);
        *slash = '\0';
        name = joined + (name - probe);
        if (!probe[0]) snprintf(probe, sizeof probe, "/");
    }
    bool ok = realpath(probe, real) != NULL;
    if (ok && for_write)
        ok = inside(g->save_dir, real);
    else if (ok)
        ok = inside(g->game_dir, real) || inside(g->save_dir, real);
    if (!ok)
        luaL_error(L, "%s: no such %s %s (scripts %s only under the game's folder%s)", path,
                   for_write ? "folder to write in" : "file", "in reach",
                   for_write ? "write" : "read",
                   for_write ? "'s save folder" : " and its save folder");
    int len =
        for_write ? snprintf(out, cap, "%s/%s", real, name) : snprintf(out, cap, "%s", real);
    if (len < 0 || (size_t)len >= cap) luaL_error(L, "%s: the path is too long", path);
}

/* Loads a confined file as a text chunk named "@<path as the script gave it>". */
static int load_confined(lua_State *L, const char *path) {
    char real[PATH_MAX];
    ear__lua_path(L, path, false, real, sizeof real);
    char *text = NULL;
    size_t size = 0;
    char why[PATH_MAX + 200];
    ear_result r =
        ear_file_read(real, EAR_FILE_MAX_DOCUMENT_BYTES, NULL, &text, &size, why, sizeof why);
    if (r != EAR_OK) return luaL_error(L, "%s: %s", path, ear_file_reason(why, real));
    lua_pushfstring(L, "@%s", path);
    int status = luaL_loadbufferx(L, text, size, lua_tostring(L, -1), "t");
    free(text);
    lua_remove(L, -2);
    return status;
}

static int l_loadfile(lua_State *L) {
    const char *path = luaL_checkstring(L, 1);
    if (load_confined(L, path) != LUA_OK) {
        lua_pushnil(L);
        lua_insert(L, -2);
        return 2;
    }
    return 1;
}

static int l_dofile(lua_State *L) {
    const char *path = luaL_checkstring(L, 1);
    lua_settop(L, 1);
    if (load_confined(L, path) != LUA_OK) return lua_error(L);
    lua_call(L, 0, LUA_MULTRET);
    return lua_gettop(L) - 1;
}

/* load(chunk, name, mode, env) with the mode forced to text (an absent env stays absent:
 * an explicit nil would mean no globals). */
static int l_load(lua_State *L) {
    int n = lua_gettop(L);
    const char *mode = luaL_optstring(L, 3, "t");
    if (strchr(mode, 'b'))
        return luaL_error(L, "load: binary chunks are not available to Earshot scripts "
                             "(the sandbox: text only)");
    int args = n >= 4 ? 4 : 3;
    lua_settop(L, args);
    lua_pushliteral(L, "t");
    lua_replace(L, 3);
    lua_pushvalue(L, lua_upvalueindex(1)); /* the real load */
    lua_insert(L, 1);
    lua_call(L, args, LUA_MULTRET);
    return lua_gettop(L);
}

/* require's one searcher: "a.b" is <game folder>/a/b.lua, text only. */
static int search_game(lua_State *L) {
    const char *name = luaL_checkstring(L, 1);
    char rel[PATH_MAX];
    size_t n = 0;
    for (const char *p = name; *p && n + 5 < sizeof rel; p++) rel[n++] = *p == '.' ? '/' : *p;
    rel[n] = '\0';
    strcat(rel, ".lua");
    ear_lua_game *g = ear__lua_game_of(L);
    char full[PATH_MAX * 2], real[PATH_MAX];
    snprintf(full, sizeof full, "%s/%s", g->game_dir, rel);
    if (!realpath(full, real) || !inside(g->game_dir, real)) {
        lua_pushfstring(L, "\n\tno file '%s' in the game's folder", rel);
        return 1;
    }
    if (load_confined(L, rel) != LUA_OK) return lua_error(L);
    lua_pushstring(L, rel);
    return 2;
}

/* print: the script's lines on standard output, as Lua's own print writes them. */
static int l_print(lua_State *L) {
    int n = lua_gettop(L); /* before the buffer, which may take a stack slot */
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (int i = 1; i <= n; i++) {
        if (i > 1) luaL_addchar(&b, '\t');
        luaL_tolstring(L, i, NULL);
        luaL_addvalue(&b);
    }
    luaL_addchar(&b, '\n');
    luaL_pushresult(&b);
    size_t len;
    const char *line = lua_tolstring(L, -1, &len);
    fwrite(line, 1, len, stdout);
    return 0;
}

ear_result ear__lua_open(ear_lua_game *g, char *error, size_t error_size) {
    lua_State *L = lua_newstate(budget_alloc, g);
    if (!L) {
        snprintf(error, error_size, "out of memory making the Lua state");
        return EAR_E_OUT_OF_MEMORY;
    }
    *(ear_lua_game **)lua_getextraspace(L) = g;
    g->L = L;
    static const luaL_Reg libs[] = {{LUA_GNAME, luaopen_base},
                                    {LUA_LOADLIBNAME, luaopen_package},
                                    {LUA_COLIBNAME, luaopen_coroutine},
                                    {LUA_TABLIBNAME, luaopen_table},
                                    {LUA_OSLIBNAME, luaopen_os},
                                    {LUA_STRLIBNAME, luaopen_string},
                                    {LUA_MATHLIBNAME, luaopen_math},
                                    {LUA_UTF8LIBNAME, luaopen_utf8},
                                    {NULL, NULL}};
    for (const luaL_Reg *lib = libs; lib->func; lib++) {
        luaL_requiref(L, lib->name, lib->func, 1);
        lua_pop(L, 1);
    }
    /* the same random numbers every run, so a recording replays (math.randomseed(n)
     * reseeds) */
    lua_getglobal(L, "math");
    lua_getfield(L, -1, "randomseed");
    lua_pushinteger(L, 1);
    lua_call(L, 1, 0);
    lua_pop(L, 1);
    static const char no_programs[] = "no programs, no environment, no files outside the game";
    lua_getglobal(L, "os");
    refuse(L, -1, "execute", "os.execute", no_programs);
    refuse(L, -1, "exit", "os.exit", "earshot.quit() ends the game");
    refuse(L, -1, "getenv", "os.getenv", no_programs);
    refuse(L, -1, "remove", "os.remove", no_programs);
    refuse(L, -1, "rename", "os.rename", no_programs);
    refuse(L, -1, "tmpname", "os.tmpname", no_programs);
    refuse(L, -1, "setlocale", "os.setlocale", "the engine owns the locale");
    lua_pop(L, 1);
    static const char no_c[] = "no C modules, Lua files in the game's folder only";
    lua_getglobal(L, "package");
    refuse(L, -1, "loadlib", "package.loadlib", no_c);
    lua_pushliteral(L, "");
    lua_setfield(L, -2, "cpath");
    lua_pushliteral(L, "");
    lua_setfield(L, -2, "path");
    lua_createtable(L, 2, 0);
    lua_getfield(L, -2, "searchers");
    lua_rawgeti(L, -1, 1); /* the preload searcher */
    lua_rawseti(L, -3, 1);
    lua_pop(L, 1);
    lua_pushcfunction(L, search_game);
    lua_rawseti(L, -2, 2);
    lua_setfield(L, -2, "searchers");
    lua_pop(L, 1);
    refuse_library(L, "io",
                   "files through earshot.file.read and earshot.file.write, "
                   "under the game's folder and its save folder");
    refuse_library(L, "debug", "no debug library");
    lua_pushcfunction(L, l_loadfile);
    lua_setglobal(L, "loadfile");
    lua_pushcfunction(L, l_dofile);
    lua_setglobal(L, "dofile");
    lua_getglobal(L, "load");
    lua_pushcclosure(L, l_load, 1);
    lua_setglobal(L, "load");
    lua_pushcfunction(L, l_print);
    lua_setglobal(L, "print");
    lua_getglobal(L, "string");
    refuse(L, -1, "dump", "string.dump", "no bytecode");
    lua_pop(L, 1);
    return EAR_OK;
}

void ear__lua_close(ear_lua_game *g) {
    if (g->L) lua_close(g->L);
    g->L = NULL;
}

/* ---- shared by the bindings ----------------------------------------------------------- */

ear_ctx *ear__lua_ctx(lua_State *L) {
    ear_lua_game *g = ear__lua_game_of(L);
    if (!g->ctx)
        luaL_error(L, "the engine is not running the script now (an engine call outside a "
                      "frame)");
    return g->ctx;
}

int ear__lua_fail(lua_State *L, ear_result r, const char *what) {
    return luaL_error(L, "%s: %s: %s", what, ear_result_name(r), ear_result_string(r));
}
