/* SPDX-License-Identifier: Zlib */
/*
 * The speech module's inside. One game side (speech.c) implements every public call
 * (priorities, the interrupt rule, history, repeat, the timeline, the duck) over a table
 * of backends (backends.c natively, backends_web.c in the web build): each backend is one
 * file that fills one ear__speech_backend (backend_dispatcher.c, backend_espeak.c,
 * backend_console.c, backend_web.c). A carrier runs the table: natively the speech
 * thread (thread.c), which opens the first backend that works, hands it every command
 * and fails over to the next when it goes away; in the web build direct.c, on the game
 * thread. A new backend (Windows' SAPI, say) is a new file with its ear__speech_backend
 * and its line in the table.
 *
 * The files call one way, each only into the files above it in this list:
 *
 *     text.c       names, UTF-8, what characters and keys are accepted, the console line
 *     history.c    the history ring and its review cursor
 *     timeline.c   what is being said and when; the estimate
 *     shared.c     what the game side and the carrier share under the object's lock:
 *                  the published output and voices, the clips ready for the stage, the
 *                  lines a backend reports
 *     clips.c      the game side of speech synthesised into memory: clips on the stage
 *     espeak_dl.c, espeak_time.c, braille.c              (native)
 *     backend_*.c  one backend each
 *     backends.c / backends_web.c    the table
 *     chain.c      opening the table's first backend that works, for either carrier
 *     thread.c / direct.c            the carrier
 *     speech.c     the public calls
 */
#ifndef EARSHOT_SPEECH_INTERNAL_H
#define EARSHOT_SPEECH_INTERNAL_H

#include "earshot/speech.h"

#include <pthread.h>
#include <stdatomic.h>

/* ---- text.c ---------------------------------------------------------------------------- */

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

/* What is said: a message, one character, or a key name. */
typedef enum ear__speech_say_kind {
    EAR__SAY_TEXT,
    EAR__SAY_CHAR,
    EAR__SAY_KEY
} ear__speech_say_kind;

/* The words a line is for a listener, a live region or the console: the text, a
 * character (" " as "space"), a key name with '_' as a space ("shift a") when words is
 * true (else as SSIP names it). Written into buf (size bytes) when it must change; the
 * returned pointer is text or buf. */
const char *ear__speech_shown(ear__speech_say_kind what, const char *text, bool words,
                              char *buf, size_t size);

/* ---- history.c ------------------------------------------------------------------------- */

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
/* The message at index (oldest first), or NULL out of range. */
const char *ear__speech_history_get(const ear__speech_history *history, size_t index);
/* Moves the cursor one older (back) or newer; at either end it stays. Returns the
 * message under the cursor (NULL for an empty history) and sets *at_end when it did not
 * move. */
const char *ear__speech_history_step(ear__speech_history *history, bool back, bool *at_end);

/* ---- timeline.c ------------------------------------------------------------------------ */

/* The timeline of what is being said (speech.h's "Speech takes time"): the line being
 * said (now.text NULL: silent), the lines waiting in order, the last progress message
 * held back, the clock and the listener. Zero-initialised is silent at 0 s. Each line
 * has an id (1, 2, ... in the order said). A reported line is one whose backend reports
 * when it ends (speech-dispatcher's events): the estimate does not end it, its END or
 * CUT report does (or, when no report ever comes, a guard: 3 times its estimate and 5 s
 * after it began). Game thread. */
typedef struct ear__speech_line {
    char *text; /* owned */
    ear_speech_priority priority;
    bool again;
    bool reported;
    uint64_t id;
    double start_s, full_s;
} ear__speech_line;

typedef struct ear__speech_timeline {
    ear__speech_line now;
    ear__speech_line *wait;
    size_t wait_count, wait_cap;
    ear__speech_line progress; /* text NULL: none held back */
    double clock_s;
    uint64_t last_id;
    ear_speech_event_fn fn;
    void *user;
} ear__speech_timeline;

