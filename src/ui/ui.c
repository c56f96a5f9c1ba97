/* SPDX-License-Identifier: Zlib */
/*
 * The UI's stack, its per-update flow, events, sounds and widget music.
 *
 * The stack holds entries {widget, state}; only the top entry runs in an update, by its
 * state (Fresh -> open, Resume -> resume, Active -> update). Opening is deferred: a
 * widget given to ear_ui_open waits in `pending` until the next update pushes it, and
 * ear_ui_close requests wait likewise, so the game's calls in its update never run
 * widget code outside the ui phase (where events can be posted and the context is
 * whole). Every pop destroys the widget's self and posts "closed".
 *
 * Events live in `events` from one update to the next (the query helpers search it)
 * and are also posted to the runner, which hands them to the top scene's on_ui.
 *
 * Sounds are names per slot. Built-in names are synthesised and registered with the
 * engine's assets the first time they play there (ear_assets_state tells whether this
 * assets object has them, so a UI reused with another engine registers again); custom
 * data waits in `customs` until an update reaches the assets the same way.
 *
 * Widget music: after the stack has changed, the topmost widget whose music callback
 * names a track gets it (crossfaded by the stage). The track playing before the first
 * widget music is remembered in `previous`; when no widget wants music any more it comes
 * back (or the music fades out), but only while the UI's track is still the stage's
 * current one: music the game started meanwhile is kept.
 */
#include "ui_internal.h"

#include "earshot/mixer.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const slot_names[EAR_UI_SOUND_COUNT] = {
    "open",      "close",      "navigate", "wrap", "edge",   "activate",
    "toggle_on", "toggle_off", "slider",   "type", "delete", "error",
};

#define BUILTIN_PREFIX "ui:builtin:"
#define CUSTOM_PREFIX  "ui:custom:"

const char *ear_ui_sound_slot_name(ear_ui_sound_slot slot) {
    if ((unsigned)slot >= EAR_UI_SOUND_COUNT) return NULL;
    return slot_names[slot];
}

/* ---- Creation ------------------------------------------------------------------------ */

ear_ui_config ear_ui_config_default(void) {
    ear_ui_config c;
    memset(&c, 0, sizeof c);
    c.sound_volume = 0.5f;
    c.repeat_delay_s = 0.5;
    c.repeat_every_s = 0.08;
    c.prefix_timeout_s = 1.0;
    c.music_volume = 1.0f;
    c.music_crossfade_s = 1.0f;
    c.duck_s_per_char = EAR_SPEECH_DUCK_S_PER_CHAR;
    return c;
}

static void set_name(ear_ui *ui, ear_ui_sound_slot slot, const char *name) {
    ui->name_set[slot] = name != NULL;
    ear__ui_copy(ui->names[slot], sizeof ui->names[slot], name ? name : "");
}

ear_result ear_ui_create(const ear_ui_config *config, ear_ui **out_ui) {
    if (!out_ui) return EAR_E_INVALID_ARG;
    ear_ui_config d = ear_ui_config_default();
    ear_ui_config c = config ? *config : d;
    if (!(c.sound_volume > 0) || !isfinite(c.sound_volume)) c.sound_volume = d.sound_volume;
    if (!(c.repeat_delay_s > 0)) c.repeat_delay_s = d.repeat_delay_s;
    if (!(c.repeat_every_s > 0)) c.repeat_every_s = d.repeat_every_s;
    if (!(c.prefix_timeout_s > 0)) c.prefix_timeout_s = d.prefix_timeout_s;
    if (!(c.music_volume > 0) || !isfinite(c.music_volume)) c.music_volume = d.music_volume;
    if (!(c.music_crossfade_s > 0) || !isfinite(c.music_crossfade_s))
        c.music_crossfade_s = d.music_crossfade_s;
    if (!(c.duck_s_per_char > 0)) c.duck_s_per_char = d.duck_s_per_char;
    ear_ui *ui = calloc(1, sizeof *ui);
    if (!ui) return EAR_E_OUT_OF_MEMORY;
    ui->cfg = c;
    for (int s = 0; s < EAR_UI_SOUND_COUNT; s++) {
        const char *n = c.sounds.names[s];
        if (n) {
            set_name(ui, (ear_ui_sound_slot)s, n);
        } else if (!c.sounds.replace) {
            char b[EAR_SOUND_NAME_MAX];
            ear__ui_copy(b, sizeof b, BUILTIN_PREFIX);
            ear__ui_append(b, sizeof b, slot_names[s]);
            set_name(ui, (ear_ui_sound_slot)s, b);
        }
    }
    ui->cfg.sounds = (ear_ui_sounds){0};
    if (c.speech_duck) ear__ui_copy(ui->duck, sizeof ui->duck, c.speech_duck);
    ui->cfg.speech_duck = NULL;
    *out_ui = ui;
    return EAR_OK;
}

