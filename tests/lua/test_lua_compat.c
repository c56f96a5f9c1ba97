/* SPDX-License-Identifier: Zlib */
/*
 * The compat layer (src/lua/compat.lua) against BGT's sound_pool formulas: pan =
 * start_pan + dx * pan_step within -100..100, volume = start_volume - (|dx| + |dy| + |dz|)
 * * volume_step down to -100, pitch lowered by behind_pitch_decrease behind the listener,
 * max_distance on the same sum (-2 out of earshot), ranges, y_is_elevation, owners; and
 * what is heard: rendered headless, the far channel of a pan of 10 is 10 dB below the near
 * one, and volume_step is dB per unit, measured as RMS ratios.
 */
#include "lua_helpers.h"
#include "test.h"

#include <math.h>

static ear_lua_game *make(const char *name, const char *text) {
    char path[700];
    lua_test_folder(name, text, path, sizeof path);
    ear_lua_config c = ear_lua_config_default();
    c.script_path = path;
    ear_lua_game *g = NULL;
    char error[1024];
    if (ear_lua_game_create(&c, &g, error, sizeof error) != EAR_OK) {
        fprintf(stderr, "create: %s\n", error);
        return NULL;
    }
    return g;
}

/* Runs a script for 5 frames: no errors (each failed check is a Lua error naming its
 * line), and the summary it set. */
static const char *run_checks(const char *name, const char *text, uint64_t *errors) {
    static char summary[512];
    ear_lua_game *g = make(name, text);
    if (!g) {
        *errors = 1;
        return "";
    }
    lua_test_run(g, 5, NULL);
    *errors = ear_lua_game_errors(g);
    if (*errors) fprintf(stderr, "%s\n", ear_lua_game_last_error(g));
    snprintf(summary, sizeof summary, "%s", ear_lua_game_summary(g));
    ear_lua_game_destroy(g);
    return summary;
}

static const char prelude[] =
    "local C = require('earshot.compat')\n"
    "local function near(a, b, what) if math.abs(a - b) > 1e-9 then error(what .. ': ' .. "
    "tostring(a) .. ' expected ' .. tostring(b), 2) end end\n"
    "local S = 'synth:sine:440:2:0.25'\n";

