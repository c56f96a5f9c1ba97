/* SPDX-License-Identifier: Zlib */
/*
 * Gamepads in the input (buttons, dead zones, hot-plug, rumble requests) and actions over
 * keys and pads: profiles, pressed / held / repeating / released, axis values, a control
 * held into a new profile, fixed-step edges, the binding text form, saving and loading
 * with unknown entries, the script's pad lines, and a replay of a pad-driven run.
 */
#define _POSIX_C_SOURCE 200809L
#include "earshot/actions.h"
#include "earshot/engine.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

TEST(pad_buttons_follow_the_key_rules_and_unplugging_releases_them) {
    static ear_input in;
    ear_input_init(&in);
    ear_input_pad_button(&in, 0, EAR_PAD_A, true); /* not connected yet: ignored */
    ear_input_begin_frame(&in, 0.0);
    ASSERT_FALSE(ear_input_pad_held(&in, 0, EAR_PAD_A));
    ASSERT_FALSE(ear_input_pad_connected(&in, 0));

    ear_input_pad_added(&in, 1, true);
    ear_input_pad_button(&in, 1, EAR_PAD_A, true);
    ear_input_begin_frame(&in, 1.0);
    ASSERT_TRUE(ear_input_pad_connected_now(&in, 1));
    ASSERT_TRUE(ear_input_pad_connected_now(&in, -1));
    ASSERT_EQ(ear_input_pad_count(&in), 1);
    ASSERT_TRUE(ear_input_pad_pressed(&in, 1, EAR_PAD_A));
    ASSERT_TRUE(ear_input_pad_pressed(&in, -1, EAR_PAD_A));
    ASSERT_FALSE(ear_input_pad_pressed(&in, 0, EAR_PAD_A));
    ASSERT_TRUE(ear_input_pad_step_pressed(&in, 1, EAR_PAD_A));

    ear_input_begin_frame(&in, 1.6);
    ASSERT_FALSE(ear_input_pad_connected_now(&in, 1));
    ASSERT_FALSE(ear_input_pad_pressed(&in, 1, EAR_PAD_A));
    ASSERT_TRUE(ear_input_pad_held(&in, 1, EAR_PAD_A));
    ASSERT_TRUE(ear_input_raw_pad_repeating(&in, 1, EAR_PAD_A, 0.5, 0.1));
    ear_input_set_blocked(&in, true);
    ASSERT_FALSE(ear_input_pad_held(&in, 1, EAR_PAD_A));
    ASSERT_TRUE(ear_input_raw_pad_held(&in, 1, EAR_PAD_A));
    ear_input_set_blocked(&in, false);

    ear_input_pad_axis(&in, 1, EAR_PAD_RIGHT_TRIGGER, 32767);
    ear_input_pad_removed(&in, 1);
    ear_input_begin_frame(&in, 1.7);
    ASSERT_TRUE(ear_input_pad_disconnected_now(&in, 1));
    ASSERT_TRUE(ear_input_pad_released(&in, 1, EAR_PAD_A));
    ASSERT_FALSE(ear_input_pad_held(&in, 1, EAR_PAD_A));
    ASSERT_NEAR(ear_input_pad_axis_value(&in, 1, EAR_PAD_RIGHT_TRIGGER), 0, 0);
    ASSERT_EQ(ear_input_pad_count(&in), 0);
}

