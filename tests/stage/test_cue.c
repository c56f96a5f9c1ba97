/* SPDX-License-Identifier: Zlib */
/*
 * The behind/below cue and occlusion, measured: tone levels against the gain and
 * the TPT one-pole's magnitude response, |H(f)| = 1 / sqrt(1 + (tan(pi f / fs) /
 * tan(pi fc / fs))^2), and the spectral centroid of noise.
 */
#include "stage_util.h"
#include "test.h"

static double one_pole_mag(double f, double fc) {
    double r = tan(PI_D * f / RATE) / tan(PI_D * fc / RATE);
    return 1.0 / sqrt(1.0 + r * r);
}

/* Tone amplitude at hz on the left channel, from 0.5 s after the first 1000 frames. */
static double tone_level(ear_clip *c, ear_play p, double hz) {
    ear_stage *s = new_stage();
    ear_stage_play(s, c, &p, NULL);
    float *out = render(s, 25000);
    double a = ear_tone_amplitude(out + 2000, 24000, 2, 0, RATE, hz);
    free(out);
    ear_stage_destroy(s);
    return a;
}

static ear_play at(float x, float y, float z) {
    ear_play p = placed_at(x, y, z);
    p.attenuation.model = EAR_MODEL_NONE;
    return p;
}

TEST(behind_is_30_percent_quieter_and_low_passed_at_2500_hz) {
    ear_clip *low = sine_clip(200.0, 1.0, RATE, 0.5f);
    ear_clip *high = sine_clip(8000.0, 1.0, RATE, 0.5f);
    double front_low = tone_level(low, at(0, 0, -5), 200.0);
    double back_low = tone_level(low, at(0, 0, 5), 200.0);
    ASSERT_REL(back_low / front_low, 0.7 * one_pole_mag(200.0, 2500.0), 0.005);
    double front_high = tone_level(high, at(0, 0, -5), 8000.0);
    double back_high = tone_level(high, at(0, 0, 5), 8000.0);
    ASSERT_REL(back_high / front_high, 0.7 * one_pole_mag(8000.0, 2500.0), 0.02);
    /* Switched off per voice: the same level front and back. */
    ear_play off = at(0, 0, 5);
    off.no_behind_cue = true;
    ASSERT_REL(tone_level(high, off, 8000.0) / front_high, 1.0, 0.005);
    ear_clip_release(low);
    ear_clip_release(high);
}

TEST(below_is_15_percent_quieter_and_less_dull_than_behind) {
    ear_clip *low = sine_clip(200.0, 1.0, RATE, 0.5f);
    ear_clip *high = sine_clip(8000.0, 1.0, RATE, 0.5f);
    double front = tone_level(low, at(0, 0, -5), 200.0);
    double below = tone_level(low, at(0, -5, 0), 200.0);
    double fc_below = 20000.0 * pow(2500.0 / 20000.0, 0.6);
    ASSERT_REL(below / front, 0.85 * one_pole_mag(200.0, fc_below), 0.005);
    double front_h = tone_level(high, at(0, 0, -5), 8000.0);
    double below_h = tone_level(high, at(0, -5, 0), 8000.0);
    double back_h = tone_level(high, at(0, 0, 5), 8000.0);
    ASSERT_REL(below_h / front_h, 0.85 * one_pole_mag(8000.0, fc_below), 0.02);
    ASSERT_DBL_GT(below_h, back_h);
    /* Above is untouched. */
    ASSERT_REL(tone_level(high, at(0, 5, 0), 8000.0) / front_h, 1.0, 0.005);
    ear_clip_release(low);
    ear_clip_release(high);
}

