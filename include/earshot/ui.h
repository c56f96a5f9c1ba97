/* SPDX-License-Identifier: Zlib */
/*
 * Earshot's virtual UI: a stack of widgets (menus, text input, message boxes, yes/no
 * questions, forms, and any widget a game writes) that speak through the player's
 * screen reader, answer keys with short sounds and may ask for their own music.
 *
 * The UI plugs into the runner's ui phase (ear_ui_attach sets the engine config's ui
 * hook). Each frame that hook:
 *   1. clears the events of the last UI update;
 *   2. applies the game's requests (widgets opened with ear_ui_open since the last
 *      update are pushed now, as Fresh: opening is deferred to the next frame, so the
 *      key that opened a menu in the scene's update cannot also activate its first item;
 *      ear_ui_close requests);
 *   3. registers custom sound data (ear_ui_set_sound_data), starts or restores widget
 *      music (the topmost widget that names a track gets it);
 *   4. runs the top widget by its state: Fresh -> open (announce, open sound), then
 *      Active; Active -> update (keys); Resume -> resume(value), then Active. update's
 *      status: Open (stay), Close (pop), CloseWith(value) (pop, the widget below
 *      resumes with the value), Push(child) (the child goes on top, Fresh);
 *   5. blocks the game's input while a widget is open (widgets read the raw view);
 *   6. posts each event to the runner, so the top scene's on_ui sees it too.
 *
 * Widgets never reach globals: each callback gets an ear_ui_context with the engine's
 * translations, speech, stage, assets and input, the widget's own id and sound set.
 *
 * Texts (labels, titles, choices, units) are translation keys, looked up with
 * ear_lang_get when spoken (a key without a text is spoken as written). Announcements
 * are built from the translation tables (ui.* keys, English and German built in), so
 * the wording exists once: ear_ui_describe_item.
 *
 * Thread: game, for everything here (the ui phase runs on the game thread).
 */
#ifndef EARSHOT_UI_H
#define EARSHOT_UI_H

#include "earshot/core.h"
#include "earshot/engine.h"
#include "earshot/input.h"
#include "earshot/lang.h"
#include "earshot/speech.h"
#include "earshot/stage.h"

