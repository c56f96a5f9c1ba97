/* SPDX-License-Identifier: Zlib */
/*
 * The game's own speech settings (its settings menu), kept in the save so that they
 * hold from one start to the next: speech.voice (a voice name), speech.rate and
 * speech.volume (-100 .. 100, SSIP's scale), speech.punctuation ("none", "some",
 * "most", "all"). A key that is missing means the player's own setting: nothing is
 * sent to speech-dispatcher for it, so Orca's (the player's) defaults are heard. A
 * value that cannot be read is ignored with a warning that names the key.
 *
 * This file reads them into a speech config (the runner, at create, builds on it);
 * speech_settings_ctx.c, above the runner, changes them through a game's ctx.
 */
#include "runtime_internal.h"

#include <stdlib.h>
#include <string.h>

#define KEY_VOICE  EAR__SPEECH_KEY_VOICE
#define KEY_RATE   EAR__SPEECH_KEY_RATE
#define KEY_VOLUME EAR__SPEECH_KEY_VOLUME
#define KEY_PUNCT  EAR__SPEECH_KEY_PUNCT

static bool read_level(const ear_storage *st, const char *key, int *out) {
    if (!ear_storage_has(st, key)) return false;
    int64_t v = ear_storage_get_int(st, key, INT64_MIN);
    if (v < -100 || v > 100) {
        ear_log(EAR_LOG_WARN, "runtime",
                "saved %s '%s' is not a number from -100 to 100; "
                "the player's own setting is used",
                key, ear_storage_get_string(st, key, ""));
        return false;
    }
    *out = (int)v;
    return true;
}

void ear_speech_settings_load(const ear_storage *st, ear_speech_config *config) {
    if (!st || !config) return;
    const char *voice = ear_storage_get_string(st, KEY_VOICE, NULL);
    if (voice && voice[0]) config->voice = voice;
    if (read_level(st, KEY_RATE, &config->rate)) config->use_rate = true;
    if (read_level(st, KEY_VOLUME, &config->volume)) config->use_volume = true;
    const char *punct = ear_storage_get_string(st, KEY_PUNCT, NULL);
    if (punct) {
        ear_speech_punctuation p;
        if (ear_speech_punctuation_parse(punct, &p) == EAR_OK && p != EAR_SPEECH_PUNCT_PLAYER)
            config->punctuation = p;
        else
            ear_log(EAR_LOG_WARN, "runtime",
                    "saved %s '%s' is not none, some, most or all; "
                    "the player's own setting is used",
                    KEY_PUNCT, punct);
    }
}
