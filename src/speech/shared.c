/* SPDX-License-Identifier: Zlib */
/*
 * What the game side and the carrier share, under the object's one lock (sp->lock):
 *
 *   - what the carrier published: the backend in use, its output and voice names (a
 *     list, once published, is never changed; a fail-over keeps the one before alive
 *     until destroy, so names handed out stay valid);
 *   - the clips a backend synthesised (thread -> game), with the epoch and priority of
 *     the line they say;
 *   - a reporting backend's messages: which timeline line each message id is (noted by
 *     the thread when it sent it) and the daemon's reports on them (noted by libspeechd's
 *     reader thread). The game thread pairs them up once a frame; a report may arrive
 *     before its message id is noted (the daemon answers the send and reports the start
 *     on the same socket), so an unpaired report waits for the next frame.
 *
 * Nothing here calls out while the lock is held, so a report from another library's
 * thread never waits on the game or the speech thread.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "speech_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* At most this many sent messages and waiting reports are kept: a daemon that never
 * reports on some messages cannot make the lists grow without end (the oldest go). */
#define KEEP_MAX 256

static void free_names(char **names, size_t count) {
    for (size_t i = 0; i < count; i++) free(names[i]);
    free(names);
}

void ear__speech_publish(ear_speech *sp, const ear__speech_backend *backend,
                         ear_speech_output output, char **voices, size_t count) {
    pthread_mutex_lock(&sp->lock);
    if (sp->published && sp->voices) {
        free_names(sp->old_voices, sp->old_voice_count);
        sp->old_voices = sp->voices;
        sp->old_voice_count = sp->voice_count;
    } else {
        free_names(sp->voices, sp->voice_count);
    }
    sp->backend = backend;
    sp->output = output;
    sp->voices = voices;
    sp->voice_count = voices ? count : 0;
    sp->published = true;
    /* A new output knows nothing of the old one's messages. */
    sp->sent_count = 0;
    sp->report_count = 0;
    pthread_cond_broadcast(&sp->cond);
    pthread_mutex_unlock(&sp->lock);
}

void ear__speech_wait_published(ear_speech *sp, double timeout_s) {
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

void ear__speech_hand_clip(ear_speech *sp, ear_clip *clip, ear_speech_priority priority,
                           uint64_t epoch, uint64_t line, double full_s) {
    ear__speech_clip *rc = calloc(1, sizeof *rc);
    if (!rc) {
        ear_clip_release(clip);
        return;
    }
    rc->clip = clip;
    rc->priority = priority;
    rc->epoch = epoch;
    rc->line = line;
    rc->full_s = full_s;
    pthread_mutex_lock(&sp->lock);
    if (sp->ready_tail)
        sp->ready_tail->next = rc;
    else
        sp->ready_head = rc;
    sp->ready_tail = rc;
    pthread_mutex_unlock(&sp->lock);
}

/* Appends to a list of at most KEEP_MAX items of size bytes (the oldest dropped when
 * full); false when memory ran out (the item is lost). Lock held. */
static bool keep(void **items, size_t *count, size_t *cap, size_t size, const void *item) {
    if (*count == KEEP_MAX) {
        memmove(*items, (char *)*items + size, (KEEP_MAX - 1) * size);
        (*count)--;
    }
    if (*count == *cap) {
        size_t grown_cap = *cap ? *cap * 2 : 16;
        void *grown = realloc(*items, grown_cap * size);
        if (!grown) return false;
        *items = grown;
        *cap = grown_cap;
    }
    memcpy((char *)*items + *count * size, item, size);
    (*count)++;
    return true;
}

void ear__speech_note_sent(ear_speech *sp, uint64_t msg_id, uint64_t line) {
    ear__speech_sent s = {msg_id, line};
    pthread_mutex_lock(&sp->lock);
    void *items = sp->sent;
    keep(&items, &sp->sent_count, &sp->sent_cap, sizeof s, &s);
    sp->sent = items;
    pthread_mutex_unlock(&sp->lock);
}

void ear__speech_note_report(ear_speech *sp, uint64_t msg_id, ear_speech_event_kind kind) {
    ear__speech_report r = {msg_id, kind};
    pthread_mutex_lock(&sp->lock);
    void *items = sp->reports;
    keep(&items, &sp->report_count, &sp->report_cap, sizeof r, &r);
    sp->reports = items;
    pthread_mutex_unlock(&sp->lock);
}

/* The line of msg_id (0: not noted yet); an END or CUT forgets it (nothing more comes). */
static uint64_t line_of(ear_speech *sp, uint64_t msg_id, ear_speech_event_kind kind) {
    for (size_t i = 0; i < sp->sent_count; i++) {
        if (sp->sent[i].msg_id != msg_id) continue;
        uint64_t line = sp->sent[i].line;
        if (kind != EAR_SPEECH_EVENT_START) {
            memmove(sp->sent + i, sp->sent + i + 1,
                    (sp->sent_count - i - 1) * sizeof *sp->sent);
            sp->sent_count--;
        }
        return line;
    }
    return 0;
}

/* Game thread: the lines reported to an output that is gone will hear nothing more. */
static void follow_output(ear_speech *sp, ear_speech_output output) {
    if (output == sp->reports_output) return;
    ear__timeline_unreport(&sp->timeline);
    sp->reports_output = output;
}

bool ear__speech_reporting(ear_speech *sp) {
    pthread_mutex_lock(&sp->lock);
    ear_speech_output output = sp->published ? sp->output : EAR_SPEECH_OUTPUT_NONE;
    bool reports = sp->published && sp->backend && sp->backend->reports;
    pthread_mutex_unlock(&sp->lock);
    follow_output(sp, output);
    return reports;
}

void ear__speech_take_reports(ear_speech *sp) {
    /* Paired under the lock into a small batch, handed to the timeline after it: the
     * timeline calls the listener, which must never run under the lock. */
    enum { BATCH = 64 };
    uint64_t lines[BATCH];
    ear_speech_event_kind kinds[BATCH];
    size_t n = 0;
    pthread_mutex_lock(&sp->lock);
    ear_speech_output output = sp->published ? sp->output : EAR_SPEECH_OUTPUT_NONE;
    size_t kept = 0;
    for (size_t i = 0; i < sp->report_count; i++) {
        ear__speech_report r = sp->reports[i];
        uint64_t line = n < BATCH ? line_of(sp, r.msg_id, r.kind) : 0;
        if (line) {
            lines[n] = line;
            kinds[n++] = r.kind;
        } else {
            sp->reports[kept++] = r; /* its message id is not noted yet */
        }
    }
    sp->report_count = kept;
    pthread_mutex_unlock(&sp->lock);
    follow_output(sp, output);
    for (size_t i = 0; i < n; i++) ear__timeline_report(&sp->timeline, lines[i], kinds[i]);
}

void ear__speech_shared_free(ear_speech *sp) {
    for (ear__speech_clip *rc = sp->ready_head; rc;) {
        ear__speech_clip *next = rc->next;
        ear_clip_release(rc->clip);
        free(rc);
        rc = next;
    }
    sp->ready_head = sp->ready_tail = NULL;
    free_names(sp->voices, sp->voice_count);
    free_names(sp->old_voices, sp->old_voice_count);
    sp->voices = sp->old_voices = NULL;
    free(sp->reports);
    free(sp->sent);
    sp->reports = NULL;
    sp->sent = NULL;
}
