/* SPDX-License-Identifier: Zlib */
/*
 * Reverb zones of the audio world: the ear walking into a box sets the stage's room (the
 * highest priority, then the smallest box, wins), walking out brings back the room from
 * before; the rendered impulse response's decay (Schroeder, T30) follows the zone's RT60;
 * bad zones are refused by name and change nothing.
 */
#include "test.h"
#include "world_util.h"

/* RT60 of the left channel's band around fc (RBJ band-pass twice, T30 fit). */
static double band_rt60(const float *ir, size_t n, double fc) {
    double *h = malloc(n * sizeof *h);
    double w = 2.0 * PI_D * fc / RATE, al = sin(w) / (2.0 * 1.414), a0 = 1.0 + al;
    double b0 = al / a0, b2 = -al / a0, a1 = -2.0 * cos(w) / a0, a2 = (1.0 - al) / a0;
    for (size_t i = 0; i < n; i++) h[i] = ir[2 * i];
    for (int pass = 0; pass < 2; pass++) {
        double x1 = 0, x2 = 0, y1 = 0, y2 = 0;
        for (size_t i = 0; i < n; i++) {
            double x = h[i], y = b0 * x + b2 * x2 - a1 * y1 - a2 * y2;
            x2 = x1, x1 = x, y2 = y1, y1 = y;
            h[i] = y;
        }
    }
    double acc = 0.0;
    for (size_t i = n; i-- > 0;) h[i] = acc += h[i] * h[i];
    double e0 = h[0], sx = 0, sy = 0, sxx = 0, sxy = 0;
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        double db = 10.0 * log10(h[i] / e0);
        if (db > -5.0 || db < -35.0) continue;
        double t = (double)i / RATE;
        sx += t, sy += db, sxx += t * t, sxy += t * db, m++;
    }
    free(h);
    return -60.0 / (((double)m * sxy - sx * sy) / ((double)m * sxx - sx * sx));
}

/* A flat impulse sending 1 into the room, rendered for `seconds` (after a second for the
 * room's change to finish): its impulse response, dry frame removed. */
static float *impulse_here(fixture *f, double seconds) {
    for (int i = 0; i < 60; i++) sync_render(f);
    float one = 1.0f;
    ear_clip *imp = NULL;
    ear_clip_create(&one, 1, 1, RATE, NULL, &imp);
    ear_stage_play(f->stage, imp, &(ear_play){.reverb_send = 1.0f}, NULL);
    ear_clip_release(imp);
    size_t n = (size_t)(seconds * RATE);
    float *ir = malloc(n * 2 * sizeof *ir);
    ear_stage_render(f->stage, ir, (uint32_t)n);
    ir[0] = ir[1] = 0.0f;
    return ir;
}

static ear_reverb_zone zone(const char *name, ear_reverb_preset preset, ear_vec3 lo,
                            ear_vec3 hi, int32_t priority) {
    ear_reverb_zone z = ear_reverb_zone_default(name);
    ear_reverb_preset_params(preset, &z.room);
    z.min_m = lo;
    z.max_m = hi;
    z.priority = priority;
    z.transition_s = 0.2f;
    return z;
}

