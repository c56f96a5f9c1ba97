/* SPDX-License-Identifier: Zlib */
/*
 * Spectral measurements: the dominant frequency and the spectral centroid, from the
 * power spectrum of the Hann-windowed view (Earshot's real FFT, single precision).
 *
 * The dominant frequency zero-pads the window to a power of two at least twice its
 * length, finds the largest power bin and fits a parabola through the log magnitudes
 * of that bin and its neighbours; the vertex is the estimate. For a Hann window the
 * log-magnitude main lobe is nearly a parabola, so the bias is a small fraction of a
 * bin (a 1 s tone at 48 kHz: bins of 0.37 Hz, error well under 0.01 Hz).
 *
 * Bounded memory. A view of up to EAR_SPECTRUM_MAX_FRAMES frames (2^20, 21.8 s at
 * 48 kHz) is one transform of the whole view. A longer one is measured in segments of
 * that many frames, half overlapping (the last one ends at the view's end), each
 * Hann-windowed and padded alike, whose power spectra are summed (Welch's method): the
 * memory is that of one segment (ear_spectrum_scratch_bytes) however long the view, and
 * a steady tone measures as before, at the resolution of a 21.8 s transform. All of it
 * comes through an ear_allocator, so a caller can bound it, and a failure to get it is
 * an error (ear_measure_*), never a silent 0 Hz.
 *
 * The transform is Earshot's own real FFT in single precision (src/audio/fft/real_fft.h, the
 * fft module): its plan is a few numbers and two small tables made in each call, so
 * nothing is shared between threads and nothing needs a lock. Its three allocations are
 * the bins (the packed input goes there and the transform works in place), the Stockham
 * passes' other array with the twiddle tables after it, and the power sums.
 */
#include "analysis_internal.h"

#include "real_fft.h"

#include <math.h>

double ear__hann(size_t i, size_t n) {
    return 0.5 - 0.5 * cos(6.283185307179586476925286766559 * (double)i / (double)n);
}

/* The power spectrum of the view: n / 2 + 1 bins of an n-point transform. */
typedef struct spectrum {
    size_t n;      /* FFT length */
    double *power; /* n / 2 + 1 bins, summed over segments; through the allocator */
    bool finite;   /* false when a sample was NaN or infinite (bins undefined) */
} spectrum;

/* The FFT length for segments of `frames` frames padded to min_factor times that. */
static size_t fft_length(size_t frames, size_t min_factor) {
    size_t n = 2;
    while (n < frames * min_factor) n *= 2;
    return n;
}

/* The bytes of the transform's work array for length n: n floats, then its twiddle tables
 * (doubles, so they start 8-byte aligned: n floats is a multiple of 8 bytes). */
static size_t work_bytes(size_t n) {
    return n * sizeof(float) + ear__rfft_table_doubles((uint32_t)n) * sizeof(double);
}

size_t ear_spectrum_scratch_bytes(size_t frames) {
    size_t seg = frames < EAR_SPECTRUM_MAX_FRAMES ? frames : EAR_SPECTRUM_MAX_FRAMES;
    size_t n = fft_length(seg, 2); /* the dominant frequency's padding, the larger */
    return 2 * (n / 2 + 1) * sizeof(float) + work_bytes(n) + (n / 2 + 1) * sizeof(double);
}

static void give_back(const ear_allocator *a, void *p) {
    if (p) a->free_fn(p, a->user);
}

/* Computes the (summed) power spectrum of the Hann-windowed view, segment by segment,
 * each padded to the smallest power of two at least min_factor times its length.
 * EAR_E_OUT_OF_MEMORY when memory fails. */
static ear_result compute_spectrum(const float *buf, size_t frames, uint32_t channels,
                                   uint32_t channel, size_t min_factor,
                                   const ear_allocator *alloc, spectrum *out) {
    ear_allocator a = ear_allocator_resolve(alloc);
    size_t seg = frames < EAR_SPECTRUM_MAX_FRAMES ? frames : EAR_SPECTRUM_MAX_FRAMES;
    size_t n = fft_length(seg, min_factor);
    size_t half = n / 2;
    float *bins = a.alloc_fn(2 * (half + 1) * sizeof *bins, a.user);
    float *work = a.alloc_fn(work_bytes(n), a.user);
    double *power = a.alloc_fn((half + 1) * sizeof *power, a.user);
    if (!bins || !work || !power) {
        give_back(&a, bins);
        give_back(&a, work);
        give_back(&a, power);
        return EAR_E_OUT_OF_MEMORY;
    }
    float *re = bins, *im = bins + half + 1;
    ear__rfft plan;
    ear__rfft_init(&plan, (uint32_t)n, (double *)(void *)(work + n));
    for (size_t k = 0; k <= half; k++) power[k] = 0.0;
    bool finite = true;
    size_t hop = seg / 2 ? seg / 2 : 1;
    for (size_t first = 0; finite;) {
        if (first + seg > frames) first = frames - seg; /* the last segment ends at the end */
        /* Sample i goes to re[i / 2] (even) or im[i / 2] (odd): the transform's packing. */
        for (size_t i = 0; i < seg; i++) {
            double v = ear__view_at(buf, channels, channel, first + i);
            if (!isfinite(v)) finite = false;
            float w = (float)(v * ear__hann(i, seg));
            if (i & 1)
                im[i / 2] = w;
            else
                re[i / 2] = w;
        }
        for (size_t i = seg; i < n; i++) {
            if (i & 1)
                im[i / 2] = 0.0f;
            else
                re[i / 2] = 0.0f;
        }
        if (!finite) break;
        ear__rfft_forward(&plan, re, im, work);
        for (size_t k = 0; k <= half; k++) {
            double r = (double)re[k], i = (double)im[k];
            power[k] += r * r + i * i;
        }
        if (first + seg >= frames) break;
        first += hop;
    }
    give_back(&a, bins);
    give_back(&a, work);
    out->n = n;
    out->power = power;
    out->finite = finite;
    return EAR_OK;
}