TEST(dead_zones_are_radial_on_sticks_and_rescaled_to_reach_one) {
    static ear_input in;
    ear_input_init(&in);
    ear_input_pad_added(&in, 0, false);
    /* 0.2 of the reach on each axis: 0.28 from the centre, past the 0.24 zone. */
    ear_input_pad_axis(&in, 0, EAR_PAD_LEFT_X, 6553);
    ear_input_pad_axis(&in, 0, EAR_PAD_LEFT_Y, 6553);
    /* 0.2 on one axis alone: inside it. */
    ear_input_pad_axis(&in, 0, EAR_PAD_RIGHT_X, 6553);
    ear_input_pad_axis(&in, 0, EAR_PAD_LEFT_TRIGGER, 3276); /* 0.1 < 0.12 */
    ear_input_pad_axis(&in, 0, EAR_PAD_RIGHT_TRIGGER, 32767);
    ear_input_begin_frame(&in, 0);
    float r = 0.2f * 1.41421356f, k = (r - 0.24f) / 0.76f / r;
    ASSERT_NEAR(ear_input_pad_axis_value(&in, 0, EAR_PAD_LEFT_X), 0.2f * k, 1e-3);
    ASSERT_NEAR(ear_input_pad_axis_value(&in, 0, EAR_PAD_LEFT_Y), 0.2f * k, 1e-3);
    ASSERT_NEAR(ear_input_pad_axis_value(&in, 0, EAR_PAD_RIGHT_X), 0, 0);
    ASSERT_NEAR(ear_input_pad_axis_value(&in, 0, EAR_PAD_LEFT_TRIGGER), 0, 0);
    ASSERT_NEAR(ear_input_pad_axis_value(&in, 0, EAR_PAD_RIGHT_TRIGGER), 1, 1e-6);
    ear_input_pad_axis(&in, 0, EAR_PAD_LEFT_X, -32768);
    ear_input_pad_axis(&in, 0, EAR_PAD_LEFT_Y, 0);
    ear_input_begin_frame(&in, 0.1);
    ASSERT_NEAR(ear_input_pad_axis_value(&in, 0, EAR_PAD_LEFT_X), -1, 1e-6);
    ASSERT_EQ(ear_input_set_dead_zones(&in, 1.0f, 0.1f), EAR_E_INVALID_ARG);
    ASSERT_OK(ear_input_set_dead_zones(&in, 0.0f, 0.0f));
    ear_input_begin_frame(&in, 0.2);
    ASSERT_NEAR(ear_input_pad_axis_value(&in, 0, EAR_PAD_RIGHT_X), 6553.0f / 32767.0f, 1e-6);
}

TEST(rumble_is_a_request_left_for_the_backend) {
    static ear_input in;
    ear_input_init(&in);
    ASSERT_EQ(ear_input_pad_rumble(&in, -1, 0.5f, 0.5f, 100), EAR_E_NOT_FOUND);
    ear_input_pad_added(&in, 0, false);
    ear_input_begin_frame(&in, 0);
    ASSERT_EQ(ear_input_pad_rumble(&in, 0, 0.5f, 0.5f, 100), EAR_E_UNSUPPORTED);
    ear_input_pad_added(&in, 2, true);
    ear_input_begin_frame(&in, 0.1);
    ASSERT_EQ(ear_input_pad_rumble(&in, -1, 1.5f, 0.5f, 100), EAR_E_INVALID_ARG);
    ASSERT_OK(ear_input_pad_rumble(&in, -1, 0.75f, 0.25f, 300));
    ASSERT_TRUE(in.pads[2].rumble_pending);
    ASSERT_FALSE(in.pads[0].rumble_pending);
    ASSERT_NEAR(in.pads[2].rumble_low, 0.75f, 0);
    ASSERT_EQ(in.pads[2].rumble_ms, 300);
    ASSERT_EQ(in.pads[2].rumble_count, 1);
}

TEST(pad_names_round_trip) {
    for (int b = 0; b < EAR_PAD_BUTTON_COUNT; b++)
        ASSERT_EQ(ear_pad_button_from_name(ear_pad_button_name((ear_pad_button)b)), b);
    for (int a = 0; a < EAR_PAD_AXIS_COUNT; a++)
        ASSERT_EQ(ear_pad_axis_from_name(ear_pad_axis_name((ear_pad_axis)a)), a);
    ASSERT_STR_EQ(ear_pad_button_name(EAR_PAD_DPAD_UP), "DPUP");
    ASSERT_STR_EQ(ear_pad_axis_name(EAR_PAD_RIGHT_TRIGGER), "RIGHTTRIGGER");
    ASSERT_EQ(ear_pad_button_from_name("start"), EAR_PAD_START);
    ASSERT_EQ(ear_pad_button_from_name("TRIANGLE"), -1);
}

typedef struct rig {
    ear_input in;
    ear_actions a;
    int foot, drive, walk, turn, jump, gas;
} rig;

