/* SPDX-License-Identifier: Zlib */
/*
 * The audio world over a stepping physics world, in lockstep (one step, one sync, one
 * step of sound): doppler from a body's real physics velocity, occlusion by wall bodies,
 * impact volume on the 15 % -> 100 % line from real collisions, the cooldown, a hard hit
 * ducking the music, a vehicle's engine loop and its stop, and the physics hash unchanged
 * by the audio world.
 */
#include "earshot/synth.h"
#include "test.h"
#include "world_util.h"

#define C_SOUND 343.0

/* A car (a dynamic body with no gravity and no drag, so its physics velocity is its real
 * motion) passes 2 m from the ear at 30 m/s: while it approaches the tone reads
 * f c / (c - v_r), while it recedes f c / (c + v_r), with v_r the radial part of the body's
 * physics velocity at the window's middle. */
TEST(a_passing_car_is_heard_at_its_physics_velocity) {
    fixture f;
    ASSERT_TRUE(fixture_open(&f, v3(0, 0, 0)));
    add_sine(&f, "hum", 500, 1, 0.5f);
    ear_body_desc d = ear_body_desc_default();
    d.name = "car";
    d.kind = EAR_BODY_DYNAMIC;
    d.position_m = v3(-120, 0, -2);
    d.velocity_mps = v3(30, 0, 0);
    d.half_extents_m = v3(2, 0.7f, 1);
    ear_body_id car;
    ASSERT_OK(ear_physics_add_body(f.physics, &d, &car));
    ear_body_id head = body_at(&f, "head", EAR_BODY_FIXED, v3(0, 0, 0), v3(0.2f, 0.2f, 0.2f));
    ASSERT_OK(ear_world_follow(f.world, head));
    ear_source s = looping("hum");
    ASSERT_OK(ear_world_set_source(f.world, car, &s));
    for (int i = 0; i < 480; i++) ASSERT_TRUE(step(&f));
    ear_vec3 vel;
    ASSERT_OK(ear_body_velocity(f.physics, car, &vel));
    ASSERT_NEAR(vel.x, 30, 1e-4);
    /* Approaching over 0.5..1.0 s (x = -105 .. -90), receding over 7.0..7.5 s. */
    double x_in = -120 + 30 * 0.75, x_out = -120 + 30 * 7.25;
    double vr_in = vel.x * -x_in / sqrt(x_in * x_in + 4),
           vr_out = vel.x * x_out / sqrt(x_out * x_out + 4);
    double in = ear_dominant_hz(at(&f, 0.5), span(0.5, 1.0), 2, EAR_ALL_CHANNELS, RATE);
    double out = ear_dominant_hz(at(&f, 7.0), span(7.0, 7.5), 2, EAR_ALL_CHANNELS, RATE);
    ASSERT_REL(in, 500 * C_SOUND / (C_SOUND - vr_in), 5e-5);
    ASSERT_REL(out, 500 * C_SOUND / (C_SOUND + vr_out), 5e-5);
    fixture_close(&f);
}

/* White noise behind walls: each wall body between the ear and the source adds three
 * quarters of occlusion (two block it fully), and the sound is muffled: its spectral
 * centroid and its RMS fall with each wall. */
