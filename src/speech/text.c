/* SPDX-License-Identifier: Zlib */
/*
 * The text rules of speech, the first file of the module (speech_internal.h): decoding
 * one UTF-8 character strictly (no overlong forms, surrogates or code points above
 * U+10FFFF, as ear_utf8_valid), what ear_speech_say_char and ear_speech_say_key accept,
 * the words a character or key is shown as, the names of outputs, priorities and
 * punctuation, the default config and the console's line (line_fn or stdout). The names
 * and the rules are pure functions: any thread.
 */
#include "speech_internal.h"

#include <stdio.h>
#include <string.h>

size_t ear__speech_utf8_char(const char *s, uint32_t *cp) {
    /* The string's NUL ends a sequence early (it is no continuation byte), so reading
     * "up to 4 bytes" never passes it. */
    if (s[0] == 0) return 0;
    return ear_utf8_decode(s, 4, cp);
}

bool ear__speech_char_valid(const char *text) {
    uint32_t cp = 0;
    size_t n = ear__speech_utf8_char(text, &cp);
    if (n == 0 || text[n] != '\0') return false;
    return cp >= 0x20 && cp != 0x7F; /* SSIP cannot carry control characters */
}

bool ear__speech_key_valid(const char *key_name) {
    if (!key_name[0] || strlen(key_name) > 64) return false;
    for (const unsigned char *p = (const unsigned char *)key_name; *p; p++)
        if (*p <= 0x20 || *p == 0x7F || *p == '"') return false;
    for (size_t i = 0; key_name[i];) {
        size_t n = ear__speech_utf8_char(key_name + i, NULL);
        if (n == 0) return false;
        i += n;
    }
    return true;
}

const char *ear__speech_shown(ear__speech_say_kind what, const char *text, bool words,
                              char *buf, size_t size) {
    if (what == EAR__SAY_CHAR && strcmp(text, " ") == 0) return "space";
    if (what != EAR__SAY_KEY || !words || size == 0) return text;
    snprintf(buf, size, "%s", text);
    for (char *p = buf; *p; p++)
        if (*p == '_') *p = ' '; /* "shift_a" -> "shift a" */
    return buf;
}

void ear__speech_write_line(const ear_speech_config *cfg, const char *text) {
    if (cfg->line_fn) {
        cfg->line_fn(cfg->line_user, text);
    } else {
        fputs(text, stdout);
        fputc('\n', stdout);
        fflush(stdout);
    }
}

const char *ear_speech_output_name(ear_speech_output output) {
    switch (output) {
    case EAR_SPEECH_OUTPUT_NONE: return "none";
    case EAR_SPEECH_OUTPUT_DISPATCHER: return "speech-dispatcher";
    case EAR_SPEECH_OUTPUT_ESPEAK: return "espeak-ng";
    case EAR_SPEECH_OUTPUT_CONSOLE: return "console";
    case EAR_SPEECH_OUTPUT_LOG: return "log";
    case EAR_SPEECH_OUTPUT_LIVE_REGION: return "live-region";
    case EAR_SPEECH_OUTPUT_NVDA: return "nvda";
    case EAR_SPEECH_OUTPUT_SAPI: return "sapi";
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
