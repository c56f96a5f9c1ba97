/* SPDX-License-Identifier: Zlib */
/*
 * A fixture for the audio world's tests: a stage, an assets cache with sine clips
 * registered by name, a physics world and the audio world over them, and a lockstep
 * loop (one physics step, one sync, one step of sound: 800 frames at 48 kHz, 60 Hz).
 */
#ifndef EAR_TEST_WORLD_UTIL_H
#define EAR_TEST_WORLD_UTIL_H

#include "earshot/analysis.h"
#include "earshot/world.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PI_D        3.14159265358979323846
#define RATE        48000u
#define STEP_FRAMES 800u
#define STEP_S      (1.0 / 60.0)

typedef struct fixture {
    ear_stage *stage;
    ear_assets *assets;
    ear_physics *physics;
    ear_world *world;
    float *buf; /* everything rendered so far, interleaved stereo */
    size_t frames, cap;
} fixture;

/* A mono sine clip of whole cycles (so it loops without a seam). */
static inline ear_clip *sine(double hz, double seconds, float amp) {
    uint64_t n = (uint64_t)llround(seconds * RATE);
    float *s = malloc(n * sizeof *s);
    for (uint64_t i = 0; i < n; i++)
        s[i] = amp * (float)sin(2.0 * PI_D * hz * (double)i / RATE);
    ear_clip *c = NULL;
    if (ear_clip_create(s, n, 1, RATE, NULL, &c) != EAR_OK) c = NULL;
    free(s);
    return c;
}

/* Registers a sine under `name` in the fixture's assets. */
static inline void add_sine(fixture *f, const char *name, double hz, double seconds,
                            float amp) {
    ear_clip *c = sine(hz, seconds, amp);
    ear_assets_register_clip(f->assets, name, c);
    ear_clip_release(c);
}

static inline bool fixture_open(fixture *f, ear_vec3 gravity) {
    memset(f, 0, sizeof *f);
    ear_physics_config pc = ear_physics_config_default();
    pc.gravity_mps2 = gravity;
    if (ear_stage_create(NULL, &f->stage) != EAR_OK) return false;
    if (ear_assets_create(NULL, &f->assets) != EAR_OK) return false;
    if (ear_physics_create(&pc, &f->physics) != EAR_OK) return false;
    ear_world_config wc = ear_world_config_default();
    wc.stage = f->stage;
    wc.assets = f->assets;
    wc.physics = f->physics;
    return ear_world_create(&wc, &f->world) == EAR_OK;
}

static inline void fixture_close(fixture *f) {
    ear_world_destroy(f->world);
    ear_physics_destroy(f->physics);
    ear_stage_destroy(f->stage);
    ear_assets_destroy(f->assets);
    free(f->buf);
    memset(f, 0, sizeof *f);
}

/* Renders one step of sound onto the fixture's buffer. */
static inline void render_step(fixture *f) {
    if (f->frames + STEP_FRAMES > f->cap) {
        f->cap = f->cap ? f->cap * 2 : RATE;
        while (f->frames + STEP_FRAMES > f->cap) f->cap *= 2;
        f->buf = realloc(f->buf, f->cap * 2 * sizeof *f->buf);
    }
    ear_stage_render(f->stage, f->buf + 2 * f->frames, STEP_FRAMES);
    f->frames += STEP_FRAMES;
}

/* One lockstep step without physics: sync, then render. */
static inline void sync_render(fixture *f) {
    ear_world_sync(f->world, STEP_S);
    render_step(f);
}

/* One lockstep step: physics step (clearing the frame's events first, as the runner
 * does), sync, render. False when the physics refuses to step. */
static inline bool step(fixture *f) {
    ear_physics_clear_events(f->physics);
    if (ear_physics_step(f->physics, (float)STEP_S) != EAR_OK) return false;
    ear_world_note_step(f->world);
    sync_render(f);
    return true;
}

/* The span [t0, t1) seconds of the buffer. */
static inline const float *at(const fixture *f, double t0) {
    return f->buf + 2 * (size_t)llround(t0 * RATE);
}
static inline size_t span(double t0, double t1) {
    return (size_t)llround((t1 - t0) * RATE);
}

/* A body: fixed (or another kind) box of half extent h at p. */
static inline ear_body_id body_at(fixture *f, const char *name, ear_body_kind kind, ear_vec3 p,
                                  ear_vec3 half) {
    ear_body_desc d = ear_body_desc_default();
    d.name = name;
    d.kind = kind;
    d.position_m = p;
    d.half_extents_m = half;
    ear_body_id id = EAR_BODY_NONE;
    ear_physics_add_body(f->physics, &d, &id);
    return id;
}

static inline ear_vec3 v3(float x, float y, float z) {
    return ear_vec3_make(x, y, z);
}

/* A looping spatial source of `sound` with no distance attenuation. */
static inline ear_source looping(const char *sound) {
    ear_source s = ear_source_default();
    snprintf(s.sound, sizeof s.sound, "%s", sound);
    s.looping = true;
    s.attenuation.model = EAR_MODEL_NONE;
    return s;
}

#endif
