/* SPDX-License-Identifier: Zlib */
/*
 * Bad input and bookkeeping: NaN and negative gains are silence, bad vectors are
 * refused with a warning, stale ids are an error code, a full ring loses nothing,
 * rendering allocates nothing, and clips live exactly as long as their holders.
 */
#include "stage_util.h"
#include "test.h"

static int warnings;
static void count_log(void *user, ear_log_level level, const char *module, const char *msg) {
    (void)user, (void)module, (void)msg;
    if (level >= EAR_LOG_WARN) warnings++;
}

static uint64_t hash_of(ear_stage *s, uint32_t frames) {
    float *out = render(s, frames);
    uint64_t h = ear_hash_samples(out, (size_t)frames * 2);
    free(out);
    return h;
}

TEST(bad_gains_are_silence_and_spoil_nothing) {
    ear_clip *c = sine_clip(440.0, 1.0, RATE, 0.5f);
    ear_play good = placed_at(2, 0, -3);
    /* The good voice alone. */
    ear_stage *s = new_stage();
    ear_stage_play(s, c, &good, NULL);
    uint64_t alone = hash_of(s, 9600);
    ear_stage_destroy(s);
    /* The same with bad voices beside it: bit-identical output. */
    s = new_stage();
    ear_stage_play(s, c, &good, NULL);
    const float bad[] = {NAN, INFINITY, -INFINITY, -0.5f};
    ear_voice_id ids[4];
    for (int i = 0; i < 4; i++) {
        ear_play p = placed_at(-1, 0, -1);
        p.volume = bad[i];
        ASSERT_OK(ear_stage_play(s, c, &p, &ids[i]));
    }
    uint64_t h1 = hash_of(s, 4800);
    (void)h1;
    for (int i = 0; i < 4; i++) {
        ASSERT_OK(ear_stage_set_volume(s, ids[i], bad[3 - i]));
        ASSERT_OK(ear_stage_set_pitch(s, ids[i], bad[i]));
        ASSERT_OK(ear_stage_set_occlusion(s, ids[i], bad[i]));
    }
    float *out = render(s, 4800);
    for (int i = 0; i < 9600; i++) ASSERT_TRUE(isfinite(out[i]));
    free(out);
    ear_stage_destroy(s);
    s = new_stage();
    ear_stage_play(s, c, &good, NULL);
    for (int i = 0; i < 4; i++) {
        ear_play p = placed_at(-1, 0, -1);
        p.volume = bad[i];
        ear_stage_play(s, c, &p, NULL);
    }
    ASSERT_U64_EQ(hash_of(s, 9600), alone);
    ear_stage_destroy(s);
    ear_clip_release(c);
}

TEST(negative_volume_fades_to_silence) {
    ear_clip *c = sine_clip(440.0, 1.0, RATE, 0.5f);
    ear_stage *s = new_stage();
    ear_voice_id v;
    ear_stage_play(s, c, &(ear_play){.looping = true}, &v);
    free(render(s, 960));
    ear_stage_set_volume(s, v, -3.0f);
    float *out = render(s, 48000);
    ASSERT_DBL_LE(ear_peak(out + 2 * 24000, 24000, 2, EAR_ALL_CHANNELS), 0.0);
    free(out);
    ear_stage_destroy(s);
    ear_clip_release(c);
}