static void spectrum_free(const ear_allocator *alloc, spectrum *s) {
    ear_allocator a = ear_allocator_resolve(alloc);
    give_back(&a, s->power);
}

ear_result ear_measure_dominant_hz(const float *buf, size_t frames, uint32_t channels,
                                   uint32_t channel, uint32_t sample_rate,
                                   const ear_allocator *alloc, double *out_hz) {
    if (!out_hz || !ear__analysis_args_ok(buf, frames, channels, channel) || sample_rate == 0)
        return EAR_E_INVALID_ARG;
    spectrum s;
    ear_result r = compute_spectrum(buf, frames, channels, channel, 2, alloc, &s);
    if (r != EAR_OK) return r;
    if (!s.finite) {
        spectrum_free(alloc, &s);
        *out_hz = NAN;
        return EAR_OK;
    }
    size_t half = s.n / 2;
    size_t best = 0;
    double best_power = 0.0;
    for (size_t k = 0; k <= half; k++) {
        if (s.power[k] > best_power) {
            best_power = s.power[k];
            best = k;
        }
    }
    double offset = 0.0;
    if (best_power > 0.0 && best > 0 && best < half) {
        /* Parabola through log magnitudes; log of power is twice that, and the vertex
         * does not change under scaling. A floor keeps log finite beside exact zeros. */
        const double floor_power = best_power * 1e-30;
        double a = log(fmax(s.power[best - 1], floor_power));
        double b = log(best_power);
        double c = log(fmax(s.power[best + 1], floor_power));
        double denom = a - 2.0 * b + c;
        if (denom < 0.0) offset = 0.5 * (a - c) / denom;
        if (offset > 0.5) offset = 0.5;
        if (offset < -0.5) offset = -0.5;
    }
    spectrum_free(alloc, &s);
    *out_hz =
        best_power <= 0.0 ? 0.0 : ((double)best + offset) * (double)sample_rate / (double)s.n;
    return EAR_OK;
}

ear_result ear_measure_spectral_centroid(const float *buf, size_t frames, uint32_t channels,
                                         uint32_t channel, uint32_t sample_rate,
                                         const ear_allocator *alloc, double *out_hz) {
    if (!out_hz || !ear__analysis_args_ok(buf, frames, channels, channel) || sample_rate == 0)
        return EAR_E_INVALID_ARG;
    spectrum s;
    ear_result r = compute_spectrum(buf, frames, channels, channel, 1, alloc, &s);
    if (r != EAR_OK) return r;
    if (!s.finite) {
        spectrum_free(alloc, &s);
        *out_hz = NAN;
        return EAR_OK;
    }
    size_t half = s.n / 2;
    double weighted = 0.0, total = 0.0;
    for (size_t k = 0; k <= half; k++) {
        /* DC and Nyquist appear once in the two-sided spectrum, the others twice. */
        double p = s.power[k] * (k == 0 || k == half ? 0.5 : 1.0);
        weighted += p * (double)k;
        total += p;
    }
    spectrum_free(alloc, &s);
    *out_hz = total > 0.0 ? weighted / total * (double)sample_rate / (double)s.n : 0.0;
    return EAR_OK;
}

double ear_dominant_hz(const float *buf, size_t frames, uint32_t channels, uint32_t channel,
                       uint32_t sample_rate) {
    double hz = 0.0;
    ear_result r =
        ear_measure_dominant_hz(buf, frames, channels, channel, sample_rate, NULL, &hz);
    return r == EAR_OK ? hz : r == EAR_E_OUT_OF_MEMORY ? NAN : 0.0;
}

double ear_spectral_centroid(const float *buf, size_t frames, uint32_t channels,
                             uint32_t channel, uint32_t sample_rate) {
    double hz = 0.0;
    ear_result r =
        ear_measure_spectral_centroid(buf, frames, channels, channel, sample_rate, NULL, &hz);
    return r == EAR_OK ? hz : r == EAR_E_OUT_OF_MEMORY ? NAN : 0.0;
}
