/* SPDX-License-Identifier: Zlib */
/*
 * Blend sounds and one-shot pools, measured: each layer's level at chosen parameter
 * values by the tone amplitude of its own frequency; equal-power layers' squares sum
 * to the full amplitude; parameters moving every frame do not click; pools never
 * repeat, stay in their ranges, repeat exactly under one seed, and cap instances.
 */
#include "earshot/mixer.h"
#include "stage_util.h"
#include "test.h"

static ear_curve curve(const char *param, float x0, float y0, float x1, float y1,
                       ear_curve_shape shape) {
    ear_curve c;
    memset(&c, 0, sizeof c);
    snprintf(c.param, sizeof c.param, "%s", param);
    c.count = 2;
    c.x[0] = x0, c.y[0] = y0, c.x[1] = x1, c.y[1] = y1;
    c.shape = shape;
    return c;
}

/* Two layers, 200 Hz fading out and 400 Hz fading in as rpm goes 1000 -> 3000. */
static ear_blend_def engine_def(ear_curve_shape shape, ear_clip *low, ear_clip *high) {
    ear_blend_def d;
    memset(&d, 0, sizeof d);
    snprintf(d.name, sizeof d.name, "engine");
    d.bus = EAR_BUS_ENGINE;
    d.smoothing_ms = 30.0f;
    d.param_count = 2;
    d.params[0] = (ear_blend_param){"rpm", 800, 8000, 800};
    d.params[1] = (ear_blend_param){"load", 0, 1, 1};
    d.layer_count = 2;
    d.layers[0].clip = low;
    d.layers[0].gain_count = 1;
    d.layers[0].gain[0] = curve("rpm", 1000, 1, 3000, 0, shape);
    d.layers[1].clip = high;
    d.layers[1].gain_count = 2;
    d.layers[1].gain[0] = curve("rpm", 1000, 0, 3000, 1, shape);
    d.layers[1].gain[1] = curve("load", 0, 0.5f, 1, 1, EAR_CURVE_LINEAR);
    return d;
}

/* Tone amplitudes of 200 and 400 Hz after setting rpm and waiting for smoothing. */
static void levels_at(ear_stage *s, ear_voice_id v, float rpm, double *a200, double *a400) {
    ear_stage_set_param(s, v, "rpm", rpm);
    free(render(s, 24000)); /* 0.5 s: many smoothing time constants */
    float *out = render(s, 9600);
    *a200 = ear_tone_amplitude(out, 9600, 2, 0, RATE, 200.0);
    *a400 = ear_tone_amplitude(out, 9600, 2, 0, RATE, 400.0);
    free(out);
}

TEST(equal_power_layers_keep_power) {
    ear_clip *low = sine_clip(200.0, 1.0, RATE, 0.5f),
             *high = sine_clip(400.0, 1.0, RATE, 0.5f);
    ear_stage *s = new_stage();
    ear_blend_def d = engine_def(EAR_CURVE_EQUAL_POWER, low, high);
    ASSERT_OK(ear_stage_register_blend(s, &d));
    ear_voice_id v;
    ASSERT_OK(ear_stage_play_blend(s, "engine", NULL, &v));
    const float rpms[] = {800, 1500, 2000, 2500, 3000, 5000};
    for (size_t i = 0; i < 6; i++) {
        double a, b;
        levels_at(s, v, rpms[i], &a, &b);
        double t = (rpms[i] - 1000.0) / 2000.0;
        t = t < 0 ? 0 : (t > 1 ? 1 : t);
        ASSERT_NEAR(a, 0.5 * cos(t * PI_D / 2), 0.005);
        ASSERT_NEAR(b, 0.5 * sin(t * PI_D / 2), 0.005);
        ASSERT_REL(a * a + b * b, 0.25, 0.01); /* summed power: the full amplitude */
    }
    /* The second gain curve multiplies: load 0 halves the high layer. */
    ear_stage_set_param(s, v, "load", 0.0f);
    double a, b;
    levels_at(s, v, 3000, &a, &b);
    ASSERT_NEAR(b, 0.25, 0.003);
    ASSERT_EQ(ear_stage_set_param(s, v, "boost", 1.0f), EAR_E_NOT_FOUND);
    ASSERT_EQ(ear_stage_set_param(s, v, "rpm", NAN), EAR_E_INVALID_ARG);
    /* One voice, on its bus. */
    ASSERT_EQ(ear_stage_voice_count(s), 1);
    ear_stage_set_bus_muted(s, EAR_BUS_ENGINE, true);
    float *out = render(s, 960);
    ASSERT_DBL_LE(ear_peak(out + 320, 800, 2, EAR_ALL_CHANNELS), 0.0);
    free(out);
    ear_stage_destroy(s);
    ear_clip_release(low);
    ear_clip_release(high);
}

