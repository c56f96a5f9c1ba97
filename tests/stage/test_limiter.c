/* SPDX-License-Identifier: Zlib */
/*
 * The output limiter on the master (src/audio/stage/limiter.c): a loud mix never leaves the
 * ceiling by even one sample; a mix under the threshold passes bit for bit, delayed by the
 * stated lookahead; the gain returns with the stated release time constant and then passes
 * bit for bit again; engaging it does not click (the largest step stays that of a sine at
 * the ceiling); chunking does not change a bit; non-finite input leaves silence, never a
 * NaN; its settings are checked and reported.
 */
#include "stage_util.h"
#include "test.h"

#include <stdio.h>

/* The ceiling exactly as the limiter computes it. */
static float ceiling_of(float db) {
    return (float)pow(10.0, (double)db / 20.0);
}

static ear_stage *stage_with(const ear_limiter *lim) {
    ear_stage_config c = ear_stage_config_default();
    c.kernel = test_kernel();
    if (lim) c.limiter = *lim;
    ear_stage *s = NULL;
    if (ear_stage_create(&c, &s) != EAR_OK) return NULL;
    return s;
}

/* A mono clip holding `value` for `frames` frames. */
static ear_clip *dc_clip(float value, uint64_t frames) {
    float *x = malloc(frames * sizeof *x);
    for (uint64_t i = 0; i < frames; i++) x[i] = value;
    ear_clip *c = NULL;
    if (ear_clip_create(x, frames, 1, RATE, NULL, &c) != EAR_OK) c = NULL;
    free(x);
    return c;
}

static float max_abs(const float *x, size_t n) {
    float m = 0.0f;
    for (size_t i = 0; i < n; i++) m = fabsf(x[i]) > m ? fabsf(x[i]) : m;
    return m;
}

static double max_step(const float *x, size_t frames) {
    double m = 0.0;
    for (size_t i = 1; i < frames; i++)
        for (size_t ch = 0; ch < 2; ch++) {
            double d = fabs((double)x[2 * i + ch] - x[2 * (i - 1) + ch]);
            m = d > m ? d : m;
        }
    return m;
}

/* Twenty full-scale sines, flat and centred (gain 1 on both sides), one-shots. */
static void play_loud(ear_stage *s, ear_clip **clips) {
    for (int v = 0; v < 20; v++)
        ASSERT_OK(ear_stage_play(s, clips[v], &(ear_play){.looping = true}, NULL));
}

static void make_loud(ear_clip **clips) {
    for (int v = 0; v < 20; v++) clips[v] = sine_clip(110.0 + 37.0 * v, 1.0, RATE, 1.0f);
}

TEST(a_loud_mix_never_exceeds_the_ceiling) {
    ear_clip *clips[20];
    make_loud(clips);
    const uint32_t frames = RATE;
    /* Off: the mix as it is, far above full scale. */
    ear_stage *off = stage_with(NULL);
    play_loud(off, clips);
    float *raw = render(off, frames);
    printf("  unlimited peak %.3f\n", (double)max_abs(raw, 2 * (size_t)frames));
    ASSERT_DBL_GT(max_abs(raw, 2 * (size_t)frames), 8.0);
    free(raw);
    ear_stage_destroy(off);
    /* On, with the defaults and with other settings: no sample above the ceiling. */
    const ear_limiter settings[] = {
        {.enabled = true},
        {.enabled = true, .ceiling_db = -6.0f, .lookahead_ms = 5.0f, .release_ms = 200.0f},
        {.enabled = true, .ceiling_db = -0.1f, .lookahead_ms = 0.01f, .release_ms = 5.0f},
    };
    for (size_t k = 0; k < sizeof settings / sizeof settings[0]; k++) {
        ear_stage *s = stage_with(&settings[k]);
        play_loud(s, clips);
        float *out = render(s, frames);
        float c = ceiling_of(ear_stage_get_limiter(s).ceiling_db);
        float peak = max_abs(out, 2 * (size_t)frames);
        printf("  ceiling %g dB (%.9f): peak %.9f, lowest gain in the last block %.2f dB\n",
               (double)ear_stage_get_limiter(s).ceiling_db, (double)c, (double)peak,
               (double)ear_stage_limiter_gain_db(s));
        ASSERT_DBL_LE(peak, c);
        ASSERT_DBL_GT(peak, 0.99 * c); /* it limits, it does not mute */
        ASSERT_DBL_LT(ear_stage_limiter_gain_db(s), -15.0);
        free(out);
        ear_stage_destroy(s);
    }
    for (int v = 0; v < 20; v++) ear_clip_release(clips[v]);
}

