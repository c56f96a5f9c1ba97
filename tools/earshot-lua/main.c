/* SPDX-License-Identifier: Zlib */
/*
 * earshot-lua: runs a game written in Lua (docs/lua.md, docs/tutorial.md) with the
 * engine's runtime. A window and the sound card when there are both (or with --window);
 * otherwise (or with --headless, --replay) a headless run this file drives frame by frame:
 * --script keys go in, the stage's output is rendered and hashed, and a summary line comes
 * out. The flags are the demo game's: --script, --record, --replay, --speech-log,
 * --seconds, --save.
 */
#define _DEFAULT_SOURCE
#include <cli_game.h>    /* examples/: the front end's shared parts */
#include <cli_options.h> /* examples/: --help, --version, --script */

#include "earshot/engine.h"
#include "earshot/lua_game.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage_text[] =
    "usage: earshot-lua [options] GAME.lua\n"
    "  Runs a game written in Lua (docs/lua.md).\n"
    "  --window            a window (SDL2) even without a sound card or display check\n"
    "  --headless          no window: frames run as fast as they can (keys from --script)\n"
    "  --script FILE       keys (\"<frame> press|down|up|text KEY\", \"<frame> quit\")\n"
    "  --record FILE       record the run's input and hashes per step\n"
    "  --replay FILE       play a recording back, checking every step's hashes\n"
    "  --speech-log FILE   what was heard: \"<start s>\\t<text>\\theard\" for each line\n"
    "                      said whole, \"...\\tcut <said s>/<full s>\" for one cut short\n"
    "  --seconds S         stop after S seconds of frames\n"
    "  --save DIR          the save folder (the save file and the script's own files; a\n"
    "                      window run defaults to $XDG_DATA_HOME/earshot/<game>)\n"
    "  --memory MIB        the script's memory budget (default 64)\n"
    "  --help, --version\n";

typedef struct run {
    FILE *speech_log;
} run;

static bool is_speech_log(int fd, void *user) {
    (void)user;
    char head[16];
    ssize_t n = read(fd, head, sizeof head);
    return n == 0 || (n > 0 && cli_looks_like_speech_log(head, (size_t)n));
}

static void on_line(void *user, const ear_speech_event *e) {
    cli_speech_log_line(((run *)user)->speech_log, e);
}

/* The game's name: the script's file name without ".lua". */
static void game_name(const char *path, char *out, size_t cap) {
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base);
    if (n > 4 && strcmp(base + n - 4, ".lua") == 0) n -= 4;
    snprintf(out, cap, "%.*s", (int)n, base);
}