#ifdef __cplusplus
extern "C" {
#endif

#define EAR_UI_ID_MAX    64  /* widget and item ids, NUL included (longer ones are cut) */
#define EAR_UI_TEXT_MAX  512 /* a value's text, NUL included */
#define EAR_UI_DEPTH_MAX 16  /* widgets open at once (pending ones included) */
#define EAR_UI_EVENTS    64  /* events kept per UI update */

typedef struct ear_ui ear_ui;

/* ---- Sounds -------------------------------------------------------------------------- */

typedef enum ear_ui_sound_slot {
    EAR_UI_SOUND_OPEN = 0,   /* a widget opens */
    EAR_UI_SOUND_CLOSE,      /* a widget closes */
    EAR_UI_SOUND_NAVIGATE,   /* focus moves to another item */
    EAR_UI_SOUND_WRAP,       /* focus wraps from the last item to the first or back */
    EAR_UI_SOUND_EDGE,       /* at a boundary where nothing wraps */
    EAR_UI_SOUND_ACTIVATE,   /* a button is pressed */
    EAR_UI_SOUND_TOGGLE_ON,  /* a check box becomes checked */
    EAR_UI_SOUND_TOGGLE_OFF, /* a check box becomes unchecked */
    EAR_UI_SOUND_SLIDER,     /* a slider or choice moves one step */
    EAR_UI_SOUND_TYPE,       /* a character is typed */
    EAR_UI_SOUND_DELETE,     /* a character is deleted */
    EAR_UI_SOUND_ERROR,      /* a disabled item, a full text field, nothing found */
    EAR_UI_SOUND_COUNT
} ear_ui_sound_slot;

/* "open", "close", "navigate", "wrap", "edge", "activate", "toggle_on", "toggle_off",
 * "slider", "type", "delete", "error"; NULL out of range. Thread: any. */
const char *ear_ui_sound_slot_name(ear_ui_sound_slot slot);

/* The built-in sound of a slot: "ui:builtin:<slot name>", synthesised on first use (a
 * sine of the slot's own frequency, ear_ui_builtin_hz, tens of milliseconds long).
 * Thread: any. */
double ear_ui_builtin_hz(ear_ui_sound_slot slot);

/* A set of sound names per slot. Each name is one of
 *   - "ui:builtin:<slot>": the built-in sound (any slot's may be used for any slot);
 *   - "ui:custom:<name>": data the game registered with ear_ui_set_sound_data;
 *   - any other sound name (ear_assets_play's: a file, a registered clip, "synth:...").
 * "" is silence. In an override set (a menu's), NULL means "the UI's sound for this
 * slot" unless `replace` is set: then the set is the whole set and NULL is silence too.
 * WRAP left NULL plays NAVIGATE's sound (in the UI's set, and in a replacing set).
 * Strings are copied wherever a set is stored. */
typedef struct ear_ui_sounds {
    const char *names[EAR_UI_SOUND_COUNT];
    bool replace;
} ear_ui_sounds;

/* ---- Values, events ------------------------------------------------------------------ */

typedef enum ear_ui_value_kind {
    EAR_UI_VALUE_NONE = 0,
    EAR_UI_VALUE_TEXT,   /* text */
    EAR_UI_VALUE_BOOL,   /* flag */
    EAR_UI_VALUE_NUMBER, /* number */
    EAR_UI_VALUE_INDEX,  /* index (and text: the item's id) */
} ear_ui_value_kind;

/* What a closing widget hands to the one below (CloseWith). */
typedef struct ear_ui_value {
    ear_ui_value_kind kind;
    bool flag;
    double number;
    int index;
    char text[EAR_UI_TEXT_MAX];
} ear_ui_value;

/* Events (ear_ui_event and its kinds, EAR_UI_CLICKED ..., are declared in engine.h, as
 * the runner hands them to the scene's on_ui). */

/* "clicked", "changed", "confirmed", "cancelled", "closed" ("none" for
 * EAR_UI_EVENT_NONE); NULL out of range. For logs: a game reads the enum. Thread: any. */
const char *ear_ui_event_kind_name(ear_ui_event_kind kind);

/* Whether the event is of that kind, for that widget and that item (NULL widget or item:
 * any). The way a scene's on_ui reads an event, as ImGui's `if (Button("Play"))` reads a
 * button: `if (ear_ui_event_is(e, EAR_UI_CLICKED, "main", "play")) start_game(ctx);`.
 * NULL e answers false. Thread: any. */
bool ear_ui_event_is(const ear_ui_event *e, ear_ui_event_kind kind, const char *widget,
                     const char *item);

/* ---- Widgets --------------------------------------------------------------------------- */

/* What a widget callback gets: the engine's parts (borrowed for the call), its id and
 * its sound set (may be NULL). */
typedef struct ear_ui_context {
    ear_ui *ui;
    ear_ctx *ctx;
    ear_lang *lang;
    ear_speech *speech;
    ear_stage *stage;
    ear_assets *assets;
    ear_input *input;
    const char *widget_id;
    const ear_ui_sounds *sounds;
} ear_ui_context;

typedef struct ear_ui_widget ear_ui_widget;
typedef struct ear_ui_status ear_ui_status;

typedef enum ear_ui_status_kind {
    EAR_UI_STATUS_OPEN = 0,   /* stay */
    EAR_UI_STATUS_CLOSE,      /* pop */
    EAR_UI_STATUS_CLOSE_WITH, /* pop and hand `value` to the widget below */
    EAR_UI_STATUS_PUSH,       /* open `child` on top */
} ear_ui_status_kind;

/* A widget: a struct of callbacks on `self`. Every callback but update is optional.
 * The stack owns self from the moment the widget is opened or pushed: destroy(self) is
 * called when it leaves the stack (or the UI is destroyed), and also when opening it
 * fails. */
struct ear_ui_widget {
    char id[EAR_UI_ID_MAX];
    void *self;
    /* Fresh: announce yourself and play the open sound. */
    void (*open)(ear_ui_context *uc, void *self);
    /* Active: handle this frame's keys (ear_ui_key_*) and write a status (preset to
     * Open; for Push, fill status->child). */
    void (*update)(ear_ui_context *uc, void *self, ear_ui_status *status);
    /* The widget above closed (value NULL for Close): re-announce, take the value. */
    void (*resume)(ear_ui_context *uc, void *self, const ear_ui_value *value);
    /* The music track this widget wants (a sound or music name), or NULL. */
    const char *(*music)(void *self);
    /* The widget's sound set (may be NULL: the UI's). */
    const ear_ui_sounds *(*sounds)(void *self);
    void (*destroy)(void *self);
};

struct ear_ui_status {
    ear_ui_status_kind kind;
    ear_ui_value value;
    ear_ui_widget child;
};

/* ---- The UI -------------------------------------------------------------------------- */

typedef struct ear_ui_config {
    ear_ui_sounds sounds;    /* default: every slot its "ui:builtin:*" sound */
    float sound_volume;      /* UI sounds' linear volume; 0 means 0.5 */
    bool mute_sounds;        /* default false; true: no UI sound plays */
    double repeat_delay_s;   /* held keys repeat after this; 0 means 0.5 */
    double repeat_every_s;   /* then every; 0 means 0.08 */
    double prefix_timeout_s; /* letters typed closer than this search by prefix;
                                0 means 1.0 */
    float music_volume;      /* widget music's volume; 0 means 1 */
    float music_crossfade_s; /* widget music's crossfade; 0 means 1.0 */
    const char *speech_duck; /* a duck rule (ear_stage_set_duck) held down while the
                                UI speaks (for speech that bypasses the stage); NULL:
                                none. Copied */
    double duck_s_per_char;  /* the hold per character spoken; 0 means 0.06 */
    bool hide_position;      /* default false: items say "3 of 6" */
} ear_ui_config;

/* The defaults above. Thread: any. */
ear_ui_config ear_ui_config_default(void);

/* Creates a UI with an empty stack (config NULL: defaults; strings copied). Writes it to
 * *out_ui, which the caller owns. EAR_E_INVALID_ARG, EAR_E_OUT_OF_MEMORY (nothing
 * written then). Thread: game. */
ear_result ear_ui_create(const ear_ui_config *config, ear_ui **out_ui);
/* Destroys every widget still open or pending, and the UI. NULL does nothing. Call it
 * after the engine run that used it. Thread: game. */
void ear_ui_destroy(ear_ui *ui);

/* Plugs the UI into an engine config: sets config->ui to the UI's hook and
 * config->ui_user to ui (the ui stays the caller's; it must outlive the run). Thread: game. */
void ear_ui_attach(ear_ui *ui, ear_engine_config *config);
/* The UI attached to this engine, or NULL. Thread: game. */
ear_ui *ear_ui_of(ear_ctx *ctx);
/* The hook ear_ui_attach installs: one UI update (see the top of this header).
 * Thread: game. */
void ear_ui_update(ear_ctx *ctx, void *ui);

/* Opens a widget at the next UI update (deferred; see the top). Takes ownership of
 * widget->self (destroy is called on failure too). EAR_E_STATE without an attached UI
 * or when EAR_UI_DEPTH_MAX widgets are open or pending; EAR_E_INVALID_ARG without an
 * update callback. Thread: game. */
ear_result ear_ui_open(ear_ctx *ctx, const ear_ui_widget *widget);
/* Closes the widget of that id, and every widget above it, at the next UI update
 * (each posts "closed"; the one below resumes with no value). A widget still pending is
 * dropped at once, without a word or an event. EAR_E_NOT_FOUND when no widget of that id
 * is open or pending. Thread: game. */
ear_result ear_ui_close(ear_ctx *ctx, const char *id);
/* Closes every widget at the next UI update. Thread: game. */
void ear_ui_close_all(ear_ctx *ctx);
/* Whether a widget of that id is open or pending (NULL: any widget). Thread: game. */
bool ear_ui_is_open(ear_ctx *ctx, const char *id);
/* Widgets on the stack (pending ones not counted). Thread: game. */
size_t ear_ui_depth(const ear_ui *ui);

/* Sets a slot of the UI's own set (copied). "" is silence; NULL unsets the slot, which
 * is silence too, except WRAP, which then plays NAVIGATE's sound. EAR_E_INVALID_ARG for a
 * bad slot or a name of EAR_SOUND_NAME_MAX bytes or more (nothing changes then).
 * Thread: game. */
ear_result ear_ui_set_sound(ear_ui *ui, ear_ui_sound_slot slot, const char *name);
/* Mutes or unmutes every UI sound. Thread: game. */
void ear_ui_set_mute_sounds(ear_ui *ui, bool mute);
/* Registers samples (copied, interleaved, 1 or 2 channels) as "ui:custom:<name>" (name
 * may be given with or without the prefix). The clip reaches the engine's assets at the
 * next UI update. EAR_E_INVALID_ARG (bad data), EAR_E_OUT_OF_MEMORY. Thread: game. */
ear_result ear_ui_set_sound_data(ear_ui *ui, const char *name, const float *samples,
                                 uint64_t frames, uint32_t channels, uint32_t sample_rate);
/* Turns "3 of 6" on or off for every widget. Thread: game. */
void ear_ui_set_hide_position(ear_ui *ui, bool hide);
/* Sets the repeat timing of held navigation keys (the player's key-repeat setting): a
 * held key repeats after delay_s, then every every_s. EAR_E_INVALID_ARG for a value that
 * is not finite and above 0 (nothing changes then). Thread: game. */
ear_result ear_ui_set_repeat(ear_ui *ui, double delay_s, double every_s);
/* Navigation by the game's actions: from now on widgets read the keys Up, Down, Left,
 * Right, Enter and Escape as the actions "ui.up", "ui.down", "ui.left", "ui.right",
 * "ui.confirm" and "ui.back" of that profile: a key or pad button bound to one stands for
 * its key (the stale rule holds for each); an action that is not defined keeps its key.
 * A player who rebinds "ui.confirm" to Space confirms menus with Space. NULL actions:
 * back to the keys and the fixed pad buttons. The actions must outlive the UI's use.
 * Thread: game. */
void ear_ui_use_actions(ear_ui *ui, const ear_actions *actions, int profile);
/* The repeat timing in force. Thread: game. */
double ear_ui_repeat_delay_s(const ear_ui *ui);
double ear_ui_repeat_every_s(const ear_ui *ui);

/* ---- Events -------------------------------------------------------------------------- */

/* This update's events (collected in the last UI update, cleared at the next). The
 * event's strings are owned by the UI and valid until its next update. Thread: game. */
size_t ear_ui_event_count(ear_ctx *ctx);
const ear_ui_event *ear_ui_event_at(ear_ctx *ctx, size_t index);
/* The first event of this kind for that widget and item (NULL widget or item: any),
 * or NULL. Thread: game. */
const ear_ui_event *ear_ui_find_event(ear_ctx *ctx, ear_ui_event_kind kind, const char *widget,
                                      const char *item);
bool ear_ui_clicked(ear_ctx *ctx, const char *widget, const char *item);
const ear_ui_event *ear_ui_changed(ear_ctx *ctx, const char *widget, const char *item);
const ear_ui_event *ear_ui_confirmed(ear_ctx *ctx, const char *widget, const char *item);
bool ear_ui_cancelled(ear_ctx *ctx, const char *widget);
bool ear_ui_closed(ear_ctx *ctx, const char *widget);

/* ---- For widgets (inside their callbacks) ------------------------------------------- */

/* Speaks text interrupting what is said (navigation), or after it (queued); holds the
 * speech duck down when one is configured. Thread: game. */
void ear_ui_say(ear_ui_context *uc, const char *text);
void ear_ui_say_queued(ear_ui_context *uc, const char *text);
/* Plays the widget's sound for a slot on the ui bus (nothing when muted or silent).
 * Thread: game. */
void ear_ui_play(ear_ui_context *uc, ear_ui_sound_slot slot);
/* The sound name a slot resolves to for this widget ("" for silence). Thread: game. */
const char *ear_ui_sound_name(ear_ui_context *uc, ear_ui_sound_slot slot);
/* Posts an event for this widget: event's kind, item and values; its widget is the
 * context's (event->widget is ignored; strings copied, NULL ones as ""). EAR_E_INVALID_ARG
 * without an event or for a kind out of range; EAR_E_STATE when EAR_UI_EVENTS events exist
 * already. Thread: game. */
ear_result ear_ui_post(ear_ui_context *uc, const ear_ui_event *event);
/* Keys through the raw view: pressed this frame; pressed or repeating while held (the
 * UI's repeat timing); held; this frame's typed text. A key that was held when the top
 * widget opened or resumed is none of these until it is let go and pressed again
 * (Shift, Ctrl and Alt excepted: they only modify). A gamepad's buttons answer for the
 * keys widgets navigate by, under the same rules: the D-pad for the arrows, A (and Start,
 * which does not repeat) for Enter, B for Escape. Thread: game. */
bool ear_ui_key_pressed(ear_ui_context *uc, ear_key key);
bool ear_ui_key_repeating(ear_ui_context *uc, ear_key key);
bool ear_ui_key_held(ear_ui_context *uc, ear_key key);
const char *ear_ui_text_typed(ear_ui_context *uc);
/* A translated text (ear_lang_get). Thread: game. */
const char *ear_ui_tr(ear_ui_context *uc, const char *key);
/* Whether items say their position. Thread: game. */
bool ear_ui_show_position(ear_ui_context *uc);

/* ---- Menus and forms ----------------------------------------------------------------- */

typedef enum ear_ui_item_kind {
    EAR_UI_BUTTON = 0,
    EAR_UI_TOGGLE,  /* a check box */
    EAR_UI_SLIDER,  /* a number between min and max */
    EAR_UI_CHOICE,  /* one of a list of values */
    EAR_UI_TEXT,    /* an edit field */
    EAR_UI_SUBMENU, /* Enter opens another menu */
} ear_ui_item_kind;

typedef struct ear_ui_menu ear_ui_menu;

/* One item. Zero fields are defaults; strings are copied. */
typedef struct ear_ui_item {
    const char *id;    /* required; the events' item */
    const char *label; /* translation key; default: the id */
    ear_ui_item_kind kind;
    bool disabled;      /* spoken "unavailable"; Enter and changes play the error sound */
    bool closes;        /* button: closes the menu (a form: submits it) after "clicked" */
    bool cancels;       /* button: cancels (posts "cancelled" and closes) */
    bool checked;       /* toggle */
    double value;       /* slider: the start value (clamped) */
    double min, max;    /* slider; max <= min means 0..100 */
    double step;        /* slider: Left/Right; 0 means 1 */
    double big_step;    /* slider: PageUp/PageDown; 0 means 10 steps */
    int decimals;       /* slider: digits spoken after the point; 0: as many as step has */
    const char *unit;   /* slider: a translation key spoken after the value ("ui.unit.percent"
                           says "percent"); NULL: none */
    const char *format; /* slider: a translation key with {value} and {unit}; NULL:
                           "ui.value_unit" ("{value} {unit}") */
    bool quiet_change;  /* slider: a change is not said (the edge still is); the game says
                           it (ear_ui_describe_value) once it has applied it: a speech
                           rate's new value is to be heard at the new rate */
    const char *const *choices; /* choice: translation keys */
    size_t choice_count;
    size_t selected;      /* choice: the start index */
    const char *text;     /* text: the start text */
    size_t max_length;    /* text: characters at most; 0 means EAR_UI_TEXT_MAX - 1 bytes */
    bool password;        /* text: speaks "star" for each character */
    bool multiline;       /* text: Enter is a new line, Ctrl+Enter submits */
    ear_ui_menu *submenu; /* submenu: taken (destroyed with this menu) */
} ear_ui_item;

typedef enum ear_ui_escape {
    EAR_UI_ESCAPE_CLOSE = 0, /* Escape closes (posts "closed") */
    EAR_UI_ESCAPE_CANCEL,    /* Escape posts "cancelled", then closes */
    EAR_UI_ESCAPE_NONE,      /* Escape does nothing but the error sound (a main menu) */
} ear_ui_escape;

typedef enum ear_ui_menu_role {
    EAR_UI_ROLE_MENU = 0, /* Up/Down between items */
    EAR_UI_ROLE_DIALOG,   /* a message box or question: also Left/Right between buttons;
                             a closing button posts "confirmed" */
    EAR_UI_ROLE_FORM,     /* Tab/Shift+Tab between controls, text edited in place,
                             Enter presses the default button */
} ear_ui_menu_role;

typedef struct ear_ui_menu_config {
    const char *id;      /* required (copied) */
    const char *title;   /* translation key; default: none (only the role is said) */
    const char *message; /* dialogs: a translation key read after the title */
    ear_ui_menu_role role;
    ear_ui_escape escape;
    bool no_wrap;       /* default false: Up on the first item wraps to the last */
    bool hide_position; /* default false */
    /* default false: opening says the title at once, cutting what is being said (the
     * player asked for the menu). true: the title waits until what is being said is done
     * (a menu the game opens after it reported something: a result, an error), so the
     * report is heard whole (docs/modules/speech.md, "What interrupts"). */
    bool after_speech;
    const char *music;           /* a track for while this menu is on top; NULL: none */
    const char *default_item;    /* forms: the button Enter presses; NULL: the first button
                                    that closes */
    const ear_ui_sounds *sounds; /* overrides (copied); NULL: none */
    const char *escape_item;     /* Escape presses this item (a button's id, copied), as
                                    if it were chosen: a main menu's Escape asks to quit
                                    through its Quit button. NULL: `escape` rules */
} ear_ui_menu_config;

/* Creates an empty menu (a form or dialog with the role). EAR_E_INVALID_ARG (no id),
 * EAR_E_OUT_OF_MEMORY. The caller owns it until it is opened or made a submenu.
 * Thread: game. */
ear_result ear_ui_menu_create(const ear_ui_menu_config *config, ear_ui_menu **out_menu);
/* config.after_speech after creation (a game that knows only when it opens the menu
 * whether it has just reported something). Thread: game. */
void ear_ui_menu_set_after_speech(ear_ui_menu *menu, bool after_speech);
/* Frees a menu that was never opened. NULL does nothing. Thread: game. */
void ear_ui_menu_destroy(ear_ui_menu *menu);
/* Adds an item at the end (copied; a submenu is taken even on failure, then freed).
 * EAR_E_INVALID_ARG (no id, an empty choice list, a submenu item without a menu),
 * EAR_E_OUT_OF_MEMORY. Thread: game. */
ear_result ear_ui_menu_add(ear_ui_menu *menu, const ear_ui_item *item);
/* Overrides one slot for this menu (copied; NULL: back to the UI's; "": silence).
 * Thread: game. */
ear_result ear_ui_menu_set_sound(ear_ui_menu *menu, ear_ui_sound_slot slot, const char *name);
/* Replaces the menu's whole set (copied; `replace` is implied). Thread: game. */
ear_result ear_ui_menu_set_sounds(ear_ui_menu *menu, const ear_ui_sounds *sounds);
/* Moves the focus to the item of that id. EAR_E_NOT_FOUND. Thread: game. */
ear_result ear_ui_menu_focus(ear_ui_menu *menu, const char *item_id);
/* The widget of a menu (for ear_ui_open or a Push status; the widget owns the menu).
 * Thread: game. */
ear_ui_widget ear_ui_menu_widget(ear_ui_menu *menu);
/* Opens a menu at the next update (ear_ui_open of its widget; the UI owns it then).
 * Thread: game. */
ear_result ear_ui_open_menu(ear_ctx *ctx, ear_ui_menu *menu);
/* The open menu of that id (borrowed, valid until it closes), or NULL. Thread: game. */
ear_ui_menu *ear_ui_find_menu(ear_ctx *ctx, const char *id);
/* An item's current value: text for text items, flag for toggles, number for sliders,
 * index (and the choice's key in text) for choices. EAR_E_NOT_FOUND. Thread: game. */
ear_result ear_ui_menu_value(const ear_ui_menu *menu, const char *item_id, ear_ui_value *out);
/* The focused item's index. Thread: game. */
size_t ear_ui_menu_focused(const ear_ui_menu *menu);

/* ---- Dialogs and text input ---------------------------------------------------------- */

/* A message box: "<title>, dialog", the message, "OK, button". Enter, Space or Escape
 * closes it, posting "confirmed" (item "ok"). Keys are translation keys. Thread: game. */
ear_result ear_ui_message(ear_ctx *ctx, const char *id, const char *title, const char *message);
/* A yes/no question: Yes and No buttons (Up/Down/Left/Right/Tab, first letters), Enter
 * answers with "confirmed" (item "yes" or "no", position 0 or 1); Escape posts
 * "cancelled". default_no focuses No first. Thread: game. */
ear_result ear_ui_question(ear_ctx *ctx, const char *id, const char *question, bool default_no);
/* The rebinding prompt: says prompt (a text key, or the text), then waits for the first
 * key, pad button or pad axis pushed past one half (ear_actions_capture) and posts
 * "confirmed" with the binding's text form in event->text ("key:SPACE", "pad:Y",
 * "axis:LEFTY-"), or "cancelled" on Escape; either closes it. The game resolves what the
 * binding means (a conflict, for instance, by ear_ui_question). EAR_E_INVALID_ARG,
 * EAR_E_OUT_OF_MEMORY, or ear_ui_open's errors. Thread: game. */
ear_result ear_ui_capture_binding(ear_ctx *ctx, const char *id, const char *prompt);

typedef struct ear_ui_text_config {
    const char *id;    /* required (copied) */
    const char *label; /* translation key */
    const char *text;  /* the start text */
    size_t max_length; /* characters; 0 means EAR_UI_TEXT_MAX - 1 bytes */
    bool password;
    bool multiline;
    ear_key read_key; /* reads the whole text; 0 means F2 (Up/Down too when single-line) */
    const ear_ui_sounds *sounds; /* overrides; NULL: none */
} ear_ui_text_config;

/* A text input widget. Enter submits: CloseWith(text); Escape cancels: Close. Unless it
 * is a child (a menu's text item), it also posts "confirmed" with the text, or
 * "cancelled". *out_widget owns the input (give it to ear_ui_open or a Push status).
 * EAR_E_INVALID_ARG (no id), EAR_E_OUT_OF_MEMORY; nothing written then. Thread: game. */
ear_result ear_ui_text_widget(const ear_ui_text_config *config, bool child,
                              ear_ui_widget *out_widget);
/* Opens a text input at the next update. Thread: game. */
ear_result ear_ui_open_text(ear_ctx *ctx, const ear_ui_text_config *config);

/* ---- Words -------------------------------------------------------------------------- */

/* What an item says: "<label>, <role>[, <state>][, unavailable][, <i> of <n>]" in the
 * lang's language ("Music volume, slider, 70 percent, 3 of 6"; "Fullscreen, check box,
 * not checked"; "Name, edit, blank"). index is 0-based; count 0 leaves the position out.
 * Writes at most size bytes (cut on a character boundary), NUL included. Returns the
 * length written. Thread: game. */
size_t ear_ui_describe_item(ear_lang *lang, const ear_ui_item *item, size_t index, size_t count,
                            char *out, size_t size);
/* A slider value as spoken ("70 percent", "0,5 Sekunden" in German). Thread: game. */
size_t ear_ui_describe_value(ear_lang *lang, const ear_ui_item *item, double value, char *out,
                             size_t size);

#ifdef __cplusplus
}
#endif

#endif /* EARSHOT_UI_H */