static void destroy_widget(ear_ui_widget *w) {
    if (w->destroy) w->destroy(w->self);
    w->destroy = NULL;
    w->self = NULL;
}

void ear_ui_destroy(ear_ui *ui) {
    if (!ui) return;
    while (ui->depth) destroy_widget(&ui->stack[--ui->depth].widget);
    for (size_t i = 0; i < ui->pending_count; i++) destroy_widget(&ui->pending[i]);
    for (size_t i = 0; i < ui->custom_count; i++) ear_clip_release(ui->customs[i].clip);
    free(ui->customs);
    free(ui);
}

void ear_ui_attach(ear_ui *ui, ear_engine_config *config) {
    if (!config) return;
    config->ui = ear_ui_update;
    config->ui_user = ui;
}

ear_ui *ear_ui_of(ear_ctx *ctx) {
    return ctx ? (ear_ui *)ear_ctx_ui_user(ctx) : NULL;
}

size_t ear_ui_depth(const ear_ui *ui) {
    return ui ? ui->depth : 0;
}

/* ---- Requests from the game ------------------------------------------------------------ */

ear_result ear_ui_open(ear_ctx *ctx, const ear_ui_widget *widget) {
    if (!widget) return EAR_E_INVALID_ARG;
    ear_ui_widget w = *widget;
    ear_ui *ui = ear_ui_of(ctx);
    if (!w.update) {
        destroy_widget(&w);
        return EAR_E_INVALID_ARG;
    }
    if (!ui || ui->depth + ui->pending_count >= EAR_UI_DEPTH_MAX) {
        if (ui)
            ear_log(EAR_LOG_ERROR, "ui", "cannot open '%s': %d widgets are open already", w.id,
                    EAR_UI_DEPTH_MAX);
        destroy_widget(&w);
        return EAR_E_STATE;
    }
    w.id[EAR_UI_ID_MAX - 1] = '\0';
    ui->pending[ui->pending_count++] = w;
    return EAR_OK;
}

ear_result ear_ui_close(ear_ctx *ctx, const char *id) {
    ear_ui *ui = ear_ui_of(ctx);
    if (!ui || !id) return EAR_E_INVALID_ARG;
    for (size_t i = 0; i < ui->pending_count; i++) {
        if (strcmp(ui->pending[i].id, id) != 0) continue;
        /* Never opened: it goes without a word, like a request taken back. */
        destroy_widget(&ui->pending[i]);
        memmove(&ui->pending[i], &ui->pending[i + 1],
                (ui->pending_count - i - 1) * sizeof ui->pending[0]);
        ui->pending_count--;
        return EAR_OK;
    }
    for (size_t i = 0; i < ui->depth; i++) {
        if (strcmp(ui->stack[i].widget.id, id) != 0) continue;
        if (ui->close_count < EAR_UI_DEPTH_MAX)
            ear__ui_copy(ui->close_ids[ui->close_count++], EAR_UI_ID_MAX, id);
        return EAR_OK;
    }
    return EAR_E_NOT_FOUND;
}

void ear_ui_close_all(ear_ctx *ctx) {
    ear_ui *ui = ear_ui_of(ctx);
    if (!ui) return;
    for (size_t i = 0; i < ui->pending_count; i++) destroy_widget(&ui->pending[i]);
    ui->pending_count = 0;
    ui->close_all = true;
}

bool ear_ui_is_open(ear_ctx *ctx, const char *id) {
    ear_ui *ui = ear_ui_of(ctx);
    if (!ui) return false;
    if (!id) return ui->depth + ui->pending_count > 0;
    for (size_t i = 0; i < ui->depth; i++)
        if (strcmp(ui->stack[i].widget.id, id) == 0) return true;
    for (size_t i = 0; i < ui->pending_count; i++)
        if (strcmp(ui->pending[i].id, id) == 0) return true;
    return false;
}

/* ---- Sounds --------------------------------------------------------------------------- */

ear_result ear_ui_set_sound(ear_ui *ui, ear_ui_sound_slot slot, const char *name) {
    if (!ui || (unsigned)slot >= EAR_UI_SOUND_COUNT) return EAR_E_INVALID_ARG;
    if (name && strlen(name) >= EAR_SOUND_NAME_MAX) return EAR_E_INVALID_ARG;
    set_name(ui, slot, name);
    return EAR_OK;
}

void ear_ui_set_mute_sounds(ear_ui *ui, bool mute) {
    if (ui) ui->cfg.mute_sounds = mute;
}

void ear_ui_set_hide_position(ear_ui *ui, bool hide) {
    if (ui) ui->cfg.hide_position = hide;
}

