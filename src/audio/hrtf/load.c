/* SPDX-License-Identifier: Zlib */
/*
 * Loading a SOFA file into an ear_hrtf_set. For each measured direction and ear:
 *   1. the interaural delay: the lag of the right ear's HRIR against the left's by
 *      normalised cross-correlation over +-1.5 ms with parabolic interpolation (plus the
 *      file's Data.Delay, if any), scaled to the stage rate, less the lag between the two
 *      ears' minimum-phase filters (step 3; the far ear's peaks later), so that filters
 *      and delays together have the dataset's lag; the earlier ear gets 0;
 *   2. the magnitude response: the HRIR zero-padded to a dense FFT at the file's rate,
 *      sampled (linear interpolation) on the stage rate's grid; above the file's Nyquist
 *      frequency (a stage faster than the file) a raised-cosine fade to -100 dB;
 *   3. the minimum-phase filter with that magnitude, by the real cepstrum (fold the
 *      cepstrum onto positive quefrencies, exponentiate), cut to `taps` samples with a
 *      half-Hann fade over the last quarter.
 * Magnitudes are resampled, not waveforms, so a filter's gain at a frequency is the
 * dataset's gain there whatever the two rates.
 */
#define _POSIX_C_SOURCE 200809L /* fstat, stat, close */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef EAR_HRTF_NO_SOFA
#include <mysofa.h>
#endif

#include "earshot/hrtf.h"
#include "portable_math.h"
#include "real_fft.h"

#define PI            3.14159265358979323846
#define MIN_PHASE_FFT 2048u /* at the stage rate; >= 8 * EAR_HRTF_MAX_TAPS */
#define FLOOR_DB      -100.0

ear_hrtf_config ear_hrtf_config_default(void) {
    ear_hrtf_config c = {48000u, 112u, NULL, 0};
    return c;
}

static ear_result fail(ear_hrtf_error *err, ear_result code, const char *path,
                       const char *why) {
    char text[EAR_HRTF_ERROR_MAX];
    snprintf(text, sizeof text, "hrtf: cannot load '%s': %s", path ? path : "(null)", why);
    if (err) {
        memcpy(err->message, text, sizeof text);
    } else {
        ear_log(EAR_LOG_ERROR, "hrtf", "%s", text);
    }
    return code;
}

#ifndef EAR_HRTF_NO_SOFA
static const char *mysofa_reason(int code) {
    switch (code) {
    case MYSOFA_INVALID_FORMAT: return "not a SOFA (HDF5) file";
    case MYSOFA_UNSUPPORTED_FORMAT: return "a SOFA convention libmysofa does not support";
    case MYSOFA_NO_MEMORY: return "out of memory while reading";
    case MYSOFA_READ_ERROR: return "read error";
    case MYSOFA_INVALID_ATTRIBUTES: return "invalid or missing SOFA attributes";
    case MYSOFA_INVALID_DIMENSIONS: return "invalid dimensions";
    case MYSOFA_INVALID_DIMENSION_LIST: return "invalid dimension list";
    case MYSOFA_INVALID_COORDINATE_TYPE: return "invalid coordinate type";
    case MYSOFA_ONLY_EMITTER_WITH_ECI_SUPPORTED: return "emitters other than one per set";
    case MYSOFA_ONLY_DELAYS_WITH_IR_OR_MR_SUPPORTED:
        return "delays neither per set nor per direction";
    case MYSOFA_ONLY_THE_SAME_SAMPLING_RATE_SUPPORTED: return "more than one sampling rate";
    case MYSOFA_RECEIVERS_WITH_RCI_SUPPORTED: return "receivers not given per set";
    case MYSOFA_RECEIVERS_WITH_CARTESIAN_SUPPORTED:
        return "receivers not in cartesian coordinates";
    case MYSOFA_INVALID_RECEIVER_POSITIONS: return "invalid receiver positions (not two ears)";
    case MYSOFA_ONLY_SOURCES_WITH_MC_SUPPORTED:
        return "source positions not given per direction";
    default: return "libmysofa could not read it";
    }
}
#endif

/* Lag of b against a in samples (positive: b later), over +-max_lag, normalised by each
 * lag's overlap energies, parabolic interpolation around the best integer lag. */
static double xcorr_lag(const float *a, const float *b, int n, int max_lag) {
    double best = -INFINITY;
    int best_lag = 0;
    double r[3] = {0, 0, 0};
    double *score = malloc(sizeof(double) * (size_t)(2 * max_lag + 1));
    if (!score) return 0.0;
    for (int lag = -max_lag; lag <= max_lag; lag++) {
        double s = 0, ea = 0, eb = 0;
        for (int i = 0; i < n; i++) {
            int j = i + lag;
            if (j < 0 || j >= n) continue;
            s += (double)a[i] * b[j];
            ea += (double)a[i] * a[i];
            eb += (double)b[j] * b[j];
        }
        double v = (ea > 0 && eb > 0) ? s / sqrt(ea * eb) : 0.0;
        score[lag + max_lag] = v;
        if (v > best) {
            best = v;
            best_lag = lag;
        }
    }
    double frac = 0.0;
    if (best_lag > -max_lag && best_lag < max_lag) {
        r[0] = score[best_lag + max_lag - 1];
        r[1] = score[best_lag + max_lag];
        r[2] = score[best_lag + max_lag + 1];
        double den = r[0] - 2.0 * r[1] + r[2];
        if (den < 0) frac = 0.5 * (r[0] - r[2]) / den;
    }
    free(score);
    return (double)best_lag + frac;
}

