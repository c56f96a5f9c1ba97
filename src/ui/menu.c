/* SPDX-License-Identifier: Zlib */
/*
 * Menus, dialogs and forms: one widget over a list of items with a focus.
 *
 * Each item keeps its definition (ear_ui_item, pointing at the menu's own copies of its
 * strings) and its live state in that same struct (checked, value, selected, text), so
 * ear_ui_describe_item speaks it as it is. A text item's text lives in a text editor:
 * in a menu, Enter pushes a text input child (marked as a child, id "<menu>/<item>") and
 * the text it submits comes back through resume, is stored and posts "changed"; in a
 * form, the field is edited in place.
 *
 * Roles differ only in keys: a menu moves with Up/Down and searches by first letters; a
 * dialog also moves with Left/Right and Tab; a form moves with Tab/Shift+Tab, sends the
 * other keys to the focused control and presses its default button on Enter.
 *
 * A submenu belongs to its item: it is pushed with no destroy callback, so closing it
 * keeps its state (focus, values) for the next time it opens.
 */
#include "ui_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PREFIX_MAX 64

typedef struct menu_item {
    ear_ui_item def;
    char *id, *label, *unit, *format;
    char **choices;
    ear__text_edit *edit; /* text items */
    int position;         /* its place among the menu's items, for its events */
} menu_item;

struct ear_ui_menu {
    char id[EAR_UI_ID_MAX];
    char *title, *message, *music, *default_item, *escape_id;
    ear_ui_menu_role role;
    ear_ui_escape escape;
    bool no_wrap, hide_position, after_speech;
    ear__ui_owned_sounds sounds;
    menu_item *items;
    size_t count, cap;
    size_t focus;
    /* Letters typed within the prefix timeout. */
    char prefix[PREFIX_MAX];
    double prefix_at_s;
    /* A text child is open for this item. */
    bool waiting_child;
    size_t child_item;
    /* Escape presses this item instead (message boxes); SIZE_MAX: none. */
    size_t escape_item;
};

