/* SPDX-License-Identifier: Zlib */
/*
 * The audio world without stepping the physics: the ear and its absence, follow and a
 * turn, play and its ramp, one-shots, attach, the teleport rule for moved bodies, drive
 * bindings, the impact line, fire-and-forget events, an idle world's silence on the
 * command ring, and determinism. Every number is measured off an offline render.
 */
#include "test.h"
#include "world_util.h"

/* Without an ear, a placed source is silent and a flat one plays; with one, the placed
 * source is heard at its distance gain (inverse, ref 1 m, at 5 m: 0.2) times the
 * equal-power centre (0.7071), and the listener's volume is the master gain. */
TEST(listener_absence_silences_spatial_only) {
    fixture f;
    ASSERT_TRUE(fixture_open(&f, v3(0, 0, 0)));
    add_sine(&f, "a440", 440, 1, 0.5f);
    add_sine(&f, "b660", 660, 1, 0.5f);
    ear_body_id placed =
        body_at(&f, "radio", EAR_BODY_FIXED, v3(0, 0, -5), v3(0.2f, 0.2f, 0.2f));
    ear_body_id flat =
        body_at(&f, "narrator", EAR_BODY_FIXED, v3(3, 0, 0), v3(0.2f, 0.2f, 0.2f));
    ear_body_id head =
        body_at(&f, "head", EAR_BODY_KINEMATIC, v3(0, 0, 0), v3(0.2f, 0.2f, 0.2f));
    ear_source s = looping("a440");
    s.attenuation = (ear_attenuation){EAR_MODEL_INVERSE, 1, 100, 1};
    ASSERT_OK(ear_world_set_source(f.world, placed, &s));
    ear_source fs = looping("b660");
    fs.spatial = false;
    ASSERT_OK(ear_world_set_source(f.world, flat, &fs));
    for (int i = 0; i < 30; i++) sync_render(&f);
    ASSERT_EQ(ear_world_ear(f.world), EAR_BODY_NONE);
    double placed_alone =
        ear_tone_amplitude(at(&f, 0.1), span(0.1, 0.5), 2, EAR_ALL_CHANNELS, RATE, 440);
    double flat_alone =
        ear_tone_amplitude(at(&f, 0.1), span(0.1, 0.5), 2, EAR_ALL_CHANNELS, RATE, 660);
    ASSERT_DBL_LE(placed_alone, 1e-6);
    ASSERT_REL(flat_alone, 0.5, 0.005);
    ear_listener_component l = ear_listener_component_default();
    l.volume = 0.5f;
    ASSERT_OK(ear_world_set_listener(f.world, head, &l));
    for (int i = 0; i < 30; i++) sync_render(&f);
    ASSERT_EQ(ear_world_ear(f.world), head);
    /* Both at half: the master gain belongs to the ear. */
    ASSERT_REL(ear_tone_amplitude(at(&f, 0.7), span(0.7, 1.0), 2, EAR_ALL_CHANNELS, RATE, 440),
               0.5 * 0.5 * 0.2 * 0.70710678, 0.01);
    ASSERT_REL(ear_tone_amplitude(at(&f, 0.7), span(0.7, 1.0), 2, EAR_ALL_CHANNELS, RATE, 660),
               0.5 * 0.5, 0.005);
    /* The ear's body goes: placed silent again, the master back to 1. */
    ASSERT_OK(ear_physics_remove_body(f.physics, head));
    for (int i = 0; i < 30; i++) sync_render(&f);
    ASSERT_DBL_LE(
        ear_tone_amplitude(at(&f, 1.2), span(1.2, 1.5), 2, EAR_ALL_CHANNELS, RATE, 440), 1e-6);
    ASSERT_REL(ear_tone_amplitude(at(&f, 1.2), span(1.2, 1.5), 2, EAR_ALL_CHANNELS, RATE, 660),
               0.5, 0.005);
    /* A source's body goes: its voice stops with the ramp (no click), then silence. */
    ear_voice_id v = ear_world_source_voice(f.world, flat);
    ASSERT_TRUE(ear_stage_is_playing(f.stage, v));
    ASSERT_OK(ear_physics_remove_body(f.physics, flat));
    for (int i = 0; i < 6; i++) sync_render(&f);
    ASSERT_FALSE(ear_stage_is_playing(f.stage, v));
    ASSERT_DBL_LE(ear_peak(at(&f, 1.55), span(1.55, 1.6), 2, EAR_ALL_CHANNELS), 0.0);
    ASSERT_DBL_LE(ear_max_delta(at(&f, 1.5), span(1.5, 1.6), 2, EAR_ALL_CHANNELS),
                  0.5 * 2 * sin(PI_D * 660.0 / RATE) * 1.001);
    fixture_close(&f);
}

