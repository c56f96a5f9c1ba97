/* SPDX-License-Identifier: Zlib */
/*
 * One part: the defaults and checks of an ear_synth (ear__synth_resolve), its length
 * and its rendering into a caller's buffer. A resolved part is plain data; rendering
 * it is a pure function of that data, so the same description gives the same samples
 * bit for bit on every run.
 */
#include "synth_internal.h"

#include <math.h>

static bool finite_nonnegative(float x) {
    return isfinite(x) && x >= 0.0f;
}

ear_result ear__synth_resolve(const ear_synth *synth, ear__synth_part *out) {
    if (!synth) return EAR_E_INVALID_ARG;
    switch (synth->waveform) {
    case EAR_WAVE_SINE:
    case EAR_WAVE_SQUARE:
    case EAR_WAVE_TRIANGLE:
    case EAR_WAVE_SAW:
    case EAR_WAVE_NOISE:
    case EAR_WAVE_ENGINE: break;
    default: return EAR_E_INVALID_ARG;
    }
    if (!finite_nonnegative(synth->frequency_hz) ||
        !finite_nonnegative(synth->end_frequency_hz) || !finite_nonnegative(synth->seconds) ||
        !finite_nonnegative(synth->amplitude) ||
        !finite_nonnegative(synth->envelope.attack_s) ||
        !finite_nonnegative(synth->envelope.decay_s) ||
        !finite_nonnegative(synth->envelope.release_s))
        return EAR_E_INVALID_ARG;

    ear__synth_part p = {0};
    p.waveform = synth->waveform;
    p.sample_rate = synth->sample_rate ? synth->sample_rate : 48000u;
    if (p.sample_rate < EAR__SYNTH_MIN_RATE || p.sample_rate > EAR__SYNTH_MAX_RATE)
        return EAR_E_INVALID_ARG;
    const double rate = (double)p.sample_rate;
    const double nyquist = rate / 2.0;

    double seconds = synth->seconds > 0.0f ? (double)synth->seconds : 1.0;
    if (seconds > EAR__SYNTH_MAX_SECONDS) return EAR_E_INVALID_ARG;
    double env_max = EAR__SYNTH_MAX_SECONDS;
    if ((double)synth->envelope.attack_s > env_max ||
        (double)synth->envelope.decay_s > env_max ||
        (double)synth->envelope.release_s > env_max)
        return EAR_E_INVALID_ARG;
    double frames = floor(seconds * rate + 0.5);
    p.frames = frames < 1.0 ? 1u : (uint64_t)frames;

    p.start_hz = synth->frequency_hz > 0.0f ? (double)synth->frequency_hz : 440.0;
    if (p.start_hz > nyquist) return EAR_E_INVALID_ARG;
    p.end_hz = p.start_hz;
    if (synth->end_frequency_hz > 0.0f) {
        if ((double)synth->end_frequency_hz > nyquist) return EAR_E_INVALID_ARG;
        p.end_hz = (double)synth->end_frequency_hz;
        p.sweep = p.end_hz != p.start_hz;
    }
    p.amplitude = synth->amplitude > 0.0f ? (double)synth->amplitude : 0.5;
    p.seed = synth->seed ? synth->seed : 1u;

    p.attack_s = (double)synth->envelope.attack_s;
    p.decay_s = (double)synth->envelope.decay_s;
    if (synth->envelope.release_s > 0.0f) {
        /* At least one frame, so a release always ends on an exact zero. */
        double r = floor((double)synth->envelope.release_s * rate + 0.5);
        p.release_frames = r < 1.0 ? 1u : (uint64_t)r;
        if (p.release_frames > p.frames) p.release_frames = p.frames;
    }
    p.has_envelope = p.attack_s > 0.0 || p.decay_s > 0.0 || p.release_frames > 0;

    if (p.waveform != EAR_WAVE_NOISE && !p.sweep && !p.has_envelope) {
        double cycles = floor(p.start_hz * (double)p.frames / rate + 0.5);
        p.whole_cycles = true;
        p.cycles = cycles < 1.0 ? 1u : (uint64_t)cycles;
        if (p.cycles > p.frames) p.cycles = p.frames;
        p.start_hz = p.end_hz = (double)p.cycles * rate / (double)p.frames;
    }
    *out = p;
    return EAR_OK;
}

uint64_t ear_synth_frames(const ear_synth *synth) {
    ear__synth_part p;
    if (ear__synth_resolve(synth, &p) != EAR_OK) return 0;
    return p.frames;
}

ear_result ear_synth_render(const ear_synth *synth, float *out, uint64_t capacity) {
    ear__synth_part p;
    ear_result r = ear__synth_resolve(synth, &p);
    if (r != EAR_OK) return r;
    if (!out || capacity < p.frames) return EAR_E_INVALID_ARG;
    ear__synth_render_part(&p, out, false);
    return EAR_OK;
}