/* Lag of filter b against filter a (positive: b later) by their plain cross-correlation
 * sum_i a[i] b[i + lag] over +-max_lag, with parabolic interpolation: the lag that the
 * cross-correlation of the two ears' outputs for white noise has. */
static double filter_lag(const float *a, const float *b, int n, int max_lag) {
    double best = -INFINITY, r[3] = {0, 0, 0};
    int best_lag = 0;
    for (int lag = -max_lag; lag <= max_lag; lag++) {
        double sum = 0;
        for (int i = 0; i < n; i++) {
            int j = i + lag;
            if (j >= 0 && j < n) sum += (double)a[i] * b[j];
        }
        if (sum > best) {
            best = sum;
            best_lag = lag;
        }
    }
    if (best_lag > -max_lag && best_lag < max_lag) {
        for (int k = -1; k <= 1; k++) {
            double sum = 0;
            for (int i = 0; i < n; i++) {
                int j = i + best_lag + k;
                if (j >= 0 && j < n) sum += (double)a[i] * b[j];
            }
            r[k + 1] = sum;
        }
        double den = r[0] - 2.0 * r[1] + r[2];
        if (den < 0) return best_lag + 0.5 * (r[0] - r[2]) / den;
    }
    return best_lag;
}

/* Third-octave bands 500 Hz * 2^(b/3) +- 1/6 octave, b = BAND_FIRST .. while the band's
 * top is under the Nyquist frequency: the grid the refinement matches band powers on
 * (the same bands the tests measure, 500 Hz-12.7 kHz, and their neighbours). */
#define BAND_FIRST  -9 /* 63 Hz */
#define BAND_MAX    40
#define REFINE_ITER 12

/* What the refinement needs of the stage rate's grid, the same for every filter of a load
 * (it depends on the two rates only), so made once rather than in every round: the bands'
 * bins (band_power's ranges), their centres, and for each bin the two bands its
 * correction is interpolated between, with their weights (log frequency between band
 * centres; the end bands' correction held beyond them). */
typedef struct refine_grid {
    uint32_t rate;
    double file_rate; /* 0: not made yet */
    int bands;
    int first_tested, last_tested;       /* the bands judged (500 Hz-12.7 kHz), as indices */
    double centre[BAND_MAX];             /* log of each band's centre frequency */
    uint32_t bin_lo[BAND_MAX];           /* first bin of each band on the MIN_PHASE_FFT grid */
    uint32_t bin_count[BAND_MAX];        /* its bins (0: empty band) */
    uint32_t taps;                       /* the fade's filter length (0: not made yet) */
    double fade_gain[EAR_HRTF_MAX_TAPS]; /* 1, then the half-Hann over the last quarter */
    uint8_t lerp_band[MIN_PHASE_FFT / 2 + 1];
    double lerp_w0[MIN_PHASE_FFT / 2 + 1]; /* weight of lerp_band, and of the next band */
    double lerp_w1[MIN_PHASE_FFT / 2 + 1];
} refine_grid;

/* The transforms are Earshot's real FFT in double (src/audio/fft/real_fft.h): spectra on split
 * arrays (bins 0..half of re and im), the signal packed in the same arrays for the
 * transform (re[j] = x[2j], im[j] = x[2j + 1]); to_spec and to_cep below move between
 * that and the cepstrum as plain samples. */
typedef struct work {
    uint32_t dense;               /* FFT size at the file rate */
    ear__rfft dense_fft;          /* its plan */
    double *dense_re;             /* dense / 2 + 1 */
    double *dense_im;             /* dense / 2 + 1 */
    ear__rfft grid_fft;           /* MIN_PHASE_FFT's plan */
    double *mag_dense;            /* dense / 2 + 1 */
    double *cep;                  /* MIN_PHASE_FFT */
    double *spec_re;              /* MIN_PHASE_FFT / 2 + 1 */
    double *spec_im;              /* MIN_PHASE_FFT / 2 + 1 */
    double *fft_work;             /* dense (>= MIN_PHASE_FFT): the transforms' scratch */
    double *dense_tab, *grid_tab; /* the plans' twiddle tables */
    double *dense_pow;            /* dense / 2 + 1: the dataset's power spectrum */
    double *logmag;               /* MIN_PHASE_FFT / 2 + 1: the log magnitude being refined */
    double *pow2;                 /* MIN_PHASE_FFT / 2 + 1: a trial filter's power spectrum */
    double *trial;                /* EAR_HRTF_MAX_TAPS: a trial filter */
    refine_grid grid;
} work;