/* follow puts the ear on a body: a source at +X is on the right facing north, and on the
 * left once the body has turned 180 degrees. */
TEST(follow_moves_the_ear_and_a_turn_swaps_the_sides) {
    fixture f;
    ASSERT_TRUE(fixture_open(&f, v3(0, 0, 0)));
    add_sine(&f, "a440", 440, 1, 0.5f);
    ear_body_id src = body_at(&f, "bell", EAR_BODY_FIXED, v3(5, 0, 0), v3(0.2f, 0.2f, 0.2f));
    ear_body_id player =
        body_at(&f, "player", EAR_BODY_KINEMATIC, v3(0, 0, 0), v3(0.3f, 0.9f, 0.3f));
    ear_source s = looping("a440");
    ASSERT_OK(ear_world_set_source(f.world, src, &s));
    ASSERT_OK(ear_world_follow(f.world, player));
    for (int i = 0; i < 30; i++) sync_render(&f);
    double l0 = ear_rms(at(&f, 0.2), span(0.2, 0.5), 2, 0);
    double r0 = ear_rms(at(&f, 0.2), span(0.2, 0.5), 2, 1);
    ASSERT_DBL_GT(r0, 4 * l0);
    ASSERT_OK(ear_body_set_facing(f.physics, player, 180));
    for (int i = 0; i < 30; i++) sync_render(&f);
    double l1 = ear_rms(at(&f, 0.7), span(0.7, 1.0), 2, 0);
    double r1 = ear_rms(at(&f, 0.7), span(0.7, 1.0), 2, 1);
    ASSERT_DBL_GT(l1, 4 * r1);
    /* The sides swap exactly: the pan is a mirror image. */
    ASSERT_REL(l1, r0, 0.01);
    ASSERT_REL(r1, l0, 0.05);
    fixture_close(&f);
}

/* play = false stops with the ramp: no step larger than the clean sine's own, then
 * silence; a one-shot reads play false after its end, and plays again on false -> true. */