ear_result ear_ui_set_repeat(ear_ui *ui, double delay_s, double every_s) {
    if (!ui || !(delay_s > 0) || !isfinite(delay_s) || !(every_s > 0) || !isfinite(every_s))
        return EAR_E_INVALID_ARG;
    ui->cfg.repeat_delay_s = delay_s;
    ui->cfg.repeat_every_s = every_s;
    return EAR_OK;
}

double ear_ui_repeat_delay_s(const ear_ui *ui) {
    return ui ? ui->cfg.repeat_delay_s : 0;
}

double ear_ui_repeat_every_s(const ear_ui *ui) {
    return ui ? ui->cfg.repeat_every_s : 0;
}

ear_result ear_ui_set_sound_data(ear_ui *ui, const char *name, const float *samples,
                                 uint64_t frames, uint32_t channels, uint32_t sample_rate) {
    if (!ui || !name || !name[0] || !samples) return EAR_E_INVALID_ARG;
    char full[EAR_SOUND_NAME_MAX];
    if (strncmp(name, CUSTOM_PREFIX, strlen(CUSTOM_PREFIX)) != 0) {
        if (strlen(name) + strlen(CUSTOM_PREFIX) >= sizeof full) return EAR_E_INVALID_ARG;
        ear__ui_copy(full, sizeof full, CUSTOM_PREFIX);
        ear__ui_append(full, sizeof full, name);
    } else {
        if (strlen(name) >= sizeof full || !name[strlen(CUSTOM_PREFIX)])
            return EAR_E_INVALID_ARG;
        ear__ui_copy(full, sizeof full, name);
    }
    ear_clip *clip;
    ear_result res = ear_clip_create(samples, frames, channels, sample_rate, NULL, &clip);
    if (res != EAR_OK) return res;
    for (size_t i = 0; i < ui->custom_count; i++) {
        if (strcmp(ui->customs[i].name, full) != 0) continue;
        ear_clip_release(ui->customs[i].clip);
        ui->customs[i].clip = clip;
        /* A new clip under an old name: register it again at the next update. */
        ui->customs[i].dirty = true;
        return EAR_OK;
    }
    if (ui->custom_count == ui->custom_cap) {
        size_t cap = ui->custom_cap ? ui->custom_cap * 2 : 8;
        ear__ui_custom *n = realloc(ui->customs, cap * sizeof *n);
        if (!n) {
            ear_clip_release(clip);
            return EAR_E_OUT_OF_MEMORY;
        }
        ui->customs = n;
        ui->custom_cap = cap;
    }
    ear__ui_custom *c = &ui->customs[ui->custom_count++];
    memset(c, 0, sizeof *c);
    ear__ui_copy(c->name, sizeof c->name, full);
    c->dirty = true;
    c->clip = clip;
    return EAR_OK;
}

/* Custom data reaches the engine's assets here: new data, or data the engine's assets
 * do not hold (another engine run). */
static void register_customs(ear_ui *ui, ear_assets *assets) {
    for (size_t i = 0; i < ui->custom_count; i++) {
        ear__ui_custom *c = &ui->customs[i];
        if (!c->dirty && ear_assets_state(assets, c->name).loaded) continue;
        if (ear_assets_register_clip(assets, c->name, c->clip) == EAR_OK) c->dirty = false;
    }
}

static const char *resolve_sound(const ear_ui *ui, const ear_ui_sounds *s,
                                 ear_ui_sound_slot slot) {
    if (s && s->replace) {
        const char *n = s->names[slot];
        if (!n && slot == EAR_UI_SOUND_WRAP) n = s->names[EAR_UI_SOUND_NAVIGATE];
        return n ? n : "";
    }
    if (s && s->names[slot]) return s->names[slot];
    if (s && slot == EAR_UI_SOUND_WRAP && s->names[EAR_UI_SOUND_NAVIGATE] &&
        !ui->name_set[EAR_UI_SOUND_WRAP])
        return s->names[EAR_UI_SOUND_NAVIGATE];
    if (!ui->name_set[slot] && slot == EAR_UI_SOUND_WRAP)
        return ui->names[EAR_UI_SOUND_NAVIGATE];
    return ui->names[slot];
}

const char *ear_ui_sound_name(ear_ui_context *uc, ear_ui_sound_slot slot) {
    if (!uc || !uc->ui || (unsigned)slot >= EAR_UI_SOUND_COUNT) return "";
    return resolve_sound(uc->ui, uc->sounds, slot);
}

