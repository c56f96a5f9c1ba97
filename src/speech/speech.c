/* SPDX-License-Identifier: Zlib */
/*
 * Speech, the game side: every public call, once, for every backend (speech_internal.h
 * has the module's map). The game thread owns the history, mute, the timeline of what
 * is being said and the clips on the stage; what it asks of the output goes to the
 * carrier as commands (the speech thread natively, thread.c; the game thread itself in
 * the web build, direct.c), which hands them to the backend in use.
 *
 * The rules kept here, whatever the backend:
 *   - priorities: a line's SSIP priority goes with it to the backend, and the timeline
 *     applies the same rules to what it models (timeline.c);
 *   - the interrupt rule: an interrupting line, a character, a key, a repeat or a history
 *     read, and a stop, make everything said before stale (the epoch) and stop the
 *     clips on the stage;
 *   - history and repeat: every message but progress enters the history; repeats and
 *     history reads are said again (interrupting) without entering it;
 *   - the timeline: each line said (not muted) is on it, timed by espeak-ng in a
 *     headless run, by the backend's reports where it reports (speech-dispatcher), by the
 *     estimate elsewhere;
 *   - the duck: speech that bypasses the stage still ducks the music (ear_speech_duck).
 *
 * With log_only no carrier starts: lines go to the history and the timeline only.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "speech_internal.h"

#include "earshot/mixer.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int clamp100(int v) {
    return v < -100 ? -100 : v > 100 ? 100 : v;
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
        sp->reports_output = EAR_SPEECH_OUTPUT_LOG;
        sp->published = true;
    } else if (ear__speech_carrier_start(sp) != EAR_OK) {
        pthread_cond_destroy(&sp->cond);
        pthread_mutex_destroy(&sp->lock);
        free_strings(sp);
        free(sp);
        return EAR_E_STATE;
    }
    *out_speech = sp;
    return EAR_OK;
}

void ear_speech_destroy(ear_speech *sp) {
    if (!sp) return;
    sp->epoch++;
    atomic_store(&sp->latest_epoch, sp->epoch);
    ear__speech_carrier_stop(sp);
    ear__speech_clips_free(sp);
    ear__speech_shared_free(sp);
    ear__timeline_free(&sp->timeline); /* what is still said or waits: cut */
    ear__speech_history_clear(&sp->history);
    pthread_cond_destroy(&sp->cond);
    pthread_mutex_destroy(&sp->lock);
    free_strings(sp);
    free(sp);
}

/* A command for the carrier; EAR_E_OUT_OF_MEMORY sends nothing. */
static ear_result send_cmd(ear_speech *sp, ear__speech_cmd_kind kind, ear__speech_say_kind what,
                           const char *text, ear_speech_priority priority, int value,
                           uint64_t line) {
    if (sp->cfg.log_only) return EAR_OK;
    ear__speech_cmd *c = calloc(1, sizeof *c);
    if (!c) return EAR_E_OUT_OF_MEMORY;
    c->kind = kind;
    c->what = what;
    c->priority = priority;
    c->value = value;
    c->epoch = sp->epoch;
    c->line = line;
    if (text) {
        c->text = ear__speech_copy(text, EAR_SPEECH_TEXT_MAX - 1);
        if (!c->text) {
            free(c);
            return EAR_E_OUT_OF_MEMORY;
        }
    }
    ear__speech_carrier_send(sp, c);
    return EAR_OK;
}

/* The backend lines are timed for: the one in use, or (before the carrier chose, and in a
 * headless run) the table's first. */
static const ear__speech_backend *timed_backend(ear_speech *sp) {
    pthread_mutex_lock(&sp->lock);
    const ear__speech_backend *b = sp->backend;
    pthread_mutex_unlock(&sp->lock);
    return b ? b : ear__speech_chain[0];
}

/* How long a line takes: a headless run (log_only) asks espeak-ng (the table's timer) at
 * the timing rate in the language (or the game's voice, when espeak-ng knows it); the
 * other outputs, and a run without espeak-ng, the estimate (ear_speech_estimate_s). A
 * backend that leaves the rate to the player's screen reader is timed at the normal rate. */
static double line_seconds(ear_speech *sp, const char *text) {
    int rate = timed_backend(sp)->players_rate ? 0 : sp->timing_rate;
    double s = 0;
    if (sp->cfg.log_only && !sp->cfg.skip_espeak && ear__speech_log_timer &&
        ear__speech_log_timer(text, rate, sp->voice ? sp->voice : sp->language, &s))
        return s;
    return ear_speech_estimate_s(text, rate);
}