TEST(play_false_ramps_and_a_one_shot_reads_false_after_its_end) {
    fixture f;
    ASSERT_TRUE(fixture_open(&f, v3(0, 0, 0)));
    add_sine(&f, "a440", 440, 1, 0.8f);
    add_sine(&f, "blip", 1000, 0.1, 0.5f);
    ear_body_id b = body_at(&f, "radio", EAR_BODY_FIXED, v3(0, 0, -1), v3(0.2f, 0.2f, 0.2f));
    ear_body_id c = body_at(&f, "coin", EAR_BODY_FIXED, v3(0, 0, -1), v3(0.2f, 0.2f, 0.2f));
    ear_body_id head =
        body_at(&f, "head", EAR_BODY_KINEMATIC, v3(0, 0, 0), v3(0.2f, 0.2f, 0.2f));
    ear_listener_component l = ear_listener_component_default();
    ASSERT_OK(ear_world_set_listener(f.world, head, &l));
    ear_source s = looping("a440");
    s.spatial = false;
    ASSERT_OK(ear_world_set_source(f.world, b, &s));
    for (int i = 0; i < 12; i++) sync_render(&f);
    ASSERT_NE(ear_world_source_voice(f.world, b), EAR_VOICE_NONE);
    ASSERT_OK(ear_world_set_play(f.world, b, false));
    for (int i = 0; i < 12; i++) sync_render(&f);
    double clean = 0.8 * 2.0 * sin(PI_D * 440.0 / RATE);
    ASSERT_DBL_LE(ear_max_delta(f.buf, f.frames, 2, EAR_ALL_CHANNELS), clean * 1.001);
    ASSERT_DBL_LE(ear_peak(at(&f, 0.3), span(0.3, 0.4), 2, EAR_ALL_CHANNELS), 0.0);
    ASSERT_EQ(ear_world_source_voice(f.world, b), EAR_VOICE_NONE);
    ear_stage_update(f.stage);
    ASSERT_EQ(ear_stage_voice_count(f.stage), 0);

    /* The one-shot. */
    ear_source o = ear_source_default();
    snprintf(o.sound, sizeof o.sound, "blip");
    ASSERT_OK(ear_world_set_source(f.world, c, &o));
    sync_render(&f);
    ear_source back;
    ASSERT_OK(ear_world_get_source(f.world, c, &back));
    ASSERT_TRUE(back.play);
    for (int i = 0; i < 9; i++) sync_render(&f); /* 0.167 s: past its 0.1 s */
    ASSERT_OK(ear_world_get_source(f.world, c, &back));
    ASSERT_FALSE(back.play);
    uint64_t started = ear_world_get_stats(f.world).started;
    /* Still false: nothing more plays. */
    for (int i = 0; i < 6; i++) sync_render(&f);
    ASSERT_U64_EQ(ear_world_get_stats(f.world).started, started);
    ASSERT_OK(ear_world_set_play(f.world, c, true));
    sync_render(&f);
    ASSERT_U64_EQ(ear_world_get_stats(f.world).started, started + 1);
    /* It is heard: a 1 kHz tone in the step after the start. */
    double t = (double)(f.frames) / RATE;
    sync_render(&f);
    ASSERT_DBL_GT(ear_tone_amplitude(at(&f, t), STEP_FRAMES, 2, EAR_ALL_CHANNELS, RATE, 1000),
                  0.1);
    fixture_close(&f);
}

/* attach moves a voice with its body, drops it once it has finished, and stops it when the
 * body goes. */
TEST(attach_drops_finished_voices_and_stops_with_the_body) {
    fixture f;
    ASSERT_TRUE(fixture_open(&f, v3(0, 0, 0)));
    add_sine(&f, "blip", 1000, 0.1, 0.5f);
    add_sine(&f, "hum", 200, 1, 0.5f);
    ear_body_id crate =
        body_at(&f, "crate", EAR_BODY_KINEMATIC, v3(2, 0, 0), v3(0.5f, 0.5f, 0.5f));
    ear_body_id head =
        body_at(&f, "head", EAR_BODY_KINEMATIC, v3(0, 0, 0), v3(0.2f, 0.2f, 0.2f));
    ASSERT_OK(ear_world_follow(f.world, head));
    sync_render(&f);
    ear_voice_id blip, hum;
    ASSERT_OK(ear_world_attach(f.world, "blip", crate, NULL, &blip));
    ear_play loop = {.looping = true};
    ASSERT_OK(ear_world_attach(f.world, "hum", crate, &loop, &hum));
    ASSERT_EQ(ear_world_attached_count(f.world), 2);
    for (int i = 0; i < 12; i++) sync_render(&f);
    ASSERT_EQ(ear_world_attached_count(f.world), 1);
    ASSERT_FALSE(ear_stage_is_playing(f.stage, blip));
    ASSERT_TRUE(ear_stage_is_playing(f.stage, hum));
    /* It moves with the body: on the right, then on the left. */
    double r = ear_rms(at(&f, 0.1), span(0.1, 0.2), 2, 1),
           l = ear_rms(at(&f, 0.1), span(0.1, 0.2), 2, 0);
    ASSERT_DBL_GT(r, 3 * l);
    ASSERT_OK(ear_body_set_position(f.physics, crate, v3(-2, 0, 0)));
    for (int i = 0; i < 12; i++) sync_render(&f);
    r = ear_rms(at(&f, 0.3), span(0.3, 0.4), 2, 1);
    l = ear_rms(at(&f, 0.3), span(0.3, 0.4), 2, 0);
    ASSERT_DBL_GT(l, 3 * r);
    ASSERT_OK(ear_physics_remove_body(f.physics, crate));
    for (int i = 0; i < 6; i++) sync_render(&f);
    ASSERT_EQ(ear_world_attached_count(f.world), 0);
    ASSERT_FALSE(ear_stage_is_playing(f.stage, hum));
    ASSERT_DBL_LE(ear_max_delta(f.buf, f.frames, 2, EAR_ALL_CHANNELS),
                  2 * 0.5 * 2 * sin(PI_D * 1000.0 / RATE));
    fixture_close(&f);
}