static void rig_init(rig *r) {
    ear_input_init(&r->in);
    ear_actions_init(&r->a);
    r->foot = ear_actions_add_profile(&r->a, "on_foot");
    r->drive = ear_actions_add_profile(&r->a, "driving");
    r->walk = ear_actions_add(&r->a, "walk", EAR_ACTION_BUTTON);
    r->turn = ear_actions_add(&r->a, "turn", EAR_ACTION_AXIS);
    r->jump = ear_actions_add(&r->a, "jump", EAR_ACTION_BUTTON);
    r->gas = ear_actions_add(&r->a, "gas", EAR_ACTION_AXIS);
    ear_actions_bind(&r->a, r->foot, r->walk, ear_bind_key(EAR_KEY_UP));
    ear_actions_bind(&r->a, r->foot, r->walk, ear_bind_pad(EAR_PAD_DPAD_UP));
    ear_actions_bind(&r->a, r->foot, r->walk, ear_bind_axis(EAR_PAD_LEFT_Y, -1));
    ear_actions_bind(&r->a, r->foot, r->turn, ear_bind_key_dir(EAR_KEY_LEFT, -1));
    ear_actions_bind(&r->a, r->foot, r->turn, ear_bind_key_dir(EAR_KEY_RIGHT, 1));
    ear_actions_bind(&r->a, r->foot, r->turn, ear_bind_axis(EAR_PAD_LEFT_X, 0));
    ear_actions_bind(&r->a, r->foot, r->jump, ear_bind_key(EAR_KEY_ENTER));
    ear_actions_bind(&r->a, r->foot, r->jump, ear_bind_pad(EAR_PAD_A));
    ear_actions_bind(&r->a, r->drive, r->gas, ear_bind_key(EAR_KEY_UP));
    ear_actions_bind(&r->a, r->drive, r->gas, ear_bind_axis(EAR_PAD_RIGHT_TRIGGER, 1));
    ear_actions_keep_defaults(&r->a);
}

static void frame(rig *r, double t) {
    ear_input_begin_frame(&r->in, t);
    ear_actions_update(&r->a, &r->in);
}