TEST(walls_between_occlude_three_quarters_each) {
    fixture f;
    ASSERT_TRUE(fixture_open(&f, v3(0, 0, 0)));
    ear_clip *noise = NULL;
    ASSERT_OK(ear_synth_clip(
        &(ear_synth){.waveform = EAR_WAVE_NOISE, .seconds = 2, .amplitude = 0.5f, .seed = 7},
        NULL, &noise));
    ear_assets_register_clip(f.assets, "static", noise);
    ear_clip_release(noise);
    ear_body_id radio =
        body_at(&f, "radio", EAR_BODY_FIXED, v3(0, 0, -10), v3(0.3f, 0.3f, 0.3f));
    ear_body_id head = body_at(&f, "head", EAR_BODY_FIXED, v3(0, 0, 0), v3(0.3f, 0.9f, 0.3f));
    ear_listener_component l = ear_listener_component_default();
    ASSERT_OK(ear_world_set_listener(f.world, head, &l));
    ear_source s = looping("static");
    s.occlusion = true;
    ASSERT_OK(ear_world_set_source(f.world, radio, &s));
    double centroid[3], rms[3];
    for (int walls = 0; walls < 3; walls++) {
        if (walls > 0)
            body_at(&f, walls == 1 ? "wall1" : "wall2", EAR_BODY_FIXED,
                    v3(0, 0, walls == 1 ? -4.0f : -6.0f), v3(5, 3, 0.1f));
        double t0 = (double)f.frames / RATE;
        for (int i = 0; i < 30; i++) ASSERT_TRUE(step(&f));
        ASSERT_NEAR(ear_world_source_occlusion(f.world, radio),
                    walls == 0 ? 0 : (walls == 1 ? 0.75 : 1.0), 1e-6);
        centroid[walls] =
            ear_spectral_centroid(at(&f, t0 + 0.2), span(0.2, 0.5), 2, EAR_ALL_CHANNELS, RATE);
        rms[walls] = ear_rms(at(&f, t0 + 0.2), span(0.2, 0.5), 2, EAR_ALL_CHANNELS);
    }
    ASSERT_DBL_LT(centroid[1], 0.5 * centroid[0]);
    ASSERT_DBL_LT(centroid[2], centroid[1]);
    ASSERT_DBL_LT(rms[1], 0.7 * rms[0]);
    ASSERT_DBL_LT(rms[2], rms[1]);
    /* The source's and the ear's own bodies never count: with the walls gone, 0 again. */
    ASSERT_OK(ear_physics_remove_body(f.physics, ear_physics_find(f.physics, "wall1")));
    ASSERT_OK(ear_physics_remove_body(f.physics, ear_physics_find(f.physics, "wall2")));
    for (int i = 0; i < 2; i++) ASSERT_TRUE(step(&f));
    ASSERT_NEAR(ear_world_source_occlusion(f.world, radio), 0, 0);
    ASSERT_GT(ear_world_get_stats(f.world).rays, 0);
    fixture_close(&f);
}

/* A crate dropped from h onto a floor: the impact sound plays where it hit, at the volume
 * of the line for the impact speed the physics reports. The ear is level with the contact
 * point, 3 m in front of it, with no attenuation: the sound reads volume * 0.7071. */
static bool drop(double h, const ear_impact *im, double *out_speed, double *out_amp) {
    fixture f;
    if (!fixture_open(&f, v3(0, -9.81f, 0))) return false;
    add_sine(&f, "thud", 300, 0.3, 0.5f);
    body_at(&f, "floor", EAR_BODY_FIXED, v3(0, -0.5f, 0), v3(20, 0.5f, 20));
    ear_body_id crate = body_at(&f, "crate", EAR_BODY_DYNAMIC, v3(0, 0.25f + (float)h, -3),
                                v3(0.25f, 0.25f, 0.25f));
    ear_body_id head =
        body_at(&f, "head", EAR_BODY_KINEMATIC, v3(0, 0, 0), v3(0.1f, 0.1f, 0.1f));
    ear_body_set_position(f.physics, head, v3(0, 0, 0));
    ear_world_follow(f.world, head);
    ear_world_set_impact(f.world, crate, im);
    *out_speed = -1;
    size_t onset = 0;
    for (int i = 0; i < 180 && *out_speed < 0; i++) {
        if (!step(&f)) return false;
        size_t n = 0;
        const ear_physics_event *ev = ear_physics_events(f.physics, &n);
        for (size_t k = 0; k < n; k++)
            if (ev[k].type == EAR_PHYS_COLLISION_STARTED) {
                *out_speed = ev[k].speed_mps;
                onset = f.frames - STEP_FRAMES; /* it started with the step's render */
            }
    }
    for (int i = 0; i < 15; i++) step(&f);
    *out_amp = ear_tone_amplitude(f.buf + 2 * onset, (size_t)(0.25 * RATE), 2, EAR_ALL_CHANNELS,
                                  RATE, 300);
    bool ok =
        ear_world_get_stats(f.world).impacts == (*out_speed >= im->min_speed_mps ? 1u : 0u);
    fixture_close(&f);
    return ok;
}

