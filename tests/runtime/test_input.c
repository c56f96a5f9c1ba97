/* SPDX-License-Identifier: Zlib */
/*
 * Input edge cases: press and release within one frame, OS repeats, repeating() from
 * held times alone, blocking and the raw view, focus loss, text, fixed-step edges, key
 * names, and the headless script's text form.
 */
#include "earshot/engine.h"
#include "earshot/input.h"
#include "test.h"

TEST(press_and_release_in_one_frame_counts_as_pressed) {
    static ear_input in;
    ear_input_init(&in);
    ear_input_key_down(&in, EAR_KEY_SPACE);
    ear_input_key_up(&in, EAR_KEY_SPACE);
    ear_input_begin_frame(&in, 1.0);
    ASSERT_TRUE(ear_input_pressed(&in, EAR_KEY_SPACE));
    ASSERT_TRUE(ear_input_released(&in, EAR_KEY_SPACE));
    ASSERT_FALSE(ear_input_held(&in, EAR_KEY_SPACE));
    ear_input_begin_frame(&in, 1.1);
    ASSERT_FALSE(ear_input_pressed(&in, EAR_KEY_SPACE));
    ASSERT_FALSE(ear_input_released(&in, EAR_KEY_SPACE));
}

TEST(pressed_held_released_across_frames) {
    static ear_input in;
    ear_input_init(&in);
    ear_input_key_down(&in, EAR_KEY_A);
    ear_input_begin_frame(&in, 0.0);
    ASSERT_TRUE(ear_input_pressed(&in, EAR_KEY_A));
    ASSERT_TRUE(ear_input_held(&in, EAR_KEY_A));
    ear_input_begin_frame(&in, 0.5);
    ASSERT_FALSE(ear_input_pressed(&in, EAR_KEY_A));
    ASSERT_TRUE(ear_input_held(&in, EAR_KEY_A));
    ASSERT_NEAR(ear_input_held_s(&in, EAR_KEY_A), 0.5, 1e-12);
    ear_input_key_up(&in, EAR_KEY_A);
    ear_input_begin_frame(&in, 0.6);
    ASSERT_TRUE(ear_input_released(&in, EAR_KEY_A));
    ASSERT_FALSE(ear_input_held(&in, EAR_KEY_A));
    ASSERT_NEAR(ear_input_held_s(&in, EAR_KEY_A), 0, 0);
    /* A release without a press is ignored. */
    ear_input_key_up(&in, EAR_KEY_B);
    ear_input_begin_frame(&in, 0.7);
    ASSERT_FALSE(ear_input_released(&in, EAR_KEY_B));
}

TEST(down_for_a_held_key_is_an_os_repeat) {
    static ear_input in;
    ear_input_init(&in);
    ear_input_key_down(&in, EAR_KEY_LEFT);
    ear_input_begin_frame(&in, 0.0);
    ear_input_key_down(&in, EAR_KEY_LEFT);
    ear_input_key_down(&in, EAR_KEY_LEFT);
    ear_input_begin_frame(&in, 0.1);
    ASSERT_FALSE(ear_input_pressed(&in, EAR_KEY_LEFT));
    ASSERT_EQ(ear_input_os_repeats(&in, EAR_KEY_LEFT), 2);
    ASSERT_NEAR(ear_input_held_s(&in, EAR_KEY_LEFT), 0.1, 1e-12); /* hold not restarted */
}

