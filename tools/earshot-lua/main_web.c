/* SPDX-License-Identifier: Zlib */
/*
 * earshot-lua in a web browser (web/CMakeLists.txt, docs/web.md "Lua games"): the page's
 * Start button runs this main with the game's name, and the game runs as natively (the
 * same src/lua, the same sandbox), with the page's keys, sound and live regions instead of
 * a window. Without what belongs to a native process: no flags, no headless loop, no
 * speech log file.
 *
 * The games are packed into the program's file system under /games (the web build's
 * --preload-file of examples/lua): the name "beacon_hunt" is /games/beacon_hunt/game.lua,
 * "tutorial/step5" is /games/tutorial/step5.lua. Each game's save folder is
 * lua/<name> in the page's working folder (kept in the browser's storage), holding the
 * sandbox's files and the engine's save <name>.save, plain (the web build has no
 * libsodium).
 *
 * A game that cannot start (no such game, a syntax error) still runs the engine, with a
 * scene that says why, file and line included, so the player hears it through the screen
 * reader and not only the console; Escape ends it, F1 repeats it. When the game ends,
 * the same summary line as the native headless run's goes to the console.
 */
#include "earshot/engine.h"
#include "earshot/lua_game.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#define GAMES_DIR "/games"

typedef struct web_lua {
    ear_lua_game *game;
    ear_scene scene; /* the Lua game's own scene, which this one wraps */
    char name[128];
    char failure[2200]; /* why the game could not start ("" when it started) */
} web_lua;

/* A game's name: letters, digits, '_' and '-' in parts joined by '/', no "..", no
 * leading '/'. */
static bool good_name(const char *name) {
    size_t n = strlen(name);
    if (n == 0 || n >= 100 || name[0] == '/' || name[n - 1] == '/') return false;
    for (size_t i = 0; i < n; i++) {
        char c = name[i];
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                  c == '_' || c == '-' || (c == '/' && name[i + 1] != '/');
        if (!ok) return false;
    }
    return true;
}

static bool is_file(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* mkdir -p of a relative path; true when the folder exists at the end. */
static bool make_folders(char *dir) {
    for (char *slash = strchr(dir, '/'); slash; slash = strchr(slash + 1, '/')) {
        *slash = '\0';
        mkdir(dir, 0700);
        *slash = '/';
    }
    return mkdir(dir, 0700) == 0 || errno == EEXIST;
}

static void print_summary(ear_ctx *ctx, const web_lua *w) {
    uint64_t spoken = ear_speech_total(ear_ctx_speech(ctx));
    uint64_t voices = ear_world_get_stats(ear_ctx_world(ctx)).started;
    printf("summary: frames=%llu steps=%llu spoken=%llu world_voices=%llu errors=%llu "
           "memory_peak_kib=%zu game=%s\n",
           (unsigned long long)ear_ctx_frame(ctx), (unsigned long long)ear_ctx_step(ctx),
           (unsigned long long)spoken, (unsigned long long)voices,
           (unsigned long long)ear_lua_game_errors(w->game),
           ear_lua_game_memory_peak_bytes(w->game) >> 10, ear_lua_game_summary(w->game));
    fflush(stdout);
}

static void game_start(ear_ctx *ctx, void *user) {
    web_lua *w = user;
    w->scene.start(ctx, w->scene.user);
}
static void game_update(ear_ctx *ctx, void *user) {
    web_lua *w = user;
    w->scene.update(ctx, w->scene.user);
}
static void game_end(ear_ctx *ctx, void *user) {
    web_lua *w = user;
    w->scene.end(ctx, w->scene.user);
    print_summary(ctx, w);
}

/* The scene of a game that could not start: it says why until Escape. */
static void failed_start(ear_ctx *ctx, void *user) {
    web_lua *w = user;
    ear_say(ctx, w->failure);
}
static void failed_update(ear_ctx *ctx, void *user) {
    web_lua *w = user;
    if (ear_key_pressed(ctx, EAR_KEY_F1)) ear_say(ctx, w->failure);
    if (ear_key_pressed(ctx, EAR_KEY_ESCAPE)) ear_quit(ctx);
}

int main(int argc, char **argv) {
    /* static: in the browser main's frame is left to the browser's loop (its locals stay
     * valid, as docs/web.md says, but the scene's user data need not live there) */
    static web_lua w;
    const char *name = argc > 1 ? argv[1] : "";
    snprintf(w.name, sizeof w.name, "%s", name);

    char script[256] = "";
    if (!good_name(name)) {
        snprintf(w.failure, sizeof w.failure,
                 "The game could not start: \"%s\" is not a game's name (the page's address "
                 "names it: ?game=beacon_hunt).",
                 name);
    } else {
        snprintf(script, sizeof script, "%s/%s.lua", GAMES_DIR, name);
        if (!is_file(script))
            snprintf(script, sizeof script, "%s/%s/game.lua", GAMES_DIR, name);
        if (!is_file(script))
            snprintf(w.failure, sizeof w.failure,
                     "The game could not start: there is no game %s (no %s/%s.lua nor %s).",
                     name, GAMES_DIR, name, script);
    }

    /* The save folder, lua/<name>, in the page's working folder (browser storage). */
    char save_dir[200] = "", save_file[400] = "";
    if (!w.failure[0]) {
        snprintf(save_dir, sizeof save_dir, "lua/%s", name);
        if (!make_folders(save_dir)) {
            fprintf(stderr, "earshot-lua: %s: %s; the game runs without a save\n", save_dir,
                    strerror(errno));
            save_dir[0] = '\0';
        } else {
            const char *base = strrchr(name, '/');
            snprintf(save_file, sizeof save_file, "%s/%s.save", save_dir,
                     base ? base + 1 : name);
        }
    }

    char error[2048] = "";
    if (!w.failure[0]) {
        ear_lua_config lc = ear_lua_config_default();
        lc.script_path = script;
        lc.save_dir = save_dir[0] ? save_dir : NULL;
        if (ear_lua_game_create(&lc, &w.game, error, sizeof error) != EAR_OK)
            snprintf(w.failure, sizeof w.failure, "The game could not start: %s", error);
    }

    ear_engine_config cfg = ear_engine_config_default(w.name[0] ? w.name : "earshot-lua");
    ear_scene scene = {0};
    scene.user = &w;
    if (w.failure[0]) {
        fprintf(stderr, "earshot-lua: %s\n", w.failure);
        scene.name = "could not start";
        scene.start = failed_start;
        scene.update = failed_update;
    } else {
        /* The sounds are the game's: <game folder>/sounds/<name> (and synth: names). */
        static char assets[256];
        snprintf(assets, sizeof assets, "%s", script);
        *strrchr(assets, '/') = '\0';
        cfg.assets_dir = assets;
        cfg.save_path = save_file[0] ? save_file : NULL;
        ear_lua_game_attach(w.game, &cfg); /* its widgets (earshot.ui) */
        w.scene = ear_lua_game_scene(w.game);
        scene.name = w.scene.name;
        scene.start = game_start;
        scene.update = game_update;
        scene.end = game_end;
    }
    /* In the browser this does not return while the game runs; the page says when the
     * game has ended. (The Lua state then lives on until the page goes: the game's
     * on_exit has run in its scene's end, and nothing else of it is left to do.) */
    int code = ear_run(&cfg, &scene);
    ear_lua_game_destroy(w.game);
    w.game = NULL;
    return code;
}
