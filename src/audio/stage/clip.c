/* SPDX-License-Identifier: Zlib */
/*
 * Clips: immutable-once-played samples with an atomic reference count. The
 * header and the samples are one allocation, made and freed through the allocator
 * the clip was created with (copied into the clip, so the caller's struct may go).
 * The stage never drops the last reference on the audio thread: voices that end
 * hand their clip back to the game thread (see api.c and block.c, the return ring). An adopted
 * clip (ear_clip_adopt) is the one exception to "one allocation": its samples are the
 * caller's buffer, freed beside the header.
 *
 * A clip stores its samples as floats or, asked for with EAR_CLIP_S16, as 16-bit
 * integers q (half the bytes): the value played is q / 32768, exactly representable in a
 * float, so a 16-bit clip renders bit for bit as the float clip of those values would.
 */
#include "earshot/stage.h"

#include <math.h>
#include <stdatomic.h>
#include <string.h>

struct ear_clip {
    _Atomic uint32_t refs;
    uint32_t channels;
    uint32_t sample_rate;
    uint32_t adopted; /* 1: data is a separate allocation, freed with the clip */
    uint64_t frames;
    ear_allocator alloc;
    float *data;     /* float clips: just after the header, 16-byte aligned; else NULL */
    int16_t *data16; /* 16-bit clips: the same place; else NULL */
};

/* A float sample as a 16-bit one: round to nearest (ties away from zero), clamped to
 * the 16-bit range; not finite is 0. In double, where x + 0.5 is exact for every float. */
static int16_t to_s16(float s) {
    if (!isfinite(s)) return 0;
    double x = (double)s * 32768.0;
    if (x >= 32767.0) return 32767;
    if (x <= -32768.0) return -32768;
    return (int16_t)(x < 0.0 ? -(int32_t)(0.5 - x) : (int32_t)(x + 0.5));
}

ear_result ear_clip_create_ex(const float *samples, uint64_t frames, uint32_t channels,
                              uint32_t sample_rate, uint32_t flags, const ear_allocator *alloc,
                              ear_clip **out_clip) {
    if (!out_clip || frames == 0 || (channels != 1 && channels != 2) || sample_rate < 1000 ||
        sample_rate > 384000 || (flags & ~(uint32_t)EAR_CLIP_S16))
        return EAR_E_INVALID_ARG;
    /* Frames are indexed with 64-bit cursors; the bound keeps size arithmetic exact. */
    if (frames > ((uint64_t)1 << 40)) return EAR_E_INVALID_ARG;
    ear_allocator a = ear_allocator_resolve(alloc);
    size_t header = (sizeof(ear_clip) + 15u) & ~(size_t)15u;
    uint64_t count = frames * channels;
    bool s16 = (flags & EAR_CLIP_S16) != 0;
    size_t bytes = s16 ? sizeof(int16_t) : sizeof(float);
    if (count > (SIZE_MAX - header) / bytes) return EAR_E_OUT_OF_MEMORY;
    ear_clip *clip = a.alloc_fn(header + (size_t)count * bytes, a.user);
    if (!clip) return EAR_E_OUT_OF_MEMORY;
    atomic_init(&clip->refs, 1u);
    clip->channels = channels;
    clip->sample_rate = sample_rate;
    clip->adopted = 0;
    clip->frames = frames;
    clip->alloc = a;
    void *data = (unsigned char *)clip + header;
    clip->data = s16 ? NULL : data;
    clip->data16 = s16 ? data : NULL;
    if (!samples) {
        memset(data, 0, (size_t)count * bytes);
    } else if (s16) {
        for (uint64_t i = 0; i < count; i++) clip->data16[i] = to_s16(samples[i]);
    } else {
        for (uint64_t i = 0; i < count; i++) {
            float s = samples[i];
            clip->data[i] = isfinite(s) ? s : 0.0f;
        }
    }
    *out_clip = clip;
    return EAR_OK;
}

ear_result ear_clip_create(const float *samples, uint64_t frames, uint32_t channels,
                           uint32_t sample_rate, const ear_allocator *alloc,
                           ear_clip **out_clip) {
    return ear_clip_create_ex(samples, frames, channels, sample_rate, 0, alloc, out_clip);
}

ear_result ear_clip_create_s16(const int16_t *samples, uint64_t frames, uint32_t channels,
                               uint32_t sample_rate, const ear_allocator *alloc,
                               ear_clip **out_clip) {
    ear_result r =
        ear_clip_create_ex(NULL, frames, channels, sample_rate, EAR_CLIP_S16, alloc, out_clip);
    if (r == EAR_OK && samples)
        memcpy((*out_clip)->data16, samples, (size_t)(frames * channels) * sizeof(int16_t));
    return r;
}

ear_result ear_clip_adopt(float *samples, uint64_t frames, uint32_t channels,
                          uint32_t sample_rate, const ear_allocator *alloc,
                          ear_clip **out_clip) {
    if (!out_clip || !samples || frames == 0 || (channels != 1 && channels != 2) ||
        sample_rate < 1000 || sample_rate > 384000 || frames > ((uint64_t)1 << 40))
        return EAR_E_INVALID_ARG;
    ear_allocator a = ear_allocator_resolve(alloc);
    ear_clip *clip = a.alloc_fn(sizeof *clip, a.user);
    if (!clip) return EAR_E_OUT_OF_MEMORY;
    uint64_t count = frames * channels;
    for (uint64_t i = 0; i < count; i++)
        if (!isfinite(samples[i])) samples[i] = 0.0f;
    atomic_init(&clip->refs, 1u);
    clip->channels = channels;
    clip->sample_rate = sample_rate;
    clip->adopted = 1;
    clip->frames = frames;
    clip->alloc = a;
    clip->data = samples;
    clip->data16 = NULL;
    *out_clip = clip;
    return EAR_OK;
}

void ear_clip_retain(ear_clip *clip) {
    if (clip) atomic_fetch_add_explicit(&clip->refs, 1u, memory_order_relaxed);
}

void ear_clip_release(ear_clip *clip) {
    if (!clip) return;
    if (atomic_fetch_sub_explicit(&clip->refs, 1u, memory_order_acq_rel) == 1u) {
        if (clip->adopted) clip->alloc.free_fn(clip->data, clip->alloc.user);
        clip->alloc.free_fn(clip, clip->alloc.user);
    }
}

uint64_t ear_clip_frames(const ear_clip *clip) {
    return clip ? clip->frames : 0;
}
uint32_t ear_clip_channels(const ear_clip *clip) {
    return clip ? clip->channels : 0;
}
uint32_t ear_clip_sample_rate(const ear_clip *clip) {
    return clip ? clip->sample_rate : 0;
}
double ear_clip_seconds(const ear_clip *clip) {
    return clip ? (double)clip->frames / (double)clip->sample_rate : 0.0;
}
const float *ear_clip_data(const ear_clip *clip) {
    return clip ? clip->data : NULL;
}
float *ear_clip_data_mut(ear_clip *clip) {
    return clip ? clip->data : NULL;
}
const int16_t *ear_clip_data_s16(const ear_clip *clip) {
    return clip ? clip->data16 : NULL;
}
int16_t *ear_clip_data_s16_mut(ear_clip *clip) {
    return clip ? clip->data16 : NULL;
}
uint32_t ear_clip_flags(const ear_clip *clip) {
    return clip && clip->data16 ? EAR_CLIP_S16 : 0u;
}
uint32_t ear_clip_refcount(const ear_clip *clip) {
    return clip ? atomic_load_explicit(&((ear_clip *)clip)->refs, memory_order_relaxed) : 0;
}