TEST(repeating_fires_at_delay_then_every_interval) {
    /* delay 0.5 s, every 0.1 s, frames at exactly f / 60 s (as headless runs step) for 1 s
     * of holding: true on the press, then at frames 30, 36, 42, 48, 54, 60 (0.5 .. 1.0 s,
     * each on a frame time) -> 1 + 6 frames. */
    static ear_input in;
    ear_input_init(&in);
    ear_input_key_down(&in, EAR_KEY_DOWN);
    int hits = 0, frames[8], nframes = 0;
    for (int f = 0; f <= 60; f++) {
        ear_input_begin_frame(&in, f / 60.0);
        if (ear_input_repeating(&in, EAR_KEY_DOWN, 0.5, 0.1)) {
            hits++;
            if (f > 0 && nframes < 8) frames[nframes++] = f;
        }
    }
    ASSERT_EQ(hits, 7);
    for (int i = 0; i < 6 && i < nframes; i++) ASSERT_EQ(frames[i], 30 + 6 * i);
    /* Other steps that are multiples: 1/120 s frames, and 0.05 s frames against 0.15 s. */
    static ear_input in2;
    ear_input_init(&in2);
    ear_input_key_down(&in2, EAR_KEY_UP);
    hits = 0;
    for (int f = 0; f <= 120; f++) {
        ear_input_begin_frame(&in2, f / 120.0);
        hits += ear_input_repeating(&in2, EAR_KEY_UP, 0.25, 0.25); /* 0.25, 0.5, 0.75, 1 */
    }
    ASSERT_EQ(hits, 1 + 4);
    ear_input_init(&in2);
    ear_input_key_down(&in2, EAR_KEY_UP);
    hits = 0;
    for (int f = 0; f <= 20; f++) {
        ear_input_begin_frame(&in2, f * 0.05);
        hits += ear_input_repeating(&in2, EAR_KEY_UP, 0.3, 0.15); /* 0.3 .. 0.9: 5 points */
    }
    ASSERT_EQ(hits, 1 + 5);
    /* A frame long enough to cross several points reports once. */
    ear_input_begin_frame(&in, 2.0);
    ASSERT_TRUE(ear_input_repeating(&in, EAR_KEY_DOWN, 0.5, 0.1));
    ear_input_begin_frame(&in, 2.0);
    ASSERT_FALSE(ear_input_repeating(&in, EAR_KEY_DOWN, 0.5, 0.1));
}

TEST(blocking_hides_keys_but_not_the_raw_view) {
    static ear_input in;
    ear_input_init(&in);
    ear_input_set_blocked(&in, true);
    ear_input_key_down(&in, EAR_KEY_ENTER);
    ear_input_text(&in, "x");
    ear_input_begin_frame(&in, 0);
    ASSERT_FALSE(ear_input_pressed(&in, EAR_KEY_ENTER));
    ASSERT_FALSE(ear_input_held(&in, EAR_KEY_ENTER));
    ASSERT_FALSE(ear_input_repeating(&in, EAR_KEY_ENTER, 0, 0.1));
    ASSERT_STR_EQ(ear_input_get_text(&in), "");
    ASSERT_TRUE(ear_input_raw_pressed(&in, EAR_KEY_ENTER));
    ASSERT_TRUE(ear_input_raw_held(&in, EAR_KEY_ENTER));
    ASSERT_TRUE(ear_input_raw_repeating(&in, EAR_KEY_ENTER, 0, 0.1));
    ASSERT_STR_EQ(ear_input_raw_text(&in), "x");
    ear_input_set_blocked(&in, false);
    ASSERT_TRUE(ear_input_held(&in, EAR_KEY_ENTER));
}

TEST(focus_loss_releases_every_held_key) {
    static ear_input in;
    ear_input_init(&in);
    ear_input_key_down(&in, EAR_KEY_W);
    ear_input_key_down(&in, EAR_KEY_LSHIFT);
    ear_input_begin_frame(&in, 0);
    ear_input_focus_lost(&in);
    ear_input_begin_frame(&in, 0.1);
    ASSERT_TRUE(ear_input_released(&in, EAR_KEY_W));
    ASSERT_TRUE(ear_input_released(&in, EAR_KEY_LSHIFT));
    ASSERT_FALSE(ear_input_held(&in, EAR_KEY_W));
}

TEST(text_is_collected_per_frame_and_cut_on_utf8_boundaries) {
    static ear_input in;
    ear_input_init(&in);
    ear_input_text(&in, "Grü");
    ear_input_text(&in, "ße");
    ear_input_begin_frame(&in, 0);
    ASSERT_STR_EQ(ear_input_get_text(&in), "Grüße");
    ear_input_begin_frame(&in, 0.1);
    ASSERT_STR_EQ(ear_input_get_text(&in), "");
    /* 40 two-byte characters: one event keeps 15 whole characters (30 of 31 bytes). */
    char big[81];
    for (int i = 0; i < 40; i++) {
        big[2 * i] = (char)0xC3;
        big[2 * i + 1] = (char)0xA4; /* ä */
    }
    big[80] = '\0';
    ear_input_text(&in, big);
    ear_input_begin_frame(&in, 0.2);
    ASSERT_EQ(strlen(ear_input_get_text(&in)), 30);
}

