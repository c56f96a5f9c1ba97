/* SPDX-License-Identifier: Zlib */
/*
 * The audio world's pause, its queued events taken back, and sources whose sound arrives
 * late. Measured on the fixture's lockstep renders (800 frames a sync at 48 kHz):
 *
 * - a pause holds the world's looping 500 Hz source (silent within 1e-4 after the stop
 *   ramp) while an 800 Hz voice the game plays on the UI bus goes on at its level (within
 *   1 %); a source set and an event queued during the pause do not start; the resume
 *   brings the source back where its clip was (its cursor within one sync of the held
 *   one) and plays the queued event;
 * - events queued with an owner are taken back by owner, one by id (a second time:
 *   EAR_E_NOT_FOUND), and only the one left plays;
 * - a looping source whose sound is not defined yet is silent, and plays its 440 Hz once
 *   the clip is registered (and a blend source once the blend is registered on the
 *   stage), without being set again.
 */
#include "test.h"
#include "world_util.h"

static double tone(const fixture *f, double t0, double hz) {
    return ear_tone_amplitude(at(f, t0), STEP_FRAMES * 3, 2, 0, RATE, hz);
}

static double now_s(const fixture *f) {
    return (double)f->frames / RATE;
}

TEST(a_pause_holds_the_worlds_sounds_and_the_ui_plays_on) {
    fixture f;
    ASSERT_TRUE(fixture_open(&f, v3(0, 0, 0)));
    add_sine(&f, "hum", 500, 1, 0.4f);
    add_sine(&f, "menu", 800, 1, 0.3f);
    add_sine(&f, "ding", 1200, 0.5, 0.3f);
    ear_body_id head =
        body_at(&f, "head", EAR_BODY_KINEMATIC, v3(0, 0, 0), v3(0.2f, 0.2f, 0.2f));
    ear_body_id radio =
        body_at(&f, "radio", EAR_BODY_FIXED, v3(0, 0, -2), v3(0.2f, 0.2f, 0.2f));
    ear_body_id lamp = body_at(&f, "lamp", EAR_BODY_FIXED, v3(0, 0, 2), v3(0.2f, 0.2f, 0.2f));
    ASSERT_OK(ear_world_follow(f.world, head));
    ear_source hum = looping("hum");
    hum.spatial = false;
    ASSERT_OK(ear_world_set_source(f.world, radio, &hum));
    ear_play ui = {.looping = true, .bus = EAR_BUS_UI};
    ear_voice_id menu = EAR_VOICE_NONE;
    ASSERT_OK(ear_assets_play(f.assets, f.stage, "menu", &ui, &menu));
    for (int i = 0; i < 20; i++) sync_render(&f);
    double before = now_s(&f);
    for (int i = 0; i < 3; i++) sync_render(&f);
    double hum_on = tone(&f, before, 500), menu_on = tone(&f, before, 800);
    ASSERT_DBL_GT(hum_on, 0.3);

    uint64_t held = 0;
    ASSERT_OK(ear_stage_get_cursor(f.stage, ear_world_source_voice(f.world, radio), &held));
    ear_world_set_paused(f.world, true);
    ASSERT_TRUE(ear_world_paused(f.world));
    ear_source lamp_src = looping("ding");
    lamp_src.spatial = false;
    ASSERT_OK(ear_world_set_source(f.world, lamp, &lamp_src));
    ear_event_params flat = {.flat = true};
    ASSERT_NE(ear_world_play_event(f.world, "ding", v3(0, 0, 0), &flat), 0);
    uint64_t started = ear_world_get_stats(f.world).started;
    for (int i = 0; i < 30; i++) sync_render(&f);
    double during = now_s(&f);
    for (int i = 0; i < 3; i++) sync_render(&f);
    printf("  hum %.4f -> %.6f while paused; menu %.4f -> %.4f\n", hum_on,
           tone(&f, during, 500), menu_on, tone(&f, during, 800));
    ASSERT_DBL_LT(tone(&f, during, 500), 1e-4);
    ASSERT_REL(tone(&f, during, 800), menu_on, 0.01);
    ASSERT_DBL_LT(tone(&f, during, 1200), 1e-4); /* the lamp and the event wait */
    ASSERT_U64_EQ(ear_world_get_stats(f.world).started, started);
    ASSERT_EQ(ear_world_queued_events(f.world), 1);
    ASSERT_EQ(ear_world_source_voice(f.world, lamp), EAR_VOICE_NONE);

    ear_world_set_paused(f.world, false);
    sync_render(&f);
    /* Back where it was: the held cursor plus the one sync rendered since. */
    uint64_t cursor = 0;
    ASSERT_OK(ear_stage_get_cursor(f.stage, ear_world_source_voice(f.world, radio), &cursor));
    ASSERT_GE(cursor + STEP_FRAMES, held + STEP_FRAMES);
    ASSERT_LE(cursor, held + 2 * STEP_FRAMES);
    ASSERT_EQ(ear_world_queued_events(f.world), 0);
    ASSERT_U64_EQ(ear_world_get_stats(f.world).started, started + 3); /* hum, lamp, event */
    double after = now_s(&f);
    for (int i = 0; i < 3; i++) sync_render(&f);
    ASSERT_REL(tone(&f, after, 500), hum_on, 0.01);
    ASSERT_DBL_GT(tone(&f, after, 1200), 0.1);
    fixture_close(&f);
}

