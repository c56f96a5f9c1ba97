/* SPDX-License-Identifier: Zlib */
/*
 * Music: tracks on the music bus with constant-power crossfades, from a clip or from a
 * stream.
 *
 * Game side: ear_stage_music_play starts the new track with a sin fade-in envelope and
 * sends every playing track a cos fade-out envelope over the same time, then they end.
 * At most EAR__MAX_STREAMS streams play at once; a stream's slot is free again once its
 * voice's return is collected (api.c), and its release runs then, on the game thread.
 *
 * The audio side of a stream (its FIFO) is streams.c's.
 */
#include "stage_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MODULE "mixer"

/* ---- game side ----------------------------------------------------------- */

ear_result ear_stage_music_play(ear_stage *stage, const ear_music_params *params) {
    if (!stage || !params) return EAR_E_INVALID_ARG;
    const ear_music_source *source = &params->source;
    const char *name = params->name;
    bool loop = params->loop;
    float volume = params->volume == 0.0f ? 1.0f : params->volume;
    float crossfade_s = params->crossfade_s;
    if ((!source->clip) == (!source->stream)) return EAR_E_INVALID_ARG;
    if (!isfinite(crossfade_s) || crossfade_s < 0.0f) return EAR_E_INVALID_ARG;
    ear__collect(stage);
    int32_t slot = -1;
    if (source->stream) {
        const ear_stream *st = source->stream;
        if (!st->read || (st->channels != 1 && st->channels != 2) || st->sample_rate < 1000 ||
            st->sample_rate > 384000)
            return EAR_E_INVALID_ARG;
        for (uint32_t k = 0; k < EAR__MAX_STREAMS && slot < 0; k++)
            if (stage->stream_free[k]) slot = (int32_t)k;
        if (slot < 0) return EAR_E_TOO_MANY_VOICES;
        stage->stream_game[slot] = *st;
    }
    ear_play p;
    memset(&p, 0, sizeof p);
    p.looping = loop && source->clip;
    p.volume = volume;
    p.bus = stage->music_bus;
    p.priority = 255;
    if (slot >= 0) stage->stream_free[slot] = 0;
    ear_voice_id id;
    ear_result r = ear__play(stage, source->clip, &p, -1, slot, crossfade_s, &id);
    if (r != EAR_OK) {
        if (slot >= 0) stage->stream_free[slot] = 1;
        return r;
    }
    /* The new track is on its way: everything playing fades out (cos) while it fades in
     * (sin). Done after the play, so a refused track leaves the music as it was. */
    uint32_t kept = 0;
    for (uint32_t i = 0; i < stage->music_count; i++) {
        ear_voice_id v = stage->music[i];
        if (!ear_stage_is_playing(stage, v)) continue;
        if (crossfade_s > 0.0f) {
            ear__cmd cmd = {
                .type = EAR__CMD_ENVELOPE, .id = v, .u.envelope = {EAR__ENV_OUT, crossfade_s}};
            if (ear__send(stage, &cmd) == EAR_OK) stage->stopping[(v & 0xffffu) - 1u] = 1;
        } else {
            ear_stage_stop(stage, v, EAR__MIN_FADE_S);
        }
        stage->music[kept++] = v;
    }
    stage->music_count = kept;
    if (stage->music_count == sizeof stage->music / sizeof stage->music[0]) {
        ear_stage_stop(stage, stage->music[0], EAR__MIN_FADE_S);
        memmove(stage->music, stage->music + 1,
                (stage->music_count - 1) * sizeof(ear_voice_id));
        stage->music_count--;
    }
    stage->music[stage->music_count++] = id;
    snprintf(stage->music_name, sizeof stage->music_name, "%s", name ? name : "");
    return EAR_OK;
}

ear_result ear_stage_music_stop(ear_stage *stage, float fade_s) {
    if (!stage) return EAR_E_INVALID_ARG;
    for (uint32_t i = 0; i < stage->music_count; i++)
        (void)ear_stage_stop(stage, stage->music[i], fade_s);
    stage->music_count = 0;
    stage->music_name[0] = '\0';
    return EAR_OK;
}

ear_result ear_stage_set_music_bus(ear_stage *stage, ear_bus bus) {
    if (!stage || (unsigned)bus >= EAR_BUS_COUNT) return EAR_E_INVALID_ARG;
    stage->music_bus = bus;
    return EAR_OK;
}

const char *ear_stage_music_name(const ear_stage *stage) {
    return stage ? stage->music_name : "";
}