TEST(full_queue_drops_and_counts) {
    static ear_input in;
    ear_input_init(&in);
    for (int i = 0; i < EAR_INPUT_QUEUE_MAX + 5; i++) ear_input_key_down(&in, EAR_KEY_X);
    ASSERT_EQ(in.dropped, 5);
    ear_input_key_down(&in, (ear_key)9999); /* not a key: ignored, not dropped */
    ASSERT_EQ(in.dropped, 5);
}

TEST(step_edges_reach_exactly_one_fixed_step) {
    static ear_input in;
    ear_input_init(&in);
    ear_input_key_down(&in, EAR_KEY_J);
    ear_input_begin_frame(&in, 0);
    /* A frame with no fixed step: the edge waits for the next step. */
    ear_input_begin_frame(&in, 0.01);
    ASSERT_FALSE(ear_input_pressed(&in, EAR_KEY_J));
    ASSERT_TRUE(ear_input_step_pressed(&in, EAR_KEY_J));
    ear_input_end_step(&in); /* the step saw it */
    ASSERT_FALSE(ear_input_step_pressed(&in, EAR_KEY_J));
    ASSERT_TRUE(ear_input_held(&in, EAR_KEY_J));
}

TEST(key_names_round_trip) {
    for (int k = 1; k < EAR_KEY_COUNT; k++)
        ASSERT_EQ(ear_key_from_name(ear_key_name((ear_key)k)), k);
    ASSERT_EQ(ear_key_from_name("space"), EAR_KEY_SPACE);
    ASSERT_EQ(ear_key_from_name("Esc"), EAR_KEY_ESCAPE);
    ASSERT_EQ(ear_key_from_name("nope"), EAR_KEY_UNKNOWN);
    ASSERT_STR_EQ(ear_key_name((ear_key)-3), "UNKNOWN");
}

TEST(script_text_parses_and_names_bad_lines) {
    ear_script s;
    char err[128];
    ASSERT_OK(ear_script_parse("# a comment\n"
                               "10 down SPACE\n"
                               "\n"
                               "12 up space\r\n"
                               "  20 press F1  \n"
                               "30 text hello world\n"
                               "40 focus_lost\n"
                               "41 focus_gained\n"
                               "50 quit",
                               &s, err, sizeof err));
    ASSERT_EQ(s.count, 7);
    ASSERT_EQ(s.events[0].frame, 10);
    ASSERT_EQ(s.events[0].action, EAR_SCRIPT_DOWN);
    ASSERT_EQ(s.events[0].key, EAR_KEY_SPACE);
    ASSERT_EQ(s.events[1].action, EAR_SCRIPT_UP);
    ASSERT_EQ(s.events[2].action, EAR_SCRIPT_PRESS);
    ASSERT_EQ(s.events[2].key, EAR_KEY_F1);
    ASSERT_STR_EQ(s.events[3].text, "hello world");
    ASSERT_EQ(s.events[4].action, EAR_SCRIPT_FOCUS_LOST);
    ASSERT_EQ(s.events[6].action, EAR_SCRIPT_QUIT);
    ear_script_free(&s);

    ASSERT_EQ(ear_script_parse("1 down SPACE\n2 down BANANA\n", &s, err, sizeof err),
              EAR_E_FORMAT);
    ASSERT_STR_EQ(err, "script line 2: unknown key 'BANANA'");
    ASSERT_EQ(ear_script_parse("x down A\n", &s, err, sizeof err), EAR_E_FORMAT);
    ASSERT_STR_EQ(err, "script line 1: expected a frame number");
    ASSERT_EQ(ear_script_parse("3 jump\n", &s, NULL, 0), EAR_E_FORMAT);
}

TEST_MAIN(TEST_ENTRY(press_and_release_in_one_frame_counts_as_pressed),
          TEST_ENTRY(pressed_held_released_across_frames),
          TEST_ENTRY(down_for_a_held_key_is_an_os_repeat),
          TEST_ENTRY(repeating_fires_at_delay_then_every_interval),
          TEST_ENTRY(blocking_hides_keys_but_not_the_raw_view),
          TEST_ENTRY(focus_loss_releases_every_held_key),
          TEST_ENTRY(text_is_collected_per_frame_and_cut_on_utf8_boundaries),
          TEST_ENTRY(full_queue_drops_and_counts),
          TEST_ENTRY(step_edges_reach_exactly_one_fixed_step), TEST_ENTRY(key_names_round_trip),
          TEST_ENTRY(script_text_parses_and_names_bad_lines))
