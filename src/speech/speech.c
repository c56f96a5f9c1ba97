/* SPDX-License-Identifier: Zlib */
/*
 * Speech. The game thread owns the history (a ring of the last 100 messages, each its
 * own allocation, with a review cursor), mute, and the espeak-ng voice on the stage
 * together with the clips waiting for it. The speech thread owns the output (a
 * libspeechd connection, or espeak-ng's synthesis) and the braille display (a BrlAPI
 * handle). They share, under one mutex:
 *
 *   - the command queue (a linked list, game -> thread): say (text, character or key,
 *     with its priority), stop, voice, rate, volume, punctuation, quit;
 *   - the ready queue (thread -> game): clips espeak-ng has synthesised, with the epoch
 *     and priority of the message they speak;
 *   - what the thread published: its output, voice names and whether braille is on.
 *
 * Epochs make interruption cheap: every interrupting message and every stop increments
 * the game's epoch, and anything older (a queued message not yet spoken, a clip not yet
 * played) is dropped wherever it is found. The console has nothing to interrupt and
 * prints every message.
 *
 * speech-dispatcher is used in libspeechd's single mode: every call is answered on the
 * speech thread, so there is no reader thread to race with when the daemon dies. While
 * idle the thread looks at the socket four times a second (poll, no read: in single
 * mode the daemon sends nothing unasked, so a readable socket is a closed one); a send
 * that fails is the other way a death is seen. Then the thread says the message again
 * on espeak-ng (or the console) and stays there. libspeechd keeps static command
 * buffers, so one process-wide mutex serialises its calls (several speech objects may
 * live in one process, as in the tests).
 *
 * espeak-ng's library keeps global state, so one process-wide mutex serialises its use
 * and it is initialised once (AUDIO_OUTPUT_SYNCHRONOUS: espeak_Synth returns when the
 * samples have been handed to the callback, which collects them into memory). It is
 * loaded at run time (espeak_dl.h: GPL-3+, so never linked); absent, the loader says so
 * in one line and the speech falls to the console after speech-dispatcher.
 */
#define _GNU_SOURCE /* POLLRDHUP */
#include "espeak_dl.h"
#include "espeak_time.h"
#include "speech_internal.h"

#include <speech-dispatcher/libspeechd.h>
#include <brlapi.h>

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

typedef enum cmd_kind {
    CMD_SAY,
    CMD_STOP,
    CMD_VOICE,
    CMD_RATE,
    CMD_VOLUME,
    CMD_PUNCT,
    CMD_QUIT
} cmd_kind;

typedef enum say_kind { SAY_TEXT, SAY_CHAR, SAY_KEY } say_kind;

typedef struct cmd {
    struct cmd *next;
    cmd_kind kind;
    say_kind what;
    ear_speech_priority priority;
    uint64_t epoch;
    int value;  /* CMD_RATE, CMD_VOLUME, CMD_PUNCT */
    char *text; /* CMD_SAY: the message, character or key; CMD_VOICE: the voice name */
} cmd;

typedef struct ready_clip {
    struct ready_clip *next;
    ear_clip *clip;
    ear_speech_priority priority;
    uint64_t epoch;
} ready_clip;

struct ear_speech {
    ear_speech_config cfg;
    char *client_name, *socket, *voice, *braille_host;
    /* Game side. */
    ear__speech_history history;
    bool mute;
    uint64_t epoch;
    ear_voice_id stage_voice;
    ear_speech_priority stage_priority;      /* of the voice on the stage */
    ready_clip *pending_head, *pending_tail; /* clips waiting their turn on the stage */
    ready_clip *deferred_progress;           /* the last progress message held back */
    ear__speech_timeline timeline;           /* what is being said, and when */
    int timing_rate;                         /* the rate lines are timed at */
    char language[16];                       /* the language lines are timed in */
    /* Shared. */
    pthread_mutex_t lock;
    pthread_cond_t cond;
    cmd *cmd_head, *cmd_tail;
    ready_clip *ready_head, *ready_tail;
    bool published;
    ear_speech_output output;
    char **voices;
    size_t voice_count;
    char **old_voices; /* the list before a fail-over, kept for names handed out */
    size_t old_voice_count;
    bool braille, braille_checked;
    bool thread_started;
    pthread_t thread;
    atomic_uint_fast64_t latest_epoch;
    atomic_uint_fast64_t delivered;
    atomic_bool echo;
};

/* What a line shows for a message: the text, or a character (" " as "space"), or a
 * key name. */
static const char *shown_text(const cmd *c) {
    return c->what == SAY_CHAR && strcmp(c->text, " ") == 0 ? "space" : c->text;
}