static void work_free(work *w) {
    free(w->dense_re);
    free(w->dense_im);
    free(w->mag_dense);
    free(w->cep);
    free(w->spec_re);
    free(w->spec_im);
    free(w->fft_work);
    free(w->dense_tab);
    free(w->grid_tab);
    free(w->dense_pow);
    free(w->logmag);
    free(w->pow2);
    free(w->trial);
}

static bool work_init(work *w, uint32_t file_taps) {
    memset(w, 0, sizeof *w);
    uint32_t dense = 4096;
    while (dense < 4 * file_taps) dense *= 2;
    w->dense = dense;
    w->dense_re = malloc(sizeof(double) * (dense / 2 + 1));
    w->dense_im = malloc(sizeof(double) * (dense / 2 + 1));
    w->mag_dense = malloc(sizeof(double) * (dense / 2 + 1));
    w->cep = malloc(sizeof(double) * MIN_PHASE_FFT);
    w->spec_re = malloc(sizeof(double) * (MIN_PHASE_FFT / 2 + 1));
    w->spec_im = malloc(sizeof(double) * (MIN_PHASE_FFT / 2 + 1));
    w->fft_work = malloc(sizeof(double) * dense);
    w->dense_tab = malloc(sizeof(double) * ear__rfft_table_doubles(dense));
    w->grid_tab = malloc(sizeof(double) * ear__rfft_table_doubles(MIN_PHASE_FFT));
    w->dense_pow = malloc(sizeof(double) * (dense / 2 + 1));
    w->logmag = malloc(sizeof(double) * (MIN_PHASE_FFT / 2 + 1));
    w->pow2 = malloc(sizeof(double) * (MIN_PHASE_FFT / 2 + 1));
    w->trial = malloc(sizeof(double) * EAR_HRTF_MAX_TAPS);
    if (!w->dense_re || !w->dense_im || !w->mag_dense || !w->cep || !w->spec_re ||
        !w->spec_im || !w->fft_work || !w->dense_tab || !w->grid_tab || !w->dense_pow ||
        !w->logmag || !w->pow2 || !w->trial)
        return false;
    ear__rfft_init(&w->dense_fft, dense, w->dense_tab);
    ear__rfft_init(&w->grid_fft, MIN_PHASE_FFT, w->grid_tab);
    return true;
}

/* spec (MIN_PHASE_FFT / 2 + 1 bins) -> cep (MIN_PHASE_FFT samples), times MIN_PHASE_FFT:
 * the inverse real transform. spec is overwritten. */
static void to_cep(work *w) {
    ear__rfftd_inverse(&w->grid_fft, w->spec_re, w->spec_im, w->fft_work);
    for (uint32_t j = 0; j < MIN_PHASE_FFT / 2; j++) {
        w->cep[2 * j] = w->spec_re[j];
        w->cep[2 * j + 1] = w->spec_im[j];
    }
}

/* cep (MIN_PHASE_FFT samples) -> spec (its MIN_PHASE_FFT / 2 + 1 bins). */
static void to_spec(work *w) {
    for (uint32_t j = 0; j < MIN_PHASE_FFT / 2; j++) {
        w->spec_re[j] = w->cep[2 * j];
        w->spec_im[j] = w->cep[2 * j + 1];
    }
    ear__rfftd_forward(&w->grid_fft, w->spec_re, w->spec_im, w->fft_work);
}

/* The bins of an FFT (bins 0..half, bin k at k * rate / n) in band b: *count of them from
 * *first. */
static void band_bins(uint32_t half, double rate, uint32_t n, int b, uint32_t *first,
                      uint32_t *count) {
    double fc = 500.0 * pow(2.0, b / 3.0);
    double lo = fc * pow(2.0, -1.0 / 6.0), hi = fc * pow(2.0, 1.0 / 6.0);
    uint32_t k0 = (uint32_t)ceil(lo * n / rate), k = k0;
    while (k <= half && k * rate / n < hi) k++;
    *first = k0;
    *count = k - k0;
}

/* Mean power over count bins of pow2 from first; -1 for an empty band. */
static double mean_power(const double *pow2, uint32_t first, uint32_t count) {
    double sum = 0;
    for (uint32_t k = first; k < first + count; k++) sum += pow2[k];
    return count ? sum / count : -1.0;
}

/* Mean power over the bins of an FFT (bins 0..half, bin k at k * rate / n) in band b. */
static double band_power(const double *pow2, uint32_t half, double rate, uint32_t n, int b) {
    uint32_t first, count;
    band_bins(half, rate, n, b, &first, &count);
    return mean_power(pow2, first, count);
}

/* The refinement's grid for a stage rate, a file rate and a filter length (refine_grid);
 * kept while they stay. */
