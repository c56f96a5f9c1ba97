/* SPDX-License-Identifier: Zlib */
/*
 * Speech in the web build: every message goes to the page's ARIA live regions, which the
 * player's own screen reader speaks (NVDA, JAWS, VoiceOver, Orca through the browser's
 * accessibility tree). This file replaces speech.c there (speech-dispatcher, espeak-ng
 * and BrlAPI have no web build); the API, the history, the review cursor, mute and the
 * counters behave as speech.c's.
 *
 * Priorities: EAR_SPEECH_INTERRUPT, characters and keys go to the assertive region (the
 * screen reader cuts what it is saying); the others to the polite region, each as a new
 * line after the ones before, so queued messages are said in order. The page clears a
 * region before it sets the same words again, so a repeat is spoken again
 * (web/page/earshot-web.js). A log_only object (headless runs) touches no page.
 *
 * The page cannot tell when the screen reader has said a line, so the timeline
 * (timeline.c) times each line by the documented estimate (ear_speech_estimate_s at the
 * screen reader's normal rate): an assertive line cuts what the estimate says is still
 * being said, a polite one waits for it.
 */
#include "speech_internal.h"

#include <emscripten.h>

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The page's announce (web/page/earshot-web.js); nothing when there is no page (node). */
EM_JS(void, ear__web_announce, (const char *text, int assertive), {
    if (Module["earAnnounce"]) Module["earAnnounce"](UTF8ToString(text), !!assertive);
})
EM_JS(void, ear__web_announce_stop, (void), {
    if (Module["earAnnounceStop"]) Module["earAnnounceStop"]();
})

struct ear_speech {
    ear_speech_config cfg;
    ear__speech_history history;
    atomic_uint_fast64_t delivered;
    bool mute, echo;
    ear__speech_timeline timeline;
};

ear_result ear_speech_create(const ear_speech_config *config, ear_speech **out_speech) {
    if (!out_speech) return EAR_E_INVALID_ARG;
    ear_speech *sp = calloc(1, sizeof *sp);
    if (!sp) return EAR_E_OUT_OF_MEMORY;
    sp->cfg = config ? *config : ear_speech_config_default();
    /* Strings the page never needs are not kept: nothing borrowed outlives the call. */
    sp->cfg.client_name = NULL;
    sp->cfg.dispatcher_socket = NULL;
    sp->cfg.voice = NULL;
    sp->cfg.braille_host = NULL;
    sp->cfg.stage = NULL;
    sp->mute = sp->cfg.mute;
    sp->echo = sp->cfg.echo;
    atomic_init(&sp->delivered, 0);
    *out_speech = sp;
    return EAR_OK;
}

void ear_speech_destroy(ear_speech *sp) {
    if (!sp) return;
    ear__timeline_free(&sp->timeline);
    ear__speech_history_clear(&sp->history);
    free(sp);
}

/* Hands one message to the page: assertive interrupts, polite waits its turn. */
static ear_result say(ear_speech *sp, const char *text, ear_speech_priority priority,
                      bool again) {
    if (sp->mute) return EAR_OK;
    bool assertive = priority == EAR_SPEECH_INTERRUPT;
    ear_result timed =
        ear__timeline_say(&sp->timeline, text, priority, again, ear_speech_estimate_s(text, 0));
    if (timed != EAR_OK) return timed;
    atomic_fetch_add(&sp->delivered, 1);
    if (sp->echo) ear__speech_write_line(&sp->cfg, text);
    if (sp->cfg.log_only) return EAR_OK;
    char *cut = ear__speech_copy(text, EAR_SPEECH_TEXT_MAX - 1);
    if (!cut) return EAR_E_OUT_OF_MEMORY;
    ear__web_announce(cut, assertive ? 1 : 0);
    free(cut);
    return EAR_OK;
}

ear_result ear_speech_say(ear_speech *sp, const char *text, ear_speech_priority priority) {
    if (!sp || !text || (unsigned)priority > EAR_SPEECH_PROGRESS) return EAR_E_INVALID_ARG;
    if (priority != EAR_SPEECH_PROGRESS) {
        ear_result res = ear__speech_history_add(&sp->history, text);
        if (res != EAR_OK) return res;
    }
    return say(sp, text, priority, false);
}

