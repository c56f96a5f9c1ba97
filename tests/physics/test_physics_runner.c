/* SPDX-License-Identifier: Zlib */
/*
 * The physics world inside the runner: every fixed step steps it before fixed_update, the
 * same world gives the same state hash at 30, 60 and 144 frames a second, and update sees
 * the events of every step of its frame (they are cleared once a frame, not per step).
 */
#include "earshot/engine.h"
#include "earshot/physics.h"
#include "test.h"

#define STEPS 600

typedef struct run {
    uint64_t hashes[STEPS];
    uint32_t steps;
    size_t events_in_steps;   /* counted in fixed_update: the events of that step */
    size_t events_in_updates; /* counted in update: everything visible */
    uint32_t frames_with_two_steps_of_events;
    uint32_t landed;
    bool wrong_dt;
} run;

static void build(ear_ctx *ctx, void *user) {
    (void)user;
    ear_physics *w = ear_ctx_physics(ctx);
    ear_body_desc d = ear_body_desc_default();
    d.kind = EAR_BODY_FIXED;
    d.position_m = ear_vec3_make(0, -0.5f, 0);
    d.half_extents_m = ear_vec3_make(20, 0.5f, 20);
    ear_body_id id;
    ear_physics_add_body(w, &d, &id);
    ear_rng rng;
    ear_rng_seed(&rng, 5);
    for (int i = 0; i < 80; i++) {
        d = ear_body_desc_default();
        d.position_m = ear_vec3_make(ear_rng_range(&rng, -5, 5), ear_rng_range(&rng, 1, 15),
                                     ear_rng_range(&rng, -5, 5));
        d.bounciness = 0.3f;
        if (i % 2) {
            d.shape = EAR_SHAPE_SPHERE;
            d.radius_m = 0.3f;
        }
        ear_physics_add_body(w, &d, &id);
    }
}

static void fixed(ear_ctx *ctx, void *user) {
    run *r = user;
    ear_physics *w = ear_ctx_physics(ctx);
    /* The world has already stepped when fixed_update runs. */
    if (ear_physics_steps(w) != r->steps + 1) r->wrong_dt = true;
    if (r->steps < STEPS) r->hashes[r->steps] = ear_physics_hash(w);
    size_t n;
    const ear_physics_event *e = ear_physics_events(w, &n);
    for (size_t i = 0; i < n; i++)
        if (e[i].step == r->steps) r->events_in_steps++;
    r->steps++;
}

static void update(ear_ctx *ctx, void *user) {
    run *r = user;
    size_t n;
    const ear_physics_event *e = ear_physics_events(ear_ctx_physics(ctx), &n);
    r->events_in_updates += n;
    uint64_t first = UINT64_MAX;
    bool two = false;
    for (size_t i = 0; i < n; i++) {
        if (first == UINT64_MAX) first = e[i].step;
        if (e[i].step != first) two = true;
        if (e[i].type == EAR_PHYS_LANDED) r->landed++;
    }
    if (two) r->frames_with_two_steps_of_events++;
}

static void run_at(run *r, int frame_hz) {
    memset(r, 0, sizeof *r);
    ear_engine_config cfg = ear_engine_config_default("physics");
    cfg.speech.log_only = true;
    ear_scene scene = {.start = build, .fixed_update = fixed, .update = update, .user = r};
    ear_runner *rn;
    if (ear_runner_create(&cfg, &scene, &rn) != EAR_OK) return;
    int frames = frame_hz * STEPS / 60;
    for (int k = 0; k <= frames; k++) ear_runner_frame(rn, 5.0 + (double)k / frame_hz);
    ear_runner_destroy(rn);
}

TEST(same_state_hash_at_30_60_and_144_hz) {
    static run r30, r60, r144;
    run_at(&r30, 30);
    run_at(&r60, 60);
    run_at(&r144, 144);
    ASSERT_EQ(r30.steps, STEPS);
    ASSERT_EQ(r60.steps, STEPS);
    ASSERT_EQ(r144.steps, STEPS);
    ASSERT_FALSE(r30.wrong_dt || r60.wrong_dt || r144.wrong_dt);
    for (uint32_t i = 0; i < STEPS; i++) {
        ASSERT_U64_EQ(r30.hashes[i], r60.hashes[i]);
        ASSERT_U64_EQ(r144.hashes[i], r60.hashes[i]);
    }
    /* Something happened: the bodies fell and landed (each at least once). */
    ASSERT_GE(r60.landed, 80);
    ASSERT_NE(r60.hashes[0], r60.hashes[STEPS - 1]);
}

TEST(update_sees_the_events_of_every_step) {
    static run r30, r144;
    run_at(&r30, 30);
    run_at(&r144, 144);
    ASSERT_GT(r30.events_in_steps, 100);
    /* Every event of every step reached update exactly once. */
    ASSERT_EQ(r30.events_in_updates, r30.events_in_steps);
    ASSERT_EQ(r144.events_in_updates, r144.events_in_steps);
    ASSERT_EQ(r30.events_in_steps, r144.events_in_steps);
    /* At 30 frames a second each frame runs two steps, and update saw both. */
    ASSERT_GT(r30.frames_with_two_steps_of_events, 10);
}

TEST_MAIN(TEST_ENTRY(same_state_hash_at_30_60_and_144_hz),
          TEST_ENTRY(update_sees_the_events_of_every_step))
