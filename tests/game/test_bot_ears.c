/* SPDX-License-Identifier: Zlib */
/*
 * The bot's ears against the stage: the game's guide bell (its WAV from make_sounds) is
 * placed 3 m from the listener at known angles and rendered; the direction the bot
 * measures from the two ears' Goertzel levels and the bell's dulled partial must match
 * the angle within 1 degree (measured: 0.2), in front by the inverse of the stage's
 * equal-power pan (p = 0.9 sin a), behind too once the dulled partial says "behind" (the
 * 2.5 kHz behind-cue pole takes the 4 kHz partial's share below 0.55 of its share in
 * front) and the angle is mirrored.
 *
 * On headphones (the game's setting: the KEMAR set through the HRTF loader, the stage's
 * spatializer HRTF) the same bell is heard through the set's filters: each ear's level at
 * the bell's 1000 Hz and its 4000 Hz partial must differ as the set's own filters for that
 * direction do (their magnitudes at those frequencies, ear_hrtf_lookup), within 1 dB, and
 * not as the pan does; the bot, whose ears invert the pan, still hears the bell on the
 * correct side.
 *
 * Front from behind by turning: the bot in a level, the bell 3 m away straight behind (or
 * 10 degrees off it) or ahead, its turn keys turning the listener as the game turns the
 * player (1.5 degrees a frame): panned and on headphones, within 400 frames, it must say
 * what its test turn told ("behind" / "in front") and face the bell (within 15 degrees)
 * when it first walks after that.
 */
#include "bot.h"
#include "test.h"

#include "earshot/assets.h"
#include "earshot/hrtf.h"
#include "earshot/stage.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static float heard_at(ear_stage *st, ear_assets *as, float deg) {
    float rad = deg * 3.14159265f / 180.0f;
    ear_play p = {0};
    p.looping = true;
    p.placed = true;
    p.position = (ear_vec3){3.0f * sinf(rad), 0, -3.0f * cosf(rad)};
    ear_voice_id v;
    if (ear_assets_play(as, st, "guide", &p, &v) != EAR_OK) return NAN;
    bot *b = bot_create(false, NULL);
    if (!b) return NAN;
    float buf[800 * 2];
    for (int f = 0; f < 90; f++) {
        ear_stage_render(st, buf, 800);
        if (f >= 60) bot_hear_audio(b, buf, 800, 48000);
    }
    float got = NAN;
    if (!bot_bell_direction(b, &got)) got = NAN;
    bot_destroy(b);
    ear_stage_stop(st, v, 0);
    for (int f = 0; f < 4; f++) ear_stage_render(st, buf, 800);
    ear_stage_update(st);
    return got;
}

TEST(bot_hears_the_bell_where_it_is) {
    ear_stage *st = NULL;
    ASSERT_EQ(ear_stage_create(NULL, &st), EAR_OK);
    ear_assets_config ac = ear_assets_config_default();
    ac.root = DEMO_ASSETS;
    ear_assets *as = NULL;
    ASSERT_EQ(ear_assets_create(&ac, &as), EAR_OK);
    const float front[] = {-60, -30, -10, 0, 10, 30, 60};
    for (size_t i = 0; i < sizeof front / sizeof *front; i++) {
        float got = heard_at(st, as, front[i]);
        printf("bell at %+.0f degrees: heard at %+.1f\n", (double)front[i], (double)got);
        ASSERT_NEAR(got, front[i], 1.0);
    }
    /* behind: the angle is mirrored to the back, on the correct side */
    float right_behind = heard_at(st, as, 150), left_behind = heard_at(st, as, -150);
    printf("bell at +150: heard at %+.1f; at -150: %+.1f\n", (double)right_behind,
           (double)left_behind);
    ASSERT_NEAR(right_behind, 150, 1.0);
    ASSERT_NEAR(left_behind, -150, 1.0);
    ear_assets_destroy(as);
    ear_stage_destroy(st);
}

/* Goertzel power at f over n samples of one channel of interleaved stereo. */
static double power_at(const float *stereo, size_t n, int ch, double f, double rate) {
    double w = 2.0 * 3.14159265358979 * f / rate, c = 2.0 * cos(w), s1 = 0, s2 = 0;
    for (size_t i = 0; i < n; i++) {
        double s0 = stereo[i * 2 + (size_t)ch] + c * s1 - s2;
        s2 = s1;
        s1 = s0;
    }
    return s1 * s1 + s2 * s2 - c * s1 * s2;
}

/* |H(f)| of a filter of taps coefficients at rate. */
static double magnitude_at(const float *h, uint32_t taps, double f, double rate) {
    double re = 0, im = 0;
    for (uint32_t k = 0; k < taps; k++) {
        re += h[k] * cos(2.0 * 3.14159265358979 * f * k / rate);
        im -= h[k] * sin(2.0 * 3.14159265358979 * f * k / rate);
    }
    return sqrt(re * re + im * im);
}

/* The bell at deg rendered for one bell period (after a second to settle): the left over
 * right level difference in dB at 1000 and 4000 Hz, and the bot's direction. */