TEST(the_ear_walks_through_zones_and_the_room_follows) {
    fixture f;
    ASSERT_TRUE(fixture_open(&f, v3(0, 0, 0)));
    ear_body_id head =
        body_at(&f, "head", EAR_BODY_KINEMATIC, v3(50, 0, 0), v3(0.2f, 0.2f, 0.2f));
    ear_listener_component l = ear_listener_component_default();
    ASSERT_OK(ear_world_set_listener(f.world, head, &l));
    ear_reverb_params outdoors, cave, room;
    ear_reverb_preset_params(EAR_REVERB_OUTDOORS, &outdoors);
    ear_reverb_preset_params(EAR_REVERB_CAVE, &cave);
    ear_reverb_preset_params(EAR_REVERB_ROOM, &room);
    ASSERT_OK(ear_stage_set_reverb(f.stage, &outdoors, 0.0f));
    ear_reverb_zone big = zone("cave", EAR_REVERB_CAVE, v3(-10, -10, -10), v3(10, 10, 10), 0);
    ear_reverb_zone nook = zone("nook", EAR_REVERB_ROOM, v3(2, -1, -1), v3(4, 1, 1), 1);
    ASSERT_OK(ear_world_set_reverb_zone(f.world, &big));
    ASSERT_OK(ear_world_set_reverb_zone(f.world, &nook));
    ASSERT_EQ(ear_world_reverb_zone_count(f.world), 2u);
    sync_render(&f);
    ASSERT_NULL(ear_world_current_zone(f.world));
    ASSERT_REL(ear_stage_get_reverb(f.stage).rt60_low_s, outdoors.rt60_low_s, 0);
    /* Into the cave: its room, heard in the rendered decay. */
    ASSERT_OK(ear_body_set_position(f.physics, head, v3(0, 0, 0)));
    sync_render(&f);
    ASSERT_STR_EQ(ear_world_current_zone(f.world), "cave");
    ASSERT_REL(ear_stage_get_reverb(f.stage).rt60_low_s, cave.rt60_low_s, 0);
    float *ir = impulse_here(&f, 4.0);
    double rt = band_rt60(ir, 4 * RATE, cave.crossover_hz / 8.0);
    printf("  in the cave: RT60 %.3f s (room %.2f)\n", rt, (double)cave.rt60_low_s);
    ASSERT_REL(rt, cave.rt60_low_s, 0.10);
    free(ir);
    /* The nook inside the cave wins by priority. */
    ASSERT_OK(ear_body_set_position(f.physics, head, v3(3, 0, 0)));
    sync_render(&f);
    ASSERT_STR_EQ(ear_world_current_zone(f.world), "nook");
    ASSERT_REL(ear_stage_get_reverb(f.stage).rt60_low_s, room.rt60_low_s, 0);
    /* Out of both: the room from before. */
    ASSERT_OK(ear_body_set_position(f.physics, head, v3(50, 0, 0)));
    sync_render(&f);
    ASSERT_NULL(ear_world_current_zone(f.world));
    ASSERT_REL(ear_stage_get_reverb(f.stage).rt60_low_s, outdoors.rt60_low_s, 0);
    ir = impulse_here(&f, 1.5);
    rt = band_rt60(ir, (size_t)(1.5 * RATE), outdoors.crossover_hz / 8.0);
    printf("  outside: RT60 %.3f s (room %.2f)\n", rt, (double)outdoors.rt60_low_s);
    ASSERT_REL(rt, outdoors.rt60_low_s, 0.10);
    free(ir);
    /* Back in, then the zone is removed under the ear: the room from before again. */
    ASSERT_OK(ear_body_set_position(f.physics, head, v3(0, 5, 0)));
    sync_render(&f);
    ASSERT_STR_EQ(ear_world_current_zone(f.world), "cave");
    ASSERT_OK(ear_world_remove_reverb_zone(f.world, "cave"));
    sync_render(&f);
    ASSERT_NULL(ear_world_current_zone(f.world));
    ASSERT_REL(ear_stage_get_reverb(f.stage).rt60_low_s, outdoors.rt60_low_s, 0);
    /* A zone replaced in place (same name) while the ear is in it: its new room. */
    ASSERT_OK(ear_body_set_position(f.physics, head, v3(3, 0, 0)));
    sync_render(&f);
    ASSERT_STR_EQ(ear_world_current_zone(f.world), "nook");
    nook.room.rt60_low_s = 1.9f;
    ASSERT_OK(ear_world_set_reverb_zone(f.world, &nook));
    sync_render(&f);
    ASSERT_REL(ear_stage_get_reverb(f.stage).rt60_low_s, 1.9f, 0);
    fixture_close(&f);
}

