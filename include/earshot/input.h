/* SPDX-License-Identifier: Zlib */
/*
 * Earshot input: keys and text, queued by a backend as the operating system reports
 * them and turned into this frame's state once per frame by ear_input_begin_frame.
 *
 *   - pressed: the key went down during the frame (a press and release within one
 *     frame still counts as pressed, and as released);
 *   - released: it went up during the frame;
 *   - held: it is down at the end of the frame's events;
 *   - a Down for a key that is already held is an operating-system repeat (counted, not
 *     a new press);
 *   - repeating(key, delay, every): true on the press and then at delay, delay + every,
 *     ... of holding; computed from how long the key was held this frame and last frame,
 *     with no other state.
 *
 * While a UI widget is open the input is blocked: every query answers false (text ""),
 * except the ear_input_raw_* queries, which widgets use.
 *
 * Fixed steps see their own edges: ear_input_step_pressed / _released report the edges
 * since the previous fixed step, so each press is seen by exactly one fixed step however
 * many steps a frame runs (0, 1 or 8). That is what makes replays exact.
 *
 * Gamepads (up to EAR_PAD_MAX, in slots a backend assigns as pads are plugged in) use
 * the standard layout of SDL's GameController API: named buttons (A, B, X, Y, the
 * D-pad, shoulders, sticks, Back, Guide, Start) with the same pressed / held / released
 * / repeating / fixed-step rules as keys, and six axes (two sticks, two triggers) queued
 * as raw signed 16-bit values, so a replay carries them exactly. Each frame the raw
 * values become -1..1 (triggers 0..1) through dead zones: a stick's is radial (the
 * stick's distance from its centre, both axes together), a trigger's is on its own
 * value; past the dead zone the value is rescaled so it still reaches 1. Connections and
 * disconnections arrive as events too (pad_connected / pad_disconnected this frame);
 * a disconnected pad's buttons are released and its axes go to 0.
 *
 * Rumble is a request the game leaves in the pad (ear_input_pad_rumble); the backend
 * that owns the real pad carries it out after the frame (the headless one only counts
 * it), so the game never talks to a device.
 *
 * Thread: an ear_input belongs to one thread (the game's); nothing locks. ear_key_name,
 * ear_key_from_name and the pad name functions are pure (any thread).
 */
#ifndef EARSHOT_INPUT_H
#define EARSHOT_INPUT_H

#include "earshot/core.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ear_key {
    EAR_KEY_UNKNOWN = 0,
    EAR_KEY_A,
    EAR_KEY_B,
    EAR_KEY_C,
    EAR_KEY_D,
    EAR_KEY_E,
    EAR_KEY_F,
    EAR_KEY_G,
    EAR_KEY_H,
    EAR_KEY_I,
    EAR_KEY_J,
    EAR_KEY_K,
    EAR_KEY_L,
    EAR_KEY_M,
    EAR_KEY_N,
    EAR_KEY_O,
    EAR_KEY_P,
    EAR_KEY_Q,
    EAR_KEY_R,
    EAR_KEY_S,
    EAR_KEY_T,
    EAR_KEY_U,
    EAR_KEY_V,
    EAR_KEY_W,
    EAR_KEY_X,
    EAR_KEY_Y,
    EAR_KEY_Z,
    EAR_KEY_0,
    EAR_KEY_1,
    EAR_KEY_2,
    EAR_KEY_3,
    EAR_KEY_4,
    EAR_KEY_5,
    EAR_KEY_6,
    EAR_KEY_7,
    EAR_KEY_8,
    EAR_KEY_9,
    EAR_KEY_F1,
    EAR_KEY_F2,
    EAR_KEY_F3,
    EAR_KEY_F4,
    EAR_KEY_F5,
    EAR_KEY_F6,
    EAR_KEY_F7,
    EAR_KEY_F8,
    EAR_KEY_F9,
    EAR_KEY_F10,
    EAR_KEY_F11,
    EAR_KEY_F12,
    EAR_KEY_ESCAPE,
    EAR_KEY_ENTER,
    EAR_KEY_SPACE,
    EAR_KEY_TAB,
    EAR_KEY_BACKSPACE,
    EAR_KEY_DELETE,
    EAR_KEY_INSERT,
    EAR_KEY_HOME,
    EAR_KEY_END,
    EAR_KEY_PAGE_UP,
    EAR_KEY_PAGE_DOWN,
    EAR_KEY_UP,
    EAR_KEY_DOWN,
    EAR_KEY_LEFT,
    EAR_KEY_RIGHT,
    EAR_KEY_LSHIFT,
    EAR_KEY_RSHIFT,
    EAR_KEY_LCTRL,
    EAR_KEY_RCTRL,
    EAR_KEY_LALT,
    EAR_KEY_RALT,
    EAR_KEY_MINUS,
    EAR_KEY_EQUALS,
    EAR_KEY_COMMA,
    EAR_KEY_PERIOD,
    EAR_KEY_SLASH,
    EAR_KEY_SEMICOLON,
    EAR_KEY_APOSTROPHE,
    EAR_KEY_LEFT_BRACKET,
    EAR_KEY_RIGHT_BRACKET,
    EAR_KEY_BACKSLASH,
    EAR_KEY_GRAVE,
    EAR_KEY_COUNT
} ear_key;