/* A body that is not dynamic is heard with the velocity of its motion since the last sync:
 * moved toward the ear at 20 m/s, a 440 Hz tone reads 440 * 343 / (343 - 20); a jump of
 * 100 m in one step (6000 m/s) is a teleport and gives no shift at all. */
TEST(motion_velocity_and_the_teleport_rule) {
    fixture f;
    ASSERT_TRUE(fixture_open(&f, v3(0, 0, 0)));
    add_sine(&f, "a440", 440, 1, 0.5f);
    ear_body_id car = body_at(&f, "car", EAR_BODY_KINEMATIC, v3(0, 0, -200), v3(1, 1, 2));
    ear_body_id head =
        body_at(&f, "head", EAR_BODY_KINEMATIC, v3(0, 0, 0), v3(0.2f, 0.2f, 0.2f));
    ASSERT_OK(ear_world_follow(f.world, head));
    ear_source bad = ear_source_default(); /* names neither sound nor blend */
    ASSERT_EQ(ear_world_set_source(f.world, car, &bad), EAR_E_INVALID_ARG);
    ear_source s = looping("a440");
    ASSERT_OK(ear_world_set_source(f.world, car, &s));
    float z = -200;
    for (int i = 0; i < 90; i++) {
        z += (float)(20.0 * STEP_S);
        ASSERT_OK(ear_body_set_position(f.physics, car, v3(0, 0, z)));
        sync_render(&f);
    }
    double hz = ear_dominant_hz(at(&f, 0.5), span(0.5, 1.5), 2, EAR_ALL_CHANNELS, RATE);
    ASSERT_REL(hz, 440.0 * 343.0 / (343.0 - 20.0), 0.001);
    /* A teleport: 100 m in one step, then still. */
    ASSERT_OK(ear_body_set_position(f.physics, car, v3(0, 0, z + 100)));
    sync_render(&f);
    double t = (double)f.frames / RATE;
    for (int i = 0; i < 30; i++) sync_render(&f);
    hz = ear_dominant_hz(at(&f, t + 0.1), span(0.1, 0.5), 2, EAR_ALL_CHANNELS, RATE);
    ASSERT_REL(hz, 440.0, 0.001);
    fixture_close(&f);
}

/* A blend with two layers crossfaded linearly over rpm, rpm driven from a body field
 * (position.x * 1000): each layer's tone level follows its curve, and a sweep that moves
 * rpm every frame steps no more than a clean sine of the highest layer. */
