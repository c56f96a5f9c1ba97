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
 *
 * Gamepad buttons keep the same sets per pad; axes arrive raw (int16) and become floats
 * at the end of begin_frame, through the dead zones, so the float a game reads is a pure
 * function of the queued values (a replay reproduces it bit for bit).
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

static const char *const button_names[EAR_PAD_BUTTON_COUNT] = {
    "A",
    "B",
    "X",
    "Y",
    "BACK",
    "GUIDE",
    "START",
    "LEFTSTICK",
    "RIGHTSTICK",
    "LEFTSHOULDER",
    "RIGHTSHOULDER",
    "DPUP",
    "DPDOWN",
    "DPLEFT",
    "DPRIGHT",
};

static const char *const axis_names[EAR_PAD_AXIS_COUNT] = {
    "LEFTX", "LEFTY", "RIGHTX", "RIGHTY", "LEFTTRIGGER", "RIGHTTRIGGER",
};

const char *ear_pad_button_name(ear_pad_button button) {
    return (unsigned)button < EAR_PAD_BUTTON_COUNT ? button_names[button] : "UNKNOWN";
}

int ear_pad_button_from_name(const char *name) {
    if (!name) return -1;
    for (int b = 0; b < EAR_PAD_BUTTON_COUNT; b++)
        if (same_name(name, button_names[b])) return b;
    return -1;
}

const char *ear_pad_axis_name(ear_pad_axis axis) {
    return (unsigned)axis < EAR_PAD_AXIS_COUNT ? axis_names[axis] : "UNKNOWN";
}

int ear_pad_axis_from_name(const char *name) {
    if (!name) return -1;
    for (int a = 0; a < EAR_PAD_AXIS_COUNT; a++)
        if (same_name(name, axis_names[a])) return a;
    return -1;
}

void ear_input_init(ear_input *input) {
    memset(input, 0, sizeof *input);
    input->stick_dead_zone = 0.24f;
    input->trigger_dead_zone = 0.12f;
}

ear_result ear_input_set_dead_zones(ear_input *input, float stick, float trigger) {
    if (!input || !(stick >= 0 && stick < 1) || !(trigger >= 0 && trigger < 1))
        return EAR_E_INVALID_ARG;
    input->stick_dead_zone = stick;
    input->trigger_dead_zone = trigger;
    return EAR_OK;
}