static ear_result say(ear_speech *sp, ear__speech_say_kind what, const char *text,
                      ear_speech_priority priority, bool again) {
    if (sp->mute) return EAR_OK;
    char words[128];
    const char *shown = ear__speech_shown(what, text, true, words, sizeof words);
    /* Only messages get a message id from speech-dispatcher to report on. */
    bool reported = !sp->cfg.log_only && what == EAR__SAY_TEXT && ear__speech_reporting(sp);
    uint64_t line = 0;
    ear_result timed = ear__timeline_say(&sp->timeline, shown, priority, again, reported,
                                         line_seconds(sp, shown), &line);
    if (timed != EAR_OK) return timed;
    if (sp->cfg.log_only) {
        atomic_fetch_add(&sp->delivered, 1);
        if (atomic_load(&sp->echo))
            ear__speech_write_line(&sp->cfg, ear__speech_shown(what, text, false, NULL, 0));
        return EAR_OK;
    }
    if (priority == EAR_SPEECH_INTERRUPT || what != EAR__SAY_TEXT) {
        sp->epoch++;
        atomic_store(&sp->latest_epoch, sp->epoch);
        ear__speech_clips_drop(sp);
    }
    return send_cmd(sp, EAR__CMD_SAY, what, text, priority, 0, line);
}

ear_result ear_speech_say(ear_speech *sp, const char *text, ear_speech_priority priority) {
    if (!sp || !text || (unsigned)priority > EAR_SPEECH_PROGRESS) return EAR_E_INVALID_ARG;
    if (priority != EAR_SPEECH_PROGRESS) {
        ear_result res = ear__speech_history_add(&sp->history, text);
        if (res != EAR_OK) return res;
    }
    return say(sp, EAR__SAY_TEXT, text, priority, false);
}

ear_result ear_speech_speak(ear_speech *sp, const char *text) {
    return ear_speech_say(sp, text, EAR_SPEECH_INTERRUPT);
}

ear_result ear_speech_speak_queued(ear_speech *sp, const char *text) {
    return ear_speech_say(sp, text, EAR_SPEECH_MESSAGE);
}

ear_result ear_speech_say_char(ear_speech *sp, const char *utf8_char_text) {
    if (!sp || !utf8_char_text || !ear__speech_char_valid(utf8_char_text))
        return EAR_E_INVALID_ARG;
    return say(sp, EAR__SAY_CHAR, utf8_char_text, EAR_SPEECH_INTERRUPT, false);
}

ear_result ear_speech_say_key(ear_speech *sp, const char *key_name) {
    if (!sp || !key_name || !ear__speech_key_valid(key_name)) return EAR_E_INVALID_ARG;
    return say(sp, EAR__SAY_KEY, key_name, EAR_SPEECH_INTERRUPT, false);
}

void ear_speech_stop(ear_speech *sp) {
    if (!sp) return;
    ear__timeline_stop(&sp->timeline);
    sp->epoch++;
    atomic_store(&sp->latest_epoch, sp->epoch);
    ear__speech_clips_drop(sp);
    send_cmd(sp, EAR__CMD_STOP, EAR__SAY_TEXT, NULL, EAR_SPEECH_MESSAGE, 0, 0);
}

/* ---- History --------------------------------------------------------------------------- */

ear_result ear_speech_repeat_last(ear_speech *sp) {
    if (!sp) return EAR_E_INVALID_ARG;
    ear__speech_history *h = &sp->history;
    if (h->count == 0) return EAR_E_NOT_FOUND;
    h->review = h->count - 1;
    return say(sp, EAR__SAY_TEXT, ear__speech_history_get(h, h->count - 1),
               EAR_SPEECH_INTERRUPT, true);
}

/* At either end the cursor stays and the message under it is said again, so the player
 * hears where they are; EAR_E_NOT_FOUND tells the caller it did not move. */
static ear_result review_step(ear_speech *sp, bool back) {
    if (!sp) return EAR_E_INVALID_ARG;
    bool at_end = true;
    const char *text = ear__speech_history_step(&sp->history, back, &at_end);
    if (!text) return EAR_E_NOT_FOUND;
    ear_result res = say(sp, EAR__SAY_TEXT, text, EAR_SPEECH_INTERRUPT, true);
    if (res != EAR_OK) return res;
    return at_end ? EAR_E_NOT_FOUND : EAR_OK;
}

ear_result ear_speech_history_back(ear_speech *sp) {
    return review_step(sp, true);
}

ear_result ear_speech_history_forward(ear_speech *sp) {
    return review_step(sp, false);
}

size_t ear_speech_history_cursor(const ear_speech *sp) {
    if (!sp) return 0;
    return sp->history.count ? sp->history.review : 0;
}

size_t ear_speech_history_count(const ear_speech *sp) {
    return sp ? sp->history.count : 0;
}

const char *ear_speech_history_at(const ear_speech *sp, size_t index) {
    return sp ? ear__speech_history_get(&sp->history, index) : NULL;
}

uint64_t ear_speech_total(const ear_speech *sp) {
    return sp ? sp->history.total : 0;
}

/* ---- Each frame, mute, echo ------------------------------------------------------------ */

