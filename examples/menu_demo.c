/* SPDX-License-Identifier: Zlib */
/*
 * Menu demo: the virtual UI (docs/modules/ui.md) in a tiny game. Escape opens the main
 * menu: Play, a Settings submenu (music volume, fullscreen, a name to type, a
 * difficulty), and Quit, which asks first. Every item speaks through the screen reader
 * and clicks on the ui bus; the menu has its own music (a synth tone, no files needed).
 *
 *     menu_demo                                   a window (SDL2), played by ear
 *     menu_demo --headless 300 --script FILE      without a window, keys from FILE
 *     menu_demo ... --lang de                     in German
 *     menu_demo --help | --version
 *
 * Headless, it prints what was said ("said: ...") and the events it got ("event: ...").
 */
#include "cli_options.h"

#include "earshot/engine.h"
#include "earshot/ui.h"

#include <stdio.h>
#include <string.h>

static const char *const difficulty[] = {"demo.easy", "demo.normal", "demo.hard"};

static const char english[] = "demo.main = Main menu\n"
                              "demo.play = Play\n"
                              "demo.settings = Settings\n"
                              "demo.music = Music volume\n"
                              "demo.fullscreen = Fullscreen\n"
                              "demo.name = Name\n"
                              "demo.difficulty = Difficulty\n"
                              "demo.easy = Easy\n"
                              "demo.normal = Normal\n"
                              "demo.hard = Hard\n"
                              "demo.quit = Quit\n"
                              "demo.sure = Really quit?\n"
                              "demo.started = The game would start here.\n";
static const char german[] = "demo.main = Hauptmenü\n"
                             "demo.play = Spielen\n"
                             "demo.settings = Einstellungen\n"
                             "demo.music = Musiklautstärke\n"
                             "demo.fullscreen = Vollbild\n"
                             "demo.name = Name\n"
                             "demo.difficulty = Schwierigkeit\n"
                             "demo.easy = Leicht\n"
                             "demo.normal = Normal\n"
                             "demo.hard = Schwer\n"
                             "demo.quit = Beenden\n"
                             "demo.sure = Wirklich beenden?\n"
                             "demo.started = Hier würde das Spiel beginnen.\n";

static void open_main_menu(ear_ctx *ctx) {
    ear_ui_menu *settings, *menu;
    ear_ui_menu_create(&(ear_ui_menu_config){.id = "settings", .title = "demo.settings"},
                       &settings);
    ear_ui_menu_add(settings, &(ear_ui_item){.id = "music",
                                             .label = "demo.music",
                                             .kind = EAR_UI_SLIDER,
                                             .value = 70,
                                             .step = 5,
                                             .unit = "ui.unit.percent"});
    ear_ui_menu_add(
        settings,
        &(ear_ui_item){.id = "fullscreen", .label = "demo.fullscreen", .kind = EAR_UI_TOGGLE});
    ear_ui_menu_add(settings, &(ear_ui_item){.id = "name",
                                             .label = "demo.name",
                                             .kind = EAR_UI_TEXT,
                                             .max_length = 16});
    ear_ui_menu_add(settings, &(ear_ui_item){.id = "difficulty",
                                             .label = "demo.difficulty",
                                             .kind = EAR_UI_CHOICE,
                                             .choices = difficulty,
                                             .choice_count = 3,
                                             .selected = 1});
    ear_ui_menu_create(&(ear_ui_menu_config){.id = "main",
                                             .title = "demo.main",
                                             .music = "synth:sine:220:2:0.1"},
                       &menu);
    ear_ui_menu_add(menu, &(ear_ui_item){.id = "play", .label = "demo.play", .closes = true});
    ear_ui_menu_add(menu, &(ear_ui_item){.id = "settings",
                                         .label = "demo.settings",
                                         .kind = EAR_UI_SUBMENU,
                                         .submenu = settings});
    ear_ui_menu_add(menu, &(ear_ui_item){.id = "quit", .label = "demo.quit"});
    ear_ui_open_menu(ctx, menu);
}

static void start(ear_ctx *ctx, void *user) {
    (void)user;
    ear_lang *lang = ear_ctx_lang(ctx);
    ear_lang_load_text(lang, "en", english, sizeof english - 1, "english", NULL);
    ear_lang_load_text(lang, "de", german, sizeof german - 1, "german", NULL);
    open_main_menu(ctx);
}

static void update(ear_ctx *ctx, void *user) {
    (void)user;
    if (ear_ui_clicked(ctx, "main", "play")) ear_say(ctx, ear_tr(ctx, "demo.started"));
    if (ear_ui_clicked(ctx, "main", "quit")) ear_ui_question(ctx, "sure", "demo.sure", true);
    const ear_ui_event *answer = ear_ui_confirmed(ctx, "sure", "yes");
    if (answer) ear_quit(ctx);
    if (ear_key_pressed(ctx, EAR_KEY_ESCAPE)) open_main_menu(ctx);
}

static void on_ui(ear_ctx *ctx, const ear_ui_event *e, void *user) {
    (void)user;
    if (ear_ctx_headless(ctx))
        printf("event: %s %s %s position %d checked %d number %g index %d text '%s'\n",
               ear_ui_event_kind_name(e->kind), e->widget, e->item, e->position, e->checked,
               e->number, e->index, e->text);
}

static void end(ear_ctx *ctx, void *user) {
    (void)user;
    if (!ear_ctx_headless(ctx)) return;
    ear_speech *sp = ear_ctx_speech(ctx);
    for (size_t i = 0; i < ear_speech_history_count(sp); i++)
        printf("said: %s\n", ear_speech_history_at(sp, i));
}

static const char usage_text[] =
    "usage: menu_demo [--headless FRAMES] [--script FILE] [--lang CODE]\n"
    "       menu_demo --help | --version\n"
    "Escape opens the main menu; arrows, Enter, Space and letters move through it.\n"
    "--headless runs FRAMES frames (1 to 100000000) without a window and prints what was\n"
    "said and the events the game got.\n";

int main(int argc, char **argv) {
    ear_engine_config cfg = ear_engine_config_default("Menu demo");
    ear_script script = {0};
    int code = 2;
    for (int i = 1; i < argc; i++) {
        bool has_value = i + 1 < argc;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            code = cli_print_help(usage_text);
            goto done;
        } else if (strcmp(argv[i], "--version") == 0) {
            code = cli_print_version("menu_demo");
            goto done;
        } else if (strcmp(argv[i], "--headless") == 0 && has_value) {
            cfg.backend = EAR_BACKEND_HEADLESS;
            if (!cli_parse_frames("menu_demo", argv[++i], &cfg.frames)) goto done;
        } else if (strcmp(argv[i], "--script") == 0 && has_value && !cfg.script) {
            if (!cli_load_script("menu_demo", argv[++i], &script)) goto done;
            cfg.script = &script;
        } else if (strcmp(argv[i], "--lang") == 0 && has_value) {
            cfg.language = argv[++i];
        } else {
            fputs(usage_text, stderr);
            goto done;
        }
    }
    ear_ui *ui;
    if (ear_ui_create(NULL, &ui) != EAR_OK) {
        fprintf(stderr, "menu_demo: out of memory\n");
        code = 1;
        goto done;
    }
    ear_ui_attach(ui, &cfg);
    ear_scene scene = {
        .name = "menu demo", .start = start, .update = update, .on_ui = on_ui, .end = end};
    code = ear_run(&cfg, &scene);
    ear_ui_destroy(ui);
done:
    ear_script_free(&script);
    return code;
}