static void render_ild(ear_stage *st, ear_assets *as, float deg, double ild[2],
                       float *bot_deg) {
    float rad = deg * 3.14159265f / 180.0f;
    ear_play p = {0};
    p.looping = true;
    p.placed = true;
    p.position = (ear_vec3){3.0f * sinf(rad), 0, -3.0f * cosf(rad)};
    ear_voice_id v;
    static float period[30 * 800 * 2];
    ild[0] = ild[1] = NAN;
    *bot_deg = NAN;
    if (ear_assets_play(as, st, "guide", &p, &v) != EAR_OK) return;
    bot *b = bot_create(false, NULL);
    if (!b) return;
    float buf[800 * 2];
    for (int f = 0; f < 90; f++) {
        ear_stage_render(st, buf, 800);
        if (f >= 60) {
            bot_hear_audio(b, buf, 800, 48000);
            memcpy(period + (size_t)(f - 60) * 1600, buf, sizeof buf);
        }
    }
    const double freq[2] = {1000, 4000};
    for (int k = 0; k < 2; k++)
        ild[k] = 10.0 * log10(power_at(period, 30 * 800, 0, freq[k], 48000) /
                              power_at(period, 30 * 800, 1, freq[k], 48000));
    if (!bot_bell_direction(b, bot_deg)) *bot_deg = NAN;
    bot_destroy(b);
    ear_stage_stop(st, v, 0);
    for (int f = 0; f < 4; f++) ear_stage_render(st, buf, 800);
    ear_stage_update(st);
}

TEST(on_headphones_the_bell_is_heard_through_the_hrtf) {
    ear_stage *st = NULL;
    ASSERT_EQ(ear_stage_create(NULL, &st), EAR_OK);
    ear_assets_config ac = ear_assets_config_default();
    ac.root = DEMO_ASSETS;
    ear_assets *as = NULL;
    ASSERT_EQ(ear_assets_create(&ac, &as), EAR_OK);
    /* the game's headphones: the loader's set at the stage's rate (games/demo/main.c) */
    ear_hrtf_config hc = ear_hrtf_config_default();
    hc.sample_rate = ear_stage_get_config(st).sample_rate;
    ear_hrtf_set *set = NULL;
    ear_hrtf_error err;
    ear_result r = ear_hrtf_load(EAR_HRTF_DEFAULT_PATH, &hc, &set, &err);
    if (r != EAR_OK) printf("%s\n", err.message);
    ASSERT_EQ(r, EAR_OK);
    const float angles[] = {-60, -30, 30, 60};
    double pan_ild[4][2];
    for (size_t i = 0; i < 4; i++) {
        float ignored;
        render_ild(st, as, angles[i], pan_ild[i], &ignored);
    }
    ear_stage_hrtf view = ear_hrtf_stage_view(set);
    ASSERT_EQ(ear_stage_set_hrtf(st, &view), EAR_OK);
    ASSERT_EQ(ear_stage_set_spatializer(st, EAR_SPATIALIZER_HRTF), EAR_OK);
    ear_stage_hrtf_info info;
    ASSERT_EQ(ear_stage_get_hrtf(st, &info), EAR_OK);
    ASSERT_TRUE(info.loaded);
    ASSERT_EQ(info.spatializer, EAR_SPATIALIZER_HRTF);
    ASSERT_EQ(info.count, set->count);
    static float left[EAR_HRTF_MAX_TAPS], right[EAR_HRTF_MAX_TAPS];
    for (size_t i = 0; i < 4; i++) {
        double ild[2];
        float heard;
        render_ild(st, as, angles[i], ild, &heard);
        /* SOFA: azimuth counter-clockwise from the front (90 = left); ours: + is right */
        float az = fmodf(360.0f - angles[i], 360.0f), dl, dr;
        ASSERT_EQ(ear_hrtf_lookup(set, az, 0, left, right, &dl, &dr), EAR_OK);
        const double freq[2] = {1000, 4000};
        for (int k = 0; k < 2; k++) {
            double want = 20.0 * log10(magnitude_at(left, set->taps, freq[k], 48000) /
                                       magnitude_at(right, set->taps, freq[k], 48000));
            printf("bell at %+.0f degrees, %.0f Hz: left/right %+.2f dB on headphones (the "
                   "set's filters: %+.2f), %+.2f dB panned\n",
                   (double)angles[i], freq[k], ild[k], want, pan_ild[i][k]);
            ASSERT_NEAR(ild[k], want, 1.0);
        }
        /* the partial's level difference is the set's, not the pan's (which is the same at
         * every frequency) */
        ASSERT_DBL_GT(fabs(ild[1] - pan_ild[i][1]), 3.0);
        printf("bell at %+.0f degrees on headphones: the bot hears it at %+.1f\n",
               (double)angles[i], (double)heard);
        ASSERT_DBL_GT(heard * angles[i], 0); /* on the correct side */
    }
    ear_hrtf_free(set);
    ear_assets_destroy(as);
    ear_stage_destroy(st);
}

