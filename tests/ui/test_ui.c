/* SPDX-License-Identifier: Zlib */
/*
 * The virtual UI, headless: keys go in through the runner as the headless backend feeds
 * them, and the tests read back the exact words in the speech history (English and
 * German), the events, and the stage's rendered output (UI sounds by their tones on the
 * ui bus, widget music by its tone envelopes).
 */
#include "test.h"
#include "ui_harness.h"

#include "earshot/analysis.h"
#include "earshot/mixer.h"
#include "earshot/synth.h"

/* ---- Building blocks ---------------------------------------------------------------- */

static void settings_texts(harness *h) {
    static const char *const en[][2] = {
        {"t.settings", "Settings"},     {"t.name", "Name"},
        {"t.fullscreen", "Fullscreen"}, {"t.music", "Music volume"},
        {"t.difficulty", "Difficulty"}, {"t.easy", "Easy"},
        {"t.normal", "Normal"},         {"t.hard", "Hard"},
        {"t.audio", "Audio"},           {"t.back", "Back"},
        {"t.speech", "Speech volume"}};
    static const char *const de[][2] = {{"t.settings", "Einstellungen"},
                                        {"t.name", "Name"},
                                        {"t.fullscreen", "Vollbild"},
                                        {"t.music", "Musiklautstärke"},
                                        {"t.difficulty", "Schwierigkeit"},
                                        {"t.easy", "Leicht"},
                                        {"t.normal", "Normal"},
                                        {"t.hard", "Schwer"},
                                        {"t.audio", "Audio"},
                                        {"t.back", "Zurück"},
                                        {"t.speech", "Sprachlautstärke"}};
    for (size_t i = 0; i < sizeof en / sizeof en[0]; i++) h_tr(h, "en", en[i][0], en[i][1]);
    for (size_t i = 0; i < sizeof de / sizeof de[0]; i++) h_tr(h, "de", de[i][0], de[i][1]);
}

static const char *const difficulty[] = {"t.easy", "t.normal", "t.hard"};

/* Name (text), Fullscreen (toggle), Music volume (slider 70 %), Difficulty (choice),
 * Audio (submenu: Speech volume), Back (closes). */
static ear_ui_menu *settings_menu(void) {
    ear_ui_menu *m, *audio;
    if (ear_ui_menu_create(&(ear_ui_menu_config){.id = "settings", .title = "t.settings"}, &m))
        return NULL;
    ear_ui_menu_create(&(ear_ui_menu_config){.id = "audio", .title = "t.audio"}, &audio);
    ear_ui_menu_add(audio, &(ear_ui_item){.id = "speech",
                                          .label = "t.speech",
                                          .kind = EAR_UI_SLIDER,
                                          .value = 50,
                                          .step = 5,
                                          .unit = "ui.unit.percent"});
    ear_ui_menu_add(m, &(ear_ui_item){.id = "name", .label = "t.name", .kind = EAR_UI_TEXT});
    ear_ui_menu_add(
        m, &(ear_ui_item){.id = "fullscreen", .label = "t.fullscreen", .kind = EAR_UI_TOGGLE});
    ear_ui_menu_add(m, &(ear_ui_item){.id = "music",
                                      .label = "t.music",
                                      .kind = EAR_UI_SLIDER,
                                      .value = 70,
                                      .min = 0,
                                      .max = 100,
                                      .step = 5,
                                      .big_step = 20,
                                      .unit = "ui.unit.percent"});
    ear_ui_menu_add(m, &(ear_ui_item){.id = "difficulty",
                                      .label = "t.difficulty",
                                      .kind = EAR_UI_CHOICE,
                                      .choices = difficulty,
                                      .choice_count = 3,
                                      .selected = 1});
    ear_ui_menu_add(
        m, &(ear_ui_item){
               .id = "audio", .label = "t.audio", .kind = EAR_UI_SUBMENU, .submenu = audio});
    ear_ui_menu_add(m, &(ear_ui_item){.id = "back", .label = "t.back", .closes = true});
    return m;
}

/* ---- The stack ------------------------------------------------------------------------ */

typedef struct deferred_state {
    int opened_at, clicked_at;
    bool clicked_in_open_frame;
    bool query_saw_click;
} deferred_state;

static void deferred_update(ear_ctx *ctx, harness *h) {
    deferred_state *s = h->user;
    if (ear_ui_clicked(ctx, "main", "play")) {
        s->query_saw_click = true;
        if (!s->clicked_at) s->clicked_at = (int)h->frame;
    }
    /* Enter opens the main menu; with the menu open the game sees no keys at all. */
    if (ear_key_pressed(ctx, EAR_KEY_ENTER) && !ear_ui_is_open(ctx, "main")) {
        ear_ui_menu *m;
        ear_ui_menu_create(&(ear_ui_menu_config){.id = "main", .title = "t.main"}, &m);
        ear_ui_menu_add(m, &(ear_ui_item){.id = "play", .label = "t.play", .closes = true});
        ear_ui_menu_add(m, &(ear_ui_item){.id = "quit", .label = "t.quit"});
        ear_ui_open_menu(ctx, m);
        s->opened_at = (int)h->frame;
    }
}

TEST(opening_is_deferred_so_the_opening_key_does_not_activate) {
    harness h;
    ASSERT_OK(h_init(&h, NULL, 0));
    h_tr(&h, "en", "t.main", "Main menu");
    h_tr(&h, "en", "t.play", "Play");
    h_tr(&h, "en", "t.quit", "Quit");
    deferred_state s = {0};
    h.user = &s;
    h.on_update = deferred_update;
    h_frames(&h, 3);
    uint64_t enter_frame = h.frame;
    h_press(&h, EAR_KEY_ENTER);
    ASSERT_EQ(s.opened_at, enter_frame);
    /* The menu announced itself in the next frame; Enter did not press Play. */
    ASSERT_STR_EQ(h_said(&h, 1), "Main menu, menu");
    ASSERT_STR_EQ(h_said(&h, 0), "Play, button, 1 of 2");
    ASSERT_NULL(h_find(&h, EAR_UI_CLICKED, NULL, NULL));
    ASSERT_EQ(ear_ui_depth(h.ui), 1);
    /* A second Enter presses Play: clicked (seen by on_ui and by the query in update),
     * then the menu closes. */
    h_press(&h, EAR_KEY_ENTER);
    const h_event *c = h_find(&h, EAR_UI_CLICKED, "main", "play");
    ASSERT_NOT_NULL(c);
    ASSERT_EQ(c->position, 0);
    ASSERT_STR_EQ(c->text, ""); /* a button has no value */
    ASSERT_TRUE(s.query_saw_click);
    ASSERT_EQ(s.clicked_at, c->frame);
    ASSERT_NOT_NULL(h_find(&h, EAR_UI_CLOSED, "main", NULL));
    ASSERT_EQ(ear_ui_depth(h.ui), 0);
    /* Events are cleared at the next UI update. */
    h_frame(&h);
    ASSERT_EQ(ear_ui_event_count(h.ctx), 0);
    h_free(&h);
}

/* The headless backend itself (ear_engine_run with a parsed script): the same deferral. */
typedef struct script_game {
    ear_ui *ui;
    int clicks, opens;
    bool game_saw_enter_while_open;
} script_game;

static void script_update(ear_ctx *ctx, void *user) {
    script_game *g = user;
    if (ear_ui_clicked(ctx, "main", "play")) g->clicks++;
    bool open = ear_ui_is_open(ctx, NULL);
    if (ear_key_pressed(ctx, EAR_KEY_ENTER)) {
        if (open) g->game_saw_enter_while_open = true;
        ear_ui_menu *m;
        ear_ui_menu_create(&(ear_ui_menu_config){.id = "main"}, &m);
        ear_ui_menu_add(m, &(ear_ui_item){.id = "play", .label = "menu.ok", .closes = true});
        ear_ui_open_menu(ctx, m);
        g->opens++;
    }
    if (ear_ctx_frame(ctx) == 40) ear_quit(ctx);
}

TEST(headless_script_opens_a_menu_and_presses_its_item) {
    ear_script script;
    ASSERT_OK(ear_script_parse("5 press ENTER\n6 press ENTER\n10 press ENTER\n20 press ENTER\n",
                               &script, NULL, 0));
    script_game g = {0};
    ASSERT_OK(ear_ui_create(NULL, &g.ui));
    ear_engine_config cfg = ear_engine_config_default("script");
    cfg.backend = EAR_BACKEND_HEADLESS;
    cfg.script = &script;
    ear_ui_attach(g.ui, &cfg);
    ear_scene scene = {.name = "s", .update = script_update, .user = &g};
    ASSERT_OK(ear_engine_run(&cfg, &scene));
    /* 5 opens it; 6 arrives while it is still opening (Fresh: no keys) and is lost to
     * both; 10 presses Play; 20 opens it again. */
    ASSERT_EQ(g.opens, 2);
    ASSERT_EQ(g.clicks, 1);
    ASSERT_FALSE(g.game_saw_enter_while_open);
    ear_ui_destroy(g.ui);
    ear_script_free(&script);
}

/* ---- Words ---------------------------------------------------------------------------- */

typedef struct step {
    ear_key key;
    ear_key modifier;
    const char *en, *de;
} step;

static void run_steps(harness *h, const step *steps, size_t n, bool german) {
    for (size_t i = 0; i < n; i++) {
        const step *s = &steps[i];
        if (s->modifier)
            h_press_with(h, s->modifier, s->key);
        else
            h_press(h, s->key);
        const char *want = german ? s->de : s->en;
        if (strcmp(h_said(h, 0), want) != 0) {
            fprintf(stderr, "step %zu (%s): said \"%s\", expected \"%s\"\n", i,
                    ear_key_name(s->key), h_said(h, 0), want);
            ear_test_failed_ = 1;
            return;
        }
    }
}