TEST(non_finite_vectors_are_ignored_with_a_warning) {
    ear_log_set(count_log, NULL, EAR_LOG_WARN);
    ear_clip *c = sine_clip(440.0, 1.0, RATE, 0.5f);
    ear_play p = placed_at(3, 0, -2);
    ear_stage *s = new_stage();
    ear_stage_play(s, c, &p, NULL);
    uint64_t plain = hash_of(s, 4800);
    ear_stage_destroy(s);

    s = new_stage();
    ear_voice_id v;
    ear_stage_play(s, c, &p, &v);
    warnings = 0;
    ASSERT_EQ(ear_stage_set_position(s, v, ear_vec3_make(NAN, 0, 0)), EAR_E_INVALID_ARG);
    ASSERT_EQ(ear_stage_set_velocity(s, v, ear_vec3_make(0, INFINITY, 0)), EAR_E_INVALID_ARG);
    ASSERT_EQ(ear_stage_set_forward(s, v, ear_vec3_make(0, 0, NAN)), EAR_E_INVALID_ARG);
    ear_listener l = {{NAN, 0, 0}, {0, 0, 0}, {0, 0, -1}, {0, 1, 0}};
    ASSERT_EQ(ear_stage_set_listener(s, &l), EAR_E_INVALID_ARG);
    ASSERT_EQ(ear_stage_set_motion(s, v, ear_vec3_make(1, 2, 3), ear_vec3_make(0, NAN, 0)),
              EAR_E_INVALID_ARG);
    ASSERT_EQ(warnings, 5);
    ASSERT_U64_EQ(hash_of(s, 4800), plain);
    /* Playing at a non-finite position is refused and takes no voice. */
    ear_play bad = placed_at(NAN, 0, 0);
    ASSERT_EQ(ear_stage_play(s, c, &bad, NULL), EAR_E_INVALID_ARG);
    ASSERT_EQ(ear_stage_voice_count(s), 1);
    /* Huge but finite positions stay finite. */
    ASSERT_OK(ear_stage_set_position(s, v, ear_vec3_make(3e38f, -3e38f, 3e38f)));
    float *out = render(s, 4800);
    for (int i = 0; i < 9600; i++) ASSERT_TRUE(isfinite(out[i]));
    free(out);
    ear_stage_destroy(s);
    ear_clip_release(c);
    ear_log_set(NULL, NULL, EAR_LOG_WARN);
}

TEST(stale_ids_are_an_error_code) {
    ear_clip *c = sine_clip(440.0, 0.01, RATE, 0.5f);
    ear_stage_config cfg = ear_stage_config_default();
    cfg.max_total_voices = 1; /* the slot must be reused */
    ear_stage *s = NULL;
    ASSERT_OK(ear_stage_create(&cfg, &s));
    ear_voice_id a, b;
    ASSERT_OK(ear_stage_play(s, c, &(ear_play){.priority = 10}, &a));
    /* Lower priority than every voice: nothing may be stolen. */
    ASSERT_EQ(ear_stage_play(s, c, NULL, &b), EAR_E_TOO_MANY_VOICES);
    ASSERT_TRUE(ear_stage_is_playing(s, a));
    free(render(s, 960)); /* 20 ms: the 10 ms clip has ended */
    ASSERT_FALSE(ear_stage_is_playing(s, a));
    uint64_t cur;
    ASSERT_EQ(ear_stage_get_cursor(s, a, &cur), EAR_E_STALE_ID);
    ASSERT_EQ(ear_stage_set_volume(s, a, 1.0f), EAR_E_STALE_ID);
    ASSERT_OK(ear_stage_play(s, c, &(ear_play){.looping = true}, &b));
    ASSERT_NE(a, b);
    ASSERT_EQ(ear_stage_stop(s, a, 0.1f), EAR_E_STALE_ID);
    ASSERT_TRUE(ear_stage_is_playing(s, b)); /* untouched by the stale stop */
    free(render(s, 9600));
    ASSERT_TRUE(ear_stage_is_playing(s, b));
    ASSERT_EQ(ear_stage_set_pitch(s, EAR_VOICE_NONE, 1.0f), EAR_E_STALE_ID);
    ASSERT_EQ(ear_stage_set_pitch(s, 0xffffffffu, 1.0f), EAR_E_STALE_ID);
    ear_stage_destroy(s);
    ear_clip_release(c);
}

TEST(a_full_ring_loses_no_command) {
    /* 5000 voices of a constant 1e-4 through a 16-entry ring: the sum proves each
     * PLAY arrived, the last volume command proves the order held. */
    float dc[480];
    for (int i = 0; i < 480; i++) dc[i] = 1e-4f;
    ear_clip *c;
    ASSERT_OK(ear_clip_create(dc, 480, 1, RATE, NULL, &c));
    ear_stage_config cfg = ear_stage_config_default();
    cfg.command_capacity = 16;
    cfg.max_total_voices = 8192;
    cfg.max_voices = 8192;
    ear_stage *s = NULL;
    ASSERT_OK(ear_stage_create(&cfg, &s));
    ear_voice_id last = 0;
    for (int i = 0; i < 5000; i++)
        ASSERT_OK(ear_stage_play(s, c, &(ear_play){.looping = true}, &last));
    for (int i = 0; i < 3000; i++) ASSERT_OK(ear_stage_set_volume(s, last, (float)(i % 7)));
    ASSERT_OK(ear_stage_set_volume(s, last, 1001.0f)); /* clamped to 1000 */
    float *out = render(s, 4800);
    ASSERT_NEAR(out[2 * 4799], 4999 * 1e-4 + 1000 * 1e-4, 1e-3);
    ASSERT_EQ(ear_stage_voice_count(s), 5000);
    free(out);
    ear_stage_destroy(s);
    ear_clip_release(c);
}

