/* SPDX-License-Identifier: Zlib */
/*
 * Words for positions, directions and speeds: the exact sentences in English and German,
 * through the built-in texts and through a game's own text.
 */
#include "earshot/level.h"
#include "earshot/physics.h"

#include "test.h"

static char text[256];

static const char *position(ear_lang *lang, float facing, float x, float y, float z) {
    text[0] = '\0';
    if (ear_describe_position(lang, ear_vec3_make(0, 0, 0), facing, ear_vec3_make(x, y, z),
                              text, sizeof text, NULL) != EAR_OK)
        return "(error)";
    return text;
}

static const char *direction(ear_lang *lang, float facing, float x, float z,
                             ear_direction_style style) {
    text[0] = '\0';
    if (ear_describe_direction(lang, ear_vec3_make(0, 0, 0), facing, ear_vec3_make(x, 0, z),
                               style, text, sizeof text, NULL) != EAR_OK)
        return "(error)";
    return text;
}

static const char *speed(ear_lang *lang, float mps, ear_speed_unit unit) {
    text[0] = '\0';
    if (ear_describe_speed(lang, mps, unit, text, sizeof text, NULL) != EAR_OK)
        return "(error)";
    return text;
}

TEST(positions_in_english) {
    /* Facing north (-Z): ahead is -Z, left is -X. */
    ASSERT_STR_EQ(position(NULL, 0, -2, 0, -3), "3 meters ahead, 2 to the left");
    ASSERT_STR_EQ(position(NULL, 0, 0, 0, 4), "4 meters behind you");
    ASSERT_STR_EQ(position(NULL, 0, 1, 0, 0), "1 meter to the right");
    ASSERT_STR_EQ(position(NULL, 0, 0, 0, -1.2f), "1 meter ahead");
    ASSERT_STR_EQ(position(NULL, 0, 3, -1, 0), "3 meters to the right, 1 down");
    ASSERT_STR_EQ(position(NULL, 0, 0, 2, 0), "2 meters up");
    ASSERT_STR_EQ(position(NULL, 0, 2.4f, 1, 5), "5 meters behind you, 2 to the right, 1 up");
    ASSERT_STR_EQ(position(NULL, 0, 0.2f, 0.4f, -0.3f), "right here");
    /* Facing east (+X): +X is ahead, -Z (north) is on the left. */
    ASSERT_STR_EQ(position(NULL, 90, 3, 0, 0), "3 meters ahead");
    ASSERT_STR_EQ(position(NULL, 90, 3, 0, -2), "3 meters ahead, 2 to the left");
    /* Far beyond any game: the number stops at 10^12 instead of overflowing. */
    ASSERT_STR_EQ(position(NULL, 0, 0, 0, -3e30f), "1000000000000 meters ahead");
    /* Facing south-west (225): to the north-east is behind. */
    ASSERT_STR_EQ(position(NULL, 225, 5, 0, -5), "7 meters behind you");
}

TEST(positions_in_german) {
    ear_lang *lang = NULL;
    ASSERT_OK(ear_lang_create(NULL, &lang));
    ASSERT_OK(ear_lang_set_language(lang, "de_DE.UTF-8"));
    ASSERT_STR_EQ(position(lang, 0, -2, 0, -3), "3 Meter vor dir, 2 links");
    ASSERT_STR_EQ(position(lang, 0, 0, 0, 4), "4 Meter hinter dir");
    ASSERT_STR_EQ(position(lang, 0, 1, 0, 0), "1 Meter rechts");
    ASSERT_STR_EQ(position(lang, 0, 3, -1, 0), "3 Meter rechts, 1 tiefer");
    ASSERT_STR_EQ(position(lang, 0, 0, 0, 0), "genau hier");
    ear_lang_destroy(lang);
}

