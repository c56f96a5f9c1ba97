/* SPDX-License-Identifier: Zlib */
/*
 * Actions over devices (see actions.h). Everything is fixed arrays inside ear_actions:
 * bindings per profile, action and slot; a per-action state recomputed each frame from
 * the input. The state is a pure function of the input and of the game's own calls
 * (bind, set_profile), which is what keeps replays exact.
 *
 * A binding's contribution: a key or button its direction while held; an axis its value
 * (or one half of it). The latches of a profile change are kept per control (per half
 * for an axis) and let go when the control is: a latched control contributes nothing.
 */
#include "earshot/actions.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* A pad axis counts as "down" (a button action held, a capture) from this far. */
#define AXIS_DOWN 0.5f

ear_binding ear_bind_key(ear_key key) {
    return (ear_binding){.kind = EAR_BIND_KEY, .code = (uint8_t)key, .dir = 1};
}

ear_binding ear_bind_key_dir(ear_key key, int dir) {
    return (ear_binding){.kind = EAR_BIND_KEY, .code = (uint8_t)key, .dir = dir < 0 ? -1 : 1};
}

ear_binding ear_bind_pad(ear_pad_button button) {
    return (ear_binding){.kind = EAR_BIND_PAD_BUTTON, .code = (uint8_t)button, .dir = 1};
}

ear_binding ear_bind_axis(ear_pad_axis axis, int dir) {
    return (ear_binding){.kind = EAR_BIND_PAD_AXIS,
                         .code = (uint8_t)axis,
                         .dir = (int8_t)(dir < 0   ? -1
                                         : dir > 0 ? 1
                                                   : 0)};
}

static int8_t norm_dir(ear_binding b) {
    if (b.kind == EAR_BIND_PAD_AXIS) return b.dir;
    return b.dir < 0 ? -1 : 1;
}

static bool valid_binding(ear_binding b) {
    switch (b.kind) {
    case EAR_BIND_KEY: return b.code > EAR_KEY_UNKNOWN && b.code < EAR_KEY_COUNT;
    case EAR_BIND_PAD_BUTTON: return b.code < EAR_PAD_BUTTON_COUNT;
    case EAR_BIND_PAD_AXIS: return b.code < EAR_PAD_AXIS_COUNT && b.dir >= -1 && b.dir <= 1;
    default: return false;
    }
}

bool ear_binding_same(ear_binding a, ear_binding b) {
    return a.kind == b.kind && a.code == b.code && norm_dir(a) == norm_dir(b);
}

void ear_binding_format(ear_binding b, char *out, size_t size) {
    if (!out || size == 0) return;
    out[0] = '\0';
    if (!valid_binding(b)) return;
    const char *sign = "";
    if (b.kind == EAR_BIND_PAD_AXIS)
        sign = b.dir > 0 ? "+" : b.dir < 0 ? "-" : "";
    else if (b.dir < 0)
        sign = "-";
    switch (b.kind) {
    case EAR_BIND_KEY:
        snprintf(out, size, "key:%s%s", ear_key_name((ear_key)b.code), sign);
        break;
    case EAR_BIND_PAD_BUTTON:
        snprintf(out, size, "pad:%s%s", ear_pad_button_name((ear_pad_button)b.code), sign);
        break;
    case EAR_BIND_PAD_AXIS:
        snprintf(out, size, "axis:%s%s", ear_pad_axis_name((ear_pad_axis)b.code), sign);
        break;
    default: break;
    }
}

