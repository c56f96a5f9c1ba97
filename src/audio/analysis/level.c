/* SPDX-License-Identifier: Zlib */
/*
 * Level measurements straight over the samples: peak, RMS, the largest step between
 * neighbouring samples, the sample hash and the RMS envelope. Sums are kept in double,
 * so a minute of audio measures to the precision of its floats. A sample that is not
 * finite makes the result NaN rather than vanishing from a max or a sum.
 */
#include "analysis_internal.h"

#include <math.h>
#include <string.h>

bool ear__analysis_args_ok(const float *buf, size_t frames, uint32_t channels,
                           uint32_t channel) {
    if (!buf || frames == 0 || channels == 0) return false;
    if (channel != EAR_ALL_CHANNELS && channel >= channels) return false;
    return frames <= SIZE_MAX / channels;
}

/* The samples a level measurement covers: every sample of every channel (stride 1)
 * or one channel (stride channels). */
static void level_span(size_t frames, uint32_t channels, uint32_t channel, size_t *first,
                       size_t *count, size_t *stride) {
    if (channel == EAR_ALL_CHANNELS) {
        *first = 0;
        *count = frames * channels;
        *stride = 1;
    } else {
        *first = channel;
        *count = frames;
        *stride = channels;
    }
}

float ear_peak(const float *buf, size_t frames, uint32_t channels, uint32_t channel) {
    if (!ear__analysis_args_ok(buf, frames, channels, channel)) return 0.0f;
    size_t first, count, stride;
    level_span(frames, channels, channel, &first, &count, &stride);
    float peak = 0.0f;
    for (size_t i = 0; i < count; i++) {
        float v = fabsf(buf[first + i * stride]);
        if (isnan(v)) return NAN;
        if (v > peak) peak = v;
    }
    return peak;
}

static double rms_span(const float *buf, size_t first, size_t count, size_t stride) {
    double sum = 0.0;
    for (size_t i = 0; i < count; i++) {
        double v = (double)buf[first + i * stride];
        sum += v * v;
    }
    return sqrt(sum / (double)count);
}

double ear_rms(const float *buf, size_t frames, uint32_t channels, uint32_t channel) {
    if (!ear__analysis_args_ok(buf, frames, channels, channel)) return 0.0;
    size_t first, count, stride;
    level_span(frames, channels, channel, &first, &count, &stride);
    return rms_span(buf, first, count, stride);
}

uint64_t ear_hash_samples(const float *buf, size_t samples) {
    return buf ? ear_fnv1a64_floats(EAR_FNV1A64_OFFSET, buf, samples) : EAR_FNV1A64_OFFSET;
}

float ear_max_delta(const float *buf, size_t frames, uint32_t channels, uint32_t channel) {
    if (!ear__analysis_args_ok(buf, frames, channels, channel)) return 0.0f;
    uint32_t c0 = channel == EAR_ALL_CHANNELS ? 0 : channel;
    uint32_t c1 = channel == EAR_ALL_CHANNELS ? channels : channel + 1;
    double largest = 0.0;
    for (uint32_t c = c0; c < c1; c++) {
        if (isnan(buf[c])) return NAN;
        for (size_t i = 1; i < frames; i++) {
            /* The difference of two floats is exact (or nearly) in double. */
            double step =
                fabs((double)buf[i * channels + c] - (double)buf[(i - 1) * channels + c]);
            if (isnan(step)) return NAN;
            if (step > largest) largest = step;
        }
    }
    return (float)largest;
}

ear_result ear_rms_envelope(const float *buf, size_t frames, uint32_t channels,
                            uint32_t channel, size_t window_frames, double *out,
                            size_t capacity, size_t *out_count) {
    if (!ear__analysis_args_ok(buf, frames, channels, channel) || window_frames == 0 ||
        !out_count || (capacity > 0 && !out))
        return EAR_E_INVALID_ARG;
    size_t windows = frames / window_frames + (frames % window_frames ? 1 : 0);
    for (size_t w = 0; w < windows && w < capacity; w++) {
        size_t start = w * window_frames;
        size_t len = frames - start < window_frames ? frames - start : window_frames;
        if (channel == EAR_ALL_CHANNELS)
            out[w] = rms_span(buf, start * channels, len * channels, 1);
        else
            out[w] = rms_span(buf, start * channels + channel, len, channels);
    }
    *out_count = windows;
    return EAR_OK;
}