static const step settings_steps[] = {
    {EAR_KEY_DOWN, 0, "Fullscreen, check box, not checked, 2 of 6",
     "Vollbild, Kontrollkästchen, nicht aktiviert, 2 von 6"},
    {EAR_KEY_SPACE, 0, "checked", "aktiviert"},
    {EAR_KEY_LEFT, 0, "not checked", "nicht aktiviert"},
    {EAR_KEY_RIGHT, 0, "checked", "aktiviert"},
    {EAR_KEY_DOWN, 0, "Music volume, slider, 70 percent, 3 of 6",
     "Musiklautstärke, Schieberegler, 70 Prozent, 3 von 6"},
    {EAR_KEY_RIGHT, 0, "75 percent", "75 Prozent"},
    {EAR_KEY_PAGE_UP, 0, "95 percent", "95 Prozent"},
    {EAR_KEY_PAGE_UP, 0, "100 percent", "100 Prozent"},
    {EAR_KEY_RIGHT, 0, "100 percent", "100 Prozent"},
    {EAR_KEY_PAGE_DOWN, 0, "80 percent", "80 Prozent"},
    {EAR_KEY_LEFT, 0, "75 percent", "75 Prozent"},
    {EAR_KEY_DOWN, 0, "Difficulty, combo box, Normal, 4 of 6",
     "Schwierigkeit, Kombinationsfeld, Normal, 4 von 6"},
    {EAR_KEY_RIGHT, 0, "Hard", "Schwer"},
    {EAR_KEY_RIGHT, 0, "Hard", "Schwer"},
    {EAR_KEY_SPACE, 0, "Easy", "Leicht"},
    {EAR_KEY_LEFT, 0, "Easy", "Leicht"},
    {EAR_KEY_DOWN, 0, "Audio, submenu, 5 of 6", "Audio, Untermenü, 5 von 6"},
    {EAR_KEY_ENTER, 0, "Speech volume, slider, 50 percent, 1 of 1",
     "Sprachlautstärke, Schieberegler, 50 Prozent, 1 von 1"},
    {EAR_KEY_LEFT, 0, "45 percent", "45 Prozent"},
    {EAR_KEY_ESCAPE, 0, "Audio, submenu, 5 of 6", "Audio, Untermenü, 5 von 6"},
    {EAR_KEY_ENTER, 0, "Speech volume, slider, 45 percent, 1 of 1",
     "Sprachlautstärke, Schieberegler, 45 Prozent, 1 von 1"},
    {EAR_KEY_ESCAPE, 0, "Audio, submenu, 5 of 6", "Audio, Untermenü, 5 von 6"},
    {EAR_KEY_DOWN, 0, "Back, button, 6 of 6", "Zurück, Schalter, 6 von 6"},
    {EAR_KEY_DOWN, 0, "Name, edit, blank, 1 of 6", "Name, Eingabefeld, leer, 1 von 6"},
    {EAR_KEY_UP, 0, "Back, button, 6 of 6", "Zurück, Schalter, 6 von 6"},
    {EAR_KEY_HOME, 0, "Name, edit, blank, 1 of 6", "Name, Eingabefeld, leer, 1 von 6"},
    {EAR_KEY_END, 0, "Back, button, 6 of 6", "Zurück, Schalter, 6 von 6"},
    {EAR_KEY_END, 0, "Back, button, 6 of 6", "Zurück, Schalter, 6 von 6"},
    {EAR_KEY_UP, 0, "Audio, submenu, 5 of 6", "Audio, Untermenü, 5 von 6"},
};

static void navigation_words(bool german) {
    harness h;
    ASSERT_OK(h_init(&h, NULL, 0));
    settings_texts(&h);
    if (german) ASSERT_OK(ear_lang_set_language(ear_ctx_lang(h.ctx), "de"));
    ASSERT_OK(ear_ui_open_menu(h.ctx, settings_menu()));
    h_frame(&h);
    ASSERT_STR_EQ(h_said(&h, 1), german ? "Einstellungen, Menü" : "Settings, menu");
    ASSERT_STR_EQ(h_said(&h, 0),
                  german ? "Name, Eingabefeld, leer, 1 von 6" : "Name, edit, blank, 1 of 6");
    run_steps(&h, settings_steps, sizeof settings_steps / sizeof settings_steps[0], german);
    /* Values changed and said so through events: the slider's last value and the
     * choice's. */
    const h_event *e = h_find(&h, EAR_UI_CHANGED, "settings", "music");
    ASSERT_NOT_NULL(e);
    ASSERT_NEAR(e->number, 75.0, 1e-9);
    e = h_find(&h, EAR_UI_CHANGED, "settings", "difficulty");
    ASSERT_EQ(e->index, 0);
    ASSERT_STR_EQ(e->text, "t.easy");
    e = h_find(&h, EAR_UI_CHANGED, "audio", "speech");
    ASSERT_NEAR(e->number, 45.0, 1e-9);
    ASSERT_EQ(e->position, 0);
    /* A clamped step changes nothing: exactly three changes reached 100 and back. */
    size_t music_changes = 0;
    for (size_t i = 0; i < h.event_count; i++)
        if (h.events[i].kind == EAR_UI_CHANGED && !strcmp(h.events[i].item, "music"))
            music_changes++;
    ASSERT_EQ(music_changes, 5); /* 75, 95, 100, 80, 75 */
    ear_ui_menu *m = ear_ui_find_menu(h.ctx, "settings");
    ear_ui_value v;
    ASSERT_OK(ear_ui_menu_value(m, "fullscreen", &v));
    ASSERT_TRUE(v.flag);
    /* Item positions can be turned off. */
    ear_ui_set_hide_position(h.ui, true);
    h_press(&h, EAR_KEY_UP);
    ASSERT_STR_EQ(h_said(&h, 0), german ? "Schwierigkeit, Kombinationsfeld, Leicht"
                                        : "Difficulty, combo box, Easy");
    h_press(&h, EAR_KEY_ESCAPE);
    ASSERT_NOT_NULL(h_find(&h, EAR_UI_CLOSED, "settings", NULL));
    ASSERT_EQ(ear_ui_depth(h.ui), 0);
    h_free(&h);
}

TEST(every_navigation_key_says_the_expected_words_in_english) {
    navigation_words(false);
}

TEST(every_navigation_key_says_the_expected_words_in_german) {
    navigation_words(true);
}

TEST(describe_item_is_the_one_wording) {
    ear_lang *lang;
    ASSERT_OK(ear_lang_create(NULL, &lang));
    ear_lang_set_text(lang, "en", "t.music", "Music volume");
    ear_lang_set_text(lang, "en", "t.fullscreen", "Fullscreen");
    char out[256];
    ear_ui_describe_item(lang,
                         &(ear_ui_item){.id = "m",
                                        .label = "t.music",
                                        .kind = EAR_UI_SLIDER,
                                        .value = 70,
                                        .max = 100,
                                        .step = 1,
                                        .unit = "ui.unit.percent"},
                         2, 6, out, sizeof out);
    ASSERT_STR_EQ(out, "Music volume, slider, 70 percent, 3 of 6");
    ear_ui_describe_item(
        lang, &(ear_ui_item){.id = "f", .label = "t.fullscreen", .kind = EAR_UI_TOGGLE}, 0, 0,
        out, sizeof out);
    ASSERT_STR_EQ(out, "Fullscreen, check box, not checked");
    ear_ui_describe_item(lang, &(ear_ui_item){.id = "Name", .kind = EAR_UI_TEXT}, 0, 0, out,
                         sizeof out);
    ASSERT_STR_EQ(out, "Name, edit, blank");
    ear_ui_describe_item(lang, &(ear_ui_item){.id = "Online", .disabled = true}, 1, 4, out,
                         sizeof out);
    ASSERT_STR_EQ(out, "Online, button, unavailable, 2 of 4");
    /* German numbers take a decimal comma. */
    ear_lang_set_language(lang, "de");
    ear_ui_describe_value(
        lang, &(ear_ui_item){.kind = EAR_UI_SLIDER, .step = 0.1, .unit = "ui.unit.seconds"},
        0.5, out, sizeof out);
    ASSERT_STR_EQ(out, "0,5 Sekunden");
    /* A small buffer is cut on a character boundary: 21 bytes leave room for 20, and the
     * ä of "Kontrollkästchen" would be bytes 20 and 21. */
    ear_lang_set_text(lang, "de", "t.fullscreen", "Vollbild");
    size_t n = ear_ui_describe_item(
        lang, &(ear_ui_item){.id = "f", .label = "t.fullscreen", .kind = EAR_UI_TOGGLE}, 0, 0,
        out, 21);
    ASSERT_EQ(n, 19);
    ASSERT_STR_EQ(out, "Vollbild, Kontrollk");
    ear_lang_destroy(lang);
}

