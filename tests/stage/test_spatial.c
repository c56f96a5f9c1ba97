/* SPDX-License-Identifier: Zlib */
/*
 * Placement measured off offline renders: distance models, cone, equal-power pan,
 * the interaural delay and doppler, each against its formula (docs/stage.md).
 */
#include "stage_util.h"
#include "test.h"

/* RMS of the left and right channel of a 0.5 s render of a 1 kHz sine (amplitude
 * 0.5) played with p, measured after the first block. */
static void level_lr(ear_play p, double *l, double *r) {
    ear_stage *s = new_stage();
    ear_clip *c = sine_clip(1000.0, 1.0, RATE, 0.5f);
    ear_stage_play(s, c, &p, NULL);
    float *out = render(s, 24160);
    *l = ear_rms(out + 320, 24000, 2, 0);
    *r = ear_rms(out + 320, 24000, 2, 1);
    free(out);
    ear_clip_release(c);
    ear_stage_destroy(s);
}

static double model_gain(ear_distance_model m, double d, double ref, double max,
                         double rolloff) {
    double c = d < ref ? ref : (d > max ? max : d);
    switch (m) {
    case EAR_MODEL_LINEAR: {
        double g = 1.0 - rolloff * (c - ref) / (max - ref);
        return g > 0 ? g : 0;
    }
    case EAR_MODEL_EXPONENTIAL: return pow(c / ref, -rolloff);
    case EAR_MODEL_NONE: return 1.0;
    case EAR_MODEL_FADE: {
        double t = (c - ref) / (max - ref);
        return pow(ref / c, rolloff) * (1.0 - t * t);
    }
    default: return ref / (ref + rolloff * (c - ref));
    }
}

TEST(reference_distance_is_3db_below_the_clip) {
    double l, r;
    ear_play p = placed_at(0, 0, -1);
    level_lr(p, &l, &r);
    double clip_rms = 0.5 / sqrt(2.0);
    ASSERT_REL(l, clip_rms * sqrt(0.5), 0.002);
    ASSERT_REL(r, clip_rms * sqrt(0.5), 0.002);
}

TEST(distance_models_follow_their_formulas) {
    const ear_distance_model models[] = {EAR_MODEL_INVERSE, EAR_MODEL_LINEAR,
                                         EAR_MODEL_EXPONENTIAL, EAR_MODEL_NONE, EAR_MODEL_FADE};
    const double dist[] = {0.5, 2.0, 3.5, 10.0, 40.0, 79.0};
    const double ref = 2.0, max = 80.0, rolloff = 1.5;
    for (size_t m = 0; m < sizeof models / sizeof models[0]; m++) {
        ear_play p = placed_at(0, 0, -(float)ref);
        p.attenuation = (ear_attenuation){models[m], (float)ref, (float)max, (float)rolloff};
        double l_ref, r_ref;
        level_lr(p, &l_ref, &r_ref);
        double g_ref = model_gain(models[m], ref, ref, max, rolloff);
        for (size_t i = 0; i < sizeof dist / sizeof dist[0]; i++) {
            p.position = ear_vec3_make(0, 0, -(float)dist[i]);
            double l, r;
            level_lr(p, &l, &r);
            double g = model_gain(models[m], dist[i], ref, max, rolloff);
            double want = g / g_ref;
            if (g < 1e-4) {
                /* Below -80 dB (before panning) a voice is virtual: exactly silent. */
                ASSERT_DBL_LE(l + r, 0.0);
            } else {
                ASSERT_REL(l / l_ref, want, 0.01);
                ASSERT_REL(r / r_ref, want, 0.01);
            }
        }
    }
}

TEST(fade_model_is_silent_at_and_beyond_max) {
    ear_play p = placed_at(0, 0, -50);
    p.attenuation = (ear_attenuation){EAR_MODEL_FADE, 1, 50, 1};
    double l, r;
    level_lr(p, &l, &r);
    ASSERT_DBL_LE(l + r, 0.0);
    p.position = ear_vec3_make(0, 0, -500);
    level_lr(p, &l, &r);
    ASSERT_DBL_LE(l + r, 0.0);
}

