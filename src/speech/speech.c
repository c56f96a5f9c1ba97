/*
 * Speech. The game thread owns the history (a ring of the last 100 messages, each its
 * own allocation), mute, and the espeak-ng voice on the stage. The speech thread owns the
 * output. They share, under one mutex:
 *
 *   - the command queue (a linked list, game -> thread): say, stop, voice, rate, quit;
 *   - the ready queue (thread -> game): clips espeak-ng has synthesised, with the epoch
 *     of the message they speak;
 *   - what the thread published once it started: its output and voice names.
 *
 * Epochs make interruption cheap: every interrupting message and every stop increments
 * the game's epoch, and anything older (a queued message not yet spoken, a clip not yet
 * played) is dropped wherever it is found. The console has nothing to interrupt and
 * prints every message.
 *
 * espeak-ng's library keeps global state, so one process-wide mutex serialises its use
 * and it is initialised once (AUDIO_OUTPUT_SYNCHRONOUS: espeak_Synth returns when the
 * samples have been handed to the callback, which collects them into memory).
 */
#define _POSIX_C_SOURCE 200809L
#include "earshot/speech.h"

#include <speech-dispatcher/libspeechd.h>
#include <espeak-ng/speak_lib.h>

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef enum cmd_kind { CMD_SAY, CMD_STOP, CMD_VOICE, CMD_RATE, CMD_QUIT } cmd_kind;

typedef struct cmd {
    struct cmd *next;
    cmd_kind kind;
    bool interrupt;
    uint64_t epoch;
    int rate;
    char *text; /* CMD_SAY: the message; CMD_VOICE: the voice name */
} cmd;

typedef struct ready_clip {
    struct ready_clip *next;
    ear_clip *clip;
    bool interrupt;
    uint64_t epoch;
} ready_clip;

struct ear_speech {
    ear_speech_config cfg;
    char *client_name, *socket, *voice;
    /* Game side. */
    char *history[EAR_SPEECH_HISTORY];
    size_t history_start, history_count;
    uint64_t total;
    bool mute;
    uint64_t epoch;
    ear_voice_id stage_voice;
    ready_clip *pending_head, *pending_tail; /* clips waiting their turn on the stage */
    /* Shared. */
    pthread_mutex_t lock;
    pthread_cond_t cond;
    cmd *cmd_head, *cmd_tail;
    ready_clip *ready_head, *ready_tail;
    bool published;
    ear_speech_output output;
    char **voices;
    size_t voice_count;
    bool thread_started;
    pthread_t thread;
    atomic_uint_fast64_t latest_epoch;
    atomic_uint_fast64_t delivered;
    atomic_bool echo;
};

const char *ear_speech_output_name(ear_speech_output output) {
    switch (output) {
    case EAR_SPEECH_OUTPUT_NONE: return "none";
    case EAR_SPEECH_OUTPUT_DISPATCHER: return "speech-dispatcher";
    case EAR_SPEECH_OUTPUT_ESPEAK: return "espeak-ng";
    case EAR_SPEECH_OUTPUT_CONSOLE: return "console";
    case EAR_SPEECH_OUTPUT_LOG: return "log";
    }
    return "none";
}

ear_speech_config ear_speech_config_default(void) {
    ear_speech_config c;
    memset(&c, 0, sizeof c);
    c.client_name = "earshot";
    return c;
}

static char *dup_str(const char *s, size_t max) {
    if (!s) return NULL;
    size_t n = strlen(s);
    if (n > max) {
        n = max;
        while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80) n--; /* UTF-8 boundary */
    }
    char *d = malloc(n + 1);
    if (!d) return NULL;
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

static void write_line(ear_speech *sp, const char *text) {
    if (sp->cfg.line_fn) {
        sp->cfg.line_fn(sp->cfg.line_user, text);
    } else {
        fputs(text, stdout);
        fputc('\n', stdout);
        fflush(stdout);
    }
}

