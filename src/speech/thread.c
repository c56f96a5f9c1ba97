/* SPDX-License-Identifier: Zlib */
/*
 * The speech thread, the native carrier of speech.c's commands: it owns the backend in
 * use (the first of the table, backends.c, that is usable with the config and opens) and
 * the braille display. The game side gives it commands through a linked list under the
 * object's lock (say, stop, voice, rate, volume, punctuation), and a flag to end; messages
 * given while it is still choosing wait there and are not lost.
 *
 * Epochs make interruption cheap: every interrupting line and every stop increments the
 * game's epoch (published to the thread as latest_epoch), and a backend skips a line
 * older than that (the console prints every line: it has nothing to interrupt).
 *
 * Fail-over: when a backend's call says it is gone, or its alive check fails while the
 * thread is idle (four times a second), the thread logs a warning, closes it, opens the
 * next backend of the table and says again what may have been lost there: the line whose
 * send failed, or, for a backend that replays, the last line it took if that was less
 * than 10 s ago (it was most likely still being said). The object stays on the next one;
 * a new speech object tries the table from its start again.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "braille.h"
#include "speech_internal.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* How long after the last line a backend's death makes it be said again on the next. */
#define REPLAY_WINDOW_S 10.0

typedef struct thread_out {
    const ear__speech_backend *backend;
    size_t index; /* in the table */
    void *state;
    ear__speech_cmd last; /* the last line the backend took (text owned), if it replays */
    double last_at_s;     /* when */
    ear__speech_braille braille;
} thread_out;

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Opens the first usable backend from index on (the last one always opens) and
 * publishes it. */
static void open_from(ear_speech *sp, thread_out *out, size_t index) {
    out->state = NULL;
    out->backend = ear__speech_open_chain(sp, index, &out->index, &out->state);
}

static void close_out(ear_speech *sp, thread_out *out) {
    ear__speech_close_backend(sp, out->backend, out->state);
    out->backend = NULL;
    out->state = NULL;
    free(out->last.text);
    out->last.text = NULL;
}

static void remember_sent(thread_out *out, const ear__speech_cmd *c) {
    char *copy = ear__speech_copy(c->text, EAR_SPEECH_TEXT_MAX - 1);
    if (!copy) return;
    free(out->last.text);
    out->last = *c;
    out->last.next = NULL;
    out->last.text = copy;
    out->last_at_s = now_s();
}

static void deliver(ear_speech *sp, thread_out *out, ear__speech_cmd *c);

/* The backend went away: close it, take the next, and say again what it may not have
 * said (the line that failed, or the last one if it was recent). */
static void fail_over(ear_speech *sp, thread_out *out, ear__speech_cmd *failed) {
    ear__speech_cmd last = out->last;
    double age_s = now_s() - out->last_at_s;
    const char *gone = out->backend->name;
    size_t next = out->index + 1;
    out->last.text = NULL; /* keep it past close_out */
    close_out(sp, out);
    open_from(sp, out, next);
    ear_log(EAR_LOG_WARN, "speech", "%s went away; speaking with %s from now on", gone,
            out->backend->name);
    if (failed) {
        deliver(sp, out, failed);
    } else if (last.text && age_s < REPLAY_WINDOW_S) {
        last.line = 0; /* its line was the old backend's */
        deliver(sp, out, &last);
    }
    free(last.text);
}

static void deliver(ear_speech *sp, thread_out *out, ear__speech_cmd *c) {
    ear__speech_sent_result r = out->backend->say(sp, out->state, c);
    if (r == EAR__SENT_GONE) {
        fail_over(sp, out, c);
        return;
    }
    if (r == EAR__SENT_SKIPPED) return;
    if (r == EAR__SENT_OK && out->backend->replays) remember_sent(out, c);
    const char *shown = ear__speech_shown(c->what, c->text, false, NULL, 0);
    ear__braille_show(&out->braille, shown);
    if (out->backend->output != EAR_SPEECH_OUTPUT_CONSOLE && atomic_load(&sp->echo))
        ear__speech_write_line(&sp->cfg, shown);
    atomic_fetch_add(&sp->delivered, 1);
}