TEST(drive_bindings_follow_the_curves_without_clicks) {
    fixture f;
    ASSERT_TRUE(fixture_open(&f, v3(0, 0, 0)));
    const float A = 0.4f;
    ear_clip *low = sine(200, 1, A), *high = sine(600, 1, A);
    ear_blend_def d;
    memset(&d, 0, sizeof d);
    snprintf(d.name, sizeof d.name, "engine");
    d.smoothing_ms = 30;
    d.param_count = 1;
    d.params[0] = (ear_blend_param){"rpm", 1000, 5000, 1000};
    d.layer_count = 2;
    d.layers[0].clip = low;
    d.layers[0].gain_count = 1;
    d.layers[0].gain[0] = (ear_curve){"rpm", 2, {1000, 5000}, {1, 0}, EAR_CURVE_LINEAR};
    d.layers[1].clip = high;
    d.layers[1].gain_count = 1;
    d.layers[1].gain[0] = (ear_curve){"rpm", 2, {1000, 5000}, {0, 1}, EAR_CURVE_LINEAR};
    ASSERT_OK(ear_stage_register_blend(f.stage, &d));
    ear_clip_release(low);
    ear_clip_release(high);
    ear_body_id car = body_at(&f, "car", EAR_BODY_KINEMATIC, v3(1, 0, 0), v3(1, 1, 1));
    ear_body_id head =
        body_at(&f, "head", EAR_BODY_KINEMATIC, v3(0, 0, 0), v3(0.2f, 0.2f, 0.2f));
    ASSERT_OK(ear_world_follow(f.world, head));
    ear_source s = ear_source_default();
    snprintf(s.blend, sizeof s.blend, "engine");
    s.spatial = false;
    s.drive_count = 2;
    s.drive[0] = ear_drive_default("rpm", "position.x");
    s.drive[0].scale = 1000;
    s.drive[1] = ear_drive_default("rpm", "vehicle.rpm"); /* no vehicle: left alone */
    ASSERT_OK(ear_world_set_source(f.world, car, &s));
    const float xs[] = {2, 3, 4};
    for (int k = 0; k < 3; k++) {
        ASSERT_OK(ear_body_set_position(f.physics, car, v3(xs[k], 0, 0)));
        double t0 = (double)f.frames / RATE;
        for (int i = 0; i < 30; i++) sync_render(&f);
        double g_high = (xs[k] * 1000 - 1000) / 4000.0;
        const float *b = at(&f, t0 + 0.25);
        size_t n = span(0.25, 0.5);
        ASSERT_REL(ear_tone_amplitude(b, n, 2, EAR_ALL_CHANNELS, RATE, 200), A * (1 - g_high),
                   0.01);
        ASSERT_REL(ear_tone_amplitude(b, n, 2, EAR_ALL_CHANNELS, RATE, 600), A * g_high, 0.01);
    }
    /* The sweep: rpm moves every frame from 1000 to 5000 and back over 2 s. */
    size_t sweep_from = f.frames;
    for (int i = 0; i < 120; i++) {
        double u = i < 60 ? i / 60.0 : (120 - i) / 60.0;
        ASSERT_OK(ear_body_set_position(f.physics, car, v3((float)(1 + 4 * u), 0, 0)));
        sync_render(&f);
    }
    double clean = A * 2.0 * sin(PI_D * 600.0 / RATE);
    ASSERT_DBL_LE(
        ear_max_delta(f.buf + 2 * sweep_from, f.frames - sweep_from, 2, EAR_ALL_CHANNELS),
        clean * 1.02);
    fixture_close(&f);
}

/* The impact line: 15 % at min_speed, full at full_speed, linear between, nothing below. */
TEST(impact_volume_follows_the_line) {
    ear_impact im = ear_impact_default();
    im.min_speed_mps = 2;
    im.full_speed_mps = 12;
    im.volume = 0.8f;
    ASSERT_NEAR(ear_impact_volume(&im, 1.99f), 0.0, 0);
    ASSERT_NEAR(ear_impact_volume(&im, 2), 0.8 * 0.15, 1e-6);
    ASSERT_NEAR(ear_impact_volume(&im, 7), 0.8 * (0.15 + 0.85 * 0.5), 1e-6);
    ASSERT_NEAR(ear_impact_volume(&im, 12), 0.8, 1e-6);
    ASSERT_NEAR(ear_impact_volume(&im, 40), 0.8, 1e-6);
}

/* Fire-and-forget: a placed event farther than its own max (linear) is dropped before the
 * stage; a linear range at or below ref does not attenuate, so it plays; one in range
 * plays at the ear's next sync; with no ear a placed event is not heard, a flat one is. */