ear_result ear_binding_parse(const char *text, ear_binding *out) {
    if (!text || !out) return EAR_E_INVALID_ARG;
    while (*text == ' ') text++;
    const char *colon = strchr(text, ':');
    if (!colon) return EAR_E_FORMAT;
    char name[EAR_BINDING_TEXT_MAX];
    size_t n = strlen(colon + 1);
    while (n > 0 && colon[n] == ' ') n--; /* trailing spaces */
    if (n == 0 || n >= sizeof name) return EAR_E_FORMAT;
    memcpy(name, colon + 1, n);
    name[n] = '\0';
    int dir = 0;
    if (name[n - 1] == '+' || name[n - 1] == '-') {
        dir = name[n - 1] == '+' ? 1 : -1;
        name[--n] = '\0';
        if (n == 0) return EAR_E_FORMAT;
    }
    size_t kn = (size_t)(colon - text);
    ear_binding b;
    if (kn == 3 && strncmp(text, "key", 3) == 0) {
        ear_key k = ear_key_from_name(name);
        if (k == EAR_KEY_UNKNOWN || dir > 0) return EAR_E_FORMAT;
        b = ear_bind_key_dir(k, dir < 0 ? -1 : 1);
    } else if (kn == 3 && strncmp(text, "pad", 3) == 0) {
        int btn = ear_pad_button_from_name(name);
        if (btn < 0 || dir > 0) return EAR_E_FORMAT;
        b = ear_bind_pad((ear_pad_button)btn);
        b.dir = (int8_t)(dir < 0 ? -1 : 1);
    } else if (kn == 4 && strncmp(text, "axis", 4) == 0) {
        int ax = ear_pad_axis_from_name(name);
        if (ax < 0) return EAR_E_FORMAT;
        b = ear_bind_axis((ear_pad_axis)ax, dir);
    } else {
        return EAR_E_FORMAT;
    }
    *out = b;
    return EAR_OK;
}

void ear_actions_init(ear_actions *a) {
    memset(a, 0, sizeof *a);
    a->active = -1;
    a->repeat_delay_s = 0.5;
    a->repeat_every_s = 0.08;
}

static bool valid_name(const char *name) {
    if (!name || !name[0] || strlen(name) >= EAR_ACTION_NAME_MAX) return false;
    for (const char *p = name; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '_' && *p != '.') return false;
    return true;
}

static bool valid_action(const ear_actions *a, int action) {
    return a && action >= 0 && (uint32_t)action < a->count;
}

static bool valid_profile(const ear_actions *a, int profile) {
    return a && profile >= 0 && (uint32_t)profile < a->profile_count;
}

int ear_actions_find(const ear_actions *a, const char *name) {
    if (!a || !name) return EAR_E_NOT_FOUND;
    for (uint32_t i = 0; i < a->count; i++)
        if (strcmp(a->names[i], name) == 0) return (int)i;
    return EAR_E_NOT_FOUND;
}

int ear_actions_find_profile(const ear_actions *a, const char *name) {
    if (!a || !name) return EAR_E_NOT_FOUND;
    for (uint32_t i = 0; i < a->profile_count; i++)
        if (strcmp(a->profiles[i], name) == 0) return (int)i;
    return EAR_E_NOT_FOUND;
}

int ear_actions_add(ear_actions *a, const char *name, ear_action_kind kind) {
    if (!a || !valid_name(name) || (kind != EAR_ACTION_BUTTON && kind != EAR_ACTION_AXIS))
        return EAR_E_INVALID_ARG;
    int old = ear_actions_find(a, name);
    if (old >= 0) return a->kinds[old] == kind ? old : EAR_E_INVALID_ARG;
    if (a->count == EAR_ACTIONS_MAX) return EAR_E_STATE;
    strcpy(a->names[a->count], name);
    a->kinds[a->count] = (uint8_t)kind;
    return (int)a->count++;
}

int ear_actions_add_profile(ear_actions *a, const char *name) {
    if (!a || !valid_name(name)) return EAR_E_INVALID_ARG;
    int old = ear_actions_find_profile(a, name);
    if (old >= 0) return old;
    if (a->profile_count == EAR_ACTION_PROFILES_MAX) return EAR_E_STATE;
    strcpy(a->profiles[a->profile_count], name);
    return (int)a->profile_count++;
}

const char *ear_actions_name(const ear_actions *a, int action) {
    return valid_action(a, action) ? a->names[action] : "";
}

ear_action_kind ear_actions_kind(const ear_actions *a, int action) {
    return valid_action(a, action) ? (ear_action_kind)a->kinds[action] : (ear_action_kind)0;
}

const char *ear_actions_profile_name(const ear_actions *a, int profile) {
    return valid_profile(a, profile) ? a->profiles[profile] : "";
}