static int allocs;
static void *count_alloc(size_t size, void *user) {
    (void)user;
    allocs++;
    return malloc(size);
}
static void *count_realloc(void *p, size_t size, void *user) {
    (void)user;
    allocs++;
    return realloc(p, size);
}

TEST(rendering_allocates_nothing) {
    ear_allocator a = {count_alloc, count_realloc, NULL, NULL};
    ear_stage_config cfg = ear_stage_config_default();
    cfg.allocator = &a;
    ear_stage *s = NULL;
    ASSERT_OK(ear_stage_create(&cfg, &s));
    ear_clip *c = sine_clip(300.0, 1.0, RATE, 0.3f);
    ear_clip *n = noise_clip(0.5, 44100, 0.3f, 9);
    ear_voice_id ids[40];
    for (int i = 0; i < 40; i++) {
        ear_play p = placed_at((float)(i - 20), 0.5f, (float)(i % 3 - 1));
        p.occlusion = (float)(i % 4) * 0.3f;
        p.loop_crossfade_s = i % 2 ? 0.01f : 0.0f;
        ear_stage_play(s, i % 2 ? c : n, &p, &ids[i]);
    }
    float *buf = malloc(4096 * 2 * sizeof *buf);
    int before = allocs;
    for (int k = 0; k < 200; k++) {
        for (int i = 0; i < 40; i++)
            ear_stage_set_position(s, ids[i],
                                   ear_vec3_make((float)(i - 20), (float)k * 0.1f, 3));
        ear_stage_render(s, buf, (uint32_t)(1 + (k * 37) % 4096));
        if (k == 100) ear_stage_stop(s, ids[3], 0.01f);
    }
    ASSERT_EQ(allocs, before);
    free(buf);
    ear_stage_destroy(s);
    ear_clip_release(c);
    ear_clip_release(n);
}

TEST(clips_live_as_long_as_their_voices) {
    ear_clip *c = sine_clip(440.0, 0.05, RATE, 0.5f);
    ear_stage *s = new_stage();
    for (int i = 0; i < 50; i++) ear_stage_play(s, c, NULL, NULL);
    ASSERT_EQ(ear_clip_refcount(c), 51);
    ear_clip_release(c); /* the caller lets go; the voices still hold it */
    ASSERT_EQ(ear_clip_refcount(c), 50);
    float *out = render(s, 1200);
    ASSERT_NEAR(ear_rms(out + 320, 800, 2, 0), 50 * 0.5 / sqrt(2.0), 0.5);
    free(out);
    out = render(s, 2400); /* past the 50 ms end */
    free(out);
    ASSERT_EQ(ear_stage_voice_count(s), 50); /* ended, not yet collected */
    ear_stage_update(s); /* the game thread releases them: the clip is freed here */
    ASSERT_EQ(ear_stage_voice_count(s), 0);
    ear_stage_destroy(s);
}

TEST(destroy_releases_pending_and_playing_clips) {
    ear_clip *c = sine_clip(440.0, 1.0, RATE, 0.5f);
    ear_stage *s = new_stage();
    ear_stage_play(s, c, &(ear_play){.looping = true}, NULL);
    free(render(s, 160));
    ear_stage_play(s, c, &(ear_play){.looping = true}, NULL); /* still in the ring */
    ASSERT_EQ(ear_clip_refcount(c), 3);
    ear_stage_destroy(s);
    ASSERT_EQ(ear_clip_refcount(c), 1);
    ear_clip_release(c);
    ear_stage_destroy(NULL);
}

/* An adopted clip plays its caller's buffer in place, with non-finite samples made 0, and
 * frees it (and only then) through its allocator when the last holder lets go. */
static int adopt_frees;
static void *adopt_alloc(size_t size, void *user) {
    (void)user;
    return malloc(size);
}
static void adopt_free(void *p, void *user) {
    (void)user;
    if (p) adopt_frees++;
    free(p);
}