/* The key's stable name: "A", "0", "F1", "SPACE", "LEFT", "PAGE_UP" ... ("UNKNOWN" for
 * anything else). Thread: any. */
const char *ear_key_name(ear_key key);
/* The key of that name (case-insensitive; "ESC" and "RETURN" are accepted too), or
 * EAR_KEY_UNKNOWN. Thread: any. */
ear_key ear_key_from_name(const char *name);

/* Gamepad buttons, in the order (and with the names) of SDL's GameController API. */
typedef enum ear_pad_button {
    EAR_PAD_A = 0,
    EAR_PAD_B,
    EAR_PAD_X,
    EAR_PAD_Y,
    EAR_PAD_BACK,
    EAR_PAD_GUIDE,
    EAR_PAD_START,
    EAR_PAD_LEFT_STICK,
    EAR_PAD_RIGHT_STICK,
    EAR_PAD_LEFT_SHOULDER,
    EAR_PAD_RIGHT_SHOULDER,
    EAR_PAD_DPAD_UP,
    EAR_PAD_DPAD_DOWN,
    EAR_PAD_DPAD_LEFT,
    EAR_PAD_DPAD_RIGHT,
    EAR_PAD_BUTTON_COUNT
} ear_pad_button;

/* Gamepad axes, SDL's order: sticks -1..1 (left / up negative), triggers 0..1. */
typedef enum ear_pad_axis {
    EAR_PAD_LEFT_X = 0,
    EAR_PAD_LEFT_Y,
    EAR_PAD_RIGHT_X,
    EAR_PAD_RIGHT_Y,
    EAR_PAD_LEFT_TRIGGER,
    EAR_PAD_RIGHT_TRIGGER,
    EAR_PAD_AXIS_COUNT
} ear_pad_axis;

#define EAR_PAD_MAX 4 /* gamepads connected at once */

/* SDL's standard names, upper case: "A", "BACK", "LEFTSTICK", "LEFTSHOULDER", "DPUP",
 * "DPDOWN", "DPLEFT", "DPRIGHT"...; "LEFTX", "LEFTY", "RIGHTX", "RIGHTY", "LEFTTRIGGER",
 * "RIGHTTRIGGER" ("UNKNOWN" out of range). The _from_name functions are case-insensitive
 * and answer -1 for an unknown name. Thread: any. */
const char *ear_pad_button_name(ear_pad_button button);
int ear_pad_button_from_name(const char *name);
const char *ear_pad_axis_name(ear_pad_axis axis);
int ear_pad_axis_from_name(const char *name);

typedef enum ear_input_event_type {
    EAR_INPUT_KEY_DOWN = 1,
    EAR_INPUT_KEY_UP,
    EAR_INPUT_TEXT,
    EAR_INPUT_FOCUS_LOST,  /* every held key is released */
    EAR_INPUT_PAD_ADDED,   /* pad slot `pad` connected; value bit 0: it can rumble */
    EAR_INPUT_PAD_REMOVED, /* pad slot `pad` disconnected */
    EAR_INPUT_PAD_DOWN,    /* button `control` of pad `pad` */
    EAR_INPUT_PAD_UP,
    EAR_INPUT_PAD_AXIS, /* axis `control` of pad `pad` is now `value` (-32768..32767) */
} ear_input_event_type;

#define EAR_INPUT_TEXT_MAX   32  /* bytes of one text event, NUL included */
#define EAR_INPUT_QUEUE_MAX  128 /* events queued between two frames */
#define EAR_INPUT_FRAME_TEXT 256 /* bytes of text per frame, NUL included */