ear_result ear_actions_bind(ear_actions *a, int profile, int action, ear_binding b) {
    if (!valid_profile(a, profile) || !valid_action(a, action) || !valid_binding(b))
        return EAR_E_INVALID_ARG;
    b.dir = norm_dir(b);
    ear_binding *slots = a->bind[profile][action];
    for (int i = 0; i < EAR_ACTION_BINDINGS_MAX; i++)
        if (slots[i].kind != EAR_BIND_NONE && ear_binding_same(slots[i], b)) return EAR_OK;
    for (int i = 0; i < EAR_ACTION_BINDINGS_MAX; i++) {
        if (slots[i].kind == EAR_BIND_NONE) {
            slots[i] = b;
            return EAR_OK;
        }
    }
    return EAR_E_STATE;
}

ear_result ear_actions_unbind(ear_actions *a, int profile, int action, ear_binding b) {
    if (!valid_profile(a, profile) || !valid_action(a, action)) return EAR_E_INVALID_ARG;
    ear_binding *slots = a->bind[profile][action];
    for (int i = 0; i < EAR_ACTION_BINDINGS_MAX; i++) {
        if (slots[i].kind != EAR_BIND_NONE && ear_binding_same(slots[i], b)) {
            /* Keep the order of the others (it is the order they are spoken in). */
            memmove(&slots[i], &slots[i + 1],
                    (size_t)(EAR_ACTION_BINDINGS_MAX - 1 - i) * sizeof slots[0]);
            memset(&slots[EAR_ACTION_BINDINGS_MAX - 1], 0, sizeof slots[0]);
            return EAR_OK;
        }
    }
    return EAR_E_NOT_FOUND;
}

void ear_actions_clear(ear_actions *a, int profile, int action) {
    if (!valid_profile(a, profile) || !valid_action(a, action)) return;
    memset(a->bind[profile][action], 0, sizeof a->bind[profile][action]);
}

uint32_t ear_actions_binding_count(const ear_actions *a, int profile, int action) {
    if (!valid_profile(a, profile) || !valid_action(a, action)) return 0;
    uint32_t n = 0;
    while (n < EAR_ACTION_BINDINGS_MAX && a->bind[profile][action][n].kind != EAR_BIND_NONE)
        n++;
    return n;
}

ear_binding ear_actions_binding_at(const ear_actions *a, int profile, int action,
                                   uint32_t index) {
    ear_binding none = {0};
    if (index >= ear_actions_binding_count(a, profile, action)) return none;
    return a->bind[profile][action][index];
}

int ear_actions_conflict(const ear_actions *a, int profile, ear_binding b, int except) {
    if (!valid_profile(a, profile)) return -1;
    for (uint32_t i = 0; i < a->count; i++) {
        if ((int)i == except) continue;
        for (int j = 0; j < EAR_ACTION_BINDINGS_MAX; j++) {
            ear_binding o = a->bind[profile][i][j];
            if (o.kind != EAR_BIND_NONE && ear_binding_same(o, b)) return (int)i;
        }
    }
    return -1;
}

void ear_actions_keep_defaults(ear_actions *a) {
    memcpy(a->defaults, a->bind, sizeof a->bind);
}

void ear_actions_reset(ear_actions *a, int profile) {
    if (profile < 0) {
        memcpy(a->bind, a->defaults, sizeof a->bind);
    } else if (valid_profile(a, profile)) {
        memcpy(a->bind[profile], a->defaults[profile], sizeof a->bind[profile]);
    }
}

bool ear_actions_changed(const ear_actions *a, int profile) {
    if (profile < 0) return memcmp(a->bind, a->defaults, sizeof a->bind) != 0;
    if (!valid_profile(a, profile)) return false;
    return memcmp(a->bind[profile], a->defaults[profile], sizeof a->bind[profile]) != 0;
}

