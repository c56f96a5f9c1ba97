/* SPDX-License-Identifier: Zlib */
/*
 * Voice management: at most max_voices are rendered, chosen by priority, then
 * audibility with 15 % hysteresis, then age; virtual voices keep time; a full budget
 * steals the quietest voice of equal or lower priority or refuses; fire-and-forget
 * requests out of range are dropped.
 */
#include "earshot/mixer.h"
#include "stage_util.h"
#include "test.h"

static ear_stage *stage_with(uint32_t max_voices, uint32_t max_total) {
    ear_stage_config c = ear_stage_config_default();
    c.kernel = test_kernel();
    c.max_voices = max_voices;
    c.max_total_voices = max_total;
    ear_stage *s = NULL;
    return ear_stage_create(&c, &s) == EAR_OK ? s : NULL;
}

TEST(exactly_max_voices_are_real) {
    ear_stage *s = stage_with(4, 64);
    ear_clip *c = sine_clip(200.0, 1.0, RATE, 0.1f);
    ear_voice_id ids[10];
    for (int i = 0; i < 10; i++)
        ear_stage_play(s, c, &(ear_play){.looping = true, .volume = 0.1f * (float)(i + 1)},
                       &ids[i]);
    free(render(s, 480));
    ear_stage_stats st = ear_stage_get_stats(s);
    ASSERT_EQ(st.voices, 10);
    ASSERT_EQ(st.real_voices, 4);
    ASSERT_EQ(st.virtual_voices, 6);
    /* The four loudest. */
    for (int i = 0; i < 10; i++) ASSERT_EQ(ear_stage_is_real(s, ids[i]), i >= 6);
    /* Their sum is what is heard: 0.1 x (0.7 + 0.8 + 0.9 + 1.0) in phase. */
    float *out = render(s, 4800);
    ASSERT_REL(ear_peak(out, 4800, 2, 0), 0.1 * 3.4, 0.01);
    free(out);
    ear_stage_destroy(s);
    ear_clip_release(c);
}

TEST(priority_beats_audibility) {
    ear_stage *s = stage_with(2, 64);
    ear_clip *c = sine_clip(200.0, 1.0, RATE, 0.1f);
    ear_voice_id loud, quiet_a, quiet_b;
    ear_stage_play(s, c, &(ear_play){.looping = true, .volume = 1.0f}, &loud);
    ear_stage_play(s, c, &(ear_play){.looping = true, .volume = 0.05f, .priority = 9},
                   &quiet_a);
    ear_stage_play(s, c, &(ear_play){.looping = true, .volume = 0.01f, .priority = 9},
                   &quiet_b);
    free(render(s, 480));
    ASSERT_FALSE(ear_stage_is_real(s, loud));
    ASSERT_TRUE(ear_stage_is_real(s, quiet_a));
    ASSERT_TRUE(ear_stage_is_real(s, quiet_b));
    ear_stage_destroy(s);
    ear_clip_release(c);
}

TEST(hysteresis_keeps_near_equal_voices_in_place) {
    ear_stage *s = stage_with(2, 64);
    ear_clip *c = sine_clip(200.0, 1.0, RATE, 0.1f);
    ear_voice_id a, b, rival;
    ear_stage_play(s, c, &(ear_play){.looping = true, .volume = 0.5f}, &a);
    ear_stage_play(s, c, &(ear_play){.looping = true, .volume = 0.5f}, &b);
    free(render(s, 480));
    ear_stage_play(s, c, &(ear_play){.looping = true, .volume = 0.56f}, &rival); /* +12 % */
    ear_rng rng;
    ear_rng_seed(&rng, 3);
    int swaps = 0;
    bool was = false;
    for (int frame = 0; frame < 100; frame++) {
        /* The rival wobbles between +10 % and +14 %: never 15 % louder. */
        ear_stage_set_volume(s, rival, 0.5f * ear_rng_range(&rng, 1.10f, 1.14f));
        free(render(s, 480));
        bool now = ear_stage_is_real(s, rival);
        if (now != was) swaps++;
        was = now;
    }
    ASSERT_EQ(swaps, 0);
    ASSERT_TRUE(ear_stage_is_real(s, a) && ear_stage_is_real(s, b));
    /* 20 % louder wins its place, and keeps it. */
    ear_stage_set_volume(s, rival, 0.6f);
    free(render(s, 4800));
    ASSERT_TRUE(ear_stage_is_real(s, rival));
    ASSERT_EQ(ear_stage_get_stats(s).real_voices, 2);
    ear_stage_destroy(s);
    ear_clip_release(c);
}