static void grid_make(refine_grid *gr, uint32_t rate, double file_rate, uint32_t taps) {
    if (gr->taps != taps) {
        uint32_t fade = taps / 4;
        for (uint32_t n = 0; n < taps; n++) {
            gr->fade_gain[n] = 1.0;
            if (n >= taps - fade) {
                double t = (double)(n - (taps - fade) + 1) / (double)(fade + 1);
                gr->fade_gain[n] = 0.5 * (1.0 + cos(PI * t));
            }
        }
        gr->taps = taps;
    }
    if (gr->file_rate == file_rate && gr->rate == rate) return;
    const uint32_t g = MIN_PHASE_FFT, half = MIN_PHASE_FFT / 2;
    double file_nyq = file_rate / 2.0, nyq = rate / 2.0;
    gr->rate = rate;
    gr->file_rate = file_rate;
    gr->bands = 0;
    for (int b = BAND_FIRST; gr->bands < BAND_MAX; b++) {
        double fc = 500.0 * pow(2.0, b / 3.0);
        if (fc * pow(2.0, 1.0 / 6.0) >= 0.98 * (nyq < file_nyq ? nyq : file_nyq)) break;
        band_bins(half, rate, g, b, &gr->bin_lo[gr->bands], &gr->bin_count[gr->bands]);
        gr->centre[gr->bands] = log(fc);
        gr->bands++;
    }
    gr->first_tested = -BAND_FIRST;
    gr->last_tested = 13 - BAND_FIRST;
    /* Bin k's correction: between the band centres around its log frequency, or the end
     * bands' beyond them (weights 1 and 0, so the sum is that band's correction exactly). */
    for (uint32_t k = 1; k <= half; k++) {
        int last = gr->bands - 1;
        gr->lerp_band[k] = 0;
        gr->lerp_w0[k] = 1.0;
        gr->lerp_w1[k] = 0.0;
        if (last < 1) continue;
        double lf = log((double)k * rate / g);
        if (lf <= gr->centre[0]) continue;
        int i = last - 1;
        double t = 1.0;
        if (lf < gr->centre[last]) {
            i = 0;
            while (gr->centre[i + 1] < lf) i++;
            t = (lf - gr->centre[i]) / (gr->centre[i + 1] - gr->centre[i]);
        }
        gr->lerp_band[k] = (uint8_t)i;
        gr->lerp_w0[k] = 1 - t;
        gr->lerp_w1[k] = t;
    }
}

/* The minimum-phase filter whose magnitude is exp(w->logmag) (half + 1 bins of the
 * MIN_PHASE_FFT grid), cut to taps with a half-Hann fade over the last quarter (the
 * grid's fade gains), into out; its power spectrum on the same grid into pow2. */
static void min_phase(work *w, uint32_t taps, double *out, double *pow2) {
    const uint32_t g = MIN_PHASE_FFT, half = MIN_PHASE_FFT / 2;
    const double *fade_gain = w->grid.fade_gain;
    for (uint32_t k = 0; k <= half; k++) {
        w->spec_re[k] = w->logmag[k];
        w->spec_im[k] = 0.0;
    }
    to_cep(w); /* real cepstrum, times g */
    w->cep[0] /= g;
    for (uint32_t n = 1; n < half; n++) w->cep[n] *= 2.0 / g;
    w->cep[half] /= g;
    for (uint32_t n = half + 1; n < g; n++) w->cep[n] = 0.0;
    to_spec(w);
    /* exp(re + i im), with the portable sincos (earshot/portable_math.h): 75 instructions
     * a call against glibc's 128 (it takes its slower reduction for most of these phases),
     * within 3e-14 relative, float noise in the filters (KEMAR's came out bit for bit the
     * same). libm's exp is as fast as the portable one and stays. */
    for (uint32_t k = 0; k <= half; k++) {
        double re = w->spec_re[k], im = w->spec_im[k];
        double e = exp(re), s, c;
        ear__sincos(im, &s, &c);
        w->spec_re[k] = e * c;
        w->spec_im[k] = e * s;
    }
    to_cep(w);
    for (uint32_t n = 0; n < taps; n++) {
        double v = w->cep[n] / g * fade_gain[n];
        out[n] = v;
        w->cep[n] = v;
    }
    for (uint32_t n = taps; n < g; n++) w->cep[n] = 0.0;
    to_spec(w);
    for (uint32_t k = 0; k <= half; k++)
        pow2[k] = w->spec_re[k] * w->spec_re[k] + w->spec_im[k] * w->spec_im[k];
}

/* One ear of one direction: hrir (file_taps at file_rate) -> out (taps at rate).
 *
 * A minimum-phase filter cut to `taps` smooths narrow features of the magnitude (a notch
 * of the far ear loses depth, its neighbours gain). So the cut filter is refined: its
 * power in each third-octave band is compared with the dataset's, the log magnitude the
 * filter is made from is corrected by the band's ratio (interpolated in log frequency
 * between band centres), and the filter is made again, REFINE_ITER times, keeping the
 * filter whose worst band error is least (a fixed-point iteration on band powers; it
 * converges slowly: for KEMAR 1378 of 1420 filters use every round, and 776 find their
 * best in the last, so a round's cost is the load's; docs/modules/hrtf.md). */