TEST(behind_lowers_centroid_and_rms_of_noise) {
    ear_clip *n = noise_clip(1.0, RATE, 0.5f, 3);
    double cf = 0, cb = 0, rf = 0, rb = 0;
    for (int k = 0; k < 2; k++) {
        ear_stage *s = new_stage();
        ear_stage_play(s, n,
                       &(ear_play){.placed = true,
                                   .looping = true,
                                   .position = {0, 0, k ? 5.0f : -5.0f},
                                   .attenuation = {.model = EAR_MODEL_NONE}},
                       NULL);
        float *out = render(s, 24000);
        double c = ear_spectral_centroid(out + 2000, 23000, 2, 0, RATE);
        double r = ear_rms(out + 2000, 23000, 2, 0);
        if (k)
            cb = c, rb = r;
        else
            cf = c, rf = r;
        free(out);
        ear_stage_destroy(s);
    }
    /* White noise's centroid is near fs/4; behind, the 2.5 kHz pole pulls it far down. */
    ASSERT_DBL_GT(cf, 10000.0);
    ASSERT_DBL_LT(cb, 0.5 * cf);
    ASSERT_DBL_LT(rb, 0.5 * rf);
    ear_clip_release(n);
}

TEST(occlusion_is_two_poles_at_400_hz_and_minus_12_db) {
    ear_clip *low = sine_clip(200.0, 1.0, RATE, 0.5f);
    ear_play open = at(0, 0, -5);
    ear_play shut = open;
    shut.occlusion = 1.0f;
    double a0 = tone_level(low, open, 200.0), a1 = tone_level(low, shut, 200.0);
    double h = one_pole_mag(200.0, 400.0);
    ASSERT_REL(a1 / a0, pow(10.0, -12.0 / 20.0) * h * h, 0.01);
    /* Half occluded: cutoff 20000 * (400 / 20000)^0.5, -6 dB. */
    shut.occlusion = 0.5f;
    double fc = 20000.0 * pow(400.0 / 20000.0, 0.5);
    double hh = one_pole_mag(200.0, fc);
    ASSERT_REL(tone_level(low, shut, 200.0) / a0, pow(10.0, -6.0 / 20.0) * hh * hh, 0.01);
    ear_clip_release(low);
}

TEST(occlusion_lowers_centroid_and_changes_smoothly) {
    ear_clip *n = noise_clip(1.0, RATE, 0.5f, 5);
    ear_clip *tone = sine_clip(1000.0, 1.0, RATE, 0.5f);
    ear_stage *s = new_stage();
    ear_voice_id v;
    ear_play p = at(0, 0, -3);
    ear_stage_play(s, n, &p, &v);
    float *a = render(s, 24000);
    ear_stage_set_occlusion(s, v, 1.0f);
    float *b = render(s, 48000);
    double c_open = ear_spectral_centroid(a + 2000, 22000, 2, 0, RATE);
    double c_shut = ear_spectral_centroid(b + 2 * 24000, 24000, 2, 0, RATE);
    ASSERT_DBL_LT(c_shut, 0.2 * c_open);
    free(a);
    free(b);
    ear_stage_destroy(s);
    /* On a tone, the change is smoothed: the largest step stays within 1 % of the clean
     * tone's (a step change would be many times larger). */
    s = new_stage();
    p = at(0, 0, -1);
    ear_stage_play(s, tone, &p, &v);
    float *c = render(s, 4800);
    ear_stage_set_occlusion(s, v, 1.0f);
    float *d = render(s, 9600);
    double clean = ear_max_delta(c + 640, 4000, 2, 0);
    ASSERT_DBL_LE(ear_max_delta(d, 9600, 2, 0), clean * 1.01);
    /* The level falls over the 20 ms time constant, not at once. */
    double first = ear_rms(d, 160, 2, 0), later = ear_rms(d + 2 * 4800, 4800, 2, 0);
    ASSERT_DBL_GT(first, 0.6 * ear_rms(c + 640, 4000, 2, 0));
    ASSERT_DBL_LT(later, 0.3 * ear_rms(c + 640, 4000, 2, 0));
    free(c);
    free(d);
    ear_stage_destroy(s);
    ear_clip_release(n);
    ear_clip_release(tone);
}

TEST_MAIN(TEST_ENTRY(behind_is_30_percent_quieter_and_low_passed_at_2500_hz),
          TEST_ENTRY(below_is_15_percent_quieter_and_less_dull_than_behind),
          TEST_ENTRY(behind_lowers_centroid_and_rms_of_noise),
          TEST_ENTRY(occlusion_is_two_poles_at_400_hz_and_minus_12_db),
          TEST_ENTRY(occlusion_lowers_centroid_and_changes_smoothly))
