/* SPDX-License-Identifier: Zlib */
/*
 * Buses, ducking and music, measured: RMS and tone levels per window against the
 * ramps, fades, duck phases and constant-power crossfades they should follow.
 */
#include "earshot/mixer.h"
#include "stage_util.h"
#include "test.h"

/* Tone amplitude at hz on the left channel in consecutive windows of `w` frames. */
static void tone_windows(const float *buf, uint32_t frames, double hz, uint32_t w, double *out,
                         size_t cap, size_t *count) {
    ear_tone_envelope(buf, frames, 2, 0, RATE, hz, w, out, cap, count);
}

TEST(bus_volume_is_ramped_over_one_block) {
    ear_stage *s = new_stage();
    ear_clip *c = sine_clip(1000.0, 1.0, RATE, 0.5f);
    ear_stage_play(s, c, &(ear_play){.looping = true}, NULL); /* on sfx */
    free(render(s, 480));
    ASSERT_OK(ear_stage_set_bus_volume(s, EAR_BUS_SFX, 0.5f));
    float *out = render(s, 4800);
    /* Within the first block the gain moves; from the second on it is 0.5. */
    ASSERT_REL(ear_tone_amplitude(out + 2 * 480, 4320, 2, 0, RATE, 1000.0), 0.25, 0.005);
    ASSERT_DBL_LE(ear_max_delta(out, 4800, 2, 0), 2 * 0.5 * sin(PI_D * 1000.0 / RATE));
    ASSERT_REL(ear_stage_get_bus(s, EAR_BUS_SFX).volume, 0.5, 0);
    /* The master bus scales every bus. */
    ear_stage_set_bus_volume(s, EAR_BUS_MASTER, 0.5f);
    free(out);
    out = render(s, 4800);
    ASSERT_REL(ear_tone_amplitude(out + 2 * 480, 4320, 2, 0, RATE, 1000.0), 0.125, 0.005);
    free(out);
    ear_stage_destroy(s);
    ear_clip_release(c);
}

TEST(bus_fade_is_linear_and_mute_is_silence) {
    ear_stage *s = new_stage();
    ear_clip *c = sine_clip(500.0, 1.0, RATE, 0.5f);
    ear_stage_play(s, c, &(ear_play){.looping = true, .bus = EAR_BUS_MUSIC}, NULL);
    free(render(s, 480));
    ASSERT_OK(ear_stage_fade_bus(s, EAR_BUS_MUSIC, 0.0f, 1.0f));
    float *out = render(s, RATE);
    double env[50];
    size_t n = 0;
    tone_windows(out, RATE, 500.0, 960, env, 50, &n);
    ASSERT_EQ(n, 50);
    for (size_t w = 0; w < n; w++) {
        double t = (double)(w * 960 + 480) / (double)RATE; /* the window middle */
        ASSERT_NEAR(env[w], 0.5 * (1.0 - t), 0.5 * 0.01);
    }
    free(out);
    /* Mute: silence from the second block on; unmute: back, without a click. */
    ear_stage_fade_bus(s, EAR_BUS_MUSIC, 1.0f, 0.0f);
    free(render(s, 960));
    ear_stage_set_bus_muted(s, EAR_BUS_MUSIC, true);
    ASSERT_TRUE(ear_stage_get_bus(s, EAR_BUS_MUSIC).muted);
    out = render(s, 960);
    ASSERT_DBL_LE(ear_peak(out + 2 * 160, 800, 2, EAR_ALL_CHANNELS), 0.0);
    ASSERT_DBL_LE(ear_max_delta(out, 960, 2, 0), 2 * 0.5 * sin(PI_D * 500.0 / RATE));
    free(out);
    ear_stage_set_bus_muted(s, EAR_BUS_MUSIC, false);
    out = render(s, 960);
    ASSERT_REL(ear_tone_amplitude(out + 2 * 160, 800, 2, 0, RATE, 500.0), 0.5, 0.01);
    free(out);
    ASSERT_EQ(ear_stage_set_bus_volume(s, EAR_BUS_COUNT, 1.0f), EAR_E_INVALID_ARG);
    ear_stage_destroy(s);
    ear_clip_release(c);
}

TEST(bus_names) {
    ear_bus b;
    ASSERT_OK(ear_bus_from_name("ambience", &b));
    ASSERT_EQ(b, EAR_BUS_AMBIENCE);
    ASSERT_STR_EQ(ear_bus_name(EAR_BUS_UI), "ui");
    ASSERT_EQ(ear_bus_from_name("voice", &b), EAR_E_NOT_FOUND);
}

/* The duck's phases on a 300 Hz music tone while a 1 kHz announcer speaks on ui from
 * 0.5 s to 1.0 s: attack 0.1 s, hold 0.2 s, release 0.3 s, -12 dB. */