/* A line of full_s seconds said now with priority (SSIP's rules, as speech-dispatcher
 * applies them); again: a repeat or history read; reported: see above. Its id goes to
 * *out_id (when not NULL). EAR_E_OUT_OF_MEMORY changes nothing. */
ear_result ear__timeline_say(ear__speech_timeline *tl, const char *text,
                             ear_speech_priority priority, bool again, bool reported,
                             double full_s, uint64_t *out_id);
/* Cuts the line being said and drops every waiting one. */
void ear__timeline_stop(ear__speech_timeline *tl);
void ear__timeline_advance(ear__speech_timeline *tl, double now_s);
/* A backend's report on line id, at the clock: EAR_SPEECH_EVENT_END ends it whole (its
 * length becomes what it took), EAR_SPEECH_EVENT_CUT cuts it (or drops it when it still
 * waits); START changes nothing (the timeline began it). A line no longer on the
 * timeline is left alone. */
void ear__timeline_report(ear__speech_timeline *tl, uint64_t id, ear_speech_event_kind kind);
/* A backend that knows when its audio begins and how long it lasts (espeak-ng's clip on
 * the stage): line id, when it is the one being said, began at the clock and lasts
 * full_s (its estimate replaced; its END or CUT report still ends it). Anything else is
 * left alone. */
void ear__timeline_began(ear__speech_timeline *tl, uint64_t id, double full_s);
/* Every line counts as not reported from now on (its backend went away). */
void ear__timeline_unreport(ear__speech_timeline *tl);
bool ear__timeline_current(const ear__speech_timeline *tl, ear_speech_event *out);
/* Stops (reporting the cuts) and frees. */
void ear__timeline_free(ear__speech_timeline *tl);

/* ---- The commands the game side gives the carrier -------------------------------------- */

typedef enum ear__speech_cmd_kind {
    EAR__CMD_SAY,
    EAR__CMD_STOP,
    EAR__CMD_VOICE,
    EAR__CMD_RATE,
    EAR__CMD_VOLUME,
    EAR__CMD_PUNCT
} ear__speech_cmd_kind;

typedef struct ear__speech_cmd {
    struct ear__speech_cmd *next;
    ear__speech_cmd_kind kind;
    ear__speech_say_kind what;
    ear_speech_priority priority;
    uint64_t epoch;
    uint64_t line; /* EAR__CMD_SAY: the timeline's line id */
    int value;     /* EAR__CMD_RATE, _VOLUME, _PUNCT */
    char *text;    /* EAR__CMD_SAY: the message, character or key; EAR__CMD_VOICE: the name */
} ear__speech_cmd;

/* A clip a backend synthesised, waiting for the game thread to play it on the stage: the
 * timeline's line it says (0: none) and its length in seconds (the samples the
 * synthesiser delivered). */
typedef struct ear__speech_clip {
    struct ear__speech_clip *next;
    ear_clip *clip;
    ear_speech_priority priority;
    uint64_t epoch;
    uint64_t line;
    double full_s;
} ear__speech_clip;

/* A backend's report that the daemon began, ended or cancelled its message msg_id. */
typedef struct ear__speech_report {
    uint64_t msg_id;
    ear_speech_event_kind kind;
} ear__speech_report;

/* Which timeline line a backend's message id says. */
typedef struct ear__speech_sent {
    uint64_t msg_id, line;
} ear__speech_sent;

/* ---- The object ------------------------------------------------------------------------ */

struct ear__speech_backend;