static void apply_setting(ear_speech *sp, thread_out *out, const ear__speech_cmd *c) {
    if (!out->backend->apply) return;
    if (out->backend->apply(sp, out->state, c) == EAR__SENT_GONE) fail_over(sp, out, NULL);
}

/* Waits (lock held) for a command. With a backend that can go away it wakes four times
 * a second to ask whether it is still there; with a braille display, twenty times a
 * second to read its panning keys. */
static void wait_for_command(ear_speech *sp, thread_out *out) {
    double next_check_s = now_s() + 0.25;
    while (!sp->cmd_head && !sp->quitting) {
        bool watch = out->backend->alive != NULL;
        if (!watch && !out->braille.handle) {
            pthread_cond_wait(&sp->cond, &sp->lock);
            continue;
        }
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += out->braille.handle ? 50000000L : 250000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        if (pthread_cond_timedwait(&sp->cond, &sp->lock, &until) != ETIMEDOUT || sp->cmd_head ||
            sp->quitting)
            continue;
        pthread_mutex_unlock(&sp->lock);
        ear__braille_keys(&out->braille);
        if (watch && now_s() >= next_check_s) {
            next_check_s = now_s() + 0.25;
            if (!out->backend->alive(sp, out->state)) fail_over(sp, out, NULL);
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
    open_from(sp, &out, 0);
    /* After speech is up: a BrlAPI host that is slow to answer must not hold it back. */
    if (!sp->cfg.skip_braille) ear__braille_open(&out.braille, sp->cfg.braille_host);
    pthread_mutex_lock(&sp->lock);
    sp->braille = out.braille.handle != NULL;
    sp->braille_checked = true;
    pthread_cond_broadcast(&sp->cond);
    pthread_mutex_unlock(&sp->lock);
    for (;;) {
        pthread_mutex_lock(&sp->lock);
        wait_for_command(sp, &out);
        ear__speech_cmd *c = sp->cmd_head;
        if (!c) { /* quitting, and nothing waits */
            pthread_mutex_unlock(&sp->lock);
            break;
        }
        sp->cmd_head = c->next;
        if (!sp->cmd_head) sp->cmd_tail = NULL;
        pthread_mutex_unlock(&sp->lock);
        if (c->kind == EAR__CMD_SAY)
            deliver(sp, &out, c);
        else
            apply_setting(sp, &out, c);
        free(c->text);
        free(c);
    }
    close_out(sp, &out);
    ear__braille_close(&out.braille);
    return NULL;
}

ear_result ear__speech_carrier_start(ear_speech *sp) {
    if (pthread_create(&sp->thread, NULL, speech_main, sp) != 0) return EAR_E_STATE;
    sp->thread_started = true;
    return EAR_OK;
}

void ear__speech_carrier_send(ear_speech *sp, ear__speech_cmd *c) {
    if (!sp->thread_started) {
        free(c->text);
        free(c);
        return;
    }
    pthread_mutex_lock(&sp->lock);
    if (sp->cmd_tail)
        sp->cmd_tail->next = c;
    else
        sp->cmd_head = c;
    sp->cmd_tail = c;
    pthread_cond_broadcast(&sp->cond);
    pthread_mutex_unlock(&sp->lock);
}

void ear__speech_carrier_stop(ear_speech *sp) {
    if (!sp->thread_started) return;
    /* Drop what waits, then ask the thread to end. */
    pthread_mutex_lock(&sp->lock);
    ear__speech_cmd *c = sp->cmd_head;
    sp->cmd_head = sp->cmd_tail = NULL;
    sp->quitting = true;
    pthread_cond_broadcast(&sp->cond);
    pthread_mutex_unlock(&sp->lock);
    while (c) {
        ear__speech_cmd *next = c->next;
        free(c->text);
        free(c);
        c = next;
    }
    pthread_join(sp->thread, NULL);
    sp->thread_started = false;
}
