/* SPDX-License-Identifier: Zlib */
/*
 * Earshot actions: what a game asks of the player ("walk forward", "turn", "confirm",
 * "gas"), over the devices that do it. A game names each action with a kind:
 *
 *   - a button: pressed / held / repeating / released, like a key;
 *   - an axis: a value in -1..1 (a stick, a trigger, or two keys at -1 and +1), which
 *     also counts as held while its size is at least one half.
 *
 * and binds keys, gamepad buttons and gamepad axes to it in profiles ("menus", "on
 * foot", "driving"); the game or its scene says which profile is active. Only the
 * active profile's bindings count. An action's value is the sum of its bindings'
 * contributions, clipped to -1..1; a button action is held while any binding is.
 *
 * A binding is a device control and a direction:
 *   - a key or pad button contributes `dir` while held (+1, or -1 for the "left" key of
 *     an axis action; 0 means +1);
 *   - a pad axis contributes its value (dir 0), or only its positive half (dir +1, the
 *     value when above 0) or its negative half (dir -1, the size of the value when below
 *     0, so "stick up" on a button action reads as 1 when pushed fully up).
 * Its text form (ear_binding_format / _parse) is "key:UP", "key:LEFT-", "pad:DPUP",
 * "axis:LEFTX", "axis:LEFTY-", "axis:RIGHTTRIGGER+"; the spoken form is the game's.
 *
 * Rules carried over from keys:
 *   - Fixed steps see their own edges (ear_actions_step_pressed): each press reaches one
 *     fixed step however many steps a frame runs, so replays stay exact (actions are a
 *     pure function of the input and of the game's own calls).
 *   - A held action repeats by the player's repeat setting (ear_actions_set_repeat:
 *     delay, then every interval), from the moment it went down.
 *   - A control held when the profile changes is ignored by the new profile until it is
 *     let go (the UI's rule for a key held into a new widget): switching from "menus" to
 *     "on foot" with Enter held does not fire "jump".
 *   - While the input is blocked (a UI widget open) every query answers false / 0.
 *
 * Bindings made before ear_actions_keep_defaults are the defaults ear_actions_reset
 * restores. Storage of a player's bindings: ear_actions_save / ear_actions_load write and
 * read "<prefix><profile>.<action>" keys of a storage, each a comma-separated list of
 * bindings in text form.
 *
 * Caller-allocated, no heap. Thread: one (the game's); the name functions: any.
 */
#ifndef EARSHOT_ACTIONS_H
#define EARSHOT_ACTIONS_H

#include "earshot/input.h"
#include "earshot/storage.h"

