/* SPDX-License-Identifier: Zlib */
/*
 * Analysis: measurements of interleaved float buffers, the way Earshot proves a sound
 * behaves without anyone listening. `channel` is a channel index, or EAR_ALL_CHANNELS:
 * for the level measurements (peak, RMS, max delta, RMS envelope) every sample of
 * every channel; for those that need one signal (zero crossings, dominant frequency,
 * tone amplitude and envelope, centroid) the mean of the channels, the mono downmix.
 * Frequencies in Hz, levels as linear amplitude. Sums are kept in double.
 *
 * Functions that return a measurement return 0 for bad arguments (NULL buffer, zero
 * frames or channels, a channel out of range, a zero sample rate, a frequency that is
 * not finite or not in (0, sample_rate / 2)), and 0 when the memory for an FFT cannot
 * be had. A NaN or infinity among the measured samples makes the measurement NaN
 * (ear_peak: NaN or infinity), so a broken render cannot pass a test by accident.
 * The buffer is borrowed and never written. Thread: any (the spectra's FFT is
 * Earshot's own, with nothing shared between calls).
 */
#ifndef EARSHOT_ANALYSIS_H
#define EARSHOT_ANALYSIS_H

#include "earshot/core.h"

#ifdef __cplusplus
extern "C" {
#endif

#define EAR_ALL_CHANNELS UINT32_MAX

/* Largest absolute sample. Thread: any (pure). */
float ear_peak(const float *buf, size_t frames, uint32_t channels, uint32_t channel);
/* Root mean square. Thread: any (pure). */
double ear_rms(const float *buf, size_t frames, uint32_t channels, uint32_t channel);
/* 64-bit FNV-1a over the samples' bit patterns (each float's 4 bytes, least
 * significant first, so the same on every machine): equal hashes are bit-identical
 * audio; +0 and -0 differ. NULL or 0 samples: the FNV offset basis. Thread: any (pure). */
uint64_t ear_hash_samples(const float *buf, size_t samples);
/* The largest absolute step between neighbouring samples of one channel (the click
 * detector). With EAR_ALL_CHANNELS, the largest over all channels. Thread: any (pure). */
float ear_max_delta(const float *buf, size_t frames, uint32_t channels, uint32_t channel);
/* Frequency from rising zero crossings (a sample below 0 followed by one at or above
 * 0, placed by linear interpolation): (crossings - 1) periods over the time from the
 * first to the last; 0 if fewer than two crossings. For clean periodic tones.
 * Thread: any (pure). */
double ear_zero_crossing_hz(const float *buf, size_t frames, uint32_t channels,
                            uint32_t channel, uint32_t sample_rate);
/* Frequency of the strongest spectral peak (Hann window, FFT zero-padded to a power
 * of two at least twice the length, parabolic interpolation of the log magnitude);
 * 0 for silence; NaN when the transform's memory cannot be had (never a plausible 0 Hz:
 * ear_measure_dominant_hz says why). A 1 s tone at 48 kHz measures to about 1e-5 of its
 * frequency. Views longer than EAR_SPECTRUM_MAX_FRAMES are measured in half-overlapping
 * segments of that length whose power spectra are summed (Welch), so memory stays bounded.
 * Thread: any. */
double ear_dominant_hz(const float *buf, size_t frames, uint32_t channels, uint32_t channel,
                       uint32_t sample_rate);
/* Amplitude of a sinusoid at hz (Goertzel over the whole buffer, Hann-windowed and
 * scaled so a sine of amplitude A measures A: within 0.5 % once the buffer holds ten
 * cycles, in practice within 1e-5). Other tones leak in through the window's side
 * lobes, so two tones should be a few times frames / rate Hz apart. Thread: any (pure). */
double ear_tone_amplitude(const float *buf, size_t frames, uint32_t channels, uint32_t channel,
                          uint32_t sample_rate, double hz);
/* RMS per window of window_frames frames (a last partial window counts). Writes at
 * most capacity values and the number of windows to *out_count (capacity 0 and out
 * NULL: only counts). EAR_E_INVALID_ARG, with nothing written, for bad arguments
 * (those above, window_frames 0, out_count NULL, out NULL with capacity > 0). A
 * window holding a NaN or infinity measures NaN. Thread: any (pure). */
ear_result ear_rms_envelope(const float *buf, size_t frames, uint32_t channels,
                            uint32_t channel, size_t window_frames, double *out,
                            size_t capacity, size_t *out_count);
/* ear_tone_amplitude per window (each window Hann-windowed on its own), with the
 * rules of ear_rms_envelope; a bad hz or sample rate is EAR_E_INVALID_ARG.
 * Thread: any (pure). */
ear_result ear_tone_envelope(const float *buf, size_t frames, uint32_t channels,
                             uint32_t channel, uint32_t sample_rate, double hz,
                             size_t window_frames, double *out, size_t capacity,
                             size_t *out_count);
/* Power-weighted mean frequency of the magnitude spectrum (Hann, FFT zero-padded to a
 * power of two): sum f_k |X_k|^2 / sum |X_k|^2 over 0..rate/2; 0 for silence, NaN when
 * its memory cannot be had. Long views in segments, as ear_dominant_hz.
 * Thread: any. */
double ear_spectral_centroid(const float *buf, size_t frames, uint32_t channels,
                             uint32_t channel, uint32_t sample_rate);

/* The longest view one transform covers (2^20 frames, 21.8 s at 48 kHz); longer views
 * are measured in segments of this many frames. */
#define EAR_SPECTRUM_MAX_FRAMES ((size_t)1 << 20)

/* The most memory ear_measure_dominant_hz or ear_measure_spectral_centroid asks of its
 * allocator for a view of `frames` frames, in bytes (at most about 24 MiB, whatever the
 * length: the bins, the transform's work array and twiddle tables, the power sums; it
 * uses no other memory). Thread: any. */
size_t ear_spectrum_scratch_bytes(size_t frames);

/* ear_dominant_hz and ear_spectral_centroid that say when they cannot measure: the
 * frequency goes to *out_hz (NaN when a sample is not finite, 0 for silence) and the
 * result is EAR_OK; EAR_E_INVALID_ARG for bad arguments (those above, or out_hz NULL);
 * EAR_E_OUT_OF_MEMORY when the transform's memory cannot be had from `alloc` (NULL: the
 * default allocator). On failure *out_hz is untouched and nothing is held.
 * Thread: any. */
ear_result ear_measure_dominant_hz(const float *buf, size_t frames, uint32_t channels,
                                   uint32_t channel, uint32_t sample_rate,
                                   const ear_allocator *alloc, double *out_hz);
ear_result ear_measure_spectral_centroid(const float *buf, size_t frames, uint32_t channels,
                                         uint32_t channel, uint32_t sample_rate,
                                         const ear_allocator *alloc, double *out_hz);
/* The lag, in frames, at which channel b best matches channel a (normalised
 * cross-correlation over -max_lag..max_lag, each lag normalised by the energies of its
 * own overlap, then parabolic interpolation); positive when b is later than a. a and b
 * must be channel indices; max_lag is clamped to frames - 1; 0 when either channel is
 * silent. Direct computation: frames * (2 max_lag + 1) multiply-adds, no allocation.
 * Thread: any (pure). */
double ear_channel_lag(const float *buf, size_t frames, uint32_t channels, uint32_t a,
                       uint32_t b, uint32_t max_lag);

#ifdef __cplusplus
}
#endif

#endif
