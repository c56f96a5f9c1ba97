/* SPDX-License-Identifier: Zlib */
/*
 * Games written in Lua 5.4 (docs/lua.md): a script file becomes a scene the runtime runs.
 * The script runs in a sandbox: no programs, no C modules, no debug library, files only
 * under its own folder (read) and its save folder (read and write), its memory within a
 * budget, and an endless loop stopped by an instruction count. The script's main chunk
 * runs as a coroutine from the first frame: earshot.wait(ms) (and compat's wait) gives the
 * frame back to the engine, so BGT-style loops work; a global update(dt) is also called
 * every frame. An error anywhere in the script is logged with its file, line and a
 * traceback, spoken, and the game goes on: the script's on_error(message) is called if it
 * has one, else its menu() starts afresh in a new coroutine, else the error is the end of
 * the main coroutine and update goes on being called.
 *
 * This module links Lua (MIT licence); only earshot-lua links it, never libearshot.
 */
#ifndef EARSHOT_LUA_GAME_H
#define EARSHOT_LUA_GAME_H

#include "earshot/core.h"
#include "earshot/engine.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ear_lua_config {
    const char *script_path; /* the game's script; required (copied) */
    /* The folder the script may write (earshot.file.write, saves it makes itself); NULL:
     * none, writing is refused. Must exist (copied as its real path). */
    const char *save_dir;
    size_t memory_budget_bytes; /* the Lua state's memory at most; default 64 MiB */
    /* Instructions the script may run before it gives the frame back (returns from a
     * callback or waits); default 200 million (a couple of seconds). */
    uint64_t instruction_budget;
    const ear_allocator *allocator; /* the memory under the budget; default NULL: malloc */
    /* Told of each line speech started and ended (ear_speech_set_listener on the engine's
     * speech at the first frame: the speech log). Default NULL. */
    ear_speech_event_fn on_speech;
    void *speech_user;
} ear_lua_config;

/* The defaults above. Thread: any. */
ear_lua_config ear_lua_config_default(void);

typedef struct ear_lua_game ear_lua_game;

/* Makes the sandboxed state and compiles the script (nothing of it runs yet). A syntax
 * error, a missing file or a bad save folder fails (EAR_E_FORMAT, EAR_E_NOT_FOUND,
 * EAR_E_IO) with "<file>:<line>: <message>" in error (error_size bytes; may be NULL) and
 * nothing made. EAR_E_OUT_OF_MEMORY. Thread: game. */
ear_result ear_lua_game_create(const ear_lua_config *config, ear_lua_game **out_game,
                               char *error, size_t error_size);
/* Closes the state (finalisers run) and frees the game. Call after the runner that ran
 * its scene is destroyed, or from no scene at all. NULL does nothing. Thread: game. */
void ear_lua_game_destroy(ear_lua_game *game);
/* The scene that runs the script (user data: the game). Thread: any. */
ear_scene ear_lua_game_scene(ear_lua_game *game);
/* Plugs the game's UI (the widgets of earshot.ui, owned by the game) into the engine
 * config that will run its scene (ear_ui_attach). Without it the script's earshot.ui
 * calls raise an error saying so. NULL game or config does nothing. Thread: game. */
void ear_lua_game_attach(ear_lua_game *game, ear_engine_config *config);

/* What a run did: script errors so far (each logged and spoken), the last one's message
 * ("" when none), the script's own summary line (earshot.summary; "" when unset), the
 * memory in use and at its peak. Thread: game. */
uint64_t ear_lua_game_errors(const ear_lua_game *game);
const char *ear_lua_game_last_error(const ear_lua_game *game);
const char *ear_lua_game_summary(const ear_lua_game *game);
size_t ear_lua_game_memory_bytes(const ear_lua_game *game);
size_t ear_lua_game_memory_peak_bytes(const ear_lua_game *game);

/* Runs a chunk of Lua text in the game's sandbox now, outside any frame (tests, a
 * console): EAR_OK, or EAR_E_FORMAT for a syntax error, EAR_E_STATE for a runtime error,
 * with the message (file and line, traceback) in error. Bindings that need the engine
 * raise a Lua error here unless a runner's frame is under way. Thread: game. */
ear_result ear_lua_game_run_string(ear_lua_game *game, const char *name, const char *text,
                                   char *error, size_t error_size);

#ifdef __cplusplus
}
#endif

#endif /* EARSHOT_LUA_GAME_H */
