/* SPDX-License-Identifier: Zlib */
/*
 * The demo game's menus (the UI module's widgets): main, level select, settings, pause,
 * completion and game over, the quit question; and their events (kind enums and ids, the
 * sliders' numbers), which choose a route for the session or change a setting.
 */
#include "demo_internal.h"

/* ---- Menus ---------------------------------------------------------------------------- */

static ear_ui_menu *menu(const char *id, const char *title, ear_ui_escape esc) {
    ear_ui_menu *m = NULL;
    ear_ui_menu_create(&(ear_ui_menu_config){.id = id, .title = title, .escape = esc}, &m);
    return m;
}

static void button(ear_ui_menu *m, const char *id, const char *label, bool closes) {
    ear_ui_menu_add(m, &(ear_ui_item){.id = id, .label = label, .closes = closes});
}

/* The best time of a level in the save, or 0 when it was never finished. */
static double best_time(demo *d, int level) {
    char key[40];
    snprintf(key, sizeof key, "progress.best%d", level);
    return ear_storage_get_double(d->save, key, 0);
}

/* A level's label in the level list: its title, and its best time once it has one
 * ("Level 1: the garden, best time 28.2 seconds"). Labels are translation keys looked up
 * when spoken, so the label is set as a text of its own ("pick.levelN") in both
 * languages: a language switched in the settings speaks it in the new one. */
static const char *level_label(ear_ctx *ctx, demo *d, int level) {
    static const char *const keys[DEMO_LEVELS] = {"pick.level1", "pick.level2", "pick.level3"};
    double best = best_time(d, level);
    if (!(best > 0)) return d->levels[level - 1].title_key;
    for (int l = 0; l < 2; l++) {
        char title[128], format[128], t[32], text[256];
        demo_text(d, demo__language_codes[l], d->levels[level - 1].title_key, title,
                  sizeof title);
        demo_text(d, demo__language_codes[l], "best.label", format, sizeof format);
        demo__fmt_time(t, sizeof t, best, l == 1);
        /* "{level}, best time {time} seconds": the two fields in order */
        const char *a = strstr(format, "{level}"), *b = strstr(format, "{time}");
        if (!a || !b || b < a) return d->levels[level - 1].title_key;
        snprintf(text, sizeof text, "%.*s%s%.*s%s%s", (int)(a - format), format, title,
                 (int)(b - (a + 7)), a + 7, t, b + 6);
        ear_lang_set_text(ear_ctx_lang(ctx), demo__language_codes[l], keys[level - 1], text);
    }
    return keys[level - 1];
}

static ear_ui_menu *levels_menu(ear_ctx *ctx, demo *d) {
    ear_ui_menu *m = menu("levels", "menu.levels", EAR_UI_ESCAPE_CLOSE);
    for (int i = 0; i < DEMO_LEVELS; i++) {
        char id[16];
        snprintf(id, sizeof id, "%d", i + 1);
        button(m, id, level_label(ctx, d, i + 1), true);
    }
    return m;
}

/* The speech rate's slider. Its new value is said by the game once the rate is set
 * (quiet_change), so the player hears it at that rate: said by the menu it was sent to
 * the speech output before the game had the change, at the old rate. */
static ear_ui_item rate_item(void) {
    return (ear_ui_item){.id = "rate",
                         .label = "set.rate",
                         .kind = EAR_UI_SLIDER,
                         .min = -100,
                         .max = 100,
                         .step = 10,
                         .quiet_change = true};
}

