/* SPDX-License-Identifier: Zlib */
/*
 * Speech synthesised into memory, played on the stage: the game side of a backend that
 * makes clips (espeak-ng). The backend hands each clip over (shared.c's ready list, with
 * the epoch and priority of its line); once a frame the game thread takes them, drops
 * the ones an interrupt or a stop made stale (an older epoch), and applies SSIP's
 * priorities on the stage as speech-dispatcher does to its queue: one clip plays at a
 * time on the ui bus (EAR_BUS_UI, priority 255: never the voice that is stolen, volume
 * espeak_volume), the others wait in order (pending), and the last progress clip is held
 * back in one slot. Only the game thread touches the stage.
 *
 * The clip is the line as the player hears it, so it reports to the timeline (as
 * speech-dispatcher's events do): the line begins when its clip starts on the stage and
 * lasts the clip's length (the samples espeak-ng's synthesis callback delivered), ends
 * when the stage has played the clip's last sample, and is cut when a later line stops
 * it (what was said then is what the stage played of it).
 */
#include "speech_internal.h"

#include <stdlib.h>
#include <string.h>

static void free_list(ear__speech_clip *rc) {
    while (rc) {
        ear__speech_clip *next = rc->next;
        ear_clip_release(rc->clip);
        free(rc);
        rc = next;
    }
}

/* The clip on the stage is over: played whole (END) or stopped (CUT). */
static void stage_done(ear_speech *sp, ear_speech_event_kind kind) {
    uint64_t line = sp->stage_line;
    sp->stage_voice = EAR_VOICE_NONE;
    sp->stage_line = 0;
    if (line) ear__timeline_report(&sp->timeline, line, kind);
}

/* Stops the clip on the stage (a later line's doing): its line is cut. */
static void stage_cut(ear_speech *sp) {
    if (sp->stage_voice && sp->cfg.stage) ear_stage_stop(sp->cfg.stage, sp->stage_voice, 0.02f);
    stage_done(sp, EAR_SPEECH_EVENT_CUT);
}

void ear__speech_clips_drop(ear_speech *sp) {
    free_list(sp->pending_head);
    sp->pending_head = sp->pending_tail = NULL;
    free_list(sp->deferred_progress);
    sp->deferred_progress = NULL;
    stage_cut(sp);
}

void ear__speech_clips_free(ear_speech *sp) {
    ear__speech_clips_drop(sp);
}

/* SSIP's rules, on the stage: what a clip arriving with priority p does to what waits
 * and what is being said (see ear_speech_priority). Returns false when the clip itself
 * is dropped (or held back, for progress). */
static bool lower_than_message(ear_speech_priority p) {
    return p == EAR_SPEECH_TEXT || p == EAR_SPEECH_NOTIFICATION || p == EAR_SPEECH_PROGRESS;
}

static void drop_pending_if(ear_speech *sp, bool (*match)(ear_speech_priority)) {
    ear__speech_clip **at = &sp->pending_head;
    sp->pending_tail = NULL;
    while (*at) {
        ear__speech_clip *rc = *at;
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

static void append_pending(ear_speech *sp, ear__speech_clip *rc) {
    rc->next = NULL;
    if (sp->pending_tail)
        sp->pending_tail->next = rc;
    else
        sp->pending_head = rc;
    sp->pending_tail = rc;
}

static void admit(ear_speech *sp, ear__speech_clip *rc) {
    ear_stage *stage = sp->cfg.stage;
    bool playing = sp->stage_voice && ear_stage_is_playing(stage, sp->stage_voice);
    switch (rc->priority) {
    case EAR_SPEECH_MESSAGE:
    case EAR_SPEECH_TEXT:
        /* Both cancel waiting and spoken text, notifications and progress. */
        drop_pending_if(sp, lower_than_message);
        if (playing && lower_than_message(sp->stage_priority)) stage_cut(sp);
        append_pending(sp, rc);
        return;
    case EAR_SPEECH_NOTIFICATION:
        if (playing && sp->stage_priority == EAR_SPEECH_NOTIFICATION && !sp->pending_head) {
            stage_cut(sp); /* a newer one replaces it */
            playing = false;
        }
        if (playing || sp->pending_head) break; /* something else is said: dropped */
        append_pending(sp, rc);
        return;
    case EAR_SPEECH_PROGRESS:
        if (playing || sp->pending_head) {
            /* Held back; a newer progress message takes its place. */
            free_list(sp->deferred_progress);
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

void ear__speech_clips_update(ear_speech *sp) {
    pthread_mutex_lock(&sp->lock);
    ear__speech_clip *rc = sp->ready_head;
    sp->ready_head = sp->ready_tail = NULL;
    pthread_mutex_unlock(&sp->lock);
    while (rc) {
        ear__speech_clip *next = rc->next;
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
    /* Its last sample played: the line was said whole. */
    if (sp->stage_voice) stage_done(sp, EAR_SPEECH_EVENT_END);
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
    sp->stage_priority = rc->priority;
    sp->stage_line = rc->line;
    if (ear_stage_play(stage, rc->clip, &p, &sp->stage_voice) == EAR_OK) {
        ear__timeline_began(&sp->timeline, rc->line, rc->full_s);
    } else {
        ear_log(EAR_LOG_WARN, "speech", "the stage could not play espeak-ng's clip");
        stage_done(sp, EAR_SPEECH_EVENT_CUT); /* never heard */
    }
    ear_clip_release(rc->clip);
    free(rc);
}
