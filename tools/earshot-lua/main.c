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
#include <cli_options.h> /* examples/: --help, --version, --script */

#include "earshot/engine.h"
#include "earshot/lua_game.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
    if (n == 0) return true;
    if (n < 0) return false;
    ssize_t i = 0;
    while (i < n && head[i] >= '0' && head[i] <= '9') i++;
    return i > 0 && i + 3 < n && head[i] == '.' && head[i + 3] == '\t';
}

static void on_line(void *user, const ear_speech_event *e) {
    run *r = user;
    if (e->kind == EAR_SPEECH_EVENT_START || !r->speech_log) return;
    if (e->kind == EAR_SPEECH_EVENT_END)
        fprintf(r->speech_log, "%.2f\t%s\theard\n", e->start_s, e->text);
    else
        fprintf(r->speech_log, "%.2f\t%s\tcut %.2f/%.2f\n", e->start_s, e->text, e->said_s,
                e->full_s);
}

static uint64_t seconds_to_frames(double seconds, double frame_hz) {
    double frames = ceil(seconds * frame_hz - 1e-9);
    return frames < 1 ? 1 : (uint64_t)frames;
}

static bool have_display(void) {
    const char *x = getenv("DISPLAY"), *w = getenv("WAYLAND_DISPLAY");
    return (x && *x) || (w && *w);
}

static bool have_sound_card(void) {
    struct stat st;
    return stat("/dev/snd", &st) == 0 && S_ISDIR(st.st_mode) &&
           access("/dev/snd/controlC0", F_OK) == 0;
}

/* Keys, text, focus, quit and gamepad lines, as the headless backend queues them. */
static void queue_script(ear_runner *rn, const ear_script_event *e) {
    ear_runner_queue_script_event(rn, e);
}

static int by_frame(const void *a, const void *b) {
    const ear_script_event *x = *(const ear_script_event *const *)a;
    const ear_script_event *y = *(const ear_script_event *const *)b;
    if (x->frame != y->frame) return x->frame < y->frame ? -1 : 1;
    return x < y ? -1 : x > y;
}

/* The game's name: the script's file name without ".lua". */
static void game_name(const char *path, char *out, size_t cap) {
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base);
    if (n > 4 && strcmp(base + n - 4, ".lua") == 0) n -= 4;
    snprintf(out, cap, "%.*s", (int)n, base);
}

/* mkdir -p; true when the folder exists at the end. */
static bool make_folders(char *dir) {
    for (char *slash = strchr(dir + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
        *slash = '\0';
        mkdir(dir, 0700);
        *slash = '/';
    }
    return mkdir(dir, 0700) == 0 || errno == EEXIST;
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
        bool display = have_display(), card = have_sound_card();
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
    if (!save_dir && !headless) {
        const char *data = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
        if (data && *data)
            snprintf(default_save, sizeof default_save, "%s/earshot/%s", data, name);
        else
            snprintf(default_save, sizeof default_save, "%s/.local/share/earshot/%s",
                     home ? home : ".", name);
        if (make_folders(default_save)) save_dir = default_save;
    }
    char save_file[1400] = "";
    if (save_dir) snprintf(save_file, sizeof save_file, "%s/%s.save", save_dir, name);

    run r = {0};
    ear_file_writer speech_out = {.fd = -1};
    if (speech_path) {
        ear_file_write_config c = ear_file_write_config_default();
        c.stream_devices = true;
        c.ours = is_speech_log;
        c.ours_name = "a speech log";
        c.overwrite_hint = "";
        char why[600];
        if (ear_file_write_begin(speech_path, &c, &speech_out, why, sizeof why) != EAR_OK) {
            fprintf(stderr, "earshot-lua: --speech-log %s\n", why);
            return 1;
        }
        r.speech_log = ear_file_writer_stream(&speech_out);
        if (!r.speech_log) {
            ear_file_write_abort(&speech_out);
            fprintf(stderr, "earshot-lua: --speech-log %s: out of memory\n", speech_path);
            return 1;
        }
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
        if (seconds > 0) cfg.frames = seconds_to_frames(seconds, cfg.frame_hz);
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
        ear_runner_set_one_step_per_frame(rn, true);
        static int rendered_here;
        ear_runner_set_audio_device(rn, &rendered_here); /* this loop renders the stage */
        ear_stage *stage = ear_ctx_stage(ear_runner_ctx(rn));
        enum { PER = 800 };
        float buf[PER * 2];
        uint64_t audio_hash = EAR_FNV1A64_OFFSET;
        uint64_t max_frames = seconds > 0 ? seconds_to_frames(seconds, 60.0) : 0;
        const ear_script_event **order = calloc(script.count + 1, sizeof *order);
        size_t count = order ? script.count : 0, next = 0;
        for (size_t k = 0; k < count; k++) order[k] = &script.events[k];
        if (order) qsort(order, count, sizeof *order, by_frame);
        bool closed = false;
        for (uint64_t frame = 0; ear_runner_running(rn); frame++) {
            if (replay && ear_runner_replay_done(rn)) break;
            if (max_frames && frame >= max_frames && !closed) {
                ear_runner_close(rn);
                closed = true;
            }
            while (!replay && next < count && order[next]->frame <= frame)
                queue_script(rn, order[next++]);
            ear_runner_frame(rn, (double)frame / 60.0);
            ear_stage_render(stage, buf, PER);
            audio_hash = ear_fnv1a64_floats(audio_hash, buf, PER * 2);
        }
        uint64_t frames = ear_runner_frames(rn), steps = ear_runner_steps(rn);
        ear_ctx *ctx = ear_runner_ctx(rn);
        uint64_t spoken = ear_speech_total(ear_ctx_speech(ctx));
        uint64_t voices = ear_world_get_stats(ear_ctx_world(ctx)).started;
        uint64_t mismatch = ear_runner_replay_mismatch(rn);
        if (ear_runner_finish(rn) != EAR_OK) code = 1;
        ear_runner_destroy(rn);
        free(order);
        if (replay && mismatch != UINT64_MAX) {
            fprintf(stderr, "earshot-lua: the replay diverged at step %llu\n",
                    (unsigned long long)mismatch);
            code = 1;
        }
        printf("audio_hash: %016llx\n", (unsigned long long)audio_hash);
        printf("summary: frames=%llu steps=%llu spoken=%llu world_voices=%llu errors=%llu "
               "memory_peak_kib=%zu game=%s\n",
               (unsigned long long)frames, (unsigned long long)steps,
               (unsigned long long)spoken, (unsigned long long)voices,
               (unsigned long long)ear_lua_game_errors(lg),
               ear_lua_game_memory_peak_bytes(lg) >> 10, ear_lua_game_summary(lg));
    }
    r.speech_log = NULL;
    if (speech_path) {
        char why[600];
        if (ear_file_write_commit(&speech_out, why, sizeof why) != EAR_OK) {
            fprintf(stderr, "earshot-lua: --speech-log %s\n", why);
            code = 1;
        }
    }
    ear_lua_game_destroy(lg);
    ear_script_free(&script);
    return code;
}
