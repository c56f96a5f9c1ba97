/* SPDX-License-Identifier: Zlib */
/*
 * Time: the clamp, pause reasons, the scale, the scheduler's rhythm, and the timer,
 * cooldown and interval helpers without an engine.
 */
#include "earshot/time.h"
#include "test.h"

TEST(first_advance_only_records_the_clock) {
    ear_time t;
    ear_time_init(&t);
    ASSERT_NEAR(ear_time_advance(&t, 100.0), 0, 0);
    ASSERT_NEAR(t.game_s, 0, 0);
    ASSERT_NEAR(ear_time_advance(&t, 100.5 - 0.4), 0.1, 1e-9);
    ASSERT_NEAR(t.game_s, 0.1, 1e-9);
    ear_time_deinit(&t);
}

TEST(delta_is_clamped_to_a_quarter_second) {
    ear_time t;
    ear_time_init(&t);
    ear_time_advance(&t, 0);
    ASSERT_NEAR(ear_time_advance(&t, 3.0), 0.25, 1e-12);
    ASSERT_NEAR(t.raw_dt_s, 3.0, 1e-12);
    ASSERT_NEAR(t.game_s, 0.25, 1e-12);
    ASSERT_NEAR(t.real_s, 0.25, 1e-12);
    /* A clock that goes backwards gives a zero delta, never a negative one. */
    ASSERT_NEAR(ear_time_advance(&t, 2.0), 0, 0);
    ear_time_deinit(&t);
}

TEST(pause_reasons_are_a_bit_set) {
    ear_time t;
    ear_time_init(&t);
    ear_time_advance(&t, 0);
    ear_time_pause(&t, EAR_PAUSE_PLAYER);
    ear_time_pause(&t, EAR_PAUSE_FOCUS);
    ear_time_advance(&t, 0.1);
    ASSERT_NEAR(t.game_s, 0, 0);
    ASSERT_NEAR(t.real_s, 0.1, 1e-12);
    /* Regaining focus does not end the player's pause. */
    ear_time_resume(&t, EAR_PAUSE_FOCUS);
    ASSERT_TRUE(ear_time_paused(&t));
    ear_time_advance(&t, 0.2);
    ASSERT_NEAR(t.game_s, 0, 0);
    ear_time_resume(&t, EAR_PAUSE_PLAYER);
    ASSERT_FALSE(ear_time_paused(&t));
    ear_time_advance(&t, 0.3);
    ASSERT_NEAR(t.game_s, 0.1, 1e-12);
    ear_time_deinit(&t);
}

TEST(scale_slows_game_time_only) {
    ear_time t;
    ear_time_init(&t);
    ASSERT_OK(ear_time_set_scale(&t, 0.5));
    ASSERT_EQ(ear_time_set_scale(&t, -1), EAR_E_INVALID_ARG);
    ASSERT_EQ(ear_time_set_scale(&t, NAN), EAR_E_INVALID_ARG);
    ear_time_advance(&t, 0);
    ear_time_advance(&t, 0.2);
    ASSERT_NEAR(t.game_s, 0.1, 1e-12);
    ASSERT_NEAR(t.real_s, 0.2, 1e-12);
    ear_time_deinit(&t);
}

TEST(after_fires_once_and_is_seen_for_one_frame) {
    ear_time t;
    ear_time_init(&t);
    ear_time_advance(&t, 0);
    ASSERT_OK(ear_time_after(&t, "boom", 0.5));
    ASSERT_TRUE(ear_time_scheduled(&t, "boom"));
    int fired = 0;
    for (int f = 1; f <= 60; f++) {
        ear_time_advance(&t, f / 60.0);
        if (ear_time_fired(&t, "boom")) {
            fired++;
            ASSERT_EQ(f, 30); /* 30/60 = 0.5 s */
        }
    }
    ASSERT_EQ(fired, 1);
    ASSERT_FALSE(ear_time_scheduled(&t, "boom"));
    ASSERT_EQ(ear_time_after(&t, "", 1), EAR_E_INVALID_ARG);
    ASSERT_EQ(ear_time_after(&t, "x", -1), EAR_E_INVALID_ARG);
    ASSERT_EQ(ear_time_every(&t, "x", 0), EAR_E_INVALID_ARG);
    ear_time_deinit(&t);
}