static void make_filter(work *w, const float *hrir, uint32_t file_taps, double file_rate,
                        uint32_t rate, uint32_t taps, float *out) {
    const uint32_t g = MIN_PHASE_FFT, half = MIN_PHASE_FFT / 2;
    /* The HRIR zero-padded to dense samples, packed for the transform. */
    for (uint32_t j = 0; j < w->dense / 2; j++) {
        w->dense_re[j] = 2 * j < file_taps ? hrir[2 * j] : 0.0;
        w->dense_im[j] = 2 * j + 1 < file_taps ? hrir[2 * j + 1] : 0.0;
    }
    ear__rfftd_forward(&w->dense_fft, w->dense_re, w->dense_im, w->fft_work);
    double peak = 0;
    for (uint32_t k = 0; k <= w->dense / 2; k++) {
        double m = hypot(w->dense_re[k], w->dense_im[k]);
        w->mag_dense[k] = m;
        if (m > peak) peak = m;
    }
    double floor_mag = (peak > 0 ? peak : 1.0) * pow(10.0, FLOOR_DB / 20.0);
    double file_nyq = file_rate / 2.0, nyq = rate / 2.0;
    for (uint32_t k = 0; k <= half; k++) {
        double f = (double)k * rate / g;
        double m;
        if (f <= file_nyq) {
            double pos = f / file_rate * w->dense;
            uint32_t i0 = (uint32_t)pos;
            if (i0 >= w->dense / 2) i0 = w->dense / 2 - 1;
            double t = pos - i0;
            m = w->mag_dense[i0] * (1 - t) + w->mag_dense[i0 + 1] * t;
        } else {
            double t = (f - file_nyq) / (nyq - file_nyq);
            double fade = 0.5 * (1.0 + cos(PI * t));
            m = w->mag_dense[w->dense / 2] * fade;
        }
        if (m < floor_mag) m = floor_mag;
        w->logmag[k] = log(m);
    }
    /* The dataset's band powers, from its own dense spectrum at the file rate. */
    for (uint32_t k = 0; k <= w->dense / 2; k++)
        w->dense_pow[k] = w->mag_dense[k] * w->mag_dense[k];
    refine_grid *gr = &w->grid;
    grid_make(gr, rate, file_rate, taps);
    const int bands = gr->bands;
    double want[BAND_MAX];
    for (int i = 0; i < bands; i++)
        want[i] = band_power(w->dense_pow, w->dense / 2, file_rate, w->dense, BAND_FIRST + i);
    double best_err = INFINITY;
    for (int it = 0; it <= REFINE_ITER; it++) {
        min_phase(w, taps, w->trial, w->pow2);
        double corr[BAND_MAX], err = 0;
        for (int i = 0; i < bands; i++) {
            double got = mean_power(w->pow2, gr->bin_lo[i], gr->bin_count[i]);
            corr[i] = (want[i] > 0 && got > 0) ? 0.5 * log(want[i] / got) : 0.0;
            double e = fabs(corr[i]);
            /* Judge a filter on the bands the tests measure (500 Hz-12.7 kHz). */
            if (i >= gr->first_tested && i <= gr->last_tested && e > err) err = e;
        }
        if (err < best_err) {
            best_err = err;
            for (uint32_t n = 0; n < taps; n++) out[n] = (float)w->trial[n];
        }
        /* 0.005 neper is 0.04 dB: close enough (few filters get there). */
        if (it == REFINE_ITER || bands < 2 || err < 0.005) break;
        for (uint32_t k = 1; k <= half; k++) {
            int i = gr->lerp_band[k];
            w->logmag[k] += corr[i] * gr->lerp_w0[k] + corr[i + 1] * gr->lerp_w1[k];
        }
        w->logmag[0] += corr[0];
    }
}

static int cmp_dir(const void *pa, const void *pb, const ear_hrtf_set *s) {
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    float ea = roundf(s->elevation_deg[a] * 100.0f), eb = roundf(s->elevation_deg[b] * 100.0f);
    if (ea != eb) return ea < eb ? -1 : 1;
    if (s->azimuth_deg[a] != s->azimuth_deg[b])
        return s->azimuth_deg[a] < s->azimuth_deg[b] ? -1 : 1;
    return a < b ? -1 : (a > b);
}

/* Insertion sort (qsort has no context argument in C11); a set has at most a few thousand
 * directions and is sorted once. */
static void sort_dirs(uint32_t *idx, uint32_t n, const ear_hrtf_set *s) {
    for (uint32_t i = 1; i < n; i++) {
        uint32_t v = idx[i];
        uint32_t j = i;
        while (j > 0 && cmp_dir(&idx[j - 1], &v, s) > 0) {
            idx[j] = idx[j - 1];
            j--;
        }
        idx[j] = v;
    }
}

static bool build_rings(ear_hrtf_set *s) {
    uint32_t n = s->count;
    for (uint32_t i = 0; i < n; i++) s->ring_index[i] = i;
    sort_dirs(s->ring_index, n, s);
    uint32_t rings = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t d = s->ring_index[i];
        if (i == 0 || roundf(s->elevation_deg[d] * 100.0f) !=
                          roundf(s->elevation_deg[s->ring_index[i - 1]] * 100.0f)) {
            s->ring_start[rings] = i;
            s->ring_elevation[rings] = s->elevation_deg[d];
            rings++;
        }
    }
    s->ring_start[rings] = n;
    s->rings = rings;
    return rings > 0;
}