static void ensure_builtin(ear_ui_context *uc, const char *name) {
    if (ear_assets_state(uc->assets, name).loaded) return;
    const char *tail = name + strlen(BUILTIN_PREFIX);
    for (int s = 0; s < EAR_UI_SOUND_COUNT; s++) {
        if (strcmp(tail, slot_names[s]) != 0) continue;
        ear_stage_config sc = ear_stage_get_config(uc->stage);
        ear_clip *clip;
        if (ear__ui_builtin_clip((ear_ui_sound_slot)s, (uint32_t)sc.sample_rate, &clip) !=
            EAR_OK)
            return;
        (void)ear_assets_register_clip(uc->assets, name, clip);
        ear_clip_release(clip);
        return;
    }
    /* An unknown built-in name falls through to ear_assets_play, which warns once. */
}

void ear_ui_play(ear_ui_context *uc, ear_ui_sound_slot slot) {
    if (!uc || !uc->ui || uc->ui->cfg.mute_sounds || !uc->assets || !uc->stage) return;
    const char *name = ear_ui_sound_name(uc, slot);
    if (!name[0]) return;
    if (strncmp(name, BUILTIN_PREFIX, strlen(BUILTIN_PREFIX)) == 0) ensure_builtin(uc, name);
    ear_play p;
    memset(&p, 0, sizeof p);
    p.bus = EAR_BUS_UI;
    p.volume = uc->ui->cfg.sound_volume;
    p.priority = 200;
    (void)ear_assets_play(uc->assets, uc->stage, name, &p, NULL);
}

/* ---- Speech ------------------------------------------------------------------------------ */

/* The speech duck is speech's rule (ear_speech_duck): the UI only names its rule. */
static void duck_for(ear_ui_context *uc, const char *text) {
    (void)ear_speech_duck(uc->speech, uc->stage, uc->ui->duck, text,
                          uc->ui->cfg.duck_s_per_char);
}

void ear_ui_say(ear_ui_context *uc, const char *text) {
    if (!uc || !text || !uc->speech) return;
    ear_speech_speak(uc->speech, text);
    duck_for(uc, text);
}

void ear_ui_say_queued(ear_ui_context *uc, const char *text) {
    if (!uc || !text || !uc->speech) return;
    ear_speech_speak_queued(uc->speech, text);
    duck_for(uc, text);
}

const char *ear_ui_tr(ear_ui_context *uc, const char *key) {
    return ear_lang_get(uc ? uc->lang : NULL, key);
}

bool ear_ui_show_position(ear_ui_context *uc) {
    return uc && uc->ui && !uc->ui->cfg.hide_position;
}

void ear__ui_say_char(ear_ui_context *uc, const char *ch, size_t len, bool password) {
    char b[16];
    if (password) {
        ear_ui_say(uc, ear_ui_tr(uc, "ui.star"));
        return;
    }
    if (len == 1 && ch[0] == '\n') {
        ear_ui_say(uc, ear_ui_tr(uc, "ui.char.newline"));
        return;
    }
    if (len >= sizeof b) len = sizeof b - 1;
    memcpy(b, ch, len);
    b[len] = '\0';
    /* The screen reader spells a character its own way ("space", "capital A", in the
     * player's settings): an echo, so it does not enter the history. */
    if (uc && uc->speech && ear_speech_say_char(uc->speech, b) == EAR_OK) {
        duck_for(uc, b);
        return;
    }
    ear_ui_say(uc, b);
}

/* ---- Keys ------------------------------------------------------------------------------- */

static bool is_modifier(int key) {
    return key == EAR_KEY_LSHIFT || key == EAR_KEY_RSHIFT || key == EAR_KEY_LCTRL ||
           key == EAR_KEY_RCTRL || key == EAR_KEY_LALT || key == EAR_KEY_RALT;
}

/* A key held when the top widget opened or resumed is not the widget's (see `stale`). */
static bool stale_key(const ear_ui_context *uc, ear_key key) {
    return uc->ui && (unsigned)key < EAR_KEY_COUNT && uc->ui->stale[key];
}

/* A gamepad works every widget: its buttons stand for the keys widgets read (the D-pad
 * for the arrows, A and Start for Enter, B for Escape). */
static ear_pad_button pad_for_key(ear_key key) {
    switch (key) {
    case EAR_KEY_UP: return EAR_PAD_DPAD_UP;
    case EAR_KEY_DOWN: return EAR_PAD_DPAD_DOWN;
    case EAR_KEY_LEFT: return EAR_PAD_DPAD_LEFT;
    case EAR_KEY_RIGHT: return EAR_PAD_DPAD_RIGHT;
    case EAR_KEY_ENTER: return EAR_PAD_A;
    case EAR_KEY_ESCAPE: return EAR_PAD_B;
    default: return EAR_PAD_BUTTON_COUNT;
    }
}

