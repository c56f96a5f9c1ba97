/* SPDX-License-Identifier: Zlib */
/* Internal to src/ui: the UI's struct, the text editor shared by text inputs and forms,
 * and small helpers for UTF-8 and bounded strings. */
#ifndef EARSHOT_UI_INTERNAL_H
#define EARSHOT_UI_INTERNAL_H

#include "earshot/assets.h"
#include "earshot/ui.h"

typedef enum ear__ui_state {
    EAR__UI_FRESH = 0,
    EAR__UI_ACTIVE,
    EAR__UI_RESUME,
} ear__ui_state;

typedef struct ear__ui_entry {
    ear_ui_widget widget;
    ear__ui_state state;
    bool has_value;
    ear_ui_value value;
} ear__ui_entry;

typedef struct ear__ui_stored_event {
    ear_ui_event event; /* its strings point into the arrays below */
    char widget[EAR_UI_ID_MAX];
    char item[EAR_UI_ID_MAX];
    char text[EAR_UI_TEXT_MAX];
} ear__ui_stored_event;

typedef struct ear__ui_custom {
    char name[EAR_SOUND_NAME_MAX];
    ear_clip *clip;
    bool dirty; /* not yet registered with the assets, or replaced since */
} ear__ui_custom;

struct ear_ui {
    ear_ui_config cfg;
    /* ear_ui_use_actions: navigation from these actions' bindings in this profile */
    const ear_actions *actions;
    int actions_profile;
    /* The UI's own set: a name per slot, "" for silence, unset slots flagged. */
    char names[EAR_UI_SOUND_COUNT][EAR_SOUND_NAME_MAX];
    bool name_set[EAR_UI_SOUND_COUNT];
    char duck[EAR_NAME_MAX];
    ear__ui_entry stack[EAR_UI_DEPTH_MAX];
    size_t depth;
    ear_ui_widget pending[EAR_UI_DEPTH_MAX];
    size_t pending_count;
    char close_ids[EAR_UI_DEPTH_MAX][EAR_UI_ID_MAX];
    size_t close_count;
    bool close_all;
    ear__ui_stored_event events[EAR_UI_EVENTS];
    size_t event_count;
    ear__ui_custom *customs;
    size_t custom_count, custom_cap;
    /* Widget music: the track the UI started last ("" when none) and the track that
     * played before the first widget music. */
    char track[EAR_SOUND_NAME_MAX];
    char previous[EAR_SOUND_NAME_MAX];
    /* Keys held when the top widget opened or resumed: the widget sees none of them until
     * they are let go (or pressed again), so a key held from the game (Up while walking
     * onto the goal) neither repeats in the menu that opens nor activates anything. */
    bool stale[EAR_KEY_COUNT];
    bool stale_pad[EAR_PAD_BUTTON_COUNT]; /* the same rule for the pad's buttons */
    /* Set during an update. */
    ear_ctx *ctx;
};

/* Copies src into dst (size bytes), cut on a UTF-8 boundary. Returns the length. */
size_t ear__ui_copy(char *dst, size_t size, const char *src);
/* Appends src; returns the new length. */
size_t ear__ui_append(char *dst, size_t size, const char *src);
/* The code point at s[at..] (0 at the end), lower-cased for Latin letters. */
uint32_t ear__utf8_lower_at(const char *s, size_t len, size_t at, size_t *out_next);

/* Digits after the point that a slider step needs (0.1: 1, 0.25: 2, 5: 0), at most 6. */
int ear__ui_step_decimals(double step);

/* Builds a widget context for the entry's widget (sounds from its callback). */
ear_ui_context ear__ui_context(ear_ui *ui, ear_ctx *ctx, const ear_ui_widget *widget);
/* Posts an event under widget_id (event->widget ignored; strings copied). */
ear_result ear__ui_post(ear_ui *ui, const char *widget_id, const ear_ui_event *event);
/* Builds the built-in clip of a slot (one reference, the caller's). */
ear_result ear__ui_builtin_clip(ear_ui_sound_slot slot, uint32_t sample_rate, ear_clip **out);
/* Speaks one character as a screen reader would ("space", "star" for passwords). */
void ear__ui_say_char(ear_ui_context *uc, const char *ch, size_t len, bool password);

/* A sound set with its own copies of the names; `view` points into them. */
typedef struct ear__ui_owned_sounds {
    char names[EAR_UI_SOUND_COUNT][EAR_SOUND_NAME_MAX];
    ear_ui_sounds view;
    bool any; /* some slot is set, or the set replaces the UI's */
} ear__ui_owned_sounds;

/* Copies a set (NULL: clears it). */
void ear__ui_sounds_copy(ear__ui_owned_sounds *o, const ear_ui_sounds *from);
/* Sets one slot (NULL: unset; "": silence). EAR_E_INVALID_ARG for a bad slot or a
 * name too long. */
ear_result ear__ui_sounds_set(ear__ui_owned_sounds *o, ear_ui_sound_slot slot,
                              const char *name);
/* The view, or NULL when nothing is set. */
const ear_ui_sounds *ear__ui_sounds_view(const ear__ui_owned_sounds *o);

/* ---- The text editor (text inputs and forms' text fields) ---------------------------- */

typedef struct ear__text_edit {
    char buf[EAR_UI_TEXT_MAX];
    size_t len, cursor; /* bytes, on character boundaries */
    size_t max_chars;
    bool password, multiline;
    ear_key read_key;
} ear__text_edit;

void ear__edit_init(ear__text_edit *e, const char *text, size_t max_chars, bool password,
                    bool multiline, ear_key read_key);
/* Inserts this frame's typed text at the cursor (each character echoed). Call it before
 * looking at the frame's Enter or Tab: what was typed in the same frame comes first.
 * Sets *changed when the text changed. */
void ear__edit_type(ear_ui_context *uc, ear__text_edit *e, bool *changed);
/* Handles this frame's editing keys (not typed text, not Enter, Escape or Tab, except
 * Enter in a multi-line field without Ctrl, which is a new line). Sets *changed when the
 * text changed. */
void ear__edit_keys(ear_ui_context *uc, ear__text_edit *e, bool *changed);
/* The text as it is spoken: itself, "star star" for passwords, "blank" when empty. */
void ear__edit_spoken(ear_ui_context *uc, const ear__text_edit *e, char *out, size_t size);

#endif
