/*
 * Menu demo: the virtual UI (docs/modules/ui.md) in a tiny game. Escape opens the main
 * menu: Play, a Settings submenu (music volume, fullscreen, a name to type, a
 * difficulty), and Quit, which asks first. Every item speaks through the screen reader
 * and clicks on the ui bus; the menu has its own music (a synth tone, no files needed).
 *
 *     menu_demo                                   a window (SDL2), played by ear
 *     menu_demo --headless 300 --script FILE      without a window, keys from FILE
 *     menu_demo ... --lang de                     in German
 *
 * Headless, it prints what was said ("said: ...") and the events it got ("event: ...").
 */
#include "earshot/engine.h"
#include "earshot/ui.h"

#include <stdio.h>
#include <stdlib.h>
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
        printf("event: %s %s %s %s %d\n", e->kind, e->widget, e->item, e->value, e->index);
}

static void end(ear_ctx *ctx, void *user) {
    (void)user;
    if (!ear_ctx_headless(ctx)) return;
    ear_speech *sp = ear_ctx_speech(ctx);
    for (size_t i = 0; i < ear_speech_history_count(sp); i++)
        printf("said: %s\n", ear_speech_history_at(sp, i));
}

static char *read_text(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    static char text[65536];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    return text;
}

int main(int argc, char **argv) {
    ear_engine_config cfg = ear_engine_config_default("Menu demo");
    ear_script script = {0};
    for (int i = 1; i < argc; i++) {
        bool has_value = i + 1 < argc;
        if (strcmp(argv[i], "--headless") == 0 && has_value) {
            cfg.backend = EAR_BACKEND_HEADLESS;
            cfg.frames = strtoull(argv[++i], NULL, 10);
        } else if (strcmp(argv[i], "--script") == 0 && has_value) {
            const char *path = argv[++i];
            char error[256];
            const char *text = read_text(path);
            if (!text || ear_script_parse(text, &script, error, sizeof error)) {
                fprintf(stderr, "menu_demo: script '%s': %s\n", path,
                        text ? error : "cannot be read");
                return 2;
            }
            cfg.script = &script;
        } else if (strcmp(argv[i], "--lang") == 0 && has_value) {
            cfg.language = argv[++i];
        } else {
            fprintf(stderr,
                    "usage: menu_demo [--headless FRAMES] [--script FILE] [--lang CODE]\n");
            return 2;
        }
    }
    ear_ui *ui;
    if (ear_ui_create(NULL, &ui) != EAR_OK) return 1;
    ear_ui_attach(ui, &cfg);
    ear_scene scene = {
        .name = "menu demo", .start = start, .update = update, .on_ui = on_ui, .end = end};
    int code = ear_run(&cfg, &scene);
    ear_ui_destroy(ui);
    ear_script_free(&script);
    return code;
}