TEST(linear_layers_keep_amplitude) {
    ear_clip *low = sine_clip(200.0, 1.0, RATE, 0.5f),
             *high = sine_clip(400.0, 1.0, RATE, 0.5f);
    ear_stage *s = new_stage();
    ear_blend_def d = engine_def(EAR_CURVE_LINEAR, low, high);
    ASSERT_OK(ear_stage_register_blend(s, &d));
    ear_voice_id v;
    ASSERT_OK(ear_stage_play_blend(s, "engine", NULL, &v));
    double a, b;
    levels_at(s, v, 1500, &a, &b);
    ASSERT_NEAR(a, 0.5 * 0.75, 0.004);
    ASSERT_NEAR(b, 0.5 * 0.25, 0.004);
    ASSERT_REL(a + b, 0.5, 0.01);
    ear_stage_destroy(s);
    ear_clip_release(low);
    ear_clip_release(high);
}

TEST(pitch_curves_and_no_click_when_driven_every_frame) {
    ear_clip *low = sine_clip(200.0, 1.0, RATE, 0.5f),
             *high = sine_clip(400.0, 1.0, RATE, 0.5f);
    ear_stage *s = new_stage();
    ear_blend_def d = engine_def(EAR_CURVE_EQUAL_POWER, low, high);
    d.layers[0].pitch_count = 1;
    d.layers[0].pitch[0] = curve("rpm", 800, 1.0f, 3000, 2.0f, EAR_CURVE_LINEAR);
    ASSERT_OK(ear_stage_register_blend(s, &d));
    ear_voice_id v;
    ASSERT_OK(ear_stage_play_blend(s, "engine", NULL, &v));
    /* At 1000 rpm only the low layer sounds, at pitch 1 + 200 / 2200. */
    ear_stage_set_param(s, v, "rpm", 1000.0f);
    free(render(s, 24000));
    float *out = render(s, RATE);
    ASSERT_REL(ear_dominant_hz(out, RATE, 2, 0, RATE), 200.0 * (1.0 + 200.0 / 2200.0), 0.001);
    free(out);
    ear_rng rng;
    ear_rng_seed(&rng, 8);
    double worst = 0;
    for (int frame = 0; frame < 180; frame++) {
        ear_stage_set_param(s, v, "rpm", ear_rng_range(&rng, 800, 8000));
        out = render(s, 800);
        double dd = ear_max_delta(out, 800, 2, 0);
        if (dd > worst) worst = dd;
        free(out);
    }
    /* At most the two layers' clean steps at their highest pitches (the low layer up to
     * 400 Hz), added. */
    double bound = 2 * 0.5 * sin(PI_D * 400.0 / RATE) + 2 * 0.5 * sin(PI_D * 400.0 / RATE);
    ASSERT_DBL_LE(worst, bound);
    ear_stage_destroy(s);
    ear_clip_release(low);
    ear_clip_release(high);
}

TEST(blend_definitions_are_checked) {
    ear_clip *low = sine_clip(200.0, 1.0, RATE, 0.5f);
    ear_stage *s = new_stage();
    ear_blend_def d = engine_def(EAR_CURVE_LINEAR, low, low);
    snprintf(d.layers[0].gain[0].param, EAR_NAME_MAX, "speed");
    ASSERT_EQ(ear_stage_register_blend(s, &d), EAR_E_INVALID_ARG);
    d = engine_def(EAR_CURVE_LINEAR, low, low);
    d.layers[1].gain[0].x[1] = 500; /* not increasing */
    ASSERT_EQ(ear_stage_register_blend(s, &d), EAR_E_INVALID_ARG);
    d = engine_def(EAR_CURVE_LINEAR, low, NULL);
    ASSERT_EQ(ear_stage_register_blend(s, &d), EAR_E_INVALID_ARG);
    ASSERT_EQ(ear_stage_play_blend(s, "engine", NULL, NULL), EAR_E_NOT_FOUND);
    ear_stage_destroy(s);
    ear_clip_release(low);
}

