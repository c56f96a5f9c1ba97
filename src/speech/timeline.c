/* SPDX-License-Identifier: Zlib */
/*
 * Speech takes time (speech.h): the timeline both outputs keep on the game thread. One
 * line is said at a time; the others wait in order. What a new line does follows SSIP's
 * priorities, as speech-dispatcher applies them and as espeak-ng on the stage does:
 *
 *   important (interrupt, characters, keys, repeats): cuts the line being said, drops
 *       everything waiting (the held-back progress too) and is said at once;
 *   message, text: drops waiting text, notifications and progress, cuts one being said,
 *       then waits its turn;
 *   notification: a newer one replaces one being said when nothing waits; dropped when
 *       anything else is said or waits;
 *   progress: said when all is silent, else held back (a newer one replaces it) and said
 *       when the rest is done.
 *
 * A waiting line starts exactly when the one before it ends (its end time, not the
 * frame's), so the times do not depend on how often advance is called. Every start, end
 * and cut goes to the listener with the words said by then. The estimate of a line's
 * length and the words said by a fraction of its time are here too (the console and the
 * web build time lines by the estimate).
 */
#include "speech_internal.h"

#include <stdlib.h>
#include <string.h>

const char *ear_speech_event_name(ear_speech_event_kind kind) {
    switch (kind) {
    case EAR_SPEECH_EVENT_START: return "start";
    case EAR_SPEECH_EVENT_END: return "end";
    case EAR_SPEECH_EVENT_CUT: return "cut";
    }
    return "unknown";
}

static bool is_word_char(unsigned char c) {
    /* ASCII letters and digits, and every byte of a multi-byte UTF-8 character (ä, ß). */
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c >= 0x80;
}

static int wpm_of(int rate) {
    /* -100 .. 0 .. 100 -> 80 .. 175 .. 450 words a minute (espeak-ng's scale). */
    if (rate < -100) rate = -100;
    if (rate > 100) rate = 100;
    return rate < 0 ? 175 + rate * 95 / 100 : 175 + rate * 275 / 100;
}

double ear_speech_estimate_s(const char *text, int rate) {
    if (!text) return 0;
    /* In words: a letter a fifth, a digit 1.25 (numbers are said digit group by group),
     * a comma, colon or semicolon inside the line a quarter, a sentence's end inside the
     * line one; fitted to espeak-ng's lengths of the demo's lines (docs/modules/speech.md). */
    double words = 0, pending = 0;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        unsigned char c = *p;
        if ((c & 0xC0) == 0x80) continue; /* inside a UTF-8 character */
        if (c >= '0' && c <= '9') {
            words += 1.25 + pending;
            pending = 0;
        } else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80) {
            words += 0.2 + pending;
            pending = 0;
        } else if (c == ',' || c == ':' || c == ';') {
            pending = 0.25; /* a pause only before more words */
        } else if (c == '.' || c == '!' || c == '?') {
            if (!(p[1] >= '0' && p[1] <= '9')) pending = 1; /* "31.2" is a number */
        }
    }
    double s = words * 60.0 / (double)wpm_of(rate);
    return s < 0.1 ? 0.1 : s;
}

size_t ear_speech_said_len(const char *text, double fraction) {
    if (!text) return 0;
    size_t len = strlen(text);
    if (!(fraction < 1)) return len;
    if (!(fraction > 0)) return 0;
    size_t chars = 0;
    for (size_t i = 0; i < len; i++)
        if (((unsigned char)text[i] & 0xC0) != 0x80) chars++;
    double limit = fraction * (double)chars;
    size_t said = 0, ch = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)text[i];
        if ((c & 0xC0) != 0x80) ch++; /* ch: characters up to and including this one */
        if ((double)ch > limit) break;
        bool ends_word =
            is_word_char(c) && (i + 1 == len || !is_word_char((unsigned char)text[i + 1]));
        /* a word's trailing punctuation goes with it ("Time 3.9." keeps its stop) */
        if (ends_word || (said == i && said > 0 && c != ' ')) said = i + 1;
    }
    return said;
}

/* ---- The timeline ---------------------------------------------------------------------- */

