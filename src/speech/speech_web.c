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
 */
#include "earshot/speech.h"

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
    char *history[EAR_SPEECH_HISTORY];
    size_t history_start, history_count, review;
    uint64_t total;
    atomic_uint_fast64_t delivered;
    bool mute, echo;
};

const char *ear_speech_output_name(ear_speech_output output) {
    switch (output) {
    case EAR_SPEECH_OUTPUT_NONE: return "none";
    case EAR_SPEECH_OUTPUT_DISPATCHER: return "speech-dispatcher";
    case EAR_SPEECH_OUTPUT_ESPEAK: return "espeak-ng";
    case EAR_SPEECH_OUTPUT_CONSOLE: return "console";
    case EAR_SPEECH_OUTPUT_LOG: return "log";
    case EAR_SPEECH_OUTPUT_LIVE_REGION: return "live-region";
    }
    return "unknown";
}

const char *ear_speech_priority_name(ear_speech_priority priority) {
    static const char *const names[] = {"important", "message", "text", "notification",
                                        "progress"};
    return (unsigned)priority <= EAR_SPEECH_PROGRESS ? names[priority] : "unknown";
}

static const char *const punct_names[] = {"player", "none", "some", "most", "all"};

const char *ear_speech_punctuation_name(ear_speech_punctuation p) {
    return (unsigned)p <= EAR_SPEECH_PUNCT_ALL ? punct_names[p] : "unknown";
}

ear_result ear_speech_punctuation_parse(const char *name, ear_speech_punctuation *out) {
    if (!name || !out) return EAR_E_INVALID_ARG;
    for (unsigned i = 0; i <= EAR_SPEECH_PUNCT_ALL; i++)
        if (strcmp(name, punct_names[i]) == 0) {
            *out = (ear_speech_punctuation)i;
            return EAR_OK;
        }
    return EAR_E_NOT_FOUND;
}

ear_speech_config ear_speech_config_default(void) {
    ear_speech_config c;
    memset(&c, 0, sizeof c);
    c.client_name = "earshot";
    return c;
}

/* A copy cut at max bytes, never inside a UTF-8 character. */
static char *dup_str(const char *s, size_t max) {
    size_t n = strlen(s);
    if (n > max) {
        n = max;
        while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80) n--;
    }
    char *d = malloc(n + 1);
    if (!d) return NULL;
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