typedef struct ear_input_event {
    ear_input_event_type type;
    ear_key key;
    uint8_t pad;     /* pad events: the pad's slot, 0..EAR_PAD_MAX-1 */
    uint8_t control; /* pad events: the ear_pad_button or ear_pad_axis */
    int16_t value;   /* PAD_AXIS: the raw value; PAD_ADDED: flags */
    char text[EAR_INPUT_TEXT_MAX];
} ear_input_event;

/* One gamepad's state (inside ear_input). */
typedef struct ear_pad {
    bool connected;
    bool connected_now, disconnected_now; /* this frame */
    bool can_rumble;
    bool held[EAR_PAD_BUTTON_COUNT];
    bool pressed[EAR_PAD_BUTTON_COUNT];
    bool released[EAR_PAD_BUTTON_COUNT];
    bool step_pressed[EAR_PAD_BUTTON_COUNT];
    bool step_released[EAR_PAD_BUTTON_COUNT];
    double down_since_s[EAR_PAD_BUTTON_COUNT];
    double held_s[EAR_PAD_BUTTON_COUNT];
    double prev_held_s[EAR_PAD_BUTTON_COUNT];
    int16_t raw[EAR_PAD_AXIS_COUNT];     /* as queued */
    float axis[EAR_PAD_AXIS_COUNT];      /* this frame, through the dead zones */
    float prev_axis[EAR_PAD_AXIS_COUNT]; /* last frame */
    /* A rumble the game asked for, for the backend to carry out. */
    bool rumble_pending;
    float rumble_low, rumble_high; /* 0..1, the low- and high-frequency motors */
    uint32_t rumble_ms;
    uint32_t rumble_count; /* requests so far */
} ear_pad;

/* The whole input state. Caller-allocated (ear_input_init), no heap. */
typedef struct ear_input {
    ear_input_event queue[EAR_INPUT_QUEUE_MAX];
    uint32_t queued;
    uint64_t dropped; /* events lost because the queue was full */
    /* What the last begin_frame processed (the replay recorder reads it). */
    ear_input_event processed[EAR_INPUT_QUEUE_MAX];
    uint32_t processed_count;
    bool held[EAR_KEY_COUNT];
    bool pressed[EAR_KEY_COUNT];
    bool released[EAR_KEY_COUNT];
    bool step_pressed[EAR_KEY_COUNT];
    bool step_released[EAR_KEY_COUNT];
    uint16_t repeats[EAR_KEY_COUNT]; /* OS repeats this frame */
    double down_since_s[EAR_KEY_COUNT];
    double held_s[EAR_KEY_COUNT];      /* held time at this frame */
    double prev_held_s[EAR_KEY_COUNT]; /* held time at the last frame */
    char text[EAR_INPUT_FRAME_TEXT];
    size_t text_len;
    double now_s;
    bool blocked;
    ear_pad pads[EAR_PAD_MAX];
    float stick_dead_zone;   /* default 0.24 (of the stick's reach) */
    float trigger_dead_zone; /* default 0.12 */
} ear_input;

/* Sets everything to "nothing held, nothing queued". Thread: owner. */
void ear_input_init(ear_input *input);

/* Queue one event (a backend calls these as the OS reports). Keys outside the enum are
 * ignored; a full queue drops the event and counts it in `dropped`. Text is cut at
 * EAR_INPUT_TEXT_MAX - 1 bytes on a UTF-8 boundary. Thread: owner. */
void ear_input_key_down(ear_input *input, ear_key key);
void ear_input_key_up(ear_input *input, ear_key key);
void ear_input_text(ear_input *input, const char *utf8);
void ear_input_focus_lost(ear_input *input);
/* Queues a copy of any event. Thread: owner. */
void ear_input_push(ear_input *input, const ear_input_event *event);

/* Queue gamepad events (a backend calls these). A slot out of range, a button or axis
 * out of range are ignored. Thread: owner. */
void ear_input_pad_added(ear_input *input, uint8_t pad, bool can_rumble);
void ear_input_pad_removed(ear_input *input, uint8_t pad);
void ear_input_pad_button(ear_input *input, uint8_t pad, ear_pad_button button, bool down);
void ear_input_pad_axis(ear_input *input, uint8_t pad, ear_pad_axis axis, int16_t value);

/* Sets the dead zones (fractions of the reach, 0 <= dz < 1; EAR_E_INVALID_ARG
 * otherwise, nothing changed). They apply from the next frame. Thread: owner. */
ear_result ear_input_set_dead_zones(ear_input *input, float stick, float trigger);

/* Turns the queued events into this frame's state at real time now_s (seconds, for held
 * times) and empties the queue. Thread: owner. */