static void drop(const ear_allocator *a, void *p) {
    if (p) a->free_fn(p, a->user);
}

void ear_hrtf_free(ear_hrtf_set *set) {
    if (!set) return;
    ear_allocator a = set->alloc;
    drop(&a, set->azimuth_deg);
    drop(&a, set->elevation_deg);
    drop(&a, set->left);
    drop(&a, set->right);
    drop(&a, set->delay_left);
    drop(&a, set->delay_right);
    drop(&a, set->ring_elevation);
    drop(&a, set->ring_start);
    drop(&a, set->ring_index);
    drop(&a, set);
}

#ifndef EAR_HRTF_NO_SOFA
static bool is_cartesian(const struct MYSOFA_HRTF *h) {
    for (const struct MYSOFA_ATTRIBUTE *a = h->SourcePosition.attributes; a; a = a->next) {
        if (a->name && a->value && strcmp(a->name, "Type") == 0)
            return strcmp(a->value, "cartesian") == 0;
    }
    return false;
}
#endif

static ear_result check_config(const ear_hrtf_config *config, ear_hrtf_config *cfg,
                               const char *path, ear_hrtf_error *err) {
    *cfg = config ? *config : ear_hrtf_config_default();
    if (cfg->sample_rate < 8000 || cfg->sample_rate > 384000)
        return fail(err, EAR_E_INVALID_ARG, path, "sample_rate outside 8000..384000");
    if (cfg->taps < 8 || cfg->taps > EAR_HRTF_MAX_TAPS)
        return fail(err, EAR_E_INVALID_ARG, path, "taps outside 8..256");
    return EAR_OK;
}

#ifndef EAR_HRTF_NO_SOFA
static ear_result build(struct MYSOFA_HRTF *h, int code, const char *path,
                        const ear_hrtf_config *config, ear_hrtf_set **out_set,
                        ear_hrtf_error *err);
#endif

/* ---- what a file declares ------------------------------------------------ */

/* libmysofa allocates each dataset's and attribute's values as their dataspaces declare
 * them, whatever the file holds: a 1.17 MB file whose dataspaces declare 32,000 directions
 * took 276 MB to load. So the dataspaces are read first. An HDF5 dataspace message's body
 * (version 1: 1, rank, flags, five zero bytes, then rank dimensions of 8 bytes, and as
 * many maxima when flags bit 0 is set; version 2: 2, rank, flags, a type 0..2, then the
 * same) is found by that layout wherever it lies in the file (object headers, v1 or v2,
 * hold them), its dimensions each under 2^32 and its maxima equal or unlimited; compressed
 * data matching all of it by chance is far rarer than one in 2^60 a byte. The sum of the
 * products is an upper bound of the elements libmysofa can be made to allocate (its
 * arrays are floats; 8 bytes an element allows for doubles read and converted). */
#define SCAN_BLOCK   65536u
#define SCAN_MAXRANK 8u
#define SCAN_SPAN    (8u + 16u * SCAN_MAXRANK)

static uint64_t sat_mul(uint64_t a, uint64_t b) {
    return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

static uint64_t le64(const unsigned char *p) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

/* The dataspace body at p (n bytes readable), or 0 elements; *rank_out and *first its
 * rank and first dimension. */
static uint64_t dataspace_at(const unsigned char *p, size_t n, uint32_t *rank_out,
                             uint64_t *first) {
    if (n < 8u || (p[0] != 1 && p[0] != 2) || p[1] < 1 || p[1] > SCAN_MAXRANK || p[2] > 1)
        return 0;
    size_t head = 4;
    if (p[0] == 1) {
        if (p[3] || p[4] || p[5] || p[6] || p[7]) return 0;
        head = 8;
    } else if (p[3] != 1) { /* version 2: only a simple dataspace has dimensions */
        return 0;
    }
    uint32_t rank = p[1];
    bool maxima = p[2] & 1u;
    if (n < head + (maxima ? 16u : 8u) * rank) return 0;
    uint64_t elements = 1;
    for (uint32_t d = 0; d < rank; d++) {
        uint64_t dim = le64(p + head + 8u * d);
        if (dim >= ((uint64_t)1 << 32)) return 0;
        if (maxima) {
            uint64_t max = le64(p + head + 8u * (rank + d));
            if (max != dim && max != UINT64_MAX) return 0;
        }
        elements = sat_mul(elements, dim);
    }
    *rank_out = rank;
    *first = le64(p + head);
    return elements;
}

uint64_t ear_hrtf_load_bytes(int fd, uint32_t taps) {
    unsigned char *buf = malloc(SCAN_BLOCK + SCAN_SPAN);
    if (!buf) return 0;
    uint64_t elements = 0, directions = 0, largest = 0;
    size_t kept = 0;
    off_t at = 0;
    for (;;) {
        ssize_t got = pread(fd, buf + kept, SCAN_BLOCK, at);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) {
            free(buf);
            return 0;
        }
        at += got;
        size_t n = kept + (size_t)got;
        bool last = got == 0;
        /* Positions whose whole span is here (or every one, at the end). */
        size_t until = last ? n : (n > SCAN_SPAN ? n - SCAN_SPAN : 0);
        for (size_t i = 0; i < until; i++) {
            uint32_t rank = 0;
            uint64_t first = 0;
            uint64_t e = dataspace_at(buf + i, n - i, &rank, &first);
            if (!e) continue;
            elements = elements + e < elements ? UINT64_MAX : elements + e;
            /* Data.IR is the largest rank-3 dataspace: its first dimension, M. */
            if (rank == 3 && e > largest) {
                largest = e;
                directions = first;
            }
        }
        if (last) break;
        memmove(buf, buf + until, n - until);
        kept = n - until;
    }
    free(buf);
    uint64_t arrays = sat_mul(directions, 4u * (2u * (uint64_t)taps + 8u));
    uint64_t total = sat_mul(elements, 8u);
    return total + arrays < total ? UINT64_MAX : total + arrays;
}