TEST(sound_pool_numbers_follow_bgts_formulas) {
    char text[6000];
    snprintf(
        text, sizeof text, "%s%s", prelude,
        "local p = C.sound_pool()\n"
        "near(p.pan_step, 1, 'default pan_step') near(p.volume_step, 1, 'default "
        "volume_step')\n"
        "near(p.behind_pitch_decrease, 0.25, 'default behind_pitch_decrease')\n"
        /* 10 units right at pan_step 1: pan 10, volume -10 dB */
        "local s = p:play_2d(S, 0, 0, 10, 0, false)\n"
        "assert(math.type(s) == 'integer' and s >= 0, 'a slot')\n"
        "local pan, vol, pitch = p:get_sound_values(s)\n"
        "near(pan, 10, 'pan') near(vol, -10, 'volume') near(pitch, 100, 'pitch')\n"
        /* 4 left at pan_step 2.5, volume_step 1.5: pan -10, volume -6 */
        "p.pan_step, p.volume_step = 2.5, 1.5\n"
        "s = p:play_2d(S, 0, 0, -4, 0, false)\n"
        "pan, vol = p:get_sound_values(s) near(pan, -10, 'pan 2.5') near(vol, -6, 'vol 1.5')\n"
        /* behind (y below the listener's): pitch 100 - 0.25; |dy| counts in volume */
        "p.pan_step, p.volume_step = 1, 1\n"
        "s = p:play_2d(S, 0, 0, 3, -5, false)\n"
        "pan, vol, pitch = p:get_sound_values(s)\n"
        "near(pan, 3, 'pan behind') near(vol, -8, 'vol behind') near(pitch, 99.75, 'pitch "
        "behind')\n"
        /* clamped: pan at 100, volume at -100 */
        "s = p:play_2d(S, 0, 0, 250, 0, false)\n"
        "pan, vol = p:get_sound_values(s) near(pan, 100, 'pan clamp') near(vol, -100, 'vol "
        "clamp')\n"
        /* the listener moves: the sound is positioned again */
        "s = p:play_1d(S, 0, 6, true)\n"
        "p:update_listener_1d(8)\n"
        "pan, vol = p:get_sound_values(s) near(pan, -2, 'moved pan') near(vol, -2, 'moved "
        "vol')\n"
        /* ranges: inside them the sound is at full level and centred */
        "s = p:play_extended_2d(S, 7, 0, 10, 0, 5, 5, 0, 0, false, 0, 0, 0, 100)\n"
        "pan, vol = p:get_sound_values(s) near(pan, 0, 'range pan') near(vol, 0, 'range vol')\n"
        /* start values */
        "s = p:play_stationary_extended(S, false, 0, -30, -12, 150)\n"
        "pan, vol, pitch = p:get_sound_values(s)\n"
        "near(pan, -30, 'st pan') near(vol, -12, 'st vol') near(pitch, 150, 'st pitch')\n"
        /* 3D: dz counts; behind on y; with y_is_elevation, y is up and z is forward */
        "s = p:play_3d(S, 0, 0, 0, 2, -1, 3, false)\n"
        "pan, vol, pitch = p:get_sound_values(s)\n"
        "near(pan, 2, '3d pan') near(vol, -6, '3d vol') near(pitch, 99.75, '3d behind')\n"
        "p.y_is_elevation = true\n"
        "pan, vol, pitch = p:get_sound_values(s) near(pitch, 100, 'elevation: y is up')\n"
        "s = p:play_3d(S, 0, 0, 0, 0, 4, -1, false)\n"
        "pan, vol, pitch = p:get_sound_values(s) near(pitch, 99.75, 'elevation: z behind')\n"
        "p.y_is_elevation = false\n"
        /* max_distance on the sum of the axes: 3 + 3 = 6 > 5 is out of earshot */
        "p.max_distance = 5\n"
        "assert(p:play_2d(S, 0, 0, 3, 3, false) == -2, 'out of earshot')\n"
        "assert(p:play_2d(S, 0, 0, 3, 2, false) >= 0, 'in earshot at 5')\n"
        /* a loop out of reach waits, and starts when the listener comes near */
        "local loop = p:play_2d(S, 0, 0, 20, 0, true)\n"
        "assert(loop >= 0 and not p:sound_is_playing(loop), 'waiting loop')\n"
        "p:update_listener_2d(18, 0) assert(p:sound_is_playing(loop), 'loop started')\n"
        "p:update_listener_2d(0, 0) assert(not p:sound_is_playing(loop), 'loop stopped')\n"
        "p.max_distance = 0\n"
        /* errors: -1 for no file, and for a sound that cannot be found */
        "assert(p:play_stationary('', false) == -1, 'empty name')\n"
        "assert(p:play_stationary('no-such-sound.wav', false) == -1, 'missing sound')\n"
        /* owners and destroy_sound */
        "local a = p:play_stationary(S, true) local b = p:play_stationary(S, true)\n"
        "p:set_sound_owner(a, 'door') p:set_sound_owner(b, 'door')\n"
        "assert(p:destroy_owner('door') == 2, 'owner') assert(not p:sound_is_active(a))\n"
        "assert(p:destroy_sound(a) == false, 'destroyed twice')\n"
        /* the stage pan of a BGT pan: far channel 10^(-|p|/20) */
        "near(C.stage_pan(10), 1 - 10 ^ (-0.5), 'stage pan') near(C.stage_pan(-100), -(1 - "
        "1e-5), 'pan -100')\n"
        "earshot.summary('checked')\n");
    uint64_t errors = 0;
    ASSERT_STR_EQ(run_checks("formulas", text, &errors), "checked");
    ASSERT_EQ(errors, 0);
}

/* The level a script's sound reaches each ear, rendered: frames 10..59. */
static lua_test_audio heard(const char *name, const char *body) {
    char text[2000];
    snprintf(text, sizeof text, "%s%s", prelude, body);
    lua_test_audio a = {.from = 10};
    ear_lua_game *g = make(name, text);
    if (!g) return a;
    lua_test_run_heard(g, 60, NULL, &a);
    if (ear_lua_game_errors(g)) fprintf(stderr, "%s\n", ear_lua_game_last_error(g));
    ear_lua_game_destroy(g);
    return a;
}

static double db(double ratio_of_sums) {
    return 10.0 * log10(ratio_of_sums);
}

