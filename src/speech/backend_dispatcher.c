/* SPDX-License-Identifier: Zlib */
/*
 * The speech-dispatcher backend (libspeechd): the path screen readers take on Linux, so
 * the player hears the game in their own voice, at their own rate and volume.
 *
 * libspeechd runs in its threaded mode: a reader thread of its own reads the socket and
 * calls back on SSIP's notification events, which this backend asks for
 * (spd_set_notification_on: BEGIN, END and CANCEL). Each message the backend sends gets
 * the daemon's message id (spd_say's answer), which it notes with the line it says
 * (ear__speech_note_sent); the callbacks note what the daemon did with it
 * (ear__speech_note_report), and the game thread pairs the two once a frame, so the
 * timeline hears when a line really ended or was cut. libspeechd's callbacks carry no
 * user pointer, only the connection's client id, so a process-wide registry maps client
 * ids to speech objects; a callback takes the registry's lock and the object's, nothing
 * else (it runs on libspeechd's thread, which must never wait on ours), and cannot be
 * cancelled while it holds them (spd_close cancels that thread). Characters and keys
 * (SSIP CHAR, KEY) are answered without a message id: their lines keep the estimate.
 *
 * Death of the daemon: the reader thread sees the socket close and ends; the backend
 * keeps its own duplicate of the socket's descriptor and, while idle, looks at it four
 * times a second (poll for a hang-up; nothing is read from it), and a send that fails is
 * the other sign. The socket gets a 5 s send timeout (no receive timeout: the reader
 * thread waits on the socket for events as long as the game runs). libspeechd keeps
 * static command buffers, so one process-wide mutex serialises every call into it
 * (several speech objects may live in one process, as in the tests); the callbacks run
 * inside those calls' waits and take none of it.
 */
#define _GNU_SOURCE /* POLLRDHUP */
#include "speech_internal.h"

#include <speech-dispatcher/libspeechd.h>

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* libspeechd writes its commands into static buffers: one caller at a time. */
static pthread_mutex_t spd_lock = PTHREAD_MUTEX_INITIALIZER;

typedef struct dispatcher {
    SPDConnection *spd;
    int watch_fd;     /* our duplicate of the socket, only polled; -1: none */
    size_t client_id; /* the daemon's id of this connection; 0: unknown */
    ear_speech *sp;   /* whose lines the events are */
    struct dispatcher *next_registered;
} dispatcher;

/* ---- The registry of connections that receive events ---------------------------------- */

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static dispatcher *registry;

static void registry_add(dispatcher *d) {
    pthread_mutex_lock(&registry_lock);
    d->next_registered = registry;
    registry = d;
    pthread_mutex_unlock(&registry_lock);
}

static void registry_remove(dispatcher *d) {
    pthread_mutex_lock(&registry_lock);
    for (dispatcher **at = &registry; *at; at = &(*at)->next_registered) {
        if (*at == d) {
            *at = d->next_registered;
            break;
        }
    }
    pthread_mutex_unlock(&registry_lock);
}

/* On libspeechd's reader thread. */
static void on_event(size_t msg_id, size_t client_id, SPDNotificationType state) {
    int old_state;
    pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &old_state);
    ear_speech_event_kind kind = state == SPD_EVENT_BEGIN ? EAR_SPEECH_EVENT_START
                                 : state == SPD_EVENT_END ? EAR_SPEECH_EVENT_END
                                                          : EAR_SPEECH_EVENT_CUT;
    pthread_mutex_lock(&registry_lock);
    for (dispatcher *d = registry; d; d = d->next_registered)
        if (d->client_id == client_id) ear__speech_note_report(d->sp, msg_id, kind);
    pthread_mutex_unlock(&registry_lock);
    pthread_setcancelstate(old_state, NULL);
}

/* ---- Opening and closing ---------------------------------------------------------------- */

static int punct_command(SPDConnection *c, int p) {
    const char *name = ear_speech_punctuation_name((ear_speech_punctuation)p);
    char command[64];
    snprintf(command, sizeof command, "SET SELF PUNCTUATION %s", name);
    return spd_execute_command(c, command);
}

static bool usable(const ear_speech_config *cfg) {
    return !cfg->skip_dispatcher;
}