/* Issue 24: redefining one name 64 times filled the table of 64 blends (E_STATE on the
 * 65th) and every superseded entry kept its clips. A superseded entry goes once no voice
 * plays it: the playing one stays (and sounds) until its voice ends; the newest plays. */
TEST(redefined_blends_free_the_old_ones) {
    ear_clip *low = sine_clip(200.0, 1.0, RATE, 0.5f),
             *high = sine_clip(400.0, 1.0, RATE, 0.5f);
    ear_stage *s = new_stage();
    ear_blend_def d = engine_def(EAR_CURVE_LINEAR, low, low);
    ASSERT_OK(ear_stage_register_blend(s, &d));
    ear_voice_id v;
    ASSERT_OK(ear_stage_play_blend(s, "engine", NULL, &v));
    free(render(s, 4800));
    for (int i = 0; i < 200; i++) {
        d = engine_def(EAR_CURVE_LINEAR, high, high);
        ASSERT_OK(ear_stage_register_blend(s, &d));
    }
    /* low: the test's own, and the entry the voice still plays (two layers). */
    ASSERT_EQ(ear_clip_refcount(low), 3u);
    /* high: the test's and the newest entry's two layers. */
    ASSERT_EQ(ear_clip_refcount(high), 3u);
    ear_voice_id w;
    ASSERT_OK(ear_stage_play_blend(s, "engine", NULL, &w));
    ear_stage_set_param(s, w, "rpm", 3000);
    float *out = render(s, 24000);
    ASSERT_DBL_GT(ear_tone_amplitude(out, 24000, 2, 0, RATE, 400.0), 0.01);
    free(out);
    ASSERT_OK(ear_stage_stop(s, v, 0));
    free(render(s, 4800));
    ear_stage_update(s);
    d = engine_def(EAR_CURVE_LINEAR, high, high);
    ASSERT_OK(ear_stage_register_blend(s, &d));
    ASSERT_EQ(ear_clip_refcount(low), 1u); /* the old entry went with its voice */
    ear_stage_destroy(s);
    ASSERT_EQ(ear_clip_refcount(high), 1u);
    ear_clip_release(low);
    ear_clip_release(high);
}

/* A pool of three tones (300, 500, 700 Hz) so each pick can be heard. */
static void make_pool(ear_stage *s, ear_clip **clips, bool no_repeat, uint32_t max_instances) {
    ear_pool_def p;
    memset(&p, 0, sizeof p);
    snprintf(p.name, sizeof p.name, "hits");
    p.clip_count = 3;
    for (int i = 0; i < 3; i++) p.clips[i] = clips[i];
    p.volume_min = 0.5f;
    p.volume_max = 0.8f;
    p.pitch_semitones_min = -2.0f;
    p.pitch_semitones_max = 2.0f;
    p.no_repeat = no_repeat;
    p.max_instances = max_instances;
    ear_stage_register_pool(s, &p);
}