ear_result ear_hrtf_load(const char *path, const ear_hrtf_config *config,
                         ear_hrtf_set **out_set, ear_hrtf_error *err) {
    if (err) err->needed_bytes = 0;
    if (!path || !out_set) return fail(err, EAR_E_INVALID_ARG, path, "no path or no output");
    ear_hrtf_config cfg;
    ear_result r = check_config(config, &cfg, path, err);
    if (r != EAR_OK) return r;
#ifdef EAR_HRTF_NO_SOFA
    /* A build without libmysofa (the Windows build when its source package was not to be
     * had, docs/windows.md): no SOFA reader, said as such. */
    return fail(err, EAR_E_UNSUPPORTED, path, "this build has no SOFA reader (no libmysofa)");
#else
    /* The path is checked through core (a regular file of at most EAR_FILE_MAX_HRTF_BYTES,
     * checked on the open descriptor: a FIFO is refused, never waited on). libmysofa opens
     * files by path, and its in-memory reader (mysofa_load_data) reads out of bounds on
     * truncated files (hrtf.md, "Fuzzing"), so it is handed the checked descriptor's own
     * name, /proc/self/fd/N, which opens the very file that was checked: nothing swapped in
     * at the path since is read. Where /proc is missing it is handed the path itself, and
     * a file put there between the check and libmysofa's open would be read (a window of a
     * few system calls). */
    int fd = -1;
    char why[EAR_HRTF_ERROR_MAX];
    r = ear_file_open_read(path, EAR_FILE_MAX_HRTF_BYTES, &fd, NULL, why, sizeof why);
    if (r != EAR_OK) return fail(err, r, path, ear_file_reason(why, path));
    /* What the file declares, before libmysofa reads it (above). */
    uint64_t need = ear_hrtf_load_bytes(fd, cfg.taps);
    if (cfg.max_load_bytes && need > cfg.max_load_bytes) {
        close(fd);
        char text[200];
        snprintf(text, sizeof text,
                 "its dataspaces declare %.1f MiB of arrays to load, over the %.1f MiB it may "
                 "take; libmysofa did not read it",
                 (double)need / (1024.0 * 1024.0),
                 (double)cfg.max_load_bytes / (1024.0 * 1024.0));
        r = fail(err, EAR_E_OUT_OF_MEMORY, path, text);
        if (err) err->needed_bytes = need;
        return r;
    }
#ifdef _WIN32
    /* No /proc on Windows (and a Windows stat has no inode to tell a file by): the path. */
    const char *open_as = path;
#else
    char own[64];
    snprintf(own, sizeof own, "/proc/self/fd/%d", fd);
    struct stat checked, named;
    const char *open_as = fstat(fd, &checked) == 0 && stat(own, &named) == 0 &&
                                  checked.st_dev == named.st_dev &&
                                  checked.st_ino == named.st_ino
                              ? own
                              : path;
#endif
    int code = 0;
    struct MYSOFA_HRTF *h = mysofa_load(open_as, &code);
    close(fd);
    r = build(h, code, path, &cfg, out_set, err);
    if (r == EAR_OK) (*out_set)->load_bytes = need;
    return r;
#endif
}