TEST(directions_clock_and_compass) {
    ASSERT_STR_EQ(direction(NULL, 0, 0, -5, EAR_DIRECTION_CLOCK), "12 o'clock");
    ASSERT_STR_EQ(direction(NULL, 0, 1, 0, EAR_DIRECTION_CLOCK), "3 o'clock");
    ASSERT_STR_EQ(direction(NULL, 0, 0, 1, EAR_DIRECTION_CLOCK), "6 o'clock");
    ASSERT_STR_EQ(direction(NULL, 0, -1, 0, EAR_DIRECTION_CLOCK), "9 o'clock");
    /* 315 degrees is 10.5 hours: rounds to 11. */
    ASSERT_STR_EQ(direction(NULL, 0, -1, -1, EAR_DIRECTION_CLOCK), "11 o'clock");
    /* 30 degrees right of ahead. */
    ASSERT_STR_EQ(direction(NULL, 0, 0.5f, -0.8660254f, EAR_DIRECTION_CLOCK), "1 o'clock");
    /* Facing east, north is on the left. */
    ASSERT_STR_EQ(direction(NULL, 90, 0, -1, EAR_DIRECTION_CLOCK), "9 o'clock");
    ASSERT_STR_EQ(direction(NULL, -270, 0, -1, EAR_DIRECTION_CLOCK), "9 o'clock");
    ASSERT_STR_EQ(direction(NULL, 0, 1, -1, EAR_DIRECTION_COMPASS), "northeast");
    ASSERT_STR_EQ(direction(NULL, 123, -1, 0, EAR_DIRECTION_COMPASS), "west");
    ASSERT_STR_EQ(direction(NULL, 0, 0, 3, EAR_DIRECTION_COMPASS), "south");
    ASSERT_STR_EQ(direction(NULL, 0, -1, 1, EAR_DIRECTION_COMPASS), "southwest");
    ear_lang *lang = NULL;
    ASSERT_OK(ear_lang_create(NULL, &lang));
    ASSERT_OK(ear_lang_set_language(lang, "de"));
    ASSERT_STR_EQ(direction(lang, 0, 1, 0, EAR_DIRECTION_CLOCK), "3 Uhr");
    ASSERT_STR_EQ(direction(lang, 0, 1, -1, EAR_DIRECTION_COMPASS), "Nordosten");
    ASSERT_STR_EQ(direction(lang, 0, 1, 1, EAR_DIRECTION_COMPASS), "Südosten");
    ear_lang_destroy(lang);
}

TEST(speeds) {
    ASSERT_STR_EQ(speed(NULL, 13.9f, EAR_SPEED_KMH), "50 kilometers per hour");
    ASSERT_STR_EQ(speed(NULL, 1.0f / 3.6f, EAR_SPEED_KMH), "1 kilometer per hour");
    ASSERT_STR_EQ(speed(NULL, 0, EAR_SPEED_KMH), "0 kilometers per hour");
    ASSERT_STR_EQ(speed(NULL, -5.0f / 3.6f, EAR_SPEED_KMH), "5 kilometers per hour, reversing");
    ASSERT_STR_EQ(speed(NULL, 26.8224f, EAR_SPEED_MPH), "60 miles per hour");
    ASSERT_STR_EQ(speed(NULL, 1, EAR_SPEED_MPS), "1 meter per second");
    ear_lang *lang = NULL;
    ASSERT_OK(ear_lang_create(NULL, &lang));
    ASSERT_OK(ear_lang_set_language(lang, "de-at"));
    ASSERT_STR_EQ(speed(lang, 13.9f, EAR_SPEED_KMH), "50 Kilometer pro Stunde");
    ASSERT_STR_EQ(speed(lang, -5.0f / 3.6f, EAR_SPEED_KMH),
                  "5 Kilometer pro Stunde, rückwärts");
    ASSERT_STR_EQ(speed(lang, 0.44704f, EAR_SPEED_MPH), "1 Meile pro Stunde");
    ear_lang_destroy(lang);
}

TEST(a_game_text_overrides_and_small_buffers) {
    ear_lang *lang = NULL;
    ASSERT_OK(ear_lang_create(NULL, &lang));
    ASSERT_OK(ear_lang_set_text(lang, "en", "position.ahead", "{n} paces forward"));
    ASSERT_STR_EQ(position(lang, 0, -2, 0, -3), "3 paces forward, 2 to the left");
    char small[8];
    size_t needed = 0;
    ASSERT_EQ(ear_describe_position(lang, ear_vec3_make(0, 0, 0), 0, ear_vec3_make(0, 0, -3),
                                    small, sizeof small, &needed),
              EAR_E_INVALID_ARG);
    ASSERT_EQ(needed, strlen("3 paces forward"));
    ASSERT_EQ(ear_describe_speed(lang, NAN, EAR_SPEED_KMH, text, sizeof text, NULL),
              EAR_E_INVALID_ARG);
    ASSERT_EQ(ear_describe_position(lang, ear_vec3_make(NAN, 0, 0), 0, ear_vec3_make(0, 0, 0),
                                    text, sizeof text, NULL),
              EAR_E_INVALID_ARG);
    ear_lang_destroy(lang);
}

TEST_MAIN(TEST_ENTRY(positions_in_english), TEST_ENTRY(positions_in_german),
          TEST_ENTRY(directions_clock_and_compass), TEST_ENTRY(speeds),
          TEST_ENTRY(a_game_text_overrides_and_small_buffers))
