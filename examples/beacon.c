/*
 * Beacon: DESIGN.md's smallest audio game. Space pings a square-wave beacon two metres
 * to the right (a "synth:" sound name, so no files are needed), F1 repeats the last
 * spoken message, Escape quits.
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
#include "earshot/engine.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct beacon {
    unsigned pings;
} beacon;

static void start(ear_ctx *ctx, void *user) {
    (void)user;
    ear_say(ctx, "Beacon. Space pings, F1 repeats, Escape quits.");
}

/* DESIGN.md's update (its ear_speech_repeat_last is ear_say_repeat_last here, since the
 * speech API takes the speech object), plus a count for the smoke run. */
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

static char *read_text(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *text = NULL;
    size_t size = 0;
    for (;;) {
        char *grown = realloc(text, size + 4097);
        if (!grown) break;
        text = grown;
        size_t got = fread(text + size, 1, 4096, f);
        size += got;
        if (got == 0) break;
    }
    fclose(f);
    if (text) text[size] = '\0';
    return text;
}

#ifndef EAR_VERSION
#define EAR_VERSION "0.1.0"
#endif

static const char usage_text[] =
    "usage: beacon [--headless FRAMES] [--script FILE] [--record FILE] [--replay FILE]\n"
    "       beacon --help | --version\n"
    "Space pings a beacon two metres to the right, F1 repeats the last message, Escape\n"
    "quits. --headless runs FRAMES frames (1 to 100000000) without a window.\n";

/* A frame count: digits only, 1 to 10^8 (0 would mean "until Escape", which a headless
 * run without a script never presses). */
static bool parse_frames(const char *text, uint64_t *out) {
    if (!*text) return false;
    for (const char *p = text; *p; p++)
        if (*p < '0' || *p > '9') return false;
    errno = 0;
    unsigned long long n = strtoull(text, NULL, 10);
    if (errno || n == 0 || n > 100000000ull) return false;
    *out = n;
    return true;
}

int main(int argc, char **argv) {
    ear_engine_config cfg = ear_engine_config_default("Beacon");
    ear_script script = {0};
    char *script_text = NULL;
    for (int i = 1; i < argc; i++) {
        bool has_value = i + 1 < argc;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(usage_text, stdout);
            free(script_text);
            ear_script_free(&script);
            return fflush(stdout) == 0 ? 0 : 1;
        } else if (strcmp(argv[i], "--version") == 0) {
            printf("beacon (Earshot) %s\n", EAR_VERSION);
            free(script_text);
            ear_script_free(&script);
            return fflush(stdout) == 0 ? 0 : 1;
        } else if (strcmp(argv[i], "--headless") == 0 && has_value) {
            cfg.backend = EAR_BACKEND_HEADLESS;
            uint64_t frames = 0;
            if (!parse_frames(argv[++i], &frames)) {
                fprintf(stderr,
                        "beacon: --headless %s: expected a number of frames from 1 to "
                        "100000000\n",
                        argv[i]);
                free(script_text);
                ear_script_free(&script);
                return 2;
            }
            cfg.frames = frames;
        } else if (strcmp(argv[i], "--script") == 0 && has_value) {
            const char *path = argv[++i];
            char error[256];
            errno = 0;
            script_text = read_text(path);
            int read_errno = errno;
            if (!script_text || ear_script_parse(script_text, &script, error, sizeof error)) {
                fprintf(stderr, "beacon: script '%s': %s\n", path,
                        script_text            ? error
                        : read_errno == ENOENT ? "no such file"
                        : read_errno           ? strerror(read_errno)
                                               : "cannot be read");
                free(script_text);
                return 2;
            }
            cfg.script = &script;
        } else if (strcmp(argv[i], "--record") == 0 && has_value) {
            cfg.record_path = argv[++i];
        } else if (strcmp(argv[i], "--replay") == 0 && has_value) {
            cfg.replay_path = argv[++i];
        } else {
            fputs(usage_text, stderr);
            free(script_text);
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
    free(script_text);
    return code;
}