TEST(bad_zones_are_refused_and_change_nothing) {
    fixture f;
    ASSERT_TRUE(fixture_open(&f, v3(0, 0, 0)));
    ear_reverb_zone z = zone("hall", EAR_REVERB_HALL, v3(1, 1, 1), v3(0, 2, 2), 0);
    ASSERT_EQ(ear_world_set_reverb_zone(f.world, &z), EAR_E_INVALID_ARG); /* min.x > max.x */
    z.min_m = v3(0, 0, 0);
    z.room.size = 9.0f;
    ASSERT_EQ(ear_world_set_reverb_zone(f.world, &z), EAR_E_INVALID_ARG);
    z.room.size = 1.0f;
    z.transition_s = -1.0f;
    ASSERT_EQ(ear_world_set_reverb_zone(f.world, &z), EAR_E_INVALID_ARG);
    z.transition_s = 0.0f; /* the default, 1 s */
    z.name[0] = '\0';
    ASSERT_EQ(ear_world_set_reverb_zone(f.world, &z), EAR_E_INVALID_ARG);
    ASSERT_EQ(ear_world_reverb_zone_count(f.world), 0u);
    for (int i = 0; i < EAR_WORLD_MAX_ZONES; i++) {
        snprintf(z.name, sizeof z.name, "z%d", i);
        ASSERT_OK(ear_world_set_reverb_zone(f.world, &z));
    }
    snprintf(z.name, sizeof z.name, "one too many");
    ASSERT_EQ(ear_world_set_reverb_zone(f.world, &z), EAR_E_STATE);
    ear_reverb_zone got;
    ASSERT_TRUE(ear_world_reverb_zone_at(f.world, 0, &got));
    ASSERT_STR_EQ(got.name, "z0");
    ASSERT_REL(got.transition_s, 1.0, 0);
    ASSERT_FALSE(ear_world_reverb_zone_at(f.world, EAR_WORLD_MAX_ZONES, &got));
    ASSERT_EQ(ear_world_remove_reverb_zone(f.world, "nowhere"), EAR_E_NOT_FOUND);
    fixture_close(&f);
}

/* A source's reverb_send: a looping tone sending 1 rings on in the room after it stops
 * (with send 0: silence after the stop's ramp); a live change reaches the voice. */
static double tail_rms(float send, bool change_live) {
    fixture f;
    if (!fixture_open(&f, v3(0, 0, 0))) return -1.0;
    add_sine(&f, "tone", 500, 1, 0.5f);
    ear_body_id head = body_at(&f, "head", EAR_BODY_FIXED, v3(0, 0, 0), v3(0.2f, 0.2f, 0.2f));
    ear_body_id radio =
        body_at(&f, "radio", EAR_BODY_FIXED, v3(0, 0, -2), v3(0.2f, 0.2f, 0.2f));
    ear_listener_component l = ear_listener_component_default();
    ear_world_set_listener(f.world, head, &l);
    ear_reverb_zone z = zone("hall", EAR_REVERB_HALL, v3(-10, -10, -10), v3(10, 10, 10), 0);
    ear_world_set_reverb_zone(f.world, &z);
    ear_source s = looping("tone");
    s.reverb_send = change_live ? 0.0f : send;
    ear_world_set_source(f.world, radio, &s);
    for (int i = 0; i < 30; i++) sync_render(&f);
    if (change_live) {
        s.reverb_send = send;
        ear_world_set_source(f.world, radio, &s);
        for (int i = 0; i < 30; i++) sync_render(&f);
    }
    s.play = false;
    ear_world_set_source(f.world, radio, &s);
    double t0 = (double)f.frames / RATE;
    for (int i = 0; i < 30; i++) sync_render(&f);
    double r = ear_rms(at(&f, t0 + 0.1), span(t0 + 0.1, t0 + 0.4), 2, 0);
    fixture_close(&f);
    return r;
}

TEST(a_sources_send_rings_on_in_the_room) {
    double dry = tail_rms(0.0f, false), wet = tail_rms(1.0f, false);
    double live = tail_rms(1.0f, true);
    printf("  after the stop: send 0 %.3g, send 1 %.3g, send 1 set live %.3g\n", dry, wet,
           live);
    ASSERT_DBL_LE(dry, 0.0);
    ASSERT_DBL_GT(wet, 1e-3);
    ASSERT_DBL_GT(live, 1e-3);
}

