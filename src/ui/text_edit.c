/* SPDX-License-Identifier: Zlib */
/*
 * The text editor behind text inputs and forms' text fields, and the text input widget.
 *
 * The text is UTF-8 in a fixed buffer; the cursor is a byte offset that always sits on a
 * character boundary (0 .. len). What the player hears follows screen readers: a typed
 * character is echoed, moving by character says the character now under the cursor
 * ("blank" at the end), moving by word says the word there, a deletion says what was
 * deleted; a password field says "star" instead of any character. A key that cannot do
 * anything at a boundary (Left at the start) plays the edge sound; a character that
 * does not fit plays the error sound.
 */
#include "ui_internal.h"

#include <stdlib.h>
#include <string.h>

#define DEFAULT_READ_KEY EAR_KEY_F2

void ear__edit_init(ear__text_edit *e, const char *text, size_t max_chars, bool password,
                    bool multiline, ear_key read_key) {
    memset(e, 0, sizeof *e);
    e->max_chars = max_chars;
    e->password = password;
    e->multiline = multiline;
    e->read_key = read_key ? read_key : DEFAULT_READ_KEY;
    e->len = ear__ui_copy(e->buf, sizeof e->buf, text ? text : "");
    if (max_chars) {
        /* A start text longer than the limit is cut to it. */
        size_t at = 0;
        for (size_t n = 0; n < max_chars && at < e->len; n++)
            at = ear_utf8_next(e->buf, e->len, at);
        e->len = at;
        e->buf[at] = '\0';
    }
    e->cursor = e->len;
}

void ear__edit_spoken(ear_ui_context *uc, const ear__text_edit *e, char *out, size_t size) {
    /* The same words as describe's state part for a text item. */
    if (!e->len) {
        ear__ui_copy(out, size, ear_ui_tr(uc, "input.empty"));
        return;
    }
    if (!e->password) {
        ear__ui_copy(out, size, e->buf);
        return;
    }
    out[0] = '\0';
    size_t n = ear_utf8_count(e->buf, e->len);
    for (size_t i = 0; i < n; i++) {
        if (i) ear__ui_append(out, size, " ");
        ear__ui_append(out, size, ear_ui_tr(uc, "ui.star"));
    }
}

static bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n';
}

static void say_at_cursor(ear_ui_context *uc, const ear__text_edit *e) {
    if (e->cursor >= e->len) {
        ear_ui_say(uc, ear_ui_tr(uc, "input.empty"));
        return;
    }
    size_t next = ear_utf8_next(e->buf, e->len, e->cursor);
    ear__ui_say_char(uc, e->buf + e->cursor, next - e->cursor, e->password);
}

static void say_word_at_cursor(ear_ui_context *uc, const ear__text_edit *e) {
    if (e->cursor >= e->len) {
        ear_ui_say(uc, ear_ui_tr(uc, "input.empty"));
        return;
    }
    if (e->password) {
        ear_ui_say(uc, ear_ui_tr(uc, "ui.star"));
        return;
    }
    size_t end = e->cursor;
    while (end < e->len && !is_space(e->buf[end])) end++;
    if (end == e->cursor) {
        say_at_cursor(uc, e);
        return;
    }
    char w[EAR_UI_TEXT_MAX];
    memcpy(w, e->buf + e->cursor, end - e->cursor);
    w[end - e->cursor] = '\0';
    ear_ui_say(uc, w);
}

static size_t line_start(const ear__text_edit *e, size_t at) {
    while (at > 0 && e->buf[at - 1] != '\n') at--;
    return at;
}

static size_t line_end(const ear__text_edit *e, size_t at) {
    while (at < e->len && e->buf[at] != '\n') at++;
    return at;
}

static void say_line(ear_ui_context *uc, const ear__text_edit *e, size_t start) {
    size_t end = line_end(e, start);
    if (end == start) {
        ear_ui_say(uc, ear_ui_tr(uc, "input.empty"));
        return;
    }
    if (e->password) {
        ear_ui_say(uc, ear_ui_tr(uc, "ui.star"));
        return;
    }
    char w[EAR_UI_TEXT_MAX];
    memcpy(w, e->buf + start, end - start);
    w[end - start] = '\0';
    ear_ui_say(uc, w);
}

static void read_all(ear_ui_context *uc, const ear__text_edit *e) {
    char t[EAR_UI_TEXT_MAX];
    ear__edit_spoken(uc, e, t, sizeof t);
    ear_ui_say(uc, t);
}

/* Inserts one character (bytes ch[0..n)); false when it does not fit. */
static bool insert(ear__text_edit *e, const char *ch, size_t n) {
    if (e->len + n + 1 > sizeof e->buf) return false;
    if (e->max_chars && ear_utf8_count(e->buf, e->len) >= e->max_chars) return false;
    memmove(e->buf + e->cursor + n, e->buf + e->cursor, e->len - e->cursor + 1);
    memcpy(e->buf + e->cursor, ch, n);
    e->len += n;
    e->cursor += n;
    return true;
}

