/* SPDX-License-Identifier: Zlib */
/*
 * Beacon: the smallest audio game (docs/design.md, "How it feels to use"). Space pings
 * a square-wave beacon two metres to the right (a "synth:" sound name, so no files are
 * needed), F1 repeats the last spoken message, Escape quits.
 *
 *     beacon                                  a window (SDL2), played by ear
 *     beacon --headless 600 --script FILE     600 frames without a window, keys from FILE
 *     beacon --headless 600 --script FILE --record R   ... and the run recorded to R
 *     beacon --replay R                       plays R back and checks every step
 *     beacon --help | --version
 *
 * The script's format is in docs/modules/runtime.md ("10 press SPACE" ...). Headless,
 * the game prints one line at the end that tests read.
 */
#include "cli_options.h"

#include "earshot/engine.h"

#include <stdio.h>
#include <string.h>

typedef struct beacon {
    unsigned pings;
} beacon;

static void start(ear_ctx *ctx, void *user) {
    (void)user;
    ear_say(ctx, "Beacon. Space pings, F1 repeats, Escape quits.");
}

/* The whole game: Space pings, F1 repeats the last spoken line, Escape quits; the count
 * is for the smoke run. */
static void update(ear_ctx *ctx, void *user) {
    beacon *b = user;
    if (ear_key_pressed(ctx, EAR_KEY_SPACE)) {
        if (ear_play_at(ctx, "synth:square:300:0.15", (ear_vec3){2, 0, 0}) != EAR_VOICE_NONE)
            b->pings++;
    }
    if (ear_key_pressed(ctx, EAR_KEY_F1)) ear_say_repeat_last(ctx);
    if (ear_key_pressed(ctx, EAR_KEY_ESCAPE)) ear_quit(ctx);
}

static uint64_t hash_state(ear_ctx *ctx, void *user) {
    (void)ctx;
    return ((beacon *)user)->pings;
}

static void end(ear_ctx *ctx, void *user) {
    beacon *b = user;
    if (ear_ctx_headless(ctx)) {
        ear_speech *sp = ear_ctx_speech(ctx);
        printf("beacon: %llu frames, %llu steps, %u pings, %llu spoken\n",
               (unsigned long long)ear_ctx_frame(ctx), (unsigned long long)ear_ctx_step(ctx),
               b->pings, (unsigned long long)ear_speech_delivered(sp));
    }
}

static const char usage_text[] =
    "usage: beacon [--headless FRAMES] [--script FILE] [--record FILE] [--replay FILE]\n"
    "       beacon --help | --version\n"
    "Space pings a beacon two metres to the right, F1 repeats the last message, Escape\n"
    "quits. --headless runs FRAMES frames (1 to 100000000) without a window.\n";

int main(int argc, char **argv) {
    ear_engine_config cfg = ear_engine_config_default("Beacon");
    ear_script script = {0};
    for (int i = 1; i < argc; i++) {
        bool has_value = i + 1 < argc;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            ear_script_free(&script);
            return cli_print_help(usage_text);
        } else if (strcmp(argv[i], "--version") == 0) {
            ear_script_free(&script);
            return cli_print_version("beacon");
        } else if (strcmp(argv[i], "--headless") == 0 && has_value) {
            cfg.backend = EAR_BACKEND_HEADLESS;
            uint64_t frames = 0;
            if (!cli_parse_frames("beacon", argv[++i], &frames)) {
                ear_script_free(&script);
                return 2;
            }
            cfg.frames = frames;
        } else if (strcmp(argv[i], "--script") == 0 && has_value) {
            ear_script_free(&script); /* the last --script counts */
            if (!cli_load_script("beacon", argv[++i], &script)) return 2;
            cfg.script = &script;
        } else if (strcmp(argv[i], "--record") == 0 && has_value) {
            cfg.record_path = argv[++i];
        } else if (strcmp(argv[i], "--replay") == 0 && has_value) {
            cfg.replay_path = argv[++i];
        } else {
            fputs(usage_text, stderr);
            ear_script_free(&script);
            return 2;
        }
    }
    beacon b = {0};
    ear_scene scene = {.name = "beacon",
                       .start = start,
                       .update = update,
                       .end = end,
                       .hash_state = hash_state,
                       .user = &b};
    int code = ear_run(&cfg, &scene);
    ear_script_free(&script);
    return code;
}
