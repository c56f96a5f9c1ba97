/* SPDX-License-Identifier: Zlib */
/*
 * Keys and text. Backends queue events as the operating system reports them;
 * ear_input_begin_frame processes the whole queue at once, so a press and a release in
 * the same frame both show (pressed and released true, held false). A Down for a key
 * already held is an OS repeat: it is counted and changes nothing else.
 *
 * Held time is kept for this frame and the last one (held_s, prev_held_s); that is all
 * repeating() needs: a repeat point delay + n * every lies in (prev, now]. The
 * step_pressed / step_released sets collect edges until the runner ends a fixed step,
 * so each edge reaches exactly one fixed step even when a frame runs none or several.
 */
#include "earshot/input.h"

#include <ctype.h>
#include <math.h>
#include <string.h>

static const char *const key_names[EAR_KEY_COUNT] = {
    [EAR_KEY_UNKNOWN] = "UNKNOWN",
    [EAR_KEY_A] = "A",
    [EAR_KEY_B] = "B",
    [EAR_KEY_C] = "C",
    [EAR_KEY_D] = "D",
    [EAR_KEY_E] = "E",
    [EAR_KEY_F] = "F",
    [EAR_KEY_G] = "G",
    [EAR_KEY_H] = "H",
    [EAR_KEY_I] = "I",
    [EAR_KEY_J] = "J",
    [EAR_KEY_K] = "K",
    [EAR_KEY_L] = "L",
    [EAR_KEY_M] = "M",
    [EAR_KEY_N] = "N",
    [EAR_KEY_O] = "O",
    [EAR_KEY_P] = "P",
    [EAR_KEY_Q] = "Q",
    [EAR_KEY_R] = "R",
    [EAR_KEY_S] = "S",
    [EAR_KEY_T] = "T",
    [EAR_KEY_U] = "U",
    [EAR_KEY_V] = "V",
    [EAR_KEY_W] = "W",
    [EAR_KEY_X] = "X",
    [EAR_KEY_Y] = "Y",
    [EAR_KEY_Z] = "Z",
    [EAR_KEY_0] = "0",
    [EAR_KEY_1] = "1",
    [EAR_KEY_2] = "2",
    [EAR_KEY_3] = "3",
    [EAR_KEY_4] = "4",
    [EAR_KEY_5] = "5",
    [EAR_KEY_6] = "6",
    [EAR_KEY_7] = "7",
    [EAR_KEY_8] = "8",
    [EAR_KEY_9] = "9",
    [EAR_KEY_F1] = "F1",
    [EAR_KEY_F2] = "F2",
    [EAR_KEY_F3] = "F3",
    [EAR_KEY_F4] = "F4",
    [EAR_KEY_F5] = "F5",
    [EAR_KEY_F6] = "F6",
    [EAR_KEY_F7] = "F7",
    [EAR_KEY_F8] = "F8",
    [EAR_KEY_F9] = "F9",
    [EAR_KEY_F10] = "F10",
    [EAR_KEY_F11] = "F11",
    [EAR_KEY_F12] = "F12",
    [EAR_KEY_ESCAPE] = "ESCAPE",
    [EAR_KEY_ENTER] = "ENTER",
    [EAR_KEY_SPACE] = "SPACE",
    [EAR_KEY_TAB] = "TAB",
    [EAR_KEY_BACKSPACE] = "BACKSPACE",
    [EAR_KEY_DELETE] = "DELETE",
    [EAR_KEY_INSERT] = "INSERT",
    [EAR_KEY_HOME] = "HOME",
    [EAR_KEY_END] = "END",
    [EAR_KEY_PAGE_UP] = "PAGE_UP",
    [EAR_KEY_PAGE_DOWN] = "PAGE_DOWN",
    [EAR_KEY_UP] = "UP",
    [EAR_KEY_DOWN] = "DOWN",
    [EAR_KEY_LEFT] = "LEFT",
    [EAR_KEY_RIGHT] = "RIGHT",
    [EAR_KEY_LSHIFT] = "LSHIFT",
    [EAR_KEY_RSHIFT] = "RSHIFT",
    [EAR_KEY_LCTRL] = "LCTRL",
    [EAR_KEY_RCTRL] = "RCTRL",
    [EAR_KEY_LALT] = "LALT",
    [EAR_KEY_RALT] = "RALT",
    [EAR_KEY_MINUS] = "MINUS",
    [EAR_KEY_EQUALS] = "EQUALS",
    [EAR_KEY_COMMA] = "COMMA",
    [EAR_KEY_PERIOD] = "PERIOD",
    [EAR_KEY_SLASH] = "SLASH",
    [EAR_KEY_SEMICOLON] = "SEMICOLON",
    [EAR_KEY_APOSTROPHE] = "APOSTROPHE",
    [EAR_KEY_LEFT_BRACKET] = "LEFT_BRACKET",
    [EAR_KEY_RIGHT_BRACKET] = "RIGHT_BRACKET",
    [EAR_KEY_BACKSLASH] = "BACKSLASH",
    [EAR_KEY_GRAVE] = "GRAVE",
};