TEST(pool_never_repeats_and_keeps_its_ranges) {
    ear_clip *clips[3] = {sine_clip(300, 0.1, RATE, 0.5f), sine_clip(500, 0.1, RATE, 0.5f),
                          sine_clip(700, 0.1, RATE, 0.5f)};
    ear_stage *s = new_stage();
    make_pool(s, clips, true, 0);
    int last = -1, counts[3] = {0};
    double lo_ratio = pow(2.0, -2.0 / 12.0), hi_ratio = pow(2.0, 2.0 / 12.0);
    for (int i = 0; i < 1000; i++) {
        ear_voice_id v;
        ASSERT_OK(ear_stage_play_pool(s, "hits", NULL, &v));
        float *out = render(s, 1920);
        double hz = ear_dominant_hz(out, 1920, 2, 0, RATE);
        int pick = -1;
        for (int k = 0; k < 3; k++) {
            double base = 300.0 + 200.0 * k;
            if (hz >= base * lo_ratio * 0.99 && hz <= base * hi_ratio * 1.01) pick = k;
        }
        ASSERT_NE(pick, -1);   /* a pitch inside the range of one clip */
        ASSERT_NE(pick, last); /* never the one just played */
        counts[pick]++;
        last = pick;
        if (i % 50 == 0) { /* volume in range: a flat voice's peak is its volume x 0.5 */
            double peak = ear_peak(out, 1920, 2, 0);
            ASSERT_DBL_GE(peak, 0.5 * 0.5 * 0.98);
            ASSERT_DBL_LE(peak, 0.8 * 0.5 * 1.01);
        }
        free(out);
        ear_stage_stop(s, v, 0.005f);
        free(render(s, 480));
    }
    for (int k = 0; k < 3; k++) ASSERT_GT(counts[k], 250);
    ASSERT_EQ(ear_stage_play_pool(s, "nope", NULL, NULL), EAR_E_NOT_FOUND);
    ear_stage_destroy(s);
    for (int k = 0; k < 3; k++) ear_clip_release(clips[k]);
}

static uint64_t pool_run(uint64_t seed, ear_clip **clips) {
    ear_stage_config c = ear_stage_config_default();
    c.kernel = test_kernel();
    c.seed = seed;
    ear_stage *s = NULL;
    ear_stage_create(&c, &s);
    make_pool(s, clips, true, 0);
    float *out = malloc(20 * 2400 * 2 * sizeof *out);
    for (int i = 0; i < 20; i++) {
        ear_stage_play_pool(s, "hits", NULL, NULL);
        ear_stage_render(s, out + 2 * 2400 * i, 2400);
    }
    uint64_t h = ear_hash_samples(out, 20 * 2400 * 2);
    free(out);
    ear_stage_destroy(s);
    return h;
}

TEST(pool_repeats_exactly_under_one_seed) {
    ear_clip *clips[3] = {sine_clip(300, 0.1, RATE, 0.5f), sine_clip(500, 0.1, RATE, 0.5f),
                          sine_clip(700, 0.1, RATE, 0.5f)};
    ASSERT_U64_EQ(pool_run(5, clips), pool_run(5, clips));
    ASSERT_NE(pool_run(5, clips), pool_run(6, clips));
    for (int k = 0; k < 3; k++) ear_clip_release(clips[k]);
}

TEST(pool_fades_the_oldest_beyond_max_instances) {
    ear_clip *clips[3] = {sine_clip(300, 1.0, RATE, 0.5f), sine_clip(500, 1.0, RATE, 0.5f),
                          sine_clip(700, 1.0, RATE, 0.5f)};
    ear_stage *s = new_stage();
    make_pool(s, clips, false, 2);
    ear_voice_id a, b, c;
    ear_stage_play_pool(s, "hits", NULL, &a);
    free(render(s, 480));
    ear_stage_play_pool(s, "hits", NULL, &b);
    free(render(s, 480));
    ear_stage_play_pool(s, "hits", NULL, &c);
    ASSERT_FALSE(ear_stage_is_playing(s, a)); /* finished to the game, */
    ASSERT_EQ(ear_stage_voice_count(s), 3);   /* but fading, not cut */
    float *out = render(s, 4800);             /* 100 ms: the 50 ms fade is over */
    ear_stage_update(s);
    ASSERT_EQ(ear_stage_voice_count(s), 2);
    ASSERT_TRUE(ear_stage_is_playing(s, b) && ear_stage_is_playing(s, c));
    free(out);
    ear_stage_destroy(s);
    for (int k = 0; k < 3; k++) ear_clip_release(clips[k]);
}

TEST_MAIN(TEST_ENTRY(equal_power_layers_keep_power), TEST_ENTRY(linear_layers_keep_amplitude),
          TEST_ENTRY(pitch_curves_and_no_click_when_driven_every_frame),
          TEST_ENTRY(blend_definitions_are_checked),
          TEST_ENTRY(redefined_blends_free_the_old_ones),
          TEST_ENTRY(pool_never_repeats_and_keeps_its_ranges),
          TEST_ENTRY(pool_repeats_exactly_under_one_seed),
          TEST_ENTRY(pool_fades_the_oldest_beyond_max_instances))