TEST(sliders_step_by_fractions_clamp_and_speak_in_the_players_language) {
    harness h;
    ASSERT_OK(h_init(&h, NULL, 0));
    h_tr(&h, "de", "t.delay", "Verzögerung");
    ASSERT_OK(ear_lang_set_language(ear_ctx_lang(h.ctx), "de"));
    ear_ui_menu *m;
    ASSERT_OK(ear_ui_menu_create(&(ear_ui_menu_config){.id = "timing"}, &m));
    ASSERT_OK(ear_ui_menu_add(m, &(ear_ui_item){.id = "delay",
                                                .label = "t.delay",
                                                .kind = EAR_UI_SLIDER,
                                                .value = 0.5,
                                                .min = 0,
                                                .max = 1,
                                                .step = 0.1,
                                                .big_step = 0.25,
                                                .unit = "ui.unit.seconds"}));
    ASSERT_OK(ear_ui_open_menu(h.ctx, m));
    h_frame(&h);
    ASSERT_STR_EQ(h_said(&h, 0), "Verzögerung, Schieberegler, 0,5 Sekunden, 1 von 1");
    for (int i = 0; i < 3; i++) h_press(&h, EAR_KEY_RIGHT);
    ASSERT_STR_EQ(h_said(&h, 0), "0,8 Sekunden");
    const h_event *e = h_find(&h, EAR_UI_CHANGED, "timing", "delay");
    ASSERT_NEAR(e->number, 0.8, 1e-12); /* a number, whatever the language says */
    ear_ui_value v;
    ASSERT_OK(ear_ui_menu_value(m, "delay", &v));
    ASSERT_NEAR(v.number, 0.8, 1e-12);
    h_press(&h, EAR_KEY_PAGE_UP); /* 0.8 + 0.25 clamps to 1 */
    ASSERT_STR_EQ(h_said(&h, 0), "1,0 Sekunden");
    size_t events = h.event_count;
    h_press(&h, EAR_KEY_RIGHT);
    ASSERT_STR_EQ(h_said(&h, 0), "1,0 Sekunden");
    ASSERT_EQ(h.event_count, events); /* clamped: no change, no event */
    for (int i = 0; i < 12; i++) h_press(&h, EAR_KEY_LEFT);
    ASSERT_STR_EQ(h_said(&h, 0), "0,0 Sekunden");
    ASSERT_OK(ear_ui_menu_value(m, "delay", &v));
    ASSERT_NEAR(v.number, 0.0, 1e-12);
    h_free(&h);
}

/* A quiet slider (a speech rate, whose value the game says once it has set the rate):
 * a change is posted with its number and says nothing; the edge is still said. */
TEST(a_quiet_slider_leaves_its_new_value_to_the_game) {
    harness h;
    ASSERT_OK(h_init(&h, NULL, 0));
    h_tr(&h, "en", "t.rate", "Speech rate");
    ear_ui_menu *m;
    ASSERT_OK(ear_ui_menu_create(&(ear_ui_menu_config){.id = "speech"}, &m));
    ASSERT_OK(ear_ui_menu_add(m, &(ear_ui_item){.id = "rate",
                                                .label = "t.rate",
                                                .kind = EAR_UI_SLIDER,
                                                .value = -90,
                                                .min = -100,
                                                .max = 100,
                                                .step = 10,
                                                .quiet_change = true}));
    ASSERT_OK(ear_ui_open_menu(h.ctx, m));
    h_frame(&h);
    ASSERT_STR_EQ(h_said(&h, 0), "Speech rate, slider, -90, 1 of 1");
    uint64_t spoken = h_spoken(&h);
    h_press(&h, EAR_KEY_LEFT);
    ASSERT_EQ(h_spoken(&h), spoken); /* nothing said: the game says it */
    const h_event *e = h_find(&h, EAR_UI_CHANGED, "speech", "rate");
    ASSERT_NOT_NULL(e);
    ASSERT_NEAR(e->number, -100.0, 1e-12);
    h_press(&h, EAR_KEY_LEFT); /* at the end: no change, the value said with the edge */
    ASSERT_EQ(h_spoken(&h), spoken + 1);
    ASSERT_STR_EQ(h_said(&h, 0), "-100");
    h_free(&h);
}

/* ---- First letters ---------------------------------------------------------------------- */

TEST(first_letters_cycle_and_typed_prefixes_search) {
    harness h;
    ASSERT_OK(h_init(&h, NULL, 0));
    const char *labels[] = {"Play", "Sound", "Speech", "Settings", "Quit", "Über"};
    ear_ui_menu *m;
    ASSERT_OK(
        ear_ui_menu_create(&(ear_ui_menu_config){.id = "main", .hide_position = true}, &m));
    for (int i = 0; i < 6; i++) {
        char key[16];
        snprintf(key, sizeof key, "t.%d", i);
        h_tr(&h, "en", key, labels[i]);
        ASSERT_OK(ear_ui_menu_add(m, &(ear_ui_item){.id = key, .label = key}));
    }
    ASSERT_OK(ear_ui_open_menu(h.ctx, m));
    h_frame(&h);
    /* One letter again and again: cycles through S... items from the next one. */
    h_type(&h, "s");
    ASSERT_STR_EQ(h_said(&h, 0), "Sound, button");
    h_type(&h, "s");
    ASSERT_STR_EQ(h_said(&h, 0), "Speech, button");
    h_type(&h, "S");
    ASSERT_STR_EQ(h_said(&h, 0), "Settings, button");
    h_type(&h, "s");
    ASSERT_STR_EQ(h_said(&h, 0), "Sound, button");
    /* After the timeout (1 s), letters start a new search; two letters in quick
     * succession search by prefix from the focused item itself. */
    h_frames(&h, 70);
    h_type(&h, "se");
    ASSERT_STR_EQ(h_said(&h, 0), "Settings, button");
    h_frames(&h, 70);
    h_type(&h, "s"); /* from Settings: the next S, cyclically: Sound */
    ASSERT_STR_EQ(h_said(&h, 0), "Sound, button");
    h_type(&h, "p"); /* "sp" from Sound: Speech */
    ASSERT_STR_EQ(h_said(&h, 0), "Speech, button");
    h_frames(&h, 70);
    h_type(&h, "q");
    ASSERT_STR_EQ(h_said(&h, 0), "Quit, button");
    /* Not Latin-1 blind: "ü" finds "Über". */
    h_frames(&h, 70);
    h_type(&h, "ü");
    ASSERT_STR_EQ(h_said(&h, 0), "Über, button");
    /* Nothing starts with x: nothing is said, the focus stays. */
    h_frames(&h, 70);
    uint64_t before = h_spoken(&h);
    h_type(&h, "x");
    ASSERT_EQ(h_spoken(&h), before);
    ASSERT_EQ(ear_ui_menu_focused(ear_ui_find_menu(h.ctx, "main")), 5);
    h_free(&h);
}

TEST(held_keys_repeat_at_the_ui_repeat_rate) {
    harness h;
    ear_ui_config c = ear_ui_config_default();
    c.repeat_delay_s = 0.51;
    c.repeat_every_s = 0.1;
    ASSERT_OK(h_init(&h, &c, 0));
    ear_ui_menu *m;
    ASSERT_OK(ear_ui_menu_create(&(ear_ui_menu_config){.id = "long", .no_wrap = true}, &m));
    for (int i = 0; i < 12; i++) {
        char id[8];
        snprintf(id, sizeof id, "i%d", i);
        ear_ui_menu_add(m, &(ear_ui_item){.id = id});
    }
    ASSERT_OK(ear_ui_open_menu(h.ctx, m));
    h_frame(&h);
    /* Down held for 60 frames (held up to 59/60 s): the press, then repeats at 0.51,
     * 0.61, 0.71, 0.81 and 0.91 s: six moves. */
    ear_runner_key_down(h.r, EAR_KEY_DOWN);
    h_frames(&h, 60);
    ear_runner_key_up(h.r, EAR_KEY_DOWN);
    h_frames(&h, 5);
    ASSERT_EQ(ear_ui_menu_focused(ear_ui_find_menu(h.ctx, "long")), 6);
    ASSERT_STR_EQ(h_said(&h, 0), "i6, button, 7 of 12");
    h_free(&h);
}

static ear_ui_menu *numbered_menu(const char *id, int n) {
    ear_ui_menu *m = NULL;
    if (ear_ui_menu_create(&(ear_ui_menu_config){.id = id}, &m) != EAR_OK) return NULL;
    for (int i = 0; i < n; i++) {
        char item[16];
        snprintf(item, sizeof item, "i%d", i);
        ear_ui_menu_add(m, &(ear_ui_item){.id = item, .closes = i == n - 1});
    }
    return m;
}

TEST(a_key_held_when_a_widget_opens_does_nothing_until_pressed_again) {
    harness h;
    ASSERT_OK(h_init(&h, NULL, 0));
    /* Up held from the game (walking) for a second, then a menu opens under it: in the
     * next second it would have repeated 13 times at 0.5 s + 0.08 s steps. */
    ear_runner_key_down(h.r, EAR_KEY_UP);
    h_frames(&h, 60);
    ASSERT_OK(ear_ui_open_menu(h.ctx, numbered_menu("m", 5)));
    h_frame(&h);
    uint64_t opened = h_spoken(&h);
    ASSERT_STR_EQ(h_said(&h, 0), "i0, button, 1 of 5");
    h_frames(&h, 60);
    ASSERT_EQ(ear_ui_menu_focused(ear_ui_find_menu(h.ctx, "m")), 0);
    ASSERT_EQ(h_spoken(&h), opened);
    /* Let go and pressed again, it is the menu's: one move up (wrapping to the last). */
    ear_runner_key_up(h.r, EAR_KEY_UP);
    h_frame(&h);
    ASSERT_EQ(h_spoken(&h), opened);
    h_press(&h, EAR_KEY_UP);
    ASSERT_EQ(ear_ui_menu_focused(ear_ui_find_menu(h.ctx, "m")), 4);
    ASSERT_STR_EQ(h_said(&h, 0), "i4, button, 5 of 5");
    /* Enter held as a question opens on top does not answer it; Down held as the
     * question closes (Escape) does not move the menu that resumes. */
    ear_runner_key_down(h.r, EAR_KEY_ENTER);
    ASSERT_OK(ear_ui_question(h.ctx, "q", "t.q", false));
    h_frames(&h, 30);
    ASSERT_TRUE(ear_ui_is_open(h.ctx, "q"));
    ASSERT_TRUE(h_find(&h, EAR_UI_CONFIRMED, "q", NULL) == NULL);
    ear_runner_key_up(h.r, EAR_KEY_ENTER);
    ear_runner_key_down(h.r, EAR_KEY_DOWN);
    h_frame(&h);
    ASSERT_TRUE(h_find(&h, EAR_UI_CLOSED, "q", NULL) == NULL);
    ear_runner_key_down(h.r, EAR_KEY_ESCAPE);
    ear_runner_key_up(h.r, EAR_KEY_ESCAPE);
    h_frames(&h, 60); /* Down held on, across the resume */
    ASSERT_FALSE(ear_ui_is_open(h.ctx, "q"));
    ASSERT_TRUE(h_find(&h, EAR_UI_CANCELLED, "q", NULL) != NULL);
    /* The question took Down at once (it was pressed while the question was up): Yes to
     * No. The menu that resumed under the held key stays on its last item. */
    ASSERT_EQ(ear_ui_menu_focused(ear_ui_find_menu(h.ctx, "m")), 4);
    ear_runner_key_up(h.r, EAR_KEY_DOWN);
    h_frame(&h);
    h_press(&h, EAR_KEY_DOWN);
    ASSERT_EQ(ear_ui_menu_focused(ear_ui_find_menu(h.ctx, "m")), 0);
    /* Shift held as a widget opens still modifies: it is not stale. */
    ear_runner_key_down(h.r, EAR_KEY_LSHIFT);
    ASSERT_OK(ear_ui_question(h.ctx, "q2", "t.q", false));
    h_frames(&h, 2);
    ear_runner_key_down(h.r, EAR_KEY_TAB);
    ear_runner_key_up(h.r, EAR_KEY_TAB);
    h_frame(&h);
    ear_runner_key_up(h.r, EAR_KEY_LSHIFT);
    h_frame(&h);
    ASSERT_STR_EQ(h_said(&h, 0), "No, button, 2 of 2"); /* Shift+Tab from Yes wraps */
    h_free(&h);
}

