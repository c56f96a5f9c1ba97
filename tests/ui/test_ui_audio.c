/* SPDX-License-Identifier: Zlib */
/*
 * What the UI sounds like, measured on the rendered stage: each UI sound slot's tone
 * (ear_ui_builtin_hz) appears when its action happens, on the ui bus (muting that bus
 * silences it), and not at all when UI sounds are muted; per-menu overrides replace one
 * slot or the whole set; widget music crossfades in and out by tone envelopes; the music
 * is ducked while the UI speaks when a duck rule asks.
 */
#include "test.h"
#include "ui_harness.h"

#include "earshot/analysis.h"
#include "earshot/assets.h"
#include "earshot/mixer.h"
#include "earshot/synth.h"

/* A window of 0.25 s around a sound that starts at `start` (the first audio frame of
 * the frame whose update played it): 0.05 s before, 0.2 s after. */
#define WIN_BEFORE 2400
#define WIN        12000

static double tone_at(const harness *h, size_t start, double hz) {
    size_t from = start > WIN_BEFORE ? start - WIN_BEFORE : 0;
    size_t n = WIN;
    if (from + n > h->audio_frames) n = h->audio_frames - from;
    return ear_tone_amplitude(h->audio + 2 * from, n, 2, 0, H_RATE, hz);
}

/* The tone over one window of `frames` frames starting at `from`. */
static double tone_in(const harness *h, size_t from, size_t frames, double hz) {
    if (from + frames > h->audio_frames) return -1;
    return ear_tone_amplitude(h->audio + 2 * from, frames, 2, 0, H_RATE, hz);
}

/* ---- Every slot ---------------------------------------------------------------------- */

typedef enum sound_mode { SOUNDS_ON, SOUNDS_MUTED, UI_BUS_MUTED } sound_mode;

/* Runs the form through an action per slot; writes each slot's start frame. */
static void run_slots(harness *h, size_t starts[EAR_UI_SOUND_COUNT]) {
    ear_ui_menu *f;
    ear_ui_menu_create(&(ear_ui_menu_config){.id = "f", .role = EAR_UI_ROLE_FORM}, &f);
    ear_ui_menu_add(f, &(ear_ui_item){.id = "t", .kind = EAR_UI_TOGGLE});
    ear_ui_menu_add(f,
                    &(ear_ui_item){.id = "s", .kind = EAR_UI_SLIDER, .value = 95, .step = 5});
    ear_ui_menu_add(f, &(ear_ui_item){.id = "b"});
    ear_ui_menu_add(f, &(ear_ui_item){.id = "d", .disabled = true});
    ear_ui_menu_add(f, &(ear_ui_item){.id = "x", .kind = EAR_UI_TEXT});
    h_frames(h, 10);
#define MARK(slot) starts[slot] = h->audio_frames
#define GAP        h_frames(h, 30)
    ear_ui_open_menu(h->ctx, f);
    MARK(EAR_UI_SOUND_OPEN);
    h_frame(h);
    GAP;
    MARK(EAR_UI_SOUND_NAVIGATE);
    h_press(h, EAR_KEY_TAB); /* toggle -> slider */
    GAP;
    MARK(EAR_UI_SOUND_SLIDER);
    h_press(h, EAR_KEY_RIGHT); /* 95 -> 100 */
    GAP;
    MARK(EAR_UI_SOUND_EDGE);
    h_press(h, EAR_KEY_RIGHT); /* at 100 */
    GAP;
    h_press_with(h, EAR_KEY_LSHIFT, EAR_KEY_TAB); /* back to the toggle */
    GAP;
    MARK(EAR_UI_SOUND_TOGGLE_ON);
    h_press(h, EAR_KEY_SPACE);
    GAP;
    MARK(EAR_UI_SOUND_TOGGLE_OFF);
    h_press(h, EAR_KEY_SPACE);
    GAP;
    MARK(EAR_UI_SOUND_WRAP);
    h_press_with(h, EAR_KEY_LSHIFT, EAR_KEY_TAB); /* first -> last: the text field */
    GAP;
    MARK(EAR_UI_SOUND_TYPE);
    h_type(h, "a");
    GAP;
    MARK(EAR_UI_SOUND_DELETE);
    h_press(h, EAR_KEY_BACKSPACE);
    GAP;
    h_press(h, EAR_KEY_TAB); /* wraps to the toggle */
    h_press(h, EAR_KEY_TAB);
    h_press(h, EAR_KEY_TAB); /* the button */
    GAP;
    MARK(EAR_UI_SOUND_ACTIVATE);
    h_press(h, EAR_KEY_ENTER);
    GAP;
    h_press(h, EAR_KEY_TAB); /* the disabled button */
    GAP;
    MARK(EAR_UI_SOUND_ERROR);
    h_press(h, EAR_KEY_ENTER);
    GAP;
    MARK(EAR_UI_SOUND_CLOSE);
    h_press(h, EAR_KEY_ESCAPE);
    GAP;
#undef MARK
#undef GAP
}