static ear_ui_menu *settings_menu(demo *d) {
    ear_ui_menu *m = menu("settings", "menu.settings", EAR_UI_ESCAPE_CLOSE);
    const char *ids[] = {"master", "music", "sound", "speech"};
    const char *labels[] = {"set.master", "set.music", "set.sound", "set.speech"};
    double values[] = {d->set.master, d->set.music, d->set.sound, d->set.speech};
    /* the web's speech is the player's screen reader: no volume or rate of the game's */
    bool speech = !d->opt.screen_reader_speech;
    for (int i = 0; i < (speech ? 4 : 3); i++)
        ear_ui_menu_add(m, &(ear_ui_item){.id = ids[i],
                                          .label = labels[i],
                                          .kind = EAR_UI_SLIDER,
                                          .value = values[i],
                                          .min = 0,
                                          .max = 100,
                                          .step = 10,
                                          .unit = "ui.unit.percent"});
    if (speech) {
        ear_ui_item rate = rate_item();
        rate.value = d->set.rate;
        ear_ui_menu_add(m, &rate);
    }
    ear_ui_menu_add(m, &(ear_ui_item){.id = "language",
                                      .label = "set.language",
                                      .kind = EAR_UI_CHOICE,
                                      .choices = demo__language_choices,
                                      .choice_count = 2,
                                      .selected = (size_t)d->set.language});
    if (d->opt.load_hrtf) /* a build without an HRTF loader (the web) does not offer it */
        ear_ui_menu_add(m, &(ear_ui_item){.id = "headphones",
                                          .label = "set.headphones",
                                          .kind = EAR_UI_TOGGLE,
                                          .checked = demo_headphones(d)});
    ear_ui_menu_add(m, &(ear_ui_item){.id = "repeat_delay",
                                      .label = "set.repeat_delay",
                                      .kind = EAR_UI_SLIDER,
                                      .value = d->set.repeat_delay_s,
                                      .min = 0.2,
                                      .max = 1.0,
                                      .step = 0.1,
                                      .unit = "ui.unit.seconds"});
    ear_ui_menu_add(m, &(ear_ui_item){.id = "repeat_every",
                                      .label = "set.repeat_every",
                                      .kind = EAR_UI_SLIDER,
                                      .value = d->set.repeat_every_s,
                                      .min = 0.04,
                                      .max = 0.3,
                                      .step = 0.02,
                                      .unit = "ui.unit.seconds"});
    button(m, "controls", "set.controls", false);
    button(m, "keys", "set.keys", false);
    button(m, "back", "menu.back", true);
    return m;
}

/* The start menu's music: the session takes its own hold when the first menu opens and
 * keeps it to the end, so a level's trim never unloads it
 * and a return to the menus reads nothing again. */
void demo__play_menu_music(ear_ctx *ctx, demo *d) {
    if (!d->menu_music &&
        ear_assets_acquire(ear_ctx_assets(ctx), "menu", &d->menu_music) != EAR_OK)
        d->menu_music = NULL;
    if (d->menu_music)
        ear_stage_music_play(ear_ctx_stage(ctx),
                             &(ear_music_params){.name = "menu",
                                                 .source = {.clip = d->menu_music},
                                                 .loop = true,
                                                 .crossfade_s = 1.0f});
}

void demo__open_main_menu(ear_ctx *ctx, demo *d, const char *focus) {
    ear_ui_close_all(ctx);
    /* Escape presses Quit, which asks (the main menu has nothing to go back to) */
    ear_ui_menu *m = NULL;
    ear_ui_menu_create(&(ear_ui_menu_config){.id = "main",
                                             .title = "menu.main",
                                             .escape = EAR_UI_ESCAPE_NONE,
                                             .escape_item = "quit"},
                       &m);
    button(m, "play", "menu.play", true);
    ear_ui_menu_add(m, &(ear_ui_item){.id = "levels",
                                      .label = "menu.levels",
                                      .kind = EAR_UI_SUBMENU,
                                      .submenu = levels_menu(ctx, d)});
    ear_ui_menu_add(m, &(ear_ui_item){.id = "settings",
                                      .label = "menu.settings",
                                      .kind = EAR_UI_SUBMENU,
                                      .submenu = settings_menu(d)});
    button(m, "help", "menu.help", false);
    button(m, "quit", "menu.quit", false); /* it asks first: the menu stays under it */
    if (focus) ear_ui_menu_focus(m, focus);
    ear_ui_menu_set_after_speech(m, d->reported); /* after a damaged save's report */
    ear_ui_open_menu(ctx, m);
    d->screen = SCREEN_MENU;
}