TEST(adopted_clips_play_in_place_and_free_their_buffer) {
    ear_allocator a = {adopt_alloc, NULL, adopt_free, NULL};
    size_t frames = 4800;
    float *samples = adopt_alloc(frames * sizeof *samples, NULL);
    ASSERT_NOT_NULL(samples);
    for (size_t i = 0; i < frames; i++) samples[i] = 0.5f;
    samples[7] = NAN;
    ear_clip *c = NULL;
    ASSERT_EQ(ear_clip_adopt(NULL, frames, 1, RATE, &a, &c), EAR_E_INVALID_ARG);
    ASSERT_EQ(ear_clip_adopt(samples, 0, 1, RATE, &a, &c), EAR_E_INVALID_ARG);
    ASSERT_EQ(ear_clip_adopt(samples, frames, 3, RATE, &a, &c), EAR_E_INVALID_ARG);
    ASSERT_NULL(c);
    ASSERT_OK(ear_clip_adopt(samples, frames, 1, RATE, &a, &c));
    ASSERT_PTR_EQ(ear_clip_data(c), samples); /* not copied */
    ASSERT_FLOAT_EQ(samples[7], 0.0f);
    ear_stage *s = new_stage();
    ASSERT_OK(ear_stage_play(s, c, &(ear_play){.looping = true}, NULL));
    ear_clip_release(c);
    float *out = render(s, 960);
    ASSERT_NEAR(ear_peak(out + 2 * 320, 320, 2, 0), 0.5, 1e-6); /* unplaced: as it is */
    ASSERT_NEAR(ear_rms(out + 2 * 320, 320, 2, 1), 0.5, 1e-6);
    free(out);
    adopt_frees = 0;
    ear_stage_destroy(s);
    ASSERT_EQ(adopt_frees, 2); /* the samples and the header */
}

TEST(bad_config_and_arguments) {
    ear_stage *s = NULL;
    ear_stage_config cfg = ear_stage_config_default();
    cfg.command_capacity = 1000; /* not a power of two */
    ASSERT_EQ(ear_stage_create(&cfg, &s), EAR_E_INVALID_ARG);
    cfg = ear_stage_config_default();
    cfg.channels = 6;
    ASSERT_EQ(ear_stage_create(&cfg, &s), EAR_E_UNSUPPORTED);
    ASSERT_NULL(s);
    ear_clip *c = NULL;
    ASSERT_EQ(ear_clip_create(NULL, 0, 1, RATE, NULL, &c), EAR_E_INVALID_ARG);
    ASSERT_EQ(ear_clip_create(NULL, 10, 3, RATE, NULL, &c), EAR_E_INVALID_ARG);
    float nan_samples[4] = {NAN, 1.0f, INFINITY, -2.0f};
    ASSERT_OK(ear_clip_create(nan_samples, 4, 1, RATE, NULL, &c));
    ASSERT_FLOAT_EQ(ear_clip_data(c)[0], 0.0f);
    ASSERT_FLOAT_EQ(ear_clip_data(c)[2], 0.0f);
    s = new_stage();
    ASSERT_EQ(ear_stage_play(s, NULL, NULL, NULL), EAR_E_INVALID_ARG);
    ASSERT_EQ(ear_stage_render(s, NULL, 10), EAR_E_INVALID_ARG);
    ASSERT_STR_NE(ear_result_string(EAR_E_STALE_ID), "unknown result");
    ear_stage_destroy(s);
    ear_clip_release(c);
}

/* An allocator that fails its fail_at-th call (1-based; 0: never) and counts what is live. */
static int calls, fail_at, live;
static void *failing_alloc(size_t size, void *user) {
    (void)user;
    if (++calls == fail_at) return NULL;
    live++;
    return malloc(size);
}
static void *failing_realloc(void *p, size_t size, void *user) {
    (void)user;
    if (++calls == fail_at) return NULL;
    if (!p) live++;
    return realloc(p, size);
}
static void counting_free(void *p, void *user) {
    (void)user;
    if (p) live--;
    free(p);
}

/* Lua's ltests.h and SQLite's habit: fail the k-th allocation for every k at create. Each
 * failure is EAR_E_OUT_OF_MEMORY with nothing left allocated and no stage written; the
 * k past the last allocation succeeds, and a stage is one allocation. */
TEST(create_fails_cleanly_at_every_allocation) {
    ear_allocator a = {failing_alloc, failing_realloc, counting_free, NULL};
    for (int config = 0; config < 3; config++) {
        ear_stage_config cfg = ear_stage_config_default();
        cfg.kernel = test_kernel();
        cfg.allocator = &a;
        if (config == 1) cfg.max_blend_voices = 0, cfg.max_total_voices = 1, cfg.max_voices = 1;
        if (config == 2) cfg.max_total_voices = 4096, cfg.block_frames = 480;
        int made = 0;
        for (int k = 1; k < 1000; k++) {
            calls = 0, fail_at = k, live = 0;
            ear_stage *s = (ear_stage *)&a; /* must stay untouched on failure */
            ear_result r = ear_stage_create(&cfg, &s);
            if (calls < k) { /* no call failed: created */
                ASSERT_OK(r);
                made = calls;
                ear_stage_destroy(s);
                ASSERT_EQ(live, 0);
                break;
            }
            ASSERT_EQ(r, EAR_E_OUT_OF_MEMORY);
            ASSERT_PTR_EQ(s, (ear_stage *)&a);
            ASSERT_EQ(live, 0);
        }
        ASSERT_EQ(made, 1);
    }
    fail_at = 0;
}

