/* SPDX-License-Identifier: Zlib */
/*
 * Things that move in time: volume and pitch smoothing, the stop fade, loops and the
 * loop crossfade, and a ten-minute clip's cursor. The click detector is the largest
 * step between neighbouring samples (ear_max_delta), compared with that of a clean
 * sine, 2 A sin(pi f / fs).
 */
#include "stage_util.h"
#include "test.h"

static double clean_step(double amp, double hz) {
    return 2.0 * amp * sin(PI_D * hz / RATE);
}

TEST(volume_set_every_frame_does_not_click) {
    ear_stage *s = new_stage();
    ear_clip *c = sine_clip(440.0, 1.0, RATE, 0.5f);
    ear_voice_id v;
    ear_stage_play(s, c, &(ear_play){.looping = true}, &v);
    ear_rng rng;
    ear_rng_seed(&rng, 11);
    double worst = 0;
    for (int frame = 0; frame < 240; frame++) { /* 4 s of 60 Hz game frames */
        ear_stage_set_volume(s, v, ear_rng_range(&rng, 0.0f, 1.0f));
        float *out = render(s, 800);
        double d = ear_max_delta(out, 800, 2, 0);
        if (d > worst) worst = d;
        free(out);
    }
    ASSERT_DBL_LE(worst, clean_step(0.5, 440.0));
    ear_clip_release(c);
    ear_stage_destroy(s);
}

TEST(volume_follows_a_20_ms_time_constant) {
    ear_stage *s = new_stage();
    ear_clip *c = sine_clip(1000.0, 1.0, RATE, 0.5f);
    ear_voice_id v;
    ear_stage_play(s, c, &(ear_play){.looping = true}, &v);
    free(render(s, 1600));
    ear_stage_set_volume(s, v, 0.0f);
    float *out = render(s, 9600);
    /* After 20 ms (6 blocks of 160) the level is e^-1 of the start, within a block. */
    double a0 = 0.5;
    double a20 = ear_tone_amplitude(out + 2 * 880, 160, 2, 0, RATE, 1000.0);
    ASSERT_REL(a20 / a0, exp(-1.0), 0.08);
    ASSERT_DBL_LT(ear_peak(out + 2 * 8000, 1600, 2, 0), 0.5 * exp(-6.0));
    free(out);
    ear_clip_release(c);
    ear_stage_destroy(s);
}

TEST(pitch_set_every_frame_does_not_click) {
    ear_stage *s = new_stage();
    ear_clip *c = sine_clip(440.0, 1.0, RATE, 0.5f);
    ear_voice_id v;
    ear_stage_play(s, c, &(ear_play){.looping = true}, &v);
    ear_rng rng;
    ear_rng_seed(&rng, 12);
    double worst = 0;
    for (int frame = 0; frame < 240; frame++) {
        ear_stage_set_pitch(s, v, ear_rng_range(&rng, 0.5f, 2.0f));
        float *out = render(s, 800);
        double d = ear_max_delta(out, 800, 2, 0);
        if (d > worst) worst = d;
        free(out);
    }
    /* Never steeper than the clean sine at the highest pitch asked for. */
    ASSERT_DBL_LE(worst, clean_step(0.5, 880.0));
    ear_clip_release(c);
    ear_stage_destroy(s);
}

TEST(pitch_changes_frequency) {
    ear_stage *s = new_stage();
    ear_clip *c = sine_clip(500.0, 1.0, RATE, 0.5f);
    ear_stage_play(s, c, &(ear_play){.looping = true, .pitch = 1.5f}, NULL);
    float *out = render(s, RATE);
    ASSERT_REL(ear_dominant_hz(out, RATE, 2, 0, RATE), 750.0, 0.001);
    free(out);
    ear_stage_destroy(s);
    /* A 44.1 kHz clip is resampled to the stage's rate: the same tone. */
    ear_clip *c44 = sine_clip(500.0, 1.0, 44100, 0.5f);
    s = new_stage();
    ear_stage_play(s, c44, &(ear_play){.looping = true}, NULL);
    out = render(s, RATE);
    ASSERT_REL(ear_dominant_hz(out, RATE, 2, 0, RATE), 500.0, 0.001);
    free(out);
    ear_stage_destroy(s);
    ear_clip_release(c);
    ear_clip_release(c44);
}