/* Called as the top widget opens or resumes: every key (and pad button) held now is
 * stale for it. */
static void mark_held_stale(ear_ui *ui, const ear_input *input) {
    for (int k = 0; k < EAR_KEY_COUNT; k++)
        ui->stale[k] = input && !is_modifier(k) && ear_input_raw_held(input, (ear_key)k);
    for (int b = 0; b < EAR_PAD_BUTTON_COUNT; b++)
        ui->stale_pad[b] = input && ear_input_raw_pad_held(input, -1, (ear_pad_button)b);
}

static bool pad_live(const ear_ui_context *uc, ear_pad_button b) {
    return b < EAR_PAD_BUTTON_COUNT && !(uc->ui && uc->ui->stale_pad[b]);
}

static bool pad_pressed(const ear_ui_context *uc, ear_key key) {
    ear_pad_button b = pad_for_key(key);
    if (key == EAR_KEY_ENTER && pad_live(uc, EAR_PAD_START) &&
        ear_input_raw_pad_pressed(uc->input, -1, EAR_PAD_START))
        return true;
    return pad_live(uc, b) && ear_input_raw_pad_pressed(uc->input, -1, b);
}

/* At each update: a stale key that was let go (or let go and pressed again within the
 * frame) is the widget's again. */
static void refresh_stale(ear_ui *ui, const ear_input *input) {
    for (int k = 0; k < EAR_KEY_COUNT; k++)
        if (ui->stale[k] && (!input || !ear_input_raw_held(input, (ear_key)k) ||
                             ear_input_raw_pressed(input, (ear_key)k)))
            ui->stale[k] = false;
    for (int b = 0; b < EAR_PAD_BUTTON_COUNT; b++)
        if (ui->stale_pad[b] &&
            (!input || !ear_input_raw_pad_held(input, -1, (ear_pad_button)b) ||
             ear_input_raw_pad_pressed(input, -1, (ear_pad_button)b)))
            ui->stale_pad[b] = false;
}

void ear_ui_use_actions(ear_ui *ui, const ear_actions *actions, int profile) {
    if (!ui) return;
    ui->actions = actions;
    ui->actions_profile = profile;
}

/* The navigation action standing for key, or -1 (no actions, not a navigation key, or
 * the game did not define that one). */
static int nav_action(const ear_ui_context *uc, ear_key key) {
    if (!uc->ui || !uc->ui->actions) return -1;
    const char *name = key == EAR_KEY_UP       ? "ui.up"
                       : key == EAR_KEY_DOWN   ? "ui.down"
                       : key == EAR_KEY_LEFT   ? "ui.left"
                       : key == EAR_KEY_RIGHT  ? "ui.right"
                       : key == EAR_KEY_ENTER  ? "ui.confirm"
                       : key == EAR_KEY_ESCAPE ? "ui.back"
                                               : NULL;
    return name ? ear_actions_find(uc->ui->actions, name) : -1;
}

typedef enum nav_query { NAV_PRESSED, NAV_REPEATING, NAV_HELD } nav_query;

/* Whether a binding of the navigation action answers the query. */
static bool nav_binding(const ear_ui_context *uc, int action, nav_query q) {
    const ear_actions *a = uc->ui->actions;
    int p = uc->ui->actions_profile;
    double delay = uc->ui->cfg.repeat_delay_s, every = uc->ui->cfg.repeat_every_s;
    for (uint32_t i = 0; i < ear_actions_binding_count(a, p, action); i++) {
        ear_binding b = ear_actions_binding_at(a, p, action, i);
        if (b.kind == EAR_BIND_KEY && !stale_key(uc, (ear_key)b.code)) {
            ear_key k = (ear_key)b.code;
            if (q == NAV_PRESSED ? ear_input_raw_pressed(uc->input, k)
                : q == NAV_HELD  ? ear_input_raw_held(uc->input, k)
                                 : ear_input_raw_repeating(uc->input, k, delay, every))
                return true;
        } else if (b.kind == EAR_BIND_PAD_BUTTON && pad_live(uc, (ear_pad_button)b.code)) {
            ear_pad_button pb = (ear_pad_button)b.code;
            if (q == NAV_PRESSED ? ear_input_raw_pad_pressed(uc->input, -1, pb)
                : q == NAV_HELD  ? ear_input_raw_pad_held(uc->input, -1, pb)
                                 : ear_input_raw_pad_repeating(uc->input, -1, pb, delay, every))
                return true;
        }
    }
    return false;
}

bool ear_ui_key_pressed(ear_ui_context *uc, ear_key key) {
    if (!uc || !uc->input) return false;
    int nav = nav_action(uc, key);
    if (nav >= 0) return nav_binding(uc, nav, NAV_PRESSED);
    return (!stale_key(uc, key) && ear_input_raw_pressed(uc->input, key)) ||
           pad_pressed(uc, key);
}