TEST(every_keeps_its_rhythm_whatever_the_frames) {
    /* Interval 0.1 s with uneven frames of 0.07 s: the event must fire at the frames
     * that cross 0.1, 0.2, 0.3 ... (due += interval), not drift to 0.14, 0.28 ... */
    ear_time t;
    ear_time_init(&t);
    ear_time_advance(&t, 0);
    ASSERT_OK(ear_time_every(&t, "tick", 0.1));
    int fired = 0;
    double now = 0;
    for (int f = 1; f <= 101; f++) {
        now = f * 0.07;
        ear_time_advance(&t, now);
        if (ear_time_fired(&t, "tick")) fired++;
    }
    /* 7.07 s of game time hold 70 due times (0.1 .. 7.0); a frame of 0.07 s crosses at
     * most one, so each shows as one frame with fired() true. */
    ASSERT_EQ(fired, 70);
    /* The next due time is on the 0.1 grid. */
    ASSERT_NEAR(t.events[0].due_s, 7.1, 1e-9);
    ASSERT_TRUE(ear_time_cancel(&t, "tick"));
    ASSERT_FALSE(ear_time_cancel(&t, "tick"));
    ear_time_deinit(&t);
}

TEST(events_wait_while_paused) {
    ear_time t;
    ear_time_init(&t);
    ear_time_advance(&t, 0);
    ASSERT_OK(ear_time_after(&t, "e", 0.1));
    ear_time_pause(&t, EAR_PAUSE_MENU);
    ear_time_advance(&t, 0.2);
    ASSERT_FALSE(ear_time_fired(&t, "e"));
    ear_time_resume(&t, EAR_PAUSE_MENU);
    ear_time_advance(&t, 0.35); /* 0.15 s of game time now */
    ASSERT_TRUE(ear_time_fired(&t, "e"));
    ear_time_deinit(&t);
}

TEST(timer_cooldown_interval_without_an_engine) {
    ear_timer tm;
    ear_timer_start(&tm, 2.0, 10.0);
    ASSERT_FALSE(ear_timer_done(&tm, 11.0));
    ASSERT_NEAR(ear_timer_remaining_s(&tm, 11.5), 0.5, 1e-12);
    ASSERT_NEAR(ear_timer_progress(&tm, 11.0), 0.5, 1e-12);
    ASSERT_TRUE(ear_timer_done(&tm, 12.0));
    ASSERT_NEAR(ear_timer_elapsed_s(&tm, 9.0), 0, 0);

    ear_cooldown cd;
    ear_cooldown_init(&cd, 0.5);
    ASSERT_TRUE(ear_cooldown_try(&cd, 100.0));
    ASSERT_FALSE(ear_cooldown_try(&cd, 100.2));
    ASSERT_FALSE(ear_cooldown_ready(&cd, 100.49));
    ASSERT_TRUE(ear_cooldown_try(&cd, 100.5));
    ear_cooldown_reset(&cd);
    ASSERT_TRUE(ear_cooldown_ready(&cd, 100.6));

    ear_interval iv;
    ear_interval_init(&iv, 0.25, 0);
    ASSERT_EQ(ear_interval_tick(&iv, 0.2), 0);
    ASSERT_EQ(ear_interval_tick(&iv, 0.3), 1);
    ASSERT_EQ(ear_interval_tick(&iv, 1.1), 3); /* 0.5, 0.75, 1.0 */
    ASSERT_NEAR(iv.due_s, 1.25, 1e-12);        /* rhythm kept */
    ASSERT_DBL_GT(ear_now_s(), 0);
}

TEST_MAIN(TEST_ENTRY(first_advance_only_records_the_clock),
          TEST_ENTRY(delta_is_clamped_to_a_quarter_second),
          TEST_ENTRY(pause_reasons_are_a_bit_set), TEST_ENTRY(scale_slows_game_time_only),
          TEST_ENTRY(after_fires_once_and_is_seen_for_one_frame),
          TEST_ENTRY(every_keeps_its_rhythm_whatever_the_frames),
          TEST_ENTRY(events_wait_while_paused),
          TEST_ENTRY(timer_cooldown_interval_without_an_engine))
