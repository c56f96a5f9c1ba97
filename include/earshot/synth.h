/* SPDX-License-Identifier: Zlib */
/*
 * Synth: oscillators, sweeps, envelopes, layers and sequences, built into clips.
 * Deterministic: noise comes from the seed in the description, and the same
 * description gives the same samples bit for bit. Uses only libc, the stage's clips and
 * Earshot's portable math (the same bits natively and in the web build).
 *
 * Waveforms are computed straight from the phase (naive, not band-limited): square,
 * saw and, faintly, triangle alias at high frequencies. Sine, triangle and saw start
 * at 0 and rise; square starts at +1 (so it clicks in unless enveloped). The phase is
 * computed in double from the frame index, never accumulated, so an hour-long part
 * neither drifts in pitch nor loses phase.
 */
#ifndef EARSHOT_SYNTH_H
#define EARSHOT_SYNTH_H

#include "earshot/core.h"
#include "earshot/stage.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ear_waveform {
    EAR_WAVE_SINE = 0,
    EAR_WAVE_SQUARE,
    EAR_WAVE_TRIANGLE,
    EAR_WAVE_SAW,
    EAR_WAVE_NOISE,  /* white, uniform in [-1, 1), from the seed (ear_rng) */
    EAR_WAVE_ENGINE, /* a periodic engine-like tone: harmonics 1..8 with amplitudes 0.7^(k-1),
                        all in sine phase, scaled so the peak is 1 */
} ear_waveform;

/* Attack rises linearly from 0 to 1 over attack_s (t / attack_s, so the first sample
 * is 0); then the level decays exponentially, exp(-(t - attack_s) / decay_s) (decay_s
 * 0: no decay); over the last release_s seconds (R = round(release_s * rate) frames,
 * at least 1, at most the part) frame i is multiplied by the linear ramp
 * (frames - 1 - i) / R, which is exactly 0 (+0.0f) on the last sample.
 * All zero: no envelope (level 1 throughout). Each field at most 3600 s. */
typedef struct ear_envelope {
    float attack_s;
    float decay_s;
    float release_s;
} ear_envelope;

/* One oscillator part. Zero fields mean: sine, 440 Hz, 1 s, amplitude 0.5, 48 kHz,
 * no sweep, no envelope, seed 1. A part is invalid (EAR_E_INVALID_ARG) when a field
 * is negative or not finite, a frequency is above sample_rate / 2, seconds is above
 * 3600, the sample rate is outside 1000..384000, or the waveform is unknown. Noise
 * ignores the frequencies (they are still checked). */
typedef struct ear_synth {
    ear_waveform waveform;
    float frequency_hz;     /* start frequency; 0 means 440 */
    float end_frequency_hz; /* sweep target: f(t) = f0 (f1 / f0)^(t / length), the
                               phase its exact integral; 0 (or f0): no sweep */
    float seconds;          /* length; 0 means 1 */
    float amplitude;        /* peak amplitude; 0 means 0.5 */
    uint32_t sample_rate;   /* 0 means 48000 */
    uint64_t seed;          /* noise seed; 0 means 1 */
    ear_envelope envelope;
} ear_synth;

/* Frames a part renders: round(seconds * sample_rate), at least 1; 0 for a NULL or
 * invalid part. A periodic waveform with no sweep and no envelope is built to hold a
 * whole number of cycles (its frequency is rounded to the nearest multiple of
 * sample_rate / frames, at least one cycle), so it loops without a seam: the sample
 * after the last would be exactly the first. Thread: any. */
uint64_t ear_synth_frames(const ear_synth *synth);

/* Writes ear_synth_frames(synth) mono samples of one part into out (which holds at
 * least `capacity` samples). EAR_E_INVALID_ARG (out untouched) for an invalid part, a
 * NULL out or too small a buffer. Allocates nothing. Thread: any. */
ear_result ear_synth_render(const ear_synth *synth, float *out, uint64_t capacity);

/* Builds a mono clip of one part (one reference, owned by the caller; alloc as for
 * ear_clip_create, NULL: the default). EAR_E_INVALID_ARG for an invalid part or a
 * NULL out_clip, or ear_clip_create's error; on failure *out_clip is untouched and no
 * clip exists. Thread: any. */
ear_result ear_synth_clip(const ear_synth *synth, const ear_allocator *alloc,
                          ear_clip **out_clip);

/* Builds a mono clip of `count` layers summed sample by sample (length of the longest;
 * all layers must share a sample rate). The sum is not limited: layers whose
 * amplitudes add above 1 give samples above 1. EAR_E_INVALID_ARG for count 0, any
 * invalid layer or mixed rates; otherwise as ear_synth_clip. Thread: any. */
ear_result ear_synth_clip_layers(const ear_synth *layers, size_t count,
                                 const ear_allocator *alloc, ear_clip **out_clip);

/* Builds a mono clip of `count` parts played one after another (each part rendered
 * as it would be alone, from its own phase 0; all parts must share a sample rate).
 * Errors as ear_synth_clip_layers. Thread: any. */
ear_result ear_synth_clip_sequence(const ear_synth *parts, size_t count,
                                   const ear_allocator *alloc, ear_clip **out_clip);

/* Parses "synth:<waveform>:<hz>[:<seconds>[:<amplitude>]]" (waveforms sine, square,
 * triangle, saw, noise, engine, lower case) into *out, with every other field zero
 * (its default). Numbers are plain decimals (440, 0.15, .5, 2e3) whatever the C
 * locale: no sign, spaces, hex, inf or nan. hz in (0, 24000] (the Nyquist frequency of
 * the default 48 kHz), seconds in (0, 3600], amplitude in (0, 1]. EAR_E_FORMAT for
 * anything else (*out untouched); EAR_E_INVALID_ARG for NULL. Thread: any. */
ear_result ear_synth_parse_name(const char *name, ear_synth *out);

/* ear_synth_parse_name, then ear_synth_clip. Thread: any. */
ear_result ear_synth_clip_from_name(const char *name, const ear_allocator *alloc,
                                    ear_clip **out_clip);

#ifdef __cplusplus
}
#endif

#endif
