/* SPDX-License-Identifier: Zlib */
/*
 * Doppler at any frame rate. The runner steps the physics at 60 Hz and syncs the audio
 * world once a frame, so at 144 or 240 frames a second most frames take no step and some
 * take one; at 30, each takes two. A body's velocity must come from the steps (the motion
 * over the physics time it took), never from one frame's difference, or a car at 20 m/s
 * reads 0 in the frames without a step and 48 m/s in the others, and its tone warbles.
 *
 * Through the real runner (a window backend's frame loop, driven here at a fixed rate):
 * a looping 1 kHz sine on a kinematic car approaching the ear at 20 m/s on the axis, with
 * no distance attenuation, rendered offline frame by frame (the frame's real time in
 * samples) into a buffer. Over 0.5..1.5 s the approach speed is constant, so the tone is
 * 1000 · c / (c − 20) with the stage's speed of sound c = 343 m/s: 1061.92 Hz. The car
 * moves by its velocity (the physics) in one run and by ear_body_set_position in the game's
 * fixed_update in the other (a game-moved body).
 */
#include "earshot/analysis.h"
#include "earshot/engine.h"
#include "earshot/world.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PI_D    3.14159265358979323846
#define RATE    48000u
#define SOURCE  1000.0
#define SPEED   20.0
#define C_SOUND 343.0
#define RUN_S   2.0
#define START_S 5.0

typedef struct run {
    bool game_moved;
    ear_runner *runner;
    ear_body_id car;
    float z;
    float *buf;
    size_t frames, cap;
    double debt;
} run;

static ear_clip *sine_clip(double hz, float amp) {
    uint32_t n = RATE; /* 1 s: whole cycles of 1 kHz, so the loop has no seam */
    float *s = malloc(n * sizeof *s);
    for (uint32_t i = 0; i < n; i++) s[i] = amp * (float)sin(2.0 * PI_D * hz * i / RATE);
    ear_clip *c = NULL;
    if (ear_clip_create(s, n, 1, RATE, NULL, &c) != EAR_OK) c = NULL;
    free(s);
    return c;
}

static void build(ear_ctx *ctx, void *user) {
    run *r = user;
    ear_physics *ph = ear_ctx_physics(ctx);
    ear_clip *c = sine_clip(SOURCE, 0.5f);
    ear_assets_register_clip(ear_ctx_assets(ctx), "tone", c);
    ear_clip_release(c);
    ear_body_desc d = ear_body_desc_default();
    d.kind = EAR_BODY_KINEMATIC;
    d.half_extents_m = ear_vec3_make(0.2f, 0.2f, 0.2f);
    ear_body_id head;
    ear_physics_add_body(ph, &d, &head);
    r->z = -200.0f;
    d.position_m = ear_vec3_make(0, 0, r->z);
    d.half_extents_m = ear_vec3_make(1, 1, 2);
    if (!r->game_moved) d.velocity_mps = ear_vec3_make(0, 0, (float)SPEED);
    ear_physics_add_body(ph, &d, &r->car);
    ear_world *w = ear_ctx_world(ctx);
    ear_world_follow(w, head);
    ear_source s = ear_source_default();
    snprintf(s.sound, sizeof s.sound, "tone");
    s.looping = true;
    s.attenuation.model = EAR_MODEL_NONE;
    ear_world_set_source(w, r->car, &s);
}

static void fixed_update(ear_ctx *ctx, void *user) {
    run *r = user;
    if (!r->game_moved) return;
    r->z += (float)(SPEED * ear_ctx_dt(ctx));
    ear_body_set_position(ear_ctx_physics(ctx), r->car, ear_vec3_make(0, 0, r->z));
}

/* Renders the frame's real time of sound (the runner's device would play it). */
static void render_frame(ear_ctx *ctx, void *user) {
    run *r = user;
    r->debt += ear_ctx_time(ctx)->real_dt_s * RATE;
    size_t n = (size_t)r->debt;
    r->debt -= (double)n;
    if (r->frames + n > r->cap) {
        r->cap = (r->frames + n) * 2;
        r->buf = realloc(r->buf, r->cap * 2 * sizeof *r->buf);
    }
    ear_stage_render(ear_ctx_stage(ctx), r->buf + 2 * r->frames, (uint32_t)n);
    r->frames += n;
}

static bool run_at(run *r, int frame_hz, bool game_moved) {
    memset(r, 0, sizeof *r);
    r->game_moved = game_moved;
    ear_engine_config cfg = ear_engine_config_default("frame rate");
    cfg.speech.log_only = true;
    cfg.frame_hz = frame_hz;
    cfg.audio_attach = NULL;
    cfg.audio_update = NULL;
    cfg.audio_detach = NULL;
    cfg.world_sync = render_frame;
    cfg.hook_user = r;
    ear_scene scene = {.start = build, .fixed_update = fixed_update, .user = r};
    if (ear_runner_create(&cfg, &scene, &r->runner) != EAR_OK) return false;
    static int fake_device;
    ear_runner_set_audio_device(r->runner, &fake_device); /* render_frame plays it */
    int frames = (int)(RUN_S * frame_hz);
    for (int k = 0; k <= frames; k++)
        ear_runner_frame(r->runner, START_S + (double)k / frame_hz);
    ear_runner_set_audio_device(r->runner, NULL);
    ear_runner_destroy(r->runner);
    return r->frames >= (size_t)(1.5 * RATE);
}

/* The strongest tone other than the peak (farther than 6 Hz from it, where a 1 s Hann
 * window's own side lobes are below −48 dB) between 800 and 1300 Hz, in 1 Hz steps, as a
 * level relative to the peak's amplitude. */
static double worst_sideband_db(const float *buf, size_t frames, double peak_hz) {
    double peak = ear_tone_amplitude(buf, frames, 2, 0, RATE, peak_hz);
    double worst = 0;
    for (double hz = 800; hz <= 1300; hz += 1.0) {
        if (fabs(hz - peak_hz) < 6.0) continue;
        double a = ear_tone_amplitude(buf, frames, 2, 0, RATE, hz);
        if (a > worst) worst = a;
    }
    return 20.0 * log10(worst / peak);
}

static void check_rate(int frame_hz, bool game_moved) {
    static run r;
    ASSERT_TRUE(run_at(&r, frame_hz, game_moved));
    const float *view = r.buf + 2 * (size_t)(0.5 * RATE);
    size_t n = RATE; /* 0.5 .. 1.5 s: the car is 190..170 m away, approaching */
    double expect = SOURCE * C_SOUND / (C_SOUND - SPEED);
    double hz = ear_dominant_hz(view, n, 2, EAR_ALL_CHANNELS, RATE);
    double side = worst_sideband_db(view, n, hz);
    free(r.buf);
    printf("  %3d fps (%s): %.3f Hz for %.3f (%.4f %%), worst sideband %.1f dB\n", frame_hz,
           game_moved ? "moved by the game" : "moved by the physics", hz, expect,
           100.0 * fabs(hz - expect) / expect, side);
    ASSERT_REL(hz, expect, 0.001);
    ASSERT_DBL_LT(side, -40.0);
}

TEST(doppler_holds_at_any_frame_rate) {
    int rates[] = {30, 60, 144, 240};
    for (int i = 0; i < 4; i++) {
        check_rate(rates[i], false);
        check_rate(rates[i], true);
    }
}

TEST_MAIN(TEST_ENTRY(doppler_holds_at_any_frame_rate))