/* A pose with one bad vector is refused whole; a full ring whose overflow cannot grow
 * refuses the listener, stop_all and the master gain with nothing changed. */
TEST(refused_calls_change_nothing) {
    ear_clip *c = sine_clip(440.0, 1.0, RATE, 0.5f);
    ear_log_set(NULL, NULL, EAR_LOG_ERROR); /* the warnings are expected */
    ear_allocator a = {failing_alloc, failing_realloc, counting_free, NULL};
    ear_stage_config cfg = ear_stage_config_default();
    cfg.kernel = test_kernel();
    cfg.allocator = &a;
    cfg.command_capacity = 16;
    calls = 0, fail_at = 0, live = 0;
    ear_stage *s = NULL;
    ASSERT_OK(ear_stage_create(&cfg, &s));
    ear_listener before = ear_stage_get_listener(s);
    ear_listener l = before;
    l.forward = ear_vec3_make(1, 0, 0);
    l.velocity = ear_vec3_make(0, NAN, 0);
    ASSERT_EQ(ear_stage_set_listener(s, &l), EAR_E_INVALID_ARG);
    l.velocity = ear_vec3_make(0, 0, 0);
    l.up = ear_vec3_make(0, 0, 0);
    ASSERT_EQ(ear_stage_set_listener(s, &l), EAR_E_INVALID_ARG);
    ear_listener after = ear_stage_get_listener(s);
    ASSERT_MEM_EQ(&before, &after, sizeof before);
    /* Fill the ring (16 commands), then let the overflow queue's growth fail. */
    ear_voice_id v;
    ASSERT_OK(ear_stage_play(s, c, &(ear_play){.looping = true}, &v));
    for (int i = 0; i < 15; i++) ASSERT_OK(ear_stage_set_volume(s, v, 0.5f));
    fail_at = calls + 1;
    ASSERT_EQ(ear_stage_stop_all(s), EAR_E_OUT_OF_MEMORY);
    fail_at = calls + 1;
    ASSERT_EQ(ear_stage_set_master_gain(s, 0.0f), EAR_E_OUT_OF_MEMORY);
    fail_at = calls + 1;
    l = before;
    l.position = ear_vec3_make(50, 0, 0);
    ASSERT_EQ(ear_stage_set_listener(s, &l), EAR_E_OUT_OF_MEMORY);
    after = ear_stage_get_listener(s);
    ASSERT_MEM_EQ(&before, &after, sizeof before);
    fail_at = 0;
    /* Nothing of the refused calls reached the mix: the voice plays at 0.5 where it was. */
    float *out = render(s, 4800);
    ASSERT_TRUE(ear_stage_is_playing(s, v));
    ASSERT_NEAR(ear_rms(out + 2 * 2400, 2400, 2, 0), 0.5 * 0.5 / sqrt(2.0), 0.01);
    free(out);
    ear_stage_destroy(s);
    ASSERT_EQ(live, 0);
    ear_clip_release(c);
    ear_log_set(NULL, NULL, EAR_LOG_WARN);
}

TEST_MAIN(TEST_ENTRY(bad_gains_are_silence_and_spoil_nothing),
          TEST_ENTRY(negative_volume_fades_to_silence),
          TEST_ENTRY(non_finite_vectors_are_ignored_with_a_warning),
          TEST_ENTRY(stale_ids_are_an_error_code), TEST_ENTRY(a_full_ring_loses_no_command),
          TEST_ENTRY(rendering_allocates_nothing),
          TEST_ENTRY(clips_live_as_long_as_their_voices),
          TEST_ENTRY(destroy_releases_pending_and_playing_clips),
          TEST_ENTRY(adopted_clips_play_in_place_and_free_their_buffer),
          TEST_ENTRY(bad_config_and_arguments),
          TEST_ENTRY(create_fails_cleanly_at_every_allocation),
          TEST_ENTRY(refused_calls_change_nothing))
