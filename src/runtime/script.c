/* SPDX-License-Identifier: Zlib */
/*
 * The headless script's text form: one event per line, "<frame> <action> [argument]".
 * Gamepad lines drive pad slot 0: "pad_connect", "pad_disconnect", "pad_down A",
 * "pad_up DPUP", "pad_press START", "pad_axis LEFTX -0.5" (SDL's button and axis names).
 * A parsed script owns one block of events and one block of texts (each text
 * NUL-terminated inside it), so ear_script_free frees two pointers. The events block has
 * one slot more than the events; that slot's text pointer is the texts block.
 */
#include "runtime_internal.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void set_error(char *error, size_t size, const char *format, ...) {
    if (!error || size == 0) return;
    va_list ap;
    va_start(ap, format);
    vsnprintf(error, size, format, ap);
    va_end(ap);
}

static const char *skip_space(const char *s, const char *end) {
    while (s < end && (*s == ' ' || *s == '\t')) s++;
    return s;
}

static bool word_is(const char *w, size_t n, const char *name) {
    return strlen(name) == n && strncmp(w, name, n) == 0;
}

ear_result ear_script_parse(const char *text, ear_script *out_script, char *error,
                            size_t error_size) {
    if (!text || !out_script) return EAR_E_INVALID_ARG;
    set_error(error, error_size, "%s", "");
    size_t lines = 1;
    for (const char *p = text; *p; p++) lines += *p == '\n';
    size_t text_bytes = strlen(text) + 1;
    ear_script_event *events = calloc(lines + 1, sizeof *events);
    char *texts = malloc(text_bytes);
    if (!events || !texts) {
        free(events);
        free(texts);
        return EAR_E_OUT_OF_MEMORY;
    }
    size_t count = 0, text_used = 0, lineno = 0;
    const char *line = text;
    while (*line) {
        lineno++;
        const char *end = strchr(line, '\n');
        if (!end) end = line + strlen(line);
        const char *next = *end ? end + 1 : end;
        const char *stop = end;
        if (stop > line && stop[-1] == '\r') stop--;
        const char *p = skip_space(line, stop);
        if (p == stop || *p == '#') {
            line = next;
            continue;
        }
        /* frame */
        char *num_end;
        errno = 0;
        unsigned long long frame = strtoull(p, &num_end, 10);
        if (num_end == p || errno || !isdigit((unsigned char)*p)) {
            set_error(error, error_size, "script line %zu: expected a frame number", lineno);
            goto fail;
        }
        p = skip_space(num_end, stop);
        const char *w = p;
        while (p < stop && *p != ' ' && *p != '\t') p++;
        size_t wn = (size_t)(p - w);
        p = skip_space(p, stop);
        /* The argument runs to the end of the line, trailing spaces trimmed. */
        const char *arg_end = stop;
        while (arg_end > p && (arg_end[-1] == ' ' || arg_end[-1] == '\t')) arg_end--;
        size_t an = (size_t)(arg_end - p);
        ear_script_event *e = &events[count];
        e->frame = frame;
        if (word_is(w, wn, "down") || word_is(w, wn, "up") || word_is(w, wn, "press")) {
            e->action = word_is(w, wn, "down") ? EAR_SCRIPT_DOWN
                        : word_is(w, wn, "up") ? EAR_SCRIPT_UP
                                               : EAR_SCRIPT_PRESS;
            char name[32];
            if (an == 0 || an >= sizeof name) {
                set_error(error, error_size, "script line %zu: expected a key name", lineno);
                goto fail;
            }
            memcpy(name, p, an);
            name[an] = '\0';
            e->key = ear_key_from_name(name);
            if (e->key == EAR_KEY_UNKNOWN) {
                set_error(error, error_size, "script line %zu: unknown key '%s'", lineno, name);
                goto fail;
            }
        } else if (word_is(w, wn, "text")) {
            e->action = EAR_SCRIPT_TEXT;
            memcpy(texts + text_used, p, an);
            texts[text_used + an] = '\0';
            e->text = texts + text_used;
            text_used += an + 1;
        } else if (word_is(w, wn, "pad_connect") || word_is(w, wn, "pad_disconnect")) {
            e->action = word_is(w, wn, "pad_connect") ? EAR_SCRIPT_PAD_CONNECT
                                                      : EAR_SCRIPT_PAD_DISCONNECT;
        } else if (word_is(w, wn, "pad_down") || word_is(w, wn, "pad_up") ||
                   word_is(w, wn, "pad_press")) {
            e->action = word_is(w, wn, "pad_down") ? EAR_SCRIPT_PAD_DOWN
                        : word_is(w, wn, "pad_up") ? EAR_SCRIPT_PAD_UP
                                                   : EAR_SCRIPT_PAD_PRESS;
            char name[32];
            if (an == 0 || an >= sizeof name) {
                set_error(error, error_size, "script line %zu: expected a pad button name",
                          lineno);
                goto fail;
            }
            memcpy(name, p, an);
            name[an] = '\0';
            e->control = ear_pad_button_from_name(name);
            if (e->control < 0) {
                set_error(error, error_size, "script line %zu: unknown pad button '%s'", lineno,
                          name);
                goto fail;
            }
        } else if (word_is(w, wn, "pad_axis")) {
            e->action = EAR_SCRIPT_PAD_AXIS;
            char arg[64], name[32];
            double v = 0;
            char *vend = NULL;
            if (an == 0 || an >= sizeof arg) {
                set_error(error, error_size, "script line %zu: expected an axis and a value",
                          lineno);
                goto fail;
            }
            memcpy(arg, p, an);
            arg[an] = '\0';
            char *sp = strpbrk(arg, " \t");
            size_t nn = sp ? (size_t)(sp - arg) : an;
            if (nn >= sizeof name) nn = sizeof name - 1;
            memcpy(name, arg, nn);
            name[nn] = '\0';
            e->control = ear_pad_axis_from_name(name);
            if (e->control < 0) {
                set_error(error, error_size, "script line %zu: unknown pad axis '%s'", lineno,
                          name);
                goto fail;
            }
            if (sp) v = strtod(sp, &vend);
            if (!sp || vend == sp || *skip_space(vend, arg + an) || !(v >= -1 && v <= 1)) {
                set_error(error, error_size,
                          "script line %zu: pad_axis %s needs a value from -1 to 1", lineno,
                          name);
                goto fail;
            }
            e->value = (float)v;
        } else if (word_is(w, wn, "focus_lost")) {
            e->action = EAR_SCRIPT_FOCUS_LOST;
        } else if (word_is(w, wn, "focus_gained")) {
            e->action = EAR_SCRIPT_FOCUS_GAINED;
        } else if (word_is(w, wn, "quit")) {
            e->action = EAR_SCRIPT_QUIT;
        } else {
            set_error(error, error_size,
                      "script line %zu: unknown action '%.*s' (down, up, press, text, "
                      "focus_lost, focus_gained, quit, pad_connect, pad_disconnect, pad_down, "
                      "pad_up, pad_press, pad_axis)",
                      lineno, (int)wn, w);
            goto fail;
        }
        count++;
        line = next;
    }
    /* The slot after the last event (there is always one) keeps the texts block, so
     * ear_script_free can find it. */
    events[count].text = texts;
    out_script->events = events;
    out_script->count = count;
    return EAR_OK;
fail:
    free(events);
    free(texts);
    return EAR_E_FORMAT;
}