TEST(cone_inside_outside_between) {
    ear_play p = placed_at(0, 0, -10);
    p.attenuation.model = EAR_MODEL_NONE;
    double l0, r0;
    level_lr(p, &l0, &r0);
    p.cone = (ear_cone){(float)(PI_D / 3), (float)(2 * PI_D / 3), 0.25f}; /* 60 and 120 deg */
    struct {
        ear_vec3 fwd;
        double gain;
    } cases[] = {
        {{0, 0, 1}, 1.0},   /* pointing at the listener */
        {{0, 0, -1}, 0.25}, /* pointing away */
        {{1, 0, 0}, 0.25},  /* 90 deg off axis: a 180 deg opening, outside */
        /* 45 deg off axis: a 90 deg opening, halfway between 60 and 120 */
        {{(float)sin(PI_D / 4), 0, (float)cos(PI_D / 4)}, 1.0 + 0.5 * (0.25 - 1.0)},
        {{(float)sin(PI_D / 7), 0, (float)cos(PI_D / 7)}, 1.0}, /* 25.7 deg: inside */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        p.forward = cases[i].fwd;
        double l, r;
        level_lr(p, &l, &r);
        ASSERT_REL(l / l0, cases[i].gain, 0.01);
        ASSERT_REL(r / r0, cases[i].gain, 0.01);
    }
}

TEST(pan_right_is_louder_right_and_mirrors) {
    double lr, rr, ll, rl;
    ear_play p = placed_at(5, 0, 0);
    p.attenuation.model = EAR_MODEL_NONE;
    level_lr(p, &lr, &rr);
    ASSERT_DBL_GT(rr, 4.0 * lr);
    p.position = ear_vec3_make(-5, 0, 0);
    level_lr(p, &ll, &rl);
    ASSERT_DBL_GT(ll, 4.0 * rl);
    ASSERT_REL(ll, rr, 0.001);
    ASSERT_REL(rl, lr, 0.001);
    /* 0.9 spread: theta = 0.1 * pi / 4 from the far side. */
    ASSERT_REL(lr / rr, tan(0.1 * PI_D / 4), 0.01);
}

TEST(equal_power_across_the_arc) {
    double ref = -1;
    for (int deg = -180; deg <= 180; deg += 15) {
        double a = deg * PI_D / 180.0;
        ear_play p = placed_at((float)(3 * sin(a)), 0, (float)(-3 * cos(a)));
        p.attenuation.model = EAR_MODEL_NONE;
        p.no_behind_cue = true;
        double l, r;
        level_lr(p, &l, &r);
        double power = l * l + r * r;
        if (ref < 0) ref = power;
        ASSERT_REL(power, ref, 0.01);
    }
}

TEST(interaural_delay_on_the_far_ear) {
    ear_clip *c = noise_clip(1.0, RATE, 0.5f, 7);
    const double angles[] = {90.0, 45.0, -30.0, 0.0};
    for (size_t i = 0; i < 4; i++) {
        double a = angles[i] * PI_D / 180.0;
        ear_stage *s = new_stage();
        ear_play p = placed_at((float)(2 * sin(a)), 0, (float)(-2 * cos(a)));
        p.attenuation.model = EAR_MODEL_NONE;
        ear_stage_play(s, c, &p, NULL);
        float *out = render(s, 24000);
        /* Positive when the left channel (b = 0) is later than the right (a = 1). */
        double lag = ear_channel_lag(out + 2 * 1000, 20000, 2, 1, 0, 64);
        double want = 0.00066 * RATE * sin(a);
        ASSERT_NEAR(lag, want, 0.25);
        free(out);
        ear_stage_destroy(s);
    }
    ear_clip_release(c);
}

/* Dominant frequency of the left channel over [from, from + 1 s). */
static double heard_hz(ear_play p, ear_listener *l) {
    ear_stage *s = new_stage();
    ear_clip *c = sine_clip(440.0, 1.0, RATE, 0.5f);
    if (l) ear_stage_set_listener(s, l);
    ear_stage_play(s, c, &p, NULL);
    float *out = render(s, RATE);
    double hz = ear_dominant_hz(out, RATE, 2, 0, RATE);
    free(out);
    ear_clip_release(c);
    ear_stage_destroy(s);
    return hz;
}