ear_result ear_actions_set_profile(ear_actions *a, int profile, const ear_input *input) {
    if (!a || (profile != -1 && !valid_profile(a, profile))) return EAR_E_INVALID_ARG;
    a->active = profile;
    memset(a->state, 0, sizeof a->state);
    memset(a->latched_key, 0, sizeof a->latched_key);
    memset(a->latched_button, 0, sizeof a->latched_button);
    memset(a->latched_axis, 0, sizeof a->latched_axis);
    if (!input) return EAR_OK;
    for (int k = 1; k < EAR_KEY_COUNT; k++)
        a->latched_key[k] = ear_input_raw_held(input, (ear_key)k);
    for (int btn = 0; btn < EAR_PAD_BUTTON_COUNT; btn++)
        a->latched_button[btn] = ear_input_raw_pad_held(input, -1, (ear_pad_button)btn);
    for (int ax = 0; ax < EAR_PAD_AXIS_COUNT; ax++) {
        float v = ear_input_raw_pad_axis(input, -1, (ear_pad_axis)ax);
        a->latched_axis[ax][0] = v < 0;
        a->latched_axis[ax][1] = v > 0;
    }
    return EAR_OK;
}

int ear_actions_profile(const ear_actions *a) {
    return a ? a->active : -1;
}

ear_result ear_actions_set_repeat(ear_actions *a, double delay_s, double every_s) {
    if (!a || !isfinite(delay_s) || !isfinite(every_s) || delay_s < 0 || !(every_s > 0))
        return EAR_E_INVALID_ARG;
    a->repeat_delay_s = delay_s;
    a->repeat_every_s = every_s;
    return EAR_OK;
}

/* Lets go of the latches of controls that are let go. */
static void refresh_latches(ear_actions *a, const ear_input *input) {
    /* Let go, or let go and pressed again within the frame (a new press). */
    for (int k = 1; k < EAR_KEY_COUNT; k++)
        if (a->latched_key[k] && (!ear_input_raw_held(input, (ear_key)k) ||
                                  ear_input_raw_pressed(input, (ear_key)k)))
            a->latched_key[k] = false;
    for (int btn = 0; btn < EAR_PAD_BUTTON_COUNT; btn++)
        if (a->latched_button[btn] &&
            (!ear_input_raw_pad_held(input, -1, (ear_pad_button)btn) ||
             ear_input_raw_pad_pressed(input, -1, (ear_pad_button)btn)))
            a->latched_button[btn] = false;
    for (int ax = 0; ax < EAR_PAD_AXIS_COUNT; ax++) {
        float v = ear_input_raw_pad_axis(input, -1, (ear_pad_axis)ax);
        if (v >= 0) a->latched_axis[ax][0] = false;
        if (v <= 0) a->latched_axis[ax][1] = false;
    }
}

/* The binding's contribution now, signed (0 when latched or not active). */
static float contribution(const ear_actions *a, const ear_input *input, ear_binding b) {
    switch (b.kind) {
    case EAR_BIND_KEY:
        if (a->latched_key[b.code] || !ear_input_raw_held(input, (ear_key)b.code)) return 0;
        return b.dir < 0 ? -1.0f : 1.0f;
    case EAR_BIND_PAD_BUTTON:
        if (a->latched_button[b.code] ||
            !ear_input_raw_pad_held(input, -1, (ear_pad_button)b.code))
            return 0;
        return b.dir < 0 ? -1.0f : 1.0f;
    case EAR_BIND_PAD_AXIS: {
        float v = ear_input_raw_pad_axis(input, -1, (ear_pad_axis)b.code);
        if ((v < 0 && a->latched_axis[b.code][0]) || (v > 0 && a->latched_axis[b.code][1]))
            return 0;
        if (b.dir > 0) return v > 0 ? v : 0;
        if (b.dir < 0) return v < 0 ? -v : 0;
        return v;
    }
    default: return 0;
    }
}