static int clamp100(int v) {
    return v < -100 ? -100 : v > 100 ? 100 : v;
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- espeak-ng, process-wide ----------------------------------------------------------- */

/* The lock and the initialisation are shared with the timing of lines (espeak_time.c). */
#define espeak_lock ear__espeak_lock
/* The library's functions once espeak_ready has found them (NULL: absent). Every es->
 * call below runs with espeak_lock held, after espeak_ready said yes. */
static const ear__espeak_table *es;

typedef struct pcm_buf {
    float *data;
    size_t count, capacity;
    bool failed;
} pcm_buf;

/* Where the synthesis callback writes: set under espeak_lock for each synthesis
 * (espeak_Char and espeak_Key take no user data). */
static pcm_buf *espeak_target;

static int espeak_collect(short *wav, int n, espeak_EVENT *events) {
    (void)events;
    pcm_buf *b = espeak_target;
    if (!b || !wav || n <= 0) return 0;
    if (b->count + (size_t)n > b->capacity) {
        size_t cap = b->capacity ? b->capacity * 2 : 22050;
        while (cap < b->count + (size_t)n) cap *= 2;
        float *grown = realloc(b->data, cap * sizeof *grown);
        if (!grown) {
            b->failed = true;
            return 1; /* stop synthesis */
        }
        b->data = grown;
        b->capacity = cap;
    }
    for (int i = 0; i < n; i++) b->data[b->count++] = (float)wav[i] / 32768.0f;
    return 0;
}

/* Called with espeak_lock held. False when the library is absent (*absent set; the
 * loader has said so) or could not start. */
static bool espeak_ready(bool *absent) {
    int rate = ear__espeak_start();
    es = ear__espeak_api();
    *absent = es == NULL;
    return rate > 0 && es;
}

static int espeak_wpm(int rate) {
    /* -100 .. 0 .. 100 -> 80 .. 175 .. 450 words a minute. */
    return rate < 0 ? 175 + rate * 95 / 100 : 175 + rate * 275 / 100;
}

/* Called with espeak_lock held. */
static void espeak_punctuation(int p) {
    static const wchar_t some[] = L"#$%&*+/<=>@\\^_|~";
    static const wchar_t most[] = L"#$%&*+/<=>@\\^_|~()[]{}\"':;-";
    switch ((ear_speech_punctuation)p) {
    case EAR_SPEECH_PUNCT_PLAYER:
    case EAR_SPEECH_PUNCT_NONE: es->SetParameter(espeakPUNCTUATION, espeakPUNCT_NONE, 0); break;
    case EAR_SPEECH_PUNCT_SOME:
        es->SetPunctuationList(some);
        es->SetParameter(espeakPUNCTUATION, espeakPUNCT_SOME, 0);
        break;
    case EAR_SPEECH_PUNCT_MOST:
        es->SetPunctuationList(most);
        es->SetParameter(espeakPUNCTUATION, espeakPUNCT_SOME, 0);
        break;
    case EAR_SPEECH_PUNCT_ALL: es->SetParameter(espeakPUNCTUATION, espeakPUNCT_ALL, 0); break;
    }
}

/* Synthesises a message, character or key into a new clip (NULL on failure). */
static ear_clip *espeak_clip(const cmd *c) {
    pcm_buf b = {0};
    pthread_mutex_lock(&espeak_lock);
    espeak_target = &b;
    es->SetSynthCallback(espeak_collect); /* the timing sets its own */
    espeak_ERROR err = EE_INTERNAL_ERROR;
    uint32_t cp = 0;
    if (c->what == SAY_CHAR && ear__speech_utf8_char(c->text, &cp) > 0) {
        /* "capital" before a capital letter, as screen readers spell. */
        es->SetParameter(espeakCAPITALS, 2, 0);
        err = es->Char((wchar_t)cp);
        es->SetParameter(espeakCAPITALS, 0, 0);
    } else if (c->what == SAY_KEY) {
        char words[128];
        snprintf(words, sizeof words, "%s", c->text);
        for (char *p = words; *p; p++)
            if (*p == '_') *p = ' '; /* "shift_a" -> "shift a" */
        err = es->Synth(words, strlen(words) + 1, 0, POS_CHARACTER, 0, espeakCHARS_UTF8, NULL,
                        NULL);
    } else {
        err = es->Synth(c->text, strlen(c->text) + 1, 0, POS_CHARACTER, 0, espeakCHARS_UTF8,
                        NULL, NULL);
    }
    espeak_target = NULL;
    int rate = ear__espeak_start();
    pthread_mutex_unlock(&espeak_lock);
    ear_clip *clip = NULL;
    if (err == EE_OK && !b.failed && b.count > 0)
        ear_clip_create(b.data, b.count, 1, (uint32_t)rate, NULL, &clip);
    free(b.data);
    return clip;
}

/* ---- The speech thread ------------------------------------------------------------------ */

/* libspeechd writes its commands into static buffers: one caller at a time. */
static pthread_mutex_t spd_lock = PTHREAD_MUTEX_INITIALIZER;

typedef struct thread_out {
    ear_speech_output kind;
    SPDConnection *spd;
    cmd last;         /* the last message given to speech-dispatcher (text owned) */
    double last_at_s; /* when */
    brlapi_handle_t *brl;
    unsigned int brl_cells;
    char *brl_text;    /* the message on the display (owned) */
    size_t brl_offset; /* the first character shown */
} thread_out;

/* How long after the last message a death of the daemon makes it be said again on the
 * next output: it was most likely still being said (or waiting) when the daemon died. */
#define REPLAY_WINDOW_S 10.0

static void publish(ear_speech *sp, ear_speech_output out, char **voices, size_t count) {
    pthread_mutex_lock(&sp->lock);
    if (sp->published && sp->voices) {
        /* A fail-over: names handed out stay valid until destroy. */
        for (size_t i = 0; i < sp->old_voice_count; i++) free(sp->old_voices[i]);
        free(sp->old_voices);
        sp->old_voices = sp->voices;
        sp->old_voice_count = sp->voice_count;
    }
    sp->output = out;
    sp->voices = voices;
    sp->voice_count = count;
    sp->published = true;
    pthread_cond_broadcast(&sp->cond);
    pthread_mutex_unlock(&sp->lock);
}

static int spd_punct_command(SPDConnection *c, int p) {
    const char *name = ear_speech_punctuation_name((ear_speech_punctuation)p);
    char command[64];
    snprintf(command, sizeof command, "SET SELF PUNCTUATION %s", name);
    return spd_execute_command(c, command);
}

static bool open_dispatcher(ear_speech *sp, thread_out *out) {
    SPDConnectionAddress addr;
    memset(&addr, 0, sizeof addr);
    SPDConnectionAddress *use = NULL;
    if (sp->socket) {
        addr.method = SPD_METHOD_UNIX_SOCKET;
        addr.unix_socket_name = sp->socket;
        use = &addr;
    }
    char *err = NULL;
    pthread_mutex_lock(&spd_lock);
    SPDConnection *c = spd_open2(sp->client_name, "main", NULL, SPD_MODE_SINGLE, use,
                                 sp->cfg.dispatcher_autospawn ? 1 : 0, &err);
    if (!c) {
        pthread_mutex_unlock(&spd_lock);
        ear_log(EAR_LOG_INFO, "speech",
                "speech-dispatcher not reachable (%s); trying espeak-ng",
                err ? err : "no connection");
        free(err);
        return false;
    }
    free(err);
    /* A daemon that stops answering must not hang the thread: after 5 s a read or a
     * write fails, which counts as the daemon's death. */
    struct timeval tv = {5, 0};
    setsockopt(c->socket, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(c->socket, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    /* Only what the game set; the rest stays the player's. */
    if (sp->voice) spd_set_synthesis_voice(c, sp->voice);
    if (sp->cfg.use_rate) spd_set_voice_rate(c, sp->cfg.rate);
    if (sp->cfg.use_volume) spd_set_volume(c, sp->cfg.volume);
    if (sp->cfg.punctuation != EAR_SPEECH_PUNCT_PLAYER)
        spd_punct_command(c, (int)sp->cfg.punctuation);
    size_t n = 0;
    char **names = NULL;
    SPDVoice **list = spd_list_synthesis_voices(c);
    pthread_mutex_unlock(&spd_lock);
    if (list) {
        while (list[n]) n++;
        names = calloc(n ? n : 1, sizeof *names);
        for (size_t i = 0; names && i < n; i++) names[i] = ear__speech_copy(list[i]->name, 256);
        free_spd_voices(list);
        if (!names) n = 0;
    }
    out->spd = c;
    out->kind = EAR_SPEECH_OUTPUT_DISPATCHER;
    publish(sp, out->kind, names, n);
    return true;
}

static void close_dispatcher(thread_out *out) {
    if (!out->spd) return;
    pthread_mutex_lock(&spd_lock);
    /* When libspeechd saw the socket break it has fclose'd the stream, which closed
     * the descriptor; spd_close would close that number again (maybe someone else's
     * by now). */
    if (!out->spd->stream) out->spd->socket = -1;
    spd_close(out->spd);
    pthread_mutex_unlock(&spd_lock);
    out->spd = NULL;
    free(out->last.text);
    out->last.text = NULL;
}

/* True when the daemon's end of the socket is gone. In single mode nothing arrives
 * unasked, so a readable socket is a closed one (or a daemon gone wrong). */
static bool dispatcher_dead(thread_out *out) {
    if (!out->spd || !out->spd->stream) return true;
    struct pollfd p = {.fd = out->spd->socket, .events = POLLIN | POLLRDHUP};
    if (poll(&p, 1, 0) <= 0) return false;
    return (p.revents & (POLLIN | POLLRDHUP | POLLHUP | POLLERR | POLLNVAL)) != 0;
}

static bool open_espeak(ear_speech *sp, thread_out *out) {
    pthread_mutex_lock(&espeak_lock);
    bool absent;
    bool ok = espeak_ready(&absent);
    char **names = NULL;
    size_t n = 0;
    if (ok) {
        if (sp->voice) es->SetVoiceByName(sp->voice);
        es->SetParameter(espeakRATE, espeak_wpm(sp->cfg.use_rate ? sp->cfg.rate : 0), 0);
        es->SetParameter(espeakVOLUME, 100 + (sp->cfg.use_volume ? sp->cfg.volume : 0), 0);
        espeak_punctuation((int)sp->cfg.punctuation);
        const espeak_VOICE **list = es->ListVoices(NULL);
        while (list && list[n]) n++;
        names = calloc(n ? n : 1, sizeof *names);
        for (size_t i = 0; names && i < n; i++) names[i] = ear__speech_copy(list[i]->name, 256);
        if (!names) n = 0;
    }
    pthread_mutex_unlock(&espeak_lock);
    if (!ok) {
        /* Absent, the loader's one line has said it already. */
        if (!absent)
            ear_log(EAR_LOG_INFO, "speech", "espeak-ng could not start; using the console");
        return false;
    }
    out->kind = EAR_SPEECH_OUTPUT_ESPEAK;
    publish(sp, out->kind, names, n);
    return true;
}

/* After speech-dispatcher: espeak-ng when there is a stage, else the console. */
static void open_fallback(ear_speech *sp, thread_out *out) {
    if (!sp->cfg.skip_espeak && sp->cfg.stage && open_espeak(sp, out)) return;
    out->kind = EAR_SPEECH_OUTPUT_CONSOLE;
    publish(sp, out->kind, NULL, 0);
}

/* ---- Braille (BrlAPI) ---- */

static void open_braille(ear_speech *sp, thread_out *out) {
    if (sp->cfg.skip_braille) return;
    brlapi_handle_t *h = malloc(brlapi_getHandleSize());
    if (!h) return;
    brlapi_connectionSettings_t want = {.auth = NULL, .host = sp->braille_host};
    unsigned int x = 0, y = 0;
    if (brlapi__openConnection(h, &want, NULL) < 0) {
        free(h);
        return; /* no brltty: nothing to show on */
    }
    if (brlapi__getDisplaySize(h, &x, &y) < 0 || x == 0 ||
        brlapi__enterTtyModeWithPath(h, NULL, 0, NULL) < 0) {
        ear_log(EAR_LOG_INFO, "speech", "brltty answered but offers no display (%s)",
                brlapi_strerror(&brlapi_error));
        brlapi__closeConnection(h);
        free(h);
        return;
    }
    out->brl = h;
    out->brl_cells = x * (y ? y : 1);
}

/* Writes the window of the message on the display: as many characters as it has
 * cells, from brl_offset. */
static void write_braille(thread_out *out) {
    if (!out->brl || !out->brl_text) return;
    const char *text = out->brl_text;
    size_t start = 0, skipped = 0;
    while (text[start] && skipped < out->brl_offset) {
        size_t n = ear__speech_utf8_char(text + start, NULL);
        if (n == 0) break;
        start += n;
        skipped++;
    }
    size_t bytes = 0, chars = 0;
    while (text[start + bytes] && chars < out->brl_cells) {
        size_t n = ear__speech_utf8_char(text + start + bytes, NULL);
        if (n == 0) break;
        bytes += n;
        chars++;
    }
    const char *window = text + start;
    if (chars == 0) {
        window = " ";
        bytes = chars = 1;
    }
    brlapi_writeArguments_t w = BRLAPI_WRITEARGUMENTS_INITIALIZER;
    w.regionBegin = 1;
    w.regionSize = -(int)chars; /* the rest of the display is blanked */
    w.text = window;
    w.textSize = (int)bytes;
    w.cursor = BRLAPI_CURSOR_OFF;
    w.charset = "UTF-8";
    if (brlapi__write(out->brl, &w) < 0) {
        ear_log(EAR_LOG_WARN, "speech", "the braille display went away (%s)",
                brlapi_strerror(&brlapi_error));
        brlapi__closeConnection(out->brl);
        free(out->brl);
        out->brl = NULL;
    }
}

/* Shows a message from its start. */
static void show_braille(thread_out *out, const char *text) {
    if (!out->brl) return;
    char *copy = ear__speech_copy(text, EAR_SPEECH_TEXT_MAX - 1);
    if (!copy) return;
    free(out->brl_text);
    out->brl_text = copy;
    out->brl_offset = 0;
    write_braille(out);
}

/* The display's panning keys (brltty's FWINRT / FWINLT, "full window right / left")
 * move through a message longer than the display; HOME and TOP go back to its start.
 * Other keys are left alone. */
static void braille_keys(thread_out *out) {
    brlapi_keyCode_t code;
    while (out->brl && brlapi__readKey(out->brl, 0, &code) > 0) {
        if ((code & BRLAPI_KEY_TYPE_MASK) != BRLAPI_KEY_TYPE_CMD || !out->brl_text) continue;
        brlapi_keyCode_t cmd_code = code & BRLAPI_KEY_CODE_MASK;
        size_t length = 0;
        for (size_t i = 0; out->brl_text[i];) {
            size_t n = ear__speech_utf8_char(out->brl_text + i, NULL);
            if (n == 0) break;
            i += n;
            length++;
        }
        size_t before = out->brl_offset;
        if (cmd_code == BRLAPI_KEY_CMD_FWINRT && out->brl_offset + out->brl_cells < length)
            out->brl_offset += out->brl_cells;
        else if (cmd_code == BRLAPI_KEY_CMD_FWINLT)
            out->brl_offset =
                out->brl_offset > out->brl_cells ? out->brl_offset - out->brl_cells : 0;
        else if (cmd_code == BRLAPI_KEY_CMD_HOME || cmd_code == BRLAPI_KEY_CMD_TOP)
            out->brl_offset = 0;
        if (out->brl_offset != before) write_braille(out);
    }
}

static void close_braille(thread_out *out) {
    free(out->brl_text);
    out->brl_text = NULL;
    if (!out->brl) return;
    brlapi__leaveTtyMode(out->brl);
    brlapi__closeConnection(out->brl);
    free(out->brl);
    out->brl = NULL;
}

/* ---- Delivering ---- */

static SPDPriority ssip_priority(ear_speech_priority p) {
    switch (p) {
    case EAR_SPEECH_INTERRUPT: return SPD_IMPORTANT;
    case EAR_SPEECH_MESSAGE: return SPD_MESSAGE;
    case EAR_SPEECH_TEXT: return SPD_TEXT;
    case EAR_SPEECH_NOTIFICATION: return SPD_NOTIFICATION;
    case EAR_SPEECH_PROGRESS: return SPD_PROGRESS;
    }
    return SPD_MESSAGE;
}

/* Sends one message to speech-dispatcher; false when the daemon did not take it. */
static bool dispatcher_say(thread_out *out, const cmd *c) {
    pthread_mutex_lock(&spd_lock);
    SPDConnection *s = out->spd;
    bool interrupt = c->priority == EAR_SPEECH_INTERRUPT || c->what != SAY_TEXT;
    bool ok = true;
    if (interrupt) ok = spd_cancel(s) == 0;
    if (ok) {
        SPDPriority prio = interrupt ? SPD_IMPORTANT : ssip_priority(c->priority);
        switch (c->what) {
        case SAY_TEXT: ok = spd_say(s, prio, c->text) >= 0; break;
        case SAY_CHAR:
            ok = spd_char(s, prio, strcmp(c->text, " ") == 0 ? "space" : c->text) == 0;
            break;
        case SAY_KEY: ok = spd_key(s, prio, c->text) == 0; break;
        }
    }
    pthread_mutex_unlock(&spd_lock);
    return ok;
}

static void remember_sent(thread_out *out, const cmd *c) {
    char *copy = ear__speech_copy(c->text, EAR_SPEECH_TEXT_MAX - 1);
    if (!copy) return;
    free(out->last.text);
    out->last = *c;
    out->last.next = NULL;
    out->last.text = copy;
    out->last_at_s = now_s();
}

static void deliver(ear_speech *sp, thread_out *out, cmd *c);

/* speech-dispatcher went away: close it, take the next output, and say again what
 * it may not have said (the message that failed, or the last one if it was recent). */
static void fail_over(ear_speech *sp, thread_out *out, cmd *failed) {
    cmd last = out->last;
    double age_s = now_s() - out->last_at_s;
    out->last.text = NULL; /* keep it past close_dispatcher */
    close_dispatcher(out);
    open_fallback(sp, out);
    ear_log(EAR_LOG_WARN, "speech", "speech-dispatcher went away; speaking with %s from now on",
            ear_speech_output_name(out->kind));
    if (failed) {
        deliver(sp, out, failed);
    } else if (last.text && age_s < REPLAY_WINDOW_S) {
        deliver(sp, out, &last);
    }
    free(last.text);
}

static void deliver(ear_speech *sp, thread_out *out, cmd *c) {
    bool stale = c->epoch < atomic_load(&sp->latest_epoch);
    switch (out->kind) {
    case EAR_SPEECH_OUTPUT_DISPATCHER:
        if (stale) return;
        if (!dispatcher_say(out, c)) {
            if (dispatcher_dead(out)) {
                fail_over(sp, out, c);
                return;
            }
            ear_log(EAR_LOG_WARN, "speech", "speech-dispatcher refused a message (\"%.40s\")",
                    c->text);
        } else {
            remember_sent(out, c);
        }
        break;
    case EAR_SPEECH_OUTPUT_ESPEAK: {
        if (stale) return;
        ear_clip *clip = espeak_clip(c);
        if (!clip) {
            ear_log(EAR_LOG_WARN, "speech", "espeak-ng could not say a message");
            break;
        }
        ready_clip *rc = calloc(1, sizeof *rc);
        if (!rc) {
            ear_clip_release(clip);
            break;
        }
        rc->clip = clip;
        rc->priority = c->what == SAY_TEXT ? c->priority : EAR_SPEECH_INTERRUPT;
        rc->epoch = c->epoch;
        pthread_mutex_lock(&sp->lock);
        if (sp->ready_tail)
            sp->ready_tail->next = rc;
        else
            sp->ready_head = rc;
        sp->ready_tail = rc;
        pthread_mutex_unlock(&sp->lock);
        break;
    }
    default: ear__speech_write_line(&sp->cfg, shown_text(c)); break;
    }
    show_braille(out, shown_text(c));
    if (out->kind != EAR_SPEECH_OUTPUT_CONSOLE && atomic_load(&sp->echo))
        ear__speech_write_line(&sp->cfg, shown_text(c));
    atomic_fetch_add(&sp->delivered, 1);
}

static void apply_setting(ear_speech *sp, thread_out *out, const cmd *c) {
    if (out->kind == EAR_SPEECH_OUTPUT_DISPATCHER) {
        pthread_mutex_lock(&spd_lock);
        int r = 0;
        switch (c->kind) {
        case CMD_STOP: r = spd_cancel(out->spd); break;
        case CMD_VOICE: r = spd_set_synthesis_voice(out->spd, c->text); break;
        case CMD_RATE: r = spd_set_voice_rate(out->spd, c->value); break;
        case CMD_VOLUME: r = spd_set_volume(out->spd, c->value); break;
        case CMD_PUNCT:
            if (c->value != EAR_SPEECH_PUNCT_PLAYER) r = spd_punct_command(out->spd, c->value);
            break;
        default: break;
        }
        pthread_mutex_unlock(&spd_lock);
        if (r != 0 && dispatcher_dead(out)) fail_over(sp, out, NULL);
        return;
    }
    if (out->kind != EAR_SPEECH_OUTPUT_ESPEAK) return;
    pthread_mutex_lock(&espeak_lock);
    switch (c->kind) {
    case CMD_VOICE: es->SetVoiceByName(c->text); break;
    case CMD_RATE: es->SetParameter(espeakRATE, espeak_wpm(c->value), 0); break;
    case CMD_VOLUME: es->SetParameter(espeakVOLUME, 100 + c->value, 0); break;
    case CMD_PUNCT: espeak_punctuation(c->value); break;
    default: break;
    }
    pthread_mutex_unlock(&espeak_lock);
}

/* Waits (lock held) for a command. On speech-dispatcher it wakes four times a second to
 * see whether the daemon is still there; with a braille display, twenty times a second
 * to read its panning keys. */
static void wait_for_command(ear_speech *sp, thread_out *out) {
    double next_check_s = now_s() + 0.25;
    while (!sp->cmd_head) {
        bool dispatcher = out->kind == EAR_SPEECH_OUTPUT_DISPATCHER;
        if (!dispatcher && !out->brl) {
            pthread_cond_wait(&sp->cond, &sp->lock);
            continue;
        }
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += out->brl ? 50000000L : 250000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        if (pthread_cond_timedwait(&sp->cond, &sp->lock, &until) != ETIMEDOUT || sp->cmd_head)
            continue;
        pthread_mutex_unlock(&sp->lock);
        braille_keys(out);
        if (dispatcher && now_s() >= next_check_s) {
            next_check_s = now_s() + 0.25;
            pthread_mutex_lock(&spd_lock);
            bool dead = dispatcher_dead(out);
            pthread_mutex_unlock(&spd_lock);
            if (dead) fail_over(sp, out, NULL);
        }
        pthread_mutex_lock(&sp->lock);
    }
}

static void *speech_main(void *arg) {
    ear_speech *sp = arg;
    /* A write to a daemon that died must fail with EPIPE, not kill the game. */
    sigset_t pipe_set;
    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_set, NULL);

    thread_out out;
    memset(&out, 0, sizeof out);
    out.kind = EAR_SPEECH_OUTPUT_NONE;
    if (sp->cfg.skip_dispatcher || !open_dispatcher(sp, &out)) open_fallback(sp, &out);
    /* After speech is up: a BrlAPI host that is slow to answer must not hold it back. */
    open_braille(sp, &out);
    pthread_mutex_lock(&sp->lock);
    sp->braille = out.brl != NULL;
    sp->braille_checked = true;
    pthread_cond_broadcast(&sp->cond);
    pthread_mutex_unlock(&sp->lock);
    for (;;) {
        pthread_mutex_lock(&sp->lock);
        wait_for_command(sp, &out);
        cmd *c = sp->cmd_head;
        sp->cmd_head = c->next;
        if (!sp->cmd_head) sp->cmd_tail = NULL;
        pthread_mutex_unlock(&sp->lock);
        bool quit = c->kind == CMD_QUIT;
        if (c->kind == CMD_SAY)
            deliver(sp, &out, c);
        else if (!quit)
            apply_setting(sp, &out, c);
        free(c->text);
        free(c);
        if (quit) break;
    }
    if (out.spd) {
        pthread_mutex_lock(&spd_lock);
        spd_cancel(out.spd);
        pthread_mutex_unlock(&spd_lock);
        close_dispatcher(&out);
    }
    close_braille(&out);
    return NULL;
}

/* ---- Game side ------------------------------------------------------------------------- */

static ear_result send_cmd(ear_speech *sp, cmd_kind kind, say_kind what, const char *text,
                           ear_speech_priority priority, int value) {
    if (!sp->thread_started) return EAR_OK;
    cmd *c = calloc(1, sizeof *c);
    if (!c) return EAR_E_OUT_OF_MEMORY;
    c->kind = kind;
    c->what = what;
    c->priority = priority;
    c->value = value;
    c->epoch = sp->epoch;
    if (text) {
        c->text = ear__speech_copy(text, EAR_SPEECH_TEXT_MAX - 1);
        if (!c->text) {
            free(c);
            return EAR_E_OUT_OF_MEMORY;
        }
    }
    pthread_mutex_lock(&sp->lock);
    if (sp->cmd_tail)
        sp->cmd_tail->next = c;
    else
        sp->cmd_head = c;
    sp->cmd_tail = c;
    pthread_cond_broadcast(&sp->cond);
    pthread_mutex_unlock(&sp->lock);
    return EAR_OK;
}

static void free_strings(ear_speech *sp) {
    free(sp->client_name);
    free(sp->socket);
    free(sp->voice);
    free(sp->braille_host);
}

ear_result ear_speech_create(const ear_speech_config *config, ear_speech **out_speech) {
    if (!out_speech) return EAR_E_INVALID_ARG;
    ear_speech_config cfg = config ? *config : ear_speech_config_default();
    if ((unsigned)cfg.punctuation > EAR_SPEECH_PUNCT_ALL) return EAR_E_INVALID_ARG;
    ear_speech *sp = calloc(1, sizeof *sp);
    if (!sp) return EAR_E_OUT_OF_MEMORY;
    sp->cfg = cfg;
    sp->client_name = ear__speech_copy(cfg.client_name ? cfg.client_name : "earshot", 256);
    sp->socket = ear__speech_copy(cfg.dispatcher_socket, 4096);
    sp->voice = ear__speech_copy(cfg.voice, 256);
    sp->braille_host = ear__speech_copy(cfg.braille_host, 4096);
    if (!sp->client_name || (cfg.dispatcher_socket && !sp->socket) ||
        (cfg.voice && !sp->voice) || (cfg.braille_host && !sp->braille_host)) {
        free_strings(sp);
        free(sp);
        return EAR_E_OUT_OF_MEMORY;
    }
    sp->cfg.client_name = sp->client_name;
    sp->cfg.dispatcher_socket = sp->socket;
    sp->cfg.voice = sp->voice;
    sp->cfg.braille_host = sp->braille_host;
    sp->cfg.rate = clamp100(sp->cfg.rate);
    sp->cfg.volume = clamp100(sp->cfg.volume);
    if (!(sp->cfg.espeak_volume > 0)) sp->cfg.espeak_volume = 1;
    sp->mute = cfg.mute;
    sp->timing_rate = sp->cfg.use_rate ? sp->cfg.rate : 0;
    snprintf(sp->language, sizeof sp->language, "en");
    atomic_init(&sp->echo, cfg.echo);
    atomic_init(&sp->latest_epoch, 0);
    atomic_init(&sp->delivered, 0);
    pthread_mutex_init(&sp->lock, NULL);
    pthread_cond_init(&sp->cond, NULL);
    if (cfg.log_only) {
        sp->output = EAR_SPEECH_OUTPUT_LOG;
        sp->published = true;
    } else {
        if (pthread_create(&sp->thread, NULL, speech_main, sp) != 0) {
            pthread_cond_destroy(&sp->cond);
            pthread_mutex_destroy(&sp->lock);
            free_strings(sp);
            free(sp);
            return EAR_E_STATE;
        }
        sp->thread_started = true;
    }
    *out_speech = sp;
    return EAR_OK;
}

static void free_ready_list(ready_clip *rc) {
    while (rc) {
        ready_clip *next = rc->next;
        ear_clip_release(rc->clip);
        free(rc);
        rc = next;
    }
}

static void free_names(char **names, size_t count) {
    for (size_t i = 0; i < count; i++) free(names[i]);
    free(names);
}

void ear_speech_destroy(ear_speech *sp) {
    if (!sp) return;
    if (sp->thread_started) {
        /* Drop what waits, then ask the thread to end. */
        pthread_mutex_lock(&sp->lock);
        cmd *c = sp->cmd_head;
        sp->cmd_head = sp->cmd_tail = NULL;
        pthread_mutex_unlock(&sp->lock);
        while (c) {
            cmd *next = c->next;
            free(c->text);
            free(c);
            c = next;
        }
        sp->epoch++;
        atomic_store(&sp->latest_epoch, sp->epoch);
        send_cmd(sp, CMD_QUIT, SAY_TEXT, NULL, EAR_SPEECH_MESSAGE, 0);
        pthread_join(sp->thread, NULL);
    }
    if (sp->stage_voice && sp->cfg.stage) ear_stage_stop(sp->cfg.stage, sp->stage_voice, 0.02f);
    free_ready_list(sp->ready_head);
    free_ready_list(sp->pending_head);
    free_ready_list(sp->deferred_progress);
    free_names(sp->voices, sp->voice_count);
    free_names(sp->old_voices, sp->old_voice_count);
    ear__timeline_free(&sp->timeline); /* what is still said or waits: cut */
    ear__speech_history_clear(&sp->history);
    pthread_cond_destroy(&sp->cond);
    pthread_mutex_destroy(&sp->lock);
    free_strings(sp);
    free(sp);
}

static void drop_stage_speech(ear_speech *sp) {
    free_ready_list(sp->pending_head);
    sp->pending_head = sp->pending_tail = NULL;
    free_ready_list(sp->deferred_progress);
    sp->deferred_progress = NULL;
    if (sp->stage_voice && sp->cfg.stage) ear_stage_stop(sp->cfg.stage, sp->stage_voice, 0.02f);
    sp->stage_voice = EAR_VOICE_NONE;
}

/* How long a line takes: a headless run (log_only) asks espeak-ng (espeak_time.c) at the
 * timing rate in the language (or the game's voice, when espeak-ng knows it); the other
 * outputs, and a run without espeak-ng, the estimate (ear_speech_estimate_s). */
static double line_seconds(const ear_speech *sp, const char *text) {
    double s = 0;
    if (sp->cfg.log_only && !sp->cfg.skip_espeak &&
        ear__espeak_seconds(text, sp->timing_rate, sp->voice ? sp->voice : sp->language, &s))
        return s;
    return ear_speech_estimate_s(text, sp->timing_rate);
}

/* The line on the timeline: the text, a character as its name, a key as words. */
static ear_result time_line(ear_speech *sp, say_kind what, const char *text,
                            ear_speech_priority priority, bool again) {
    char words[128];
    const char *shown = text;
    if (what == SAY_CHAR && strcmp(text, " ") == 0) shown = "space";
    if (what == SAY_KEY) {
        snprintf(words, sizeof words, "%s", text);
        for (char *p = words; *p; p++)
            if (*p == '_') *p = ' ';
        shown = words;
    }
    return ear__timeline_say(&sp->timeline, shown, priority, again, line_seconds(sp, shown));
}

static ear_result say(ear_speech *sp, say_kind what, const char *text,
                      ear_speech_priority priority, bool again) {
    if (sp->mute) return EAR_OK;
    ear_result timed = time_line(sp, what, text, priority, again);
    if (timed != EAR_OK) return timed;
    if (sp->cfg.log_only) {
        atomic_fetch_add(&sp->delivered, 1);
        if (atomic_load(&sp->echo))
            ear__speech_write_line(&sp->cfg,
                                   what == SAY_CHAR && strcmp(text, " ") == 0 ? "space" : text);
        return EAR_OK;
    }
    if (priority == EAR_SPEECH_INTERRUPT || what != SAY_TEXT) {
        sp->epoch++;
        atomic_store(&sp->latest_epoch, sp->epoch);
        drop_stage_speech(sp);
    }
    return send_cmd(sp, CMD_SAY, what, text, priority, 0);
}

ear_result ear_speech_say(ear_speech *sp, const char *text, ear_speech_priority priority) {
    if (!sp || !text || (unsigned)priority > EAR_SPEECH_PROGRESS) return EAR_E_INVALID_ARG;
    if (priority != EAR_SPEECH_PROGRESS) {
        ear_result res = ear__speech_history_add(&sp->history, text);
        if (res != EAR_OK) return res;
    }
    return say(sp, SAY_TEXT, text, priority, false);
}

ear_result ear_speech_say_char(ear_speech *sp, const char *utf8_char_text) {
    if (!sp || !utf8_char_text || !ear__speech_char_valid(utf8_char_text))
        return EAR_E_INVALID_ARG;
    return say(sp, SAY_CHAR, utf8_char_text, EAR_SPEECH_INTERRUPT, false);
}

ear_result ear_speech_say_key(ear_speech *sp, const char *key_name) {
    if (!sp || !key_name || !ear__speech_key_valid(key_name)) return EAR_E_INVALID_ARG;
    return say(sp, SAY_KEY, key_name, EAR_SPEECH_INTERRUPT, false);
}

ear__speech_history *ear__speech_history_of(ear_speech *sp) {
    return &sp->history;
}

const ear__speech_history *ear__speech_history_of_const(const ear_speech *sp) {
    return &sp->history;
}

ear_result ear__speech_say_again(ear_speech *sp, const char *text) {
    return say(sp, SAY_TEXT, text, EAR_SPEECH_INTERRUPT, true);
}

void ear_speech_stop(ear_speech *sp) {
    if (!sp) return;
    ear__timeline_stop(&sp->timeline);
    sp->epoch++;
    atomic_store(&sp->latest_epoch, sp->epoch);
    drop_stage_speech(sp);
    send_cmd(sp, CMD_STOP, SAY_TEXT, NULL, EAR_SPEECH_MESSAGE, 0);
}

/* SSIP's rules, on the stage: what a clip arriving with priority p does to what waits
 * and what is being said (see ear_speech_priority). Returns false when the clip itself
 * is dropped (or held back, for progress). */
static bool lower_than_message(ear_speech_priority p) {
    return p == EAR_SPEECH_TEXT || p == EAR_SPEECH_NOTIFICATION || p == EAR_SPEECH_PROGRESS;
}

static void drop_pending_if(ear_speech *sp, bool (*match)(ear_speech_priority)) {
    ready_clip **at = &sp->pending_head;
    sp->pending_tail = NULL;
    while (*at) {
        ready_clip *rc = *at;
        if (match(rc->priority)) {
            *at = rc->next;
            ear_clip_release(rc->clip);
            free(rc);
        } else {
            sp->pending_tail = rc;
            at = &rc->next;
        }
    }
}

static void append_pending(ear_speech *sp, ready_clip *rc) {
    rc->next = NULL;
    if (sp->pending_tail)
        sp->pending_tail->next = rc;
    else
        sp->pending_head = rc;
    sp->pending_tail = rc;
}

static void admit(ear_speech *sp, ready_clip *rc) {
    ear_stage *stage = sp->cfg.stage;
    bool playing = sp->stage_voice && ear_stage_is_playing(stage, sp->stage_voice);
    switch (rc->priority) {
    case EAR_SPEECH_MESSAGE:
    case EAR_SPEECH_TEXT:
        /* Both cancel waiting and spoken text, notifications and progress. */
        drop_pending_if(sp, lower_than_message);
        if (playing && lower_than_message(sp->stage_priority)) {
            ear_stage_stop(stage, sp->stage_voice, 0.02f);
            sp->stage_voice = EAR_VOICE_NONE;
        }
        append_pending(sp, rc);
        return;
    case EAR_SPEECH_NOTIFICATION:
        if (playing && sp->stage_priority == EAR_SPEECH_NOTIFICATION && !sp->pending_head) {
            ear_stage_stop(stage, sp->stage_voice, 0.02f); /* a newer one replaces it */
            sp->stage_voice = EAR_VOICE_NONE;
            playing = false;
        }
        if (playing || sp->pending_head) break; /* something else is said: dropped */
        append_pending(sp, rc);
        return;
    case EAR_SPEECH_PROGRESS:
        if (playing || sp->pending_head) {
            /* Held back; a newer progress message takes its place. */
            free_ready_list(sp->deferred_progress);
            rc->next = NULL;
            sp->deferred_progress = rc;
            return;
        }
        append_pending(sp, rc);
        return;
    case EAR_SPEECH_INTERRUPT: append_pending(sp, rc); return;
    }
    ear_clip_release(rc->clip);
    free(rc);
}

void ear_speech_update(ear_speech *sp) {
    if (!sp || !sp->thread_started) return;
    pthread_mutex_lock(&sp->lock);
    ready_clip *rc = sp->ready_head;
    sp->ready_head = sp->ready_tail = NULL;
    pthread_mutex_unlock(&sp->lock);
    while (rc) {
        ready_clip *next = rc->next;
        rc->next = NULL;
        if (rc->epoch < sp->epoch || !sp->cfg.stage) {
            ear_clip_release(rc->clip); /* an interrupt or a stop came after it */
            free(rc);
        } else {
            admit(sp, rc);
        }
        rc = next;
    }
    ear_stage *stage = sp->cfg.stage;
    if (!stage) return;
    if (sp->stage_voice && ear_stage_is_playing(stage, sp->stage_voice)) return;
    if (!sp->pending_head && sp->deferred_progress) {
        /* The last of a progress series is always said. */
        sp->pending_head = sp->pending_tail = sp->deferred_progress;
        sp->deferred_progress = NULL;
    }
    if (!sp->pending_head) return;
    rc = sp->pending_head;
    sp->pending_head = rc->next;
    if (!sp->pending_head) sp->pending_tail = NULL;
    ear_play p;
    memset(&p, 0, sizeof p);
    p.bus = EAR_BUS_UI;
    p.volume = sp->cfg.espeak_volume;
    p.priority = 255; /* speech is never the voice that is stolen */
    if (ear_stage_play(stage, rc->clip, &p, &sp->stage_voice) != EAR_OK)
        sp->stage_voice = EAR_VOICE_NONE;
    sp->stage_priority = rc->priority;
    ear_clip_release(rc->clip);
    free(rc);
}

void ear_speech_set_mute(ear_speech *sp, bool mute) {
    if (!sp) return;
    if (mute && !sp->mute) ear_speech_stop(sp);
    sp->mute = mute;
}

bool ear_speech_muted(const ear_speech *sp) {
    return sp && sp->mute;
}

void ear_speech_set_echo(ear_speech *sp, bool echo) {
    if (sp) atomic_store(&sp->echo, echo);
}

/* Waits (lock held) until the thread published, at most timeout_s. */
static void wait_published(ear_speech *sp, double timeout_s) {
    if (sp->published || timeout_s <= 0) return;
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    double whole = (double)(long)timeout_s;
    until.tv_sec += (time_t)whole;
    until.tv_nsec += (long)((timeout_s - whole) * 1e9);
    if (until.tv_nsec >= 1000000000L) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000L;
    }
    while (!sp->published) {
        if (pthread_cond_timedwait(&sp->cond, &sp->lock, &until) == ETIMEDOUT) break;
    }
}

ear_speech_output ear_speech_get_output(ear_speech *sp, double timeout_s) {
    if (!sp) return EAR_SPEECH_OUTPUT_NONE;
    pthread_mutex_lock(&sp->lock);
    wait_published(sp, timeout_s);
    ear_speech_output out = sp->output;
    pthread_mutex_unlock(&sp->lock);
    return out;
}

bool ear_speech_braille_connected(ear_speech *sp) {
    if (!sp || !sp->thread_started) return false;
    pthread_mutex_lock(&sp->lock);
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 3;
    while (!sp->braille_checked) {
        if (pthread_cond_timedwait(&sp->cond, &sp->lock, &until) == ETIMEDOUT) break;
    }
    bool on = sp->braille;
    pthread_mutex_unlock(&sp->lock);
    return on;
}

size_t ear_speech_voice_count(ear_speech *sp) {
    if (!sp) return 0;
    pthread_mutex_lock(&sp->lock);
    wait_published(sp, 3.0);
    size_t n = sp->voice_count;
    pthread_mutex_unlock(&sp->lock);
    return n;
}

const char *ear_speech_voice_name(ear_speech *sp, size_t index) {
    if (!sp) return NULL;
    pthread_mutex_lock(&sp->lock);
    wait_published(sp, 3.0);
    /* A list, once published, is never changed; a fail-over keeps the old one alive. */
    const char *name = index < sp->voice_count ? sp->voices[index] : NULL;
    pthread_mutex_unlock(&sp->lock);
    return name;
}

ear_result ear_speech_set_voice(ear_speech *sp, const char *name) {
    if (!sp || !name) return EAR_E_INVALID_ARG;
    pthread_mutex_lock(&sp->lock);
    wait_published(sp, 3.0);
    bool found = false;
    for (size_t i = 0; i < sp->voice_count && !found; i++)
        found = sp->voices[i] && strcmp(sp->voices[i], name) == 0;
    pthread_mutex_unlock(&sp->lock);
    if (!found) return EAR_E_NOT_FOUND;
    return send_cmd(sp, CMD_VOICE, SAY_TEXT, name, EAR_SPEECH_MESSAGE, 0);
}

void ear_speech_set_rate(ear_speech *sp, int rate) {
    if (!sp) return;
    sp->timing_rate = clamp100(rate);
    send_cmd(sp, CMD_RATE, SAY_TEXT, NULL, EAR_SPEECH_MESSAGE, clamp100(rate));
}

void ear_speech_set_volume(ear_speech *sp, int volume) {
    if (!sp) return;
    send_cmd(sp, CMD_VOLUME, SAY_TEXT, NULL, EAR_SPEECH_MESSAGE, clamp100(volume));
}

void ear_speech_set_punctuation(ear_speech *sp, ear_speech_punctuation punctuation) {
    if (!sp || (unsigned)punctuation > EAR_SPEECH_PUNCT_ALL) return;
    send_cmd(sp, CMD_PUNCT, SAY_TEXT, NULL, EAR_SPEECH_MESSAGE, (int)punctuation);
}

uint64_t ear_speech_delivered(const ear_speech *sp) {
    return sp ? (uint64_t)atomic_load(&((ear_speech *)sp)->delivered) : 0;
}

ear_voice_id ear_speech_stage_voice(const ear_speech *sp) {
    return sp ? sp->stage_voice : EAR_VOICE_NONE;
}

/* The timeline's public face (ear_speech_set_listener, _advance, _speaking, _current)
 * is timeline.c's, shared by both outputs. */
ear__speech_timeline *ear__speech_timeline_of(ear_speech *sp) {
    return sp ? &sp->timeline : NULL;
}

const ear__speech_timeline *ear__speech_timeline_of_const(const ear_speech *sp) {
    return sp ? &sp->timeline : NULL;
}

void ear_speech_set_language(ear_speech *sp, const char *code) {
    if (!sp || !code || !code[0] || strlen(code) >= sizeof sp->language) return;
    snprintf(sp->language, sizeof sp->language, "%s", code);
}