TEST(actions_read_keys_and_pads_of_the_active_profile_only) {
    static rig r;
    rig_init(&r);
    ASSERT_EQ(r.walk, 0);
    ASSERT_EQ(ear_actions_add(&r.a, "walk", EAR_ACTION_BUTTON), r.walk);
    ASSERT_EQ(ear_actions_add(&r.a, "walk", EAR_ACTION_AXIS), EAR_E_INVALID_ARG);
    ASSERT_EQ(ear_actions_add(&r.a, "walk forward", EAR_ACTION_BUTTON), EAR_E_INVALID_ARG);
    ASSERT_EQ(ear_actions_find(&r.a, "gas"), r.gas);
    ear_input_pad_added(&r.in, 0, true);
    ear_input_key_down(&r.in, EAR_KEY_UP);
    frame(&r, 0);
    /* No profile active yet: nothing. */
    ASSERT_FALSE(ear_actions_held(&r.a, r.walk));
    ASSERT_OK(ear_actions_set_profile(&r.a, r.foot, NULL));
    frame(&r, 0.1);
    ASSERT_TRUE(ear_actions_pressed(&r.a, r.walk));
    ASSERT_TRUE(ear_actions_held(&r.a, r.walk));
    ASSERT_NEAR(ear_actions_value(&r.a, r.gas), 0, 0); /* gas is the driving profile's */
    /* A second binding going down is no new press; the action stays held until the last
     * binding lets go. */
    ear_input_pad_button(&r.in, 0, EAR_PAD_DPAD_UP, true);
    ear_input_key_up(&r.in, EAR_KEY_UP);
    frame(&r, 0.2);
    ASSERT_FALSE(ear_actions_pressed(&r.a, r.walk));
    ASSERT_TRUE(ear_actions_held(&r.a, r.walk));
    ear_input_pad_button(&r.in, 0, EAR_PAD_DPAD_UP, false);
    frame(&r, 0.3);
    ASSERT_TRUE(ear_actions_released(&r.a, r.walk));
    ASSERT_FALSE(ear_actions_held(&r.a, r.walk));
    /* The stick pushed up past half its reach walks too. */
    ear_input_pad_axis(&r.in, 0, EAR_PAD_LEFT_Y, -30000);
    frame(&r, 0.4);
    ASSERT_TRUE(ear_actions_pressed(&r.a, r.walk));
    ASSERT_NEAR(ear_actions_value(&r.a, r.walk), 1, 0);
    ear_input_pad_axis(&r.in, 0, EAR_PAD_LEFT_Y, 0);

    /* An axis action: keys at -1 / +1, the stick's own value, summed and clipped. */
    ear_input_key_down(&r.in, EAR_KEY_LEFT);
    frame(&r, 0.5);
    ASSERT_NEAR(ear_actions_value(&r.a, r.turn), -1, 0);
    ASSERT_TRUE(ear_actions_held(&r.a, r.turn));
    ear_input_key_down(&r.in, EAR_KEY_RIGHT);
    frame(&r, 0.6);
    ASSERT_NEAR(ear_actions_value(&r.a, r.turn), 0, 0);
    ASSERT_TRUE(ear_actions_released(&r.a, r.turn));
    ear_input_key_up(&r.in, EAR_KEY_LEFT);
    ear_input_key_up(&r.in, EAR_KEY_RIGHT);
    ear_input_pad_axis(&r.in, 0, EAR_PAD_LEFT_X, 32767);
    frame(&r, 0.7);
    ASSERT_NEAR(ear_actions_value(&r.a, r.turn), 1, 1e-6);
    ear_input_pad_axis(&r.in, 0, EAR_PAD_LEFT_X, 0);

    /* Driving: the trigger is the gas, Up too; walk has no binding there. */
    ear_actions_set_profile(&r.a, r.drive, &r.in);
    ear_input_pad_axis(&r.in, 0, EAR_PAD_RIGHT_TRIGGER, 16383);
    frame(&r, 0.8);
    float half = (16383.0f / 32767.0f - 0.12f) / 0.88f;
    ASSERT_NEAR(ear_actions_value(&r.a, r.gas), half, 1e-4);
    ear_input_key_down(&r.in, EAR_KEY_UP);
    frame(&r, 0.9);
    ASSERT_NEAR(ear_actions_value(&r.a, r.gas), 1, 0);
    ASSERT_FALSE(ear_actions_held(&r.a, r.walk));
    /* Blocked input (a UI widget open): nothing. */
    ear_input_set_blocked(&r.in, true);
    ASSERT_NEAR(ear_actions_value(&r.a, r.gas), 0, 0);
    ASSERT_FALSE(ear_actions_held(&r.a, r.gas));
}

TEST(a_control_held_into_a_new_profile_is_ignored_until_let_go) {
    static rig r;
    rig_init(&r);
    ear_actions_set_profile(&r.a, r.drive, NULL);
    ear_input_key_down(&r.in, EAR_KEY_ENTER); /* the menu's confirm, held */
    ear_input_key_down(&r.in, EAR_KEY_UP);
    frame(&r, 0);
    ASSERT_OK(ear_actions_set_profile(&r.a, r.foot, &r.in));
    frame(&r, 0.1);
    ASSERT_FALSE(ear_actions_pressed(&r.a, r.jump));
    ASSERT_FALSE(ear_actions_held(&r.a, r.walk));
    frame(&r, 0.2);
    ASSERT_FALSE(ear_actions_held(&r.a, r.jump));
    ear_input_key_up(&r.in, EAR_KEY_ENTER);
    frame(&r, 0.3);
    ASSERT_FALSE(ear_actions_released(&r.a, r.jump)); /* it never went down here */
    ear_input_key_down(&r.in, EAR_KEY_ENTER);
    frame(&r, 0.4);
    ASSERT_TRUE(ear_actions_pressed(&r.a, r.jump));
    /* Up let go and pressed again within one frame counts as a new press. */
    ear_input_key_up(&r.in, EAR_KEY_UP);
    ear_input_key_down(&r.in, EAR_KEY_UP);
    frame(&r, 0.5);
    ASSERT_TRUE(ear_actions_pressed(&r.a, r.walk));
}

