/*
 * The bot's ears against the stage: the game's guide bell (its WAV from make_sounds) is
 * placed 3 m from the listener at known angles and rendered; the direction the bot
 * measures from the two ears' Goertzel levels and the bell's dulled partial must match
 * the angle within 1 degree (measured: 0.2), in front by the inverse of the stage's
 * equal-power pan (p = 0.9 sin a), behind too once the dulled partial says "behind" (the
 * 2.5 kHz behind-cue pole takes the 4 kHz partial's share below 0.55 of its share in
 * front) and the angle is mirrored.
 */
#include "bot.h"
#include "test.h"

#include "earshot/assets.h"
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

TEST_MAIN(TEST_ENTRY(bot_hears_the_bell_where_it_is))