/* A mix whose peaks stay under the ceiling: three sines and noise, placed and flat. */
static void play_quiet(ear_stage *s, ear_clip *a, ear_clip *b, ear_clip *n) {
    ear_play pa = placed_at(3, 0, -2);
    pa.volume = 1.3f;
    ASSERT_OK(ear_stage_play(s, a, &pa, NULL));
    ASSERT_OK(
        ear_stage_play(s, b, &(ear_play){.looping = true, .volume = 0.35f, .pan = 0.4f}, NULL));
    ASSERT_OK(ear_stage_play(s, n, &(ear_play){.looping = true, .volume = 0.15f}, NULL));
}

TEST(a_mix_under_the_threshold_passes_bit_for_bit_after_the_lookahead) {
    ear_clip *a = sine_clip(440.0, 0.5, RATE, 0.9f), *b = sine_clip(97.0, 0.3, RATE, 0.8f);
    ear_clip *n = noise_clip(0.4, RATE, 0.5f, 7);
    const uint32_t frames = RATE / 2;
    ear_stage *off = stage_with(NULL);
    play_quiet(off, a, b, n);
    float *want = render(off, frames);
    ear_limiter lim = {.enabled = true};
    ear_stage *on = stage_with(&lim);
    play_quiet(on, a, b, n);
    float *got = render(on, frames);
    uint32_t L = ear_stage_latency_frames(on);
    ASSERT_EQ(L, 96u); /* 2 ms at 48 kHz */
    ASSERT_EQ(ear_stage_latency_frames(off), 0u);
    float peak = max_abs(want, 2 * (size_t)frames);
    printf("  peak %.4f under the ceiling %.4f; latency %u frames\n", (double)peak,
           (double)ceiling_of(-1.0f), L);
    ASSERT_DBL_GT(peak, 0.5);
    ASSERT_DBL_LE(peak, ceiling_of(-1.0f));
    for (uint32_t i = 0; i < 2 * L; i++) ASSERT_FLOAT_EQ(got[i], 0.0f);
    ASSERT_EQ(memcmp(got + 2 * L, want, (size_t)(frames - L) * 2 * sizeof(float)), 0);
    ASSERT_DBL_GE(ear_stage_limiter_gain_db(on), 0.0);
    free(want);
    free(got);
    ear_stage_destroy(off);
    ear_stage_destroy(on);
    ear_clip_release(a);
    ear_clip_release(b);
    ear_clip_release(n);
}

/* A steady 0.25 with a burst of 3 on top for 0.05 s (a one-shot that ends at frame 2400 of
 * its start): the gain, read as limited / unlimited L frames back, falls to c / 3.25 and
 * then returns as 1 - g = (1 - g0) exp(-t / release). */