TEST(leaving_and_entering_the_real_set_does_not_click) {
    ear_stage *s = stage_with(1, 64);
    ear_clip *c = sine_clip(300.0, 1.0, RATE, 0.5f);
    ear_voice_id a, b;
    ear_stage_play(s, c, &(ear_play){.looping = true, .volume = 0.5f}, &a);
    ear_stage_play(s, c, &(ear_play){.looping = true, .volume = 0.4f, .start_frame = 80}, &b);
    float *out = render(s, 4800);
    double worst = ear_max_delta(out, 4800, 2, 0);
    free(out);
    for (int k = 0; k < 10; k++) { /* swap them back and forth */
        ear_stage_set_volume(s, a, k % 2 ? 0.5f : 0.2f);
        ear_stage_set_volume(s, b, k % 2 ? 0.2f : 0.5f);
        out = render(s, 4800);
        double d = ear_max_delta(out, 4800, 2, 0);
        if (d > worst) worst = d;
        free(out);
    }
    /* Never steeper than one full-volume clean sine (the crossing voices sum to less). */
    ASSERT_DBL_LE(worst, 2 * 0.5 * sin(PI_D * 300.0 / RATE) * 1.01);
    ear_stage_destroy(s);
    ear_clip_release(c);
}

TEST(virtual_loops_come_back_in_phase) {
    ear_stage *s = stage_with(1, 64);
    ear_clip *c = sine_clip(250.0, 0.1, RATE, 0.5f); /* 4800 frames, 25 cycles */
    ear_voice_id loud, v;
    ear_stage_play(s, c, &(ear_play){.looping = true, .priority = 9}, &loud);
    ear_stage_play(s, c, &(ear_play){.looping = true, .start_frame = 1234}, &v);
    uint32_t elapsed = 0;
    for (int k = 0; k < 37; k++) {
        free(render(s, 1000));
        elapsed += 1000;
    }
    ASSERT_FALSE(ear_stage_is_real(s, v));
    uint64_t cursor = 0;
    ASSERT_OK(ear_stage_get_cursor(s, v, &cursor));
    /* A virtual voice's cursor is published when it is brought up to date: as of one of
     * the last 8 blocks (37000 frames rendered = 232 blocks begun), and exact then. */
    uint64_t frames_done = (elapsed + 159) / 160 * 160;
    bool matches = false;
    for (uint64_t k = 0; k < 8; k++)
        if (cursor == (1234 + frames_done - 160 * k) % 4800) matches = true;
    ASSERT_TRUE(matches);
    /* Made real again, it plays the clip at exactly that place. */
    ear_stage_stop(s, loud, 0.005f);
    float *out = render(s, 4800);
    const float *d = ear_clip_data(c);
    /* The steady part (after the fade-in block) is the clip, sample for sample, at the
     * place the elapsed time puts it. */
    double err = 0;
    uint64_t at = (1234 + (uint64_t)elapsed) % 4800;
    for (uint32_t j = 640; j < 4800; j++) {
        double want = d[(at + j) % 4800];
        double e = fabs(out[2 * j] - want);
        if (e > err) err = e;
    }
    ASSERT_DBL_LT(err, 1e-5);
    free(out);
    ear_stage_destroy(s);
    ear_clip_release(c);
}

