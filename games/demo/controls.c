/* SPDX-License-Identifier: Zlib */
/*
 * The demo's controls (docs/game.md, "Controls"): its actions in three profiles (menus,
 * on foot, driving) over the keyboard and a gamepad, the profile the screen wants, the
 * gamepad's hot-plug said aloud, and the player's own bindings from the save.
 *
 * The menus profile holds the UI's navigation actions (ui.up ... ui.back): the UI reads
 * their bindings (ear_ui_use_actions), so a menu is worked by whatever the player bound.
 */
#include "demo_internal.h"

#include <string.h>

#define BIND(p, a, b) ear_actions_bind(acts, d->ctl.p, d->ctl.a, b)

static void define(demo *d, ear_actions *acts) {
    demo_controls *c = &d->ctl;
    c->menus = ear_actions_add_profile(acts, "menus");
    c->foot = ear_actions_add_profile(acts, "on_foot");
    c->drive = ear_actions_add_profile(acts, "driving");
    c->ui_up = ear_actions_add(acts, "ui.up", EAR_ACTION_BUTTON);
    c->ui_down = ear_actions_add(acts, "ui.down", EAR_ACTION_BUTTON);
    c->ui_left = ear_actions_add(acts, "ui.left", EAR_ACTION_BUTTON);
    c->ui_right = ear_actions_add(acts, "ui.right", EAR_ACTION_BUTTON);
    c->ui_confirm = ear_actions_add(acts, "ui.confirm", EAR_ACTION_BUTTON);
    c->ui_back = ear_actions_add(acts, "ui.back", EAR_ACTION_BUTTON);
    c->walk_forward = ear_actions_add(acts, "walk_forward", EAR_ACTION_BUTTON);
    c->walk_back = ear_actions_add(acts, "walk_back", EAR_ACTION_BUTTON);
    c->turn_left = ear_actions_add(acts, "turn_left", EAR_ACTION_BUTTON);
    c->turn_right = ear_actions_add(acts, "turn_right", EAR_ACTION_BUTTON);
    c->gas = ear_actions_add(acts, "gas", EAR_ACTION_AXIS);
    c->brake = ear_actions_add(acts, "brake", EAR_ACTION_AXIS);
    c->steer_left = ear_actions_add(acts, "steer_left", EAR_ACTION_AXIS);
    c->steer_right = ear_actions_add(acts, "steer_right", EAR_ACTION_AXIS);
    c->pause = ear_actions_add(acts, "pause", EAR_ACTION_BUTTON);
    c->repeat = ear_actions_add(acts, "repeat", EAR_ACTION_BUTTON);
    c->where = ear_actions_add(acts, "where", EAR_ACTION_BUTTON);
    c->status = ear_actions_add(acts, "status", EAR_ACTION_BUTTON);

    BIND(menus, ui_up, ear_bind_key(EAR_KEY_UP));
    BIND(menus, ui_up, ear_bind_pad(EAR_PAD_DPAD_UP));
    BIND(menus, ui_down, ear_bind_key(EAR_KEY_DOWN));
    BIND(menus, ui_down, ear_bind_pad(EAR_PAD_DPAD_DOWN));
    BIND(menus, ui_left, ear_bind_key(EAR_KEY_LEFT));
    BIND(menus, ui_left, ear_bind_pad(EAR_PAD_DPAD_LEFT));
    BIND(menus, ui_right, ear_bind_key(EAR_KEY_RIGHT));
    BIND(menus, ui_right, ear_bind_pad(EAR_PAD_DPAD_RIGHT));
    BIND(menus, ui_confirm, ear_bind_key(EAR_KEY_ENTER));
    BIND(menus, ui_confirm, ear_bind_pad(EAR_PAD_A));
    BIND(menus, ui_back, ear_bind_key(EAR_KEY_ESCAPE));
    BIND(menus, ui_back, ear_bind_pad(EAR_PAD_B));

    /* On foot: the D-pad walks and turns, as the arrows do; the left stick turns (and
     * walks when pushed far enough up or down). */
    BIND(foot, walk_forward, ear_bind_key(EAR_KEY_UP));
    BIND(foot, walk_forward, ear_bind_pad(EAR_PAD_DPAD_UP));
    BIND(foot, walk_forward, ear_bind_axis(EAR_PAD_LEFT_Y, -1));
    BIND(foot, walk_back, ear_bind_key(EAR_KEY_DOWN));
    BIND(foot, walk_back, ear_bind_pad(EAR_PAD_DPAD_DOWN));
    BIND(foot, walk_back, ear_bind_axis(EAR_PAD_LEFT_Y, 1));
    BIND(foot, turn_left, ear_bind_key(EAR_KEY_LEFT));
    BIND(foot, turn_left, ear_bind_pad(EAR_PAD_DPAD_LEFT));
    BIND(foot, turn_left, ear_bind_axis(EAR_PAD_LEFT_X, -1));
    BIND(foot, turn_right, ear_bind_key(EAR_KEY_RIGHT));
    BIND(foot, turn_right, ear_bind_pad(EAR_PAD_DPAD_RIGHT));
    BIND(foot, turn_right, ear_bind_axis(EAR_PAD_LEFT_X, 1));

    /* Driving: the triggers are gas and brake, the left stick steers, by how far. */
    BIND(drive, gas, ear_bind_key(EAR_KEY_UP));
    BIND(drive, gas, ear_bind_axis(EAR_PAD_RIGHT_TRIGGER, 1));
    BIND(drive, brake, ear_bind_key(EAR_KEY_DOWN));
    BIND(drive, brake, ear_bind_axis(EAR_PAD_LEFT_TRIGGER, 1));
    BIND(drive, steer_left, ear_bind_key(EAR_KEY_LEFT));
    BIND(drive, steer_left, ear_bind_pad(EAR_PAD_DPAD_LEFT));
    BIND(drive, steer_left, ear_bind_axis(EAR_PAD_LEFT_X, -1));
    BIND(drive, steer_right, ear_bind_key(EAR_KEY_RIGHT));
    BIND(drive, steer_right, ear_bind_pad(EAR_PAD_DPAD_RIGHT));
    BIND(drive, steer_right, ear_bind_axis(EAR_PAD_LEFT_X, 1));

    /* Both: pause, repeat, where am I, time and score. */
    int both[] = {c->foot, c->drive};
    for (int i = 0; i < 2; i++) {
        ear_actions_bind(acts, both[i], c->pause, ear_bind_key(EAR_KEY_ESCAPE));
        ear_actions_bind(acts, both[i], c->pause, ear_bind_pad(EAR_PAD_START));
        ear_actions_bind(acts, both[i], c->repeat, ear_bind_key(EAR_KEY_F1));
        ear_actions_bind(acts, both[i], c->repeat, ear_bind_pad(EAR_PAD_Y));
        ear_actions_bind(acts, both[i], c->where, ear_bind_key(EAR_KEY_W));
        ear_actions_bind(acts, both[i], c->where, ear_bind_pad(EAR_PAD_X));
        ear_actions_bind(acts, both[i], c->status, ear_bind_key(EAR_KEY_T));
        ear_actions_bind(acts, both[i], c->status, ear_bind_pad(EAR_PAD_BACK));
    }
    ear_actions_keep_defaults(acts);
}