TEST(the_repeat_timing_can_be_changed_while_running) {
    harness h;
    ASSERT_OK(h_init(&h, NULL, 0));
    ASSERT_NEAR(ear_ui_repeat_delay_s(h.ui), 0.5, 1e-12);
    ASSERT_NEAR(ear_ui_repeat_every_s(h.ui), 0.08, 1e-12);
    ASSERT_EQ(ear_ui_set_repeat(h.ui, 0, 0.1), EAR_E_INVALID_ARG);
    ASSERT_EQ(ear_ui_set_repeat(h.ui, 0.3, -1), EAR_E_INVALID_ARG);
    ASSERT_NEAR(ear_ui_repeat_delay_s(h.ui), 0.5, 1e-12);
    ASSERT_OK(ear_ui_set_repeat(h.ui, 0.3, 0.2));
    ASSERT_OK(ear_ui_open_menu(h.ctx, numbered_menu("m", 40)));
    h_frame(&h);
    /* Down held 2 s (up to 119/60 s): the press, then 0.3, 0.5, ..., 1.9 s: 1 + 9. */
    ear_runner_key_down(h.r, EAR_KEY_DOWN);
    h_frames(&h, 120);
    ear_runner_key_up(h.r, EAR_KEY_DOWN);
    h_frames(&h, 5);
    ASSERT_EQ(ear_ui_menu_focused(ear_ui_find_menu(h.ctx, "m")), 10);
    h_free(&h);
}

/* ---- Text ------------------------------------------------------------------------------ */

TEST(a_text_item_child_returns_its_text_and_changed_is_posted) {
    harness h;
    ASSERT_OK(h_init(&h, NULL, 0));
    settings_texts(&h);
    ASSERT_OK(ear_ui_open_menu(h.ctx, settings_menu()));
    h_frame(&h);
    h_press(&h, EAR_KEY_ENTER);
    ASSERT_EQ(ear_ui_depth(h.ui), 2);
    ASSERT_STR_EQ(h_said(&h, 0), "Name, edit, blank");
    size_t history = ear_speech_history_count(ear_ctx_speech(h.ctx));
    h_type(&h, "B");
    ASSERT_STR_EQ(h_said(&h, 0), "B");
    /* An echoed character goes to the screen reader as a character (SSIP CHAR), not
     * into the history that F1 repeats. */
    ASSERT_EQ(ear_speech_history_count(ear_ctx_speech(h.ctx)), history);
    h_type(&h, "ob");
    ASSERT_STR_EQ(h_said(&h, 1), "o");
    ASSERT_STR_EQ(h_said(&h, 0), "b");
    /* The menu is not searched while the child has the keys. */
    ASSERT_NULL(h_find(&h, EAR_UI_CHANGED, NULL, NULL));
    h_press(&h, EAR_KEY_ENTER);
    ASSERT_EQ(ear_ui_depth(h.ui), 1);
    ASSERT_STR_EQ(h_said(&h, 0), "Name, edit, Bob, 1 of 6");
    const h_event *e = h_find(&h, EAR_UI_CHANGED, "settings", "name");
    ASSERT_NOT_NULL(e);
    ASSERT_STR_EQ(e->text, "Bob");
    ASSERT_EQ(e->position, 0);
    ASSERT_NOT_NULL(h_find(&h, EAR_UI_CLOSED, "settings/name", NULL));
    /* A child submits no "confirmed" of its own. */
    ASSERT_NULL(h_find(&h, EAR_UI_CONFIRMED, NULL, NULL));
    ear_ui_value v;
    ASSERT_OK(ear_ui_menu_value(ear_ui_find_menu(h.ctx, "settings"), "name", &v));
    ASSERT_STR_EQ(v.text, "Bob");
    /* Editing again starts from the stored text; Escape keeps it. */
    h_press(&h, EAR_KEY_ENTER);
    ASSERT_STR_EQ(h_said(&h, 0), "Name, edit, Bob");
    h_press(&h, EAR_KEY_BACKSPACE);
    ASSERT_STR_EQ(h_said(&h, 0), "b");
    size_t changes = h.event_count;
    h_press(&h, EAR_KEY_ESCAPE);
    ASSERT_STR_EQ(h_said(&h, 0), "Name, edit, Bob, 1 of 6");
    ASSERT_PTR_EQ(h_find(&h, EAR_UI_CHANGED, "settings", "name"), e);
    ASSERT_EQ(h.event_count, changes + 1); /* only the child's "closed" */
    h_free(&h);
}

TEST(text_editing_keys_move_by_character_and_word_and_speak_deletions) {
    harness h;
    ASSERT_OK(h_init(&h, NULL, 0));
    ASSERT_OK(ear_ui_open_text(
        h.ctx, &(ear_ui_text_config){.id = "note", .label = "Note", .text = "hello world"}));
    h_frame(&h);
    ASSERT_STR_EQ(h_said(&h, 0), "Note, edit, hello world");
    static const step steps[] = {
        {EAR_KEY_HOME, 0, "h", NULL},
        {EAR_KEY_RIGHT, 0, "e", NULL},
        {EAR_KEY_RIGHT, EAR_KEY_LCTRL, "world", NULL},
        {EAR_KEY_LEFT, EAR_KEY_LCTRL, "hello", NULL},
        {EAR_KEY_LEFT, 0, "h", NULL}, /* at the start: the edge, and the character again */
        {EAR_KEY_END, 0, "blank", NULL},
        {EAR_KEY_RIGHT, 0, "blank", NULL},
        {EAR_KEY_BACKSPACE, 0, "d", NULL},
        {EAR_KEY_LEFT, 0, "l", NULL},
        {EAR_KEY_DELETE, 0, "l", NULL},
        {EAR_KEY_LEFT, EAR_KEY_LCTRL, "wor", NULL},
        {EAR_KEY_BACKSPACE, 0, "space", NULL},
        {EAR_KEY_UP, 0, "hellowor", NULL},
        {EAR_KEY_F2, 0, "hellowor", NULL},
    };
    run_steps(&h, steps, sizeof steps / sizeof steps[0], false);
    h_type(&h, " ");
    ASSERT_STR_EQ(h_said(&h, 0), "space");
    h_press(&h, EAR_KEY_DOWN);
    ASSERT_STR_EQ(h_said(&h, 0), "hello wor");
    /* UTF-8: one character, one step. */
    h_press(&h, EAR_KEY_END);
    h_type(&h, "ß");
    ASSERT_STR_EQ(h_said(&h, 0), "ß");
    h_press(&h, EAR_KEY_BACKSPACE);
    ASSERT_STR_EQ(h_said(&h, 0), "ß");
    h_press(&h, EAR_KEY_ENTER);
    const h_event *e = h_find(&h, EAR_UI_CONFIRMED, "note", NULL);
    ASSERT_NOT_NULL(e);
    ASSERT_STR_EQ(e->text, "hello wor");
    ASSERT_EQ(ear_ui_depth(h.ui), 0);
    /* Escape cancels. */
    ASSERT_OK(ear_ui_open_text(h.ctx, &(ear_ui_text_config){.id = "n2", .max_length = 3}));
    h_frame(&h);
    ASSERT_STR_EQ(h_said(&h, 0), "n2, edit, blank");
    h_type(&h, "abcd"); /* the fourth does not fit */
    ASSERT_STR_EQ(h_said(&h, 0), "c");
    h_press(&h, EAR_KEY_UP);
    ASSERT_STR_EQ(h_said(&h, 0), "abc");
    h_press(&h, EAR_KEY_ESCAPE);
    ASSERT_NOT_NULL(h_find(&h, EAR_UI_CANCELLED, "n2", NULL));
    /* Broken UTF-8 and control characters are not text. */
    ASSERT_OK(ear_ui_open_text(h.ctx, &(ear_ui_text_config){.id = "n3"}));
    h_frame(&h);
    h_type(&h, "a\xff\tb\xc3");
    h_press(&h, EAR_KEY_UP);
    ASSERT_STR_EQ(h_said(&h, 0), "ab");
    ASSERT_NULL(h_find(&h, EAR_UI_CONFIRMED, "n2", NULL));
    h_free(&h);
}