#ifndef EAR_HRTF_NO_SOFA
/* The set from libmysofa's reading of path (h, code): checked, then made into filters. */
static ear_result build(struct MYSOFA_HRTF *h, int code, const char *path,
                        const ear_hrtf_config *config, ear_hrtf_set **out_set,
                        ear_hrtf_error *err) {
    ear_hrtf_config cfg = *config;
    if (!h || code != MYSOFA_OK) {
        if (h) mysofa_free(h);
        return fail(err,
                    code == MYSOFA_READ_ERROR  ? EAR_E_IO
                    : code == MYSOFA_NO_MEMORY ? EAR_E_OUT_OF_MEMORY
                                               : EAR_E_FORMAT,
                    path, mysofa_reason(code));
    }
    code = mysofa_check(h);
    if (code != MYSOFA_OK) {
        mysofa_free(h);
        return fail(err, EAR_E_FORMAT, path, mysofa_reason(code));
    }
    if (is_cartesian(h)) mysofa_tospherical(h);
    const char *bad = NULL;
    double file_rate = h->DataSamplingRate.elements >= 1 ? h->DataSamplingRate.values[0] : 0.0;
    if (h->R != 2)
        bad = "not two receivers (ears)";
    else if (h->M == 0 || h->N == 0)
        bad = "no measurements";
    else if (h->C != 3 || h->SourcePosition.elements != h->M * 3)
        bad = "source positions missing";
    else if (!(file_rate >= 1000.0 && file_rate <= 1e6))
        bad = "no usable sampling rate";
    else if (h->DataIR.elements != h->M * h->R * h->N)
        bad = "impulse responses missing";
    for (uint32_t i = 0; !bad && i < h->DataIR.elements; i++)
        if (!isfinite(h->DataIR.values[i])) bad = "an impulse response value is not finite";
    for (uint32_t i = 0; !bad && i < h->SourcePosition.elements; i++)
        if (!isfinite(h->SourcePosition.values[i])) bad = "a source position is not finite";
    if (bad) {
        mysofa_free(h);
        return fail(err, EAR_E_FORMAT, path, bad);
    }

    uint32_t m = h->M, n = h->N, taps = cfg.taps;
    ear_allocator al = ear_allocator_resolve(cfg.allocator);
    ear_hrtf_set *s = al.alloc_fn(sizeof *s, al.user);
    work w;
    bool work_ok = false;
    if (s) {
        memset(s, 0, sizeof *s);
        s->alloc = al;
        s->azimuth_deg = al.alloc_fn(sizeof(float) * m, al.user);
        s->elevation_deg = al.alloc_fn(sizeof(float) * m, al.user);
        s->left = al.alloc_fn(sizeof(float) * m * taps, al.user);
        s->right = al.alloc_fn(sizeof(float) * m * taps, al.user);
        s->delay_left = al.alloc_fn(sizeof(float) * m, al.user);
        s->delay_right = al.alloc_fn(sizeof(float) * m, al.user);
        s->ring_elevation = al.alloc_fn(sizeof(float) * m, al.user);
        s->ring_start = al.alloc_fn(sizeof(uint32_t) * (m + 1), al.user);
        s->ring_index = al.alloc_fn(sizeof(uint32_t) * m, al.user);
        work_ok = work_init(&w, n);
    }
    if (!s || !work_ok || !s->azimuth_deg || !s->elevation_deg || !s->left || !s->right ||
        !s->delay_left || !s->delay_right || !s->ring_elevation || !s->ring_start ||
        !s->ring_index) {
        if (s) work_free(&w);
        ear_hrtf_free(s);
        mysofa_free(h);
        return fail(err, EAR_E_OUT_OF_MEMORY, path, "out of memory");
    }
    s->sample_rate = cfg.sample_rate;
    s->taps = taps;
    s->count = m;
    s->file_rate = file_rate;
    s->file_taps = n;
    snprintf(s->source, sizeof s->source, "%s", path);
    double scale = cfg.sample_rate / file_rate;
    int max_lag = (int)ceil(0.0015 * file_rate);
    if (max_lag > (int)n - 1) max_lag = (int)n - 1;
    int mp_lag = (int)taps / 4; /* the filters' own lag is a few samples */
    for (uint32_t d = 0; d < m; d++) {
        double az = fmod(h->SourcePosition.values[d * 3], 360.0);
        if (az < 0) az += 360.0;
        if (az >= 360.0) az = 0.0;
        s->azimuth_deg[d] = (float)az;
        s->elevation_deg[d] = h->SourcePosition.values[d * 3 + 1];
        const float *l = h->DataIR.values + (size_t)d * 2 * n;
        const float *r = l + n;
        double itd = xcorr_lag(l, r, (int)n, max_lag);
        /* Data.Delay: one pair for the set, or one pair per direction. */
        if (h->DataDelay.elements == 2) {
            itd += h->DataDelay.values[1] - h->DataDelay.values[0];
        } else if (h->DataDelay.elements == 2 * m) {
            itd += h->DataDelay.values[d * 2 + 1] - h->DataDelay.values[d * 2];
        }
        itd *= scale;
        float *fl = s->left + (size_t)d * taps, *fr = s->right + (size_t)d * taps;
        make_filter(&w, l, n, file_rate, cfg.sample_rate, taps, fl);
        make_filter(&w, r, n, file_rate, cfg.sample_rate, taps, fr);
        /* The two minimum-phase filters are not equally early (the far ear's, duller,
         * peaks later): the delays make up the rest, so that the rendered ears'
         * cross-correlation lag is the dataset's. */
        itd -= filter_lag(fl, fr, (int)taps, mp_lag);
        s->delay_left[d] = itd < 0 ? (float)-itd : 0.0f;
        s->delay_right[d] = itd > 0 ? (float)itd : 0.0f;
    }
    work_free(&w);
    mysofa_free(h);
    build_rings(s);
    *out_set = s;
    return EAR_OK;
}
#endif
