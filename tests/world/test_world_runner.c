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

/* A pause in a headless run: the game's menu click plays on (its cursor runs 800 frames a
 * paused frame, where it used to stay at 0: the headless stage was rendered per fixed
 * step only), the world's radio is held, and after the resume it plays again. */
typedef struct paused_run {
    ear_body_id radio;
    ear_voice_id click;
    uint64_t click_cursor;
    bool radio_held, radio_back;
} paused_run;

static void paused_start(ear_ctx *ctx, void *user) {
    paused_run *p = user;
    ear_body_desc d = ear_body_desc_default();
    d.kind = EAR_BODY_FIXED;
    d.half_extents_m = ear_vec3_make(0.2f, 0.2f, 0.2f);
    ear_physics_add_body(ear_ctx_physics(ctx), &d, &p->radio);
    ear_source s = ear_source_default();
    snprintf(s.sound, sizeof s.sound, "synth:sine:330:1:0.3");
    s.looping = true;
    s.spatial = false;
    ear_world_set_source(ear_ctx_world(ctx), p->radio, &s);
}

static void paused_update(ear_ctx *ctx, void *user) {
    paused_run *p = user;
    uint64_t f = ear_ctx_frame(ctx);
    ear_world *w = ear_ctx_world(ctx);
    if (f == 10) {
        ear_time_pause(ear_ctx_time(ctx), EAR_PAUSE_PLAYER);
        ear_play ui = {.bus = EAR_BUS_UI};
        p->click = ear_play_sound_with(ctx, "synth:sine:800:5:0.3", &ui);
    } else if (f == 130) {
        ear_stage_get_cursor(ear_ctx_stage(ctx), p->click, &p->click_cursor);
        p->radio_held =
            !ear_stage_is_playing(ear_ctx_stage(ctx), ear_world_source_voice(w, p->radio));
        ear_time_resume(ear_ctx_time(ctx), EAR_PAUSE_PLAYER);
    } else if (f == 135) {
        p->radio_back =
            ear_stage_is_playing(ear_ctx_stage(ctx), ear_world_source_voice(w, p->radio));
    }
}

TEST(a_paused_headless_game_still_sounds_its_menu) {
    static paused_run p;
    memset(&p, 0, sizeof p);
    ear_engine_config cfg = ear_engine_config_default("paused");
    cfg.backend = EAR_BACKEND_HEADLESS;
    cfg.speech.log_only = true;
    ear_scene scene = {.start = paused_start, .update = paused_update, .user = &p};
    ear_runner *rn;
    ASSERT_OK(ear_runner_create(&cfg, &scene, &rn));
    for (int k = 0; k <= 140; k++) ear_runner_frame(rn, (double)k / 60);
    uint64_t steps = ear_runner_steps(rn);
    ear_runner_destroy(rn);
    ASSERT_NE(p.click, EAR_VOICE_NONE);
    /* Played in frame 10 (rendered from that frame's end), read in frame 130's update
     * before its render: 119 frames of 800, within a control block. */
    printf("  click cursor after 120 paused frames: %llu\n",
           (unsigned long long)p.click_cursor);
    ASSERT_GE(p.click_cursor, 119u * 800u - 256u);
    ASSERT_LE(p.click_cursor, 120u * 800u);
    ASSERT_TRUE(p.radio_held);
    ASSERT_TRUE(p.radio_back);
    ASSERT_U64_EQ(steps, 140 - 120); /* no step while paused */
}

TEST_MAIN(TEST_ENTRY(the_runner_syncs_the_audio_world_every_frame),
          TEST_ENTRY(a_paused_headless_game_still_sounds_its_menu))