TEST(stop_fades_without_a_click_and_ends_within_50_ms) {
    const float fades[] = {0.0f, 0.005f, 0.03f};
    for (int k = 0; k < 3; k++) {
        ear_stage *s = new_stage();
        ear_clip *c = sine_clip(440.0, 1.0, RATE, 0.9f);
        ear_voice_id v;
        ear_stage_play(s, c, &(ear_play){.looping = true}, &v);
        free(render(s, 1000));
        ASSERT_OK(ear_stage_stop(s, v, fades[k])); /* 0 asks for the shortest: 5 ms */
        ASSERT_FALSE(ear_stage_is_playing(s, v));  /* finished to the game, */
        ASSERT_EQ(ear_stage_voice_count(s), 1);    /* still fading */
        float *out = render(s, 4800);              /* 100 ms */
        ASSERT_DBL_LE(ear_max_delta(out, 4800, 2, 0), clean_step(0.9, 440.0));
        /* Fading over at least 5 ms: the first 4 ms are not yet silent. */
        ASSERT_DBL_GT(ear_rms(out + 2 * 160, 32, 2, 0), 0.01);
        /* Silent within 50 ms (2400 frames), exactly. */
        ASSERT_DBL_LE(ear_peak(out + 2 * 2400, 2400, 2, EAR_ALL_CHANNELS), 0.0);
        ASSERT_FALSE(ear_stage_is_playing(s, v));
        free(out);
        ear_clip_release(c);
        ear_stage_destroy(s);
    }
}

TEST(stop_fade_is_linear) {
    ear_stage *s = new_stage();
    ear_clip *c = sine_clip(1000.0, 1.0, RATE, 0.5f);
    ear_voice_id v;
    ear_stage_play(s, c, &(ear_play){.looping = true}, &v);
    free(render(s, 160));
    ear_stage_stop(s, v, 0.1f); /* 100 ms = 30 blocks */
    float *out = render(s, 4800);
    /* Amplitude over 48-frame windows (one 1 kHz cycle = 48 frames) falls linearly. */
    for (int w = 0; w < 90; w++) {
        double t = (w * 48 + 24) / (double)RATE;
        double a = ear_tone_amplitude(out + 2 * w * 48, 48, 2, 0, RATE, 1000.0);
        ASSERT_NEAR(a, 0.5 * (1.0 - t / 0.1), 0.5 * 0.02);
    }
    free(out);
    ear_clip_release(c);
    ear_stage_destroy(s);
}

TEST(clean_loop_has_no_click_over_100_passes) {
    ear_stage *s = new_stage();
    ear_clip *c = sine_clip(440.0, 0.1, RATE, 0.5f); /* 44 whole cycles */
    ear_stage_play(s, c, &(ear_play){.looping = true}, NULL);
    float *out = render(s, 100 * 4800 + 10);
    ASSERT_DBL_LE(ear_max_delta(out, 100 * 4800 + 10, 2, 0), clean_step(0.5, 440.0) * 1.0001);
    free(out);
    ear_clip_release(c);
    ear_stage_destroy(s);
}