/* Removes bytes [from, to) and says them. */
static void remove_range(ear_ui_context *uc, ear__text_edit *e, size_t from, size_t to) {
    char gone[8] = "";
    size_t n = to - from;
    if (n < sizeof gone) memcpy(gone, e->buf + from, n);
    memmove(e->buf + from, e->buf + to, e->len - to + 1);
    e->len -= n;
    e->cursor = from;
    ear_ui_play(uc, EAR_UI_SOUND_DELETE);
    ear__ui_say_char(uc, gone, n < sizeof gone ? n : 0, e->password);
}

static void move_line(ear_ui_context *uc, ear__text_edit *e, bool down) {
    size_t start = line_start(e, e->cursor);
    size_t column = ear_utf8_count(e->buf + start, e->cursor - start);
    size_t target;
    if (down) {
        size_t end = line_end(e, e->cursor);
        if (end >= e->len) {
            ear_ui_play(uc, EAR_UI_SOUND_EDGE);
            say_line(uc, e, start);
            return;
        }
        target = end + 1;
    } else {
        if (start == 0) {
            ear_ui_play(uc, EAR_UI_SOUND_EDGE);
            say_line(uc, e, start);
            return;
        }
        target = line_start(e, start - 1);
    }
    size_t end = line_end(e, target), at = target;
    for (size_t c = 0; c < column && at < end; c++) at = ear_utf8_next(e->buf, e->len, at);
    e->cursor = at;
    say_line(uc, e, target);
}

void ear__edit_keys(ear_ui_context *uc, ear__text_edit *e, bool *changed) {
    bool ctrl = ear_ui_key_held(uc, EAR_KEY_LCTRL) || ear_ui_key_held(uc, EAR_KEY_RCTRL);
    const char *typed = ear_ui_text_typed(uc);
    size_t tlen = strlen(typed);
    for (size_t at = 0; at < tlen;) {
        size_t next = ear_utf8_next(typed, tlen, at);
        unsigned char c0 = (unsigned char)typed[at];
        const char *ch = typed + at;
        size_t n = next - at;
        at = next;
        if (c0 < 0x20 || c0 == 0x7f) continue; /* control characters are not text */
        if (!ear_utf8_valid(ch, n)) continue;  /* nor are broken sequences */
        if (!insert(e, ch, n)) {
            ear_ui_play(uc, EAR_UI_SOUND_ERROR);
            break;
        }
        *changed = true;
        ear_ui_play(uc, EAR_UI_SOUND_TYPE);
        ear__ui_say_char(uc, ch, n, e->password);
    }
    if (e->multiline && !ctrl && ear_ui_key_pressed(uc, EAR_KEY_ENTER)) {
        if (insert(e, "\n", 1)) {
            *changed = true;
            ear_ui_play(uc, EAR_UI_SOUND_TYPE);
            ear__ui_say_char(uc, "\n", 1, false);
        } else {
            ear_ui_play(uc, EAR_UI_SOUND_ERROR);
        }
    }
    if (ear_ui_key_repeating(uc, EAR_KEY_LEFT)) {
        if (e->cursor == 0) {
            ear_ui_play(uc, EAR_UI_SOUND_EDGE);
            say_at_cursor(uc, e);
        } else if (ctrl) {
            size_t at = e->cursor;
            while (at > 0 && is_space(e->buf[at - 1])) at--;
            while (at > 0 && !is_space(e->buf[at - 1])) at--;
            e->cursor = at;
            say_word_at_cursor(uc, e);
        } else {
            e->cursor = ear_utf8_prev(e->buf, e->cursor);
            say_at_cursor(uc, e);
        }
    }
    if (ear_ui_key_repeating(uc, EAR_KEY_RIGHT)) {
        if (e->cursor >= e->len) {
            ear_ui_play(uc, EAR_UI_SOUND_EDGE);
            say_at_cursor(uc, e);
        } else if (ctrl) {
            size_t at = e->cursor;
            while (at < e->len && !is_space(e->buf[at])) at++;
            while (at < e->len && is_space(e->buf[at])) at++;
            e->cursor = at;
            say_word_at_cursor(uc, e);
        } else {
            e->cursor = ear_utf8_next(e->buf, e->len, e->cursor);
            say_at_cursor(uc, e);
        }
    }
    if (ear_ui_key_pressed(uc, EAR_KEY_HOME)) {
        e->cursor = e->multiline && !ctrl ? line_start(e, e->cursor) : 0;
        say_at_cursor(uc, e);
    }
    if (ear_ui_key_pressed(uc, EAR_KEY_END)) {
        e->cursor = e->multiline && !ctrl ? line_end(e, e->cursor) : e->len;
        say_at_cursor(uc, e);
    }
    if (ear_ui_key_repeating(uc, EAR_KEY_BACKSPACE)) {
        if (e->cursor == 0) {
            ear_ui_play(uc, EAR_UI_SOUND_EDGE);
        } else {
            remove_range(uc, e, ear_utf8_prev(e->buf, e->cursor), e->cursor);
            *changed = true;
        }
    }
    if (ear_ui_key_repeating(uc, EAR_KEY_DELETE)) {
        if (e->cursor >= e->len) {
            ear_ui_play(uc, EAR_UI_SOUND_EDGE);
        } else {
            remove_range(uc, e, e->cursor, ear_utf8_next(e->buf, e->len, e->cursor));
            *changed = true;
        }
    }
    if (e->multiline) {
        if (ear_ui_key_repeating(uc, EAR_KEY_UP)) move_line(uc, e, false);
        if (ear_ui_key_repeating(uc, EAR_KEY_DOWN)) move_line(uc, e, true);
    } else if (ear_ui_key_pressed(uc, EAR_KEY_UP) || ear_ui_key_pressed(uc, EAR_KEY_DOWN)) {
        read_all(uc, e);
    }
    if (ear_ui_key_pressed(uc, e->read_key)) read_all(uc, e);
}