struct ear_speech {
    ear_speech_config cfg;
    char *client_name, *socket, *voice, *braille_host;
    /* Game side (speech.c, clips.c). */
    ear__speech_history history;
    bool mute;
    uint64_t epoch;
    ear__speech_timeline timeline;
    int timing_rate;   /* the rate lines are timed at */
    char language[16]; /* the language lines are timed in */
    ear_voice_id stage_voice;
    ear_speech_priority stage_priority;            /* of the voice on the stage */
    uint64_t stage_line;                           /* the timeline's line it says */
    ear__speech_clip *pending_head, *pending_tail; /* clips waiting their turn */
    ear__speech_clip *deferred_progress;           /* the last progress clip held back */
    ear_speech_output reports_output;              /* the output lines were reported to */
    /* Shared with the carrier, under lock (shared.c). */
    pthread_mutex_t lock;
    pthread_cond_t cond;
    ear__speech_cmd *cmd_head, *cmd_tail;
    ear__speech_clip *ready_head, *ready_tail;
    bool published;
    ear_speech_output output;
    const struct ear__speech_backend *backend; /* the one in use, once published */
    char **voices;
    size_t voice_count;
    char **old_voices; /* the list before a fail-over, kept for names handed out */
    size_t old_voice_count;
    bool braille, braille_checked;
    ear__speech_report *reports;
    size_t report_count, report_cap;
    ear__speech_sent *sent;
    size_t sent_count, sent_cap;
    /* The carrier (thread.c; direct.c keeps its backend in carrier). */
    void *carrier;
    bool thread_started;
    bool quitting; /* under lock: the thread ends once it sees it */
    pthread_t thread;
    atomic_uint_fast64_t latest_epoch;
    atomic_uint_fast64_t delivered;
    atomic_bool echo;
};

/* ---- shared.c -------------------------------------------------------------------------- */

/* The carrier chose an output (a fail-over too): its backend, kind and voice names
 * (taken; the list before stays alive until destroy). Wakes whoever waits for it. */
void ear__speech_publish(ear_speech *sp, const struct ear__speech_backend *backend,
                         ear_speech_output output, char **voices, size_t count);
/* Waits (lock held) until the carrier published, at most timeout_s. */
void ear__speech_wait_published(ear_speech *sp, double timeout_s);
/* A clip for the stage (taken), from the thread, saying the timeline's line (0: none) in
 * full_s seconds; the game plays it at its next update. */
void ear__speech_hand_clip(ear_speech *sp, ear_clip *clip, ear_speech_priority priority,
                           uint64_t epoch, uint64_t line, double full_s);
/* The backend sent line as its message msg_id (the thread). */
void ear__speech_note_sent(ear_speech *sp, uint64_t msg_id, uint64_t line);
/* The backend's daemon began, ended or cancelled msg_id (any thread; takes only the
 * object's lock, calls nothing that waits). */
void ear__speech_note_report(ear_speech *sp, uint64_t msg_id, ear_speech_event_kind kind);
/* Game thread: whether the output in use reports on its lines (false before the carrier
 * published). When the output changed since the last call, every line on the timeline
 * counts as not reported from now on (the lines reported to an output that is gone hear
 * nothing more). */
bool ear__speech_reporting(ear_speech *sp);
/* Game thread: hands every report whose message is known to the timeline, at its clock;
 * a report on a message not yet noted as sent waits for the next call. Follows the
 * output as ear__speech_reporting does. */
void ear__speech_take_reports(ear_speech *sp);
/* Frees the lists (destroy, after the carrier ended). */
void ear__speech_shared_free(ear_speech *sp);

/* ---- clips.c: speech synthesised into memory, played on the stage --------------------- */

/* Takes the clips handed since the last call and plays the next one that may be said
 * (SSIP's rules on the stage, see speech.h). Game thread. */
void ear__speech_clips_update(ear_speech *sp);
/* Stops the voice on the stage and drops what waits (an interrupt, a stop). */
void ear__speech_clips_drop(ear_speech *sp);
void ear__speech_clips_free(ear_speech *sp);

/* ---- The backends ---------------------------------------------------------------------- */

/* What a backend's call did: the output took it, refused it (logged), skipped it (a line
 * an interrupt or a stop made stale before it was said: not delivered), or is gone (the
 * carrier fails over to the next backend). */
typedef enum ear__speech_sent_result {
    EAR__SENT_OK = 0,
    EAR__SENT_REFUSED,
    EAR__SENT_SKIPPED,
    EAR__SENT_GONE
} ear__speech_sent_result;