static void slots_in_mode(sound_mode mode) {
    harness h;
    ear_ui_config c = ear_ui_config_default();
    c.mute_sounds = mode == SOUNDS_MUTED;
    ASSERT_OK(h_init(&h, &c, 14));
    if (mode == UI_BUS_MUTED) ear_stage_set_bus_muted(ear_ctx_stage(h.ctx), EAR_BUS_UI, true);
    size_t starts[EAR_UI_SOUND_COUNT];
    /* Built-in sounds are synthesised on first use: none exists before. */
    ear_assets *assets = ear_ctx_assets(h.ctx);
    ASSERT_FALSE(ear_assets_state(assets, "ui:builtin:open").loaded);
    run_slots(&h, starts);
    ASSERT_EQ(ear_assets_state(assets, "ui:builtin:open").loaded, mode != SOUNDS_MUTED);
    ASSERT_NOT_NULL(h_find(&h, EAR_UI_CLICKED, "f", "b"));
    ASSERT_NOT_NULL(h_find(&h, EAR_UI_CLOSED, "f", NULL));
    for (int s = 0; s < EAR_UI_SOUND_COUNT; s++) {
        double own = tone_at(&h, starts[s], ear_ui_builtin_hz((ear_ui_sound_slot)s));
        if (mode != SOUNDS_ON) {
            if (!(own < 1e-6)) {
                fprintf(stderr, "slot %s: %.3g heard while muted\n",
                        ear_ui_sound_slot_name((ear_ui_sound_slot)s), own);
                ear_test_failed_ = 1;
            }
            continue;
        }
        double worst = 0;
        for (int o = 0; o < EAR_UI_SOUND_COUNT; o++) {
            if (o == s) continue;
            double a = tone_at(&h, starts[s], ear_ui_builtin_hz((ear_ui_sound_slot)o));
            if (a > worst) worst = a;
        }
        printf("slot %-10s %6.0f Hz: %.4f (loudest other slot's tone %.5f)\n",
               ear_ui_sound_slot_name((ear_ui_sound_slot)s),
               ear_ui_builtin_hz((ear_ui_sound_slot)s), own, worst);
        if (!(own > 0.01 && own > 20 * worst)) {
            fprintf(stderr, "slot %s: %.4g, others up to %.4g\n",
                    ear_ui_sound_slot_name((ear_ui_sound_slot)s), own, worst);
            ear_test_failed_ = 1;
        }
    }
    if (mode != SOUNDS_ON)
        ASSERT_DBL_LT(ear_peak(h.audio, h.audio_frames, 2, EAR_ALL_CHANNELS), 1e-6);
    h_free(&h);
}

TEST(each_sound_slot_plays_its_tone_when_its_action_happens) {
    slots_in_mode(SOUNDS_ON);
}

TEST(no_ui_sound_when_muted) {
    slots_in_mode(SOUNDS_MUTED);
}

TEST(ui_sounds_play_on_the_ui_bus) {
    slots_in_mode(UI_BUS_MUTED);
}

/* ---- Overrides ------------------------------------------------------------------------ */

#define BLIP_HZ  2600.0
#define OPEN2_HZ 3100.0