TEST(events_drop_far_requests_and_play_the_rest) {
    fixture f;
    ASSERT_TRUE(fixture_open(&f, v3(0, 0, 0)));
    add_sine(&f, "step", 500, 0.2, 0.5f);
    ear_body_id head =
        body_at(&f, "head", EAR_BODY_KINEMATIC, v3(0, 0, 0), v3(0.2f, 0.2f, 0.2f));
    ear_event_params far = {.attenuation = {EAR_MODEL_LINEAR, 1, 20, 1}};
    ear_world_play_event(f.world, "step", v3(0, 0, -10), &far); /* no ear yet */
    sync_render(&f);
    ASSERT_U64_EQ(ear_world_get_stats(f.world).events_dropped, 1);
    ASSERT_OK(ear_world_follow(f.world, head));
    ear_world_play_event(f.world, "step", v3(0, 0, -30), &far);
    ear_event_params flat_range = {.attenuation = {EAR_MODEL_LINEAR, 5, 5, 1}};
    ear_world_play_event(f.world, "step", v3(0, 0, -30), &flat_range);
    ear_world_play_event(f.world, "step", v3(0, 0, -10), &far);
    ASSERT_EQ(ear_stage_voice_count(f.stage), 0); /* queued until the sync */
    sync_render(&f);
    ear_world_stats st = ear_world_get_stats(f.world);
    ASSERT_U64_EQ(st.events_dropped, 2);
    ASSERT_EQ(ear_stage_voice_count(f.stage), 2);
    /* In range at 10 m: linear gain 1 - 9/19; at the ref-only range: 1. Summed in phase. */
    double t = (double)f.frames / RATE;
    sync_render(&f);
    ASSERT_REL(ear_tone_amplitude(at(&f, t), STEP_FRAMES, 2, EAR_ALL_CHANNELS, RATE, 500),
               0.5 * 0.70710678 * (1.0 + (1.0 - 9.0 / 19.0)), 0.02);
    fixture_close(&f);
}

/* Once the world is set up and nothing moves, a sync sends the stage nothing. */
TEST(an_idle_world_sends_no_commands) {
    fixture f;
    ASSERT_TRUE(fixture_open(&f, v3(0, 0, 0)));
    add_sine(&f, "a440", 440, 1, 0.3f);
    add_sine(&f, "b660", 660, 1, 0.3f);
    ear_body_id a = body_at(&f, "a", EAR_BODY_FIXED, v3(3, 0, -2), v3(0.2f, 0.2f, 0.2f));
    ear_body_id b = body_at(&f, "b", EAR_BODY_DYNAMIC, v3(-3, 0, -2), v3(0.2f, 0.2f, 0.2f));
    ear_body_id head =
        body_at(&f, "head", EAR_BODY_KINEMATIC, v3(0, 0, 0), v3(0.2f, 0.2f, 0.2f));
    ear_listener_component l = ear_listener_component_default();
    l.volume = 0.7f;
    ASSERT_OK(ear_world_set_listener(f.world, head, &l));
    ear_source s = looping("a440");
    s.occlusion = false;
    ASSERT_OK(ear_world_set_source(f.world, a, &s));
    ear_source s2 = looping("b660");
    s2.cone = (ear_cone){1.0f, 2.0f, 0.3f};
    ASSERT_OK(ear_world_set_source(f.world, b, &s2));
    ear_impact im = ear_impact_default();
    snprintf(im.sound, sizeof im.sound, "a440");
    ASSERT_OK(ear_world_set_impact(f.world, a, &im));
    for (int i = 0; i < 3; i++) sync_render(&f);
    uint64_t before = ear_stage_get_stats(f.stage).commands;
    ASSERT_GT(before, 0);
    for (int i = 0; i < 120; i++) sync_render(&f);
    ASSERT_U64_EQ(ear_stage_get_stats(f.stage).commands, before);
    /* One thing moves: exactly one motion command per sync for it. */
    ASSERT_OK(ear_body_set_position(f.physics, a, v3(3, 0, -3)));
    sync_render(&f);
    ASSERT_U64_EQ(ear_stage_get_stats(f.stage).commands, before + 1);
    fixture_close(&f);
}