bool ear_ui_key_repeating(ear_ui_context *uc, ear_key key) {
    if (!uc || !uc->input) return false;
    int nav = nav_action(uc, key);
    if (nav >= 0) return nav_binding(uc, nav, NAV_REPEATING);
    double delay = uc->ui->cfg.repeat_delay_s, every = uc->ui->cfg.repeat_every_s;
    if (!stale_key(uc, key) && ear_input_raw_repeating(uc->input, key, delay, every))
        return true;
    if (key == EAR_KEY_ENTER) return pad_pressed(uc, key); /* confirming does not repeat */
    ear_pad_button b = pad_for_key(key);
    return pad_live(uc, b) && ear_input_raw_pad_repeating(uc->input, -1, b, delay, every);
}

bool ear_ui_key_held(ear_ui_context *uc, ear_key key) {
    if (!uc || !uc->input) return false;
    int nav = nav_action(uc, key);
    if (nav >= 0) return nav_binding(uc, nav, NAV_HELD);
    if (!stale_key(uc, key) && ear_input_raw_held(uc->input, key)) return true;
    ear_pad_button b = pad_for_key(key);
    return pad_live(uc, b) && ear_input_raw_pad_held(uc->input, -1, b);
}

const char *ear_ui_text_typed(ear_ui_context *uc) {
    return uc && uc->input ? ear_input_raw_text(uc->input) : "";
}

/* ---- Events ----------------------------------------------------------------------------- */

const char *ear_ui_event_kind_name(ear_ui_event_kind kind) {
    static const char *const names[EAR_UI_EVENT_KIND_COUNT] = {
        "none", "clicked", "changed", "confirmed", "cancelled", "closed"};
    return (unsigned)kind < EAR_UI_EVENT_KIND_COUNT ? names[kind] : NULL;
}

bool ear_ui_event_is(const ear_ui_event *e, ear_ui_event_kind kind, const char *widget,
                     const char *item) {
    if (!e || e->kind != kind) return false;
    if (widget && strcmp(e->widget ? e->widget : "", widget) != 0) return false;
    return !item || strcmp(e->item ? e->item : "", item) == 0;
}

ear_result ear__ui_post(ear_ui *ui, const char *widget_id, const ear_ui_event *event) {
    if (ui->event_count == EAR_UI_EVENTS) {
        ear_log(EAR_LOG_WARN, "ui",
                "more than %d UI events in one update; '%s' of '%s' dropped", EAR_UI_EVENTS,
                ear_ui_event_kind_name(event->kind), widget_id ? widget_id : "");
        return EAR_E_STATE;
    }
    ear__ui_stored_event *s = &ui->events[ui->event_count++];
    ear__ui_copy(s->widget, sizeof s->widget, widget_id ? widget_id : "");
    ear__ui_copy(s->item, sizeof s->item, event->item ? event->item : "");
    ear__ui_copy(s->text, sizeof s->text, event->text ? event->text : "");
    s->event = *event;
    s->event.widget = s->widget;
    s->event.item = s->item;
    s->event.text = s->text;
    if (ui->ctx && ear_ctx_post_ui_event(ui->ctx, &s->event) != EAR_OK)
        ear_log(EAR_LOG_WARN, "ui", "the scene's on_ui misses a '%s' event of '%s'",
                ear_ui_event_kind_name(s->event.kind), s->widget);
    return EAR_OK;
}

ear_result ear_ui_post(ear_ui_context *uc, const ear_ui_event *event) {
    if (!uc || !uc->ui || !event || event->kind <= EAR_UI_EVENT_NONE ||
        event->kind >= EAR_UI_EVENT_KIND_COUNT)
        return EAR_E_INVALID_ARG;
    return ear__ui_post(uc->ui, uc->widget_id, event);
}

size_t ear_ui_event_count(ear_ctx *ctx) {
    ear_ui *ui = ear_ui_of(ctx);
    return ui ? ui->event_count : 0;
}

const ear_ui_event *ear_ui_event_at(ear_ctx *ctx, size_t index) {
    ear_ui *ui = ear_ui_of(ctx);
    return ui && index < ui->event_count ? &ui->events[index].event : NULL;
}

const ear_ui_event *ear_ui_find_event(ear_ctx *ctx, ear_ui_event_kind kind, const char *widget,
                                      const char *item) {
    ear_ui *ui = ear_ui_of(ctx);
    if (!ui) return NULL;
    for (size_t i = 0; i < ui->event_count; i++)
        if (ear_ui_event_is(&ui->events[i].event, kind, widget, item))
            return &ui->events[i].event;
    return NULL;
}

