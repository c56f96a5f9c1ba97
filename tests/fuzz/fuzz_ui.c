/* SPDX-License-Identifier: Zlib */
/*
 * The UI under libFuzzer: a random stream of keys, held keys, typed text (any bytes,
 * valid UTF-8 or not) and game-side requests (open a message box or a question, close a
 * widget by id, close everything) fed frame by frame into a headless engine whose UI
 * starts with a nested menu (toggle, slider, choice, text item, a submenu with its own
 * text item and a form). Any crash, leak, sanitizer report or broken promise
 * (check_promises) fails.
 *
 * Input bytes are read two at a time: an operation and its argument.
 */
#include "earshot/engine.h"
#include "earshot/ui.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct fuzz_game {
    const uint8_t *data;
    size_t size, at;
    int request; /* a game-side request for the next update, or -1 */
    uint8_t request_arg;
} fuzz_game;

static const char *const levels[] = {"easy", "normal", "hard"};

static ear_ui_menu *build_menus(void) {
    ear_ui_menu *form, *sub, *main_menu;
    ear_ui_menu_create(&(ear_ui_menu_config){.id = "form",
                                             .title = "Form",
                                             .role = EAR_UI_ROLE_FORM,
                                             .escape = EAR_UI_ESCAPE_CANCEL},
                       &form);
    ear_ui_menu_add(form, &(ear_ui_item){.id = "name", .kind = EAR_UI_TEXT, .max_length = 8});
    ear_ui_menu_add(form, &(ear_ui_item){.id = "pw", .kind = EAR_UI_TEXT, .password = true});
    ear_ui_menu_add(form, &(ear_ui_item){.id = "ml", .kind = EAR_UI_TEXT, .multiline = true});
    ear_ui_menu_add(form, &(ear_ui_item){.id = "t", .kind = EAR_UI_TOGGLE});
    ear_ui_menu_add(form, &(ear_ui_item){.id = "s",
                                         .kind = EAR_UI_SLIDER,
                                         .min = -1,
                                         .max = 1,
                                         .step = 0.1,
                                         .unit = "ui.unit.seconds"});
    ear_ui_menu_add(
        form,
        &(ear_ui_item){.id = "c", .kind = EAR_UI_CHOICE, .choices = levels, .choice_count = 3});
    ear_ui_menu_add(form, &(ear_ui_item){.id = "ok", .closes = true});
    ear_ui_menu_add(form, &(ear_ui_item){.id = "no", .cancels = true, .disabled = false});
    ear_ui_menu_create(
        &(ear_ui_menu_config){
            .id = "sub", .title = "Sub", .no_wrap = true, .music = "synth:sine:220:1"},
        &sub);
    ear_ui_menu_add(sub, &(ear_ui_item){.id = "text", .kind = EAR_UI_TEXT, .max_length = 4});
    ear_ui_menu_add(sub, &(ear_ui_item){.id = "form", .kind = EAR_UI_SUBMENU, .submenu = form});
    ear_ui_menu_add(sub, &(ear_ui_item){.id = "off", .disabled = true});
    ear_ui_menu_set_sound(sub, EAR_UI_SOUND_NAVIGATE, "ui:custom:blip");
    ear_ui_menu_create(
        &(ear_ui_menu_config){.id = "main", .title = "Main", .escape = EAR_UI_ESCAPE_NONE},
        &main_menu);
    ear_ui_menu_add(main_menu, &(ear_ui_item){.id = "play"});
    ear_ui_menu_add(main_menu, &(ear_ui_item){.id = "full", .kind = EAR_UI_TOGGLE});
    ear_ui_menu_add(main_menu, &(ear_ui_item){.id = "vol",
                                              .kind = EAR_UI_SLIDER,
                                              .value = 50,
                                              .step = 7,
                                              .big_step = 30,
                                              .unit = "ui.unit.percent"});
    ear_ui_menu_add(main_menu, &(ear_ui_item){.id = "lvl",
                                              .kind = EAR_UI_CHOICE,
                                              .choices = levels,
                                              .choice_count = 3});
    ear_ui_menu_add(main_menu, &(ear_ui_item){.id = "nick", .kind = EAR_UI_TEXT});
    ear_ui_menu_add(main_menu,
                    &(ear_ui_item){.id = "more", .kind = EAR_UI_SUBMENU, .submenu = sub});
    ear_ui_menu_add(main_menu, &(ear_ui_item){.id = "quit", .closes = true});
    return main_menu;
}

/* The UI's promises, checked after every UI update: at most EAR_UI_DEPTH_MAX widgets;
 * the game's input blocked while one is open; events of the five kinds, each naming its
 * widget, with values in valid UTF-8 (typed text is filtered); everything said valid
 * UTF-8 too (descriptions are cut on character boundaries). */
