/* SPDX-License-Identifier: Zlib */
/*
 * Clips from parts: one part, layers summed sample by sample, or parts in sequence.
 * Every description is resolved (defaults and checks) before the clip is created, so
 * a bad part fails the call with no clip made. The clip is created silent and the
 * parts render straight into its samples: nothing else is allocated (each part is
 * resolved again while rendering rather than kept in a scratch array).
 */
#include "synth_internal.h"

/* Checks every part and measures the clip: the longest part's frames (layers) or
 * the sum of the parts' frames (sequence). All parts must share one sample rate. */
static ear_result measure(const ear_synth *parts, size_t count, bool sequence,
                          uint64_t *out_frames, uint32_t *out_rate) {
    if (!parts || count == 0) return EAR_E_INVALID_ARG;
    uint64_t frames = 0;
    uint32_t rate = 0;
    for (size_t i = 0; i < count; i++) {
        ear__synth_part p;
        ear_result r = ear__synth_resolve(&parts[i], &p);
        if (r != EAR_OK) return r;
        if (i == 0) rate = p.sample_rate;
        if (p.sample_rate != rate) return EAR_E_INVALID_ARG;
        if (sequence) {
            if (p.frames > UINT64_MAX - frames) return EAR_E_INVALID_ARG;
            frames += p.frames;
        } else if (p.frames > frames) {
            frames = p.frames;
        }
    }
    if (frames > SIZE_MAX / sizeof(float)) return EAR_E_OUT_OF_MEMORY;
    *out_frames = frames;
    *out_rate = rate;
    return EAR_OK;
}

static ear_result build(const ear_synth *parts, size_t count, bool sequence,
                        const ear_allocator *alloc, ear_clip **out_clip) {
    if (!out_clip) return EAR_E_INVALID_ARG;
    uint64_t frames;
    uint32_t rate;
    ear_result r = measure(parts, count, sequence, &frames, &rate);
    if (r != EAR_OK) return r;
    ear_clip *clip = NULL;
    r = ear_clip_create(NULL, frames, 1, rate, alloc, &clip);
    if (r != EAR_OK) return r;
    float *data = ear_clip_data_mut(clip);
    uint64_t at = 0;
    for (size_t i = 0; i < count; i++) {
        ear__synth_part p;
        /* Resolved once already by measure(); it cannot fail now. */
        (void)ear__synth_resolve(&parts[i], &p);
        /* Layers add into the silent clip; sequence parts write their own span. */
        ear__synth_render_part(&p, data + at, !sequence);
        if (sequence) at += p.frames;
    }
    *out_clip = clip;
    return EAR_OK;
}

ear_result ear_synth_clip(const ear_synth *synth, const ear_allocator *alloc,
                          ear_clip **out_clip) {
    return build(synth, 1, false, alloc, out_clip);
}

ear_result ear_synth_clip_layers(const ear_synth *layers, size_t count,
                                 const ear_allocator *alloc, ear_clip **out_clip) {
    return build(layers, count, false, alloc, out_clip);
}

ear_result ear_synth_clip_sequence(const ear_synth *parts, size_t count,
                                   const ear_allocator *alloc, ear_clip **out_clip) {
    return build(parts, count, true, alloc, out_clip);
}
