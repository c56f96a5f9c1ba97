/* SPDX-License-Identifier: Zlib */
/*
 * The game's settings menu changing its speech settings through the ctx (ear_ctx_set_speech_*,
 * ear_ctx_use_player_speech_settings): each is saved under its key (speech_settings.c says
 * which and what a missing key means) and, where it can be, applied to the speech at once.
 * Above the runner in the file order: it reads the ctx's speech and storage.
 */
#include "runtime_internal.h"

#define KEY_VOICE  EAR__SPEECH_KEY_VOICE
#define KEY_RATE   EAR__SPEECH_KEY_RATE
#define KEY_VOLUME EAR__SPEECH_KEY_VOLUME
#define KEY_PUNCT  EAR__SPEECH_KEY_PUNCT

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