/* ---- espeak-ng, process-wide ----------------------------------------------------------- */

static pthread_mutex_t espeak_lock = PTHREAD_MUTEX_INITIALIZER;
static int espeak_rate_hz = 0; /* > 0 once initialised; < 0 when it failed */

typedef struct pcm_buf {
    float *data;
    size_t count, capacity;
    bool failed;
} pcm_buf;

static int espeak_collect(short *wav, int n, espeak_EVENT *events) {
    pcm_buf *b = events ? events->user_data : NULL;
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

/* Called with espeak_lock held. */
static bool espeak_ready(void) {
    if (espeak_rate_hz == 0) {
        int rate =
            espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, NULL, espeakINITIALIZE_DONT_EXIT);
        espeak_rate_hz = rate > 0 ? rate : -1;
        if (rate > 0) espeak_SetSynthCallback(espeak_collect);
    }
    return espeak_rate_hz > 0;
}

static int espeak_wpm(int rate) {
    /* -100 .. 0 .. 100 -> 80 .. 175 .. 450 words a minute. */
    return rate < 0 ? 175 + rate * 95 / 100 : 175 + rate * 275 / 100;
}

/* Synthesises text into a new clip (NULL on failure). */
static ear_clip *espeak_clip(const char *text) {
    pcm_buf b = {0};
    pthread_mutex_lock(&espeak_lock);
    espeak_ERROR err =
        espeak_Synth(text, strlen(text) + 1, 0, POS_CHARACTER, 0, espeakCHARS_UTF8, NULL, &b);
    int rate = espeak_rate_hz;
    pthread_mutex_unlock(&espeak_lock);
    ear_clip *clip = NULL;
    if (err == EE_OK && !b.failed && b.count > 0)
        ear_clip_create(b.data, b.count, 1, (uint32_t)rate, NULL, &clip);
    free(b.data);
    return clip;
}

/* ---- The speech thread ------------------------------------------------------------------ */

typedef struct thread_out {
    ear_speech_output kind;
    SPDConnection *spd;
} thread_out;

static void publish(ear_speech *sp, ear_speech_output out, char **voices, size_t count) {
    pthread_mutex_lock(&sp->lock);
    sp->output = out;
    sp->voices = voices;
    sp->voice_count = count;
    sp->published = true;
    pthread_cond_broadcast(&sp->cond);
    pthread_mutex_unlock(&sp->lock);
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
    SPDConnection *c = spd_open2(sp->client_name, "main", NULL, SPD_MODE_THREADED, use,
                                 sp->cfg.dispatcher_autospawn ? 1 : 0, &err);
    if (!c) {
        ear_log(EAR_LOG_INFO, "speech",
                "speech-dispatcher not reachable (%s); trying espeak-ng",
                err ? err : "no connection");
        free(err);
        return false;
    }
    free(err);
    out->spd = c;
    out->kind = EAR_SPEECH_OUTPUT_DISPATCHER;
    if (sp->voice) spd_set_synthesis_voice(c, sp->voice);
    if (sp->cfg.rate) spd_set_voice_rate(c, sp->cfg.rate);
    size_t n = 0;
    char **names = NULL;
    SPDVoice **list = spd_list_synthesis_voices(c);
    if (list) {
        while (list[n]) n++;
        names = calloc(n ? n : 1, sizeof *names);
        for (size_t i = 0; names && i < n; i++) names[i] = dup_str(list[i]->name, 256);
        free_spd_voices(list);
        if (!names) n = 0;
    }
    publish(sp, out->kind, names, n);
    return true;
}