#ifdef __cplusplus
extern "C" {
#endif

#define EAR_ACTIONS_MAX         48 /* actions a game may name */
#define EAR_ACTION_PROFILES_MAX 8  /* profiles */
#define EAR_ACTION_BINDINGS_MAX 4  /* bindings of one action in one profile */
#define EAR_ACTION_NAME_MAX     32 /* bytes of an action or profile name, NUL included */
#define EAR_BINDING_TEXT_MAX    24 /* bytes of a binding's text form, NUL included */

typedef enum ear_action_kind { EAR_ACTION_BUTTON = 1, EAR_ACTION_AXIS } ear_action_kind;

typedef enum ear_binding_kind {
    EAR_BIND_NONE = 0,
    EAR_BIND_KEY,        /* code: an ear_key */
    EAR_BIND_PAD_BUTTON, /* code: an ear_pad_button (any connected pad) */
    EAR_BIND_PAD_AXIS,   /* code: an ear_pad_axis (any connected pad) */
} ear_binding_kind;

typedef struct ear_binding {
    uint8_t kind; /* ear_binding_kind */
    uint8_t code;
    int8_t dir; /* see the top */
} ear_binding;

/* Shorthands. Thread: any. */
ear_binding ear_bind_key(ear_key key);
ear_binding ear_bind_key_dir(ear_key key, int dir);
ear_binding ear_bind_pad(ear_pad_button button);
ear_binding ear_bind_axis(ear_pad_axis axis, int dir);
/* Whether two bindings name the same control and direction. Thread: any. */
bool ear_binding_same(ear_binding a, ear_binding b);
/* Writes the text form (see the top) into out (at least EAR_BINDING_TEXT_MAX bytes);
 * "" for EAR_BIND_NONE. Thread: any. */
void ear_binding_format(ear_binding b, char *out, size_t size);
/* Parses a text form; EAR_E_FORMAT for anything else (out untouched). Thread: any. */
ear_result ear_binding_parse(const char *text, ear_binding *out);

typedef struct ear_action_state {
    bool held, pressed, released;
    bool step_pressed, step_released;
    float value;
    double down_since_s, held_s, prev_held_s;
} ear_action_state;

typedef struct ear_actions {
    uint32_t count, profile_count;
    char names[EAR_ACTIONS_MAX][EAR_ACTION_NAME_MAX];
    uint8_t kinds[EAR_ACTIONS_MAX];
    char profiles[EAR_ACTION_PROFILES_MAX][EAR_ACTION_NAME_MAX];
    ear_binding bind[EAR_ACTION_PROFILES_MAX][EAR_ACTIONS_MAX][EAR_ACTION_BINDINGS_MAX];
    ear_binding defaults[EAR_ACTION_PROFILES_MAX][EAR_ACTIONS_MAX][EAR_ACTION_BINDINGS_MAX];
    int active; /* the active profile, -1 for none */
    ear_action_state state[EAR_ACTIONS_MAX];
    /* Controls held at the last profile change, ignored until let go. */
    bool latched_key[EAR_KEY_COUNT];
    bool latched_button[EAR_PAD_BUTTON_COUNT];
    bool latched_axis[EAR_PAD_AXIS_COUNT][2]; /* [axis][0: negative half, 1: positive] */
    double repeat_delay_s, repeat_every_s;
    const ear_input *input; /* the last update's (its blocking is read at each query) */
} ear_actions;

/* No actions, no profiles, none active; repeat 0.5 s then every 0.08 s. Thread: owner. */
void ear_actions_init(ear_actions *a);

/* Names an action (letters, digits, '_' and '.', 1..EAR_ACTION_NAME_MAX-1 bytes) and
 * returns its id (0, 1, ...), or the existing id when the name is taken with the same
 * kind. Negative ear_result: EAR_E_INVALID_ARG (a bad name or kind, or a taken name of
 * the other kind), EAR_E_STATE (EAR_ACTIONS_MAX actions). Thread: owner. */
int ear_actions_add(ear_actions *a, const char *name, ear_action_kind kind);
/* Names a profile (same rules) and returns its id, or the existing one. Thread: owner. */
int ear_actions_add_profile(ear_actions *a, const char *name);
/* The id of a name, or EAR_E_NOT_FOUND. Thread: owner. */
int ear_actions_find(const ear_actions *a, const char *name);
int ear_actions_find_profile(const ear_actions *a, const char *name);
/* The name and kind of an id ("" / 0 out of range). Thread: owner. */
const char *ear_actions_name(const ear_actions *a, int action);
ear_action_kind ear_actions_kind(const ear_actions *a, int action);
const char *ear_actions_profile_name(const ear_actions *a, int profile);

/* Adds a binding to an action in a profile (an existing same binding: nothing changes).
 * EAR_E_INVALID_ARG for a bad id or binding, EAR_E_STATE when the action has
 * EAR_ACTION_BINDINGS_MAX bindings there. Thread: owner. */
ear_result ear_actions_bind(ear_actions *a, int profile, int action, ear_binding b);
/* Removes that binding (EAR_E_NOT_FOUND when it is not there). Thread: owner. */
ear_result ear_actions_unbind(ear_actions *a, int profile, int action, ear_binding b);
/* Removes every binding of an action in a profile. Thread: owner. */
void ear_actions_clear(ear_actions *a, int profile, int action);
/* The action's bindings in a profile: how many, and the one at index. Thread: owner. */
uint32_t ear_actions_binding_count(const ear_actions *a, int profile, int action);
ear_binding ear_actions_binding_at(const ear_actions *a, int profile, int action,
                                   uint32_t index);
/* The other action of that profile that has binding b (not `except`), or -1. Thread: owner. */
int ear_actions_conflict(const ear_actions *a, int profile, ear_binding b, int except);
/* Keeps the bindings as they are now as the defaults; reset restores them (a profile,
 * or every profile with -1). Thread: owner. */
void ear_actions_keep_defaults(ear_actions *a);
void ear_actions_reset(ear_actions *a, int profile);
/* Whether a profile's bindings (-1: any) differ from the defaults. Thread: owner. */
bool ear_actions_changed(const ear_actions *a, int profile);

/* Makes a profile active (-1: none). Controls held now are ignored until let go, and
 * every action starts from not held. EAR_E_INVALID_ARG for a bad id. Thread: owner. */
ear_result ear_actions_set_profile(ear_actions *a, int profile, const ear_input *input);
int ear_actions_profile(const ear_actions *a);
/* The repeat setting (finite, delay >= 0, every > 0; EAR_E_INVALID_ARG otherwise). */
ear_result ear_actions_set_repeat(ear_actions *a, double delay_s, double every_s);

/* Computes this frame's action state from the input (the runner calls it once a frame
 * right after ear_input_begin_frame) and clears step edges after each fixed step.
 * Thread: owner. */
void ear_actions_update(ear_actions *a, const ear_input *input);
void ear_actions_end_step(ear_actions *a);

/* Queries (false / 0 for a bad id and while the input is blocked). Thread: owner. */
bool ear_actions_pressed(const ear_actions *a, int action);
bool ear_actions_released(const ear_actions *a, int action);
bool ear_actions_held(const ear_actions *a, int action);
bool ear_actions_repeating(const ear_actions *a, int action);
float ear_actions_value(const ear_actions *a, int action);
double ear_actions_held_s(const ear_actions *a, int action);
bool ear_actions_step_pressed(const ear_actions *a, int action);
bool ear_actions_step_released(const ear_actions *a, int action);

/* The control that went down (a key, a pad button, or an axis pushed past one half)
 * this frame, for a rebinding screen: true and *out set, or false. Modifier keys
 * (Shift, Ctrl, Alt) count. Raw: it ignores blocking and latches. Thread: owner. */
bool ear_actions_capture(const ear_input *input, ear_binding *out);

/* Writes every profile's bindings to storage as "<prefix><profile>.<action>" keys (a
 * profile whose bindings are the defaults too, so a saved set stays whole). Thread: owner. */
ear_result ear_actions_save(const ear_actions *a, ear_storage *storage, const char *prefix);
/* Reads bindings saved under prefix. Every key it understands replaces that action's
 * bindings in that profile; a key naming an unknown profile or action, or a binding that
 * does not parse, is skipped (the rest still load). Returns how many were skipped
 * (0: everything loaded) and writes the first skipped key or binding into what (may be
 * NULL). Thread: owner. */
uint32_t ear_actions_load(ear_actions *a, const ear_storage *storage, const char *prefix,
                          char *what, size_t what_size);

#ifdef __cplusplus
}
#endif

#endif /* EARSHOT_ACTIONS_H */
