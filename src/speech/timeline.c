/* SPDX-License-Identifier: Zlib */
/*
 * Speech takes time (speech.h): the timeline the game side keeps on the game thread. One
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
 *
 * A line whose backend reports (speech-dispatcher's BEGIN / END / CANCEL events; espeak-ng's
 * clip on the stage, whose start also moves the line's start and sets its length:
 * ear__timeline_began) is not ended by its estimate: its END report ends it whole at the
 * clock, its CUT report cuts it, and the lines after it start then. Should no report come (a
 * daemon that never answers), a guard ends it 3 times its estimate and 5 s after it began.
 */
#include "speech_internal.h"

#include <stdlib.h>
#include <string.h>

#define GUARD_TIMES 3.0 /* a reported line with no report ends after 3 estimates */
#define GUARD_S     5.0 /* and 5 s */

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
                             ear_speech_priority priority, bool again, bool reported,
                             double full_s, uint64_t *out_id) {
    ear__speech_line l = {0};
    l.text = ear__speech_copy(text, EAR_SPEECH_TEXT_MAX - 1);
    if (!l.text) return EAR_E_OUT_OF_MEMORY;
    l.priority = priority;
    l.again = again;
    l.reported = reported;
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
    if ((unsigned)priority > EAR_SPEECH_PROGRESS) {
        free(l.text);
        return EAR_E_INVALID_ARG;
    }
    l.id = ++tl->last_id;
    if (out_id) *out_id = l.id;
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

/* When the line being said ends by the clock: its estimate, or for a reported line the
 * guard (then it counts as said whole, in the estimate's time). */
static double end_of(const ear__speech_line *l) {
    return l->reported ? l->start_s + GUARD_TIMES * l->full_s + GUARD_S
                       : l->start_s + l->full_s;
}

void ear__timeline_advance(ear__speech_timeline *tl, double now_s) {
    if (!(now_s > tl->clock_s)) return;
    while (tl->now.text && end_of(&tl->now) <= now_s) {
        double end_s = end_of(&tl->now);
        tl->clock_s = end_s; /* what the listener sees starts and ends in order */
        emit(tl, EAR_SPEECH_EVENT_END, &tl->now, tl->now.start_s, tl->now.full_s);
        release(&tl->now);
        next(tl, end_s);
    }
    tl->clock_s = now_s;
    if (!tl->now.text) next(tl, now_s);
}

void ear__timeline_report(ear__speech_timeline *tl, uint64_t id, ear_speech_event_kind kind) {
    if (kind == EAR_SPEECH_EVENT_START || id == 0) return;
    if (tl->now.text && tl->now.id == id) {
        if (kind == EAR_SPEECH_EVENT_END) {
            double took = tl->clock_s - tl->now.start_s;
            tl->now.full_s = took > 0 ? took : 0; /* what it really took */
            emit(tl, EAR_SPEECH_EVENT_END, &tl->now, tl->now.start_s, tl->now.full_s);
            release(&tl->now);
        } else {
            cut_now(tl);
        }
        next(tl, tl->clock_s);
        return;
    }
    if (kind != EAR_SPEECH_EVENT_CUT) return;
    /* A waiting line the daemon dropped (its priority rules, another client's speech). */
    for (size_t i = 0; i < tl->wait_count; i++) {
        if (tl->wait[i].id != id) continue;
        drop(tl, &tl->wait[i]);
        memmove(tl->wait + i, tl->wait + i + 1, (tl->wait_count - i - 1) * sizeof *tl->wait);
        tl->wait_count--;
        return;
    }
    if (tl->progress.text && tl->progress.id == id) drop(tl, &tl->progress);
}

void ear__timeline_began(ear__speech_timeline *tl, uint64_t id, double full_s) {
    if (id == 0 || !tl->now.text || tl->now.id != id) return;
    tl->now.start_s = tl->clock_s;
    tl->now.full_s = full_s > 0 ? full_s : 0;
}

void ear__timeline_unreport(ear__speech_timeline *tl) {
    tl->now.reported = false;
    for (size_t i = 0; i < tl->wait_count; i++) tl->wait[i].reported = false;
    tl->progress.reported = false;
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