static void check_promises(ear_ctx *ctx) {
    ear_ui *ui = ear_ui_of(ctx);
    if (ear_ui_depth(ui) > EAR_UI_DEPTH_MAX) abort();
    if (ear_ui_depth(ui) > 0 && !ear_input_blocked(ear_ctx_input(ctx))) abort();
    for (size_t i = 0; i < ear_ui_event_count(ctx); i++) {
        const ear_ui_event *e = ear_ui_event_at(ctx, i);
        bool known = e->kind > EAR_UI_EVENT_NONE && e->kind < EAR_UI_EVENT_KIND_COUNT;
        if (!known || !e->widget[0]) abort();
        if (!ear_utf8_valid(e->text, strlen(e->text))) abort();
        if (isnan(e->number)) abort(); /* a slider's number is never NaN */
    }
    ear_speech *sp = ear_ctx_speech(ctx);
    size_t n = ear_speech_history_count(sp);
    if (n) {
        const char *last = ear_speech_history_at(sp, n - 1);
        if (!ear_utf8_valid(last, strlen(last))) abort();
    }
}

static void fuzz_update(ear_ctx *ctx, void *user) {
    fuzz_game *g = user;
    check_promises(ctx);
    /* Read the event queries as a game would. */
    (void)ear_ui_clicked(ctx, "main", "play");
    (void)ear_ui_changed(ctx, NULL, NULL);
    (void)ear_ui_confirmed(ctx, "form", NULL);
    if (g->request < 0) return;
    int req = g->request;
    g->request = -1;
    switch (req) {
    case 0: ear_ui_message(ctx, "box", "Note", "Hello"); break;
    case 1: ear_ui_question(ctx, "ask", "Sure?", g->request_arg & 1); break;
    case 2: {
        static const char *const ids[] = {"main", "sub", "form", "box", "ask", "main/nick"};
        ear_ui_close(ctx, ids[g->request_arg % 6]);
        break;
    }
    case 3: ear_ui_close_all(ctx); break;
    case 4: ear_ui_open_menu(ctx, build_menus()); break;
    case 5:
        ear_ui_open_text(ctx,
                         &(ear_ui_text_config){.id = "txt",
                                               .password = g->request_arg & 1,
                                               .multiline = g->request_arg & 2,
                                               .max_length = (size_t)(g->request_arg >> 4)});
        break;
    default: break;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void quiet(void *user, ear_log_level level, const char *module, const char *text) {
    (void)user;
    (void)level;
    (void)module;
    (void)text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    /* Missing texts and sounds warn once per engine run: thousands of runs would only
     * fill the log. */
    ear_log_set(quiet, NULL, EAR_LOG_ERROR);
    ear_ui *ui;
    if (ear_ui_create(NULL, &ui) != EAR_OK) return 0;
    static const float blip[64] = {0.1f, -0.1f};
    ear_ui_set_sound_data(ui, "blip", blip, 64, 1, 48000);
    fuzz_game g = {data, size, 0, -1, 0};
    ear_engine_config cfg = ear_engine_config_default("fuzz");
    cfg.backend = EAR_BACKEND_HEADLESS;
    /* A small, slow stage: the UI's logic is what is fuzzed, and every frame renders. */
    ear_stage_config sc = ear_stage_config_default();
    sc.sample_rate = 8000;
    sc.max_total_voices = 64;
    sc.command_capacity = 1024;
    cfg.stage = &sc;
    ear_ui_attach(ui, &cfg);
    ear_scene scene = {.name = "fuzz", .update = fuzz_update, .user = &g};
    ear_runner *r;
    if (ear_runner_create(&cfg, &scene, &r) != EAR_OK) {
        ear_ui_destroy(ui);
        return 0;
    }
    ear_runner_set_one_step_per_frame(r, true);
    ear_ctx *ctx = ear_runner_ctx(r);
    ear_runner_frame(r, 0);
    ear_ui_open_menu(ctx, build_menus());
    uint64_t frame = 1;
    for (size_t i = 0; i + 1 < size && frame < 600; i += 2) {
        uint8_t op = data[i], arg = data[i + 1];
        ear_key key = (ear_key)(arg % EAR_KEY_COUNT);
        switch (op % 10) {
        case 0:
        case 1:
            ear_runner_key_down(r, key);
            ear_runner_key_up(r, key);
            break;
        case 2: ear_runner_key_down(r, key); break;
        case 3: ear_runner_key_up(r, key); break;
        case 4: {
            char text[4] = {(char)arg, 0, 0, 0};
            if (i + 3 < size && (arg & 0x80)) {
                text[1] = (char)data[i + 2];
                text[2] = (char)data[i + 3];
                i += 2;
            }
            ear_runner_text(r, text);
            break;
        }
        case 5: /* several frames pass (held keys repeat) */
            for (int k = 0; k < (arg & 31); k++) ear_runner_frame(r, (double)frame++ / 60.0);
            break;
        case 6:
            g.request = arg % 6;
            g.request_arg = (uint8_t)(arg / 6);
            break;
        case 7: ear_ui_set_mute_sounds(ui, arg & 1); break;
        case 8: ear_lang_set_language(ear_ctx_lang(ctx), arg & 1 ? "de" : "en"); break;
        default: ear_runner_key_down(r, EAR_KEY_LSHIFT); break;
        }
        ear_runner_frame(r, (double)frame++ / 60.0);
    }
    ear_runner_destroy(r);
    ear_ui_destroy(ui);
    return 0;
}
