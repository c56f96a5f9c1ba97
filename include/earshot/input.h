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
 * Thread: an ear_input belongs to one thread (the game's); nothing locks. ear_key_name
 * and ear_key_from_name are pure (any thread).
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

typedef enum ear_input_event_type {
    EAR_INPUT_KEY_DOWN = 1,
    EAR_INPUT_KEY_UP,
    EAR_INPUT_TEXT,
    EAR_INPUT_FOCUS_LOST, /* every held key is released */
} ear_input_event_type;

#define EAR_INPUT_TEXT_MAX   32  /* bytes of one text event, NUL included */
#define EAR_INPUT_QUEUE_MAX  128 /* events queued between two frames */
#define EAR_INPUT_FRAME_TEXT 256 /* bytes of text per frame, NUL included */

typedef struct ear_input_event {
    ear_input_event_type type;
    ear_key key;
    char text[EAR_INPUT_TEXT_MAX];
} ear_input_event;

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