static void emit(ear__speech_timeline *tl, ear_speech_event_kind kind,
                 const ear__speech_line *l, double start_s, double said_s) {
    if (!tl->fn) return;
    ear_speech_event e;
    memset(&e, 0, sizeof e);
    e.kind = kind;
    e.text = l->text;
    e.priority = l->priority;
    e.again = l->again;
    e.start_s = start_s;
    e.full_s = l->full_s;
    e.said_s = said_s < 0 ? 0 : said_s > l->full_s ? l->full_s : said_s;
    e.said_len = kind == EAR_SPEECH_EVENT_END
                     ? strlen(l->text)
                     : ear_speech_said_len(l->text, l->full_s > 0 ? e.said_s / l->full_s : 1);
    tl->fn(tl->user, &e);
}

static void release(ear__speech_line *l) {
    free(l->text);
    memset(l, 0, sizeof *l);
}

/* The line being said, cut at the clock. */
static void cut_now(ear__speech_timeline *tl) {
    if (!tl->now.text) return;
    emit(tl, EAR_SPEECH_EVENT_CUT, &tl->now, tl->now.start_s, tl->clock_s - tl->now.start_s);
    release(&tl->now);
}

/* A line that never began: cut after 0 s, at the clock. */
static void drop(ear__speech_timeline *tl, ear__speech_line *l) {
    emit(tl, EAR_SPEECH_EVENT_CUT, l, tl->clock_s, 0);
    release(l);
}

static bool lower_than_message(ear_speech_priority p) {
    return p == EAR_SPEECH_TEXT || p == EAR_SPEECH_NOTIFICATION || p == EAR_SPEECH_PROGRESS;
}

static void drop_waiting(ear__speech_timeline *tl, bool only_lower) {
    size_t kept = 0;
    for (size_t i = 0; i < tl->wait_count; i++) {
        if (!only_lower || lower_than_message(tl->wait[i].priority))
            drop(tl, &tl->wait[i]);
        else
            tl->wait[kept++] = tl->wait[i];
    }
    tl->wait_count = kept;
}

static void begin(ear__speech_timeline *tl, ear__speech_line *l, double at_s) {
    tl->now = *l;
    tl->now.start_s = at_s;
    memset(l, 0, sizeof *l);
    emit(tl, EAR_SPEECH_EVENT_START, &tl->now, at_s, 0);
}

/* The next line, from at_s: the first waiting, else the held-back progress. */
static void next(ear__speech_timeline *tl, double at_s) {
    if (tl->wait_count) {
        ear__speech_line l = tl->wait[0];
        memmove(tl->wait, tl->wait + 1, (tl->wait_count - 1) * sizeof *tl->wait);
        tl->wait_count--;
        begin(tl, &l, at_s);
    } else if (tl->progress.text) {
        begin(tl, &tl->progress, at_s);
    }
}

static ear_result enqueue(ear__speech_timeline *tl, ear__speech_line *l) {
    if (tl->wait_count == tl->wait_cap) {
        size_t cap = tl->wait_cap ? tl->wait_cap * 2 : 8;
        ear__speech_line *grown = realloc(tl->wait, cap * sizeof *grown);
        if (!grown) return EAR_E_OUT_OF_MEMORY;
        tl->wait = grown;
        tl->wait_cap = cap;
    }
    tl->wait[tl->wait_count++] = *l;
    memset(l, 0, sizeof *l);
    return EAR_OK;
}