TEST(password_mode_says_star) {
    harness h;
    ASSERT_OK(h_init(&h, NULL, 0));
    ASSERT_OK(ear_ui_open_text(
        h.ctx, &(ear_ui_text_config){.id = "pw", .label = "Password", .password = true}));
    h_frame(&h);
    ASSERT_STR_EQ(h_said(&h, 0), "Password, password edit, blank");
    h_type(&h, "se");
    ASSERT_STR_EQ(h_said(&h, 1), "star");
    ASSERT_STR_EQ(h_said(&h, 0), "star");
    h_type(&h, "c");
    h_press(&h, EAR_KEY_LEFT);
    ASSERT_STR_EQ(h_said(&h, 0), "star");
    h_press(&h, EAR_KEY_DELETE);
    ASSERT_STR_EQ(h_said(&h, 0), "star");
    h_press(&h, EAR_KEY_UP);
    ASSERT_STR_EQ(h_said(&h, 0), "star star");
    /* Nothing said, and no history entry, ever holds the secret. */
    ear_speech *sp = ear_ctx_speech(h.ctx);
    for (size_t i = 0; i < ear_speech_history_count(sp); i++) {
        ASSERT_STR_NOT_CONTAINS(ear_speech_history_at(sp, i), "se");
        ASSERT_STR_NE(ear_speech_history_at(sp, i), "c");
    }
    for (size_t i = 0; i < h.line_count; i++) {
        ASSERT_STR_NE(h_said(&h, i), "s");
        ASSERT_STR_NE(h_said(&h, i), "e");
        ASSERT_STR_NE(h_said(&h, i), "c");
    }
    h_press(&h, EAR_KEY_ENTER);
    ASSERT_STR_EQ(h_find(&h, EAR_UI_CONFIRMED, "pw", NULL)->text, "se");
    h_free(&h);
}

TEST(multi_line_text_moves_by_line_and_submits_with_ctrl_enter) {
    harness h;
    ASSERT_OK(h_init(&h, NULL, 0));
    ASSERT_OK(ear_ui_open_text(
        h.ctx, &(ear_ui_text_config){.id = "ml", .label = "Letter", .multiline = true}));
    h_frame(&h);
    h_type(&h, "ab");
    h_press(&h, EAR_KEY_ENTER);
    ASSERT_STR_EQ(h_said(&h, 0), "new line");
    h_type(&h, "cde");
    h_press(&h, EAR_KEY_UP);
    ASSERT_STR_EQ(h_said(&h, 0), "ab");
    h_press(&h, EAR_KEY_DOWN);
    ASSERT_STR_EQ(h_said(&h, 0), "cde");
    h_press(&h, EAR_KEY_F2);
    ASSERT_STR_EQ(h_said(&h, 0), "ab\ncde");
    ASSERT_EQ(ear_ui_depth(h.ui), 1);
    h_press_with(&h, EAR_KEY_LCTRL, EAR_KEY_ENTER);
    ASSERT_STR_EQ(h_find(&h, EAR_UI_CONFIRMED, "ml", NULL)->text, "ab\ncde");
    h_free(&h);
}

/* ---- Forms and dialogs ---------------------------------------------------------------- */

static const char *const quality[] = {"Low", "High"};

TEST(form_moves_with_tab_and_submits_by_its_default_button) {
    harness h;
    ASSERT_OK(h_init(&h, NULL, 0));
    ear_ui_menu *f;
    ASSERT_OK(ear_ui_menu_create(
        &(ear_ui_menu_config){.id = "login", .title = "Login", .role = EAR_UI_ROLE_FORM}, &f));
    ear_ui_menu_add(f, &(ear_ui_item){.id = "name", .label = "Name", .kind = EAR_UI_TEXT});
    ear_ui_menu_add(
        f, &(ear_ui_item){
               .id = "pass", .label = "Password", .kind = EAR_UI_TEXT, .password = true});
    ear_ui_menu_add(
        f, &(ear_ui_item){.id = "remember", .label = "Remember me", .kind = EAR_UI_TOGGLE});
    ear_ui_menu_add(f, &(ear_ui_item){.id = "quality",
                                      .label = "Quality",
                                      .kind = EAR_UI_CHOICE,
                                      .choices = quality,
                                      .choice_count = 2});
    ear_ui_menu_add(f, &(ear_ui_item){.id = "ok", .label = "OK", .closes = true});
    ear_ui_menu_add(f, &(ear_ui_item){.id = "cancel", .label = "Cancel", .cancels = true});
    ASSERT_OK(ear_ui_open_menu(h.ctx, f));
    h_frame(&h);
    ASSERT_STR_EQ(h_said(&h, 1), "Login, dialog");
    ASSERT_STR_EQ(h_said(&h, 0), "Name, edit, blank, 1 of 6");
    static const step order[] = {
        {EAR_KEY_TAB, 0, "Password, password edit, blank, 2 of 6", NULL},
        {EAR_KEY_TAB, 0, "Remember me, check box, not checked, 3 of 6", NULL},
        {EAR_KEY_TAB, 0, "Quality, combo box, Low, 4 of 6", NULL},
        {EAR_KEY_TAB, 0, "OK, button, 5 of 6", NULL},
        {EAR_KEY_TAB, 0, "Cancel, button, 6 of 6", NULL},
        {EAR_KEY_TAB, 0, "Name, edit, blank, 1 of 6", NULL},
        {EAR_KEY_TAB, EAR_KEY_LSHIFT, "Cancel, button, 6 of 6", NULL},
        {EAR_KEY_TAB, EAR_KEY_RSHIFT, "OK, button, 5 of 6", NULL},
        {EAR_KEY_TAB, 0, "Cancel, button, 6 of 6", NULL},
        {EAR_KEY_TAB, 0, "Name, edit, blank, 1 of 6", NULL},
    };
    run_steps(&h, order, sizeof order / sizeof order[0], false);
    /* Letters go into the field in place; Space is a character there. */
    h_type(&h, "amy b");
    ASSERT_STR_EQ(h_said(&h, 0), "b");
    h_press(&h, EAR_KEY_TAB);
    h_type(&h, "pw");
    h_press(&h, EAR_KEY_TAB);
    h_press(&h, EAR_KEY_SPACE);
    ASSERT_STR_EQ(h_said(&h, 0), "checked");
    h_press(&h, EAR_KEY_TAB);
    h_press(&h, EAR_KEY_DOWN); /* a choice: Down steps back, at Low it stays */
    ASSERT_STR_EQ(h_said(&h, 0), "Low");
    h_press(&h, EAR_KEY_UP);
    ASSERT_STR_EQ(h_said(&h, 0), "High");
    /* Enter on a control presses the default button (the first that closes: OK). */
    h_press(&h, EAR_KEY_ENTER);
    ASSERT_EQ(ear_ui_depth(h.ui), 0);
    ASSERT_NOT_NULL(h_find(&h, EAR_UI_CLICKED, "login", "ok"));
    ASSERT_STR_EQ(h_find(&h, EAR_UI_CONFIRMED, "login", "name")->text, "amy b");
    ASSERT_STR_EQ(h_find(&h, EAR_UI_CONFIRMED, "login", "pass")->text, "pw");
    ASSERT_TRUE(h_find(&h, EAR_UI_CONFIRMED, "login", "remember")->checked);
    ASSERT_EQ(h_find(&h, EAR_UI_CONFIRMED, "login", "quality")->index, 1);
    ASSERT_NOT_NULL(h_find(&h, EAR_UI_CONFIRMED, "login", "ok"));
    ASSERT_NOT_NULL(h_find(&h, EAR_UI_CLOSED, "login", NULL));
    h_free(&h);
}

TEST(message_box_and_question_give_their_results) {
    harness h;
    ASSERT_OK(h_init(&h, NULL, 0));
    h_tr(&h, "en", "t.note", "Note");
    h_tr(&h, "en", "t.saved", "The game was saved.");
    h_tr(&h, "en", "t.quit", "Quit the game?");
    h_tr(&h, "de", "t.quit", "Spiel beenden?");
    ASSERT_OK(ear_ui_message(h.ctx, "saved", "t.note", "t.saved"));
    h_frame(&h);
    ASSERT_STR_EQ(h_said(&h, 2), "Note, dialog");
    ASSERT_STR_EQ(h_said(&h, 1), "The game was saved.");
    ASSERT_STR_EQ(h_said(&h, 0), "OK, button");
    h_press(&h, EAR_KEY_ENTER);
    ASSERT_EQ(h_find(&h, EAR_UI_CONFIRMED, "saved", "ok")->position, 0);
    ASSERT_EQ(ear_ui_depth(h.ui), 0);
    /* Escape on a message box is its OK too. */
    ASSERT_OK(ear_ui_message(h.ctx, "saved2", "t.note", "t.saved"));
    h_frame(&h);
    h_press(&h, EAR_KEY_ESCAPE);
    ASSERT_NOT_NULL(h_find(&h, EAR_UI_CONFIRMED, "saved2", "ok"));

    ASSERT_OK(ear_ui_question(h.ctx, "quit", "t.quit", false));
    h_frame(&h);
    ASSERT_STR_EQ(h_said(&h, 1), "Quit the game?, dialog");
    ASSERT_STR_EQ(h_said(&h, 0), "Yes, button, 1 of 2");
    h_press(&h, EAR_KEY_RIGHT);
    ASSERT_STR_EQ(h_said(&h, 0), "No, button, 2 of 2");
    h_press(&h, EAR_KEY_ENTER);
    const h_event *e = h_find(&h, EAR_UI_CONFIRMED, "quit", NULL);
    ASSERT_STR_EQ(e->item, "no");
    ASSERT_EQ(e->position, 1);

    ear_lang_set_language(ear_ctx_lang(h.ctx), "de");
    ASSERT_OK(ear_ui_question(h.ctx, "quit2", "t.quit", true));
    h_frame(&h);
    ASSERT_STR_EQ(h_said(&h, 1), "Spiel beenden?, Dialog");
    ASSERT_STR_EQ(h_said(&h, 0), "Nein, Schalter, 2 von 2");
    h_type(&h, "j"); /* first letter: Ja */
    ASSERT_STR_EQ(h_said(&h, 0), "Ja, Schalter, 1 von 2");
    h_press(&h, EAR_KEY_ENTER);
    ASSERT_STR_EQ(h_find(&h, EAR_UI_CONFIRMED, "quit2", NULL)->item, "yes");

    ASSERT_OK(ear_ui_question(h.ctx, "quit3", "t.quit", false));
    h_frame(&h);
    h_press(&h, EAR_KEY_ESCAPE);
    ASSERT_NOT_NULL(h_find(&h, EAR_UI_CANCELLED, "quit3", NULL));
    ASSERT_NULL(h_find(&h, EAR_UI_CONFIRMED, "quit3", NULL));
    h_free(&h);
}