TEST(impact_volume_at_min_mid_and_full_speed_follows_the_line) {
    ear_impact im = ear_impact_default();
    snprintf(im.sound, sizeof im.sound, "thud");
    im.min_speed_mps = 2;
    im.full_speed_mps = 8;
    im.attenuation.model = EAR_MODEL_NONE;
    const double heights[] = {0.215, 0.8, 4.2}; /* about 2.05, 4, 9 m/s */
    for (int k = 0; k < 3; k++) {
        double speed, amp;
        ASSERT_TRUE(drop(heights[k], &im, &speed, &amp));
        ASSERT_NEAR(speed, sqrt(2 * 9.81 * heights[k]), 0.2); /* within a step's fall */
        double want = ear_impact_volume(&im, (float)speed);
        if (k == 0) ASSERT_NEAR(want, 0.15 + 0.85 * (speed - 2) / 6, 1e-5);
        if (k == 2) ASSERT_NEAR(want, 1.0, 0);
        ASSERT_REL(amp, 0.5 * 0.70710678 * want, 0.001);
    }
    /* Below min_speed: nothing. */
    double speed, amp;
    ASSERT_TRUE(drop(0.1, &im, &speed, &amp));
    ASSERT_DBL_LT(speed, 2);
    ASSERT_DBL_LE(amp, 1e-6);
}

/* A second hit within the cooldown is held back; one after it plays. */
TEST(the_cooldown_holds_back_a_second_hit) {
    fixture f;
    ASSERT_TRUE(fixture_open(&f, v3(0, -9.81f, 0)));
    add_sine(&f, "thud", 300, 0.1, 0.5f);
    body_at(&f, "floor", EAR_BODY_FIXED, v3(0, -0.5f, 0), v3(20, 0.5f, 20));
    ear_body_id crate =
        body_at(&f, "crate", EAR_BODY_DYNAMIC, v3(0, 0.75f, -3), v3(0.25f, 0.25f, 0.25f));
    ear_body_id head = body_at(&f, "head", EAR_BODY_FIXED, v3(0, 0, 0), v3(0.1f, 0.1f, 0.1f));
    ASSERT_OK(ear_world_follow(f.world, head));
    ear_impact im = ear_impact_default();
    snprintf(im.sound, sizeof im.sound, "thud");
    im.cooldown_s = 1.0f;
    ASSERT_OK(ear_world_set_impact(f.world, crate, &im));
    int hits = 0;
    size_t onsets[3] = {0};
    for (int i = 0; i < 240; i++) {
        ASSERT_TRUE(step(&f));
        size_t n = 0;
        const ear_physics_event *ev = ear_physics_events(f.physics, &n);
        for (size_t k = 0; k < n; k++)
            if (ev[k].type == EAR_PHYS_COLLISION_STARTED && hits < 3)
                onsets[hits++] = f.frames - STEP_FRAMES;
        /* Lift it again a step after each landing, at 0.5 s and 1.6 s. */
        if (i == 30 || i == 96) {
            ASSERT_OK(ear_body_set_position(f.physics, crate, v3(0, 0.75f, -3)));
            ASSERT_OK(ear_body_set_velocity(f.physics, crate, v3(0, 0, 0)));
        }
    }
    ASSERT_EQ(hits, 3);
    ear_world_stats st = ear_world_get_stats(f.world);
    ASSERT_U64_EQ(st.impacts, 2);
    ASSERT_U64_EQ(st.impacts_cooled, 1);
    double a0 = ear_tone_amplitude(f.buf + 2 * onsets[0], 4000, 2, EAR_ALL_CHANNELS, RATE, 300);
    double a1 = ear_tone_amplitude(f.buf + 2 * onsets[1], 4000, 2, EAR_ALL_CHANNELS, RATE, 300);
    double a2 = ear_tone_amplitude(f.buf + 2 * onsets[2], 4000, 2, EAR_ALL_CHANNELS, RATE, 300);
    ASSERT_DBL_GT(a0, 0.01);
    ASSERT_DBL_LE(a1, 1e-6);
    ASSERT_REL(a2, a0, 1e-4);
    fixture_close(&f);
}

/* A hit at least duck_min_speed fires the ducking rule: the music's tone falls by the
 * rule's gain_db (-12 dB: x 0.2512) and comes back after the hold and release. */