/* One output. Every call runs on the carrier's thread (the speech thread natively; the
 * game thread in the web build), one at a time; state is the backend's own. */
typedef struct ear__speech_backend {
    const char *name; /* in logs: "speech-dispatcher" */
    ear_speech_output output;
    /* Whether it may be tried with this config (its skip flag, a stage it needs); NULL:
     * always. */
    bool (*usable)(const ear_speech_config *cfg);
    /* Opens it; false when it is not there (it has logged why). Its voice names go to
     * *voices / *count (malloc'd, taken; NULL / 0 for none). NULL: it always opens, with
     * no state and no voices. */
    bool (*open)(ear_speech *sp, void **state, char ***voices, size_t *count);
    void (*close)(ear_speech *sp, void *state); /* NULL: nothing to close */
    /* Says c (EAR__CMD_SAY): interrupting when c->priority is EAR_SPEECH_INTERRUPT or
     * c->what is not text. */
    ear__speech_sent_result (*say)(ear_speech *sp, void *state, const ear__speech_cmd *c);
    /* EAR__CMD_STOP, _VOICE, _RATE, _VOLUME, _PUNCT (NULL: none apply). */
    ear__speech_sent_result (*apply)(ear_speech *sp, void *state, const ear__speech_cmd *c);
    /* Asked four times a second while idle: false when the output went away (NULL: it
     * never does). */
    bool (*alive)(ear_speech *sp, void *state);
    /* Flags. replays: when it goes away, the last line it took within 10 s is said again
     * by the next backend (it was most likely still being said). reports: it reports
     * when each line begins, ends and is cut (ear__speech_note_sent / _report), so the
     * timeline follows it instead of the estimate. players_rate: lines are timed at the
     * normal rate (0), in no language: the player's own screen reader sets them. */
    bool replays, reports, players_rate;
} ear__speech_backend;

extern const ear__speech_backend ear__speech_backend_dispatcher;
extern const ear__speech_backend ear__speech_backend_espeak;
extern const ear__speech_backend ear__speech_backend_console;
extern const ear__speech_backend ear__speech_backend_web;
extern const ear__speech_backend ear__speech_backend_nvda; /* Windows */
extern const ear__speech_backend ear__speech_backend_sapi; /* Windows */

/* The table (backends.c / backends_web.c): the chain in the order it is tried, ended by
 * NULL; the last entry always opens. */
extern const ear__speech_backend *const ear__speech_chain[];

/* Opens the first backend of the chain from index `from` on that is usable and opens
 * (the last one is tried whatever usable says) and publishes it: its index in the chain
 * goes to *index and its state to *state. NULL when none opened. (chain.c) */
const ear__speech_backend *ear__speech_open_chain(ear_speech *sp, size_t from, size_t *index,
                                                  void **state);
/* Closes what ear__speech_open_chain opened (nothing for NULL). */
void ear__speech_close_backend(ear_speech *sp, const ear__speech_backend *b, void *state);

#ifdef _WIN32
#include <wchar.h>
/* text as UTF-16 for the Windows backends (malloc'ed); NULL when it is not valid UTF-8 or
 * memory runs out. (backends_win.c) */
wchar_t *ear__speech_wide(const char *text);
#endif

/* How a headless run (log_only) times a line, in the table's file: espeak-ng's length
 * (espeak_time.c) natively, none in the web build (NULL: the estimate). */
typedef bool (*ear__speech_timer_fn)(const char *text, int rate, const char *voice,
                                     double *out_s);
extern const ear__speech_timer_fn ear__speech_log_timer;

/* ---- The carrier (thread.c natively, direct.c on the web) ------------------------------ */

/* Starts it (not for log_only). EAR_E_STATE: it could not start. */
ear_result ear__speech_carrier_start(ear_speech *sp);
/* Hands it a command (taken, also on failure). */
void ear__speech_carrier_send(ear_speech *sp, ear__speech_cmd *c);
/* Drops what waits and ends it (destroy). */
void ear__speech_carrier_stop(ear_speech *sp);

#endif