/* ---- Input ------------------------------------------------------------------------------ */

typedef struct block_state {
    int game_space, raw_space;
} block_state;

static void block_update(ear_ctx *ctx, harness *h) {
    block_state *s = h->user;
    if (ear_key_pressed(ctx, EAR_KEY_SPACE)) s->game_space++;
    if (ear_input_raw_pressed(ear_ctx_input(ctx), EAR_KEY_SPACE)) s->raw_space++;
}

TEST(game_input_is_blocked_while_a_widget_is_open_but_the_raw_view_is_not) {
    harness h;
    ASSERT_OK(h_init(&h, NULL, 0));
    block_state s = {0};
    h.user = &s;
    h.on_update = block_update;
    h_press(&h, EAR_KEY_SPACE);
    ASSERT_EQ(s.game_space, 1);
    ASSERT_EQ(s.raw_space, 1);
    ASSERT_OK(ear_ui_message(h.ctx, "m", "t", "x"));
    h_frame(&h);
    ASSERT_TRUE(ear_input_blocked(ear_ctx_input(h.ctx)));
    h_press(&h, EAR_KEY_LEFT);
    h_press(&h, EAR_KEY_SPACE); /* presses OK: the box closes in that frame */
    ASSERT_EQ(s.game_space, 1);
    ASSERT_EQ(s.raw_space, 2);
    ASSERT_EQ(ear_ui_depth(h.ui), 0);
    ASSERT_FALSE(ear_input_blocked(ear_ctx_input(h.ctx)));
    h_press(&h, EAR_KEY_SPACE);
    ASSERT_EQ(s.game_space, 2);
    ASSERT_EQ(s.raw_space, 3);
    h_free(&h);
}

/* ---- A game's own widget ---------------------------------------------------------------- */

typedef struct counter_widget {
    int opens, resumes, updates;
    int answer;
    bool freed;
} counter_widget;

static void cw_open(ear_ui_context *uc, void *self) {
    ((counter_widget *)self)->opens++;
    ear_ui_play(uc, EAR_UI_SOUND_OPEN);
    ear_ui_say(uc, "counter");
}

static void cw_update(ear_ui_context *uc, void *self, ear_ui_status *st) {
    counter_widget *w = self;
    w->updates++;
    if (ear_ui_key_pressed(uc, EAR_KEY_Q)) {
        /* Push a yes/no dialog made from a menu. */
        ear_ui_menu *m;
        ear_ui_menu_create(&(ear_ui_menu_config){.id = "ask", .role = EAR_UI_ROLE_DIALOG}, &m);
        ear_ui_menu_add(m, &(ear_ui_item){.id = "a", .closes = true});
        ear_ui_menu_add(m, &(ear_ui_item){.id = "b", .closes = true});
        st->kind = EAR_UI_STATUS_PUSH;
        st->child = ear_ui_menu_widget(m);
    }
    if (ear_ui_key_pressed(uc, EAR_KEY_ESCAPE)) {
        st->kind = EAR_UI_STATUS_CLOSE_WITH;
        st->value.kind = EAR_UI_VALUE_NUMBER;
        st->value.number = w->answer;
    }
}

static void cw_resume(ear_ui_context *uc, void *self, const ear_ui_value *v) {
    counter_widget *w = self;
    w->resumes++;
    if (v && v->kind == EAR_UI_VALUE_INDEX) w->answer = v->index;
    ear_ui_post(uc, &(ear_ui_event){.kind = EAR_UI_CHANGED,
                                    .item = "answer",
                                    .text = v ? v->text : "",
                                    .index = w->answer});
}

static void cw_destroy(void *self) {
    ((counter_widget *)self)->freed = true;
}

TEST(a_widget_of_the_game_is_a_struct_of_callbacks) {
    harness h;
    ASSERT_OK(h_init(&h, NULL, 0));
    counter_widget w = {0};
    ear_ui_widget wd = {.id = "counter",
                        .self = &w,
                        .open = cw_open,
                        .update = cw_update,
                        .resume = cw_resume,
                        .destroy = cw_destroy};
    ASSERT_OK(ear_ui_open(h.ctx, &wd));
    ASSERT_EQ(w.opens, 0); /* deferred */
    h_frame(&h);
    ASSERT_EQ(w.opens, 1);
    ASSERT_EQ(w.updates, 0); /* Fresh: opened, no keys */
    h_press(&h, EAR_KEY_Q);
    ASSERT_EQ(ear_ui_depth(h.ui), 2);
    ASSERT_STR_EQ(h_said(&h, 1), "dialog");
    ASSERT_STR_EQ(h_said(&h, 0), "a, button, 1 of 2");
    h_press(&h, EAR_KEY_RIGHT);
    ASSERT_STR_EQ(h_said(&h, 0), "b, button, 2 of 2");
    /* The dialog closes with the chosen button; the widget below resumes with it. */
    h_press(&h, EAR_KEY_ENTER);
    ASSERT_EQ(ear_ui_depth(h.ui), 1);
    ASSERT_EQ(w.resumes, 1);
    ASSERT_EQ(w.answer, 1);
    ASSERT_NOT_NULL(h_find(&h, EAR_UI_CONFIRMED, "ask", "b"));
    ASSERT_STR_EQ(h_find(&h, EAR_UI_CHANGED, "counter", "answer")->text, "b");
    ASSERT_FALSE(w.freed);
    h_press(&h, EAR_KEY_ESCAPE);
    ASSERT_EQ(ear_ui_depth(h.ui), 0);
    ASSERT_TRUE(w.freed);
    ASSERT_NOT_NULL(h_find(&h, EAR_UI_CLOSED, "counter", NULL));
    h_free(&h);
}

TEST(escape_closes_cancels_or_stays_as_the_menu_chooses) {
    harness h;
    ASSERT_OK(h_init(&h, NULL, 0));
    static const ear_ui_escape modes[] = {EAR_UI_ESCAPE_CLOSE, EAR_UI_ESCAPE_CANCEL,
                                          EAR_UI_ESCAPE_NONE};
    static const char *const ids[] = {"close", "cancel", "stay"};
    for (int i = 0; i < 3; i++) {
        ear_ui_menu *m;
        ASSERT_OK(
            ear_ui_menu_create(&(ear_ui_menu_config){.id = ids[i], .escape = modes[i]}, &m));
        ASSERT_OK(ear_ui_menu_add(m, &(ear_ui_item){.id = "x"}));
        ASSERT_OK(ear_ui_open_menu(h.ctx, m));
        h_frame(&h);
        h_press(&h, EAR_KEY_ESCAPE);
    }
    ASSERT_NOT_NULL(h_find(&h, EAR_UI_CLOSED, "close", NULL));
    ASSERT_NULL(h_find(&h, EAR_UI_CANCELLED, "close", NULL));
    ASSERT_NOT_NULL(h_find(&h, EAR_UI_CANCELLED, "cancel", NULL));
    ASSERT_NOT_NULL(h_find(&h, EAR_UI_CLOSED, "cancel", NULL));
    ASSERT_NULL(h_find(&h, EAR_UI_CLOSED, "stay", NULL));
    ASSERT_TRUE(ear_ui_is_open(h.ctx, "stay"));
    ear_ui_close_all(h.ctx);
    h_frame(&h);
    ASSERT_NOT_NULL(h_find(&h, EAR_UI_CLOSED, "stay", NULL));
    ASSERT_EQ(ear_ui_depth(h.ui), 0);
    /* escape_item: Escape presses that button (a main menu's Quit, which asks), wherever
     * the focus is; the menu stays when the button does not close it. */
    ear_ui_menu *m;
    ASSERT_OK(ear_ui_menu_create(&(ear_ui_menu_config){.id = "main",
                                                       .escape = EAR_UI_ESCAPE_NONE,
                                                       .escape_item = "quit"},
                                 &m));
    ASSERT_OK(ear_ui_menu_add(m, &(ear_ui_item){.id = "play", .closes = true}));
    ASSERT_OK(ear_ui_menu_add(m, &(ear_ui_item){.id = "quit"}));
    ASSERT_OK(ear_ui_open_menu(h.ctx, m));
    h_frame(&h);
    h_press(&h, EAR_KEY_ESCAPE);
    const h_event *e = h_find(&h, EAR_UI_CLICKED, "main", NULL);
    ASSERT_TRUE(e != NULL);
    ASSERT_STR_EQ(e->item, "quit");
    ASSERT_EQ(e->position, 1);
    ASSERT_TRUE(ear_ui_is_open(h.ctx, "main"));
    ASSERT_EQ(ear_ui_menu_focused(ear_ui_find_menu(h.ctx, "main")), 0);
    h_free(&h);
}