/* An event's reverb_send (ear_event_params), played as a sound or as a pool's pick: a
 * 0.1 s tone 2 m ahead in a hall; the RMS 0.2..0.5 s after it started (the tone is over):
 * the room's tail with a send, exact silence without. */
static double event_tail(float send, bool pool) {
    fixture f;
    if (!fixture_open(&f, v3(0, 0, 0))) return -1.0;
    add_sine(&f, "blip", 500, 0.1, 0.5f);
    ear_body_id head = body_at(&f, "head", EAR_BODY_FIXED, v3(0, 0, 0), v3(0.2f, 0.2f, 0.2f));
    ear_listener_component l = ear_listener_component_default();
    ear_world_set_listener(f.world, head, &l);
    ear_reverb_zone z = zone("hall", EAR_REVERB_HALL, v3(-10, -10, -10), v3(10, 10, 10), 0);
    ear_world_set_reverb_zone(f.world, &z);
    for (int i = 0; i < 30; i++) sync_render(&f);
    if (pool) {
        ear_pool_def def = {0};
        snprintf(def.name, sizeof def.name, "steps");
        if (ear_assets_get(f.assets, "blip", &def.clips[0]) != EAR_OK) return -1.0;
        def.clip_count = 1;
        def.volume_min = def.volume_max = 1;
        ear_stage_register_pool(f.stage, &def);
    }
    ear_world_play_event(f.world, pool ? "steps" : "blip", v3(0, 0, -2),
                         &(ear_event_params){.reverb_send = send});
    double t0 = (double)f.frames / RATE;
    for (int i = 0; i < 40; i++) sync_render(&f);
    double r = ear_rms(at(&f, t0 + 0.2), span(t0 + 0.2, t0 + 0.5), 2, 0);
    fixture_close(&f);
    return r;
}

TEST(events_and_pool_picks_send_to_the_room) {
    double dry = event_tail(0.0f, false), wet = event_tail(1.0f, false);
    double pool_dry = event_tail(0.0f, true), pool_wet = event_tail(1.0f, true);
    printf("  after the event: send 0 %.3g, send 1 %.3g; a pool's pick: %.3g, %.3g\n", dry, wet,
           pool_dry, pool_wet);
    ASSERT_DBL_LE(dry, 0.0);
    ASSERT_DBL_GT(wet, 1e-3);
    ASSERT_DBL_LE(pool_dry, 0.0);
    ASSERT_DBL_GT(pool_wet, 1e-3);
    /* the same send, the same pick at volume 1: the same tail (within 1 %) */
    ASSERT_NEAR(pool_wet / wet, 1.0, 0.01);
}

TEST(an_impacts_send_is_checked) {
    fixture f;
    ASSERT_TRUE(fixture_open(&f, v3(0, 0, 0)));
    ear_body_id box = body_at(&f, "box", EAR_BODY_DYNAMIC, v3(0, 1, 0), v3(0.2f, 0.2f, 0.2f));
    ear_impact im = ear_impact_default();
    snprintf(im.sound, sizeof im.sound, "blip");
    im.reverb_send = -0.5f;
    ASSERT_EQ(ear_world_set_impact(f.world, box, &im), EAR_E_INVALID_ARG);
    im.reverb_send = NAN;
    ASSERT_EQ(ear_world_set_impact(f.world, box, &im), EAR_E_INVALID_ARG);
    im.reverb_send = 0.6f;
    ASSERT_EQ(ear_world_set_impact(f.world, box, &im), EAR_OK);
    fixture_close(&f);
}

TEST_MAIN(TEST_ENTRY(the_ear_walks_through_zones_and_the_room_follows),
          TEST_ENTRY(bad_zones_are_refused_and_change_nothing),
          TEST_ENTRY(a_sources_send_rings_on_in_the_room),
          TEST_ENTRY(events_and_pool_picks_send_to_the_room),
          TEST_ENTRY(an_impacts_send_is_checked))