void ear_script_free(ear_script *script) {
    if (!script || !script->events) return;
    /* The slot after the last event holds the texts block (see ear_script_parse). */
    free((void *)script->events[script->count].text);
    free((void *)script->events);
    script->events = NULL;
    script->count = 0;
}

int16_t ear__axis_raw(float v) {
    double scaled = v < 0 ? (double)v * 32768.0 : (double)v * 32767.0;
    long n = lround(scaled);
    return (int16_t)(n < -32768 ? -32768 : n > 32767 ? 32767 : n);
}

/* The headless backend queues a script's events this way (the window backend too, but
 * for pad events: it moves a real SDL virtual gamepad instead). */
void ear__script_event_queue(ear_runner *r, const ear_script_event *e) {
    switch (e->action) {
    case EAR_SCRIPT_DOWN: ear_runner_key_down(r, e->key); break;
    case EAR_SCRIPT_UP: ear_runner_key_up(r, e->key); break;
    case EAR_SCRIPT_PRESS:
        ear_runner_key_down(r, e->key);
        ear_runner_key_up(r, e->key);
        break;
    case EAR_SCRIPT_TEXT: ear_runner_text(r, e->text); break;
    case EAR_SCRIPT_FOCUS_LOST: ear_runner_focus_lost(r); break;
    case EAR_SCRIPT_FOCUS_GAINED: ear_runner_focus_gained(r); break;
    case EAR_SCRIPT_QUIT: ear_runner_close(r); break;
    case EAR_SCRIPT_PAD_CONNECT: ear_runner_pad_added(r, 0, true); break;
    case EAR_SCRIPT_PAD_DISCONNECT: ear_runner_pad_removed(r, 0); break;
    case EAR_SCRIPT_PAD_DOWN:
        ear_runner_pad_button(r, 0, (ear_pad_button)e->control, true);
        break;
    case EAR_SCRIPT_PAD_UP:
        ear_runner_pad_button(r, 0, (ear_pad_button)e->control, false);
        break;
    case EAR_SCRIPT_PAD_PRESS:
        ear_runner_pad_button(r, 0, (ear_pad_button)e->control, true);
        ear_runner_pad_button(r, 0, (ear_pad_button)e->control, false);
        break;
    case EAR_SCRIPT_PAD_AXIS:
        ear_runner_pad_axis(r, 0, (ear_pad_axis)e->control, ear__axis_raw(e->value));
        break;
    }
}

void ear_runner_queue_script_event(ear_runner *r, const ear_script_event *e) {
    if (r && e) ear__script_event_queue(r, e);
}