/* Level Select (from the pause, completion and game-over menus): the game closes, the
 * start menu opens with its level list on top (Escape goes back to the start menu); the
 * level's files stay held, idle, until another level opens. */
void demo__open_level_select(ear_ctx *ctx, demo *d) {
    demo__unload_level(ctx, d);
    d->completed = d->game_over = false;
    d->paused_by_player = false;
    ear_time_resume(ear_ctx_time(ctx), EAR_PAUSE_MENU | EAR_PAUSE_PLAYER);
    demo__play_menu_music(ctx, d);
    demo__open_main_menu(ctx, d, "levels");
    ear_ui_open_menu(ctx, levels_menu(ctx, d));
}

/* Back to the main menu (Escape on the completion or game-over menu): the level closes
 * as for Level Select, the main menu opens focused on Play. */
void demo__open_menu_route(ear_ctx *ctx, demo *d) {
    demo__unload_level(ctx, d);
    d->completed = d->game_over = false;
    d->paused_by_player = false;
    ear_time_resume(ear_ctx_time(ctx), EAR_PAUSE_MENU | EAR_PAUSE_PLAYER);
    demo__play_menu_music(ctx, d);
    demo__open_main_menu(ctx, d, NULL);
}

void demo__open_pause_menu(ear_ctx *ctx, demo *d) {
    ear_ui_menu *m = menu("pause", "menu.pause", EAR_UI_ESCAPE_CLOSE);
    button(m, "resume", "menu.resume", true);
    button(m, "restart", "menu.restart", true);
    button(m, "levels", "menu.levels", true); /* the Level Select route */
    ear_ui_menu_add(m, &(ear_ui_item){.id = "settings",
                                      .label = "menu.settings",
                                      .kind = EAR_UI_SUBMENU,
                                      .submenu = settings_menu(d)});
    button(m, "quit", "menu.quit", false); /* it asks first: the level would be lost */
    ear_ui_open_menu(ctx, m);
}

/* "Quit the game?", No first: a stray Enter keeps the game. Yes quits (the confirmed
 * event); No and Escape go back to the menu under it. */
static void ask_quit(ear_ctx *ctx) {
    ear_ui_question(ctx, "quit", "quit.ask", true);
}

/* The completion menu says the level's best time and whether the progress was saved
 * (its message, after its title); `note` is that text, or "" for none. */
void demo__open_end_menu(ear_ctx *ctx, demo *d, bool complete, const char *note) {
    ear_ui_menu *m = NULL;
    if (note && note[0]) {
        ear_lang_set_text(ear_ctx_lang(ctx), ear_lang_language(ear_ctx_lang(ctx)), "end.note",
                          note);
    }
    /* Escape goes back to the main menu (cancelled) */
    ear_ui_menu_create(
        &(ear_ui_menu_config){.id = complete ? "complete" : "gameover",
                              .title = complete ? "menu.complete" : "menu.gameover",
                              .message = note && note[0] ? "end.note" : NULL,
                              .escape = EAR_UI_ESCAPE_CANCEL},
        &m);
    if (complete && d->level < DEMO_LEVELS) button(m, "next", "menu.next", true);
    if (complete)
        button(m, "replay", "menu.replay", true);
    else
        button(m, "retry", "menu.retry", true);
    button(m, "levels", "menu.levels", true); /* the Level Select route */
    button(m, "exit", "menu.exit", true);
    ear_ui_menu_set_after_speech(m, d->reported); /* the result first, whole */
    ear_ui_open_menu(ctx, m);
}

/* A level that could not be loaded is said, with why, and the player stays where they
 * were: the level being played (its menu again: the completion or game-over menu, or the
 * pause menu, each of which closed as it was chosen), or the main menu. */