TEST(doppler_approaching_and_receding) {
    const double c = 343.0, v = 30.0;
    ear_play p = placed_at(-200, 0, 0);
    p.attenuation.model = EAR_MODEL_NONE;
    p.velocity = ear_vec3_make((float)v, 0, 0); /* towards the listener */
    ASSERT_REL(heard_hz(p, NULL), 440.0 * c / (c - v), 0.005);
    p.velocity = ear_vec3_make(-(float)v, 0, 0); /* away */
    ASSERT_REL(heard_hz(p, NULL), 440.0 * c / (c + v), 0.005);
    /* The listener moving towards a still source: (c + v) / c. */
    p.velocity = ear_vec3_make(0, 0, 0);
    ear_listener l = {{0, 0, 0}, {-(float)v, 0, 0}, {0, 0, -1}, {0, 1, 0}};
    ASSERT_REL(heard_hz(p, &l), 440.0 * (c + v) / c, 0.005);
    /* Half the factor: f = 0.5. */
    p.velocity = ear_vec3_make((float)v, 0, 0);
    p.doppler_factor = 0.5f;
    ASSERT_REL(heard_hz(p, NULL), 440.0 * c / (c - 0.5 * v), 0.005);
    /* Switched off. */
    p.no_doppler = true;
    ASSERT_REL(heard_hz(p, NULL), 440.0, 0.001);
}

TEST(set_motion_equals_position_then_velocity) {
    ear_clip *c = sine_clip(440.0, 1.0, RATE, 0.5f);
    uint64_t h[2];
    for (int k = 0; k < 2; k++) {
        ear_stage *s = new_stage();
        ear_voice_id v;
        ear_play p = placed_at(-20, 0, -3);
        ear_stage_play(s, c, &p, &v);
        float *out = malloc(9600 * 2 * sizeof *out);
        for (int b = 0; b < 20; b++) {
            ear_vec3 pos = {-20.0f + (float)b, 0, -3}, vel = {48, 0, 0};
            if (k) {
                ASSERT_OK(ear_stage_set_motion(s, v, pos, vel));
            } else {
                ASSERT_OK(ear_stage_set_position(s, v, pos));
                ASSERT_OK(ear_stage_set_velocity(s, v, vel));
            }
            ear_stage_render(s, out + 2 * 480 * b, 480);
        }
        h[k] = ear_hash_samples(out, 9600 * 2);
        free(out);
        ear_stage_destroy(s);
    }
    ASSERT_U64_EQ(h[0], h[1]);
    ear_clip_release(c);
}

TEST(doppler_speed_is_limited_below_c) {
    ear_play p = placed_at(-200, 0, 0);
    p.attenuation.model = EAR_MODEL_NONE;
    p.velocity = ear_vec3_make(1000, 0, 0); /* faster than sound */
    ear_stage *s = new_stage();
    ear_clip *c = sine_clip(100.0, 1.0, RATE, 0.5f);
    ear_stage_play(s, c, &p, NULL);
    float *out = render(s, 4800);
    for (size_t i = 0; i < 9600; i++) ASSERT_TRUE(isfinite(out[i]));
    ASSERT_DBL_GT(ear_rms(out, 4800, 2, 0), 0.01);
    free(out);
    ear_clip_release(c);
    ear_stage_destroy(s);
}

TEST(flat_balance_pan) {
    double l, r;
    ear_play p = {.looping = true};
    level_lr(p, &l, &r);
    ASSERT_REL(l, 0.5 / sqrt(2.0), 0.002); /* centre is unity */
    ASSERT_REL(r, 0.5 / sqrt(2.0), 0.002);
    p.pan = 0.5f;
    level_lr(p, &l, &r);
    ASSERT_REL(l, 0.5 * 0.5 / sqrt(2.0), 0.002);
    ASSERT_REL(r, 0.5 / sqrt(2.0), 0.002);
    p.pan = -1.0f;
    level_lr(p, &l, &r);
    ASSERT_DBL_LE(r, 0.0);
}