static bool open_backend(ear_speech *sp, void **state, char ***voices, size_t *count) {
    dispatcher *d = calloc(1, sizeof *d);
    if (!d) return false;
    d->watch_fd = -1;
    d->sp = sp;
    SPDConnectionAddress addr;
    memset(&addr, 0, sizeof addr);
    SPDConnectionAddress *use = NULL;
    if (sp->cfg.dispatcher_socket) {
        addr.method = SPD_METHOD_UNIX_SOCKET;
        addr.unix_socket_name = (char *)sp->cfg.dispatcher_socket;
        use = &addr;
    }
    char *err = NULL;
    pthread_mutex_lock(&spd_lock);
    SPDConnection *c = spd_open2(sp->cfg.client_name, "main", NULL, SPD_MODE_THREADED, use,
                                 sp->cfg.dispatcher_autospawn ? 1 : 0, &err);
    if (!c) {
        pthread_mutex_unlock(&spd_lock);
        ear_log(EAR_LOG_INFO, "speech",
                "speech-dispatcher not reachable (%s); trying espeak-ng",
                err ? err : "no connection");
        free(err);
        free(d);
        return false;
    }
    free(err);
    /* A daemon that stops reading must not hang the thread: after 5 s a write fails,
     * which counts as the daemon's death. */
    struct timeval tv = {5, 0};
    setsockopt(c->socket, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    d->watch_fd = dup(c->socket);
    d->spd = c;
    int id = spd_get_client_id(c);
    d->client_id = id > 0 ? (size_t)id : 0;
    c->callback_begin = on_event;
    c->callback_end = on_event;
    c->callback_cancel = on_event;
    if (d->client_id) {
        registry_add(d);
        if (spd_set_notification_on(c, SPD_BEGIN) != 0 ||
            spd_set_notification_on(c, SPD_END) != 0 ||
            spd_set_notification_on(c, SPD_CANCEL) != 0)
            ear_log(EAR_LOG_INFO, "speech",
                    "speech-dispatcher sends no notification events; lines are timed by the "
                    "estimate");
    }
    /* Only what the game set; the rest stays the player's. */
    if (sp->cfg.voice) spd_set_synthesis_voice(c, sp->cfg.voice);
    if (sp->cfg.use_rate) spd_set_voice_rate(c, sp->cfg.rate);
    if (sp->cfg.use_volume) spd_set_volume(c, sp->cfg.volume);
    if (sp->cfg.punctuation != EAR_SPEECH_PUNCT_PLAYER)
        punct_command(c, (int)sp->cfg.punctuation);
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
    *state = d;
    *voices = names;
    *count = n;
    return true;
}

static bool alive(ear_speech *sp, void *state);

static void close_backend(ear_speech *sp, void *state) {
    dispatcher *d = state;
    if (!d) return;
    /* No callback reaches the object after this, whatever libspeechd's thread does. */
    registry_remove(d);
    pthread_mutex_lock(&spd_lock);
    if (alive(sp, d)) spd_cancel(d->spd);
    spd_close(d->spd);
    pthread_mutex_unlock(&spd_lock);
    if (d->watch_fd >= 0) close(d->watch_fd);
    free(d);
}

/* True when the daemon's end of the socket is gone. */
static bool alive(ear_speech *sp, void *state) {
    (void)sp;
    dispatcher *d = state;
    if (d->watch_fd < 0) return false;
    struct pollfd p = {.fd = d->watch_fd, .events = POLLRDHUP};
    if (poll(&p, 1, 0) <= 0) return true;
    return (p.revents & (POLLRDHUP | POLLHUP | POLLERR | POLLNVAL)) == 0;
}

/* ---- Saying ----------------------------------------------------------------------------- */

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

static ear__speech_sent_result say(ear_speech *sp, void *state, const ear__speech_cmd *c) {
    dispatcher *d = state;
    if (c->epoch < atomic_load(&sp->latest_epoch)) return EAR__SENT_SKIPPED;
    /* A daemon seen gone is not written to (libspeechd's reader thread has closed it). */
    if (!alive(sp, d)) return EAR__SENT_GONE;
    pthread_mutex_lock(&spd_lock);
    SPDConnection *s = d->spd;
    bool interrupt = c->priority == EAR_SPEECH_INTERRUPT || c->what != EAR__SAY_TEXT;
    bool ok = true;
    int msg_id = -1;
    if (interrupt) ok = spd_cancel(s) == 0;
    if (ok) {
        SPDPriority prio = interrupt ? SPD_IMPORTANT : ssip_priority(c->priority);
        switch (c->what) {
        case EAR__SAY_TEXT:
            msg_id = spd_say(s, prio, c->text);
            ok = msg_id >= 0;
            break;
        case EAR__SAY_CHAR:
            ok = spd_char(s, prio, strcmp(c->text, " ") == 0 ? "space" : c->text) == 0;
            break;
        case EAR__SAY_KEY: ok = spd_key(s, prio, c->text) == 0; break;
        }
    }
    pthread_mutex_unlock(&spd_lock);
    if (!ok) {
        if (!alive(sp, d)) return EAR__SENT_GONE;
        ear_log(EAR_LOG_WARN, "speech", "speech-dispatcher refused a message (\"%.40s\")",
                c->text);
        return EAR__SENT_REFUSED;
    }
    if (msg_id > 0 && c->line) ear__speech_note_sent(sp, (uint64_t)msg_id, c->line);
    return EAR__SENT_OK;
}

static ear__speech_sent_result apply(ear_speech *sp, void *state, const ear__speech_cmd *c) {
    dispatcher *d = state;
    if (!alive(sp, d)) return EAR__SENT_GONE;
    pthread_mutex_lock(&spd_lock);
    int r = 0;
    switch (c->kind) {
    case EAR__CMD_STOP: r = spd_cancel(d->spd); break;
    case EAR__CMD_VOICE: r = spd_set_synthesis_voice(d->spd, c->text); break;
    case EAR__CMD_RATE: r = spd_set_voice_rate(d->spd, c->value); break;
    case EAR__CMD_VOLUME: r = spd_set_volume(d->spd, c->value); break;
    case EAR__CMD_PUNCT:
        if (c->value != EAR_SPEECH_PUNCT_PLAYER) r = punct_command(d->spd, c->value);
        break;
    default: break;
    }
    pthread_mutex_unlock(&spd_lock);
    if (r != 0 && !alive(sp, d)) return EAR__SENT_GONE;
    return r == 0 ? EAR__SENT_OK : EAR__SENT_REFUSED;
}

const ear__speech_backend ear__speech_backend_dispatcher = {
    .name = "speech-dispatcher",
    .output = EAR_SPEECH_OUTPUT_DISPATCHER,
    .usable = usable,
    .open = open_backend,
    .close = close_backend,
    .say = say,
    .apply = apply,
    .alive = alive,
    .replays = true,
    .reports = true,
    .players_rate = false,
};