void ear_actions_update(ear_actions *a, const ear_input *input) {
    if (!a || !input) return;
    a->input = input;
    refresh_latches(a, input);
    double now = input->now_s;
    for (uint32_t i = 0; i < a->count; i++) {
        ear_action_state *st = &a->state[i];
        st->pressed = st->released = false;
        st->prev_held_s = st->held_s;
        float sum = 0;
        bool down = false;
        if (a->active >= 0) {
            for (int j = 0; j < EAR_ACTION_BINDINGS_MAX; j++) {
                ear_binding b = a->bind[a->active][i][j];
                if (b.kind == EAR_BIND_NONE) break;
                float c = contribution(a, input, b);
                sum += c;
                if (fabsf(c) >= AXIS_DOWN) down = true;
            }
        }
        sum = sum > 1 ? 1 : sum < -1 ? -1 : sum;
        st->value = a->kinds[i] == EAR_ACTION_AXIS ? sum : (down ? 1.0f : 0.0f);
        if (a->kinds[i] == EAR_ACTION_AXIS) down = fabsf(sum) >= AXIS_DOWN;
        /* A press and release between two frames is lost to actions, as they read held
         * state; a key's own pressed flag keeps it, so a tap still presses its action. */
        if (!down && a->active >= 0) {
            for (int j = 0; j < EAR_ACTION_BINDINGS_MAX; j++) {
                ear_binding b = a->bind[a->active][i][j];
                if (b.kind == EAR_BIND_NONE) break;
                bool tapped =
                    (b.kind == EAR_BIND_KEY && ear_input_raw_pressed(input, (ear_key)b.code)) ||
                    (b.kind == EAR_BIND_PAD_BUTTON &&
                     ear_input_raw_pad_pressed(input, -1, (ear_pad_button)b.code));
                if (tapped && !st->held) {
                    st->pressed = st->released = true;
                    st->step_pressed = st->step_released = true;
                }
            }
        }
        if (down && !st->held) {
            st->held = st->pressed = st->step_pressed = true;
            st->down_since_s = now;
            st->prev_held_s = 0;
        } else if (!down && st->held) {
            st->held = false;
            st->released = st->step_released = true;
        }
        st->held_s = st->held ? now - st->down_since_s : 0;
    }
}

void ear_actions_end_step(ear_actions *a) {
    if (!a) return;
    for (uint32_t i = 0; i < a->count; i++)
        a->state[i].step_pressed = a->state[i].step_released = false;
}

static const ear_action_state *live(const ear_actions *a, int action) {
    if (!valid_action(a, action) || (a->input && ear_input_blocked(a->input))) return NULL;
    return &a->state[action];
}

bool ear_actions_pressed(const ear_actions *a, int action) {
    const ear_action_state *s = live(a, action);
    return s && s->pressed;
}

bool ear_actions_released(const ear_actions *a, int action) {
    const ear_action_state *s = live(a, action);
    return s && s->released;
}

bool ear_actions_held(const ear_actions *a, int action) {
    const ear_action_state *s = live(a, action);
    return s && s->held;
}

bool ear_actions_repeating(const ear_actions *a, int action) {
    const ear_action_state *s = live(a, action);
    if (!s) return false;
    if (s->pressed) return true;
    return s->held && ear_input_repeat_due(s->prev_held_s, s->held_s, a->repeat_delay_s,
                                           a->repeat_every_s);
}

float ear_actions_value(const ear_actions *a, int action) {
    const ear_action_state *s = live(a, action);
    return s ? s->value : 0;
}

double ear_actions_held_s(const ear_actions *a, int action) {
    const ear_action_state *s = live(a, action);
    return s ? s->held_s : 0;
}

bool ear_actions_step_pressed(const ear_actions *a, int action) {
    const ear_action_state *s = live(a, action);
    return s && s->step_pressed;
}

bool ear_actions_step_released(const ear_actions *a, int action) {
    const ear_action_state *s = live(a, action);
    return s && s->step_released;
}

bool ear_actions_capture(const ear_input *input, ear_binding *out) {
    if (!input || !out) return false;
    for (int k = 1; k < EAR_KEY_COUNT; k++) {
        if (ear_input_raw_pressed(input, (ear_key)k)) {
            *out = ear_bind_key((ear_key)k);
            return true;
        }
    }
    for (int btn = 0; btn < EAR_PAD_BUTTON_COUNT; btn++) {
        if (ear_input_raw_pad_pressed(input, -1, (ear_pad_button)btn)) {
            *out = ear_bind_pad((ear_pad_button)btn);
            return true;
        }
    }
    for (int ax = 0; ax < EAR_PAD_AXIS_COUNT; ax++) {
        float v = ear_input_raw_pad_axis(input, -1, (ear_pad_axis)ax);
        float before = ear_input_raw_pad_prev_axis(input, -1, (ear_pad_axis)ax);
        if (fabsf(v) >= AXIS_DOWN && fabsf(before) < AXIS_DOWN) {
            *out = ear_bind_axis((ear_pad_axis)ax, v > 0 ? 1 : -1);
            return true;
        }
    }
    return false;
}