TEST(loop_crossfade_removes_the_seam) {
    /* 437 Hz over 0.1 s is 43.7 cycles: a plain loop jumps at the seam. */
    ear_clip *c = sine_clip(437.0, 0.1, RATE, 0.5f);
    double plain = 0, faded = 0;
    for (int k = 0; k < 2; k++) {
        ear_stage *s = new_stage();
        ear_stage_play(s, c, &(ear_play){.looping = true, .loop_crossfade_s = k ? 0.01f : 0.0f},
                       NULL);
        float *out = render(s, 20 * 4800);
        double d = ear_max_delta(out, 20 * 4800, 2, 0);
        if (k)
            faded = d;
        else
            plain = d;
        free(out);
        ear_stage_destroy(s);
    }
    double clean = clean_step(0.5, 437.0);
    ASSERT_DBL_GT(plain, 3.0 * clean); /* the detector sees the seam */
    /* Crossfading two sines of one frequency adds at most 2 A / X per sample. */
    ASSERT_DBL_LE(faded, clean + 2.0 * 0.5 / 480.0);
    ear_clip_release(c);
}

TEST(ten_minute_clip_keeps_pitch_and_position) {
    const double seconds = 600.0;
    ear_clip *c = sine_clip(1000.0, seconds, RATE, 0.5f);
    ASSERT_NOT_NULL(c);
    ear_stage *s = new_stage();
    ear_voice_id v;
    ear_stage_play(s, c, &(ear_play){0}, &v);
    float *buf = malloc(RATE * 2 * sizeof *buf);
    for (int i = 0; i < 599; i++) ear_stage_render(s, buf, RATE);
    uint64_t cursor = 0;
    ASSERT_OK(ear_stage_get_cursor(s, v, &cursor));
    ASSERT_U64_EQ(cursor, 599ull * RATE); /* exact: the cursor is integer */
    ear_stage_render(s, buf, RATE - 800);
    ASSERT_REL(ear_dominant_hz(buf, RATE - 800, 2, 0, RATE), 1000.0, 0.0005);
    /* The clip's own last samples arrive at the right time: compare with the clip. */
    const float *d = ear_clip_data(c);
    uint64_t start = 599ull * RATE;
    for (uint32_t j = 0; j < RATE - 800; j += 997)
        ASSERT_NEAR(buf[2 * j], d[start + j] * (float)sqrt(1.0) /* flat centre: unity */, 1e-6);
    ear_stage_render(s, buf, 800 + 160);
    ear_stage_update(s);
    ASSERT_FALSE(ear_stage_is_playing(s, v));
    free(buf);
    ear_stage_destroy(s);
    ear_clip_release(c);
}

TEST(resampled_long_clip_does_not_drift) {
    /* 44.1 kHz into 48 kHz: the step is not a whole number of 2^-32 units. */
    ear_clip *c = sine_clip(1000.0, 120.0, 44100, 0.5f);
    ear_stage *s = new_stage();
    ear_voice_id v;
    ear_stage_play(s, c, &(ear_play){0}, &v);
    float *buf = malloc(RATE * 2 * sizeof *buf);
    for (int i = 0; i < 100; i++) ear_stage_render(s, buf, RATE);
    uint64_t cursor = 0;
    ASSERT_OK(ear_stage_get_cursor(s, v, &cursor));
    ASSERT_NEAR((double)cursor, 100.0 * 44100.0, 1.0);
    ASSERT_REL(ear_dominant_hz(buf, RATE, 2, 0, RATE), 1000.0, 0.0005);
    free(buf);
    ear_stage_destroy(s);
    ear_clip_release(c);
}

TEST_MAIN(TEST_ENTRY(volume_set_every_frame_does_not_click),
          TEST_ENTRY(volume_follows_a_20_ms_time_constant),
          TEST_ENTRY(pitch_set_every_frame_does_not_click), TEST_ENTRY(pitch_changes_frequency),
          TEST_ENTRY(stop_fades_without_a_click_and_ends_within_50_ms),
          TEST_ENTRY(stop_fade_is_linear), TEST_ENTRY(clean_loop_has_no_click_over_100_passes),
          TEST_ENTRY(loop_crossfade_removes_the_seam),
          TEST_ENTRY(ten_minute_clip_keeps_pitch_and_position),
          TEST_ENTRY(resampled_long_clip_does_not_drift))