TEST(a_hard_hit_ducks_the_music_by_the_rules_gain) {
    fixture f;
    ASSERT_TRUE(fixture_open(&f, v3(0, -9.81f, 0)));
    add_sine(&f, "music", 220, 1, 0.4f);
    add_sine(&f, "crash", 1500, 0.1, 0.3f);
    ear_duck_rule rule = {.trigger = EAR_BUS_UI,
                          .target = EAR_BUS_MUSIC,
                          .gain_db = -12,
                          .attack_s = 0.05f,
                          .hold_s = 0.1f,
                          .release_s = 0.3f};
    snprintf(rule.name, sizeof rule.name, "crash_duck");
    ASSERT_OK(ear_stage_set_duck(f.stage, &rule));
    body_at(&f, "floor", EAR_BODY_FIXED, v3(0, -0.5f, 0), v3(20, 0.5f, 20));
    ear_body_id crate =
        body_at(&f, "crate", EAR_BODY_DYNAMIC, v3(0, 2.25f, -3), v3(0.25f, 0.25f, 0.25f));
    ear_body_id head = body_at(&f, "head", EAR_BODY_FIXED, v3(0, 0, 0), v3(0.1f, 0.1f, 0.1f));
    ASSERT_OK(ear_world_follow(f.world, head));
    ear_source m = looping("music");
    m.spatial = false;
    m.bus = EAR_BUS_MUSIC;
    ASSERT_OK(ear_world_set_source(f.world, head, &m));
    ear_impact im = ear_impact_default();
    snprintf(im.sound, sizeof im.sound, "crash");
    snprintf(im.duck, sizeof im.duck, "crash_duck");
    im.duck_hold_s = 0.4f;
    im.duck_min_speed_mps = 5; /* a 2 m fall lands at 6.3 m/s */
    ASSERT_OK(ear_world_set_impact(f.world, crate, &im));
    size_t onset = 0;
    for (int i = 0; i < 150; i++) {
        ASSERT_TRUE(step(&f));
        size_t n = 0;
        const ear_physics_event *ev = ear_physics_events(f.physics, &n);
        for (size_t k = 0; k < n; k++)
            if (ev[k].type == EAR_PHYS_COLLISION_STARTED) onset = f.frames - STEP_FRAMES;
    }
    ASSERT_GT(onset, 0);
    ASSERT_U64_EQ(ear_world_get_stats(f.world).ducks, 1);
    double before =
        ear_tone_amplitude(f.buf + 2 * (onset - 9600), 9600, 2, EAR_ALL_CHANNELS, RATE, 220);
    /* Held: from the end of the attack (50 ms) to the hold's end (0.4 + 0.1 s). */
    double held =
        ear_tone_amplitude(f.buf + 2 * (onset + 4800), 14400, 2, EAR_ALL_CHANNELS, RATE, 220);
    double after =
        ear_tone_amplitude(f.buf + 2 * (f.frames - 9600), 9600, 2, EAR_ALL_CHANNELS, RATE, 220);
    ASSERT_REL(before, 0.4, 0.01);
    ASSERT_REL(held / before, pow(10, -12.0 / 20), 0.002);
    ASSERT_REL(after, before, 0.01);
    fixture_close(&f);
}

/* A vehicle's engine loop: a clip pitched by rpm (idle: idle_pitch), started while the
 * engine runs, faded (no click) when it stops. */
