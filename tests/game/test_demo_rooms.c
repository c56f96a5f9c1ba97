/* SPDX-License-Identifier: Zlib */
/*
 * The demo game's rooms, measured: each level (its level file, run by the game's own
 * scene through the runner, as main.c's headless loop does) puts the ear in its reverb zone
 * and the stage's room becomes the level's preset (the garden and the road outdoors, the
 * cellar a cave). Then, in that room, everything else stopped and the old tails let die,
 * the game's crate knock ("crate_hit", sent to the room at the game's crate send, 0.6) is
 * rendered offline: the energy 200..300 ms after the knock, relative to the knock's first
 * 50 ms, must be at least 15 dB higher in the cellar than in the garden (the cave rings
 * on, the open air hardly answers: RT60 3.5 s against 0.35 s, a 60 dB decay in 0.35 s is
 * 34 dB in the first 200 ms). Measured values are printed.
 */
#include "demo.h"
#include "test.h"

#include "earshot/assets.h"
#include "earshot/engine.h"
#include "earshot/mixer.h"
#include "earshot/stage.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define BLOCK 800
#define RATE  48000

static double energy(const float *stereo, size_t from, size_t to) {
    double e = 0;
    for (size_t i = from; i < to; i++)
        e += (double)stereo[2 * i] * stereo[2 * i] +
             (double)stereo[2 * i + 1] * stereo[2 * i + 1];
    return e / (double)(to - from);
}

/* Starts the game in `level`, waits until its room is heard, then renders the knock in it.
 * Writes the room the game noted and the tail over the knock's start, in dB. */
static bool knock_in_level(int level, char *room, size_t cap, double *tail_db) {
    demo_options o = {0};
    o.start_level = level;
    o.assets_dir = DEMO_ASSETS;
    demo *d = demo_create(&o);
    ear_ui *ui = NULL;
    if (!d || ear_ui_create(NULL, &ui) != EAR_OK) return false;
    ear_engine_config cfg = ear_engine_config_default("Three Errands rooms");
    demo_configure(d, &cfg);
    ear_ui_attach(ui, &cfg);
    cfg.backend = EAR_BACKEND_HEADLESS;
    cfg.audio_attach = NULL;
    cfg.audio_update = NULL;
    cfg.audio_detach = NULL;
    ear_scene scene = demo_scene(d);
    ear_runner *rn = NULL;
    if (ear_runner_create(&cfg, &scene, &rn) != EAR_OK) return false;
    ear_runner_set_one_step_per_frame(rn, true);
    static int fake_device;
    ear_runner_set_audio_device(rn, &fake_device); /* this loop renders the stage */
    ear_ctx *ctx = ear_runner_ctx(rn);
    ear_stage *st = ear_ctx_stage(ctx);
    static float buf[BLOCK * 2];
    for (int frame = 0; frame < 30 && !demo_room_at(d, 0); frame++) {
        ear_runner_frame(rn, frame / 60.0);
        ear_stage_render(st, buf, BLOCK);
    }
    snprintf(room, cap, "%s", demo_room_at(d, 0) ? demo_room_at(d, 0) : "(none)");
    /* the level's own sounds stop; their tails die (8 s: > 2 RT60 of the cave) */
    ear_stage_stop_all(st);
    for (int b = 0; b < 8 * RATE / BLOCK; b++) ear_stage_render(st, buf, BLOCK);
    double before = energy(buf, 0, BLOCK);
    /* the knock, flat, sent as the game sends the crate's */
    ear_play p = {0};
    p.reverb_send = 0.6f;
    ear_voice_id v;
    bool ok = ear_assets_play(ear_ctx_assets(ctx), st, "crate_hit", &p, &v) == EAR_OK;
    static float out[RATE * 2];
    for (size_t f = 0; f < RATE; f += BLOCK) ear_stage_render(st, out + 2 * f, BLOCK);
    double head = energy(out, 0, RATE / 20);
    double tail = energy(out, RATE / 5, 3 * RATE / 10);
    *tail_db = 10.0 * log10(tail / head);
    printf(
        "level %d: %s; silence before %.3g, tail 200..300 ms %.2f dB under the knock's first "
        "50 ms\n",
        level, room, before, *tail_db);
    ok = ok && before < 1e-12;
    ear_runner_destroy(rn);
    demo_destroy(d);
    ear_ui_destroy(ui);
    return ok;
}

TEST(each_level_is_heard_in_its_room_and_the_cellar_rings) {
    char garden[128], cellar[128], road[128];
    double g = 0, c = 0, r = 0;
    ASSERT_TRUE(knock_in_level(1, garden, sizeof garden, &g));
    ASSERT_TRUE(knock_in_level(2, cellar, sizeof cellar, &c));
    ASSERT_TRUE(knock_in_level(3, road, sizeof road, &r));
    ASSERT_STR_CONTAINS(garden, "zone=garden room=outdoors ");
    ASSERT_STR_CONTAINS(cellar, "zone=cellar room=cave ");
    ASSERT_STR_CONTAINS(road, "zone=road room=outdoors ");
    printf("the cellar's tail over the garden's: %+.2f dB (at least +15 required)\n", c - g);
    ASSERT_DBL_GE(c - g, 15.0);
    /* the same room gives the same tail (the road is outdoors too), within 0.5 dB */
    ASSERT_NEAR(r, g, 0.5);
}

TEST_MAIN(TEST_ENTRY(each_level_is_heard_in_its_room_and_the_cellar_rings))