int main(int argc, char **argv) {
    bool headless = false, choose_mode = true;
    const char *game = NULL, *script_path = NULL, *record = NULL, *replay = NULL;
    const char *speech_path = NULL, *save_dir = NULL;
    double seconds = 0, memory_mib = 64;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool v = i + 1 < argc;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) return cli_print_help(usage_text);
        if (!strcmp(a, "--version")) return cli_print_version("earshot-lua");
        if (!strcmp(a, "--headless")) {
            headless = true;
            choose_mode = false;
        } else if (!strcmp(a, "--window")) {
            choose_mode = false;
        } else if (!strcmp(a, "--script") && v) {
            script_path = argv[++i];
        } else if (!strcmp(a, "--record") && v) {
            record = argv[++i];
        } else if (!strcmp(a, "--replay") && v) {
            replay = argv[++i];
            headless = true;
            choose_mode = false;
        } else if (!strcmp(a, "--speech-log") && v) {
            speech_path = argv[++i];
        } else if (!strcmp(a, "--save") && v) {
            save_dir = argv[++i];
        } else if ((!strcmp(a, "--seconds") || !strcmp(a, "--memory")) && v) {
            char *end;
            double x = strtod(argv[++i], &end);
            if (*end || !(x > 0) || x > 86400) {
                fprintf(stderr, "earshot-lua: %s %s: expected a positive number\n", a, argv[i]);
                return 2;
            }
            if (a[2] == 's')
                seconds = x;
            else
                memory_mib = x;
        } else if (a[0] == '-' || game) {
            fprintf(stderr, "earshot-lua: %s: unknown option\n%s", a, usage_text);
            return 2;
        } else {
            game = a;
        }
    }
    if (!game) {
        fprintf(stderr, "earshot-lua: no game script given\n%s", usage_text);
        return 2;
    }
    if (choose_mode) {
        bool display = cli_have_display(), card = cli_have_sound_card();
        headless = !(display && card);
        if (headless)
            printf("mode: headless (%s)\n", !display ? "no display: DISPLAY and "
                                                       "WAYLAND_DISPLAY are unset"
                                                     : "no sound card in /dev/snd");
        else
            printf("mode: window and sound card\n");
        fflush(stdout);
    }

    /* The save folder: asked for, or the user's data folder for a window run. */
    char name[256], default_save[1024];
    game_name(game, name, sizeof name);
    if (!save_dir && !headless && cli_user_data_folder(name, default_save, sizeof default_save))
        save_dir = default_save;
    char save_file[1400] = "";
    if (save_dir) snprintf(save_file, sizeof save_file, "%s/%s.save", save_dir, name);

    run r = {0};
    ear_file_writer speech_out = {.fd = -1};
    if (speech_path) {
        r.speech_log = cli_open_log(&speech_out, "earshot-lua", "--speech-log", speech_path,
                                    is_speech_log, NULL, "a speech log");
        if (!r.speech_log) return 1;
    }
    ear_script script = {0};
    if (script_path && !cli_load_script("earshot-lua", script_path, &script)) {
        ear_file_write_abort(&speech_out);
        return 2;
    }

    ear_lua_config lc = ear_lua_config_default();
    lc.script_path = game;
    lc.save_dir = save_dir;
    lc.memory_budget_bytes = (size_t)(memory_mib * 1048576.0);
    lc.on_speech = on_line;
    lc.speech_user = &r;
    ear_lua_game *lg = NULL;
    char error[2048];
    if (ear_lua_game_create(&lc, &lg, error, sizeof error) != EAR_OK) {
        fprintf(stderr, "earshot-lua: %s\n", error);
        ear_file_write_abort(&speech_out);
        ear_script_free(&script);
        return 1;
    }
    /* The sounds are the game's: <game folder>/sounds/<name> (and synth: names). */
    char assets[1024];
    const char *slash = strrchr(game, '/');
    if (slash)
        snprintf(assets, sizeof assets, "%.*s", (int)(slash - game), game);
    else
        snprintf(assets, sizeof assets, ".");

    ear_engine_config cfg = ear_engine_config_default(name);
    cfg.assets_dir = assets;
    cfg.save_path = save_file[0] ? save_file : NULL;
    cfg.record_path = record;
    cfg.replay_path = replay;
    ear_lua_game_attach(lg, &cfg); /* its widgets (earshot.ui) */
    ear_scene scene = ear_lua_game_scene(lg);
    int code = 0;
    if (!headless) {
        if (script_path) cfg.script = &script;
        if (seconds > 0) cfg.frames = cli_seconds_to_frames(seconds, cfg.frame_hz);
        ear_result res = ear_engine_run(&cfg, &scene);
        code = res == EAR_OK ? 0 : 1;
        if (res == EAR_E_UNSUPPORTED) fprintf(stderr, "earshot-lua: no display\n");
    } else {
        cfg.backend = EAR_BACKEND_HEADLESS;
        cfg.audio_attach = NULL;
        cfg.audio_update = NULL;
        cfg.audio_detach = NULL;
        ear_runner *rn = NULL;
        ear_result res = ear_runner_create(&cfg, &scene, &rn);
        if (res != EAR_OK) {
            fprintf(stderr, "earshot-lua: the game could not start: %s\n",
                    ear_result_string(res));
            ear_file_write_abort(&speech_out);
            ear_lua_game_destroy(lg);
            ear_script_free(&script);
            return 1;
        }
        uint64_t max_frames = seconds > 0 ? cli_seconds_to_frames(seconds, 60.0) : 0;
        cli_headless_result out = {0};
        if (!cli_run_headless("earshot-lua", rn, &script, replay != NULL, max_frames, NULL,
                              &out))
            code = 1;
        uint64_t frames = ear_runner_frames(rn), steps = ear_runner_steps(rn);
        ear_ctx *ctx = ear_runner_ctx(rn);
        uint64_t spoken = ear_speech_total(ear_ctx_speech(ctx));
        uint64_t voices = ear_world_get_stats(ear_ctx_world(ctx)).started;
        uint64_t mismatch = ear_runner_replay_mismatch(rn);
        if (ear_runner_finish(rn) != EAR_OK) code = 1;
        ear_runner_destroy(rn);
        if (replay && mismatch != UINT64_MAX) {
            fprintf(stderr, "earshot-lua: the replay diverged at step %llu\n",
                    (unsigned long long)mismatch);
            code = 1;
        }
        printf("audio_hash: %016llx\n", (unsigned long long)out.audio_hash);
        printf("summary: frames=%llu steps=%llu spoken=%llu world_voices=%llu errors=%llu "
               "memory_peak_kib=%zu game=%s\n",
               (unsigned long long)frames, (unsigned long long)steps,
               (unsigned long long)spoken, (unsigned long long)voices,
               (unsigned long long)ear_lua_game_errors(lg),
               ear_lua_game_memory_peak_bytes(lg) >> 10, ear_lua_game_summary(lg));
    }
    r.speech_log = NULL;
    if (!cli_close_log(&speech_out, "earshot-lua", "--speech-log")) code = 1;
    ear_lua_game_destroy(lg);
    ear_script_free(&script);
    return code;
}