TEST(duck_attack_hold_release) {
    ear_stage *s = new_stage();
    ear_clip *music = sine_clip(300.0, 1.0, RATE, 0.5f);
    ear_clip *voice = sine_clip(1000.0, 0.5, RATE, 0.5f);
    ear_duck_rule rule = {.name = "music_under_announcer",
                          .trigger = EAR_BUS_UI,
                          .target = EAR_BUS_MUSIC,
                          .gain_db = -12.0f,
                          .attack_s = 0.1f,
                          .hold_s = 0.2f,
                          .release_s = 0.3f};
    ASSERT_OK(ear_stage_set_duck(s, &rule));
    ear_stage_play(s, music, &(ear_play){.looping = true, .bus = EAR_BUS_MUSIC}, NULL);
    float *out = malloc(2 * 2 * RATE * sizeof *out);
    ear_stage_render(s, out, RATE / 2);
    ear_stage_play(s, voice, &(ear_play){.bus = EAR_BUS_UI}, NULL);
    ear_stage_render(s, out + RATE, 3 * RATE / 2);
    double env[100];
    size_t n = 0;
    tone_windows(out, 2 * RATE, 300.0, 960, env, 100, &n);
    double floor_gain = pow(10.0, -12.0 / 20.0);
    for (size_t w = 0; w < n; w++) {
        double t0 = (double)w * 0.02, t1 = t0 + 0.02, mid = t0 + 0.01;
        double want;
        if (t1 <= 0.5)
            want = 1.0;
        else if (t0 >= 0.5 && t1 <= 0.6)
            want = 1.0 - (1.0 - floor_gain) * (mid - 0.5) / 0.1;
        else if (t0 >= 0.6 && t1 <= 1.2)
            want = floor_gain;
        else if (t0 >= 1.2 && t1 <= 1.5)
            want = floor_gain + (1.0 - floor_gain) * (mid - 1.2) / 0.3;
        else if (t0 >= 1.5)
            want = 1.0;
        else
            continue;           /* a window across a phase boundary */
        if (want == floor_gain) /* holds at gain_db within 0.5 dB */
            ASSERT_NEAR(20.0 * log10(env[w] / 0.5), -12.0, 0.5);
        else
            ASSERT_NEAR(env[w], 0.5 * want, 0.5 * 0.02);
    }
    ear_duck_rule got;
    ASSERT_OK(ear_stage_get_duck(s, "music_under_announcer", &got));
    ASSERT_NEAR(got.release_s, 0.3, 1e-6);
    free(out);
    ear_stage_destroy(s);
    ear_clip_release(music);
    ear_clip_release(voice);
}

TEST(duck_triggered_by_hand_and_rules_multiply) {
    ear_stage *s = new_stage();
    ear_clip *music = sine_clip(300.0, 1.0, RATE, 0.5f);
    ear_stage_set_duck(s, &(ear_duck_rule){.name = "crash",
                                           .trigger = EAR_BUS_SFX,
                                           .target = EAR_BUS_MUSIC,
                                           .gain_db = -6.0f,
                                           .attack_s = 0.01f,
                                           .hold_s = 0.01f,
                                           .release_s = 0.01f});
    ear_stage_set_duck(s, &(ear_duck_rule){.name = "speech",
                                           .trigger = EAR_BUS_UI,
                                           .target = EAR_BUS_MUSIC,
                                           .gain_db = -6.0f,
                                           .attack_s = 0.01f,
                                           .hold_s = 0.01f,
                                           .release_s = 0.01f});
    ear_stage_play(s, music, &(ear_play){.looping = true, .bus = EAR_BUS_MUSIC}, NULL);
    free(render(s, 960));
    ASSERT_OK(ear_stage_trigger_duck(s, "crash", 0.5f));
    ASSERT_OK(ear_stage_trigger_duck(s, "speech", 0.5f));
    float *out = render(s, RATE / 2);
    double a = ear_tone_amplitude(out + 2 * 4800, 9600, 2, 0, RATE, 300.0);
    ASSERT_NEAR(20.0 * log10(a / 0.5), -12.0, 0.1); /* -6 dB twice */
    free(out);
    out = render(s, RATE / 2); /* held 0.5 s, then 10 ms hold and 10 ms release */
    ASSERT_REL(ear_tone_amplitude(out + 2 * 4800, 9600, 2, 0, RATE, 300.0), 0.5, 0.005);
    free(out);
    ASSERT_EQ(ear_stage_trigger_duck(s, "nope", 1.0f), EAR_E_NOT_FOUND);
    ASSERT_OK(ear_stage_remove_duck(s, "crash"));
    ASSERT_EQ(ear_stage_remove_duck(s, "crash"), EAR_E_NOT_FOUND);
    ear_duck_rule bad = {.name = "x", .trigger = EAR_BUS_UI, .target = EAR_BUS_UI};
    ASSERT_EQ(ear_stage_set_duck(s, &bad), EAR_E_INVALID_ARG);
    ear_stage_destroy(s);
    ear_clip_release(music);
}