static bool open_espeak(ear_speech *sp, thread_out *out) {
    pthread_mutex_lock(&espeak_lock);
    bool ok = espeak_ready();
    char **names = NULL;
    size_t n = 0;
    if (ok) {
        if (sp->voice) espeak_SetVoiceByName(sp->voice);
        espeak_SetParameter(espeakRATE, espeak_wpm(sp->cfg.rate), 0);
        const espeak_VOICE **list = espeak_ListVoices(NULL);
        while (list && list[n]) n++;
        names = calloc(n ? n : 1, sizeof *names);
        for (size_t i = 0; names && i < n; i++) names[i] = dup_str(list[i]->name, 256);
        if (!names) n = 0;
    }
    pthread_mutex_unlock(&espeak_lock);
    if (!ok) {
        ear_log(EAR_LOG_INFO, "speech", "espeak-ng could not start; using the console");
        return false;
    }
    out->kind = EAR_SPEECH_OUTPUT_ESPEAK;
    publish(sp, out->kind, names, n);
    return true;
}

static void deliver(ear_speech *sp, thread_out *out, cmd *c) {
    bool stale = c->epoch < atomic_load(&sp->latest_epoch);
    switch (out->kind) {
    case EAR_SPEECH_OUTPUT_DISPATCHER:
        if (stale) return;
        if (c->interrupt) spd_cancel(out->spd);
        spd_say(out->spd, SPD_MESSAGE, c->text);
        break;
    case EAR_SPEECH_OUTPUT_ESPEAK: {
        if (stale) return;
        ear_clip *clip = espeak_clip(c->text);
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
        rc->interrupt = c->interrupt;
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
    default: write_line(sp, c->text); break;
    }
    if (out->kind != EAR_SPEECH_OUTPUT_CONSOLE && atomic_load(&sp->echo))
        write_line(sp, c->text);
    atomic_fetch_add(&sp->delivered, 1);
}

static void *speech_main(void *arg) {
    ear_speech *sp = arg;
    thread_out out = {EAR_SPEECH_OUTPUT_NONE, NULL};
    if (!(sp->cfg.skip_dispatcher || !open_dispatcher(sp, &out))) {
        /* speech-dispatcher it is */
    } else if (!sp->cfg.skip_espeak && sp->cfg.stage && open_espeak(sp, &out)) {
        /* espeak-ng into the stage */
    } else {
        out.kind = EAR_SPEECH_OUTPUT_CONSOLE;
        publish(sp, out.kind, NULL, 0);
    }
    for (;;) {
        pthread_mutex_lock(&sp->lock);
        while (!sp->cmd_head) pthread_cond_wait(&sp->cond, &sp->lock);
        cmd *c = sp->cmd_head;
        sp->cmd_head = c->next;
        if (!sp->cmd_head) sp->cmd_tail = NULL;
        pthread_mutex_unlock(&sp->lock);
        bool quit = c->kind == CMD_QUIT;
        switch (c->kind) {
        case CMD_SAY: deliver(sp, &out, c); break;
        case CMD_STOP:
            if (out.kind == EAR_SPEECH_OUTPUT_DISPATCHER) spd_cancel(out.spd);
            break;
        case CMD_VOICE:
            if (out.kind == EAR_SPEECH_OUTPUT_DISPATCHER)
                spd_set_synthesis_voice(out.spd, c->text);
            if (out.kind == EAR_SPEECH_OUTPUT_ESPEAK) {
                pthread_mutex_lock(&espeak_lock);
                espeak_SetVoiceByName(c->text);
                pthread_mutex_unlock(&espeak_lock);
            }
            break;
        case CMD_RATE:
            if (out.kind == EAR_SPEECH_OUTPUT_DISPATCHER) spd_set_voice_rate(out.spd, c->rate);
            if (out.kind == EAR_SPEECH_OUTPUT_ESPEAK) {
                pthread_mutex_lock(&espeak_lock);
                espeak_SetParameter(espeakRATE, espeak_wpm(c->rate), 0);
                pthread_mutex_unlock(&espeak_lock);
            }
            break;
        case CMD_QUIT: break;
        }
        free(c->text);
        free(c);
        if (quit) break;
    }
    if (out.spd) {
        spd_cancel(out.spd);
        spd_close(out.spd);
    }
    return NULL;
}

/* ---- Game side ------------------------------------------------------------------------- */

static ear_result send_cmd(ear_speech *sp, cmd_kind kind, const char *text, bool interrupt,
                           int rate) {
    if (!sp->thread_started) return EAR_OK;
    cmd *c = calloc(1, sizeof *c);
    if (!c) return EAR_E_OUT_OF_MEMORY;
    c->kind = kind;
    c->interrupt = interrupt;
    c->rate = rate;
    c->epoch = sp->epoch;
    if (text) {
        c->text = dup_str(text, EAR_SPEECH_TEXT_MAX - 1);
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

ear_result ear_speech_create(const ear_speech_config *config, ear_speech **out_speech) {
    if (!out_speech) return EAR_E_INVALID_ARG;
    ear_speech_config cfg = config ? *config : ear_speech_config_default();
    ear_speech *sp = calloc(1, sizeof *sp);
    if (!sp) return EAR_E_OUT_OF_MEMORY;
    sp->cfg = cfg;
    sp->client_name = dup_str(cfg.client_name ? cfg.client_name : "earshot", 256);
    sp->socket = dup_str(cfg.dispatcher_socket, 4096);
    sp->voice = dup_str(cfg.voice, 256);
    if (!sp->client_name || (cfg.dispatcher_socket && !sp->socket) ||
        (cfg.voice && !sp->voice)) {
        free(sp->client_name);
        free(sp->socket);
        free(sp->voice);
        free(sp);
        return EAR_E_OUT_OF_MEMORY;
    }
    sp->cfg.client_name = sp->client_name;
    sp->cfg.dispatcher_socket = sp->socket;
    sp->cfg.voice = sp->voice;
    if (sp->cfg.rate < -100) sp->cfg.rate = -100;
    if (sp->cfg.rate > 100) sp->cfg.rate = 100;
    if (!(sp->cfg.espeak_volume > 0)) sp->cfg.espeak_volume = 1;
    sp->mute = cfg.mute;
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
            free(sp->client_name);
            free(sp->socket);
            free(sp->voice);
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
        send_cmd(sp, CMD_QUIT, NULL, false, 0);
        pthread_join(sp->thread, NULL);
    }
    if (sp->stage_voice && sp->cfg.stage) ear_stage_stop(sp->cfg.stage, sp->stage_voice, 0.02f);
    free_ready_list(sp->ready_head);
    free_ready_list(sp->pending_head);
    for (size_t i = 0; i < sp->voice_count; i++) free(sp->voices[i]);
    free(sp->voices);
    for (size_t i = 0; i < sp->history_count; i++)
        free(sp->history[(sp->history_start + i) % EAR_SPEECH_HISTORY]);
    pthread_cond_destroy(&sp->cond);
    pthread_mutex_destroy(&sp->lock);
    free(sp->client_name);
    free(sp->socket);
    free(sp->voice);
    free(sp);
}

static ear_result remember(ear_speech *sp, const char *text) {
    char *copy = dup_str(text, EAR_SPEECH_TEXT_MAX - 1);
    if (!copy) return EAR_E_OUT_OF_MEMORY;
    if (sp->history_count == EAR_SPEECH_HISTORY) {
        free(sp->history[sp->history_start]);
        sp->history[sp->history_start] = copy;
        sp->history_start = (sp->history_start + 1) % EAR_SPEECH_HISTORY;
    } else {
        sp->history[(sp->history_start + sp->history_count) % EAR_SPEECH_HISTORY] = copy;
        sp->history_count++;
    }
    sp->total++;
    return EAR_OK;
}

static void drop_stage_speech(ear_speech *sp) {
    free_ready_list(sp->pending_head);
    sp->pending_head = sp->pending_tail = NULL;
    if (sp->stage_voice && sp->cfg.stage) ear_stage_stop(sp->cfg.stage, sp->stage_voice, 0.02f);
    sp->stage_voice = EAR_VOICE_NONE;
}

static ear_result say(ear_speech *sp, const char *text, bool interrupt) {
    if (sp->mute) return EAR_OK;
    if (sp->cfg.log_only) {
        atomic_fetch_add(&sp->delivered, 1);
        if (atomic_load(&sp->echo)) write_line(sp, text);
        return EAR_OK;
    }
    if (interrupt) {
        sp->epoch++;
        atomic_store(&sp->latest_epoch, sp->epoch);
        drop_stage_speech(sp);
    }
    return send_cmd(sp, CMD_SAY, text, interrupt, 0);
}

ear_result ear_speech_speak(ear_speech *sp, const char *text) {
    if (!sp || !text) return EAR_E_INVALID_ARG;
    ear_result res = remember(sp, text);
    if (res != EAR_OK) return res;
    return say(sp, text, true);
}

ear_result ear_speech_speak_queued(ear_speech *sp, const char *text) {
    if (!sp || !text) return EAR_E_INVALID_ARG;
    ear_result res = remember(sp, text);
    if (res != EAR_OK) return res;
    return say(sp, text, false);
}

ear_result ear_speech_repeat_last(ear_speech *sp) {
    if (!sp) return EAR_E_INVALID_ARG;
    if (sp->history_count == 0) return EAR_E_NOT_FOUND;
    const char *last =
        sp->history[(sp->history_start + sp->history_count - 1) % EAR_SPEECH_HISTORY];
    return say(sp, last, true);
}

void ear_speech_stop(ear_speech *sp) {
    if (!sp) return;
    sp->epoch++;
    atomic_store(&sp->latest_epoch, sp->epoch);
    drop_stage_speech(sp);
    send_cmd(sp, CMD_STOP, NULL, false, 0);
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
            if (sp->pending_tail)
                sp->pending_tail->next = rc;
            else
                sp->pending_head = rc;
            sp->pending_tail = rc;
        }
        rc = next;
    }
    ear_stage *stage = sp->cfg.stage;
    if (!stage || !sp->pending_head) return;
    if (sp->stage_voice && ear_stage_is_playing(stage, sp->stage_voice)) return;
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
    /* The list is written once, before published is set, and never changed after. */
    const char *name = index < sp->voice_count ? sp->voices[index] : NULL;
    pthread_mutex_unlock(&sp->lock);
    return name;
}