ear_result ear_actions_save(const ear_actions *a, ear_storage *storage, const char *prefix) {
    if (!a || !storage) return EAR_E_INVALID_ARG;
    if (!prefix) prefix = "";
    for (uint32_t p = 0; p < a->profile_count; p++) {
        for (uint32_t i = 0; i < a->count; i++) {
            char key[256], list[EAR_ACTION_BINDINGS_MAX * EAR_BINDING_TEXT_MAX] = "";
            snprintf(key, sizeof key, "%s%s.%s", prefix, a->profiles[p], a->names[i]);
            uint32_t n = ear_actions_binding_count(a, (int)p, (int)i);
            bool any_default = false;
            for (int j = 0; j < EAR_ACTION_BINDINGS_MAX; j++)
                any_default |= a->defaults[p][i][j].kind != EAR_BIND_NONE;
            if (n == 0 && !any_default) {
                ear_storage_remove(storage, key); /* not in this profile at all */
                continue;
            }
            for (uint32_t j = 0; j < n; j++) {
                char one[EAR_BINDING_TEXT_MAX];
                ear_binding_format(a->bind[p][i][j], one, sizeof one);
                if (j) strcat(list, ",");
                strcat(list, one);
            }
            ear_result r = ear_storage_set_string(storage, key, list);
            if (r != EAR_OK) return r;
        }
    }
    return EAR_OK;
}

static void note(char *what, size_t size, uint32_t *skipped, const char *fmt, const char *a,
                 const char *b) {
    if (what && size && *skipped == 0) snprintf(what, size, fmt, a, b);
    (*skipped)++;
}

uint32_t ear_actions_load(ear_actions *a, const ear_storage *storage, const char *prefix,
                          char *what, size_t what_size) {
    if (what && what_size) what[0] = '\0';
    if (!a || !storage) return 0;
    if (!prefix) prefix = "";
    size_t pn = strlen(prefix);
    uint32_t skipped = 0;
    for (size_t k = 0; k < ear_storage_count(storage); k++) {
        const char *key = ear_storage_key_at(storage, k);
        if (!key || strncmp(key, prefix, pn) != 0) continue;
        const char *rest = key + pn, *dot = strchr(rest, '.');
        char profile[EAR_ACTION_NAME_MAX];
        size_t len = dot ? (size_t)(dot - rest) : 0;
        int p = -1, act = -1;
        if (dot && len < sizeof profile) {
            memcpy(profile, rest, len);
            profile[len] = '\0';
            p = ear_actions_find_profile(a, profile);
            act = ear_actions_find(a, dot + 1);
        }
        if (p < 0 || act < 0) {
            note(what, what_size, &skipped, "%s%s", key, " (no such profile or action)");
            continue;
        }
        const char *list = ear_storage_value_at(storage, k);
        ear_binding got[EAR_ACTION_BINDINGS_MAX];
        uint32_t n = 0;
        for (const char *s = list ? list : ""; *s;) {
            const char *comma = strchr(s, ',');
            size_t l = comma ? (size_t)(comma - s) : strlen(s);
            char one[EAR_BINDING_TEXT_MAX + 8];
            ear_binding b;
            if (l >= sizeof one) l = sizeof one - 1;
            memcpy(one, s, l);
            one[l] = '\0';
            if (l > 0 && ear_binding_parse(one, &b) == EAR_OK && n < EAR_ACTION_BINDINGS_MAX)
                got[n++] = b;
            else if (l > 0)
                note(what, what_size, &skipped, "%s in %s", one, key);
            s = comma ? comma + 1 : s + l;
        }
        ear_actions_clear(a, p, act);
        for (uint32_t j = 0; j < n; j++) ear_actions_bind(a, p, act, got[j]);
    }
    return skipped;
}