TEST(the_pan_and_volume_are_heard_as_bgt_promises) {
    /* the reference: centred at -20 dB */
    lua_test_audio ref = heard("ref", "local p = C.sound_pool()\n"
                                      "p:play_stationary_extended(S, true, 0, 0, -20, 100)\n");
    ASSERT_GT(ref.samples, 0);
    ASSERT_NEAR(db(ref.sum_l / ref.sum_r), 0.0, 0.01);
    /* 10 units right at pan_step 1, volume_step 0.5, start_volume -20: pan 10 and -25 dB */
    lua_test_audio right =
        heard("right", "local p = C.sound_pool()\n"
                       "p.volume_step = 0.5\n"
                       "p:play_extended_2d(S, 0, 0, 10, 0, 0, 0, 0, 0, true, "
                       "0, 0, -20, 100)\n");
    ASSERT_NEAR(db(right.sum_l / right.sum_r), -10.0, 0.05); /* the far channel: 10 dB down */
    ASSERT_NEAR(db(right.sum_r / ref.sum_r), -5.0, 0.05);    /* the near: volume -5 dB */
    /* volume_step is dB per unit: 8 units at 1.5 dB is 6 dB below 4 units */
    lua_test_audio four =
        heard("four", "local p = C.sound_pool()\n"
                      "p.volume_step, p.pan_step = 1.5, 0\n"
                      "p:play_extended_1d(S, 0, 4, 0, 0, true, 0, 0, -10, 100)\n");
    lua_test_audio eight =
        heard("eight", "local p = C.sound_pool()\n"
                       "p.volume_step, p.pan_step = 1.5, 0\n"
                       "p:play_extended_1d(S, 0, 8, 0, 0, true, 0, 0, -10, 100)\n");
    ASSERT_NEAR(db(eight.sum_l / four.sum_l), -6.0, 0.05);
    ASSERT_NEAR(db(four.sum_l / ref.sum_l), -10.0 + 20.0 - 6.0, 0.05);
}

TEST(the_bgt_globals_install_and_speak) {
    uint64_t errors = 0;
    const char *s = run_checks("globals",
                               "require('earshot.compat').install()\n"
                               "assert(KEY_RETURN == 'ENTER' and KEY_LEFT == 'LEFT')\n"
                               "assert(screen_reader_speak('hello', true) == true)\n"
                               "local t = timer() wait(50) assert(t:elapsed() >= 50)\n"
                               "local r = random(3, 5) assert(r >= 3 and r <= 5)\n"
                               "assert(earshot.spoken() == 1)\n"
                               "earshot.summary('globals ok')\n",
                               &errors);
    ASSERT_EQ(errors, 0);
    ASSERT_STR_EQ(s, "globals ok");
}

/* An audio_form driven by keys: Tab to the checkbox, Space checks it, Tab to the list,
 * Down twice, Tab to the slider, Right three times, Tab to the button and Enter. */
TEST(audio_form_controls_answer_keys) {
    char path[700];
    lua_test_folder(
        "form",
        "require('earshot.compat').install()\n"
        "local f = audio_form()\n"
        "f:create_window('Options')\n"
        "local name = f:create_input_box('Name', 'Al')\n"
        "local sound = f:create_checkbox('Sound', false)\n"
        "local list = f:create_list('Level')\n"
        "f:add_list_item(list, 'one') f:add_list_item(list, 'two') f:add_list_item(list, "
        "'three')\n"
        "local vol = f:create_slider('Volume', 50, 0, 100, 5)\n"
        "local ok = f:create_button('OK', true, false)\n"
        "while true do\n"
        "  f:monitor()\n"
        "  if f:is_pressed(ok) then\n"
        "    earshot.summary(string.format('%s %s %d %d', f:get_text(name), "
        "tostring(f:is_checked(sound)), f:get_list_position(list), f:get_slider(vol)))\n"
        "    exit()\n"
        "  end\n"
        "  wait(5)\n"
        "end\n",
        path, sizeof path);
    ear_lua_config c = ear_lua_config_default();
    c.script_path = path;
    ear_lua_game *g = NULL;
    ASSERT_EQ(ear_lua_game_create(&c, &g, NULL, 0), EAR_OK);
    ear_script keys = {0};
    ASSERT_EQ(ear_script_parse("3 text ex\n5 press TAB\n7 press SPACE\n9 press TAB\n"
                               "11 press DOWN\n13 press DOWN\n15 press TAB\n17 press RIGHT\n"
                               "19 press RIGHT\n21 press RIGHT\n23 press TAB\n25 press ENTER\n",
                               &keys, NULL, 0),
              EAR_OK);
    ASSERT_LT(lua_test_run(g, 100, &keys), 100); /* exit() quit the game */
    ASSERT_EQ(ear_lua_game_errors(g), 0);
    ASSERT_STR_EQ(ear_lua_game_summary(g), "Alex true 2 65");
    ear_script_free(&keys);
    ear_lua_game_destroy(g);
}

TEST_MAIN(TEST_ENTRY(sound_pool_numbers_follow_bgts_formulas),
          TEST_ENTRY(the_pan_and_volume_are_heard_as_bgt_promises),
          TEST_ENTRY(the_bgt_globals_install_and_speak),
          TEST_ENTRY(audio_form_controls_answer_keys))