static int warnings;
static void count_log(void *user, ear_log_level level, const char *module, const char *msg) {
    (void)user, (void)module, (void)msg;
    if (level >= EAR_LOG_WARN) warnings++;
}

TEST(stealing_and_refusal) {
    ear_log_set(count_log, NULL, EAR_LOG_WARN);
    warnings = 0;
    ear_stage *s = stage_with(8, 3);
    ear_clip *c = sine_clip(200.0, 1.0, RATE, 0.5f);
    ear_voice_id ids[3], extra;
    const float vol[3] = {0.9f, 0.2f, 0.6f};
    for (int i = 0; i < 3; i++)
        ASSERT_OK(ear_stage_play(
            s, c, &(ear_play){.looping = true, .volume = vol[i], .priority = 5}, &ids[i]));
    free(render(s, 480));
    /* Lower priority than all: refused, and said once per saturation. */
    ASSERT_EQ(ear_stage_play(s, c, &(ear_play){.priority = 4}, &extra), EAR_E_TOO_MANY_VOICES);
    ASSERT_EQ(ear_stage_play(s, c, &(ear_play){.priority = 1}, &extra), EAR_E_TOO_MANY_VOICES);
    ASSERT_EQ(warnings, 1);
    ASSERT_EQ(ear_stage_get_stats(s).refused, 2);
    /* Equal priority: the quietest (ids[1]) fades out to make room. */
    ASSERT_OK(ear_stage_play(s, c, &(ear_play){.looping = true, .priority = 5}, &extra));
    ASSERT_EQ(ear_stage_get_stats(s).stolen, 1);
    float *out = render(s, 960);
    ASSERT_FALSE(ear_stage_is_playing(s, ids[1]));
    ASSERT_TRUE(ear_stage_is_playing(s, ids[0]) && ear_stage_is_playing(s, ids[2]));
    ASSERT_TRUE(ear_stage_is_playing(s, extra));
    ASSERT_DBL_LE(ear_max_delta(out, 960, 2, 0),
                  2 * (0.9 + 0.6 + 1.0 + 0.2) * 0.5 * sin(PI_D * 200.0 / RATE));
    free(out);
    ear_stage_update(s);
    ASSERT_EQ(ear_stage_voice_count(s), 3);
    ear_stage_destroy(s);
    ear_clip_release(c);
    ear_log_set(NULL, NULL, EAR_LOG_WARN);
}

TEST(far_fire_and_forget_is_dropped) {
    ear_stage *s = new_stage();
    ear_clip *c = sine_clip(200.0, 0.2, RATE, 0.5f);
    bool dropped = false;
    ear_play p = placed_at(0, 0, -200);
    p.attenuation = (ear_attenuation){EAR_MODEL_FADE, 1, 50, 1};
    ASSERT_OK(ear_stage_play_event(s, c, &p, &dropped));
    ASSERT_TRUE(dropped);
    ASSERT_EQ(ear_stage_voice_count(s), 0);
    ASSERT_EQ(ear_stage_get_stats(s).dropped_far, 1);
    /* In range it plays (and is not looping, whatever it asks). */
    p.position = ear_vec3_make(0, 0, -10);
    p.looping = true;
    ASSERT_OK(ear_stage_play_event(s, c, &p, &dropped));
    ASSERT_FALSE(dropped);
    ASSERT_EQ(ear_stage_voice_count(s), 1);
    /* Inverse never reaches silence: never dropped. */
    p.position = ear_vec3_make(0, 0, -1000);
    p.attenuation = (ear_attenuation){EAR_MODEL_INVERSE, 1, 50, 1};
    ASSERT_OK(ear_stage_play_event(s, c, &p, &dropped));
    ASSERT_FALSE(dropped);
    free(render(s, 12000));
    ear_stage_update(s);
    ASSERT_EQ(ear_stage_voice_count(s), 0);
    ear_stage_destroy(s);
    ear_clip_release(c);
}

