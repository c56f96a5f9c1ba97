/* SPDX-License-Identifier: Zlib */
/*
 * How long espeak-ng takes to say a line: a headless run (speech.h, log_only) times each
 * line by a real synthesizer. The line is synthesised in espeak-ng's synchronous mode
 * into a callback that only counts samples (nothing is played, nothing kept), at the
 * rate and in the voice asked, and the count over the sample rate is its length. The
 * espeak-ng parameters in force before (rate, voice) are put back afterwards, so the
 * espeak-ng output on the stage (speech.c), which shares the process-wide state, speaks
 * on as it was set.
 *
 * espeak-ng carries some state from one utterance to the next: the same line can come out
 * up to about 20 ms longer or shorter after other lines (measured: 3.970 to 3.983 s for a
 * 4 s line). A run is still deterministic (the same lines in the same order give the
 * same lengths), and the cache keeps a line's first length for the rest of the process.
 *
 * A cache (an open-addressed table keyed by text, rate and voice, process-wide, freed
 * with the process) makes a repeated line cost a look-up; a run says the same menu items
 * over and over.
 *
 * Every espeak-ng call of the timing is in this file: Initialize, SetSynthCallback,
 * SetParameter / GetParameter, SetVoiceByName, GetCurrentVoice, Synth and Synchronize,
 * each through the table of the library loaded at run time (espeak_dl.h: espeak-ng is
 * GPL-3+, so never linked); absent, every line is timed by the estimate.
 */
#include "espeak_time.h"

#include "espeak_dl.h"
#include "speech_internal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

pthread_mutex_t ear__espeak_lock = PTHREAD_MUTEX_INITIALIZER;
static int espeak_rate_hz = 0; /* > 0 once initialised; < 0 when it failed */

int ear__espeak_start(void) {
    if (espeak_rate_hz == 0) {
        const ear__espeak_table *es = ear__espeak_api();
        int rate =
            es ? es->Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, NULL, espeakINITIALIZE_DONT_EXIT)
               : -1;
        espeak_rate_hz = rate > 0 ? rate : -1;
    }
    return espeak_rate_hz;
}

static uint64_t counted; /* samples of the synthesis under way (ear__espeak_lock held) */

static int count_samples(short *wav, int n, espeak_EVENT *events) {
    (void)wav, (void)events;
    if (n > 0) counted += (uint64_t)n;
    return 0;
}

typedef struct entry {
    char *key; /* "<rate>\x1f<voice>\x1f<text>" */
    double seconds;
} entry;

static entry *table;
static size_t table_cap, table_count;

static uint64_t hash_of(const char *s) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    return h;
}

static entry *slot_for(const char *key) {
    size_t i = (size_t)hash_of(key) & (table_cap - 1);
    while (table[i].key && strcmp(table[i].key, key) != 0) i = (i + 1) & (table_cap - 1);
    return &table[i];
}

static bool grow(void) {
    size_t cap = table_cap ? table_cap * 2 : 256;
    entry *old = table;
    size_t old_cap = table_cap;
    table = calloc(cap, sizeof *table);
    if (!table) {
        table = old;
        return false;
    }
    table_cap = cap;
    for (size_t i = 0; i < old_cap; i++)
        if (old[i].key) *slot_for(old[i].key) = old[i];
    free(old);
    return true;
}

static int wpm_of(int rate) {
    if (rate < -100) rate = -100;
    if (rate > 100) rate = 100;
    return rate < 0 ? 175 + rate * 95 / 100 : 175 + rate * 275 / 100;
}

/* With the lock held. */
static bool synth_seconds(const char *text, int rate, const char *voice, double *out_s) {
    if (ear__espeak_start() <= 0) return false;
    const ear__espeak_table *es = ear__espeak_api();
    int old_rate = es->GetParameter(espeakRATE, 1);
    const espeak_VOICE *cur = es->GetCurrentVoice();
    char old_voice[128] = "";
    if (cur && cur->name) snprintf(old_voice, sizeof old_voice, "%s", cur->name);
    if (!voice || es->SetVoiceByName(voice) != EE_OK) es->SetVoiceByName("en");
    es->SetParameter(espeakRATE, wpm_of(rate), 0);
    es->SetSynthCallback(count_samples);
    counted = 0;
    espeak_ERROR err =
        es->Synth(text, strlen(text) + 1, 0, POS_CHARACTER, 0, espeakCHARS_UTF8, NULL, NULL);
    if (err == EE_OK) err = es->Synchronize();
    uint64_t n = counted;
    es->SetSynthCallback(NULL);
    es->SetParameter(espeakRATE, old_rate, 0);
    if (old_voice[0]) es->SetVoiceByName(old_voice);
    if (err != EE_OK) return false;
    *out_s = (double)n / (double)espeak_rate_hz;
    return true;
}

bool ear__espeak_seconds(const char *text, int rate, const char *voice, double *out_s) {
    if (!text || !out_s) return false;
    char head[160];
    snprintf(head, sizeof head, "%d\x1f%s\x1f", rate, voice ? voice : "");
    size_t hn = strlen(head), tn = strlen(text);
    char *key = malloc(hn + tn + 1);
    if (!key) return false;
    memcpy(key, head, hn);
    memcpy(key + hn, text, tn + 1);
    pthread_mutex_lock(&ear__espeak_lock);
    bool ok = false;
    if (table_cap) {
        entry *e = slot_for(key);
        if (e->key) {
            *out_s = e->seconds;
            pthread_mutex_unlock(&ear__espeak_lock);
            free(key);
            return true;
        }
    }
    double s = 0;
    if (synth_seconds(text, rate, voice, &s)) {
        ok = true;
        *out_s = s;
        if ((table_count + 1) * 2 <= table_cap || grow()) {
            entry *e = slot_for(key);
            e->key = key;
            e->seconds = s;
            table_count++;
            key = NULL;
        }
    }
    pthread_mutex_unlock(&ear__espeak_lock);
    free(key);
    return ok;
}