void demo__load_failed(ear_ctx *ctx, demo *d, int level, const char *why) {
    ear_log(EAR_LOG_ERROR, "demo", "level %d: %s", level, why);
    char text[800];
    ear_lang_arg a[2] = {demo__arg_s("level", ear_tr(ctx, d->levels[level - 1].title_key)),
                         demo__arg_s("why", why)};
    if (ear_lang_format(ear_ctx_lang(ctx), "load.failed", a, 2, text, sizeof text, NULL) !=
        EAR_OK)
        snprintf(text, sizeof text, "%s", why);
    char stay[300] = "";
    ear_lang_arg c[1] = {
        demo__arg_s("current", d->map ? ear_tr(ctx, d->levels[d->level - 1].title_key) : "")};
    ear_lang_format(ear_ctx_lang(ctx), d->map ? "load.stay" : "load.stay_menu", c, 1, stay,
                    sizeof stay, NULL);
    snprintf(text + strlen(text), sizeof text - strlen(text), " %s", stay);
    /* A report: the menu reopened below says its title after it, never over it. */
    demo__report(ctx, d, text);
    if (!d->map) {
        demo__open_main_menu(ctx, d, NULL);
    } else if (d->completed || d->game_over) {
        demo__open_end_menu(ctx, d, d->completed, NULL);
    } else if (d->paused_by_player) {
        demo__open_pause_menu(ctx, d);
    }
}

static void choose(demo *d, demo_route r, int level) {
    if (d->closing) return; /* the close's Exit stands */
    d->route = r;
    d->route_level = level;
}