/* The bot walking a level with the bell 3 m away at start_deg; its Left and Right keys
 * turn the listener (the bell's bearing moves against the turn), Up moves nothing. The
 * bell's bearing when the bot first walks after its turn told front from behind (NAN if
 * it does not within frames); the bot's log into log. */
static float play_turns(ear_stage *st, ear_assets *as, float start_deg, int frames, char *log,
                        size_t cap) {
    log[0] = '\0';
    FILE *f = tmpfile();
    if (!f) return NAN;
    bot *b = bot_create(false, f);
    if (!b) return NAN;
    bot_hear_line(b,
                  "Level 1: the garden. Follow the bell. Find two sparkles, then the beacon.");
    float deg = start_deg, rad = deg * 3.14159265f / 180.0f;
    ear_play p = {0};
    p.looping = true;
    p.placed = true;
    p.position = (ear_vec3){3.0f * sinf(rad), 0, -3.0f * cosf(rad)};
    ear_voice_id v;
    if (ear_assets_play(as, st, "guide", &p, &v) != EAR_OK) return NAN;
    float buf[800 * 2], walked_at = NAN;
    long told_at = -1;
    for (int i = 0; i < frames; i++) {
        bot_keys k;
        bot_decide(b, &k);
        fflush(f);
        if (told_at < 0) {
            /* the log so far: has the turn told? */
            long end = ftell(f);
            rewind(f);
            size_t n = fread(log, 1, cap - 1, f);
            log[n] = '\0';
            fseek(f, end, SEEK_SET);
            if (strstr(log, "the turn tells")) told_at = i;
        }
        if (told_at >= 0 && k.held[EAR_KEY_UP] && isnan(walked_at)) walked_at = deg;
        if (k.held[EAR_KEY_RIGHT]) deg -= 1.5f;
        if (k.held[EAR_KEY_LEFT]) deg += 1.5f;
        rad = deg * 3.14159265f / 180.0f;
        ear_stage_set_position(st, v, (ear_vec3){3.0f * sinf(rad), 0, -3.0f * cosf(rad)});
        ear_stage_update(st);
        ear_stage_render(st, buf, 800);
        bot_hear_audio(b, buf, 800, 48000);
    }
    bot_destroy(b);
    rewind(f);
    size_t n = fread(log, 1, cap - 1, f);
    log[n] = '\0';
    fclose(f);
    ear_stage_stop(st, v, 0);
    for (int i = 0; i < 4; i++) ear_stage_render(st, buf, 800);
    ear_stage_update(st);
    walked_at = fmodf(walked_at, 360.0f);
    if (walked_at > 180) walked_at -= 360;
    if (walked_at < -180) walked_at += 360;
    return walked_at;
}

static void turns_to_the_bell(ear_stage *st, ear_assets *as, const char *output) {
    const float starts[] = {180, 170, -170, 0, 10};
    static char log[16384];
    for (size_t i = 0; i < sizeof starts / sizeof *starts; i++) {
        float end = play_turns(st, as, starts[i], 400, log, sizeof log);
        const char *want = fabsf(starts[i]) > 90 ? "behind" : "in front";
        const char *told = strstr(log, "the turn tells: the bell is behind")     ? "behind"
                           : strstr(log, "the turn tells: the bell is in front") ? "in front"
                                                                                 : "nothing";
        printf("%s: the bell at %+.0f degrees: the turn tells %s; at %+.1f when it walks\n",
               output, (double)starts[i], told, (double)end);
        ASSERT_STR_EQ(told, want);
        ASSERT_DBL_LT(fabsf(end), 15.0f);
    }
}

TEST(the_bot_turns_to_tell_front_from_behind) {
    ear_stage *st = NULL;
    ASSERT_EQ(ear_stage_create(NULL, &st), EAR_OK);
    ear_assets_config ac = ear_assets_config_default();
    ac.root = DEMO_ASSETS;
    ear_assets *as = NULL;
    ASSERT_EQ(ear_assets_create(&ac, &as), EAR_OK);
    turns_to_the_bell(st, as, "panned");
    ear_hrtf_config hc = ear_hrtf_config_default();
    hc.sample_rate = ear_stage_get_config(st).sample_rate;
    ear_hrtf_set *set = NULL;
    ear_hrtf_error err;
    ASSERT_EQ(ear_hrtf_load(EAR_HRTF_DEFAULT_PATH, &hc, &set, &err), EAR_OK);
    ear_stage_hrtf view = ear_hrtf_stage_view(set);
    ASSERT_EQ(ear_stage_set_hrtf(st, &view), EAR_OK);
    ASSERT_EQ(ear_stage_set_spatializer(st, EAR_SPATIALIZER_HRTF), EAR_OK);
    turns_to_the_bell(st, as, "headphones");
    ear_hrtf_free(set);
    ear_assets_destroy(as);
    ear_stage_destroy(st);
}

TEST_MAIN(TEST_ENTRY(bot_hears_the_bell_where_it_is),
          TEST_ENTRY(the_bot_turns_to_tell_front_from_behind),
          TEST_ENTRY(on_headphones_the_bell_is_heard_through_the_hrtf))