void ear_speech_update(ear_speech *sp) {
    if (!sp || sp->cfg.log_only) return;
    ear__speech_clips_update(sp);
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

/* ---- The output, its voices and settings ------------------------------------------------ */

ear_speech_output ear_speech_get_output(ear_speech *sp, double timeout_s) {
    if (!sp) return EAR_SPEECH_OUTPUT_NONE;
    pthread_mutex_lock(&sp->lock);
    ear__speech_wait_published(sp, timeout_s);
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
    ear__speech_wait_published(sp, 3.0);
    size_t n = sp->voice_count;
    pthread_mutex_unlock(&sp->lock);
    return n;
}

const char *ear_speech_voice_name(ear_speech *sp, size_t index) {
    if (!sp) return NULL;
    pthread_mutex_lock(&sp->lock);
    ear__speech_wait_published(sp, 3.0);
    /* A list, once published, is never changed; a fail-over keeps the old one alive. */
    const char *name = index < sp->voice_count ? sp->voices[index] : NULL;
    pthread_mutex_unlock(&sp->lock);
    return name;
}

ear_result ear_speech_set_voice(ear_speech *sp, const char *name) {
    if (!sp || !name) return EAR_E_INVALID_ARG;
    pthread_mutex_lock(&sp->lock);
    ear__speech_wait_published(sp, 3.0);
    bool found = false;
    for (size_t i = 0; i < sp->voice_count && !found; i++)
        found = sp->voices[i] && strcmp(sp->voices[i], name) == 0;
    pthread_mutex_unlock(&sp->lock);
    if (!found) return EAR_E_NOT_FOUND;
    return send_cmd(sp, EAR__CMD_VOICE, EAR__SAY_TEXT, name, EAR_SPEECH_MESSAGE, 0, 0);
}

void ear_speech_set_rate(ear_speech *sp, int rate) {
    if (!sp) return;
    sp->timing_rate = clamp100(rate);
    send_cmd(sp, EAR__CMD_RATE, EAR__SAY_TEXT, NULL, EAR_SPEECH_MESSAGE, clamp100(rate), 0);
}

void ear_speech_set_volume(ear_speech *sp, int volume) {
    if (!sp) return;
    send_cmd(sp, EAR__CMD_VOLUME, EAR__SAY_TEXT, NULL, EAR_SPEECH_MESSAGE, clamp100(volume), 0);
}

void ear_speech_set_punctuation(ear_speech *sp, ear_speech_punctuation punctuation) {
    if (!sp || (unsigned)punctuation > EAR_SPEECH_PUNCT_ALL) return;
    send_cmd(sp, EAR__CMD_PUNCT, EAR__SAY_TEXT, NULL, EAR_SPEECH_MESSAGE, (int)punctuation, 0);
}

uint64_t ear_speech_delivered(const ear_speech *sp) {
    return sp ? (uint64_t)atomic_load(&((ear_speech *)sp)->delivered) : 0;
}

ear_voice_id ear_speech_stage_voice(const ear_speech *sp) {
    return sp ? sp->stage_voice : EAR_VOICE_NONE;
}

/* ---- The timeline ---------------------------------------------------------------------- */

void ear_speech_set_listener(ear_speech *sp, ear_speech_event_fn fn, void *user) {
    if (!sp) return;
    sp->timeline.fn = fn;
    sp->timeline.user = user;
}

void ear_speech_advance(ear_speech *sp, double now_s) {
    if (!sp) return;
    ear__timeline_advance(&sp->timeline, now_s);
    /* What the backend reported since, at the clock (one frame's precision). */
    if (!sp->cfg.log_only) ear__speech_take_reports(sp);
}

bool ear_speech_speaking(const ear_speech *sp) {
    return sp && ear__timeline_current(&sp->timeline, NULL);
}

bool ear_speech_current(const ear_speech *sp, ear_speech_event *out) {
    return sp && ear__timeline_current(&sp->timeline, out);
}

void ear_speech_set_language(ear_speech *sp, const char *code) {
    if (!sp || !code || !code[0] || strlen(code) >= sizeof sp->language) return;
    snprintf(sp->language, sizeof sp->language, "%s", code);
}

/* ---- The duck -------------------------------------------------------------------------- */

double ear_speech_duck_hold_s(const char *text, double s_per_char) {
    if (!text) return 0;
    if (!(s_per_char > 0)) s_per_char = EAR_SPEECH_DUCK_S_PER_CHAR;
    return (double)ear_utf8_count(text, strlen(text)) * s_per_char;
}

ear_result ear_speech_duck(const ear_speech *sp, ear_stage *stage, const char *rule,
                           const char *text, double s_per_char) {
    /* Muted speech is not heard: nothing to duck under. */
    if (!stage || !rule || !rule[0] || !text || ear_speech_muted(sp)) return EAR_OK;
    return ear_stage_trigger_duck(stage, rule, (float)ear_speech_duck_hold_s(text, s_per_char));
}
