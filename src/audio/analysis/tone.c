/* SPDX-License-Identifier: Zlib */
/*
 * Tone amplitude by the Goertzel recurrence over a Hann-windowed span. For
 * x[n] = A sin(2 pi f n / rate + phi), the windowed DFT at f has magnitude
 * A / 2 * sum(w), so 2 |X| / sum(w) measures A. The other half of the real sine (at
 * -f) leaks in through the window's side lobes; with Hann they fall as 1/k^3, so at
 * ten cycles in the span (k = 20 bins away) the error is about 4e-5 of A. The
 * recurrence runs in double: over a million samples its rounding stays below 1e-9.
 */
#include "analysis_internal.h"

#include <math.h>

double ear__tone_amplitude_span(const float *buf, uint32_t channels, uint32_t channel,
                                size_t first, size_t count, uint32_t sample_rate, double hz) {
    const double omega = 6.283185307179586476925286766559 * hz / (double)sample_rate;
    const double coeff = 2.0 * cos(omega);
    double s1 = 0.0, s2 = 0.0, window_sum = 0.0;
    for (size_t i = 0; i < count; i++) {
        double x = ear__view_at(buf, channels, channel, first + i);
        if (!isfinite(x)) return NAN;
        double w = ear__hann(i, count);
        window_sum += w;
        double s0 = w * x + coeff * s1 - s2;
        s2 = s1;
        s1 = s0;
    }
    if (!(window_sum > 0.0)) return 0.0; /* a one-frame span: the window is all zero */
    double power = s1 * s1 + s2 * s2 - coeff * s1 * s2;
    return 2.0 * sqrt(fmax(power, 0.0)) / window_sum;
}

static bool tone_args_ok(uint32_t sample_rate, double hz) {
    return sample_rate > 0 && isfinite(hz) && hz > 0.0 && hz < (double)sample_rate / 2.0;
}

double ear_tone_amplitude(const float *buf, size_t frames, uint32_t channels, uint32_t channel,
                          uint32_t sample_rate, double hz) {
    if (!ear__analysis_args_ok(buf, frames, channels, channel) ||
        !tone_args_ok(sample_rate, hz))
        return 0.0;
    return ear__tone_amplitude_span(buf, channels, channel, 0, frames, sample_rate, hz);
}

ear_result ear_tone_envelope(const float *buf, size_t frames, uint32_t channels,
                             uint32_t channel, uint32_t sample_rate, double hz,
                             size_t window_frames, double *out, size_t capacity,
                             size_t *out_count) {
    if (!ear__analysis_args_ok(buf, frames, channels, channel) ||
        !tone_args_ok(sample_rate, hz) || window_frames == 0 || !out_count ||
        (capacity > 0 && !out))
        return EAR_E_INVALID_ARG;
    size_t windows = frames / window_frames + (frames % window_frames ? 1 : 0);
    for (size_t w = 0; w < windows && w < capacity; w++) {
        size_t start = w * window_frames;
        size_t len = frames - start < window_frames ? frames - start : window_frames;
        out[w] = ear__tone_amplitude_span(buf, channels, channel, start, len, sample_rate, hz);
    }
    *out_count = windows;
    return EAR_OK;
}