/* Bytes of the UTF-8 character at s (0 when invalid); its code point in *cp. */
static size_t utf8_char(const char *s, uint32_t *cp) {
    const unsigned char *u = (const unsigned char *)s;
    size_t n;
    uint32_t c;
    if (u[0] < 0x80) {
        n = 1;
        c = u[0];
    } else if ((u[0] & 0xE0) == 0xC0) {
        n = 2;
        c = u[0] & 0x1Fu;
    } else if ((u[0] & 0xF0) == 0xE0) {
        n = 3;
        c = u[0] & 0x0Fu;
    } else if ((u[0] & 0xF8) == 0xF0) {
        n = 4;
        c = u[0] & 0x07u;
    } else {
        return 0;
    }
    for (size_t i = 1; i < n; i++) {
        if ((u[i] & 0xC0) != 0x80) return 0;
        c = (c << 6) | (u[i] & 0x3Fu);
    }
    static const uint32_t least[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (c < least[n] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return 0;
    if (cp) *cp = c;
    return n;
}

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
    for (size_t i = 0; i < sp->history_count; i++)
        free(sp->history[(sp->history_start + i) % EAR_SPEECH_HISTORY]);
    free(sp);
}

static void write_line(const ear_speech *sp, const char *text) {
    if (sp->cfg.line_fn) {
        sp->cfg.line_fn(sp->cfg.line_user, text);
    } else {
        fputs(text, stdout);
        fputc('\n', stdout);
        fflush(stdout);
    }
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
    sp->review = sp->history_count - 1;
    sp->total++;
    return EAR_OK;
}

/* Hands one message to the page: assertive interrupts, polite waits its turn. */
static ear_result say(ear_speech *sp, const char *text, bool assertive) {
    if (sp->mute) return EAR_OK;
    atomic_fetch_add(&sp->delivered, 1);
    if (sp->echo) write_line(sp, text);
    if (sp->cfg.log_only) return EAR_OK;
    char *cut = dup_str(text, EAR_SPEECH_TEXT_MAX - 1);
    if (!cut) return EAR_E_OUT_OF_MEMORY;
    ear__web_announce(cut, assertive ? 1 : 0);
    free(cut);
    return EAR_OK;
}

ear_result ear_speech_say(ear_speech *sp, const char *text, ear_speech_priority priority) {
    if (!sp || !text || (unsigned)priority > EAR_SPEECH_PROGRESS) return EAR_E_INVALID_ARG;
    if (priority != EAR_SPEECH_PROGRESS) {
        ear_result res = remember(sp, text);
        if (res != EAR_OK) return res;
    }
    return say(sp, text, priority == EAR_SPEECH_INTERRUPT);
}

ear_result ear_speech_speak(ear_speech *sp, const char *text) {
    return ear_speech_say(sp, text, EAR_SPEECH_INTERRUPT);
}

ear_result ear_speech_speak_queued(ear_speech *sp, const char *text) {
    return ear_speech_say(sp, text, EAR_SPEECH_MESSAGE);
}

ear_result ear_speech_say_char(ear_speech *sp, const char *utf8_char_text) {
    if (!sp || !utf8_char_text) return EAR_E_INVALID_ARG;
    size_t n = utf8_char(utf8_char_text, NULL);
    if (n == 0 || utf8_char_text[n] != '\0') return EAR_E_INVALID_ARG;
    uint32_t cp = 0;
    utf8_char(utf8_char_text, &cp);
    if (cp < 0x20 || cp == 0x7F) return EAR_E_INVALID_ARG;
    /* A live region reads a lone space as nothing: the word instead. */
    return say(sp, strcmp(utf8_char_text, " ") == 0 ? "space" : utf8_char_text, true);
}

ear_result ear_speech_say_key(ear_speech *sp, const char *key_name) {
    if (!sp || !key_name || !key_name[0] || strlen(key_name) > 64) return EAR_E_INVALID_ARG;
    for (const unsigned char *p = (const unsigned char *)key_name; *p; p++)
        if (*p <= 0x20 || *p == 0x7F || *p == '"') return EAR_E_INVALID_ARG;
    for (size_t i = 0; key_name[i];) {
        size_t n = utf8_char(key_name + i, NULL);
        if (n == 0) return EAR_E_INVALID_ARG;
        i += n;
    }
    /* SSIP's "shift_a" is read by a screen reader as the words "shift a". */
    char words[65];
    size_t len = strlen(key_name);
    for (size_t i = 0; i <= len; i++) words[i] = key_name[i] == '_' ? ' ' : key_name[i];
    return say(sp, words, true);
}

void ear_speech_stop(ear_speech *sp) {
    if (!sp || sp->cfg.log_only) return;
    ear__web_announce_stop();
}

static const char *history_get(const ear_speech *sp, size_t index) {
    return sp->history[(sp->history_start + index) % EAR_SPEECH_HISTORY];
}

ear_result ear_speech_repeat_last(ear_speech *sp) {
    if (!sp) return EAR_E_INVALID_ARG;
    if (sp->history_count == 0) return EAR_E_NOT_FOUND;
    sp->review = sp->history_count - 1;
    return say(sp, history_get(sp, sp->history_count - 1), true);
}

static ear_result review_step(ear_speech *sp, bool back) {
    if (!sp) return EAR_E_INVALID_ARG;
    if (sp->history_count == 0) return EAR_E_NOT_FOUND;
    bool at_end = back ? sp->review == 0 : sp->review + 1 >= sp->history_count;
    if (!at_end) sp->review = back ? sp->review - 1 : sp->review + 1;
    ear_result res = say(sp, history_get(sp, sp->review), true);
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
    return sp->history_count ? sp->review : 0;
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

size_t ear_speech_history_count(const ear_speech *sp) {
    return sp ? sp->history_count : 0;
}

const char *ear_speech_history_at(const ear_speech *sp, size_t index) {
    if (!sp || index >= sp->history_count) return NULL;
    return history_get(sp, index);
}

uint64_t ear_speech_total(const ear_speech *sp) {
    return sp ? sp->total : 0;
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