TEST(held_actions_repeat_by_the_players_setting_and_steps_see_their_edges) {
    static rig r;
    rig_init(&r);
    ear_actions_set_profile(&r.a, r.foot, NULL);
    ASSERT_EQ(ear_actions_set_repeat(&r.a, 0.3, 0), EAR_E_INVALID_ARG);
    ASSERT_OK(ear_actions_set_repeat(&r.a, 0.3, 0.1));
    ear_input_pad_added(&r.in, 0, false);
    ear_input_pad_button(&r.in, 0, EAR_PAD_DPAD_UP, true);
    int fired = 0, fired_at[8] = {0};
    for (int f = 0; f <= 36; f++) { /* 0.6 s at 60 frames a second */
        frame(&r, f / 60.0);
        if (ear_actions_repeating(&r.a, r.walk) && fired < 8) fired_at[fired++] = f;
    }
    /* The press, then 0.3, 0.4, 0.5, 0.6 s. */
    ASSERT_EQ(fired, 5);
    ASSERT_EQ(fired_at[0], 0);
    ASSERT_EQ(fired_at[1], 18);
    ASSERT_EQ(fired_at[2], 24);
    ASSERT_EQ(fired_at[4], 36);
    /* A tap between two frames presses (and releases) the action; the edge waits for the
     * next fixed step even when a frame runs none. */
    ear_input_key_down(&r.in, EAR_KEY_ENTER);
    ear_input_key_up(&r.in, EAR_KEY_ENTER);
    frame(&r, 1.0);
    ASSERT_TRUE(ear_actions_pressed(&r.a, r.jump));
    ASSERT_TRUE(ear_actions_released(&r.a, r.jump));
    frame(&r, 1.01); /* no step ran */
    ASSERT_FALSE(ear_actions_pressed(&r.a, r.jump));
    ASSERT_TRUE(ear_actions_step_pressed(&r.a, r.jump));
    ear_actions_end_step(&r.a);
    ASSERT_FALSE(ear_actions_step_pressed(&r.a, r.jump));
}

TEST(bindings_have_a_text_form_conflicts_and_defaults) {
    static rig r;
    rig_init(&r);
    char t[EAR_BINDING_TEXT_MAX];
    ear_binding_format(ear_bind_key_dir(EAR_KEY_LEFT, -1), t, sizeof t);
    ASSERT_STR_EQ(t, "key:LEFT-");
    ear_binding_format(ear_bind_axis(EAR_PAD_LEFT_Y, -1), t, sizeof t);
    ASSERT_STR_EQ(t, "axis:LEFTY-");
    ear_binding_format(ear_bind_axis(EAR_PAD_LEFT_X, 0), t, sizeof t);
    ASSERT_STR_EQ(t, "axis:LEFTX");
    ear_binding_format(ear_bind_pad(EAR_PAD_DPAD_UP), t, sizeof t);
    ASSERT_STR_EQ(t, "pad:DPUP");
    ear_binding b;
    ASSERT_OK(ear_binding_parse("axis:RIGHTTRIGGER+", &b));
    ASSERT_TRUE(ear_binding_same(b, ear_bind_axis(EAR_PAD_RIGHT_TRIGGER, 1)));
    ASSERT_OK(ear_binding_parse("key:esc", &b));
    ASSERT_TRUE(ear_binding_same(b, ear_bind_key(EAR_KEY_ESCAPE)));
    ASSERT_EQ(ear_binding_parse("key:BANANA", &b), EAR_E_FORMAT);
    ASSERT_EQ(ear_binding_parse("mouse:LEFT", &b), EAR_E_FORMAT);
    ASSERT_EQ(ear_binding_parse("UP", &b), EAR_E_FORMAT);

    ASSERT_EQ(ear_actions_conflict(&r.a, r.foot, ear_bind_pad(EAR_PAD_A), r.walk), r.jump);
    ASSERT_EQ(ear_actions_conflict(&r.a, r.foot, ear_bind_pad(EAR_PAD_A), r.jump), -1);
    ASSERT_EQ(ear_actions_conflict(&r.a, r.drive, ear_bind_pad(EAR_PAD_A), -1), -1);
    ASSERT_FALSE(ear_actions_changed(&r.a, -1));
    ASSERT_OK(ear_actions_unbind(&r.a, r.foot, r.walk, ear_bind_key(EAR_KEY_UP)));
    ASSERT_EQ(ear_actions_binding_count(&r.a, r.foot, r.walk), 2);
    ASSERT_TRUE(ear_binding_same(ear_actions_binding_at(&r.a, r.foot, r.walk, 0),
                                 ear_bind_pad(EAR_PAD_DPAD_UP)));
    ASSERT_OK(ear_actions_bind(&r.a, r.foot, r.walk, ear_bind_key(EAR_KEY_W)));
    ASSERT_OK(ear_actions_bind(&r.a, r.foot, r.walk, ear_bind_key(EAR_KEY_I)));
    ASSERT_EQ(ear_actions_bind(&r.a, r.foot, r.walk, ear_bind_key(EAR_KEY_K)), EAR_E_STATE);
    ASSERT_TRUE(ear_actions_changed(&r.a, r.foot));
    ASSERT_FALSE(ear_actions_changed(&r.a, r.drive));
    ear_actions_reset(&r.a, r.foot);
    ASSERT_FALSE(ear_actions_changed(&r.a, -1));
    ASSERT_EQ(ear_actions_binding_count(&r.a, r.foot, r.walk), 3);
}