TEST(queued_events_are_cancelled_by_owner_and_by_id) {
    fixture f;
    ASSERT_TRUE(fixture_open(&f, v3(0, 0, 0)));
    add_sine(&f, "step", 500, 0.2, 0.5f);
    ear_event_params mine = {.flat = true, .owner = 7}, other = {.flat = true, .owner = 9};
    ear_world_event_id a = ear_world_play_event(f.world, "step", v3(0, 0, 0), &mine);
    ear_world_event_id b = ear_world_play_event(f.world, "step", v3(0, 0, 0), &other);
    ear_world_event_id c = ear_world_play_event(f.world, "step", v3(0, 0, 0), &mine);
    ear_world_event_id d = ear_world_play_event(f.world, "step", v3(0, 0, 0), &other);
    ASSERT_NE(a, 0);
    ASSERT_NE(a, b);
    ASSERT_NE(c, d);
    ASSERT_EQ(ear_world_play_event(f.world, "", v3(0, 0, 0), NULL), 0);
    ASSERT_EQ(ear_world_queued_events(f.world), 4);
    ASSERT_EQ(ear_world_cancel_events_of(f.world, 7), 2);
    ASSERT_EQ(ear_world_cancel_events_of(f.world, 0), 0);
    ASSERT_OK(ear_world_cancel_event(f.world, b));
    ASSERT_EQ(ear_world_cancel_event(f.world, b), EAR_E_NOT_FOUND);
    ASSERT_EQ(ear_world_cancel_event(f.world, a), EAR_E_NOT_FOUND);
    ASSERT_EQ(ear_world_queued_events(f.world), 1);
    sync_render(&f);
    ear_world_stats st = ear_world_get_stats(f.world);
    ASSERT_U64_EQ(st.started, 1);
    ASSERT_U64_EQ(st.events_cancelled, 3);
    ASSERT_EQ(ear_world_cancel_event(f.world, d), EAR_E_NOT_FOUND); /* it played */
    fixture_close(&f);
}

TEST(a_source_whose_sound_was_missing_plays_once_it_is_defined) {
    fixture f;
    ASSERT_TRUE(fixture_open(&f, v3(0, 0, 0)));
    ear_body_id radio = body_at(&f, "radio", EAR_BODY_FIXED, v3(0, 0, 0), v3(0.2f, 0.2f, 0.2f));
    ear_body_id car = body_at(&f, "car", EAR_BODY_FIXED, v3(0, 0, 1), v3(0.2f, 0.2f, 0.2f));
    ear_source s = looping("later");
    s.spatial = false;
    ASSERT_OK(ear_world_set_source(f.world, radio, &s));
    ear_source bl = ear_source_default();
    snprintf(bl.blend, sizeof bl.blend, "later_blend");
    bl.spatial = false;
    ASSERT_OK(ear_world_set_source(f.world, car, &bl));
    for (int i = 0; i < 5; i++) sync_render(&f);
    ASSERT_EQ(ear_world_source_voice(f.world, radio), EAR_VOICE_NONE);
    ASSERT_EQ(ear_world_source_voice(f.world, car), EAR_VOICE_NONE);
    for (int i = 0; i < 5; i++) sync_render(&f); /* still missing: no retry, no voice */
    ASSERT_U64_EQ(ear_world_get_stats(f.world).retries, 0);

    add_sine(&f, "later", 440, 1, 0.5f);
    sync_render(&f);
    ASSERT_TRUE(ear_stage_is_playing(f.stage, ear_world_source_voice(f.world, radio)));
    double t = now_s(&f);
    for (int i = 0; i < 3; i++) sync_render(&f);
    ASSERT_REL(tone(&f, t, 440), 0.5, 0.01); /* flat: the clip's own level */

    ear_clip *c = sine(660, 1, 0.4f);
    ear_blend_def d;
    memset(&d, 0, sizeof d);
    snprintf(d.name, sizeof d.name, "later_blend");
    d.layer_count = 1;
    d.layers[0].clip = c;
    ASSERT_OK(ear_stage_register_blend(f.stage, &d));
    ear_clip_release(c);
    sync_render(&f);
    ASSERT_TRUE(ear_stage_is_playing(f.stage, ear_world_source_voice(f.world, car)));
    t = now_s(&f);
    for (int i = 0; i < 3; i++) sync_render(&f);
    ASSERT_DBL_GT(tone(&f, t, 660), 0.1);
    fixture_close(&f);
}

TEST_MAIN(TEST_ENTRY(a_pause_holds_the_worlds_sounds_and_the_ui_plays_on),
          TEST_ENTRY(queued_events_are_cancelled_by_owner_and_by_id),
          TEST_ENTRY(a_source_whose_sound_was_missing_plays_once_it_is_defined))