void demo__on_ui(ear_ctx *ctx, const ear_ui_event *e, void *user) {
    demo *d = user;
    if (demo__controls_on_ui(ctx, d, e)) return;
    if (ear_ui_event_is(e, EAR_UI_CLICKED, "levels", NULL)) {
        choose(d, DEMO_ROUTE_PLAY, e->position + 1); /* the buttons are the levels in order */
    } else if (ear_ui_event_is(e, EAR_UI_CLICKED, "main", NULL)) {
        if (ear_ui_event_is(e, EAR_UI_CLICKED, "main", "play")) {
            int next = 1;
            for (int i = 1; i <= DEMO_LEVELS; i++) {
                char key[32];
                snprintf(key, sizeof key, "progress.level%d", i);
                if (ear_storage_get_bool(d->save, key, false) && i < DEMO_LEVELS) next = i + 1;
            }
            choose(d, DEMO_ROUTE_PLAY, next);
        } else if (ear_ui_event_is(e, EAR_UI_CLICKED, "main", "help")) {
            ear_ui_message(ctx, "help", "menu.help", "help");
        } else if (ear_ui_event_is(e, EAR_UI_CLICKED, "main", "quit")) {
            ask_quit(ctx);
        }
    } else if (ear_ui_event_is(e, EAR_UI_CONFIRMED, "quit", "yes")) {
        /* the question: Yes quits; No and Escape leave the menu under it as it was */
        choose(d, DEMO_ROUTE_EXIT, 0);
    } else if (ear_ui_event_is(e, EAR_UI_CLICKED, "pause", NULL)) {
        if (ear_ui_event_is(e, EAR_UI_CLICKED, NULL, "resume")) {
            d->paused_by_player = false;
            ear_time_resume(ear_ctx_time(ctx), EAR_PAUSE_PLAYER);
        } else if (ear_ui_event_is(e, EAR_UI_CLICKED, NULL, "restart")) {
            choose(d, DEMO_ROUTE_RETRY, d->level);
        } else if (ear_ui_event_is(e, EAR_UI_CLICKED, NULL, "levels")) {
            choose(d, DEMO_ROUTE_LEVEL_SELECT, 0);
        } else if (ear_ui_event_is(e, EAR_UI_CLICKED, NULL, "quit")) {
            ask_quit(ctx); /* the level in progress would be lost */
        }
    } else if (ear_ui_event_is(e, EAR_UI_CLOSED, "pause", NULL)) {
        if (d->paused_by_player && d->route == DEMO_ROUTE_NONE) {
            d->paused_by_player = false;
            ear_time_resume(ear_ctx_time(ctx), EAR_PAUSE_PLAYER);
        }
    } else if (ear_ui_event_is(e, EAR_UI_CLICKED, "complete", NULL) ||
               ear_ui_event_is(e, EAR_UI_CLICKED, "gameover", NULL)) {
        if (ear_ui_event_is(e, EAR_UI_CLICKED, NULL, "next"))
            choose(d, DEMO_ROUTE_NEXT, d->level + 1);
        if (ear_ui_event_is(e, EAR_UI_CLICKED, NULL, "replay"))
            choose(d, DEMO_ROUTE_REPLAY, d->level);
        if (ear_ui_event_is(e, EAR_UI_CLICKED, NULL, "retry"))
            choose(d, DEMO_ROUTE_RETRY, d->level);
        if (ear_ui_event_is(e, EAR_UI_CLICKED, NULL, "levels"))
            choose(d, DEMO_ROUTE_LEVEL_SELECT, 0);
        if (ear_ui_event_is(e, EAR_UI_CLICKED, NULL, "exit")) choose(d, DEMO_ROUTE_EXIT, 0);
    } else if (ear_ui_event_is(e, EAR_UI_CANCELLED, "complete", NULL) ||
               ear_ui_event_is(e, EAR_UI_CANCELLED, "gameover", NULL)) {
        choose(d, DEMO_ROUTE_MENU, 0); /* Escape: back to the main menu */
    } else if (ear_ui_event_is(e, EAR_UI_CHANGED, "settings", NULL)) {
        /* sliders carry their number, the language its choice's index, headphones the
         * toggle's state */
        if (ear_ui_event_is(e, EAR_UI_CHANGED, NULL, "master")) d->set.master = e->number;
        if (ear_ui_event_is(e, EAR_UI_CHANGED, NULL, "music")) d->set.music = e->number;
        if (ear_ui_event_is(e, EAR_UI_CHANGED, NULL, "sound")) d->set.sound = e->number;
        if (ear_ui_event_is(e, EAR_UI_CHANGED, NULL, "speech")) {
            d->set.speech = e->number;
            d->set.speech_chosen = true;
        }
        if (ear_ui_event_is(e, EAR_UI_CHANGED, NULL, "rate")) {
            d->set.rate = (int)e->number;
            d->set.rate_chosen = true;
        }
        if (ear_ui_event_is(e, EAR_UI_CHANGED, NULL, "repeat_delay"))
            d->set.repeat_delay_s = e->number;
        if (ear_ui_event_is(e, EAR_UI_CHANGED, NULL, "repeat_every"))
            d->set.repeat_every_s = e->number;
        if (ear_ui_event_is(e, EAR_UI_CHANGED, NULL, "language") && e->index >= 0 &&
            e->index < 2)
            d->set.language = e->index;
        bool headphones = ear_ui_event_is(e, EAR_UI_CHANGED, NULL, "headphones");
        if (headphones) {
            d->set.headphones = e->checked;
            d->opt.headphones = 0; /* the player's choice now rules, not the flag */
        }
        demo__store_settings(d);
        demo__apply_settings(ctx, d);
        if (headphones) demo__apply_headphones(ctx, d, d->set.headphones);
        if (ear_ui_event_is(e, EAR_UI_CHANGED, NULL, "rate")) {
            /* the new rate is in force: its value said at it */
            ear_ui_item rate = rate_item();
            char said[64];
            ear_ui_describe_value(ear_ctx_lang(ctx), &rate, e->number, said, sizeof said);
            demo__say(ctx, said);
        }
    } else if (ear_ui_event_is(e, EAR_UI_CLICKED, "settings", "keys")) {
        demo__say(ctx, ear_tr(ctx, "keys"));
    }
}