TEST(listener_orientation_turns_the_stage) {
    /* Facing +X, a source at +X is straight ahead and one at -Z is on the left. */
    ear_stage *s = new_stage();
    ear_clip *c = sine_clip(1000.0, 1.0, RATE, 0.5f);
    ear_listener l = {{0, 0, 0}, {0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    ear_stage_set_listener(s, &l);
    ear_play p = placed_at(0, 0, -4);
    p.attenuation.model = EAR_MODEL_NONE;
    ear_stage_play(s, c, &p, NULL);
    float *out = render(s, 9600);
    ASSERT_DBL_GT(ear_rms(out + 320, 9000, 2, 0), 4.0 * ear_rms(out + 320, 9000, 2, 1));
    free(out);
    ear_clip_release(c);
    ear_stage_destroy(s);
}

/* A voice heard through HRTF has no pan targets (none are computed for it); once it pans
 * again (its own spatializer, the stage's, or the set unloaded) it pans from where it is
 * now, not from where it was when it last panned: after it moved while heard through
 * HRTF, its levels are those of a voice that panned all along. */
TEST(a_voice_leaving_hrtf_pans_from_where_it_is) {
    /* A set of four directions whose filters pass the sound through (a unit impulse, no
     * delay): what is measured is the pan after it. */
    enum { DIRS = 4, TAPS = 8 };
    float az[DIRS] = {0, 90, 180, 270}, el[DIRS] = {0, 0, 0, 0};
    float ir[DIRS * TAPS] = {0}, delay[DIRS] = {0};
    for (int d = 0; d < DIRS; d++) ir[d * TAPS] = 1.0f;
    ear_stage_hrtf set = {RATE, TAPS, DIRS, az, el, ir, ir, delay, delay, "pass-through"};
    ear_clip *c = sine_clip(1000.0, 1.0, RATE, 0.5f);
    double ref_l = 0, ref_r = 0;
    /* way 0: panned all along (the reference); 1: the voice's own spatializer; 2: the
     * stage's; 3: the set unloaded. */
    for (int way = 0; way < 4; way++) {
        ear_stage *s = new_stage();
        ASSERT_OK(ear_stage_set_hrtf(s, &set));
        if (way > 0) ASSERT_OK(ear_stage_set_spatializer(s, EAR_SPATIALIZER_HRTF));
        ear_play p = placed_at(4, 0, 0); /* on the right */
        p.attenuation.model = EAR_MODEL_NONE;
        p.no_doppler = true;
        ear_voice_id id;
        ASSERT_OK(ear_stage_play(s, c, &p, &id));
        float *out = malloc(9600 * 2 * sizeof *out);
        ASSERT_OK(ear_stage_render(s, out, 4800));
        /* Moved to the front left while heard through HRTF (way > 0). */
        ASSERT_OK(ear_stage_set_position(s, id, ear_vec3_make(-3, 0, -3)));
        ASSERT_OK(ear_stage_render(s, out, 4800));
        if (way == 1) ASSERT_OK(ear_stage_set_voice_spatializer(s, id, EAR_SPATIALIZER_PAN));
        if (way == 2) ASSERT_OK(ear_stage_set_spatializer(s, EAR_SPATIALIZER_PAN));
        if (way == 3) ASSERT_OK(ear_stage_set_hrtf(s, NULL));
        ASSERT_OK(ear_stage_render(s, out, 9600)); /* the crossfade, then settled */
        ASSERT_OK(ear_stage_render(s, out, 9600));
        double l = ear_rms(out, 9600, 2, 0), r = ear_rms(out, 9600, 2, 1);
        free(out);
        ear_stage_destroy(s);
        if (way == 0) {
            ref_l = l, ref_r = r;
            ASSERT_DBL_GT(l, 1.5 * r); /* front left: the left ear louder */
            continue;
        }
        ASSERT_REL(l, ref_l, 1e-4);
        ASSERT_REL(r, ref_r, 1e-4);
    }
    ear_clip_release(c);
}

/* The one silent-at-max rule (ear_stage_play_event and the world's events use it): silent
 * at and beyond max only where the model reaches silence there. */
TEST(silent_at_max_only_where_the_model_reaches_silence) {
    ear_attenuation fade = {EAR_MODEL_FADE, 1.0f, 20.0f, 1.0f};
    ASSERT_TRUE(ear_attenuation_silent_at(&fade, 20.0f));
    ASSERT_TRUE(ear_attenuation_silent_at(&fade, 500.0f));
    ASSERT_FALSE(ear_attenuation_silent_at(&fade, 19.99f));
    ear_attenuation lin = {EAR_MODEL_LINEAR, 2.0f, 10.0f, 1.0f};
    ASSERT_TRUE(ear_attenuation_silent_at(&lin, 10.0f));
    ASSERT_FALSE(ear_attenuation_silent_at(&lin, 9.5f));
    lin.rolloff = 0.5f; /* floored at 0.5, never silent */
    ASSERT_FALSE(ear_attenuation_silent_at(&lin, 50.0f));
    lin.rolloff = 1.0f;
    lin.max_distance_m = 2.0f; /* a range at ref does not attenuate at all */
    ASSERT_FALSE(ear_attenuation_silent_at(&lin, 50.0f));
    ear_attenuation inv = {EAR_MODEL_INVERSE, 1.0f, 10.0f, 1.0f};
    ASSERT_FALSE(ear_attenuation_silent_at(&inv, 1000.0f));
    /* Zero fields take ear_play's defaults: max 100 m. */
    ear_attenuation dflt = {EAR_MODEL_FADE, 0.0f, 0.0f, 0.0f};
    ASSERT_FALSE(ear_attenuation_silent_at(&dflt, 99.0f));
    ASSERT_TRUE(ear_attenuation_silent_at(&dflt, 100.0f));
}

/* The one HRTF direction lookup (the stage's spatializer and ear_hrtf_weights): two rings,
 * at 0 degrees (azimuths 0, 90, 180, 270) and 30 (45, 135, 225, 315). */
TEST(hrtf_rings_weights_are_bilinear_across_rings_and_azimuths) {
    const float az[8] = {0, 90, 180, 270, 45, 135, 225, 315};
    const float ring_el[2] = {0, 30};
    const uint32_t start[3] = {0, 4, 8};
    const uint32_t index[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    const ear_hrtf_rings g = {az, ring_el, start, index, 2};
    uint32_t idx[4];
    float w[4];
    /* A measured direction gives itself alone. */
    ASSERT_EQ(ear_hrtf_rings_weights(&g, 135.0f, 30.0f, idx, w), 1u);
    ASSERT_EQ(idx[0], 5u);
    ASSERT_NEAR(w[0], 1.0, 1e-7);
    /* Halfway between the rings at 90: the lower ring's 90 (1/2), the upper's 45 and 135
     * (1/4 each). */
    ASSERT_EQ(ear_hrtf_rings_weights(&g, 90.0f, 15.0f, idx, w), 3u);
    ASSERT_EQ(idx[0], 1u);
    ASSERT_NEAR(w[0], 0.5, 1e-6);
    ASSERT_EQ(idx[1], 4u);
    ASSERT_NEAR(w[1], 0.25, 1e-6);
    ASSERT_EQ(idx[2], 5u);
    ASSERT_NEAR(w[2], 0.25, 1e-6);
    /* Across 0/360 below the ring's first azimuth: 10 is between 315 (35/90) and 45
     * (55/90); and -10 is 350, between 270 (1/9) and 0 (8/9) in the lower ring. */
    ASSERT_EQ(ear_hrtf_rings_weights(&g, 10.0f, 30.0f, idx, w), 2u);
    ASSERT_EQ(idx[0], 7u);
    ASSERT_NEAR(w[0], 35.0 / 90.0, 1e-6);
    ASSERT_EQ(idx[1], 4u);
    ASSERT_NEAR(w[1], 55.0 / 90.0, 1e-6);
    ASSERT_EQ(ear_hrtf_rings_weights(&g, -10.0f, 0.0f, idx, w), 2u);
    ASSERT_EQ(idx[0], 3u);
    ASSERT_NEAR(w[0], 1.0 / 9.0, 1e-6);
    ASSERT_EQ(idx[1], 0u);
    ASSERT_NEAR(w[1], 8.0 / 9.0, 1e-6);
    /* Below the lowest ring: the nearest ring only. */
    ASSERT_EQ(ear_hrtf_rings_weights(&g, 180.0f, -60.0f, idx, w), 1u);
    ASSERT_EQ(idx[0], 2u);
}

TEST_MAIN(TEST_ENTRY(reference_distance_is_3db_below_the_clip),
          TEST_ENTRY(distance_models_follow_their_formulas),
          TEST_ENTRY(fade_model_is_silent_at_and_beyond_max),
          TEST_ENTRY(cone_inside_outside_between),
          TEST_ENTRY(pan_right_is_louder_right_and_mirrors),
          TEST_ENTRY(equal_power_across_the_arc), TEST_ENTRY(interaural_delay_on_the_far_ear),
          TEST_ENTRY(doppler_approaching_and_receding),
          TEST_ENTRY(set_motion_equals_position_then_velocity),
          TEST_ENTRY(doppler_speed_is_limited_below_c), TEST_ENTRY(flat_balance_pan),
          TEST_ENTRY(listener_orientation_turns_the_stage),
          TEST_ENTRY(a_voice_leaving_hrtf_pans_from_where_it_is),
          TEST_ENTRY(silent_at_max_only_where_the_model_reaches_silence),
          TEST_ENTRY(hrtf_rings_weights_are_bilinear_across_rings_and_azimuths))