void ear_input_begin_frame(ear_input *input, double now_s);
/* Clears the fixed-step edges (the runner calls it after each fixed step). Thread: owner. */
void ear_input_end_step(ear_input *input);

/* Blocking (a UI widget is open). Thread: owner. */
void ear_input_set_blocked(ear_input *input, bool blocked);
bool ear_input_blocked(const ear_input *input);

/* Frame queries (false while blocked). Thread: owner. */
bool ear_input_pressed(const ear_input *input, ear_key key);
bool ear_input_released(const ear_input *input, ear_key key);
bool ear_input_held(const ear_input *input, ear_key key);
/* True on the frame of the press and on each frame in which a repeat point (delay_s,
 * delay_s + every_s, ...) of holding lies in (held time last frame, held time now].
 * Thread: owner. */
bool ear_input_repeating(const ear_input *input, ear_key key, double delay_s, double every_s);
/* Seconds the key has been held (0 when not held). Thread: owner. */
double ear_input_held_s(const ear_input *input, ear_key key);
/* Operating-system repeats (Down while held) during this frame. Thread: owner. */
uint32_t ear_input_os_repeats(const ear_input *input, ear_key key);
/* This frame's text, UTF-8 ("" while blocked). Thread: owner. */
const char *ear_input_get_text(const ear_input *input);
/* Fixed-step queries: edges since the previous fixed step (false while blocked).
 * Thread: owner. */
bool ear_input_step_pressed(const ear_input *input, ear_key key);
bool ear_input_step_released(const ear_input *input, ear_key key);

/* Gamepads. A pad index out of range reads as a disconnected pad. "Any pad" queries
 * (pad = -1) answer for every connected pad together. The blocked rule holds as for keys
 * (the raw_ variants ignore it). Thread: owner. */
bool ear_input_pad_connected(const ear_input *input, int pad);
bool ear_input_pad_connected_now(const ear_input *input, int pad);    /* this frame */
bool ear_input_pad_disconnected_now(const ear_input *input, int pad); /* this frame */
uint32_t ear_input_pad_count(const ear_input *input);
bool ear_input_pad_pressed(const ear_input *input, int pad, ear_pad_button button);
bool ear_input_pad_released(const ear_input *input, int pad, ear_pad_button button);
bool ear_input_pad_held(const ear_input *input, int pad, ear_pad_button button);
bool ear_input_pad_step_pressed(const ear_input *input, int pad, ear_pad_button button);
bool ear_input_pad_step_released(const ear_input *input, int pad, ear_pad_button button);
/* Sticks -1..1, triggers 0..1 after the dead zone; any pad: the value of largest
 * magnitude. Thread: owner. */
float ear_input_pad_axis_value(const ear_input *input, int pad, ear_pad_axis axis);
bool ear_input_raw_pad_pressed(const ear_input *input, int pad, ear_pad_button button);
bool ear_input_raw_pad_held(const ear_input *input, int pad, ear_pad_button button);
bool ear_input_raw_pad_repeating(const ear_input *input, int pad, ear_pad_button button,
                                 double delay_s, double every_s);
float ear_input_raw_pad_axis(const ear_input *input, int pad, ear_pad_axis axis);
float ear_input_raw_pad_prev_axis(const ear_input *input, int pad, ear_pad_axis axis);
/* Asks pad (or every connected pad, pad = -1) to rumble: low- and high-frequency motor
 * strengths 0..1 for ms milliseconds. EAR_E_NOT_FOUND when no such pad is connected,
 * EAR_E_UNSUPPORTED when it (every one) has no rumble, EAR_E_INVALID_ARG for a strength
 * out of 0..1. Thread: owner. */
ear_result ear_input_pad_rumble(ear_input *input, int pad, float low, float high, uint32_t ms);

/* The repeat rule every repeating() query uses: whether a repeat point (delay_s,
 * delay_s + every_s, ...) lies in (before_s, now_s] of holding (every_s <= 0: only the
 * one at the delay). Thread: any. */
bool ear_input_repeat_due(double before_s, double now_s, double delay_s, double every_s);

/* The raw view, which ignores blocking (for UI widgets). Thread: owner. */
bool ear_input_raw_pressed(const ear_input *input, ear_key key);
bool ear_input_raw_released(const ear_input *input, ear_key key);
bool ear_input_raw_held(const ear_input *input, ear_key key);
bool ear_input_raw_repeating(const ear_input *input, ear_key key, double delay_s,
                             double every_s);
const char *ear_input_raw_text(const ear_input *input);

#ifdef __cplusplus
}
#endif

#endif /* EARSHOT_INPUT_H */