TEST(close_by_id_closes_the_widgets_above_it_too) {
    harness h;
    ASSERT_OK(h_init(&h, NULL, 0));
    settings_texts(&h);
    ASSERT_OK(ear_ui_open_menu(h.ctx, settings_menu()));
    h_frame(&h);
    h_press(&h, EAR_KEY_ENTER); /* the name's text child */
    ASSERT_EQ(ear_ui_depth(h.ui), 2);
    ASSERT_OK(ear_ui_close(h.ctx, "settings"));
    ASSERT_EQ(ear_ui_close(h.ctx, "nothing"), EAR_E_NOT_FOUND);
    h_frame(&h);
    ASSERT_EQ(ear_ui_depth(h.ui), 0);
    ASSERT_NOT_NULL(h_find(&h, EAR_UI_CLOSED, "settings/name", NULL));
    ASSERT_NOT_NULL(h_find(&h, EAR_UI_CLOSED, "settings", NULL));
    ASSERT_FALSE(ear_ui_is_open(h.ctx, NULL));
    h_free(&h);
}

/* ---- Events are values ------------------------------------------------------------------- */

/* A game reads what happened without parsing: a kind enum, the ids, the item's position,
 * a toggle's state, a slider's number, a choice's index. */
TEST(events_carry_their_values_not_strings_to_parse) {
    harness h;
    ASSERT_OK(h_init(&h, NULL, 0));
    static const char *const speeds[] = {"t.slow", "t.fast"};
    ear_ui_menu *m;
    ASSERT_OK(ear_ui_menu_create(&(ear_ui_menu_config){.id = "opts"}, &m));
    ASSERT_OK(ear_ui_menu_add(m, &(ear_ui_item){.id = "mute", .kind = EAR_UI_TOGGLE}));
    ASSERT_OK(ear_ui_menu_add(m, &(ear_ui_item){.id = "gain",
                                                .kind = EAR_UI_SLIDER,
                                                .value = -6.5,
                                                .min = -12,
                                                .max = 0,
                                                .step = 0.5}));
    ASSERT_OK(ear_ui_menu_add(
        m, &(ear_ui_item){
               .id = "speed", .kind = EAR_UI_CHOICE, .choices = speeds, .choice_count = 2}));
    ASSERT_OK(ear_ui_open_menu(h.ctx, m));
    h_frame(&h);
    h_press(&h, EAR_KEY_SPACE); /* mute: checked */
    const h_event *e = h_find(&h, EAR_UI_CHANGED, "opts", "mute");
    ASSERT_NOT_NULL(e);
    ASSERT_TRUE(e->checked);
    ASSERT_EQ(e->position, 0);
    h_press(&h, EAR_KEY_DOWN);
    h_press(&h, EAR_KEY_LEFT); /* gain: -7 */
    e = h_find(&h, EAR_UI_CHANGED, "opts", "gain");
    ASSERT_NOT_NULL(e);
    ASSERT_NEAR(e->number, -7.0, 1e-12);
    ASSERT_EQ(e->position, 1);
    h_press(&h, EAR_KEY_ENTER); /* Enter on a slider: clicked, with its number */
    e = h_find(&h, EAR_UI_CLICKED, "opts", "gain");
    ASSERT_NOT_NULL(e);
    ASSERT_NEAR(e->number, -7.0, 1e-12);
    h_press(&h, EAR_KEY_DOWN);
    /* speed: fast, in one frame, so this update's queries see it */
    ear_runner_key_down(h.r, EAR_KEY_RIGHT);
    ear_runner_key_up(h.r, EAR_KEY_RIGHT);
    h_frame(&h);
    e = h_find(&h, EAR_UI_CHANGED, "opts", "speed");
    ASSERT_NOT_NULL(e);
    ASSERT_EQ(e->index, 1);
    ASSERT_STR_EQ(e->text, "t.fast");
    ASSERT_EQ(e->position, 2);
    /* The queries return the same event the scene's on_ui saw. */
    const ear_ui_event *q = ear_ui_changed(h.ctx, "opts", "speed");
    ASSERT_NOT_NULL(q);
    ASSERT_EQ(q->kind, EAR_UI_CHANGED);
    ASSERT_EQ(q->index, 1);
    ASSERT_TRUE(ear_ui_event_is(q, EAR_UI_CHANGED, "opts", "speed"));
    ASSERT_TRUE(ear_ui_event_is(q, EAR_UI_CHANGED, NULL, NULL));
    ASSERT_FALSE(ear_ui_event_is(q, EAR_UI_CLICKED, "opts", "speed"));
    ASSERT_FALSE(ear_ui_event_is(q, EAR_UI_CHANGED, "other", NULL));
    ASSERT_FALSE(ear_ui_event_is(q, EAR_UI_CHANGED, NULL, "spee"));
    ASSERT_FALSE(ear_ui_event_is(NULL, EAR_UI_CHANGED, NULL, NULL));
    h_press(&h, EAR_KEY_ESCAPE);
    e = h_find(&h, EAR_UI_CLOSED, "opts", NULL);
    ASSERT_NOT_NULL(e);
    ASSERT_EQ(e->position, -1); /* about the whole widget */
    ASSERT_STR_EQ(e->item, "");
    h_free(&h);
}

TEST(event_kinds_have_names_for_logs_and_posting_checks_the_kind) {
    ASSERT_STR_EQ(ear_ui_event_kind_name(EAR_UI_CLICKED), "clicked");
    ASSERT_STR_EQ(ear_ui_event_kind_name(EAR_UI_CHANGED), "changed");
    ASSERT_STR_EQ(ear_ui_event_kind_name(EAR_UI_CONFIRMED), "confirmed");
    ASSERT_STR_EQ(ear_ui_event_kind_name(EAR_UI_CANCELLED), "cancelled");
    ASSERT_STR_EQ(ear_ui_event_kind_name(EAR_UI_CLOSED), "closed");
    ASSERT_STR_EQ(ear_ui_event_kind_name(EAR_UI_EVENT_NONE), "none");
    ASSERT_NULL(ear_ui_event_kind_name(EAR_UI_EVENT_KIND_COUNT));
    harness h;
    ASSERT_OK(h_init(&h, NULL, 0));
    ear_ui_context uc = {.ui = h.ui, .widget_id = "mine"};
    ASSERT_EQ(ear_ui_post(&uc, &(ear_ui_event){.kind = EAR_UI_EVENT_NONE}), EAR_E_INVALID_ARG);
    ASSERT_EQ(ear_ui_post(&uc, &(ear_ui_event){.kind = EAR_UI_EVENT_KIND_COUNT}),
              EAR_E_INVALID_ARG);
    ASSERT_EQ(ear_ui_post(&uc, NULL), EAR_E_INVALID_ARG);
    /* The widget is the context's, whatever the event says. */
    ASSERT_OK(ear_ui_post(&uc, &(ear_ui_event){.kind = EAR_UI_CLICKED, .widget = "theirs"}));
    ASSERT_EQ(ear_ui_event_count(h.ctx), 1);
    ASSERT_STR_EQ(ear_ui_event_at(h.ctx, 0)->widget, "mine");
    ASSERT_STR_EQ(ear_ui_event_at(h.ctx, 0)->text, "");
    h_free(&h);
}

/* ---- Typing and Enter or Tab in one frame ---------------------------------------------- */

/* Text typed and a key pressed before the same frame (a fast typist, a paste, a script). */
static void h_type_and_press(harness *h, const char *text, ear_key key) {
    ear_runner_text(h->r, text);
    ear_runner_key_down(h->r, key);
    ear_runner_key_up(h->r, key);
    h_frames(h, 2);
}

TEST(text_typed_in_the_frame_of_enter_or_tab_comes_first) {
    harness h;
    ASSERT_OK(h_init(&h, NULL, 0));
    /* A text input: "abc" and Enter in one frame submit "abc". */
    ASSERT_OK(ear_ui_open_text(h.ctx, &(ear_ui_text_config){.id = "note", .label = "Note"}));
    h_frame(&h);
    h_type_and_press(&h, "abc", EAR_KEY_ENTER);
    const h_event *e = h_find(&h, EAR_UI_CONFIRMED, "note", NULL);
    ASSERT_NOT_NULL(e);
    ASSERT_STR_EQ(e->text, "abc");
    ASSERT_EQ(ear_ui_depth(h.ui), 0);

    /* A menu's text item: its child submits what was typed with the Enter. */
    ear_ui_menu *m;
    ASSERT_OK(ear_ui_menu_create(&(ear_ui_menu_config){.id = "profile"}, &m));
    ASSERT_OK(ear_ui_menu_add(m, &(ear_ui_item){.id = "name", .kind = EAR_UI_TEXT}));
    ASSERT_OK(ear_ui_open_menu(h.ctx, m));
    h_frame(&h);
    h_press(&h, EAR_KEY_ENTER); /* opens the child */
    ASSERT_EQ(ear_ui_depth(h.ui), 2);
    h_type_and_press(&h, "Bob", EAR_KEY_ENTER);
    ASSERT_EQ(ear_ui_depth(h.ui), 1);
    e = h_find(&h, EAR_UI_CHANGED, "profile", "name");
    ASSERT_NOT_NULL(e);
    ASSERT_STR_EQ(e->text, "Bob");
    ear_ui_close_all(h.ctx);
    h_frame(&h);

    /* A form: "amy" and Tab leave "amy" in the first field and move on; "bo" and Enter
     * fill the second and submit both. */
    ear_ui_menu *f;
    ASSERT_OK(ear_ui_menu_create(
        &(ear_ui_menu_config){.id = "login", .title = "Login", .role = EAR_UI_ROLE_FORM}, &f));
    ASSERT_OK(ear_ui_menu_add(f, &(ear_ui_item){.id = "name", .kind = EAR_UI_TEXT}));
    ASSERT_OK(ear_ui_menu_add(f, &(ear_ui_item){.id = "city", .kind = EAR_UI_TEXT}));
    ASSERT_OK(ear_ui_menu_add(f, &(ear_ui_item){.id = "ok", .closes = true}));
    ASSERT_OK(ear_ui_open_menu(h.ctx, f));
    h_frame(&h);
    h_type_and_press(&h, "amy", EAR_KEY_TAB);
    e = h_find(&h, EAR_UI_CHANGED, "login", "name");
    ASSERT_NOT_NULL(e);
    ASSERT_STR_EQ(e->text, "amy");
    ASSERT_EQ(ear_ui_menu_focused(ear_ui_find_menu(h.ctx, "login")), 1);
    h_type_and_press(&h, "bo", EAR_KEY_ENTER);
    ASSERT_EQ(ear_ui_depth(h.ui), 0);
    e = h_find(&h, EAR_UI_CONFIRMED, "login", "name");
    ASSERT_NOT_NULL(e);
    ASSERT_STR_EQ(e->text, "amy");
    e = h_find(&h, EAR_UI_CONFIRMED, "login", "city");
    ASSERT_NOT_NULL(e);
    ASSERT_STR_EQ(e->text, "bo");
    ASSERT_NOT_NULL(h_find(&h, EAR_UI_CONFIRMED, "login", "ok"));
    h_free(&h);
}

