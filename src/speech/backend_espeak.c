/* SPDX-License-Identifier: Zlib */
/*
 * The espeak-ng backend, after speech-dispatcher when the config gives a stage (nobody
 * would hear it otherwise): each line is synthesised into memory on the speech thread and
 * handed back as a clip, which the game side plays on the stage (clips.c). espeak-ng's
 * library keeps global state, so one process-wide mutex serialises its use (shared with
 * the timing of lines, espeak_time.c) and it is initialised once
 * (AUDIO_OUTPUT_SYNCHRONOUS: espeak_Synth returns when the samples have been handed to
 * the callback, which collects them). It is loaded at run time (espeak_dl.h: GPL-3+, so
 * never linked); absent, the loader says so in one line and the chain goes on to the
 * console. It reports on its lines (clips.c): a line begins when its clip starts on the
 * stage, lasts the samples the synthesis callback delivered, ends with the clip's last
 * sample and is cut when a later line stops the clip.
 */
#include "espeak_dl.h"
#include "espeak_time.h"
#include "speech_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Synthesises a message, character or key into a new clip (NULL on failure), *full_s its
 * length. */
static ear_clip *espeak_clip(const ear__speech_cmd *c, double *full_s) {
    pcm_buf b = {0};
    pthread_mutex_lock(&espeak_lock);
    espeak_target = &b;
    es->SetSynthCallback(espeak_collect); /* the timing sets its own */
    espeak_ERROR err = EE_INTERNAL_ERROR;
    uint32_t cp = 0;
    if (c->what == EAR__SAY_CHAR && ear__speech_utf8_char(c->text, &cp) > 0) {
        /* "capital" before a capital letter, as screen readers spell. */
        es->SetParameter(espeakCAPITALS, 2, 0);
        err = es->Char((wchar_t)cp);
        es->SetParameter(espeakCAPITALS, 0, 0);
    } else if (c->what == EAR__SAY_KEY) {
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
    if (err == EE_OK && !b.failed && b.count > 0 && rate > 0 &&
        ear_clip_create(b.data, b.count, 1, (uint32_t)rate, NULL, &clip) == EAR_OK)
        *full_s = (double)b.count / (double)rate;
    free(b.data);
    return clip;
}

static bool usable(const ear_speech_config *cfg) {
    return !cfg->skip_espeak && cfg->stage;
}

static bool open_backend(ear_speech *sp, void **state, char ***voices, size_t *count) {
    pthread_mutex_lock(&espeak_lock);
    bool absent;
    bool ok = espeak_ready(&absent);
    char **names = NULL;
    size_t n = 0;
    if (ok) {
        if (sp->cfg.voice) es->SetVoiceByName(sp->cfg.voice);
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
    *state = NULL;
    *voices = names;
    *count = n;
    return true;
}

static void close_backend(ear_speech *sp, void *state) {
    (void)sp, (void)state;
}

static ear__speech_sent_result say(ear_speech *sp, void *state, const ear__speech_cmd *c) {
    (void)state;
    if (c->epoch < atomic_load(&sp->latest_epoch)) return EAR__SENT_SKIPPED;
    double full_s = 0;
    ear_clip *clip = espeak_clip(c, &full_s);
    if (!clip) {
        ear_log(EAR_LOG_WARN, "speech", "espeak-ng could not say a message");
        /* Never heard: the line is cut now, not left to the guard. */
        ear__speech_note_sent(sp, c->line, c->line);
        ear__speech_note_report(sp, c->line, EAR_SPEECH_EVENT_CUT);
        return EAR__SENT_REFUSED;
    }
    ear__speech_hand_clip(sp, clip,
                          c->what == EAR__SAY_TEXT ? c->priority : EAR_SPEECH_INTERRUPT,
                          c->epoch, c->line, full_s);
    return EAR__SENT_OK;
}

static ear__speech_sent_result apply(ear_speech *sp, void *state, const ear__speech_cmd *c) {
    (void)sp, (void)state;
    pthread_mutex_lock(&espeak_lock);
    switch (c->kind) {
    case EAR__CMD_VOICE: es->SetVoiceByName(c->text); break;
    case EAR__CMD_RATE: es->SetParameter(espeakRATE, espeak_wpm(c->value), 0); break;
    case EAR__CMD_VOLUME: es->SetParameter(espeakVOLUME, 100 + c->value, 0); break;
    case EAR__CMD_PUNCT: espeak_punctuation(c->value); break;
    default: break;
    }
    pthread_mutex_unlock(&espeak_lock);
    return EAR__SENT_OK;
}

const ear__speech_backend ear__speech_backend_espeak = {
    .name = "espeak-ng",
    .output = EAR_SPEECH_OUTPUT_ESPEAK,
    .usable = usable,
    .open = open_backend,
    .close = close_backend,
    .say = say,
    .apply = apply,
    .alive = NULL,
    .replays = false,
    .reports = true,
    .players_rate = false,
};