static bool valid_key(ear_key key) {
    return key > EAR_KEY_UNKNOWN && key < EAR_KEY_COUNT;
}

const char *ear_key_name(ear_key key) {
    if (!valid_key(key)) return "UNKNOWN";
    return key_names[key];
}

static bool same_name(const char *a, const char *b) {
    for (; *a && *b; a++, b++)
        if (toupper((unsigned char)*a) != toupper((unsigned char)*b)) return false;
    return *a == *b;
}

ear_key ear_key_from_name(const char *name) {
    if (!name) return EAR_KEY_UNKNOWN;
    if (same_name(name, "ESC")) return EAR_KEY_ESCAPE;
    if (same_name(name, "RETURN")) return EAR_KEY_ENTER;
    for (int k = 1; k < EAR_KEY_COUNT; k++)
        if (same_name(name, key_names[k])) return (ear_key)k;
    return EAR_KEY_UNKNOWN;
}

void ear_input_init(ear_input *input) {
    memset(input, 0, sizeof *input);
}

void ear_input_push(ear_input *input, const ear_input_event *event) {
    if (event->type == EAR_INPUT_KEY_DOWN || event->type == EAR_INPUT_KEY_UP) {
        if (!valid_key(event->key)) return;
    }
    if (input->queued == EAR_INPUT_QUEUE_MAX) {
        input->dropped++;
        return;
    }
    input->queue[input->queued++] = *event;
}

static void push_key(ear_input *input, ear_input_event_type type, ear_key key) {
    ear_input_event e;
    memset(&e, 0, sizeof e);
    e.type = type;
    e.key = key;
    ear_input_push(input, &e);
}

void ear_input_key_down(ear_input *input, ear_key key) {
    push_key(input, EAR_INPUT_KEY_DOWN, key);
}

void ear_input_key_up(ear_input *input, ear_key key) {
    push_key(input, EAR_INPUT_KEY_UP, key);
}

void ear_input_focus_lost(ear_input *input) {
    push_key(input, EAR_INPUT_FOCUS_LOST, EAR_KEY_UNKNOWN);
}

void ear_input_text(ear_input *input, const char *utf8) {
    if (!utf8 || !utf8[0]) return;
    ear_input_event e;
    memset(&e, 0, sizeof e);
    e.type = EAR_INPUT_TEXT;
    size_t n = ear_utf8_cut(utf8, strlen(utf8), EAR_INPUT_TEXT_MAX - 1);
    memcpy(e.text, utf8, n);
    ear_input_push(input, &e);
}

static void release(ear_input *input, int k) {
    if (!input->held[k]) return;
    input->held[k] = false;
    input->released[k] = true;
    input->step_released[k] = true;
}

