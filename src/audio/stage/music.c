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
 * Audio side: a stream is pulled into its voice's FIFO a block ahead (ear__stream_prepare,
 * before the voice reads) and what the block read is dropped after (ear__stream_consume).
 * A short read is padded with silence and counted as an underrun, so the voice keeps
 * time; only a stream that says it has ended lets its voice run off the end.
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

/* ---- audio side ---------------------------------------------------------- */

/* A stream voice's start: it reads its slot's FIFO, empty at first. */
void ear__stream_start(ear_stage *s, ear__voice *v, const ear__start *st) {
    if (st->stream >= 0) {
        ear__stream_slot *ss = &s->streams[st->stream];
        ss->stream = s->stream_game[st->stream];
        ss->count = 0;
        v->stream = st->stream;
        v->channels = ss->stream.channels;
        v->base_step = (double)ss->stream.sample_rate / (double)s->config.sample_rate;
        v->looping = false;
        v->data = ss->fifo;
        v->frames = 0;
    }
}

/* Tops the voice's FIFO up with what this block will read (plus the interpolation's
 * neighbour). A stream that falls behind is padded with silence so the voice keeps
 * time; only a stream that has ended lets the voice run off the end. */
void ear__stream_prepare(ear_stage *s, ear__voice *v, uint64_t step_end) {
    ear__stream_slot *ss = &s->streams[v->stream];
    uint32_t ch = ss->stream.channels;
    uint64_t fastest = step_end > v->step_fx ? step_end : v->step_fx;
    uint64_t need64 =
        v->pos + (((uint64_t)v->frac + fastest * s->config.block_frames) >> 32) + 3u;
    uint32_t need = need64 > ss->capacity ? ss->capacity : (uint32_t)need64;
    while (ss->count < need) {
        uint32_t got = ss->stream.read(ss->stream.user, ss->fifo + (size_t)ss->count * ch,
                                       ss->capacity - ss->count);
        if (got == 0) break;
        ss->count += got > ss->capacity - ss->count ? ss->capacity - ss->count : got;
    }
    if (ss->count < need && !(ss->stream.ended && ss->stream.ended(ss->stream.user))) {
        memset(ss->fifo + (size_t)ss->count * ch, 0,
               (size_t)(need - ss->count) * ch * sizeof(float));
        ss->count = need;
        ss->underruns++;
    }
    v->data = ss->fifo;
    v->frames = ss->count;
    v->loop_len = ss->count;
}

/* Drops what the block consumed from the FIFO. */
void ear__stream_consume(ear_stage *s, ear__voice *v) {
    ear__stream_slot *ss = &s->streams[v->stream];
    uint32_t ch = ss->stream.channels;
    uint64_t used = v->pos < ss->count ? v->pos : ss->count;
    memmove(ss->fifo, ss->fifo + (size_t)used * ch,
            (size_t)(ss->count - used) * ch * sizeof(float));
    ss->count -= (uint32_t)used;
    v->pos -= used;
    v->frames = ss->count;
}