/* A linear range at or below the reference distance does not attenuate (the gain is 1 at
 * every distance), so a request beyond its max still plays, and is heard at the level of a
 * placed voice at the reference distance (0.707 per ear straight ahead). A real linear
 * range beyond max is still dropped. */
TEST(linear_request_with_max_at_or_below_ref_plays) {
    ear_stage *s = new_stage();
    ear_clip *c = sine_clip(200.0, 0.5, RATE, 0.5f);
    bool dropped = true;
    ear_play p = placed_at(0, 0, -30);
    p.attenuation = (ear_attenuation){EAR_MODEL_LINEAR, 5, 5, 1};
    ASSERT_OK(ear_stage_play_event(s, c, &p, &dropped));
    ASSERT_FALSE(dropped);
    p.attenuation = (ear_attenuation){EAR_MODEL_LINEAR, 8, 3, 1}; /* max below ref */
    ASSERT_OK(ear_stage_play_event(s, c, &p, &dropped));
    ASSERT_FALSE(dropped);
    ASSERT_EQ(ear_stage_voice_count(s), 2);
    ASSERT_EQ(ear_stage_get_stats(s).dropped_far, 0);
    float *out = render(s, 9600);
    /* Two in-phase copies at unity distance gain: 2 x 0.5 x 0.707 on each ear. */
    ASSERT_REL(ear_rms(out + 2 * 4800, 4800, 2, 0), 2 * 0.5 * 0.70710678 / sqrt(2.0), 0.01);
    free(out);
    p.attenuation = (ear_attenuation){EAR_MODEL_LINEAR, 5, 20, 1};
    ASSERT_OK(ear_stage_play_event(s, c, &p, &dropped));
    ASSERT_TRUE(dropped);
    ASSERT_EQ(ear_stage_get_stats(s).dropped_far, 1);
    ear_stage_destroy(s);
    ear_clip_release(c);
}

/* The stats count every command the game side sends: one per voice change, none for a
 * render or a query. */
TEST(stats_count_the_commands_sent) {
    ear_stage *s = new_stage();
    ear_clip *c = sine_clip(200.0, 0.5, RATE, 0.5f);
    ASSERT_U64_EQ(ear_stage_get_stats(s).commands, 0);
    ear_voice_id v;
    ASSERT_OK(ear_stage_play(s, c, &(ear_play){.looping = true}, &v));
    uint64_t after_play = ear_stage_get_stats(s).commands;
    ASSERT_GE(after_play, 1);
    free(render(s, 480));
    (void)ear_stage_is_playing(s, v);
    ear_stage_update(s);
    ASSERT_U64_EQ(ear_stage_get_stats(s).commands, after_play);
    ASSERT_OK(ear_stage_set_volume(s, v, 0.5f));
    ASSERT_OK(ear_stage_set_motion(s, v, ear_vec3_make(1, 0, 0), ear_vec3_make(0, 0, 0)));
    ASSERT_U64_EQ(ear_stage_get_stats(s).commands, after_play + 2);
    ear_stage_destroy(s);
    ear_clip_release(c);
}

/* A voice started silent (volume -1, as stage.h suggests) and raised later is heard: while
 * there is room, a voice that becomes audible is made real at once. */
TEST(a_voice_started_silent_is_heard_once_raised) {
    ear_stage *s = new_stage();
    ear_clip *c = sine_clip(440.0, 1.0, RATE, 0.5f);
    ear_voice_id v;
    ear_play p = placed_at(0, 0, -1);
    p.volume = -1.0f;
    ASSERT_OK(ear_stage_play(s, c, &p, &v));
    float *out = render(s, 4800);
    ASSERT_DBL_LE(ear_peak(out, 4800, 2, EAR_ALL_CHANNELS), 0.0);
    free(out);
    ASSERT_OK(ear_stage_set_volume(s, v, 1.0f));
    out = render(s, 24000);
    ASSERT_TRUE(ear_stage_is_real(s, v));
    /* Straight ahead at the reference distance: 0.707 per ear. */
    ASSERT_REL(ear_tone_amplitude(out + 2 * 4800, 19200, 2, EAR_ALL_CHANNELS, RATE, 440),
               0.5 * 0.70710678, 0.01);
    free(out);
    ear_stage_destroy(s);
    ear_clip_release(c);
}