TEST(a_menu_overrides_one_slot_or_replaces_the_whole_set) {
    harness h;
    ASSERT_OK(h_init(&h, NULL, 8));
    /* Custom data: a 60 ms blip, registered with the engine's assets at the next update. */
    float blip[2880];
    ear_synth s = {.frequency_hz = (float)BLIP_HZ,
                   .seconds = 0.06f,
                   .amplitude = 0.6f,
                   .envelope = {.attack_s = 0.005f, .release_s = 0.015f}};
    ASSERT_OK(ear_synth_render(&s, blip, 2880));
    ASSERT_OK(ear_ui_set_sound_data(h.ui, "blip", blip, 2880, 1, 48000));

    /* One slot: Down plays the blip instead of the built-in navigate; the other slots
     * stay the UI's (wrap). */
    ear_ui_menu *m;
    ASSERT_OK(ear_ui_menu_create(&(ear_ui_menu_config){.id = "one"}, &m));
    ear_ui_menu_add(m, &(ear_ui_item){.id = "a"});
    ear_ui_menu_add(m, &(ear_ui_item){.id = "b"});
    ASSERT_OK(ear_ui_menu_set_sound(m, EAR_UI_SOUND_NAVIGATE, "ui:custom:blip"));
    ASSERT_OK(ear_ui_open_menu(h.ctx, m));
    h_frame(&h);
    h_frames(&h, 20);
    size_t down = h.audio_frames;
    h_press(&h, EAR_KEY_DOWN);
    h_frames(&h, 20);
    size_t wrap = h.audio_frames;
    h_press(&h, EAR_KEY_DOWN);
    h_frames(&h, 20);
    double nav = ear_ui_builtin_hz(EAR_UI_SOUND_NAVIGATE);
    double wrap_hz = ear_ui_builtin_hz(EAR_UI_SOUND_WRAP);
    ASSERT_DBL_GT(tone_at(&h, down, BLIP_HZ), 0.02);
    ASSERT_DBL_LT(tone_at(&h, down, nav), 1e-4);
    ASSERT_DBL_GT(tone_at(&h, wrap, wrap_hz), 0.02);
    ASSERT_DBL_LT(tone_at(&h, wrap, BLIP_HZ), 1e-4);
    h_press(&h, EAR_KEY_ESCAPE);
    h_frames(&h, 20);

    /* The whole set: only what the set names sounds; an unset wrap falls back to the
     * set's navigate. */
    ear_ui_sounds set = {.names = {[EAR_UI_SOUND_OPEN] = "synth:sine:3100:0.08",
                                   [EAR_UI_SOUND_NAVIGATE] = "ui:custom:blip"}};
    ASSERT_OK(ear_ui_menu_create(&(ear_ui_menu_config){.id = "all"}, &m));
    ear_ui_menu_add(m, &(ear_ui_item){.id = "a"});
    ear_ui_menu_add(m, &(ear_ui_item){.id = "b", .disabled = true});
    ASSERT_OK(ear_ui_menu_set_sounds(m, &set));
    ASSERT_OK(ear_ui_open_menu(h.ctx, m));
    size_t open = h.audio_frames;
    h_frame(&h);
    h_frames(&h, 20);
    size_t up = h.audio_frames;
    h_press(&h, EAR_KEY_UP); /* wraps: the set's navigate */
    h_frames(&h, 20);
    size_t error = h.audio_frames;
    h_press(&h, EAR_KEY_ENTER); /* disabled: the error slot, silent in this set */
    h_frames(&h, 20);
    size_t close = h.audio_frames;
    h_press(&h, EAR_KEY_ESCAPE);
    h_frames(&h, 20);
    /* "synth:" names have no envelope: their edges leak a little into every band. */
    double open2 = tone_at(&h, open, OPEN2_HZ);
    ASSERT_DBL_GT(open2, 0.02);
    ASSERT_DBL_LT(tone_at(&h, open, ear_ui_builtin_hz(EAR_UI_SOUND_OPEN)), open2 / 50);
    ASSERT_DBL_GT(tone_at(&h, up, BLIP_HZ), 0.02);
    ASSERT_DBL_LT(tone_at(&h, up, wrap_hz), 1e-4);
    ASSERT_DBL_LT(ear_peak(h.audio + 2 * error, 12000, 2, EAR_ALL_CHANNELS), 1e-6);
    ASSERT_DBL_LT(ear_peak(h.audio + 2 * close, 12000, 2, EAR_ALL_CHANNELS), 1e-6);
    ASSERT_NOT_NULL(h_find(&h, EAR_UI_CLOSED, "all", NULL));
    h_free(&h);
}

/* ---- Widget music --------------------------------------------------------------------- */

#define A_HZ 330.0
#define B_HZ 550.0
#define C_HZ 770.0
#define ENV  800 /* one frame's audio per envelope window */

static void register_tone(harness *h, const char *name, float hz) {
    ear_clip *clip;
    ear_synth s = {.frequency_hz = hz, .seconds = 1, .amplitude = 0.5f};
    ear_synth_clip(&s, NULL, &clip);
    ear_assets_register_clip(ear_ctx_assets(h->ctx), name, clip);
    ear_clip_release(clip);
}

static void game_plays(harness *h, const char *name, float crossfade_s) {
    ear_clip *clip;
    ear_assets_get(ear_ctx_assets(h->ctx), name, &clip);
    ear_music_params mp = {
        .name = name, .source = {.clip = clip}, .loop = true, .crossfade_s = crossfade_s};
    ear_stage_music_play(ear_ctx_stage(h->ctx), &mp);
}

