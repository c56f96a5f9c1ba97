/* SPDX-License-Identifier: Zlib */
/*
 * Internal to the analysis module: argument checks and sample access shared by the
 * measurements. A "view" is one channel of an interleaved buffer, or, with
 * EAR_ALL_CHANNELS, the mean of all channels (the mono downmix) for the measurements
 * that need one signal (frequencies, tones, spectra).
 */
#ifndef EARSHOT_ANALYSIS_INTERNAL_H
#define EARSHOT_ANALYSIS_INTERNAL_H

#include "earshot/analysis.h"

#include <stdbool.h>

/* True when buf is non-NULL, frames and channels are non-zero, channel is a channel
 * index or EAR_ALL_CHANNELS, and frames * channels fits in size_t. */
bool ear__analysis_args_ok(const float *buf, size_t frames, uint32_t channels,
                           uint32_t channel);

/* Sample i of the view (the channel, or the mean of all channels), in double. */
static inline double ear__view_at(const float *buf, uint32_t channels, uint32_t channel,
                                  size_t i) {
    const float *frame = buf + i * channels;
    if (channel != EAR_ALL_CHANNELS) return (double)frame[channel];
    double sum = 0.0;
    for (uint32_t c = 0; c < channels; c++) sum += (double)frame[c];
    return sum / (double)channels;
}

/* Periodic Hann window of length n at index i: 0.5 - 0.5 cos(2 pi i / n). */
double ear__hann(size_t i, size_t n);

/* Amplitude of a sinusoid at hz in the view's frames [first, first + count) (Goertzel,
 * Hann-windowed); NaN if a sample is not finite. hz must be in (0, rate / 2). */
double ear__tone_amplitude_span(const float *buf, uint32_t channels, uint32_t channel,
                                size_t first, size_t count, uint32_t sample_rate, double hz);

#endif