bool ear_ui_clicked(ear_ctx *ctx, const char *widget, const char *item) {
    return ear_ui_find_event(ctx, EAR_UI_CLICKED, widget, item) != NULL;
}

const ear_ui_event *ear_ui_changed(ear_ctx *ctx, const char *widget, const char *item) {
    return ear_ui_find_event(ctx, EAR_UI_CHANGED, widget, item);
}

const ear_ui_event *ear_ui_confirmed(ear_ctx *ctx, const char *widget, const char *item) {
    return ear_ui_find_event(ctx, EAR_UI_CONFIRMED, widget, item);
}

bool ear_ui_cancelled(ear_ctx *ctx, const char *widget) {
    return ear_ui_find_event(ctx, EAR_UI_CANCELLED, widget, NULL) != NULL;
}

bool ear_ui_closed(ear_ctx *ctx, const char *widget) {
    return ear_ui_find_event(ctx, EAR_UI_CLOSED, widget, NULL) != NULL;
}

/* ---- The update ---------------------------------------------------------------------------
 */

ear_ui_context ear__ui_context(ear_ui *ui, ear_ctx *ctx, const ear_ui_widget *widget) {
    ear_ui_context uc;
    memset(&uc, 0, sizeof uc);
    uc.ui = ui;
    uc.ctx = ctx;
    if (ctx) {
        uc.lang = ear_ctx_lang(ctx);
        uc.speech = ear_ctx_speech(ctx);
        uc.stage = ear_ctx_stage(ctx);
        uc.assets = ear_ctx_assets(ctx);
        uc.input = ear_ctx_input(ctx);
    }
    if (widget) {
        uc.widget_id = widget->id;
        uc.sounds = widget->sounds ? widget->sounds(widget->self) : NULL;
    }
    return uc;
}

/* Pops the top widget: close sound, "closed", destroy. */
static void pop_top(ear_ui *ui, ear_ctx *ctx) {
    ear__ui_entry *e = &ui->stack[ui->depth - 1];
    ear_ui_context uc = ear__ui_context(ui, ctx, &e->widget);
    ear_ui_play(&uc, EAR_UI_SOUND_CLOSE);
    char id[EAR_UI_ID_MAX];
    ear__ui_copy(id, sizeof id, e->widget.id);
    destroy_widget(&e->widget);
    ui->depth--;
    ear__ui_post(ui, id, &(ear_ui_event){.kind = EAR_UI_CLOSED, .position = -1});
}

static void resume_below(ear_ui *ui, const ear_ui_value *value) {
    if (!ui->depth) return;
    ear__ui_entry *e = &ui->stack[ui->depth - 1];
    /* A widget that never opened still opens first; it takes no value then. */
    if (e->state == EAR__UI_FRESH) return;
    e->state = EAR__UI_RESUME;
    e->has_value = value != NULL;
    if (value) e->value = *value;
}

static void push(ear_ui *ui, ear_ctx *ctx, const ear_ui_widget *w) {
    if (ui->depth == EAR_UI_DEPTH_MAX) {
        ear_log(EAR_LOG_ERROR, "ui", "cannot open '%s': %d widgets are open already", w->id,
                EAR_UI_DEPTH_MAX);
        ear_ui_widget copy = *w;
        if (ui->depth) {
            ear_ui_context uc = ear__ui_context(ui, ctx, &ui->stack[ui->depth - 1].widget);
            ear_ui_play(&uc, EAR_UI_SOUND_ERROR);
        }
        destroy_widget(&copy);
        return;
    }
    ear__ui_entry *e = &ui->stack[ui->depth++];
    memset(e, 0, sizeof *e);
    e->widget = *w;
    e->widget.id[EAR_UI_ID_MAX - 1] = '\0';
    e->state = EAR__UI_FRESH;
}

static bool same_track(const char *stage_name, const char *track) {
    /* The stage keeps at most EAR_NAME_MAX - 1 bytes of a name. */
    size_t n = strlen(track);
    if (n > EAR_NAME_MAX - 1) n = EAR_NAME_MAX - 1;
    return strlen(stage_name) == n && strncmp(stage_name, track, n) == 0;
}

static void play_track(ear_ui *ui, ear_ctx *ctx, const char *name) {
    ear_stage *stage = ear_ctx_stage(ctx);
    ear_assets *assets = ear_ctx_assets(ctx);
    char file[8];
    /* A registered or synth name resolves to no file: it plays from memory. Anything
     * else is streamed from its file. */
    ear_result res = ear_assets_resolve(assets, name, file, sizeof file);
    if (res == EAR_OK && file[0] == '\0') {
        ear_clip *clip;
        if (ear_assets_get(assets, name, &clip) != EAR_OK) return;
        float volume = ui->cfg.music_volume;
        ear_music_params mp = {.name = name,
                               .source = {.clip = clip, .stream = NULL},
                               .loop = true,
                               .volume = volume == 0.0f ? -1.0f : volume, /* 0: silence */
                               .crossfade_s = ui->cfg.music_crossfade_s};
        (void)ear_stage_music_play(stage, &mp);
        return;
    }
    (void)ear_assets_play_music(assets, stage, name, true, ui->cfg.music_volume,
                                ui->cfg.music_crossfade_s);
}