static ear_ui_menu *music_menu(const char *id, const char *track) {
    ear_ui_menu *m;
    ear_ui_menu_create(&(ear_ui_menu_config){.id = id, .music = track}, &m);
    ear_ui_menu_add(m, &(ear_ui_item){.id = "x"});
    return m;
}

TEST(widget_music_crossfades_in_and_the_earlier_track_comes_back) {
    harness h;
    ear_ui_config c = ear_ui_config_default();
    c.music_crossfade_s = 0.5f;
    c.mute_sounds = true;
    ASSERT_OK(h_init(&h, &c, 8));
    register_tone(&h, "music:a", (float)A_HZ);
    register_tone(&h, "music:b", (float)B_HZ);
    register_tone(&h, "music:c", (float)C_HZ);
    game_plays(&h, "music:a", 0);
    h_frames(&h, 30);
    double ref = tone_in(&h, h.audio_frames - 4800, 4800, A_HZ);
    ASSERT_DBL_GT(ref, 0.1);

    /* A menu with music: b fades in over 0.5 s while a fades out (sin / cos). */
    ASSERT_OK(ear_ui_open_menu(h.ctx, music_menu("m1", "music:b")));
    size_t t0 = h.audio_frames;
    h_frames(&h, 45);
    ASSERT_STR_EQ(ear_stage_music_name(ear_ctx_stage(h.ctx)), "music:b");
    size_t mid = t0 + 12000 - ENV / 2;
    ASSERT_REL(tone_in(&h, mid, ENV, B_HZ), ref * 0.70711, 0.03);
    ASSERT_REL(tone_in(&h, mid, ENV, A_HZ), ref * 0.70711, 0.03);
    size_t after = t0 + 24000 + 1600;
    ASSERT_REL(tone_in(&h, after, 4800, B_HZ), ref, 0.01);
    ASSERT_DBL_LT(tone_in(&h, after, 4800, A_HZ), ref * 0.01);

    /* Closing: a comes back the same way. */
    h_press(&h, EAR_KEY_ESCAPE);
    size_t t1 = h.audio_frames - 2 * H_PER_FRAME;
    h_frames(&h, 45);
    ASSERT_STR_EQ(ear_stage_music_name(ear_ctx_stage(h.ctx)), "music:a");
    ASSERT_REL(tone_in(&h, t1 + 12000 - ENV / 2, ENV, A_HZ), ref * 0.70711, 0.03);
    ASSERT_REL(tone_in(&h, t1 + 25600, 4800, A_HZ), ref, 0.01);
    ASSERT_DBL_LT(tone_in(&h, t1 + 25600, 4800, B_HZ), ref * 0.01);

    /* Music the game starts while the menu is open is kept when it closes. */
    ASSERT_OK(ear_ui_open_menu(h.ctx, music_menu("m2", "music:b")));
    h_frames(&h, 40);
    game_plays(&h, "music:c", 0.5f);
    h_frames(&h, 40);
    h_press(&h, EAR_KEY_ESCAPE);
    size_t t2 = h.audio_frames;
    h_frames(&h, 45);
    ASSERT_STR_EQ(ear_stage_music_name(ear_ctx_stage(h.ctx)), "music:c");
    ASSERT_REL(tone_in(&h, t2 + 24000, 4800, C_HZ), ref, 0.01);
    ASSERT_DBL_LT(tone_in(&h, t2 + 24000, 4800, A_HZ), ref * 0.01);
    ASSERT_DBL_LT(tone_in(&h, t2 + 24000, 4800, B_HZ), ref * 0.01);
    h_free(&h);
}