TEST(the_gain_returns_with_the_release_time_constant_then_passes_bit_for_bit) {
    const float release_ms[] = {50.0f, 120.0f};
    for (size_t k = 0; k < 2; k++) {
        ear_clip *steady = dc_clip(0.25f, RATE), *burst = dc_clip(3.0f, 2400);
        const uint32_t frames = 2 * RATE, start = 4800;
        float *out[2];
        uint32_t L = 0;
        for (int on = 0; on < 2; on++) {
            ear_limiter lim = {.enabled = on != 0, .release_ms = release_ms[k]};
            ear_stage *s = stage_with(&lim);
            ASSERT_OK(ear_stage_play(s, steady, &(ear_play){.looping = true}, NULL));
            out[on] = malloc((size_t)frames * 2 * sizeof(float));
            ASSERT_OK(ear_stage_render(s, out[on], start));
            ASSERT_OK(ear_stage_play(s, burst, &(ear_play){0}, NULL));
            ASSERT_OK(ear_stage_render(s, out[on] + 2 * start, frames - start));
            if (on) L = ear_stage_latency_frames(s);
            ear_stage_destroy(s);
        }
        /* Unlimited: 3.25 during the burst, 0.25 around it. */
        ASSERT_FLOAT_EQ(out[0][2 * (start + 100)], 3.25f);
        ASSERT_FLOAT_EQ(out[0][2 * (start + 2500)], 0.25f);
        float c = ceiling_of(-1.0f);
        ASSERT_DBL_LE(max_abs(out[1], 2 * (size_t)frames), c);
        /* During the burst: the gain c / 3.25, so the output sits at the ceiling. */
        double g_burst = out[1][2 * (start + 1200 + L)] / 3.25;
        ASSERT_NEAR(g_burst, c / 3.25, 1e-6);
        /* After it: the release. The last loud frame entered at start + 2399; its window
         * holds it until start + 2399 + L, the mean until L + 1 frames later. */
        uint32_t t0 = start + 2400 + 2 * (L + 1);
        double tau = release_ms[k] * 1e-3 * RATE, worst = 0;
        for (uint32_t d = 0; d + 1200 <= (uint32_t)(3 * tau); d += 1200) {
            uint32_t t1 = t0 + d, t2 = t1 + 1200;
            double g1 = out[1][2 * t1] / (double)out[0][2 * (t1 - L)];
            double g2 = out[1][2 * t2] / (double)out[0][2 * (t2 - L)];
            double tau_measured = 1200.0 / log((1.0 - g1) / (1.0 - g2));
            double err = fabs(tau_measured / tau - 1.0);
            worst = err > worst ? err : worst;
        }
        printf("  release %g ms: gain %.5f during the burst (c / 3.25 = %.5f); time constant "
               "within %.2e of the formula over 3 time constants\n",
               (double)release_ms[k], g_burst, (double)c / 3.25, worst);
        ASSERT_DBL_LT(worst, 1e-3);
        /* Once 1 - e < 1e-6 the gain is exactly 1 again: bit for bit, L frames late. At
         * (1 - g0) ~ 0.73 that is ln(0.73e6) ~ 13.5 time constants after t0. */
        uint32_t exact = t0 + (uint32_t)(14.0 * tau) + L + 1;
        ASSERT_LT(exact, frames);
        ASSERT_EQ(memcmp(out[1] + 2 * (size_t)exact, out[0] + 2 * (size_t)(exact - L),
                         (size_t)(frames - exact) * 2 * sizeof(float)),
                  0);
        free(out[0]);
        free(out[1]);
        ear_clip_release(steady);
        ear_clip_release(burst);
    }
}

/* A quiet 480 Hz sine (0.3), then twenty more in phase at full scale for 0.5 s (whole
 * cycles: they start and end at a zero crossing). Limited, the largest step anywhere stays
 * within 1.5 times a 480 Hz sine's at the ceiling, 2 c sin(pi f / fs): the gain reaches
 * each sample's own need, so the first quarter cycle of the loud sine, whose early samples
 * need less reduction than its peak, rises a little faster than the steady sine (measured
 * 1.41 times). A hard clip at the ceiling steps by the whole ceiling. */
