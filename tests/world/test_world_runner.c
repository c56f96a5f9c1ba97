/* SPDX-License-Identifier: Zlib */
/*
 * The audio world inside the runner: the runner syncs it in the world-sync phase of every
 * frame, after the fixed steps, so a crate's impact is heard once whether a frame runs one
 * step or two (30 and 60 frames a second), a source on a body plays, and the step hash
 * (which covers the physics) is the same with and without sounds on the bodies.
 */
#include "earshot/engine.h"
#include "earshot/world.h"
#include "test.h"

typedef struct run {
    bool sounds;
    ear_body_id radio;
    uint64_t hash;
    ear_world_stats stats;
    bool radio_playing;
} run;

static void build(ear_ctx *ctx, void *user) {
    run *r = user;
    ear_physics *w = ear_ctx_physics(ctx);
    ear_body_desc d = ear_body_desc_default();
    d.kind = EAR_BODY_FIXED;
    d.position_m = ear_vec3_make(0, -0.5f, 0);
    d.half_extents_m = ear_vec3_make(20, 0.5f, 20);
    ear_body_id floor, ear, crate;
    ear_physics_add_body(w, &d, &floor);
    d.position_m = ear_vec3_make(0, 1, 0);
    d.half_extents_m = ear_vec3_make(0.3f, 0.9f, 0.3f);
    ear_physics_add_body(w, &d, &ear);
    d.position_m = ear_vec3_make(-3, 1, -2);
    d.half_extents_m = ear_vec3_make(0.2f, 0.2f, 0.2f);
    ear_physics_add_body(w, &d, &r->radio);
    d = ear_body_desc_default();
    d.position_m = ear_vec3_make(2, 2.25f, -2);
    d.half_extents_m = ear_vec3_make(0.25f, 0.25f, 0.25f);
    ear_physics_add_body(w, &d, &crate);
    if (!r->sounds) return;
    ear_world *aw = ear_ctx_world(ctx);
    ear_listener_component l = ear_listener_component_default();
    ear_world_set_listener(aw, ear, &l);
    ear_source s = ear_source_default();
    snprintf(s.sound, sizeof s.sound, "synth:sine:330:1:0.3");
    s.looping = true;
    ear_world_set_source(aw, r->radio, &s);
    ear_impact im = ear_impact_default();
    snprintf(im.sound, sizeof im.sound, "synth:triangle:120:0.2:0.8");
    ear_world_set_impact(aw, crate, &im);
}

static void update(ear_ctx *ctx, void *user) {
    run *r = user;
    r->hash = ear_physics_hash(ear_ctx_physics(ctx));
}

static void run_at(run *r, int frame_hz, bool sounds) {
    memset(r, 0, sizeof *r);
    r->sounds = sounds;
    ear_engine_config cfg = ear_engine_config_default("world");
    cfg.speech.log_only = true;
    ear_scene scene = {.start = build, .update = update, .user = r};
    ear_runner *rn;
    if (ear_runner_create(&cfg, &scene, &rn) != EAR_OK) return;
    int frames = frame_hz * 2; /* 2 s: the crate lands after 0.64 s */
    for (int k = 0; k <= frames; k++) ear_runner_frame(rn, 5.0 + (double)k / frame_hz);
    ear_ctx *ctx = ear_runner_ctx(rn);
    r->stats = ear_world_get_stats(ear_ctx_world(ctx));
    r->radio_playing = ear_stage_is_playing(
        ear_ctx_stage(ctx), ear_world_source_voice(ear_ctx_world(ctx), r->radio));
    ear_runner_destroy(rn);
}

TEST(the_runner_syncs_the_audio_world_every_frame) {
    static run r30, r60, quiet60;
    run_at(&r30, 30, true);
    run_at(&r60, 60, true);
    run_at(&quiet60, 60, false);
    /* One sync a frame after the first (which only starts the scene). */
    ASSERT_U64_EQ(r30.stats.syncs, 60);
    ASSERT_U64_EQ(r60.stats.syncs, 120);
    /* The crate's landing is heard once at either frame rate: at 30 Hz its step may be
     * the first of the frame's two, and the frame's sync still sees it. */
    ASSERT_U64_EQ(r30.stats.impacts, 1);
    ASSERT_U64_EQ(r60.stats.impacts, 1);
    ASSERT_TRUE(r30.radio_playing && r60.radio_playing);
    /* The audio world read the physics and changed nothing in it. */
    ASSERT_NE(r60.hash, 0);
    ASSERT_U64_EQ(r60.hash, quiet60.hash);
    ASSERT_U64_EQ(r30.hash, r60.hash);
    ASSERT_U64_EQ(quiet60.stats.started, 0);
}

TEST_MAIN(TEST_ENTRY(the_runner_syncs_the_audio_world_every_frame))
