/* SPDX-License-Identifier: Zlib */
/*
 * Oscillators: one period of each periodic waveform as a function of phase in
 * [0, 1), with peak 1, and the phase of a part at a frame.
 *
 * The waveforms are naive (computed straight from the phase, not band-limited), so
 * square, saw and, faintly, triangle alias above a few kHz; their discontinuities are
 * exactly where the formula puts them. Sine, triangle and saw start at 0 and rise;
 * square starts at +1. The engine tone is eight harmonics with amplitudes 0.7^(k-1),
 * scaled so that its peak is 1.
 *
 * Phase is computed in double from the frame index (never accumulated in float), so
 * an hour-long part keeps its pitch and its phase to better than 1e-7 of a cycle.
 *
 * sin, cos, log and expm1 are the portable ones (earshot/portable_math.h: within 3e-14
 * relative for sin and cos, 4 ulp of a double for log and expm1, far inside the half
 * float ulp a sample is rounded to), so a clip has the same bits natively and in the web
 * build; floor is exact everywhere.
 */
#include "synth_internal.h"

#include "portable_math.h"

#include <math.h>

#define TWO_PI 6.283185307179586476925286766559

/* max over phase of sum_{k=1..8} 0.7^(k-1) sin(2 pi k phase), found by a dense
 * search refined by ternary search (at phase 0.0617387...). */
#define ENGINE_PEAK      2.0593262536175096
#define ENGINE_HARMONICS 8

static double engine_wave(double phase) {
    /* sin(kx) by the Chebyshev recurrence sin(kx) = 2 cos(x) sin((k-1)x) - sin((k-2)x):
     * two calls a sample instead of eight. */
    double x = TWO_PI * phase;
    double s1, c1;
    ear__sincos(x, &s1, &c1); /* one reduction; the bits of ear__sin and ear__cos */
    double c2 = 2.0 * c1;
    double prev = 0.0, cur = s1, sum = 0.0, weight = 1.0;
    for (int k = 1; k <= ENGINE_HARMONICS; k++) {
        sum += weight * cur;
        double next = c2 * cur - prev;
        prev = cur;
        cur = next;
        weight *= 0.7;
    }
    return sum / ENGINE_PEAK;
}

double ear__synth_wave(ear_waveform waveform, double phase) {
    switch (waveform) {
    case EAR_WAVE_SINE: return ear__sin(TWO_PI * phase);
    case EAR_WAVE_SQUARE: return phase < 0.5 ? 1.0 : -1.0;
    case EAR_WAVE_TRIANGLE:
        if (phase < 0.25) return 4.0 * phase;
        if (phase < 0.75) return 2.0 - 4.0 * phase;
        return 4.0 * phase - 4.0;
    case EAR_WAVE_SAW: return phase < 0.5 ? 2.0 * phase : 2.0 * phase - 2.0;
    case EAR_WAVE_ENGINE: return engine_wave(phase);
    case EAR_WAVE_NOISE: break;
    }
    return 0.0;
}

/* Phase in cycles (not reduced) at time t of an exponential sweep from f0 to f1 over
 * length_s: the integral of f0 (f1/f0)^(t/length_s). expm1 keeps it exact near t = 0. */
static double sweep_cycles(double f0, double f1, double length_s, double t) {
    double log_ratio = ear__log(f1 / f0);
    if (fabs(log_ratio) < 1e-12) return f0 * t;
    return f0 * length_s * ear__expm1(log_ratio * t / length_s) / log_ratio;
}

void ear__synth_render_part(const ear__synth_part *part, float *out, bool add) {
    const double rate = (double)part->sample_rate;
    const double length_s = (double)part->frames / rate;
    ear_rng rng;
    ear_rng_seed(&rng, part->seed);
    uint64_t cycle_acc = 0; /* (cycles * i) mod frames, for whole-cycle parts */

    for (uint64_t i = 0; i < part->frames; i++) {
        double value;
        if (part->waveform == EAR_WAVE_NOISE) {
            value = 2.0 * ear_rng_uniform(&rng) - 1.0;
        } else {
            double phase;
            if (part->whole_cycles) {
                phase = (double)cycle_acc / (double)part->frames;
                cycle_acc += part->cycles;
                if (cycle_acc >= part->frames) cycle_acc -= part->frames;
            } else {
                double t = (double)i / rate;
                double c = part->sweep ? sweep_cycles(part->start_hz, part->end_hz, length_s, t)
                                       : part->start_hz * (double)i / rate;
                phase = c - floor(c);
                if (phase >= 1.0) phase = 0.0; /* c - floor(c) can round up to 1 */
            }
            value = ear__synth_wave(part->waveform, phase);
        }
        double level = part->amplitude;
        if (part->has_envelope) level *= ear__synth_envelope_at(part, i);
        /* A zero level writes +0.0f, never -0.0f, so a release ends on exact zero bits. */
        float sample = level == 0.0 ? 0.0f : (float)(value * level);
        if (add)
            out[i] += sample;
        else
            out[i] = sample;
    }
}
