/* SPDX-License-Identifier: Zlib */
/*
 * What the Lua tests share: a fresh folder with a game script in it, and a headless
 * runner that runs the script's scene for a number of frames (the engine's own loop,
 * rendering the stage as earshot-lua does).
 */
#ifndef EARSHOT_TESTS_LUA_HELPERS_H
#define EARSHOT_TESTS_LUA_HELPERS_H

#define _DEFAULT_SOURCE
#include "earshot/engine.h"
#include "earshot/lua_game.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Makes <tmp>/<name>/ with game.lua holding text; writes the script's path to out. */
static inline void lua_test_folder(const char *name, const char *text, char *out, size_t cap) {
    const char *tmp = getenv("TMPDIR");
    char dir[512];
    snprintf(dir, sizeof dir, "%s/earshot-lua-%s-%d", tmp && *tmp ? tmp : "/tmp", name,
             (int)getpid());
    mkdir(dir, 0700);
    char save[600];
    snprintf(save, sizeof save, "%s/save", dir);
    mkdir(save, 0700);
    snprintf(out, cap, "%s/game.lua", dir);
    FILE *f = fopen(out, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* What a run heard from frame `from` on: the sums of squares of each channel. */
typedef struct lua_test_audio {
    uint64_t from;
    double sum_l, sum_r;
    uint64_t samples;
} lua_test_audio;

/* Runs the game's scene headless for frames frames (or until it quits), with keys queued
 * (and pad lines) before the frames that script names; returns the frames run. audio (may be
 * NULL) collects the stage's output. */
static inline uint64_t lua_test_run_heard(ear_lua_game *g, uint64_t frames,
                                          const ear_script *keys, lua_test_audio *audio) {
    ear_engine_config cfg = ear_engine_config_default("lua test");
    cfg.backend = EAR_BACKEND_HEADLESS;
    cfg.audio_attach = NULL;
    cfg.audio_update = NULL;
    cfg.audio_detach = NULL;
    ear_lua_game_attach(g, &cfg);
    ear_scene scene = ear_lua_game_scene(g);
    ear_runner *rn = NULL;
    if (ear_runner_create(&cfg, &scene, &rn) != EAR_OK) return 0;
    ear_runner_set_one_step_per_frame(rn, true);
    static int rendered_here;
    ear_runner_set_audio_device(rn, &rendered_here);
    float buf[800 * 2];
    uint64_t f = 0;
    for (; f < frames && ear_runner_running(rn); f++) {
        for (size_t i = 0; keys && i < keys->count; i++) {
            const ear_script_event *e = &keys->events[i];
            if (e->frame == f) ear_runner_queue_script_event(rn, e); /* keys, text, pads */
        }
        ear_runner_frame(rn, (double)f / 60.0);
        ear_stage_render(ear_ctx_stage(ear_runner_ctx(rn)), buf, 800);
        if (audio && f >= audio->from) {
            for (int i = 0; i < 800; i++) {
                audio->sum_l += (double)buf[2 * i] * buf[2 * i];
                audio->sum_r += (double)buf[2 * i + 1] * buf[2 * i + 1];
            }
            audio->samples += 800;
        }
    }
    ear_runner_destroy(rn);
    return f;
}

static inline uint64_t lua_test_run(ear_lua_game *g, uint64_t frames, const ear_script *keys) {
    return lua_test_run_heard(g, frames, keys, NULL);
}

#endif