void ear_input_push(ear_input *input, const ear_input_event *event) {
    if (event->type == EAR_INPUT_KEY_DOWN || event->type == EAR_INPUT_KEY_UP) {
        if (!valid_key(event->key)) return;
    }
    if (event->type >= EAR_INPUT_PAD_ADDED && event->pad >= EAR_PAD_MAX) return;
    if ((event->type == EAR_INPUT_PAD_DOWN || event->type == EAR_INPUT_PAD_UP) &&
        event->control >= EAR_PAD_BUTTON_COUNT)
        return;
    if (event->type == EAR_INPUT_PAD_AXIS && event->control >= EAR_PAD_AXIS_COUNT) return;
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

static void push_pad(ear_input *input, ear_input_event_type type, uint8_t pad, int control,
                     int16_t value) {
    if (control < 0 || control > UINT8_MAX) return;
    ear_input_event e;
    memset(&e, 0, sizeof e);
    e.type = type;
    e.pad = pad;
    e.control = (uint8_t)control;
    e.value = value;
    ear_input_push(input, &e);
}

void ear_input_pad_added(ear_input *input, uint8_t pad, bool can_rumble) {
    push_pad(input, EAR_INPUT_PAD_ADDED, pad, 0, can_rumble ? 1 : 0);
}

void ear_input_pad_removed(ear_input *input, uint8_t pad) {
    push_pad(input, EAR_INPUT_PAD_REMOVED, pad, 0, 0);
}

void ear_input_pad_button(ear_input *input, uint8_t pad, ear_pad_button button, bool down) {
    push_pad(input, down ? EAR_INPUT_PAD_DOWN : EAR_INPUT_PAD_UP, pad, (int)button, 0);
}

void ear_input_pad_axis(ear_input *input, uint8_t pad, ear_pad_axis axis, int16_t value) {
    push_pad(input, EAR_INPUT_PAD_AXIS, pad, (int)axis, value);
}

static void pad_release(ear_pad *p, int b) {
    if (!p->held[b]) return;
    p->held[b] = false;
    p->released[b] = true;
    p->step_released[b] = true;
}

static float raw_unit(int16_t v) {
    return v < 0 ? (float)v / 32768.0f : (float)v / 32767.0f;
}

/* Past the dead zone dz, |v| in (dz, 1] maps to (0, 1]. */
static float past_dead_zone(float mag, float dz) {
    if (mag <= dz) return 0;
    float m = (mag - dz) / (1.0f - dz);
    return m > 1 ? 1 : m;
}

static void pad_axes(ear_input *input, ear_pad *p) {
    for (int a = 0; a < EAR_PAD_AXIS_COUNT; a++) p->prev_axis[a] = p->axis[a];
    for (int stick = 0; stick < 2; stick++) {
        float x = raw_unit(p->raw[2 * stick]), y = raw_unit(p->raw[2 * stick + 1]);
        float mag = sqrtf(x * x + y * y);
        float scaled = past_dead_zone(mag, input->stick_dead_zone);
        float k = mag > 0 ? scaled / mag : 0;
        float ox = x * k, oy = y * k;
        p->axis[2 * stick] = ox > 1 ? 1 : ox < -1 ? -1 : ox;
        p->axis[2 * stick + 1] = oy > 1 ? 1 : oy < -1 ? -1 : oy;
    }
    for (int t = EAR_PAD_LEFT_TRIGGER; t <= EAR_PAD_RIGHT_TRIGGER; t++) {
        float v = raw_unit(p->raw[t]);
        p->axis[t] = past_dead_zone(v < 0 ? 0 : v, input->trigger_dead_zone);
    }
}

static void pad_event(ear_input *input, const ear_input_event *e, double now_s) {
    ear_pad *p = &input->pads[e->pad];
    int c = e->control;
    switch (e->type) {
    case EAR_INPUT_PAD_ADDED:
        if (!p->connected) p->connected_now = true;
        p->connected = true;
        p->can_rumble = (e->value & 1) != 0;
        break;
    case EAR_INPUT_PAD_REMOVED:
        if (p->connected) p->disconnected_now = true;
        p->connected = false;
        p->can_rumble = false;
        p->rumble_pending = false;
        for (int b = 0; b < EAR_PAD_BUTTON_COUNT; b++) pad_release(p, b);
        memset(p->raw, 0, sizeof p->raw);
        break;
    case EAR_INPUT_PAD_DOWN:
        if (!p->connected || p->held[c]) break;
        p->held[c] = p->pressed[c] = p->step_pressed[c] = true;
        p->down_since_s[c] = now_s;
        p->prev_held_s[c] = 0;
        break;
    case EAR_INPUT_PAD_UP: pad_release(p, c); break;
    case EAR_INPUT_PAD_AXIS:
        if (p->connected) p->raw[c] = e->value;
        break;
    default: break;
    }
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
    for (int pi = 0; pi < EAR_PAD_MAX; pi++) {
        ear_pad *p = &input->pads[pi];
        p->connected_now = p->disconnected_now = false;
        for (int b = 0; b < EAR_PAD_BUTTON_COUNT; b++) {
            p->prev_held_s[b] = p->held_s[b];
            p->pressed[b] = p->released[b] = false;
        }
    }
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
            for (int pi = 0; pi < EAR_PAD_MAX; pi++)
                for (int b = 0; b < EAR_PAD_BUTTON_COUNT; b++) pad_release(&input->pads[pi], b);
            break;
        case EAR_INPUT_TEXT: {
            size_t room = EAR_INPUT_FRAME_TEXT - 1 - input->text_len;
            size_t n = ear_utf8_cut(e->text, strlen(e->text), room);
            memcpy(input->text + input->text_len, e->text, n);
            input->text_len += n;
            input->text[input->text_len] = '\0';
            break;
        }
        case EAR_INPUT_PAD_ADDED:
        case EAR_INPUT_PAD_REMOVED:
        case EAR_INPUT_PAD_DOWN:
        case EAR_INPUT_PAD_UP:
        case EAR_INPUT_PAD_AXIS: pad_event(input, e, now_s); break;
        }
    }
    memcpy(input->processed, input->queue, input->queued * sizeof input->queue[0]);
    input->processed_count = input->queued;
    input->queued = 0;
    for (int k = 0; k < EAR_KEY_COUNT; k++)
        input->held_s[k] = input->held[k] ? now_s - input->down_since_s[k] : 0;
    for (int pi = 0; pi < EAR_PAD_MAX; pi++) {
        ear_pad *p = &input->pads[pi];
        for (int b = 0; b < EAR_PAD_BUTTON_COUNT; b++)
            p->held_s[b] = p->held[b] ? now_s - p->down_since_s[b] : 0;
        pad_axes(input, p);
    }
}

