/* SPDX-License-Identifier: Zlib */
/*
 * What the two speech outputs share (speech.c natively, speech_web.c in the web build):
 * the history ring with its review cursor, the text rules for messages, characters and
 * keys, and the names. Each output's ear_speech embeds one ear__speech_history and
 * answers the two hooks below; history.c implements the history's public calls on top.
 */
#ifndef EARSHOT_SPEECH_INTERNAL_H
#define EARSHOT_SPEECH_INTERNAL_H

#include "earshot/speech.h"

/* The last EAR_SPEECH_HISTORY messages, oldest first from start (each its own
 * allocation), the review cursor (an index from the oldest; the newest after every
 * add) and the count of messages ever added. Zero-initialised is empty. Game thread. */
typedef struct ear__speech_history {
    char *items[EAR_SPEECH_HISTORY];
    size_t start, count, review;
    uint64_t total;
} ear__speech_history;

/* Frees every message; the history is empty afterwards. */
void ear__speech_history_clear(ear__speech_history *history);
/* Adds a copy of text (cut at EAR_SPEECH_TEXT_MAX - 1 bytes, never inside a UTF-8
 * character), dropping the oldest when full, and puts the cursor on it.
 * EAR_E_OUT_OF_MEMORY leaves the history as it was. */
ear_result ear__speech_history_add(ear__speech_history *history, const char *text);

/* The hooks each output defines: its history, and saying a history entry again at once
 * (interrupting, not added to the history). */
ear__speech_history *ear__speech_history_of(ear_speech *speech);
const ear__speech_history *ear__speech_history_of_const(const ear_speech *speech);
ear_result ear__speech_say_again(ear_speech *speech, const char *text);

/* A malloc'd copy of s cut at max bytes, never inside a UTF-8 character; NULL for a
 * NULL s or when memory runs out. */
char *ear__speech_copy(const char *s, size_t max);
/* The length in bytes of the UTF-8 character at s (1 to 4) and its code point in *cp
 * (when cp is not NULL), or 0 when s does not start with a valid one (NUL, overlong,
 * a surrogate, above U+10FFFF, cut short). */
size_t ear__speech_utf8_char(const char *s, uint32_t *cp);
/* ear_speech_say_char's argument: exactly one valid UTF-8 character, not a control. */
bool ear__speech_char_valid(const char *text);
/* ear_speech_say_key's argument: 1 to 64 bytes of valid UTF-8 with no space, control
 * character or '"'. */
bool ear__speech_key_valid(const char *key_name);

/* Writes one line of the console output or echo: to cfg->line_fn when set, else to
 * stdout with a newline (flushed). */
void ear__speech_write_line(const ear_speech_config *cfg, const char *text);

/* The timeline of what is being said (timeline.c; speech.h's "Speech takes time"): the
 * line being said (now.text NULL: silent), the lines waiting in order, the last progress
 * message held back, the clock and the listener. Zero-initialised is silent at 0 s.
 * Game thread. */
typedef struct ear__speech_line {
    char *text; /* owned */
    ear_speech_priority priority;
    bool again;
    double start_s, full_s;
} ear__speech_line;

typedef struct ear__speech_timeline {
    ear__speech_line now;
    ear__speech_line *wait;
    size_t wait_count, wait_cap;
    ear__speech_line progress; /* text NULL: none held back */
    double clock_s;
    ear_speech_event_fn fn;
    void *user;
} ear__speech_timeline;

/* A line of full_s seconds said now with priority (SSIP's rules, as speech-dispatcher
 * applies them); again: a repeat or history read. EAR_E_OUT_OF_MEMORY changes nothing. */
ear_result ear__timeline_say(ear__speech_timeline *tl, const char *text,
                             ear_speech_priority priority, bool again, double full_s);
/* Cuts the line being said and drops every waiting one. */
void ear__timeline_stop(ear__speech_timeline *tl);
void ear__timeline_advance(ear__speech_timeline *tl, double now_s);
bool ear__timeline_current(const ear__speech_timeline *tl, ear_speech_event *out);
/* The timeline of a speech object (each output's ear_speech holds one); NULL for NULL.
 * The public timeline calls in timeline.c reach it through this. */
ear__speech_timeline *ear__speech_timeline_of(ear_speech *sp);
const ear__speech_timeline *ear__speech_timeline_of_const(const ear_speech *sp);
/* Stops (reporting the cuts) and frees. */
void ear__timeline_free(ear__speech_timeline *tl);

#endif