TEST(engaging_does_not_click) {
    ear_clip *quiet = sine_clip(480.0, 0.5, RATE, 0.3f);
    ear_clip *loud = sine_clip(480.0, 0.5, RATE, 1.0f);
    const uint32_t frames = RATE, at = 12000;
    ear_limiter lim = {.enabled = true};
    ear_stage *s = stage_with(&lim);
    ear_stage *off = stage_with(NULL);
    ear_stage *both[2] = {s, off};
    float *out[2];
    for (int k = 0; k < 2; k++) {
        ASSERT_OK(ear_stage_play(both[k], quiet, &(ear_play){.looping = true}, NULL));
        out[k] = malloc((size_t)frames * 2 * sizeof(float));
        ASSERT_OK(ear_stage_render(both[k], out[k], at));
        for (int v = 0; v < 20; v++) ASSERT_OK(ear_stage_play(both[k], loud, NULL, NULL));
        ASSERT_OK(ear_stage_render(both[k], out[k] + 2 * at, frames - at));
    }
    float c = ceiling_of(-1.0f);
    double sine_step = 2.0 * c * sin(PI_D * 480.0 / RATE);
    double step = max_step(out[0], frames);
    /* The unlimited mix clipped hard at the ceiling, for comparison. */
    for (size_t i = 0; i < 2 * (size_t)frames; i++)
        out[1][i] = out[1][i] > c ? c : (out[1][i] < -c ? -c : out[1][i]);
    double clip_step = max_step(out[1], frames);
    printf("  largest step %.5f (a sine at the ceiling: %.5f; hard clipped: %.3f)\n", step,
           sine_step, clip_step);
    ASSERT_DBL_LE(max_abs(out[0], 2 * (size_t)frames), c);
    ASSERT_DBL_LT(step, 1.5 * sine_step);
    ASSERT_DBL_GT(clip_step, (double)c);
    free(out[0]);
    free(out[1]);
    ear_stage_destroy(s);
    ear_stage_destroy(off);
    ear_clip_release(quiet);
    ear_clip_release(loud);
}

/* The loud mix with a command mid-way, rendered in 1-frame chunks and in chunks of 512
 * and of 333: the same bits. */
static float *render_chunked(ear_clip **clips, uint32_t chunk, uint32_t frames) {
    ear_limiter lim = {.enabled = true, .lookahead_ms = 3.0f};
    ear_stage *s = stage_with(&lim);
    play_loud(s, clips);
    float *out = malloc((size_t)frames * 2 * sizeof(float));
    uint32_t done = 0;
    bool changed = false;
    while (done < frames) {
        uint32_t n = frames - done < chunk ? frames - done : chunk;
        if (!changed && done + n > frames / 2) n = frames / 2 - done;
        ear_stage_render(s, out + 2 * (size_t)done, n);
        done += n;
        if (done == frames / 2 && !changed) {
            ear_stage_set_limiter(s, &(ear_limiter){.enabled = true,
                                                    .lookahead_ms = 3.0f,
                                                    .ceiling_db = -3.0f,
                                                    .release_ms = 10.0f});
            changed = true;
        }
    }
    ear_stage_destroy(s);
    return out;
}

TEST(chunking_changes_no_bit) {
    ear_clip *clips[20];
    make_loud(clips);
    const uint32_t frames = 24000; /* a multiple of the block: the command lands alike */
    float *one = render_chunked(clips, 1, frames);
    float *big = render_chunked(clips, 512, frames);
    float *odd = render_chunked(clips, 333, frames);
    ASSERT_EQ(memcmp(one, big, (size_t)frames * 2 * sizeof(float)), 0);
    ASSERT_EQ(memcmp(one, odd, (size_t)frames * 2 * sizeof(float)), 0);
    /* The lowered ceiling holds from the command on (the clamp covers the lookahead's
     * frames already in flight). */
    ASSERT_DBL_LE(max_abs(one + frames, frames), ceiling_of(-3.0f));
    free(one);
    free(big);
    free(odd);
    for (int v = 0; v < 20; v++) ear_clip_release(clips[v]);
}

/* Two voices of +-3e38 at volume 1000 sum to inf - inf = NaN on the bus: the limiter's
 * output is silence there, never a NaN, and once they have ended a quiet tone passes bit
 * for bit again. */
