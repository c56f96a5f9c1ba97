/* SPDX-License-Identifier: Zlib */
/*
 * Frequency from rising zero crossings. A crossing is a step from a sample below 0 to
 * one at or above 0; its time is placed by linear interpolation between the two, so
 * the measure is not quantised to whole frames. The frequency is the number of whole
 * periods between the first and last crossing divided by the time between them, which
 * is exact for a clean periodic tone and meaningless for noise.
 */
#include "analysis_internal.h"

#include <math.h>

double ear_zero_crossing_hz(const float *buf, size_t frames, uint32_t channels,
                            uint32_t channel, uint32_t sample_rate) {
    if (!ear__analysis_args_ok(buf, frames, channels, channel) || sample_rate == 0) return 0.0;
    double first = 0.0, last = 0.0;
    size_t crossings = 0;
    double prev = ear__view_at(buf, channels, channel, 0);
    if (!isfinite(prev)) return NAN;
    for (size_t i = 1; i < frames; i++) {
        double cur = ear__view_at(buf, channels, channel, i);
        if (!isfinite(cur)) return NAN;
        if (prev < 0.0 && cur >= 0.0) {
            double t = (double)(i - 1) + prev / (prev - cur);
            if (crossings == 0) first = t;
            last = t;
            crossings++;
        }
        prev = cur;
    }
    if (crossings < 2 || !(last > first)) return 0.0;
    return (double)(crossings - 1) * (double)sample_rate / (last - first);
}
