/* SPDX-License-Identifier: Zlib */
/*
 * Streams on the audio side: the FIFO a stream voice reads (music.c starts streams on the
 * game side).
 *
 * A stream is pulled into its voice's FIFO a block ahead (ear__stream_prepare, before the
 * voice reads) and what the block read is dropped after (ear__stream_consume). A short read
 * is padded with silence and counted as an underrun, so the voice keeps time; only a
 * stream that says it has ended lets its voice run off the end.
 */
#include "stage_internal.h"

#include <string.h>

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