/* ---- The text input widget ------------------------------------------------------------- */

typedef struct text_input {
    ear__text_edit edit;
    char label[EAR_UI_TEXT_MAX];
    bool child;
    ear__ui_owned_sounds sounds;
} text_input;

static void ti_say_whole(ear_ui_context *uc, text_input *t) {
    ear_ui_item it = {0};
    it.kind = EAR_UI_TEXT;
    it.id = t->label;
    it.label = t->label;
    it.text = t->edit.buf;
    it.password = t->edit.password;
    char d[EAR_UI_TEXT_MAX];
    ear_ui_describe_item(uc->lang, &it, 0, 0, d, sizeof d);
    ear_ui_say(uc, d);
}

static void ti_open(ear_ui_context *uc, void *self) {
    ear_ui_play(uc, EAR_UI_SOUND_OPEN);
    ti_say_whole(uc, self);
}

static void ti_resume(ear_ui_context *uc, void *self, const ear_ui_value *value) {
    (void)value;
    ti_say_whole(uc, self);
}

static void ti_update(ear_ui_context *uc, void *self, ear_ui_status *status) {
    text_input *t = self;
    bool ctrl = ear_ui_key_held(uc, EAR_KEY_LCTRL) || ear_ui_key_held(uc, EAR_KEY_RCTRL);
    if (ear_ui_key_pressed(uc, EAR_KEY_ESCAPE)) {
        if (!t->child)
            ear_ui_post(uc, &(ear_ui_event){.kind = EAR_UI_CANCELLED, .position = -1});
        status->kind = EAR_UI_STATUS_CLOSE;
        return;
    }
    if (ear_ui_key_pressed(uc, EAR_KEY_ENTER) && (!t->edit.multiline || ctrl)) {
        ear_ui_play(uc, EAR_UI_SOUND_ACTIVATE);
        if (!t->child)
            ear_ui_post(uc, &(ear_ui_event){
                                .kind = EAR_UI_CONFIRMED, .position = -1, .text = t->edit.buf});
        status->kind = EAR_UI_STATUS_CLOSE_WITH;
        status->value.kind = EAR_UI_VALUE_TEXT;
        ear__ui_copy(status->value.text, sizeof status->value.text, t->edit.buf);
        return;
    }
    bool changed = false;
    ear__edit_keys(uc, &t->edit, &changed);
}

static const ear_ui_sounds *ti_sounds(void *self) {
    return ear__ui_sounds_view(&((text_input *)self)->sounds);
}

ear_result ear_ui_text_widget(const ear_ui_text_config *config, bool child,
                              ear_ui_widget *out_widget) {
    if (!config || !config->id || !config->id[0] || !out_widget) return EAR_E_INVALID_ARG;
    text_input *t = calloc(1, sizeof *t);
    if (!t) return EAR_E_OUT_OF_MEMORY;
    ear__edit_init(&t->edit, config->text, config->max_length, config->password,
                   config->multiline, config->read_key);
    ear__ui_copy(t->label, sizeof t->label, config->label ? config->label : config->id);
    t->child = child;
    ear__ui_sounds_copy(&t->sounds, config->sounds);
    memset(out_widget, 0, sizeof *out_widget);
    ear__ui_copy(out_widget->id, sizeof out_widget->id, config->id);
    out_widget->self = t;
    out_widget->open = ti_open;
    out_widget->update = ti_update;
    out_widget->resume = ti_resume;
    out_widget->sounds = ti_sounds;
    out_widget->destroy = free;
    return EAR_OK;
}

ear_result ear_ui_open_text(ear_ctx *ctx, const ear_ui_text_config *config) {
    ear_ui_widget w;
    ear_result res = ear_ui_text_widget(config, false, &w);
    if (res != EAR_OK) return res;
    return ear_ui_open(ctx, &w);
}