TEST(music_crossfade_is_constant_power) {
    ear_stage *s = new_stage();
    ear_clip *a = sine_clip(440.0, 1.0, RATE, 0.5f);
    ear_clip *b = sine_clip(660.0, 1.0, RATE, 0.5f);
    ASSERT_OK(ear_stage_music_play(
        s, &(ear_music_params){.name = "menu", .source = {.clip = a}, .loop = true}));
    free(render(s, RATE / 2));
    ASSERT_OK(ear_stage_music_play(
        s, &(ear_music_params){
               .name = "race", .source = {.clip = b}, .loop = true, .crossfade_s = 1.0f}));
    ASSERT_STR_EQ(ear_stage_music_name(s), "race");
    float *out = render(s, 3 * RATE / 2);
    double ea[75], eb[75];
    size_t n = 0;
    tone_windows(out, 3 * RATE / 2, 440.0, 960, ea, 75, &n);
    tone_windows(out, 3 * RATE / 2, 660.0, 960, eb, 75, &n);
    for (size_t w = 0; w < n; w++) {
        double power = ea[w] * ea[w] + eb[w] * eb[w];
        ASSERT_NEAR(10.0 * log10(power / 0.25), 0.0, 0.5);
    }
    /* Halfway, each is at 0.707; after the fade only the new track is left. */
    ASSERT_NEAR(ea[24] / 0.5, sqrt(0.5), 0.05);
    ASSERT_DBL_LT(ea[60], 0.005); /* -40 dB: what is left is the 660 Hz window leakage */
    ASSERT_REL(eb[60], 0.5, 0.005);
    free(out);
    ear_stage_update(s);
    ASSERT_EQ(ear_stage_voice_count(s), 1);
    ASSERT_OK(ear_stage_music_stop(s, 0.1f));
    free(render(s, RATE / 4));
    ear_stage_update(s);
    ASSERT_EQ(ear_stage_voice_count(s), 0);
    ASSERT_STR_EQ(ear_stage_music_name(s), "");
    ear_stage_destroy(s);
    ear_clip_release(a);
    ear_clip_release(b);
}

/* A streamed source: a 44.1 kHz sine generated on demand, with an end. */
typedef struct sine_stream {
    uint64_t produced, length;
    int released;
} sine_stream;

static uint32_t sine_read(void *user, float *out, uint32_t frames) {
    sine_stream *st = user;
    uint32_t n = 0;
    while (n < frames && st->produced < st->length) {
        float v = 0.4f * (float)sin(2.0 * PI_D * 500.0 * (double)st->produced / 44100.0);
        out[2 * n] = v;
        out[2 * n + 1] = v;
        st->produced++;
        n++;
    }
    return n;
}
static bool sine_ended(void *user) {
    sine_stream *st = user;
    return st->produced >= st->length;
}
static void sine_release(void *user) {
    ((sine_stream *)user)->released++;
}

TEST(music_streams_are_resampled_and_released) {
    ear_stage *s = new_stage();
    sine_stream st = {0, 44100, 0};
    ear_stream stream = {2, 44100, sine_read, sine_ended, sine_release, &st};
    ASSERT_OK(ear_stage_music_play(
        s, &(ear_music_params){.name = "stream", .source = {.stream = &stream}}));
    float *out = render(s, RATE);
    ASSERT_REL(ear_dominant_hz(out, 40000, 2, 0, RATE), 500.0, 0.001);
    ASSERT_REL(ear_tone_amplitude(out + 2 * 1000, 40000, 2, 0, RATE, 500.0), 0.4, 0.01);
    free(out);
    out = render(s, RATE / 10); /* 1 s of stream ran out at 48000 frames */
    ear_stage_update(s);
    ASSERT_EQ(ear_stage_voice_count(s), 0);
    ASSERT_EQ(st.released, 1);
    free(out);
    ear_stage_destroy(s);
}

TEST_MAIN(TEST_ENTRY(bus_volume_is_ramped_over_one_block),
          TEST_ENTRY(bus_fade_is_linear_and_mute_is_silence), TEST_ENTRY(bus_names),
          TEST_ENTRY(duck_attack_hold_release),
          TEST_ENTRY(duck_triggered_by_hand_and_rules_multiply),
          TEST_ENTRY(music_crossfade_is_constant_power),
          TEST_ENTRY(music_streams_are_resampled_and_released))