TEST(saved_bindings_come_back_and_unknown_entries_are_skipped_by_name) {
    static rig r, back;
    rig_init(&r);
    rig_init(&back);
    ear_storage *st;
    ASSERT_OK(ear_storage_create(NULL, &st));
    ear_actions_clear(&r.a, r.foot, r.jump);
    ear_actions_bind(&r.a, r.foot, r.jump, ear_bind_key(EAR_KEY_SPACE));
    ASSERT_OK(ear_actions_save(&r.a, st, "bindings."));
    ASSERT_STR_EQ(ear_storage_get_string(st, "bindings.on_foot.jump", ""), "key:SPACE");
    ASSERT_STR_EQ(ear_storage_get_string(st, "bindings.on_foot.walk", ""),
                  "key:UP,pad:DPUP,axis:LEFTY-");
    ASSERT_FALSE(ear_storage_has(st, "bindings.driving.jump"));
    char what[128];
    ASSERT_EQ(ear_actions_load(&back.a, st, "bindings.", what, sizeof what), 0);
    ASSERT_STR_EQ(what, "");
    ASSERT_TRUE(ear_binding_same(ear_actions_binding_at(&back.a, back.foot, back.jump, 0),
                                 ear_bind_key(EAR_KEY_SPACE)));
    ASSERT_EQ(ear_actions_binding_count(&back.a, back.foot, back.jump), 1);

    /* A save from another version: an action that is gone, a key no one knows. */
    ear_storage_set_string(st, "bindings.on_foot.fly", "key:F");
    ear_storage_set_string(st, "bindings.driving.gas", "key:W,key:BANANA");
    ear_storage_set_string(st, "other.setting", "1");
    ASSERT_EQ(ear_actions_load(&back.a, st, "bindings.", what, sizeof what), 2);
    /* The first skipped in the save's order (driving.gas was saved before fly). */
    ASSERT_STR_EQ(what, "key:BANANA in bindings.driving.gas");
    ear_storage_remove(st, "bindings.driving.gas");
    ASSERT_EQ(ear_actions_load(&back.a, st, "bindings.", what, sizeof what), 1);
    ASSERT_STR_EQ(what, "bindings.on_foot.fly (no such profile or action)");
    ear_storage_set_string(st, "bindings.driving.gas", "key:W,key:BANANA");
    ASSERT_EQ(ear_actions_binding_count(&back.a, back.drive, back.gas), 1);
    ASSERT_TRUE(ear_binding_same(ear_actions_binding_at(&back.a, back.drive, back.gas, 0),
                                 ear_bind_key(EAR_KEY_W)));
    ASSERT_TRUE(ear_binding_same(ear_actions_binding_at(&back.a, back.foot, back.jump, 0),
                                 ear_bind_key(EAR_KEY_SPACE)));
    ear_storage_destroy(st);
}