void ear_input_end_step(ear_input *input) {
    memset(input->step_pressed, 0, sizeof input->step_pressed);
    memset(input->step_released, 0, sizeof input->step_released);
    for (int pi = 0; pi < EAR_PAD_MAX; pi++) {
        memset(input->pads[pi].step_pressed, 0, sizeof input->pads[pi].step_pressed);
        memset(input->pads[pi].step_released, 0, sizeof input->pads[pi].step_released);
    }
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

bool ear_input_repeat_due(double before, double now, double delay_s, double every_s) {
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

bool ear_input_raw_repeating(const ear_input *input, ear_key key, double delay_s,
                             double every_s) {
    if (!valid_key(key)) return false;
    if (input->pressed[key]) return true;
    if (!input->held[key]) return false;
    return ear_input_repeat_due(input->prev_held_s[key], input->held_s[key], delay_s, every_s);
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

/* ---- Gamepads ------------------------------------------------------------------------ */

static bool valid_button(ear_pad_button b) {
    return (unsigned)b < EAR_PAD_BUTTON_COUNT;
}

static const ear_pad *pad_at(const ear_input *input, int pad) {
    return pad >= 0 && pad < EAR_PAD_MAX ? &input->pads[pad] : NULL;
}

bool ear_input_pad_connected(const ear_input *input, int pad) {
    if (pad < 0) return ear_input_pad_count(input) > 0;
    const ear_pad *p = pad_at(input, pad);
    return p && p->connected;
}

bool ear_input_pad_connected_now(const ear_input *input, int pad) {
    if (pad < 0) {
        for (int i = 0; i < EAR_PAD_MAX; i++)
            if (input->pads[i].connected_now) return true;
        return false;
    }
    const ear_pad *p = pad_at(input, pad);
    return p && p->connected_now;
}

bool ear_input_pad_disconnected_now(const ear_input *input, int pad) {
    if (pad < 0) {
        for (int i = 0; i < EAR_PAD_MAX; i++)
            if (input->pads[i].disconnected_now) return true;
        return false;
    }
    const ear_pad *p = pad_at(input, pad);
    return p && p->disconnected_now;
}

uint32_t ear_input_pad_count(const ear_input *input) {
    uint32_t n = 0;
    for (int i = 0; i < EAR_PAD_MAX; i++) n += input->pads[i].connected;
    return n;
}

/* Which of a pad's button sets a query reads. */
typedef enum pad_set {
    SET_PRESSED,
    SET_RELEASED,
    SET_HELD,
    SET_STEP_PRESSED,
    SET_STEP_RELEASED
} pad_set;

static bool pad_flag(const ear_input *input, int pad, ear_pad_button b, pad_set set) {
    if (!valid_button(b)) return false;
    for (int i = pad < 0 ? 0 : pad; i < (pad < 0 ? EAR_PAD_MAX : pad + 1); i++) {
        const ear_pad *p = pad_at(input, i);
        if (!p) return false;
        const bool *flags = set == SET_PRESSED        ? p->pressed
                            : set == SET_RELEASED     ? p->released
                            : set == SET_HELD         ? p->held
                            : set == SET_STEP_PRESSED ? p->step_pressed
                                                      : p->step_released;
        if (flags[b]) return true;
    }
    return false;
}

bool ear_input_raw_pad_pressed(const ear_input *input, int pad, ear_pad_button button) {
    return pad_flag(input, pad, button, SET_PRESSED);
}

bool ear_input_raw_pad_held(const ear_input *input, int pad, ear_pad_button button) {
    return pad_flag(input, pad, button, SET_HELD);
}

bool ear_input_raw_pad_repeating(const ear_input *input, int pad, ear_pad_button button,
                                 double delay_s, double every_s) {
    if (!valid_button(button)) return false;
    for (int i = pad < 0 ? 0 : pad; i < (pad < 0 ? EAR_PAD_MAX : pad + 1); i++) {
        const ear_pad *p = pad_at(input, i);
        if (!p) return false;
        if (p->pressed[button]) return true;
        if (p->held[button] &&
            ear_input_repeat_due(p->prev_held_s[button], p->held_s[button], delay_s, every_s))
            return true;
    }
    return false;
}

static float axis_of(const ear_input *input, int pad, ear_pad_axis axis, bool prev) {
    if ((unsigned)axis >= EAR_PAD_AXIS_COUNT) return 0;
    float best = 0;
    for (int i = pad < 0 ? 0 : pad; i < (pad < 0 ? EAR_PAD_MAX : pad + 1); i++) {
        const ear_pad *p = pad_at(input, i);
        if (!p) return 0;
        float v = prev ? p->prev_axis[axis] : p->axis[axis];
        if (fabsf(v) > fabsf(best)) best = v;
    }
    return best;
}

float ear_input_raw_pad_axis(const ear_input *input, int pad, ear_pad_axis axis) {
    return axis_of(input, pad, axis, false);
}

float ear_input_raw_pad_prev_axis(const ear_input *input, int pad, ear_pad_axis axis) {
    return axis_of(input, pad, axis, true);
}

bool ear_input_pad_pressed(const ear_input *input, int pad, ear_pad_button button) {
    return !input->blocked && pad_flag(input, pad, button, SET_PRESSED);
}

bool ear_input_pad_released(const ear_input *input, int pad, ear_pad_button button) {
    return !input->blocked && pad_flag(input, pad, button, SET_RELEASED);
}

bool ear_input_pad_held(const ear_input *input, int pad, ear_pad_button button) {
    return !input->blocked && pad_flag(input, pad, button, SET_HELD);
}

bool ear_input_pad_step_pressed(const ear_input *input, int pad, ear_pad_button button) {
    return !input->blocked && pad_flag(input, pad, button, SET_STEP_PRESSED);
}

bool ear_input_pad_step_released(const ear_input *input, int pad, ear_pad_button button) {
    return !input->blocked && pad_flag(input, pad, button, SET_STEP_RELEASED);
}

float ear_input_pad_axis_value(const ear_input *input, int pad, ear_pad_axis axis) {
    return input->blocked ? 0 : axis_of(input, pad, axis, false);
}

ear_result ear_input_pad_rumble(ear_input *input, int pad, float low, float high, uint32_t ms) {
    if (!input || !(low >= 0 && low <= 1) || !(high >= 0 && high <= 1))
        return EAR_E_INVALID_ARG;
    bool any = false, rumbled = false;
    for (int i = pad < 0 ? 0 : pad; i < (pad < 0 ? EAR_PAD_MAX : pad + 1); i++) {
        if (i >= EAR_PAD_MAX) break;
        ear_pad *p = &input->pads[i];
        if (!p->connected) continue;
        any = true;
        if (!p->can_rumble) continue;
        p->rumble_pending = true;
        p->rumble_low = low;
        p->rumble_high = high;
        p->rumble_ms = ms;
        p->rumble_count++;
        rumbled = true;
    }
    return rumbled ? EAR_OK : any ? EAR_E_UNSUPPORTED : EAR_E_NOT_FOUND;
}