ear_result ear_speech_set_voice(ear_speech *sp, const char *name) {
    if (!sp || !name) return EAR_E_INVALID_ARG;
    size_t n = ear_speech_voice_count(sp);
    for (size_t i = 0; i < n; i++) {
        const char *v = sp->voices[i];
        if (v && strcmp(v, name) == 0) return send_cmd(sp, CMD_VOICE, name, false, 0);
    }
    return EAR_E_NOT_FOUND;
}

void ear_speech_set_rate(ear_speech *sp, int rate) {
    if (!sp) return;
    if (rate < -100) rate = -100;
    if (rate > 100) rate = 100;
    send_cmd(sp, CMD_RATE, NULL, false, rate);
}

size_t ear_speech_history_count(const ear_speech *sp) {
    return sp ? sp->history_count : 0;
}

const char *ear_speech_history_at(const ear_speech *sp, size_t index) {
    if (!sp || index >= sp->history_count) return NULL;
    return sp->history[(sp->history_start + index) % EAR_SPEECH_HISTORY];
}

uint64_t ear_speech_total(const ear_speech *sp) {
    return sp ? sp->total : 0;
}

uint64_t ear_speech_delivered(const ear_speech *sp) {
    return sp ? (uint64_t)atomic_load(&((ear_speech *)sp)->delivered) : 0;
}

ear_voice_id ear_speech_stage_voice(const ear_speech *sp) {
    return sp ? sp->stage_voice : EAR_VOICE_NONE;
}