/* A scripted run: moving bodies, a blend, events. Its audio hash. */
static uint64_t scripted_run(void) {
    fixture f;
    if (!fixture_open(&f, v3(0, 0, 0))) return 0;
    add_sine(&f, "a440", 440, 1, 0.3f);
    add_sine(&f, "step", 900, 0.05, 0.3f);
    ear_body_id a = body_at(&f, "a", EAR_BODY_KINEMATIC, v3(-20, 0, -3), v3(0.5f, 0.5f, 0.5f));
    ear_body_id head =
        body_at(&f, "head", EAR_BODY_KINEMATIC, v3(0, 0, 0), v3(0.2f, 0.2f, 0.2f));
    ear_world_follow(f.world, head);
    ear_source s = looping("a440");
    s.random_start = true;
    ear_world_set_source(f.world, a, &s);
    for (int i = 0; i < 60; i++) {
        ear_body_set_position(f.physics, a, v3(-20 + (float)i * 0.6f, 0, -3));
        ear_body_set_facing(f.physics, head, (float)i * 3);
        if (i % 10 == 0)
            ear_world_play_event(f.world, "step", v3((float)i * 0.1f, 0, -1), NULL);
        sync_render(&f);
    }
    uint64_t h = ear_hash_samples(f.buf, f.frames * 2);
    fixture_close(&f);
    return h;
}

TEST(the_same_world_twice_gives_the_same_audio) {
    uint64_t a = scripted_run(), b = scripted_run();
    ASSERT_NE(a, 0);
    ASSERT_U64_EQ(a, b);
}

/* Drawing blends the last two steps by alpha, and snaps on a long move. */
TEST(drawing_interpolates_and_snaps) {
    fixture f;
    ASSERT_TRUE(fixture_open(&f, v3(0, 0, 0)));
    add_sine(&f, "a440", 440, 1, 0.3f);
    ear_body_id a = body_at(&f, "a", EAR_BODY_KINEMATIC, v3(0, 0, 0), v3(0.5f, 0.5f, 0.5f));
    ear_source s = looping("a440");
    ASSERT_OK(ear_world_set_source(f.world, a, &s));
    ear_world_note_step(f.world);
    ASSERT_OK(ear_body_set_position(f.physics, a, v3(1, 0, 0)));
    ear_world_note_step(f.world);
    ear_vec3 p;
    ASSERT_OK(ear_world_draw_position(f.world, a, 0.25, &p));
    ASSERT_NEAR(p.x, 0.25, 1e-6);
    ASSERT_OK(ear_body_set_position(f.physics, a, v3(10, 0, 0))); /* 9 m > 2 m: a snap */
    ear_world_note_step(f.world);
    ASSERT_OK(ear_world_draw_position(f.world, a, 0.25, &p));
    ASSERT_NEAR(p.x, 10, 1e-6);
    ASSERT_EQ(ear_world_draw_position(f.world, EAR_BODY_NONE, 0.5, &p), EAR_E_NOT_FOUND);
    fixture_close(&f);
}

TEST_MAIN(TEST_ENTRY(listener_absence_silences_spatial_only),
          TEST_ENTRY(follow_moves_the_ear_and_a_turn_swaps_the_sides),
          TEST_ENTRY(play_false_ramps_and_a_one_shot_reads_false_after_its_end),
          TEST_ENTRY(attach_drops_finished_voices_and_stops_with_the_body),
          TEST_ENTRY(motion_velocity_and_the_teleport_rule),
          TEST_ENTRY(drive_bindings_follow_the_curves_without_clicks),
          TEST_ENTRY(impact_volume_follows_the_line),
          TEST_ENTRY(events_drop_far_requests_and_play_the_rest),
          TEST_ENTRY(an_idle_world_sends_no_commands),
          TEST_ENTRY(the_same_world_twice_gives_the_same_audio),
          TEST_ENTRY(drawing_interpolates_and_snaps))