TEST(a_vehicles_engine_loop_follows_the_engine) {
    fixture f;
    ASSERT_TRUE(fixture_open(&f, v3(0, -9.81f, 0)));
    add_sine(&f, "engine", 100, 1, 0.5f);
    body_at(&f, "road", EAR_BODY_FIXED, v3(0, -0.5f, 0), v3(200, 0.5f, 200));
    ear_vehicle_config vc = ear_vehicle_config_default();
    ear_body_desc d = ear_body_desc_default();
    d.name = "car";
    d.kind = EAR_BODY_KINEMATIC;
    d.position_m = v3(0, 0.75f, -5);
    d.half_extents_m = v3(1, 0.75f, 2);
    d.mass_kg = 1200;
    d.vehicle = &vc;
    ear_body_id car;
    ASSERT_OK(ear_physics_add_body(f.physics, &d, &car));
    ear_body_id head =
        body_at(&f, "head", EAR_BODY_FIXED, v3(0, 0.75f, 0), v3(0.1f, 0.1f, 0.1f));
    ASSERT_OK(ear_world_follow(f.world, head));
    ear_vehicle_sound vs = ear_vehicle_sound_default();
    snprintf(vs.engine, sizeof vs.engine, "engine");
    vs.idle_pitch = 1.5f;
    vs.attenuation.model = EAR_MODEL_NONE;
    ASSERT_OK(ear_world_set_vehicle_sound(f.world, car, &vs));
    for (int i = 0; i < 30; i++) ASSERT_TRUE(step(&f));
    ear_vehicle_state st;
    ASSERT_OK(ear_vehicle_get_state(f.physics, car, &st));
    ASSERT_TRUE(st.engine_on);
    ASSERT_NEAR(st.rpm, vc.idle_rpm, 1e-3);
    ASSERT_NE(ear_world_engine_voice(f.world, car), EAR_VOICE_NONE);
    ASSERT_REL(ear_dominant_hz(at(&f, 0.2), span(0.2, 0.5), 2, EAR_ALL_CHANNELS, RATE), 150,
               0.001);
    ASSERT_OK(ear_vehicle_set_engine(f.physics, car, false));
    for (int i = 0; i < 30; i++) ASSERT_TRUE(step(&f));
    ASSERT_EQ(ear_world_engine_voice(f.world, car), EAR_VOICE_NONE);
    ASSERT_DBL_LE(ear_peak(at(&f, 0.9), span(0.9, 1.0), 2, EAR_ALL_CHANNELS), 0.0);
    ASSERT_DBL_LE(ear_max_delta(f.buf, f.frames, 2, EAR_ALL_CHANNELS),
                  0.5 * 2 * sin(PI_D * 150.0 / RATE) * 1.01);
    /* The car goes: nothing is left. */
    ASSERT_OK(ear_vehicle_set_engine(f.physics, car, true));
    for (int i = 0; i < 5; i++) ASSERT_TRUE(step(&f));
    ASSERT_NE(ear_world_engine_voice(f.world, car), EAR_VOICE_NONE);
    ASSERT_OK(ear_physics_remove_body(f.physics, car));
    for (int i = 0; i < 30; i++) ASSERT_TRUE(step(&f));
    ear_stage_update(f.stage);
    ASSERT_EQ(ear_stage_voice_count(f.stage), 0);
    fixture_close(&f);
}

/* Shift and crash sounds: a car floors it toward a wall; each GearChanged plays the shift
 * blip at the car (straight ahead of the ear: 0.7071 of its amplitude), and the Crashed
 * event plays the crash at the contact point at the impact line's volume for the lost
 * speed (15 % at 0.5 m/s to full at crash_full_speed). */
TEST(gear_changes_and_a_crash_are_heard) {
    fixture f;
    ASSERT_TRUE(fixture_open(&f, v3(0, -9.81f, 0)));
    add_sine(&f, "shift", 2000, 0.05, 0.5f);
    add_sine(&f, "crash", 700, 0.2, 0.5f);
    body_at(&f, "road", EAR_BODY_FIXED, v3(0, -0.5f, 0), v3(200, 0.5f, 200));
    body_at(&f, "wall", EAR_BODY_FIXED, v3(30, 1.5f, 0), v3(0.2f, 1.5f, 5));
    ear_vehicle_config vc = ear_vehicle_config_default();
    ear_body_desc d = ear_body_desc_default();
    d.name = "car";
    d.kind = EAR_BODY_KINEMATIC;
    d.position_m = v3(0, 0.75f, 0);
    d.half_extents_m = v3(2, 0.75f, 1);
    d.facing_deg = 90; /* east, toward the wall */
    d.mass_kg = 1200;
    d.vehicle = &vc;
    ear_body_id car;
    ASSERT_OK(ear_physics_add_body(f.physics, &d, &car));
    ear_body_id head =
        body_at(&f, "head", EAR_BODY_FIXED, v3(60, 0.75f, 0), v3(0.1f, 0.1f, 0.1f));
    ASSERT_OK(ear_body_set_facing(f.physics, head, 270)); /* looking west, at the car */
    ASSERT_OK(ear_world_follow(f.world, head));
    ear_vehicle_sound vs = ear_vehicle_sound_default();
    snprintf(vs.shift, sizeof vs.shift, "shift");
    snprintf(vs.crash, sizeof vs.crash, "crash");
    vs.crash_full_speed_mps = 40;
    vs.attenuation.model = EAR_MODEL_NONE;
    ASSERT_OK(ear_world_set_vehicle_sound(f.world, car, &vs));
    ASSERT_OK(ear_vehicle_set_controls(f.physics, car, &(ear_vehicle_controls){.gas = 1}));
    size_t shifts[8], shift_count = 0, crash_at = 0;
    double lost = 0;
    for (int i = 0; i < 360 && !crash_at; i++) {
        ASSERT_TRUE(step(&f));
        size_t n = 0;
        const ear_physics_event *ev = ear_physics_events(f.physics, &n);
        for (size_t k = 0; k < n; k++) {
            if (ev[k].type == EAR_PHYS_GEAR_CHANGED && shift_count < 8)
                shifts[shift_count++] = f.frames - STEP_FRAMES;
            if (ev[k].type == EAR_PHYS_CRASHED && !crash_at) {
                crash_at = f.frames - STEP_FRAMES;
                lost = ev[k].speed_mps;
            }
        }
    }
    ASSERT_GT(crash_at, 0);
    ASSERT_GE(shift_count, 1);
    for (int i = 0; i < 15; i++) ASSERT_TRUE(step(&f));
    for (size_t k = 0; k < shift_count; k++)
        ASSERT_REL(
            ear_tone_amplitude(f.buf + 2 * shifts[k], 2400, 2, EAR_ALL_CHANNELS, RATE, 2000),
            0.5 * 0.70710678, 0.01);
    double line = 0.15 + 0.85 * (lost - 0.5) / (40 - 0.5);
    ASSERT_DBL_GT(lost, 5);
    ASSERT_REL(ear_tone_amplitude(f.buf + 2 * crash_at, 9600, 2, EAR_ALL_CHANNELS, RATE, 700),
               0.5 * 0.70710678 * line, 0.01);
    fixture_close(&f);
}