ear_result ear_speech_say_char(ear_speech *sp, const char *utf8_char_text) {
    if (!sp || !utf8_char_text || !ear__speech_char_valid(utf8_char_text))
        return EAR_E_INVALID_ARG;
    /* A live region reads a lone space as nothing: the word instead. */
    return say(sp, strcmp(utf8_char_text, " ") == 0 ? "space" : utf8_char_text,
               EAR_SPEECH_INTERRUPT, false);
}

ear_result ear_speech_say_key(ear_speech *sp, const char *key_name) {
    if (!sp || !key_name || !ear__speech_key_valid(key_name)) return EAR_E_INVALID_ARG;
    /* SSIP's "shift_a" is read by a screen reader as the words "shift a". */
    char words[65];
    size_t len = strlen(key_name);
    for (size_t i = 0; i <= len; i++) words[i] = key_name[i] == '_' ? ' ' : key_name[i];
    return say(sp, words, EAR_SPEECH_INTERRUPT, false);
}

void ear_speech_stop(ear_speech *sp) {
    if (!sp) return;
    ear__timeline_stop(&sp->timeline);
    if (sp->cfg.log_only) return;
    ear__web_announce_stop();
}

ear__speech_history *ear__speech_history_of(ear_speech *sp) {
    return &sp->history;
}

const ear__speech_history *ear__speech_history_of_const(const ear_speech *sp) {
    return &sp->history;
}

ear_result ear__speech_say_again(ear_speech *sp, const char *text) {
    return say(sp, text, EAR_SPEECH_INTERRUPT, true);
}

void ear_speech_update(ear_speech *sp) {
    (void)sp; /* the page speaks at once: nothing waits on the game thread */
}

void ear_speech_set_mute(ear_speech *sp, bool mute) {
    if (!sp) return;
    sp->mute = mute;
    if (mute) ear_speech_stop(sp);
}

bool ear_speech_muted(const ear_speech *sp) {
    return sp && sp->mute;
}

void ear_speech_set_echo(ear_speech *sp, bool echo) {
    if (sp) sp->echo = echo;
}

ear_speech_output ear_speech_get_output(ear_speech *sp, double timeout_s) {
    (void)timeout_s;
    if (!sp) return EAR_SPEECH_OUTPUT_NONE;
    return sp->cfg.log_only ? EAR_SPEECH_OUTPUT_LOG : EAR_SPEECH_OUTPUT_LIVE_REGION;
}

/* The screen reader's voice is the player's: the page has no voices to choose, and rate,
 * volume and punctuation are the screen reader's settings. */
size_t ear_speech_voice_count(ear_speech *sp) {
    (void)sp;
    return 0;
}

const char *ear_speech_voice_name(ear_speech *sp, size_t index) {
    (void)sp, (void)index;
    return NULL;
}

ear_result ear_speech_set_voice(ear_speech *sp, const char *name) {
    if (!sp || !name) return EAR_E_INVALID_ARG;
    return EAR_E_NOT_FOUND;
}

void ear_speech_set_rate(ear_speech *sp, int rate) {
    (void)sp, (void)rate;
}

void ear_speech_set_volume(ear_speech *sp, int volume) {
    (void)sp, (void)volume;
}

void ear_speech_set_punctuation(ear_speech *sp, ear_speech_punctuation punctuation) {
    (void)sp, (void)punctuation;
}

uint64_t ear_speech_delivered(const ear_speech *sp) {
    return sp ? (uint64_t)atomic_load(&sp->delivered) : 0;
}

bool ear_speech_braille_connected(ear_speech *sp) {
    (void)sp; /* the screen reader drives the player's braille display itself */
    return false;
}

ear_voice_id ear_speech_stage_voice(const ear_speech *sp) {
    (void)sp;
    return EAR_VOICE_NONE;
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
    (void)sp, (void)code; /* the page's lang attribute is the screen reader's */
}