static char *dup_str(const char *s) {
    if (!s) return NULL;
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

void ear_ui_menu_set_after_speech(ear_ui_menu *m, bool after_speech) {
    if (m) m->after_speech = after_speech;
}

static void free_item(menu_item *it) {
    free(it->id);
    free(it->label);
    free(it->unit);
    free(it->format);
    if (it->choices)
        for (size_t i = 0; i < it->def.choice_count; i++) free(it->choices[i]);
    free(it->choices);
    free(it->edit);
    ear_ui_menu_destroy(it->def.submenu);
}

ear_result ear_ui_menu_create(const ear_ui_menu_config *config, ear_ui_menu **out_menu) {
    if (!config || !config->id || !config->id[0] || !out_menu) return EAR_E_INVALID_ARG;
    ear_ui_menu *m = calloc(1, sizeof *m);
    if (!m) return EAR_E_OUT_OF_MEMORY;
    ear__ui_copy(m->id, sizeof m->id, config->id);
    m->title = dup_str(config->title);
    m->message = dup_str(config->message);
    m->music = dup_str(config->music);
    m->default_item = dup_str(config->default_item);
    m->escape_id = dup_str(config->escape_item);
    if ((config->title && !m->title) || (config->message && !m->message) ||
        (config->music && !m->music) || (config->default_item && !m->default_item) ||
        (config->escape_item && !m->escape_id)) {
        ear_ui_menu_destroy(m);
        return EAR_E_OUT_OF_MEMORY;
    }
    m->role = config->role;
    m->escape = config->escape;
    m->no_wrap = config->no_wrap;
    m->hide_position = config->hide_position;
    m->after_speech = config->after_speech;
    m->escape_item = SIZE_MAX;
    ear__ui_sounds_copy(&m->sounds, config->sounds);
    *out_menu = m;
    return EAR_OK;
}

void ear_ui_menu_destroy(ear_ui_menu *m) {
    if (!m) return;
    for (size_t i = 0; i < m->count; i++) free_item(&m->items[i]);
    free(m->items);
    free(m->title);
    free(m->message);
    free(m->music);
    free(m->default_item);
    free(m->escape_id);
    free(m);
}

ear_result ear_ui_menu_add(ear_ui_menu *m, const ear_ui_item *item) {
    if (!m || !item) {
        if (item) ear_ui_menu_destroy(item->submenu);
        return EAR_E_INVALID_ARG;
    }
    bool bad = !item->id || !item->id[0] || (unsigned)item->kind > EAR_UI_SUBMENU ||
               (item->kind == EAR_UI_CHOICE && (!item->choices || item->choice_count == 0)) ||
               (item->kind == EAR_UI_SUBMENU && !item->submenu);
    if (item->kind == EAR_UI_CHOICE && !bad)
        for (size_t i = 0; i < item->choice_count; i++)
            if (!item->choices[i]) bad = true;
    if (bad) {
        ear_ui_menu_destroy(item->submenu);
        return EAR_E_INVALID_ARG;
    }
    if (m->count == m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 8;
        menu_item *n = realloc(m->items, cap * sizeof *n);
        if (!n) {
            ear_ui_menu_destroy(item->submenu);
            return EAR_E_OUT_OF_MEMORY;
        }
        m->items = n;
        m->cap = cap;
    }
    menu_item it;
    memset(&it, 0, sizeof it);
    it.def = *item;
    it.id = dup_str(item->id);
    it.label = dup_str(item->label ? item->label : item->id);
    it.unit = dup_str(item->unit);
    it.format = dup_str(item->format);
    bool oom = !it.id || !it.label || (item->unit && !it.unit) || (item->format && !it.format);
    if (item->kind == EAR_UI_CHOICE && !oom) {
        it.choices = calloc(item->choice_count, sizeof *it.choices);
        oom = !it.choices;
        for (size_t i = 0; !oom && i < item->choice_count; i++) {
            it.choices[i] = dup_str(item->choices[i]);
            oom = !it.choices[i];
        }
    }
    if (item->kind == EAR_UI_TEXT && !oom) {
        it.edit = malloc(sizeof *it.edit);
        oom = !it.edit;
        if (it.edit)
            ear__edit_init(it.edit, item->text, item->max_length, item->password,
                           item->multiline, 0);
    }
    it.def.id = it.id;
    it.def.label = it.label;
    it.def.unit = it.unit;
    it.def.format = it.format;
    it.def.choices = (const char *const *)it.choices;
    it.def.text = it.edit ? it.edit->buf : NULL;
    if (item->kind != EAR_UI_CHOICE) it.def.choice_count = 0;
    if (oom) {
        free_item(&it);
        return EAR_E_OUT_OF_MEMORY;
    }
    if (it.def.kind == EAR_UI_SLIDER) {
        ear_ui_item *d = &it.def;
        if (!(d->max > d->min)) {
            d->min = 0;
            d->max = 100;
        }
        if (!(d->step > 0)) d->step = 1;
        if (!(d->big_step > 0)) d->big_step = d->step * 10;
        if (!isfinite(d->value) || d->value < d->min) d->value = d->min;
        if (d->value > d->max) d->value = d->max;
    }
    if (it.def.kind == EAR_UI_CHOICE && it.def.selected >= it.def.choice_count)
        it.def.selected = 0;
    it.position = (int)m->count;
    m->items[m->count++] = it;
    return EAR_OK;
}

ear_result ear_ui_menu_set_sound(ear_ui_menu *m, ear_ui_sound_slot slot, const char *name) {
    if (!m) return EAR_E_INVALID_ARG;
    return ear__ui_sounds_set(&m->sounds, slot, name);
}

ear_result ear_ui_menu_set_sounds(ear_ui_menu *m, const ear_ui_sounds *sounds) {
    if (!m || !sounds) return EAR_E_INVALID_ARG;
    ear_ui_sounds s = *sounds;
    s.replace = true;
    ear__ui_sounds_copy(&m->sounds, &s);
    return EAR_OK;
}

static size_t find_item(const ear_ui_menu *m, const char *id) {
    for (size_t i = 0; i < m->count; i++)
        if (strcmp(m->items[i].id, id) == 0) return i;
    return SIZE_MAX;
}

ear_result ear_ui_menu_focus(ear_ui_menu *m, const char *item_id) {
    if (!m || !item_id) return EAR_E_INVALID_ARG;
    size_t i = find_item(m, item_id);
    if (i == SIZE_MAX) return EAR_E_NOT_FOUND;
    m->focus = i;
    return EAR_OK;
}

size_t ear_ui_menu_focused(const ear_ui_menu *m) {
    return m ? m->focus : 0;
}

/* The item's value as a menu hands it on (ear_ui_menu_value, CloseWith). */
static void value_of(const menu_item *it, ear_ui_value *v) {
    memset(v, 0, sizeof *v);
    const ear_ui_item *d = &it->def;
    switch (d->kind) {
    case EAR_UI_BUTTON:
    case EAR_UI_SUBMENU:
        v->kind = EAR_UI_VALUE_NONE;
        ear__ui_copy(v->text, sizeof v->text, d->id);
        break;
    case EAR_UI_TOGGLE:
        v->kind = EAR_UI_VALUE_BOOL;
        v->flag = d->checked;
        break;
    case EAR_UI_SLIDER:
        v->kind = EAR_UI_VALUE_NUMBER;
        v->number = d->value;
        break;
    case EAR_UI_CHOICE:
        v->kind = EAR_UI_VALUE_INDEX;
        v->index = (int)d->selected;
        ear__ui_copy(v->text, sizeof v->text, d->choices[d->selected]);
        break;
    case EAR_UI_TEXT:
        v->kind = EAR_UI_VALUE_TEXT;
        ear__ui_copy(v->text, sizeof v->text, it->edit->buf);
        break;
    }
}

/* Posts an event of that kind about the item, with its value: a toggle's state, a
 * slider's number, a choice's index and key, a text's text. */
static void post_item(ear_ui_context *uc, ear_ui_event_kind kind, const menu_item *it) {
    const ear_ui_item *d = &it->def;
    ear_ui_event e = {.kind = kind, .item = it->id, .position = it->position};
    switch (d->kind) {
    case EAR_UI_BUTTON:
    case EAR_UI_SUBMENU: break;
    case EAR_UI_TOGGLE: e.checked = d->checked; break;
    case EAR_UI_SLIDER: e.number = d->value; break;
    case EAR_UI_CHOICE:
        e.index = (int)d->selected;
        e.text = d->choices[d->selected];
        break;
    case EAR_UI_TEXT: e.text = it->edit->buf; break;
    }
    ear_ui_post(uc, &e);
}

ear_result ear_ui_menu_value(const ear_ui_menu *m, const char *item_id, ear_ui_value *out) {
    if (!m || !item_id || !out) return EAR_E_INVALID_ARG;
    size_t i = find_item(m, item_id);
    if (i == SIZE_MAX) return EAR_E_NOT_FOUND;
    value_of(&m->items[i], out);
    return EAR_OK;
}

/* ---- Words ----------------------------------------------------------------------------- */

static bool show_position(ear_ui_context *uc, const ear_ui_menu *m) {
    return ear_ui_show_position(uc) && !m->hide_position;
}

static void describe_focus(ear_ui_context *uc, const ear_ui_menu *m, char *out, size_t size) {
    out[0] = '\0';
    if (!m->count) return;
    ear_ui_describe_item(uc->lang, &m->items[m->focus].def, m->focus,
                         show_position(uc, m) ? m->count : 0, out, size);
}

static void say_focus(ear_ui_context *uc, const ear_ui_menu *m) {
    char d[EAR_UI_TEXT_MAX];
    describe_focus(uc, m, d, sizeof d);
    if (d[0]) ear_ui_say(uc, d);
}

static void say_title(ear_ui_context *uc, const ear_ui_menu *m) {
    char t[EAR_UI_TEXT_MAX] = "";
    if (m->title) ear__ui_copy(t, sizeof t, ear_ui_tr(uc, m->title));
    if (t[0]) ear__ui_append(t, sizeof t, ear_ui_tr(uc, "ui.separator"));
    ear__ui_append(
        t, sizeof t,
        ear_ui_tr(uc, m->role == EAR_UI_ROLE_MENU ? "ui.role.menu" : "ui.role.dialog"));
    if (m->after_speech)
        ear_ui_say_queued(uc, t); /* after the game's report */
    else
        ear_ui_say(uc, t);
    if (m->message) ear_ui_say_queued(uc, ear_ui_tr(uc, m->message));
    char d[EAR_UI_TEXT_MAX];
    describe_focus(uc, m, d, sizeof d);
    if (d[0]) ear_ui_say_queued(uc, d);
}

/* ---- Changing values ------------------------------------------------------------------- */

static void post_changed(ear_ui_context *uc, const menu_item *it) {
    post_item(uc, EAR_UI_CHANGED, it);
}

static void unavailable(ear_ui_context *uc) {
    ear_ui_play(uc, EAR_UI_SOUND_ERROR);
    ear_ui_say(uc, ear_ui_tr(uc, "ui.unavailable"));
}

static void flip(ear_ui_context *uc, menu_item *it) {
    it->def.checked = !it->def.checked;
    ear_ui_play(uc, it->def.checked ? EAR_UI_SOUND_TOGGLE_ON : EAR_UI_SOUND_TOGGLE_OFF);
    ear_ui_say(uc, ear_ui_tr(uc, it->def.checked ? "ui.checked" : "ui.not_checked"));
    post_changed(uc, it);
}

/* Moves a slider by delta (clamped), or to an end (to_end -1 / +1). */
static void slide(ear_ui_context *uc, menu_item *it, double delta, int to_end) {
    ear_ui_item *d = &it->def;
    double v = to_end < 0 ? d->min : to_end > 0 ? d->max : d->value + delta;
    if (v < d->min) v = d->min;
    if (v > d->max) v = d->max;
    /* Steps of 0.1 do not add up exactly: keep the value on a fine grid. */
    v = round(v * 1e9) / 1e9;
    char t[EAR_UI_TEXT_MAX];
    if (v == d->value) {
        ear_ui_play(uc, EAR_UI_SOUND_EDGE);
        ear_ui_describe_value(uc->lang, d, d->value, t, sizeof t);
        ear_ui_say(uc, t);
        return;
    }
    d->value = v;
    ear_ui_play(uc, EAR_UI_SOUND_SLIDER);
    if (!d->quiet_change) {
        ear_ui_describe_value(uc->lang, d, d->value, t, sizeof t);
        ear_ui_say(uc, t);
    }
    post_changed(uc, it);
}

static void choose(ear_ui_context *uc, menu_item *it, int dir, bool wrap) {
    ear_ui_item *d = &it->def;
    size_t n = d->choice_count, s = d->selected;
    if (dir > 0 && s + 1 >= n) {
        if (!wrap || n < 2) {
            ear_ui_play(uc, EAR_UI_SOUND_EDGE);
            ear_ui_say(uc, ear_ui_tr(uc, d->choices[s]));
            return;
        }
        s = 0;
    } else if (dir < 0 && s == 0) {
        if (!wrap || n < 2) {
            ear_ui_play(uc, EAR_UI_SOUND_EDGE);
            ear_ui_say(uc, ear_ui_tr(uc, d->choices[s]));
            return;
        }
        s = n - 1;
    } else {
        s = dir > 0 ? s + 1 : s - 1;
    }
    d->selected = s;
    ear_ui_play(uc, EAR_UI_SOUND_SLIDER);
    ear_ui_say(uc, ear_ui_tr(uc, d->choices[s]));
    post_changed(uc, it);
}

/* Left/Right (dir -1/+1), PageDown/PageUp (big), Space (space). */
static void change(ear_ui_context *uc, menu_item *it, int dir, bool big, bool space) {
    if (it->def.disabled) {
        if (it->def.kind == EAR_UI_TOGGLE || it->def.kind == EAR_UI_SLIDER ||
            it->def.kind == EAR_UI_CHOICE)
            unavailable(uc);
        return;
    }
    switch (it->def.kind) {
    case EAR_UI_TOGGLE:
        if (!big) flip(uc, it);
        break;
    case EAR_UI_SLIDER:
        if (!space) slide(uc, it, dir * (big ? it->def.big_step : it->def.step), 0);
        break;
    case EAR_UI_CHOICE:
        if (!big) choose(uc, it, space ? 1 : dir, space);
        break;
    default: break;
    }
}

/* ---- Moving the focus ------------------------------------------------------------------ */

static void move_to(ear_ui_context *uc, ear_ui_menu *m, size_t to, ear_ui_sound_slot sound) {
    m->focus = to;
    ear_ui_play(uc, sound);
    say_focus(uc, m);
}

static void move(ear_ui_context *uc, ear_ui_menu *m, int dir, bool wrap) {
    if (!m->count) return;
    if (dir < 0 && m->focus == 0) {
        if (!wrap || m->count == 1) {
            ear_ui_play(uc, EAR_UI_SOUND_EDGE);
            say_focus(uc, m);
        } else {
            move_to(uc, m, m->count - 1, EAR_UI_SOUND_WRAP);
        }
        return;
    }
    if (dir > 0 && m->focus + 1 >= m->count) {
        if (!wrap || m->count == 1) {
            ear_ui_play(uc, EAR_UI_SOUND_EDGE);
            say_focus(uc, m);
        } else {
            move_to(uc, m, 0, EAR_UI_SOUND_WRAP);
        }
        return;
    }
    move_to(uc, m, dir > 0 ? m->focus + 1 : m->focus - 1, EAR_UI_SOUND_NAVIGATE);
}

/* Whether the label of item i starts with the code points of prefix. */
static bool label_starts(ear_ui_context *uc, const ear_ui_menu *m, size_t i,
                         const char *prefix) {
    const char *label = ear_ui_tr(uc, m->items[i].label);
    size_t ll = strlen(label), pl = strlen(prefix), a = 0, b = 0;
    while (b < pl) {
        if (a >= ll) return false;
        size_t na, nb;
        uint32_t ca = ear__utf8_lower_at(label, ll, a, &na);
        uint32_t cb = ear__utf8_lower_at(prefix, pl, b, &nb);
        if (ca != cb) return false;
        a = na;
        b = nb;
    }
    return true;
}

/* First-letter navigation: one letter (or the same letter again and again) searches
 * from the item after the focus, cyclically; several different letters typed within the
 * timeout search by prefix from the focused item itself. */
static void search(ear_ui_context *uc, ear_ui_menu *m, const char *typed) {
    double now = uc->input ? uc->input->now_s : 0;
    bool fresh = !m->prefix[0] || now - m->prefix_at_s > uc->ui->cfg.prefix_timeout_s;
    size_t tl = strlen(typed);
    bool any = false;
    for (size_t at = 0; at < tl;) {
        size_t next = ear_utf8_next(typed, tl, at);
        unsigned char c = (unsigned char)typed[at];
        if (c > 0x20 && c != 0x7f && ear_utf8_valid(typed + at, next - at)) {
            if (fresh) {
                m->prefix[0] = '\0';
                fresh = false;
            }
            char one[8] = "";
            memcpy(one, typed + at, next - at < 7 ? next - at : 7);
            ear__ui_append(m->prefix, sizeof m->prefix, one);
            any = true;
        }
        at = next;
    }
    if (!any || !m->count) return;
    m->prefix_at_s = now;
    /* All the same letter: cycle through the items with that first letter. */
    const char *p = m->prefix;
    size_t pl = strlen(p), first_end = ear_utf8_next(p, pl, 0);
    uint32_t c0 = ear__utf8_lower_at(p, pl, 0, NULL);
    bool same = true;
    for (size_t at = first_end; at < pl;) {
        size_t next;
        if (ear__utf8_lower_at(p, pl, at, &next) != c0) same = false;
        at = next;
    }
    char key[PREFIX_MAX];
    size_t start;
    if (same) {
        memcpy(key, p, first_end);
        key[first_end] = '\0';
        start = m->focus + 1;
    } else {
        ear__ui_copy(key, sizeof key, p);
        start = m->focus;
    }
    for (size_t k = 0; k < m->count; k++) {
        size_t i = (start + k) % m->count;
        if (!label_starts(uc, m, i, key)) continue;
        if (i == m->focus)
            say_focus(uc, m);
        else
            move_to(uc, m, i, EAR_UI_SOUND_NAVIGATE);
        return;
    }
    ear_ui_play(uc, EAR_UI_SOUND_ERROR);
}

/* ---- Activation ------------------------------------------------------------------------ */

static size_t default_button(const ear_ui_menu *m) {
    if (m->default_item) {
        size_t i = find_item(m, m->default_item);
        if (i != SIZE_MAX) return i;
    }
    for (size_t i = 0; i < m->count; i++)
        if (m->items[i].def.kind == EAR_UI_BUTTON && m->items[i].def.closes) return i;
    return SIZE_MAX;
}

static void close_with(ear_ui_status *st, const menu_item *it, size_t index) {
    st->kind = EAR_UI_STATUS_CLOSE_WITH;
    st->value.kind = EAR_UI_VALUE_INDEX;
    st->value.index = (int)index;
    ear__ui_copy(st->value.text, sizeof st->value.text, it->id);
}

static void press_button(ear_ui_context *uc, ear_ui_menu *m, size_t i, ear_ui_status *st) {
    menu_item *it = &m->items[i];
    if (it->def.disabled) {
        unavailable(uc);
        return;
    }
    ear_ui_play(uc, EAR_UI_SOUND_ACTIVATE);
    post_item(uc, EAR_UI_CLICKED, it);
    if (it->def.cancels) {
        post_item(uc, EAR_UI_CANCELLED, it);
        st->kind = EAR_UI_STATUS_CLOSE;
        return;
    }
    if (!it->def.closes) return;
    if (m->role == EAR_UI_ROLE_DIALOG) post_item(uc, EAR_UI_CONFIRMED, it);
    if (m->role == EAR_UI_ROLE_FORM) {
        /* A form's fields are confirmed with their values. */
        for (size_t k = 0; k < m->count; k++) {
            const menu_item *f = &m->items[k];
            if (f->def.kind == EAR_UI_BUTTON || f->def.kind == EAR_UI_SUBMENU) continue;
            post_item(uc, EAR_UI_CONFIRMED, f);
        }
        post_item(uc, EAR_UI_CONFIRMED, it);
    }
    close_with(st, it, i);
}

static void text_child(ear_ui_context *uc, ear_ui_menu *m, size_t i, ear_ui_status *st) {
    menu_item *it = &m->items[i];
    ear_ui_text_config tc = {0};
    char id[EAR_UI_ID_MAX];
    ear__ui_copy(id, sizeof id, m->id);
    ear__ui_append(id, sizeof id, "/");
    ear__ui_append(id, sizeof id, it->id);
    tc.id = id;
    tc.label = it->label;
    tc.text = it->edit->buf;
    tc.max_length = it->def.max_length;
    tc.password = it->def.password;
    tc.multiline = it->def.multiline;
    tc.sounds = ear__ui_sounds_view(&m->sounds);
    if (ear_ui_text_widget(&tc, true, &st->child) != EAR_OK) {
        ear_ui_play(uc, EAR_UI_SOUND_ERROR);
        return;
    }
    ear_ui_play(uc, EAR_UI_SOUND_ACTIVATE);
    st->kind = EAR_UI_STATUS_PUSH;
    m->waiting_child = true;
    m->child_item = i;
}

static void activate(ear_ui_context *uc, ear_ui_menu *m, ear_ui_status *st) {
    if (!m->count) return;
    size_t i = m->focus;
    menu_item *it = &m->items[i];
    if (it->def.disabled) {
        unavailable(uc);
        return;
    }
    switch (it->def.kind) {
    case EAR_UI_BUTTON: press_button(uc, m, i, st); break;
    case EAR_UI_TOGGLE: flip(uc, it); break;
    case EAR_UI_SLIDER:
    case EAR_UI_CHOICE:
        ear_ui_play(uc, EAR_UI_SOUND_ACTIVATE);
        post_item(uc, EAR_UI_CLICKED, it);
        break;
    case EAR_UI_TEXT: text_child(uc, m, i, st); break;
    case EAR_UI_SUBMENU:
        ear_ui_play(uc, EAR_UI_SOUND_ACTIVATE);
        st->child = ear_ui_menu_widget(it->def.submenu);
        st->child.destroy = NULL; /* the item keeps it */
        st->kind = EAR_UI_STATUS_PUSH;
        break;
    }
}

static void escape(ear_ui_context *uc, ear_ui_menu *m, ear_ui_status *st) {
    if (m->escape_item != SIZE_MAX && m->escape_item < m->count) {
        press_button(uc, m, m->escape_item, st);
        return;
    }
    size_t named = m->escape_id ? find_item(m, m->escape_id) : SIZE_MAX;
    if (named != SIZE_MAX && m->items[named].def.kind == EAR_UI_BUTTON) {
        press_button(uc, m, named, st);
        return;
    }
    switch (m->escape) {
    case EAR_UI_ESCAPE_CLOSE: st->kind = EAR_UI_STATUS_CLOSE; break;
    case EAR_UI_ESCAPE_CANCEL:
        ear_ui_post(uc, &(ear_ui_event){.kind = EAR_UI_CANCELLED, .position = -1});
        st->kind = EAR_UI_STATUS_CLOSE;
        break;
    case EAR_UI_ESCAPE_NONE: ear_ui_play(uc, EAR_UI_SOUND_ERROR); break;
    }
}

/* ---- The widget ------------------------------------------------------------------------ */

static void menu_open(ear_ui_context *uc, void *self) {
    ear_ui_play(uc, EAR_UI_SOUND_OPEN);
    say_title(uc, self);
}

static void menu_resume(ear_ui_context *uc, void *self, const ear_ui_value *value) {
    ear_ui_menu *m = self;
    if (m->waiting_child) {
        m->waiting_child = false;
        menu_item *it = m->child_item < m->count ? &m->items[m->child_item] : NULL;
        if (it && it->edit && value && value->kind == EAR_UI_VALUE_TEXT) {
            bool differs = strcmp(it->edit->buf, value->text) != 0;
            ear__edit_init(it->edit, value->text, it->def.max_length, it->def.password,
                           it->def.multiline, 0);
            if (differs) post_changed(uc, it);
        }
    }
    say_focus(uc, m);
}

static void update_form(ear_ui_context *uc, ear_ui_menu *m, ear_ui_status *st) {
    bool shift = ear_ui_key_held(uc, EAR_KEY_LSHIFT) || ear_ui_key_held(uc, EAR_KEY_RSHIFT);
    bool ctrl = ear_ui_key_held(uc, EAR_KEY_LCTRL) || ear_ui_key_held(uc, EAR_KEY_RCTRL);
    if (ear_ui_key_pressed(uc, EAR_KEY_ESCAPE)) {
        escape(uc, m, st);
        return;
    }
    menu_item *it = m->count ? &m->items[m->focus] : NULL;
    /* What was typed in this frame goes into the focused field before its Tab or Enter:
     * "abc" and Tab in one frame leave "abc" in the field, "abc" and Enter submit it. */
    bool changed = false;
    if (it && it->def.kind == EAR_UI_TEXT && !it->def.disabled)
        ear__edit_type(uc, it->edit, &changed);
    if (ear_ui_key_repeating(uc, EAR_KEY_TAB)) {
        if (changed) post_changed(uc, it);
        move(uc, m, shift ? -1 : 1, true);
        return;
    }
    if (!it) return;
    if (it->def.kind == EAR_UI_TEXT) {
        if (ear_ui_key_pressed(uc, EAR_KEY_ENTER) && (!it->def.multiline || ctrl)) {
            if (changed) post_changed(uc, it);
            size_t b = default_button(m);
            if (b != SIZE_MAX) press_button(uc, m, b, st);
            return;
        }
        if (it->def.disabled) {
            if (ear_ui_text_typed(uc)[0]) unavailable(uc);
            return;
        }
        ear__edit_keys(uc, it->edit, &changed);
        if (changed) post_changed(uc, it);
        return;
    }
    if (ear_ui_key_pressed(uc, EAR_KEY_ENTER)) {
        size_t b = it->def.kind == EAR_UI_BUTTON ? m->focus : default_button(m);
        if (b != SIZE_MAX)
            press_button(uc, m, b, st);
        else
            activate(uc, m, st);
        return;
    }
    if (ear_ui_key_pressed(uc, EAR_KEY_SPACE)) {
        if (it->def.kind == EAR_UI_BUTTON)
            press_button(uc, m, m->focus, st);
        else
            change(uc, it, 1, false, true);
    }
    if (ear_ui_key_repeating(uc, EAR_KEY_LEFT) || ear_ui_key_repeating(uc, EAR_KEY_DOWN))
        change(uc, it, -1, false, false);
    if (ear_ui_key_repeating(uc, EAR_KEY_RIGHT) || ear_ui_key_repeating(uc, EAR_KEY_UP))
        change(uc, it, 1, false, false);
    if (ear_ui_key_repeating(uc, EAR_KEY_PAGE_UP)) change(uc, it, 1, true, false);
    if (ear_ui_key_repeating(uc, EAR_KEY_PAGE_DOWN)) change(uc, it, -1, true, false);
    if (it->def.kind == EAR_UI_SLIDER && !it->def.disabled) {
        if (ear_ui_key_pressed(uc, EAR_KEY_HOME)) slide(uc, it, 0, -1);
        if (ear_ui_key_pressed(uc, EAR_KEY_END)) slide(uc, it, 0, 1);
    }
}

static void menu_update(ear_ui_context *uc, void *self, ear_ui_status *st) {
    ear_ui_menu *m = self;
    if (m->focus >= m->count) m->focus = m->count ? m->count - 1 : 0;
    if (m->role == EAR_UI_ROLE_FORM) {
        update_form(uc, m, st);
        return;
    }
    bool wrap = !m->no_wrap;
    bool dialog = m->role == EAR_UI_ROLE_DIALOG;
    bool shift = ear_ui_key_held(uc, EAR_KEY_LSHIFT) || ear_ui_key_held(uc, EAR_KEY_RSHIFT);
    if (ear_ui_key_pressed(uc, EAR_KEY_ESCAPE)) {
        escape(uc, m, st);
        return;
    }
    if (ear_ui_key_pressed(uc, EAR_KEY_ENTER)) {
        activate(uc, m, st);
        return;
    }
    if (ear_ui_key_repeating(uc, EAR_KEY_UP)) move(uc, m, -1, wrap);
    if (ear_ui_key_repeating(uc, EAR_KEY_DOWN)) move(uc, m, 1, wrap);
    if (dialog && ear_ui_key_repeating(uc, EAR_KEY_TAB)) move(uc, m, shift ? -1 : 1, true);
    if (m->count && ear_ui_key_pressed(uc, EAR_KEY_HOME)) {
        if (m->focus == 0) {
            ear_ui_play(uc, EAR_UI_SOUND_EDGE);
            say_focus(uc, m);
        } else {
            move_to(uc, m, 0, EAR_UI_SOUND_NAVIGATE);
        }
    }
    if (m->count && ear_ui_key_pressed(uc, EAR_KEY_END)) {
        if (m->focus + 1 == m->count) {
            ear_ui_play(uc, EAR_UI_SOUND_EDGE);
            say_focus(uc, m);
        } else {
            move_to(uc, m, m->count - 1, EAR_UI_SOUND_NAVIGATE);
        }
    }
    if (m->count) {
        menu_item *it = &m->items[m->focus];
        bool is_button = it->def.kind == EAR_UI_BUTTON;
        if (dialog && is_button) {
            if (ear_ui_key_repeating(uc, EAR_KEY_LEFT)) move(uc, m, -1, wrap);
            if (ear_ui_key_repeating(uc, EAR_KEY_RIGHT)) move(uc, m, 1, wrap);
        } else {
            if (ear_ui_key_repeating(uc, EAR_KEY_LEFT)) change(uc, it, -1, false, false);
            if (ear_ui_key_repeating(uc, EAR_KEY_RIGHT)) change(uc, it, 1, false, false);
        }
        if (ear_ui_key_repeating(uc, EAR_KEY_PAGE_UP)) change(uc, it, 1, true, false);
        if (ear_ui_key_repeating(uc, EAR_KEY_PAGE_DOWN)) change(uc, it, -1, true, false);
        if (ear_ui_key_pressed(uc, EAR_KEY_SPACE)) {
            if (is_button)
                press_button(uc, m, m->focus, st);
            else
                change(uc, it, 1, false, true);
            if (st->kind != EAR_UI_STATUS_OPEN) return;
        }
    }
    const char *typed = ear_ui_text_typed(uc);
    if (typed[0]) search(uc, m, typed);
}

static const char *menu_music(void *self) {
    return ((ear_ui_menu *)self)->music;
}

static const ear_ui_sounds *menu_sounds(void *self) {
    return ear__ui_sounds_view(&((ear_ui_menu *)self)->sounds);
}

static void menu_destroy_cb(void *self) {
    ear_ui_menu_destroy(self);
}

ear_ui_widget ear_ui_menu_widget(ear_ui_menu *m) {
    ear_ui_widget w;
    memset(&w, 0, sizeof w);
    if (!m) return w;
    ear__ui_copy(w.id, sizeof w.id, m->id);
    w.self = m;
    w.open = menu_open;
    w.update = menu_update;
    w.resume = menu_resume;
    w.music = menu_music;
    w.sounds = menu_sounds;
    w.destroy = menu_destroy_cb;
    return w;
}

ear_result ear_ui_open_menu(ear_ctx *ctx, ear_ui_menu *m) {
    if (!m) return EAR_E_INVALID_ARG;
    ear_ui_widget w = ear_ui_menu_widget(m);
    return ear_ui_open(ctx, &w);
}

ear_ui_menu *ear_ui_find_menu(ear_ctx *ctx, const char *id) {
    ear_ui *ui = ear_ui_of(ctx);
    if (!ui || !id) return NULL;
    for (size_t i = ui->depth; i-- > 0;) {
        const ear_ui_widget *w = &ui->stack[i].widget;
        if (w->update == menu_update && strcmp(w->id, id) == 0) return w->self;
    }
    for (size_t i = 0; i < ui->pending_count; i++) {
        const ear_ui_widget *w = &ui->pending[i];
        if (w->update == menu_update && strcmp(w->id, id) == 0) return w->self;
    }
    return NULL;
}

/* ---- Dialogs --------------------------------------------------------------------------- */

ear_result ear_ui_message(ear_ctx *ctx, const char *id, const char *title,
                          const char *message) {
    ear_ui_menu_config c = {0};
    c.id = id;
    c.title = title;
    c.message = message;
    c.role = EAR_UI_ROLE_DIALOG;
    c.hide_position = true;
    ear_ui_menu *m;
    ear_result res = ear_ui_menu_create(&c, &m);
    if (res != EAR_OK) return res;
    res = ear_ui_menu_add(m, &(ear_ui_item){.id = "ok", .label = "menu.ok", .closes = true});
    if (res != EAR_OK) {
        ear_ui_menu_destroy(m);
        return res;
    }
    m->escape_item = 0;
    return ear_ui_open_menu(ctx, m);
}

ear_result ear_ui_question(ear_ctx *ctx, const char *id, const char *question,
                           bool default_no) {
    ear_ui_menu_config c = {0};
    c.id = id;
    c.title = question;
    c.role = EAR_UI_ROLE_DIALOG;
    c.escape = EAR_UI_ESCAPE_CANCEL;
    ear_ui_menu *m;
    ear_result res = ear_ui_menu_create(&c, &m);
    if (res != EAR_OK) return res;
    res = ear_ui_menu_add(m, &(ear_ui_item){.id = "yes", .label = "menu.yes", .closes = true});
    if (res == EAR_OK)
        res =
            ear_ui_menu_add(m, &(ear_ui_item){.id = "no", .label = "menu.no", .closes = true});
    if (res != EAR_OK) {
        ear_ui_menu_destroy(m);
        return res;
    }
    m->focus = default_no ? 1 : 0;
    return ear_ui_open_menu(ctx, m);
}

/* ---- Capturing a binding ---------------------------------------------------------------- */

typedef struct capture {
    char prompt[EAR_UI_TEXT_MAX];
} capture;

static void capture_open(ear_ui_context *uc, void *self) {
    capture *c = self;
    ear_ui_play(uc, EAR_UI_SOUND_OPEN);
    ear_ui_say(uc, ear_ui_tr(uc, c->prompt));
}

/* Escape cancels; the first other key, pad button or axis pushed past one half is the
 * answer (a control already held as the prompt opened is not new: only presses count). */
static void capture_update(ear_ui_context *uc, void *self, ear_ui_status *st) {
    (void)self;
    if (ear_input_raw_pressed(uc->input, EAR_KEY_ESCAPE)) {
        ear_ui_post(uc, &(ear_ui_event){.kind = EAR_UI_CANCELLED, .position = -1});
        st->kind = EAR_UI_STATUS_CLOSE;
        return;
    }
    ear_binding b;
    if (!ear_actions_capture(uc->input, &b)) return;
    char text[EAR_BINDING_TEXT_MAX];
    ear_binding_format(b, text, sizeof text);
    ear_ui_post(uc, &(ear_ui_event){.kind = EAR_UI_CONFIRMED, .position = -1, .text = text});
    st->kind = EAR_UI_STATUS_CLOSE;
}

static void capture_destroy(void *self) {
    free(self);
}

ear_result ear_ui_capture_binding(ear_ctx *ctx, const char *id, const char *prompt) {
    if (!id || !prompt) return EAR_E_INVALID_ARG;
    capture *c = calloc(1, sizeof *c);
    if (!c) return EAR_E_OUT_OF_MEMORY;
    ear__ui_copy(c->prompt, sizeof c->prompt, prompt);
    ear_ui_widget w = {0};
    ear__ui_copy(w.id, sizeof w.id, id);
    w.self = c;
    w.open = capture_open;
    w.update = capture_update;
    w.resume = NULL;
    w.destroy = capture_destroy;
    return ear_ui_open(ctx, &w);
}