TEST(non_finite_input_is_silence_and_leaves_no_trace) {
    ear_clip *pos = dc_clip(3e38f, 480), *neg = dc_clip(-3e38f, 480);
    ear_clip *tone = sine_clip(300.0, 1.0, RATE, 0.5f);
    const uint32_t frames = RATE;
    float *out[2];
    for (int on = 0; on < 2; on++) {
        ear_stage *s = stage_with(&(ear_limiter){.enabled = on != 0});
        ASSERT_OK(ear_stage_play(s, tone, &(ear_play){.looping = true}, NULL));
        out[on] = malloc((size_t)frames * 2 * sizeof(float));
        ASSERT_OK(ear_stage_render(s, out[on], 4800));
        ASSERT_OK(ear_stage_play(s, pos, &(ear_play){.volume = 1000}, NULL));
        ASSERT_OK(ear_stage_play(s, neg, &(ear_play){.volume = 1000}, NULL));
        ASSERT_OK(ear_stage_render(s, out[on] + 2 * 4800, frames - 4800));
        ear_stage_destroy(s);
    }
    size_t nonfinite_off = 0;
    for (size_t i = 0; i < 2 * (size_t)frames; i++) {
        nonfinite_off += isfinite(out[0][i]) ? 0u : 1u;
        ASSERT_TRUE(isfinite(out[1][i]));
    }
    printf("  %zu non-finite samples without the limiter, none with it\n", nonfinite_off);
    ASSERT_GT(nonfinite_off, 0u);
    ASSERT_DBL_LE(max_abs(out[1], 2 * (size_t)frames), ceiling_of(-1.0f));
    /* The tone alone again well after: bit for bit, 96 frames late. */
    size_t from = RATE / 2;
    ASSERT_EQ(memcmp(out[1] + 2 * from, out[0] + 2 * (from - 96),
                     (frames - from) * 2 * sizeof(float)),
              0);
    free(out[0]);
    free(out[1]);
    ear_clip_release(pos);
    ear_clip_release(neg);
    ear_clip_release(tone);
}

/* Other rates and control blocks (a block much longer than the rings, one shorter than the
 * lookahead): a quiet mix passes bit for bit L frames late, a loud one stays within the
 * ceiling, and chunking still changes nothing. */
TEST(any_rate_and_block) {
    const uint32_t rates[] = {96000, 22050, 48000};
    const uint32_t blocks[] = {4096, 16, 333};
    for (size_t k = 0; k < 3; k++) {
        uint32_t rate = rates[k], frames = rate / 2;
        ear_clip *tone = sine_clip(250.0, 0.5, rate, 0.7f);
        ear_clip *noise = noise_clip(0.5, rate, 0.1f, 3);
        float *out[3];
        uint32_t L = 0;
        for (int run = 0; run < 3; run++) {
            ear_stage_config c = ear_stage_config_default();
            c.kernel = test_kernel();
            c.sample_rate = rate;
            c.block_frames = blocks[k];
            c.limiter.enabled = run > 0;
            c.limiter.lookahead_ms = 3.0f;
            ear_stage *st = NULL;
            ASSERT_OK(ear_stage_create(&c, &st));
            ASSERT_OK(ear_stage_play(st, tone, &(ear_play){.looping = true}, NULL));
            ASSERT_OK(ear_stage_play(st, noise, &(ear_play){.looping = true}, NULL));
            out[run] = malloc((size_t)frames * 2 * sizeof(float));
            /* Run 2 is run 1 rendered in chunks of 7 frames. */
            uint32_t step = run == 2 ? 7u : frames;
            for (uint32_t done = 0; done < frames;) {
                uint32_t n = frames - done < step ? frames - done : step;
                ASSERT_OK(ear_stage_render(st, out[run] + 2 * (size_t)done, n));
                done += n;
            }
            if (run == 1) L = ear_stage_latency_frames(st);
            ear_stage_destroy(st);
        }
        ASSERT_EQ(L, (uint32_t)lround(3e-3 * rate));
        ASSERT_DBL_LE(max_abs(out[0], 2 * (size_t)frames), ceiling_of(-1.0f));
        ASSERT_EQ(
            memcmp(out[1] + 2 * (size_t)L, out[0], (size_t)(frames - L) * 2 * sizeof(float)),
            0);
        ASSERT_EQ(memcmp(out[1], out[2], (size_t)frames * 2 * sizeof(float)), 0);
        for (int run = 0; run < 3; run++) free(out[run]);
        /* Loud: ten of the tone, far above the ceiling. */
        ear_stage_config c = ear_stage_config_default();
        c.kernel = test_kernel();
        c.sample_rate = rate;
        c.block_frames = blocks[k];
        c.limiter.enabled = true;
        ear_stage *st = NULL;
        ASSERT_OK(ear_stage_create(&c, &st));
        for (int v = 0; v < 10; v++)
            ASSERT_OK(ear_stage_play(st, tone, &(ear_play){.looping = true}, NULL));
        float *loud = render(st, frames);
        float peak = max_abs(loud, 2 * (size_t)frames);
        printf("  %u Hz, blocks of %u: latency %u frames, loud peak %.9f\n", rate, blocks[k], L,
               (double)peak);
        ASSERT_DBL_LE(peak, ceiling_of(-1.0f));
        ASSERT_DBL_GT(peak, 0.99 * ceiling_of(-1.0f));
        free(loud);
        ear_stage_destroy(st);
        ear_clip_release(tone);
        ear_clip_release(noise);
    }
}