void demo__define_controls(ear_ctx *ctx, demo *d) {
    ear_actions *acts = ear_ctx_actions(ctx);
    d->actions = acts;
    d->rebinding = -1;
    define(d, acts);
    char what[160];
    uint32_t skipped = ear_actions_load(acts, d->save, "bindings.", what, sizeof what);
    if (skipped) {
        ear_log(EAR_LOG_WARN, "demo", "%u saved binding(s) not understood, the first: %s",
                skipped, what);
        demo__report(ctx, d, ear_tr(ctx, "controls.skipped"));
    }
    ear_ui_use_actions(ear_ui_of(ctx), acts, d->ctl.menus);
}

void demo__choose_profile(ear_ctx *ctx, demo *d) {
    bool playing = d->screen == SCREEN_GAME && d->map && !d->completed && !d->game_over &&
                   !ear_ui_is_open(ctx, NULL);
    ear_ctx_use_profile(ctx, !playing ? "menus" : d->car ? "driving" : "on_foot");
}

void demo__controls_frame(ear_ctx *ctx, demo *d) {
    ear_input *in = ear_ctx_input(ctx);
    if (ear_input_pad_connected_now(in, -1)) demo__report(ctx, d, ear_tr(ctx, "pad.connected"));
    if (ear_input_pad_disconnected_now(in, -1))
        demo__report(ctx, d, ear_tr(ctx, "pad.disconnected"));
}

/* ---- The Controls screen (Settings, Controls) ------------------------------------------ */

/* The actions the screen offers, in its order; "shared" ones are in both play profiles
 * and a new binding applies to both. */
typedef struct offered {
    const char *name;
    bool driving, shared;
} offered;

static const offered offers[] = {
    {"walk_forward", false, false}, {"walk_back", false, false},  {"turn_left", false, false},
    {"turn_right", false, false},   {"gas", true, false},         {"brake", true, false},
    {"steer_left", true, false},    {"steer_right", true, false}, {"pause", false, true},
    {"repeat", false, true},        {"where", false, true},       {"status", false, true},
};
#define OFFERS (sizeof offers / sizeof offers[0])

static int offer_profile(const demo *d, size_t i) {
    return offers[i].driving ? d->ctl.drive : d->ctl.foot;
}

