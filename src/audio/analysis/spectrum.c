/*
 * Spectral measurements: the dominant frequency and the spectral centroid, from one
 * FFT (FFTW, single precision) of the whole Hann-windowed view.
 *
 * The dominant frequency zero-pads the window to a power of two at least twice its
 * length, finds the largest magnitude bin and fits a parabola through the log
 * magnitudes of that bin and its neighbours; the vertex is the estimate. For a Hann
 * window the log-magnitude main lobe is nearly a parabola, so the bias is a small
 * fraction of a bin (a 1 s tone at 48 kHz: bins of 0.37 Hz, error well under 0.01 Hz).
 *
 * FFTW's planner is not thread-safe (only fftwf_execute is), so planning and plan
 * destruction are serialised by one lock; FFTW_ESTIMATE keeps planning quick and never
 * touches the input array.
 */
#include "analysis_internal.h"

#include <fftw3.h>
#include <limits.h>
#include <math.h>
#include <threads.h>

static once_flag planner_once = ONCE_FLAG_INIT;
static mtx_t planner_lock;
static bool planner_lock_ok;

static void init_planner_lock(void) {
    planner_lock_ok = mtx_init(&planner_lock, mtx_plain) == thrd_success;
}

double ear__hann(size_t i, size_t n) {
    return 0.5 - 0.5 * cos(6.283185307179586476925286766559 * (double)i / (double)n);
}

/* A windowed, zero-padded spectrum of the view. */
typedef struct spectrum {
    size_t n;           /* FFT length */
    fftwf_complex *bin; /* n / 2 + 1 bins */
    bool finite;        /* false when a sample was NaN or infinite (bins undefined) */
} spectrum;

/* Computes the spectrum of the Hann-windowed view padded to the smallest power of two
 * at least min_factor * frames. false when memory (or the planner lock) fails. */
static bool compute_spectrum(const float *buf, size_t frames, uint32_t channels,
                             uint32_t channel, size_t min_factor, spectrum *out) {
    call_once(&planner_once, init_planner_lock);
    if (!planner_lock_ok) return false;
    if (frames > (size_t)INT_MAX / min_factor) return false;
    size_t n = 2;
    while (n < frames * min_factor) n *= 2;
    if (n > (size_t)INT_MAX) return false;

    float *in = fftwf_alloc_real(n);
    fftwf_complex *bins = fftwf_alloc_complex(n / 2 + 1);
    if (!in || !bins) {
        fftwf_free(in);
        fftwf_free(bins);
        return false;
    }
    mtx_lock(&planner_lock);
    fftwf_plan plan = fftwf_plan_dft_r2c_1d((int)n, in, bins, FFTW_ESTIMATE);
    mtx_unlock(&planner_lock);
    if (!plan) {
        fftwf_free(in);
        fftwf_free(bins);
        return false;
    }
    bool finite = true;
    for (size_t i = 0; i < frames; i++) {
        double v = ear__view_at(buf, channels, channel, i);
        if (!isfinite(v)) finite = false;
        in[i] = (float)(v * ear__hann(i, frames));
    }
    for (size_t i = frames; i < n; i++) in[i] = 0.0f;
    if (finite) fftwf_execute(plan);
    mtx_lock(&planner_lock);
    fftwf_destroy_plan(plan);
    mtx_unlock(&planner_lock);
    fftwf_free(in);
    out->n = n;
    out->bin = bins;
    out->finite = finite;
    return true;
}

static double power_at(const spectrum *s, size_t k) {
    double re = (double)s->bin[k][0], im = (double)s->bin[k][1];
    return re * re + im * im;
}

double ear_dominant_hz(const float *buf, size_t frames, uint32_t channels, uint32_t channel,
                       uint32_t sample_rate) {
    if (!ear__analysis_args_ok(buf, frames, channels, channel) || sample_rate == 0) return 0.0;
    spectrum s;
    if (!compute_spectrum(buf, frames, channels, channel, 2, &s)) return 0.0;
    if (!s.finite) {
        fftwf_free(s.bin);
        return NAN;
    }
    size_t half = s.n / 2;
    size_t best = 0;
    double best_power = 0.0;
    for (size_t k = 0; k <= half; k++) {
        double p = power_at(&s, k);
        if (p > best_power) {
            best_power = p;
            best = k;
        }
    }
    double offset = 0.0;
    if (best_power > 0.0 && best > 0 && best < half) {
        /* Parabola through log magnitudes; log of power is twice that, and the vertex
         * does not change under scaling. A floor keeps log finite beside exact zeros. */
        const double floor_power = best_power * 1e-30;
        double a = log(fmax(power_at(&s, best - 1), floor_power));
        double b = log(best_power);
        double c = log(fmax(power_at(&s, best + 1), floor_power));
        double denom = a - 2.0 * b + c;
        if (denom < 0.0) offset = 0.5 * (a - c) / denom;
        if (offset > 0.5) offset = 0.5;
        if (offset < -0.5) offset = -0.5;
    }
    fftwf_free(s.bin);
    if (best_power <= 0.0) return 0.0;
    return ((double)best + offset) * (double)sample_rate / (double)s.n;
}

double ear_spectral_centroid(const float *buf, size_t frames, uint32_t channels,
                             uint32_t channel, uint32_t sample_rate) {
    if (!ear__analysis_args_ok(buf, frames, channels, channel) || sample_rate == 0) return 0.0;
    spectrum s;
    if (!compute_spectrum(buf, frames, channels, channel, 1, &s)) return 0.0;
    if (!s.finite) {
        fftwf_free(s.bin);
        return NAN;
    }
    size_t half = s.n / 2;
    double weighted = 0.0, total = 0.0;
    for (size_t k = 0; k <= half; k++) {
        /* DC and Nyquist appear once in the two-sided spectrum, the others twice. */
        double p = power_at(&s, k) * (k == 0 || k == half ? 0.5 : 1.0);
        weighted += p * (double)k;
        total += p;
    }
    fftwf_free(s.bin);
    if (!(total > 0.0)) return 0.0;
    return weighted / total * (double)sample_rate / (double)s.n;
}