TEST(settings_are_checked_defaulted_and_reported) {
    ear_stage *s = stage_with(NULL);
    ear_limiter l = ear_stage_get_limiter(s);
    ASSERT_FALSE(l.enabled);
    ASSERT_NEAR(l.ceiling_db, -1.0, 0);
    ASSERT_NEAR(l.lookahead_ms, 2.0, 0);
    ASSERT_NEAR(l.release_ms, 50.0, 0);
    ASSERT_NEAR(ear_stage_limiter_gain_db(s), 0.0, 0);
    const ear_limiter bad[] = {
        {.enabled = true, .ceiling_db = 0.5f},    {.enabled = true, .ceiling_db = -61.0f},
        {.enabled = true, .ceiling_db = NAN},     {.enabled = true, .lookahead_ms = 10.5f},
        {.enabled = true, .lookahead_ms = -1.0f}, {.enabled = true, .release_ms = INFINITY},
        {.enabled = true, .release_ms = -5.0f},   {.enabled = true, .release_ms = 20000.0f},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
        ASSERT_EQ(ear_stage_set_limiter(s, &bad[k]), EAR_E_INVALID_ARG);
    ASSERT_EQ(ear_stage_set_limiter(s, NULL), EAR_E_INVALID_ARG);
    ASSERT_EQ(ear_stage_set_limiter(NULL, &bad[0]), EAR_E_INVALID_ARG);
    ASSERT_FALSE(ear_stage_get_limiter(s).enabled); /* unchanged */
    ASSERT_OK(ear_stage_set_limiter(
        s, &(ear_limiter){.enabled = true, .ceiling_db = -3.0f, .lookahead_ms = 5.0f}));
    l = ear_stage_get_limiter(s);
    ASSERT_TRUE(l.enabled);
    ASSERT_NEAR(l.ceiling_db, -3.0, 0);
    ASSERT_NEAR(l.release_ms, 50.0, 0);
    ASSERT_EQ(ear_stage_latency_frames(s), 240u);
    ear_stage_destroy(s);
    /* At create: a bad limiter in the config is refused; a good one is reported resolved. */
    ear_stage_config c = ear_stage_config_default();
    c.limiter.lookahead_ms = 11.0f;
    ASSERT_EQ(ear_stage_create(&c, &s), EAR_E_INVALID_ARG);
    c.limiter = (ear_limiter){.enabled = true, .release_ms = 80.0f};
    c.sample_rate = 96000;
    ASSERT_OK(ear_stage_create(&c, &s));
    ASSERT_TRUE(ear_stage_get_config(s).limiter.enabled);
    ASSERT_NEAR(ear_stage_get_config(s).limiter.ceiling_db, -1.0, 0);
    ASSERT_EQ(ear_stage_latency_frames(s), 192u);
    ear_stage_destroy(s);
}

static uint32_t gcd_of(uint32_t a, uint32_t b) {
    return b ? gcd_of(b, a % b) : a;
}

/* The call latency's bounds hold a device's callbacks to them: the stage is rendered in
 * callbacks of B frames, a one-frame click is played between two of them (after H frames
 * were taken) and found in the output at F. Over calls at every callback of a period the
 * waits F - H run from the limiter's lag to block - gcd(block, B) + lag exactly, so
 * best_frames is the least and worst_frames (which adds the device's one buffer) the
 * most a call can take. */
TEST(the_call_latency_bounds_are_what_callbacks_give) {
    const uint32_t sizes[] = {64, 128, 160, 256, 441, 512};
    for (int limiter = 0; limiter < 2; limiter++) {
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            uint32_t B = sizes[k];
            ear_limiter lim = ear_stage_config_default().limiter;
            lim.enabled = limiter == 1;
            ear_stage *s = stage_with(&lim);
            ASSERT_TRUE(s != NULL);
            ear_stage_call_latency l = ear_stage_get_call_latency(s, B);
            ASSERT_EQ(l.buffer_frames, B);
            ASSERT_EQ(l.block_frames, 160u);
            ASSERT_EQ(l.lag_frames, ear_stage_latency_frames(s));
            float one = 1.0f;
            ear_clip *click = NULL;
            ASSERT_OK(ear_clip_create(&one, 1, 1, RATE, NULL, &click));
            float *out = malloc((size_t)B * 2 * sizeof *out);
            uint64_t taken = 0;
            int64_t least = INT64_MAX, most = 0;
            /* enough calls that they fall at every callback phase of the block */
            int calls = 3 * (int)(l.block_frames / gcd_of(l.block_frames, B)) + 10;
            for (int call = 0; call < calls; call++) {
                uint64_t h = taken;
                ASSERT_OK(ear_stage_play(s, click, &(ear_play){.volume = 1.0f}, NULL));
                int64_t found = -1;
                while (found < 0 && taken < h + 4096) {
                    ear_stage_render(s, out, B);
                    for (uint32_t i = 0; i < B && found < 0; i++)
                        if (fabsf(out[2 * i]) > 1e-3f) found = (int64_t)(taken + i);
                    taken += B;
                }
                ASSERT_GE(found, 0);
                int64_t d = found - (int64_t)h;
                least = d < least ? d : least;
                most = d > most ? d : most;
                /* the click's tail out, then a varying wait: the next call at another phase */
                for (int quiet = 0; quiet < 2 + call % 7; quiet++) {
                    ear_stage_render(s, out, B);
                    taken += B;
                }
            }
            ASSERT_EQ(least, (int64_t)l.best_frames);
            ASSERT_EQ(most + (int64_t)B, (int64_t)l.worst_frames);
            ASSERT_NEAR(l.worst_ms, 1000.0 * l.worst_frames / RATE, 1e-9);
            free(out);
            ear_clip_release(click);
            ear_stage_destroy(s);
        }
    }
    /* the default buffer (0) and the defaults' figure in docs/performance.md */
    ear_stage *s = stage_with(NULL);
    ear_stage_call_latency d = ear_stage_get_call_latency(s, 0);
    ASSERT_EQ(d.buffer_frames, EAR_DEVICE_BUFFER_FRAMES_DEFAULT);
    ASSERT_EQ(d.worst_frames, 128u + ear_stage_latency_frames(s) + 256u);
    ear_stage_destroy(s);
}

TEST_MAIN(TEST_ENTRY(a_loud_mix_never_exceeds_the_ceiling),
          TEST_ENTRY(a_mix_under_the_threshold_passes_bit_for_bit_after_the_lookahead),
          TEST_ENTRY(the_gain_returns_with_the_release_time_constant_then_passes_bit_for_bit),
          TEST_ENTRY(engaging_does_not_click), TEST_ENTRY(chunking_changes_no_bit),
          TEST_ENTRY(non_finite_input_is_silence_and_leaves_no_trace),
          TEST_ENTRY(any_rate_and_block),
          TEST_ENTRY(settings_are_checked_defaulted_and_reported),
          TEST_ENTRY(the_call_latency_bounds_are_what_callbacks_give))