/* A binding as the player hears it in a language: "Up arrow", "D-pad up", "left stick
 * up", "W". */
static void binding_words(demo *d, const char *lang, ear_binding b, char *out, size_t cap) {
    char text[EAR_BINDING_TEXT_MAX], key[64];
    ear_binding_format(b, text, sizeof text);
    const char *name = strchr(text, ':') ? strchr(text, ':') + 1 : text;
    /* letters, digits and F-keys are said by their own name; the others have words */
    bool own = b.kind == EAR_BIND_KEY &&
               (strlen(name) == 1 || (name[0] == 'F' && name[1] >= '1' && name[1] <= '9'));
    snprintf(key, sizeof key, "bind.%s", text);
    if (own || !demo_text(d, lang, key, out, cap)) snprintf(out, cap, "%s", name);
}

/* "Walk forward: Up arrow, D-pad up, left stick up" in a language. */
static void action_words(demo *d, const char *lang, size_t i, char *out, size_t cap) {
    ear_actions *acts = d->actions;
    int p = offer_profile(d, i), a = ear_actions_find(acts, offers[i].name);
    char key[64], name[96];
    snprintf(key, sizeof key, "act.%s", offers[i].name);
    if (!demo_text(d, lang, key, name, sizeof name)) snprintf(name, sizeof name, "%s", key);
    size_t n = (size_t)snprintf(out, cap, "%s:", name);
    uint32_t count = ear_actions_binding_count(acts, p, a);
    for (uint32_t j = 0; j < count && n < cap; j++) {
        char w[64];
        binding_words(d, lang, ear_actions_binding_at(acts, p, a, j), w, sizeof w);
        n += (size_t)snprintf(out + n, cap - n, "%s %s", j ? "," : "", w);
    }
    if (count == 0 && n < cap) {
        char none[64];
        demo_text(d, lang, "controls.none", none, sizeof none);
        snprintf(out + n, cap - n, " %s", none);
    }
}

/* The item labels are texts of their own ("controls.item.N") in both languages, set again
 * after every change, so the menu speaks the bindings as they are. */
static void set_labels(ear_ctx *ctx, demo *d) {
    for (int l = 0; l < 2; l++) {
        for (size_t i = 0; i < OFFERS; i++) {
            char key[32], text[300];
            snprintf(key, sizeof key, "controls.item.%zu", i);
            action_words(d, demo__language_codes[l], i, text, sizeof text);
            ear_lang_set_text(ear_ctx_lang(ctx), demo__language_codes[l], key, text);
        }
    }
}

/* A text of the current language with {name} placeholders filled, set as a text of its
 * own (so a widget can be given its key). */
static void set_formatted(ear_ctx *ctx, const char *target, const char *key,
                          const ear_lang_arg *args, size_t n) {
    char text[400];
    if (ear_lang_format(ear_ctx_lang(ctx), key, args, n, text, sizeof text, NULL) != EAR_OK)
        snprintf(text, sizeof text, "%s", ear_tr(ctx, key));
    ear_lang_set_text(ear_ctx_lang(ctx), ear_lang_language(ear_ctx_lang(ctx)), target, text);
}

static const char *action_name(ear_ctx *ctx, const char *action) {
    char key[64];
    snprintf(key, sizeof key, "act.%s", action);
    return ear_tr(ctx, key);
}

void demo__open_controls(ear_ctx *ctx, demo *d) {
    d->actions = ear_ctx_actions(ctx);
    set_labels(ctx, d);
    ear_ui_menu *m = NULL;
    ear_ui_menu_create(&(ear_ui_menu_config){.id = "controls",
                                             .title = "menu.controls",
                                             .escape = EAR_UI_ESCAPE_CLOSE},
                       &m);
    if (!m) return;
    for (size_t i = 0; i < OFFERS; i++) {
        char key[32];
        snprintf(key, sizeof key, "controls.item.%zu", i);
        ear_ui_menu_add(m, &(ear_ui_item){.id = offers[i].name, .label = key});
    }
    ear_ui_menu_add(m, &(ear_ui_item){.id = "reset", .label = "controls.reset"});
    ear_ui_menu_add(m, &(ear_ui_item){.id = "back", .label = "menu.back", .closes = true});
    ear_ui_open_menu(ctx, m);
}

static void save_bindings(ear_ctx *ctx, demo *d) {
    ear_actions_save(d->actions, d->save, "bindings.");
    demo__write_save(ctx, d);
    set_labels(ctx, d);
}

/* The new binding replaces the action's bindings of its kind (a key its keys, a pad
 * button its buttons, a stick or trigger its axes), in its profile (both play profiles
 * for a shared one). */