TEST(the_topmost_widget_naming_a_track_gets_it_and_no_music_before_means_a_fade_out) {
    harness h;
    ear_ui_config c = ear_ui_config_default();
    c.music_crossfade_s = 0.5f;
    c.mute_sounds = true;
    ASSERT_OK(h_init(&h, &c, 8));
    register_tone(&h, "music:b", (float)B_HZ);
    register_tone(&h, "music:c", (float)C_HZ);
    /* m1 (b) below m2 (c) below m3 (no music): c plays. */
    ear_ui_menu *m1 = music_menu("m1", "music:b");
    ear_ui_menu *m2 = music_menu("m2", "music:c");
    ear_ui_menu_add(m1, &(ear_ui_item){.id = "sub", .kind = EAR_UI_SUBMENU, .submenu = m2});
    ear_ui_menu_add(
        m2,
        &(ear_ui_item){.id = "sub", .kind = EAR_UI_SUBMENU, .submenu = music_menu("m3", NULL)});
    ASSERT_OK(ear_ui_open_menu(h.ctx, m1));
    h_frames(&h, 40);
    h_press(&h, EAR_KEY_DOWN);
    h_press(&h, EAR_KEY_ENTER); /* m2 */
    h_frames(&h, 40);
    h_press(&h, EAR_KEY_DOWN);
    h_press(&h, EAR_KEY_ENTER); /* m3 */
    h_frames(&h, 40);
    ASSERT_EQ(ear_ui_depth(h.ui), 3);
    size_t t = h.audio_frames - 4800;
    double ref = tone_in(&h, t, 4800, C_HZ);
    ASSERT_DBL_GT(ref, 0.1);
    ASSERT_DBL_LT(tone_in(&h, t, 4800, B_HZ), ref * 0.01);
    h_press(&h, EAR_KEY_ESCAPE);
    h_press(&h, EAR_KEY_ESCAPE); /* back in m1: b again */
    h_frames(&h, 40);
    t = h.audio_frames - 4800;
    ASSERT_REL(tone_in(&h, t, 4800, B_HZ), ref, 0.01);
    ASSERT_DBL_LT(tone_in(&h, t, 4800, C_HZ), ref * 0.01);
    /* Nothing played before the first widget music: closing fades the music out. */
    h_press(&h, EAR_KEY_ESCAPE);
    h_frames(&h, 40);
    t = h.audio_frames - 4800;
    ASSERT_DBL_LT(ear_peak(h.audio + 2 * t, 4800, 2, EAR_ALL_CHANNELS), 1e-6);
    ASSERT_STR_EQ(ear_stage_music_name(ear_ctx_stage(h.ctx)), "");
    h_free(&h);
}

/* ---- Ducking under speech ---------------------------------------------------------------- */

static double duck_level(bool with_rule, double at_s, double *out_ref) {
    harness h;
    ear_ui_config c = ear_ui_config_default();
    c.mute_sounds = true;
    c.speech_duck = with_rule ? "speech" : NULL;
    if (h_init(&h, &c, 5)) return -1;
    ear_duck_rule rule = {.name = "speech",
                          .trigger = EAR_BUS_UI,
                          .target = EAR_BUS_MUSIC,
                          .gain_db = -12,
                          .threshold = 1.0f,
                          .attack_s = 0.05f,
                          .hold_s = 0.1f,
                          .release_s = 0.3f};
    ear_stage_set_duck(ear_ctx_stage(h.ctx), &rule);
    register_tone(&h, "music:a", (float)A_HZ);
    game_plays(&h, "music:a", 0);
    h_frames(&h, 30);
    *out_ref = tone_in(&h, h.audio_frames - 4800, 4800, A_HZ);
    ear_ui_menu *m;
    ear_ui_menu_create(&(ear_ui_menu_config){.id = "main", .title = "Main"}, &m);
    ear_ui_menu_add(m, &(ear_ui_item){.id = "play", .label = "Play"});
    ear_ui_open_menu(h.ctx, m);
    size_t t0 = h.audio_frames;
    h_frames(&h, 200);
    double level = tone_in(&h, t0 + (size_t)(at_s * H_RATE), 2400, A_HZ);
    h_free(&h);
    return level;
}

TEST(music_is_ducked_while_the_ui_speaks_when_a_duck_rule_asks) {
    /* "Main, menu" then "Play, button, 1 of 1": 20 characters hold the duck 1.2 s
     * (0.06 s each), then the rule's hold (0.1 s) and release (0.3 s). */
    double ref;
    double ducked = duck_level(true, 0.5, &ref);
    ASSERT_DBL_GT(ref, 0.1);
    ASSERT_REL(ducked, ref * pow(10.0, -12.0 / 20.0), 0.02);
    ASSERT_REL(duck_level(true, 2.5, &ref), ref, 0.01);
    /* Without the rule named, speech does not touch the music. */
    ASSERT_REL(duck_level(false, 0.5, &ref), ref, 0.01);
}

TEST_MAIN(
    TEST_ENTRY(each_sound_slot_plays_its_tone_when_its_action_happens),
    TEST_ENTRY(no_ui_sound_when_muted), TEST_ENTRY(ui_sounds_play_on_the_ui_bus),
    TEST_ENTRY(a_menu_overrides_one_slot_or_replaces_the_whole_set),
    TEST_ENTRY(widget_music_crossfades_in_and_the_earlier_track_comes_back),
    TEST_ENTRY(the_topmost_widget_naming_a_track_gets_it_and_no_music_before_means_a_fade_out),
    TEST_ENTRY(music_is_ducked_while_the_ui_speaks_when_a_duck_rule_asks))
