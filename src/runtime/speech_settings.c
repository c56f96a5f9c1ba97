/* SPDX-License-Identifier: Zlib */
/*
 * The game's own speech settings (its settings menu), kept in the save so that they
 * hold from one start to the next: speech.voice (a voice name), speech.rate and
 * speech.volume (-100 .. 100, SSIP's scale), speech.punctuation ("none", "some",
 * "most", "all"). A key that is missing means the player's own setting: nothing is
 * sent to speech-dispatcher for it, so Orca's (the player's) defaults are heard. A
 * value that cannot be read is ignored with a warning that names the key.
 */
#include "earshot/engine.h"

#include <stdlib.h>
#include <string.h>

#define KEY_VOICE  "speech.voice"
#define KEY_RATE   "speech.rate"
#define KEY_VOLUME "speech.volume"
#define KEY_PUNCT  "speech.punctuation"

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

ear_result ear_ctx_set_speech_rate(ear_ctx *ctx, int rate) {
    if (!ctx || rate < -100 || rate > 100) return EAR_E_INVALID_ARG;
    ear_result res = ear_storage_set_int(ear_ctx_storage(ctx), KEY_RATE, rate);
    if (res == EAR_OK) ear_speech_set_rate(ear_ctx_speech(ctx), rate);
    return res;
}

ear_result ear_ctx_set_speech_volume(ear_ctx *ctx, int volume) {
    if (!ctx || volume < -100 || volume > 100) return EAR_E_INVALID_ARG;
    ear_result res = ear_storage_set_int(ear_ctx_storage(ctx), KEY_VOLUME, volume);
    if (res == EAR_OK) ear_speech_set_volume(ear_ctx_speech(ctx), volume);
    return res;
}

ear_result ear_ctx_set_speech_voice(ear_ctx *ctx, const char *name) {
    if (!ctx || !name || !name[0]) return EAR_E_INVALID_ARG;
    ear_speech *sp = ear_ctx_speech(ctx);
    if (!sp) return EAR_E_STATE;
    ear_result res = ear_speech_set_voice(sp, name); /* EAR_E_NOT_FOUND: not saved */
    if (res != EAR_OK) return res;
    return ear_storage_set_string(ear_ctx_storage(ctx), KEY_VOICE, name);
}

ear_result ear_ctx_set_speech_punctuation(ear_ctx *ctx, ear_speech_punctuation punctuation) {
    if (!ctx || punctuation == EAR_SPEECH_PUNCT_PLAYER ||
        (unsigned)punctuation > EAR_SPEECH_PUNCT_ALL)
        return EAR_E_INVALID_ARG;
    ear_result res = ear_storage_set_string(ear_ctx_storage(ctx), KEY_PUNCT,
                                            ear_speech_punctuation_name(punctuation));
    if (res == EAR_OK) ear_speech_set_punctuation(ear_ctx_speech(ctx), punctuation);
    return res;
}

void ear_ctx_use_player_speech_settings(ear_ctx *ctx) {
    if (!ctx) return;
    ear_storage *st = ear_ctx_storage(ctx);
    ear_storage_remove(st, KEY_VOICE);
    ear_storage_remove(st, KEY_RATE);
    ear_storage_remove(st, KEY_VOLUME);
    ear_storage_remove(st, KEY_PUNCT);
}