static void apply(ear_ctx *ctx, demo *d, size_t i, ear_binding b) {
    ear_actions *acts = d->actions;
    int a = ear_actions_find(acts, offers[i].name);
    int profiles[2] = {offer_profile(d, i), d->ctl.drive};
    int n = offers[i].shared ? 2 : 1;
    for (int k = 0; k < n; k++) {
        int p = profiles[k];
        /* A binding now taken from another action of the profile (the conflict). */
        int other = ear_actions_conflict(acts, p, b, a);
        if (other >= 0) ear_actions_unbind(acts, p, other, b);
        /* Keys, then pad buttons, then axes, each group in its order: the new binding
         * takes the place of its own kind's. */
        ear_binding was[EAR_ACTION_BINDINGS_MAX];
        uint32_t count = ear_actions_binding_count(acts, p, a);
        for (uint32_t j = 0; j < count; j++) was[j] = ear_actions_binding_at(acts, p, a, j);
        ear_actions_clear(acts, p, a);
        for (int kind = EAR_BIND_KEY; kind <= EAR_BIND_PAD_AXIS; kind++) {
            if (kind == b.kind) ear_actions_bind(acts, p, a, b);
            for (uint32_t j = 0; j < count && kind != b.kind; j++)
                if (was[j].kind == kind) ear_actions_bind(acts, p, a, was[j]);
        }
    }
    save_bindings(ctx, d); /* the menu, as it resumes, says the item with its new bindings */
}

static void say_binding_now(ear_ctx *ctx, demo *d, ear_binding b, char *out, size_t cap) {
    binding_words(d, ear_lang_language(ear_ctx_lang(ctx)), b, out, cap);
}

/* The Controls screen's events; true when the event was one of its own. */
bool demo__controls_on_ui(ear_ctx *ctx, demo *d, const ear_ui_event *e) {
    if (ear_ui_event_is(e, EAR_UI_CLICKED, "settings", "controls")) {
        demo__open_controls(ctx, d);
        return true;
    }
    if (ear_ui_event_is(e, EAR_UI_CLICKED, "controls", "reset")) {
        ear_actions_reset(d->actions, -1);
        save_bindings(ctx, d);
        demo__say(ctx, ear_tr(ctx, "controls.reset_done"));
        return true;
    }
    if (ear_ui_event_is(e, EAR_UI_CLICKED, "controls", NULL)) {
        for (size_t i = 0; i < OFFERS; i++) {
            if (strcmp(e->item, offers[i].name) != 0) continue;
            d->rebinding = (int)i;
            ear_lang_arg arg = demo__arg_s("action", action_name(ctx, offers[i].name));
            set_formatted(ctx, "controls.prompt.now", "controls.prompt", &arg, 1);
            ear_ui_capture_binding(ctx, "capture", "controls.prompt.now");
        }
        return true;
    }
    if (ear_ui_event_is(e, EAR_UI_CANCELLED, "capture", NULL)) {
        demo__say(ctx, ear_tr(ctx, "controls.unchanged"));
        return true;
    }
    if (ear_ui_event_is(e, EAR_UI_CONFIRMED, "capture", NULL)) {
        ear_binding b;
        size_t i = (size_t)d->rebinding;
        if (d->rebinding < 0 || i >= OFFERS || ear_binding_parse(e->text, &b) != EAR_OK)
            return true;
        int a = ear_actions_find(d->actions, offers[i].name);
        int other = ear_actions_conflict(d->actions, offer_profile(d, i), b, a);
        if (other < 0) {
            apply(ctx, d, i, b);
            return true;
        }
        /* Taken: "Space is Jump already. Use it for Walk forward instead?" */
        d->pending = b;
        char words[64];
        say_binding_now(ctx, d, b, words, sizeof words);
        ear_lang_arg args[3] = {
            demo__arg_s("binding", words),
            demo__arg_s("other", action_name(ctx, ear_actions_name(d->actions, other))),
            demo__arg_s("action", action_name(ctx, offers[i].name))};
        set_formatted(ctx, "controls.conflict.now", "controls.conflict", args, 3);
        ear_ui_question(ctx, "rebind_conflict", "controls.conflict.now", true);
        return true;
    }
    if (ear_ui_event_is(e, EAR_UI_CONFIRMED, "rebind_conflict", "yes")) {
        if (d->rebinding >= 0 && (size_t)d->rebinding < OFFERS)
            apply(ctx, d, (size_t)d->rebinding, d->pending);
        return true;
    }
    if (ear_ui_event_is(e, EAR_UI_CONFIRMED, "rebind_conflict", NULL) ||
        ear_ui_event_is(e, EAR_UI_CANCELLED, "rebind_conflict", NULL)) {
        demo__say(ctx, ear_tr(ctx, "controls.unchanged"));
        return true;
    }
    return false;
}
