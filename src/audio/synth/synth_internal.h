/* SPDX-License-Identifier: Zlib */
/*
 * Internal to the synth module: an ear_synth with its defaults applied and its
 * fields checked (an ear__synth_part), and the renderer that fills a buffer from it.
 * Every public entry point resolves its descriptions first, so the renderer never
 * sees a zero meaning "default", a negative length or a non-finite number.
 */
#ifndef EARSHOT_SYNTH_INTERNAL_H
#define EARSHOT_SYNTH_INTERNAL_H

#include "earshot/synth.h"

#include <stdbool.h>
#include <stdint.h>

/* Longest part, in seconds: keeps frame counts and phase products far from overflow
 * (3600 s at 384 kHz is 1.4e9 frames). */
#define EAR__SYNTH_MAX_SECONDS 3600.0
#define EAR__SYNTH_MIN_RATE    1000u
#define EAR__SYNTH_MAX_RATE    384000u

typedef struct ear__synth_part {
    ear_waveform waveform;
    uint32_t sample_rate;
    uint64_t frames;
    double amplitude;
    double start_hz; /* after the whole-cycles rounding, when it applies */
    double end_hz;   /* equal to start_hz when there is no sweep */
    bool sweep;
    /* Whole-number-of-cycles mode: the phase at frame i is (cycles * i mod frames) /
     * frames, kept as an exact integer so the part repeats bit for bit. */
    bool whole_cycles;
    uint64_t cycles;
    uint64_t seed;
    /* Envelope in seconds (attack, decay) and frames (release). */
    bool has_envelope;
    double attack_s;
    double decay_s;
    uint64_t release_frames;
} ear__synth_part;

/* Applies the defaults of ear_synth and checks every field. EAR_E_INVALID_ARG (and
 * *out untouched) for a NULL synth, an unknown waveform, a negative or non-finite
 * field, a frequency above the Nyquist frequency, more than EAR__SYNTH_MAX_SECONDS
 * or a sample rate outside 1000..384000. */
ear_result ear__synth_resolve(const ear_synth *synth, ear__synth_part *out);

/* Writes (add false) or adds (add true) part->frames samples into out. */
void ear__synth_render_part(const ear__synth_part *part, float *out, bool add);

/* The level of the part's envelope at frame i (1 when it has none). */
double ear__synth_envelope_at(const ear__synth_part *part, uint64_t i);

/* One period of a waveform at phase in [0, 1), peak 1. Not for noise. */
double ear__synth_wave(ear_waveform waveform, double phase);

#endif