TEST(inaudible_voices_are_virtual) {
    ear_stage *s = new_stage();
    ear_clip *c = sine_clip(200.0, 1.0, RATE, 0.5f);
    ear_voice_id v;
    ear_stage_play(s, c, &(ear_play){.looping = true, .volume = 5e-5f}, &v); /* -86 dB */
    float *out = render(s, 960);
    ASSERT_FALSE(ear_stage_is_real(s, v));
    ASSERT_DBL_LE(ear_peak(out, 960, 2, EAR_ALL_CHANNELS), 0.0);
    free(out);
    ear_stage_destroy(s);
    ear_clip_release(c);
}

/* 002: a stopping voice reads as finished to the game; only the voice count still counts
 * it, until its fade has ended (and it is heard fading meanwhile). */
TEST(a_stopping_voice_reads_as_finished) {
    ear_clip *c = sine_clip(440.0, 1.0, RATE, 0.5f);
    ear_stage *s = new_stage();
    ear_voice_id v, w;
    ASSERT_OK(ear_stage_play(s, c, &(ear_play){.looping = true}, &v));
    ASSERT_OK(ear_stage_play(s, c, &(ear_play){.looping = true}, &w));
    free(render(s, 960));
    ASSERT_TRUE(ear_stage_is_playing(s, v));
    ASSERT_OK(ear_stage_stop(s, v, 0.1f));
    ASSERT_TRUE(!ear_stage_is_playing(s, v));
    ASSERT_TRUE(ear_stage_is_playing(s, w));
    ASSERT_EQ(ear_stage_voice_count(s), 2);
    ASSERT_OK(ear_stage_stop(s, w, 0.1f)); /* both fade: what is heard is v and w fading */
    float *out = render(s, 2400);          /* 50 ms of a 100 ms fade */
    ASSERT_DBL_GT(ear_rms(out + 2 * 1200, 1200, 2, 0), 0.05);
    free(out);
    ear_stage_update(s);
    ASSERT_EQ(ear_stage_voice_count(s), 2);
    free(render(s, 4800)); /* past the fade's end */
    ear_stage_update(s);
    ASSERT_EQ(ear_stage_voice_count(s), 0);
    ASSERT_EQ(ear_stage_stop(s, v, 0.1f), EAR_E_STALE_ID);
    /* stop_all too. */
    ASSERT_OK(ear_stage_play(s, c, &(ear_play){.looping = true}, &v));
    ASSERT_OK(ear_stage_stop_all(s));
    ASSERT_TRUE(!ear_stage_is_playing(s, v));
    ASSERT_EQ(ear_stage_voice_count(s), 1);
    ear_stage_destroy(s);
    ear_clip_release(c);
}

TEST_MAIN(TEST_ENTRY(a_stopping_voice_reads_as_finished),
          TEST_ENTRY(exactly_max_voices_are_real), TEST_ENTRY(priority_beats_audibility),
          TEST_ENTRY(hysteresis_keeps_near_equal_voices_in_place),
          TEST_ENTRY(leaving_and_entering_the_real_set_does_not_click),
          TEST_ENTRY(virtual_loops_come_back_in_phase), TEST_ENTRY(stealing_and_refusal),
          TEST_ENTRY(far_fire_and_forget_is_dropped),
          TEST_ENTRY(linear_request_with_max_at_or_below_ref_plays),
          TEST_ENTRY(inaudible_voices_are_virtual),
          TEST_ENTRY(a_voice_started_silent_is_heard_once_raised),
          TEST_ENTRY(stats_count_the_commands_sent))
