/* SPDX-License-Identifier: Zlib */
/*
 * Channel lag by normalised cross-correlation, computed directly (no FFT, no
 * allocation): for each lag L in -max_lag..max_lag,
 *     r(L) = sum a[n] b[n + L] / sqrt(sum a[n]^2 * sum b[n + L]^2)
 * over the frames where both exist. Normalising each lag by its own overlap keeps a
 * delayed copy at r = 1 however much of it hangs off the end. The best lag is refined
 * by a parabola through r at it and its neighbours. Cost: frames * (2 max_lag + 1).
 */
#include "analysis_internal.h"

#include <limits.h>
#include <math.h>

static double correlation(const float *buf, size_t frames, uint32_t channels, uint32_t a,
                          uint32_t b, long lag, bool *finite) {
    size_t n0 = lag < 0 ? (size_t)(-lag) : 0;
    size_t n1 = lag > 0 ? frames - (size_t)lag : frames;
    double ab = 0.0, aa = 0.0, bb = 0.0;
    for (size_t n = n0; n < n1; n++) {
        double x = (double)buf[n * channels + a];
        double y = (double)buf[(size_t)((long)n + lag) * channels + b];
        ab += x * y;
        aa += x * x;
        bb += y * y;
    }
    if (!isfinite(ab) || !isfinite(aa) || !isfinite(bb)) *finite = false;
    if (!(aa > 0.0) || !(bb > 0.0)) return 0.0;
    return ab / sqrt(aa * bb);
}

double ear_channel_lag(const float *buf, size_t frames, uint32_t channels, uint32_t a,
                       uint32_t b, uint32_t max_lag) {
    if (!ear__analysis_args_ok(buf, frames, channels, 0) || a >= channels || b >= channels)
        return 0.0;
    if (frames > (size_t)LONG_MAX) return 0.0;
    long m = (long)(max_lag < frames ? max_lag : frames - 1);
    bool finite = true;
    long best = 0;
    double best_r = -INFINITY;
    for (long lag = -m; lag <= m; lag++) {
        double r = correlation(buf, frames, channels, a, b, lag, &finite);
        if (r > best_r) {
            best_r = r;
            best = lag;
        }
    }
    if (!finite) return NAN;
    if (!(best_r > 0.0)) return 0.0;
    double offset = 0.0;
    if (best > -m && best < m) {
        /* The neighbours again: two more correlations cost less than keeping them all. */
        double left = correlation(buf, frames, channels, a, b, best - 1, &finite);
        double right = correlation(buf, frames, channels, a, b, best + 1, &finite);
        double denom = left - 2.0 * best_r + right;
        if (denom < 0.0) offset = 0.5 * (left - right) / denom;
        if (offset > 0.5) offset = 0.5;
        if (offset < -0.5) offset = -0.5;
    }
    return (double)best + offset;
}