TEST(capture_reports_the_control_that_went_down) {
    static ear_input in;
    ear_input_init(&in);
    ear_binding b;
    ear_input_begin_frame(&in, 0);
    ASSERT_FALSE(ear_actions_capture(&in, &b));
    ear_input_pad_added(&in, 0, false);
    ear_input_pad_axis(&in, 0, EAR_PAD_LEFT_X, -20000);
    ear_input_begin_frame(&in, 0.1);
    ASSERT_FALSE(ear_actions_capture(&in, &b)); /* 0.61 raw is 0.49 past the dead zone */
    ear_input_pad_axis(&in, 0, EAR_PAD_LEFT_X, -30000);
    ear_input_begin_frame(&in, 0.2);
    ASSERT_TRUE(ear_actions_capture(&in, &b));
    ASSERT_TRUE(ear_binding_same(b, ear_bind_axis(EAR_PAD_LEFT_X, -1)));
    ear_input_begin_frame(&in, 0.3);
    ASSERT_FALSE(ear_actions_capture(&in, &b)); /* still pushed: not a new push */
    ear_input_pad_button(&in, 0, EAR_PAD_Y, true);
    ear_input_begin_frame(&in, 0.4);
    ASSERT_TRUE(ear_actions_capture(&in, &b));
    ASSERT_TRUE(ear_binding_same(b, ear_bind_pad(EAR_PAD_Y)));
}

TEST(script_pad_lines_parse_and_bad_ones_are_named) {
    ear_script s;
    char err[128];
    ASSERT_OK(ear_script_parse("1 pad_connect\n2 pad_down DPUP\n3 pad_axis LEFTX -0.5\n"
                               "4 pad_press start\n5 pad_disconnect\n",
                               &s, err, sizeof err));
    ASSERT_EQ(s.count, 5);
    ASSERT_EQ(s.events[0].action, EAR_SCRIPT_PAD_CONNECT);
    ASSERT_EQ(s.events[1].control, EAR_PAD_DPAD_UP);
    ASSERT_EQ(s.events[2].control, EAR_PAD_LEFT_X);
    ASSERT_NEAR(s.events[2].value, -0.5f, 0);
    ASSERT_EQ(s.events[3].action, EAR_SCRIPT_PAD_PRESS);
    ASSERT_EQ(s.events[3].control, EAR_PAD_START);
    ear_script_free(&s);
    ASSERT_EQ(ear_script_parse("1 pad_down TRIANGLE\n", &s, err, sizeof err), EAR_E_FORMAT);
    ASSERT_STR_EQ(err, "script line 1: unknown pad button 'TRIANGLE'");
    ASSERT_EQ(ear_script_parse("1 pad_axis LEFTX 2\n", &s, err, sizeof err), EAR_E_FORMAT);
    ASSERT_STR_EQ(err, "script line 1: pad_axis LEFTX needs a value from -1 to 1");
    ASSERT_EQ(ear_script_parse("1 pad_axis WHEEL 0.5\n", &s, err, sizeof err), EAR_E_FORMAT);
    ASSERT_STR_EQ(err, "script line 1: unknown pad axis 'WHEEL'");
}

/* A scene driven by actions only: it walks while "walk" is held, turns by "turn",
 * counts jumps in fixed steps; its state hash is what the replay compares. */
typedef struct driver {
    int walk, turn, jump;
    int64_t x;
    double heading;
    uint32_t jumps;
    uint64_t steps;
    bool connected_seen;
    uint64_t hashes[400];
} driver;

static uint64_t driver_hash(ear_ctx *ctx, void *user) {
    (void)ctx;
    driver *d = user;
    uint64_t h = (uint64_t)d->x * 1000003u ^ ((uint64_t)d->jumps << 40);
    h ^= (uint64_t)(int64_t)(d->heading * 1e6) * 0x9e3779b97f4a7c15ull;
    return h;
}

static void driver_start(ear_ctx *ctx, void *user) {
    driver *d = user;
    ear_actions *a = ear_ctx_actions(ctx);
    int p = ear_actions_add_profile(a, "on_foot");
    d->walk = ear_actions_add(a, "walk", EAR_ACTION_BUTTON);
    d->turn = ear_actions_add(a, "turn", EAR_ACTION_AXIS);
    d->jump = ear_actions_add(a, "jump", EAR_ACTION_BUTTON);
    ear_actions_bind(a, p, d->walk, ear_bind_pad(EAR_PAD_DPAD_UP));
    ear_actions_bind(a, p, d->turn, ear_bind_axis(EAR_PAD_LEFT_X, 0));
    ear_actions_bind(a, p, d->jump, ear_bind_pad(EAR_PAD_A));
    ear_ctx_use_profile(ctx, "on_foot");
}