ear_result ear__timeline_say(ear__speech_timeline *tl, const char *text,
                             ear_speech_priority priority, bool again, double full_s) {
    ear__speech_line l = {0};
    l.text = ear__speech_copy(text, EAR_SPEECH_TEXT_MAX - 1);
    if (!l.text) return EAR_E_OUT_OF_MEMORY;
    l.priority = priority;
    l.again = again;
    l.full_s = full_s > 0 ? full_s : 0;
    if (tl->wait_count == tl->wait_cap && priority != EAR_SPEECH_INTERRUPT) {
        /* room first, so that running out of memory changes nothing */
        size_t cap = tl->wait_cap ? tl->wait_cap * 2 : 8;
        ear__speech_line *grown = realloc(tl->wait, cap * sizeof *grown);
        if (!grown) {
            free(l.text);
            return EAR_E_OUT_OF_MEMORY;
        }
        tl->wait = grown;
        tl->wait_cap = cap;
    }
    bool busy = tl->now.text || tl->wait_count;
    switch (priority) {
    case EAR_SPEECH_INTERRUPT:
        cut_now(tl);
        drop_waiting(tl, false);
        if (tl->progress.text) drop(tl, &tl->progress);
        begin(tl, &l, tl->clock_s);
        return EAR_OK;
    case EAR_SPEECH_MESSAGE:
    case EAR_SPEECH_TEXT:
        drop_waiting(tl, true);
        if (tl->now.text && lower_than_message(tl->now.priority)) cut_now(tl);
        if (!tl->now.text && !tl->wait_count) {
            begin(tl, &l, tl->clock_s);
            return EAR_OK;
        }
        return enqueue(tl, &l);
    case EAR_SPEECH_NOTIFICATION:
        if (tl->now.text && tl->now.priority == EAR_SPEECH_NOTIFICATION && !tl->wait_count) {
            cut_now(tl); /* a newer one replaces it */
            busy = false;
        }
        if (busy) {
            drop(tl, &l);
            return EAR_OK;
        }
        begin(tl, &l, tl->clock_s);
        return EAR_OK;
    case EAR_SPEECH_PROGRESS:
        if (busy) {
            if (tl->progress.text) drop(tl, &tl->progress);
            tl->progress = l;
            return EAR_OK;
        }
        begin(tl, &l, tl->clock_s);
        return EAR_OK;
    }
    free(l.text);
    return EAR_E_INVALID_ARG;
}

void ear__timeline_stop(ear__speech_timeline *tl) {
    cut_now(tl);
    drop_waiting(tl, false);
    if (tl->progress.text) drop(tl, &tl->progress);
}

void ear__timeline_advance(ear__speech_timeline *tl, double now_s) {
    if (!(now_s > tl->clock_s)) return;
    while (tl->now.text && tl->now.start_s + tl->now.full_s <= now_s) {
        double end_s = tl->now.start_s + tl->now.full_s;
        tl->clock_s = end_s; /* what the listener sees starts and ends in order */
        emit(tl, EAR_SPEECH_EVENT_END, &tl->now, tl->now.start_s, tl->now.full_s);
        release(&tl->now);
        next(tl, end_s);
    }
    tl->clock_s = now_s;
    if (!tl->now.text) next(tl, now_s);
}

bool ear__timeline_current(const ear__speech_timeline *tl, ear_speech_event *out) {
    if (!tl->now.text) return false;
    if (out) {
        memset(out, 0, sizeof *out);
        out->kind = EAR_SPEECH_EVENT_START;
        out->text = tl->now.text;
        out->priority = tl->now.priority;
        out->again = tl->now.again;
        out->start_s = tl->now.start_s;
        out->full_s = tl->now.full_s;
        double said = tl->clock_s - tl->now.start_s;
        out->said_s = said < 0 ? 0 : said > out->full_s ? out->full_s : said;
        out->said_len =
            ear_speech_said_len(out->text, out->full_s > 0 ? out->said_s / out->full_s : 1);
    }
    return true;
}

void ear__timeline_free(ear__speech_timeline *tl) {
    ear__timeline_stop(tl);
    free(tl->wait);
    tl->wait = NULL;
    tl->wait_count = tl->wait_cap = 0;
}

/* ---- The public face, the same for every output ---------------------------------------- */

void ear_speech_set_listener(ear_speech *sp, ear_speech_event_fn fn, void *user) {
    ear__speech_timeline *tl = ear__speech_timeline_of(sp);
    if (!tl) return;
    tl->fn = fn;
    tl->user = user;
}

void ear_speech_advance(ear_speech *sp, double now_s) {
    ear__speech_timeline *tl = ear__speech_timeline_of(sp);
    if (tl) ear__timeline_advance(tl, now_s);
}

bool ear_speech_speaking(const ear_speech *sp) {
    const ear__speech_timeline *tl = ear__speech_timeline_of_const(sp);
    return tl && ear__timeline_current(tl, NULL);
}

bool ear_speech_current(const ear_speech *sp, ear_speech_event *out) {
    const ear__speech_timeline *tl = ear__speech_timeline_of_const(sp);
    return tl && ear__timeline_current(tl, out);
}