static void update_music(ear_ui *ui, ear_ctx *ctx) {
    const char *want = NULL;
    for (size_t i = ui->depth; i-- > 0 && !want;) {
        const ear_ui_widget *w = &ui->stack[i].widget;
        const char *m = w->music ? w->music(w->self) : NULL;
        if (m && m[0]) want = m;
    }
    ear_stage *stage = ear_ctx_stage(ctx);
    if (want) {
        if (strcmp(want, ui->track) == 0) return;
        if (!ui->track[0])
            ear__ui_copy(ui->previous, sizeof ui->previous, ear_stage_music_name(stage));
        ear__ui_copy(ui->track, sizeof ui->track, want);
        play_track(ui, ctx, want);
        return;
    }
    if (!ui->track[0]) return;
    if (same_track(ear_stage_music_name(stage), ui->track)) {
        if (ui->previous[0])
            play_track(ui, ctx, ui->previous);
        else
            (void)ear_stage_music_stop(stage, ui->cfg.music_crossfade_s);
    }
    ui->track[0] = '\0';
    ui->previous[0] = '\0';
}

static void apply_closes(ear_ui *ui, ear_ctx *ctx) {
    if (ui->close_all) {
        while (ui->depth) pop_top(ui, ctx);
        ui->close_all = false;
        ui->close_count = 0;
        return;
    }
    for (size_t k = 0; k < ui->close_count; k++) {
        size_t at = SIZE_MAX;
        for (size_t i = 0; i < ui->depth; i++)
            if (strcmp(ui->stack[i].widget.id, ui->close_ids[k]) == 0) at = i;
        if (at == SIZE_MAX) continue;
        while (ui->depth > at) pop_top(ui, ctx);
        resume_below(ui, NULL);
    }
    ui->close_count = 0;
}

void ear_ui_update(ear_ctx *ctx, void *user) {
    ear_ui *ui = user;
    if (!ui || !ctx) return;
    ui->ctx = ctx;
    ui->event_count = 0;
    ear_input *input = ear_ctx_input(ctx);
    register_customs(ui, ear_ctx_assets(ctx));
    refresh_stale(ui, input);
    bool was_open = ui->depth > 0;

    apply_closes(ui, ctx);
    for (size_t i = 0; i < ui->pending_count; i++) push(ui, ctx, &ui->pending[i]);
    ui->pending_count = 0;

    if (ui->depth) {
        ear__ui_entry *e = &ui->stack[ui->depth - 1];
        ear_ui_context uc = ear__ui_context(ui, ctx, &e->widget);
        switch (e->state) {
        case EAR__UI_FRESH:
            e->state = EAR__UI_ACTIVE;
            mark_held_stale(ui, input);
            if (e->widget.open)
                e->widget.open(&uc, e->widget.self);
            else
                ear_ui_play(&uc, EAR_UI_SOUND_OPEN);
            break;
        case EAR__UI_RESUME:
            e->state = EAR__UI_ACTIVE;
            mark_held_stale(ui, input);
            if (e->widget.resume)
                e->widget.resume(&uc, e->widget.self, e->has_value ? &e->value : NULL);
            e->has_value = false;
            break;
        case EAR__UI_ACTIVE: {
            ear_ui_status status;
            memset(&status, 0, sizeof status);
            status.kind = EAR_UI_STATUS_OPEN;
            e->widget.update(&uc, e->widget.self, &status);
            switch (status.kind) {
            case EAR_UI_STATUS_OPEN: break;
            case EAR_UI_STATUS_CLOSE:
                pop_top(ui, ctx);
                resume_below(ui, NULL);
                break;
            case EAR_UI_STATUS_CLOSE_WITH: {
                ear_ui_value v = status.value;
                pop_top(ui, ctx);
                resume_below(ui, &v);
                break;
            }
            case EAR_UI_STATUS_PUSH:
                if (!status.child.update) {
                    destroy_widget(&status.child);
                    break;
                }
                push(ui, ctx, &status.child);
                break;
            }
            break;
        }
        }
    }
    update_music(ui, ctx);
    ear_input_set_blocked(input, was_open || ui->depth > 0);
    ui->ctx = NULL;
}