static void driver_update(ear_ctx *ctx, void *user) {
    driver *d = user;
    if (ear_input_pad_connected_now(ear_ctx_input(ctx), -1)) d->connected_seen = true;
}

static void driver_fixed(ear_ctx *ctx, void *user) {
    driver *d = user;
    if (ear_action_held(ctx, d->walk)) d->x++;
    d->heading += ear_action_value(ctx, d->turn);
    if (ear_action_pressed(ctx, d->jump)) d->jumps++;
    if (d->steps < 400) d->hashes[d->steps] = driver_hash(ctx, user);
    d->steps++;
}

static ear_scene driver_scene(driver *d) {
    return (ear_scene){.name = "driver",
                       .start = driver_start,
                       .update = driver_update,
                       .fixed_update = driver_fixed,
                       .hash_state = driver_hash,
                       .user = d};
}

TEST(a_pad_driven_run_replays_exactly) {
    static driver rec, rep;
    memset(&rec, 0, sizeof rec);
    memset(&rep, 0, sizeof rep);
    ear_script script;
    ASSERT_OK(ear_script_parse("5 pad_connect\n10 pad_down DPUP\n40 pad_axis LEFTX 0.73\n"
                               "41 pad_press A\n42 pad_press A\n60 pad_up DPUP\n"
                               "80 pad_axis LEFTX -0.31\n90 pad_disconnect\n"
                               "100 pad_press A\n120 pad_connect\n121 pad_press A\n",
                               &script, NULL, 0));
    char path[] = "/tmp/earshot-pad-replay-XXXXXX";
    int fd = mkstemp(path);
    ASSERT_GE(fd, 0);
    close(fd);
    ear_engine_config cfg = ear_engine_config_default("pads");
    cfg.backend = EAR_BACKEND_HEADLESS;
    cfg.script = &script;
    cfg.frames = 201;
    cfg.record_path = path;
    ear_scene s1 = driver_scene(&rec);
    ASSERT_OK(ear_engine_run(&cfg, &s1));
    ear_script_free(&script);
    ASSERT_TRUE(rec.connected_seen);
    ASSERT_EQ(rec.x, 50);    /* DPUP held from frame 10 to 60 */
    ASSERT_EQ(rec.jumps, 3); /* two presses, none while unplugged, one after */
    /* Stick heading: 40 steps at 0.73 then 10 at -0.31 through the dead zone, and 0 once
     * unplugged. */
    double right = (0.73 - 0.24) / 0.76, left = (0.31 - 0.24) / 0.76;
    ASSERT_NEAR(rec.heading, 40 * right - 10 * left, 1e-3);

    ear_engine_config pcfg = ear_engine_config_default("pads");
    pcfg.replay_path = path;
    ear_scene s2 = driver_scene(&rep);
    ASSERT_OK(ear_engine_run(&pcfg, &s2));
    ASSERT_EQ(rep.steps, rec.steps);
    for (uint64_t i = 0; i < 200; i++) ASSERT_U64_EQ(rep.hashes[i], rec.hashes[i]);
    ASSERT_NEAR(rep.heading, rec.heading, 0);
    unlink(path);
}

TEST_MAIN(TEST_ENTRY(pad_buttons_follow_the_key_rules_and_unplugging_releases_them),
          TEST_ENTRY(dead_zones_are_radial_on_sticks_and_rescaled_to_reach_one),
          TEST_ENTRY(rumble_is_a_request_left_for_the_backend),
          TEST_ENTRY(pad_names_round_trip),
          TEST_ENTRY(actions_read_keys_and_pads_of_the_active_profile_only),
          TEST_ENTRY(a_control_held_into_a_new_profile_is_ignored_until_let_go),
          TEST_ENTRY(held_actions_repeat_by_the_players_setting_and_steps_see_their_edges),
          TEST_ENTRY(bindings_have_a_text_form_conflicts_and_defaults),
          TEST_ENTRY(saved_bindings_come_back_and_unknown_entries_are_skipped_by_name),
          TEST_ENTRY(capture_reports_the_control_that_went_down),
          TEST_ENTRY(script_pad_lines_parse_and_bad_ones_are_named),
          TEST_ENTRY(a_pad_driven_run_replays_exactly))