/* The audio world only reads the physics: the same steps with and without it give the
 * same state hash. */
static uint64_t physics_run(bool with_audio) {
    fixture f;
    if (!fixture_open(&f, v3(0, -9.81f, 0))) return 0;
    add_sine(&f, "thud", 300, 0.1, 0.5f);
    add_sine(&f, "hum", 200, 1, 0.5f);
    body_at(&f, "floor", EAR_BODY_FIXED, v3(0, -0.5f, 0), v3(20, 0.5f, 20));
    body_at(&f, "wall", EAR_BODY_FIXED, v3(0, 1, -6), v3(5, 1, 0.1f));
    ear_body_id head =
        body_at(&f, "head", EAR_BODY_KINEMATIC, v3(0, 1, 0), v3(0.3f, 0.9f, 0.3f));
    ear_body_id crates[4];
    for (int k = 0; k < 4; k++)
        crates[k] = body_at(&f, "crate", EAR_BODY_DYNAMIC,
                            v3((float)k - 1.5f, 1 + (float)k, -3), v3(0.25f, 0.25f, 0.25f));
    if (with_audio) {
        ear_world_follow(f.world, head);
        ear_impact im = ear_impact_default();
        snprintf(im.sound, sizeof im.sound, "thud");
        ear_source s = looping("hum");
        s.occlusion = true;
        for (int k = 0; k < 4; k++) {
            ear_world_set_impact(f.world, crates[k], &im);
            ear_world_set_source(f.world, crates[k], &s);
        }
    }
    for (int i = 0; i < 120; i++) {
        ear_body_set_velocity(f.physics, head, v3(0, 0, -1));
        ear_physics_clear_events(f.physics);
        ear_physics_step(f.physics, (float)STEP_S);
        if (with_audio) sync_render(&f);
    }
    uint64_t h = ear_physics_hash(f.physics);
    fixture_close(&f);
    return h;
}

TEST(the_audio_world_never_changes_the_physics_hash) {
    uint64_t without = physics_run(false), with = physics_run(true);
    ASSERT_NE(without, 0);
    ASSERT_U64_EQ(with, without);
}

TEST_MAIN(TEST_ENTRY(a_passing_car_is_heard_at_its_physics_velocity),
          TEST_ENTRY(walls_between_occlude_three_quarters_each),
          TEST_ENTRY(impact_volume_at_min_mid_and_full_speed_follows_the_line),
          TEST_ENTRY(the_cooldown_holds_back_a_second_hit),
          TEST_ENTRY(a_hard_hit_ducks_the_music_by_the_rules_gain),
          TEST_ENTRY(a_vehicles_engine_loop_follows_the_engine),
          TEST_ENTRY(gear_changes_and_a_crash_are_heard),
          TEST_ENTRY(the_audio_world_never_changes_the_physics_hash))