/* The same through the headless backend: a script's text and Enter at one frame. */
typedef struct typing_game {
    char submitted[64];
    int confirms;
} typing_game;

static void typing_start(ear_ctx *ctx, void *user) {
    (void)user;
    ear_ui_open_text(ctx, &(ear_ui_text_config){.id = "name", .label = "Name"});
}

static void typing_on_ui(ear_ctx *ctx, const ear_ui_event *e, void *user) {
    (void)ctx;
    typing_game *g = user;
    if (!ear_ui_event_is(e, EAR_UI_CONFIRMED, "name", NULL)) return;
    snprintf(g->submitted, sizeof g->submitted, "%s", e->text);
    g->confirms++;
}

TEST(headless_script_types_and_submits_in_one_frame) {
    ear_script script;
    ASSERT_OK(ear_script_parse("5 text abc\n5 press ENTER\n10 quit\n", &script, NULL, 0));
    typing_game g = {0};
    ear_ui *ui;
    ASSERT_OK(ear_ui_create(NULL, &ui));
    ear_engine_config cfg = ear_engine_config_default("typing");
    cfg.backend = EAR_BACKEND_HEADLESS;
    cfg.script = &script;
    ear_ui_attach(ui, &cfg);
    ear_scene scene = {
        .name = "typing", .start = typing_start, .on_ui = typing_on_ui, .user = &g};
    ASSERT_OK(ear_engine_run(&cfg, &scene));
    ASSERT_EQ(g.confirms, 1);
    ASSERT_STR_EQ(g.submitted, "abc");
    ear_ui_destroy(ui);
    ear_script_free(&script);
}

static void pad_press(harness *h, ear_pad_button b) {
    ear_runner_pad_button(h->r, 0, b, true);
    ear_runner_pad_button(h->r, 0, b, false);
    h_frame(h);
}

/* A gamepad works menus: the D-pad moves (and repeats when held), A chooses; a button
 * held as a widget opens is stale until let go, as a key is. */
TEST(a_gamepad_works_menus_by_the_dpad_and_a) {
    harness h;
    ASSERT_OK(h_init(&h, NULL, 0));
    ear_runner_pad_added(h.r, 0, false);
    ear_runner_pad_button(h.r, 0, EAR_PAD_DPAD_DOWN, true); /* held from the game */
    h_frames(&h, 10);
    ASSERT_OK(ear_ui_open_menu(h.ctx, numbered_menu("m", 12)));
    h_frames(&h, 60);
    ASSERT_EQ(ear_ui_menu_focused(ear_ui_find_menu(h.ctx, "m")), 0);
    ear_runner_pad_button(h.r, 0, EAR_PAD_DPAD_DOWN, false);
    h_frame(&h);
    pad_press(&h, EAR_PAD_DPAD_DOWN);
    ASSERT_EQ(ear_ui_menu_focused(ear_ui_find_menu(h.ctx, "m")), 1);
    ASSERT_STR_EQ(h_said(&h, 0), "i1, button, 2 of 12");
    /* Held for 60 frames: the press, then repeats at 0.5, 0.58 ... 0.98 s: 8 moves. */
    ear_runner_pad_button(h.r, 0, EAR_PAD_DPAD_DOWN, true);
    h_frames(&h, 60);
    ear_runner_pad_button(h.r, 0, EAR_PAD_DPAD_DOWN, false);
    h_frame(&h);
    ASSERT_EQ(ear_ui_menu_focused(ear_ui_find_menu(h.ctx, "m")), 9);
    pad_press(&h, EAR_PAD_DPAD_UP);
    pad_press(&h, EAR_PAD_A);
    ASSERT_NOT_NULL(h_find(&h, EAR_UI_CLICKED, "m", "i8"));
    h_free(&h);
}

/* With the game's ui.* actions the menus follow the player's bindings: S (bound to
 * ui.down) moves down, the Down key (not bound any more) does not, pad Y (bound) does.
 * The rebinding prompt answers the next control's text form, or cancels on Escape. */
TEST(menus_follow_the_games_ui_actions_and_the_prompt_captures_a_binding) {
    harness h;
    ASSERT_OK(h_init(&h, NULL, 0));
    static ear_actions a;
    ear_actions_init(&a);
    int p = ear_actions_add_profile(&a, "menus");
    int down = ear_actions_add(&a, "ui.down", EAR_ACTION_BUTTON);
    ear_actions_bind(&a, p, down, ear_bind_key(EAR_KEY_S));
    ear_actions_bind(&a, p, down, ear_bind_pad(EAR_PAD_Y));
    ear_ui_use_actions(h.ui, &a, p);
    ear_runner_pad_added(h.r, 0, false);
    ASSERT_OK(ear_ui_open_menu(h.ctx, numbered_menu("m", 5)));
    h_frames(&h, 2);
    h_press(&h, EAR_KEY_S);
    ASSERT_EQ(ear_ui_menu_focused(ear_ui_find_menu(h.ctx, "m")), 1);
    h_press(&h, EAR_KEY_DOWN);
    ASSERT_EQ(ear_ui_menu_focused(ear_ui_find_menu(h.ctx, "m")), 1);
    pad_press(&h, EAR_PAD_Y);
    ASSERT_EQ(ear_ui_menu_focused(ear_ui_find_menu(h.ctx, "m")), 2);
    h_press(&h, EAR_KEY_UP); /* ui.up not defined: Up keeps its key */
    ASSERT_EQ(ear_ui_menu_focused(ear_ui_find_menu(h.ctx, "m")), 1);

    ASSERT_OK(ear_ui_capture_binding(h.ctx, "cap", "Press the new key"));
    h_frames(&h, 2);
    ASSERT_STR_EQ(h_said(&h, 0), "Press the new key");
    ear_runner_pad_axis(h.r, 0, EAR_PAD_LEFT_Y, -32768);
    h_frames(&h, 2);
    const h_event *e = h_find(&h, EAR_UI_CONFIRMED, "cap", NULL);
    ASSERT_NOT_NULL(e);
    ASSERT_STR_EQ(e->text, "axis:LEFTY-");
    ASSERT_FALSE(ear_ui_is_open(h.ctx, "cap"));
    ASSERT_OK(ear_ui_capture_binding(h.ctx, "cap2", "Again"));
    h_frames(&h, 2);
    h_press(&h, EAR_KEY_ESCAPE);
    ASSERT_NOT_NULL(h_find(&h, EAR_UI_CANCELLED, "cap2", NULL));
    ASSERT_FALSE(ear_ui_is_open(h.ctx, "cap2"));
    ear_ui_use_actions(h.ui, NULL, 0);
    h_free(&h);
}

TEST_MAIN(TEST_ENTRY(a_gamepad_works_menus_by_the_dpad_and_a),
          TEST_ENTRY(a_quiet_slider_leaves_its_new_value_to_the_game),
          TEST_ENTRY(menus_follow_the_games_ui_actions_and_the_prompt_captures_a_binding),
          TEST_ENTRY(opening_is_deferred_so_the_opening_key_does_not_activate),
          TEST_ENTRY(headless_script_opens_a_menu_and_presses_its_item),
          TEST_ENTRY(every_navigation_key_says_the_expected_words_in_english),
          TEST_ENTRY(every_navigation_key_says_the_expected_words_in_german),
          TEST_ENTRY(describe_item_is_the_one_wording),
          TEST_ENTRY(sliders_step_by_fractions_clamp_and_speak_in_the_players_language),
          TEST_ENTRY(first_letters_cycle_and_typed_prefixes_search),
          TEST_ENTRY(held_keys_repeat_at_the_ui_repeat_rate),
          TEST_ENTRY(a_key_held_when_a_widget_opens_does_nothing_until_pressed_again),
          TEST_ENTRY(the_repeat_timing_can_be_changed_while_running),
          TEST_ENTRY(a_text_item_child_returns_its_text_and_changed_is_posted),
          TEST_ENTRY(text_editing_keys_move_by_character_and_word_and_speak_deletions),
          TEST_ENTRY(password_mode_says_star),
          TEST_ENTRY(multi_line_text_moves_by_line_and_submits_with_ctrl_enter),
          TEST_ENTRY(form_moves_with_tab_and_submits_by_its_default_button),
          TEST_ENTRY(message_box_and_question_give_their_results),
          TEST_ENTRY(game_input_is_blocked_while_a_widget_is_open_but_the_raw_view_is_not),
          TEST_ENTRY(a_widget_of_the_game_is_a_struct_of_callbacks),
          TEST_ENTRY(escape_closes_cancels_or_stays_as_the_menu_chooses),
          TEST_ENTRY(close_by_id_closes_the_widgets_above_it_too),
          TEST_ENTRY(events_carry_their_values_not_strings_to_parse),
          TEST_ENTRY(event_kinds_have_names_for_logs_and_posting_checks_the_kind),
          TEST_ENTRY(text_typed_in_the_frame_of_enter_or_tab_comes_first),
          TEST_ENTRY(headless_script_types_and_submits_in_one_frame))