void ear_input_begin_frame(ear_input *input, double now_s) {
    input->now_s = now_s;
    for (int k = 0; k < EAR_KEY_COUNT; k++) {
        input->prev_held_s[k] = input->held_s[k];
        input->pressed[k] = input->released[k] = false;
        input->repeats[k] = 0;
    }
    input->text_len = 0;
    input->text[0] = '\0';
    for (uint32_t i = 0; i < input->queued; i++) {
        const ear_input_event *e = &input->queue[i];
        int k = (int)e->key;
        switch (e->type) {
        case EAR_INPUT_KEY_DOWN:
            if (input->held[k]) {
                if (input->repeats[k] < UINT16_MAX) input->repeats[k]++;
            } else {
                input->held[k] = true;
                input->pressed[k] = true;
                input->step_pressed[k] = true;
                input->down_since_s[k] = now_s;
                input->prev_held_s[k] = 0; /* a new hold starts from nothing */
            }
            break;
        case EAR_INPUT_KEY_UP: release(input, k); break;
        case EAR_INPUT_FOCUS_LOST:
            for (int j = 1; j < EAR_KEY_COUNT; j++) release(input, j);
            break;
        case EAR_INPUT_TEXT: {
            size_t room = EAR_INPUT_FRAME_TEXT - 1 - input->text_len;
            size_t n = ear_utf8_cut(e->text, strlen(e->text), room);
            memcpy(input->text + input->text_len, e->text, n);
            input->text_len += n;
            input->text[input->text_len] = '\0';
            break;
        }
        }
    }
    memcpy(input->processed, input->queue, input->queued * sizeof input->queue[0]);
    input->processed_count = input->queued;
    input->queued = 0;
    for (int k = 0; k < EAR_KEY_COUNT; k++)
        input->held_s[k] = input->held[k] ? now_s - input->down_since_s[k] : 0;
}

void ear_input_end_step(ear_input *input) {
    memset(input->step_pressed, 0, sizeof input->step_pressed);
    memset(input->step_released, 0, sizeof input->step_released);
}

void ear_input_set_blocked(ear_input *input, bool blocked) {
    input->blocked = blocked;
}

bool ear_input_blocked(const ear_input *input) {
    return input->blocked;
}

bool ear_input_raw_pressed(const ear_input *input, ear_key key) {
    return valid_key(key) && input->pressed[key];
}

bool ear_input_raw_released(const ear_input *input, ear_key key) {
    return valid_key(key) && input->released[key];
}

bool ear_input_raw_held(const ear_input *input, ear_key key) {
    return valid_key(key) && input->held[key];
}

bool ear_input_raw_repeating(const ear_input *input, ear_key key, double delay_s,
                             double every_s) {
    if (!valid_key(key)) return false;
    if (input->pressed[key]) return true;
    if (!input->held[key]) return false;
    double now = input->held_s[key], before = input->prev_held_s[key];
    /* Times are sums and differences of doubles: a frame at exactly a repeat point (1/60 s
     * frames and a 0.1 s step meet every 6 frames) can land a rounding error either side
     * of it. A point counts as reached from EPS before it, at this frame and the last
     * alike, so each point fires once, at the frame whose time is (or passes) it. */
    const double EPS = 1e-9;
    if (!(delay_s >= 0) || now < delay_s - EPS) return false;
    if (!(every_s > 0)) return before < delay_s - EPS; /* one repeat at the delay */
    /* The last repeat point reached by `now`; it counts when `before` had not reached it. */
    double n = floor((now - delay_s + EPS) / every_s);
    double point = delay_s + n * every_s;
    return point - EPS > before;
}

const char *ear_input_raw_text(const ear_input *input) {
    return input->text;
}

bool ear_input_pressed(const ear_input *input, ear_key key) {
    return !input->blocked && ear_input_raw_pressed(input, key);
}

bool ear_input_released(const ear_input *input, ear_key key) {
    return !input->blocked && ear_input_raw_released(input, key);
}

bool ear_input_held(const ear_input *input, ear_key key) {
    return !input->blocked && ear_input_raw_held(input, key);
}

bool ear_input_repeating(const ear_input *input, ear_key key, double delay_s, double every_s) {
    return !input->blocked && ear_input_raw_repeating(input, key, delay_s, every_s);
}

double ear_input_held_s(const ear_input *input, ear_key key) {
    if (input->blocked || !valid_key(key)) return 0;
    return input->held_s[key];
}

uint32_t ear_input_os_repeats(const ear_input *input, ear_key key) {
    if (input->blocked || !valid_key(key)) return 0;
    return input->repeats[key];
}

const char *ear_input_get_text(const ear_input *input) {
    return input->blocked ? "" : input->text;
}

bool ear_input_step_pressed(const ear_input *input, ear_key key) {
    return !input->blocked && valid_key(key) && input->step_pressed[key];
}

bool ear_input_step_released(const ear_input *input, ear_key key) {
    return !input->blocked && valid_key(key) && input->step_released[key];
}
