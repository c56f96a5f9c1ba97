/* SPDX-License-Identifier: Zlib */
/*
 * The stage's HRTF spatializer measured against the data: Debian's MIT KEMAR set
 * (libmysofa1's default.sofa) loaded with the HRTF loader and handed to the stage; the
 * stage renders white noise and sines at directions, and the output is measured against
 * the dataset's own HRIRs read here directly with libmysofa: magnitude responses by
 * third-octave bands (Welch cross-spectra, the real FFT in double: real_spectrum.h), the ITD by
 * cross-correlation, front against back, an interpolated direction against its neighbours, the
 * largest step of a sine swept around the head, determinism and chunk independence, both
 * kernels. Runs once with the default kernel and once with the scalar one
 * (EARSHOT_KERNEL=scalar).
 */
#include <mysofa.h>

#include "real_spectrum.h"

#include "earshot/analysis.h"
#include "earshot/hrtf.h"
#include "earshot/mixer.h"
#include "earshot/stage.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SOFA   EAR_HRTF_DEFAULT_PATH
#define RATE   48000u
#define NFFT   8192
#define NBANDS 14
#define PI_D   3.14159265358979323846

static struct MYSOFA_HRTF *raw;
static ear_hrtf_set *set;
static real_spectrum fft;
static bool fft_made;

static void release_all(void);

/* The dataset as libmysofa reads it and as Earshot loads it, and the FFT plan that
 * measures the renders: made once by the first test that names it (SETUP_ONCE), freed
 * with the kept renders when the process exits. */
static void load_all(void) {
    atexit(release_all);
    int e = 0;
    raw = mysofa_load(SOFA, &e);
    ASSERT_NOT_NULL(raw);
    ASSERT_OK(ear_hrtf_load(SOFA, NULL, &set, NULL));
    fft_made = real_spectrum_make(&fft, NFFT);
    ASSERT_TRUE(fft_made);
}

static ear_kernel test_kernel(void) {
    const char *k = getenv("EARSHOT_KERNEL");
    if (k && strcmp(k, "scalar") == 0) return EAR_KERNEL_SCALAR;
    return EAR_KERNEL_AUTO;
}

static ear_stage *hrtf_stage(ear_kernel kernel, bool with_set) {
    ear_stage_config c = ear_stage_config_default();
    c.kernel = kernel;
    ear_stage *s = NULL;
    if (ear_stage_create(&c, &s) != EAR_OK) return NULL;
    if (with_set) {
        ear_stage_hrtf v = ear_hrtf_stage_view(set);
        if (ear_stage_set_hrtf(s, &v) != EAR_OK) {
            ear_stage_destroy(s);
            return NULL;
        }
        ear_stage_set_spatializer(s, EAR_SPATIALIZER_HRTF);
    }
    return s;
}

static ear_clip *noise_clip(double seconds, uint64_t seed) {
    uint64_t n = (uint64_t)llround(seconds * RATE);
    float *x = malloc(n * sizeof *x);
    ear_rng rng;
    ear_rng_seed(&rng, seed);
    for (uint64_t i = 0; i < n; i++) x[i] = ear_rng_range(&rng, -0.5f, 0.5f);
    ear_clip *c = NULL;
    ear_clip_create(x, n, 1, RATE, NULL, &c);
    free(x);
    return c;
}

static ear_clip *sine_clip(double hz, double seconds, float amp) {
    uint64_t n = (uint64_t)llround(seconds * RATE);
    float *x = malloc(n * sizeof *x);
    for (uint64_t i = 0; i < n; i++)
        x[i] = amp * (float)sin(2.0 * PI_D * hz * (double)i / RATE);
    ear_clip *c = NULL;
    ear_clip_create(x, n, 1, RATE, NULL, &c);
    free(x);
    return c;
}

/* Where a SOFA direction (azimuth counter-clockwise from the front, elevation up) is,
 * r metres from the default listener (at the origin facing -Z, +Y up, +X right). */
static ear_vec3 at_direction(double az, double el, double r) {
    double a = az * PI_D / 180.0, e = el * PI_D / 180.0;
    return ear_vec3_make((float)(-r * sin(a) * cos(e)), (float)(r * sin(e)),
                         (float)(-r * cos(a) * cos(e)));
}

static ear_play hrtf_voice(double az, double el) {
    ear_play p = {0};
    p.placed = true;
    p.looping = true;
    p.no_doppler = true;
    p.position = at_direction(az, el, 2.0);
    p.attenuation.model = EAR_MODEL_NONE;
    return p;
}

static uint32_t find_dir(float az, float el) {
    for (uint32_t d = 0; d < raw->M; d++)
        if (fabsf(raw->SourcePosition.values[d * 3] - az) < 0.01f &&
            fabsf(raw->SourcePosition.values[d * 3 + 1] - el) < 0.01f)
            return d;
    return UINT32_MAX;
}

static const float *raw_ear(uint32_t d, int ear) {
    return raw->DataIR.values + ((size_t)d * 2 + (size_t)ear) * raw->N;
}

/* Mean of pw[k] over the bins of band b (500 Hz * 2^(b/3) +- 1/6 octave), in dB. */
static double band_mean_db(const double *pw, double rate, int b) {
    double fc = 500.0 * pow(2.0, b / 3.0);
    double lo = fc * pow(2.0, -1.0 / 6.0), hi = fc * pow(2.0, 1.0 / 6.0);
    double sum = 0;
    int cnt = 0;
    for (uint32_t k = (uint32_t)ceil(lo * NFFT / rate); k <= NFFT / 2 && k * rate / NFFT < hi;
         k++) {
        sum += pw[k];
        cnt++;
    }
    return 10.0 * log10(sum / cnt + 1e-30);
}

/* The dataset's band levels for direction d, ear (its HRIR at the file's rate). */
static void dataset_bands(uint32_t d, int ear, double out[NBANDS]) {
    static double pw[NFFT / 2 + 1];
    for (uint32_t i = 0; i < NFFT; i++) fft.in[i] = i < raw->N ? raw_ear(d, ear)[i] : 0.0;
    real_spectrum_run(&fft);
    for (uint32_t k = 0; k <= NFFT / 2; k++)
        pw[k] = fft.out[k][0] * fft.out[k][0] + fft.out[k][1] * fft.out[k][1];
    for (int b = 0; b < NBANDS; b++)
        out[b] = band_mean_db(pw, raw->DataSamplingRate.values[0], b);
}

/* The rendered transfer function's band levels, channel ch of out (frames stereo) against
 * the input x: |S_xy|^2 / S_xx^2 by Welch (Hann windows of NFFT, half overlap). */
static void rendered_bands(const float *x, const float *out, uint32_t frames, uint32_t ch,
                           double bands[NBANDS]) {
    static double sxx[NFFT / 2 + 1], sxy_re[NFFT / 2 + 1], sxy_im[NFFT / 2 + 1],
        pw[NFFT / 2 + 1];
    static double X[NFFT / 2 + 1][2];
    memset(sxx, 0, sizeof sxx);
    memset(sxy_re, 0, sizeof sxy_re);
    memset(sxy_im, 0, sizeof sxy_im);
    for (uint32_t at = 0; at + NFFT <= frames; at += NFFT / 2) {
        for (uint32_t i = 0; i < NFFT; i++)
            fft.in[i] = x[at + i] * (0.5 - 0.5 * cos(2.0 * PI_D * i / NFFT));
        real_spectrum_run(&fft);
        memcpy(X, fft.out, sizeof X);
        for (uint32_t i = 0; i < NFFT; i++)
            fft.in[i] =
                out[(size_t)(at + i) * 2 + ch] * (0.5 - 0.5 * cos(2.0 * PI_D * i / NFFT));
        real_spectrum_run(&fft);
        for (uint32_t k = 0; k <= NFFT / 2; k++) {
            sxx[k] += X[k][0] * X[k][0] + X[k][1] * X[k][1];
            /* Y conj(X) */
            sxy_re[k] += fft.out[k][0] * X[k][0] + fft.out[k][1] * X[k][1];
            sxy_im[k] += fft.out[k][1] * X[k][0] - fft.out[k][0] * X[k][1];
        }
    }
    for (uint32_t k = 0; k <= NFFT / 2; k++)
        pw[k] = sxx[k] > 0 ? (sxy_re[k] * sxy_re[k] + sxy_im[k] * sxy_im[k]) / (sxx[k] * sxx[k])
                           : 0.0;
    for (int b = 0; b < NBANDS; b++) bands[b] = band_mean_db(pw, RATE, b);
}

#define NOISE_S      1.0
#define NOISE_FRAMES ((uint32_t)(NOISE_S * RATE))

/* White noise rendered at (az, el) through the stage: output and input (free them). */
static float *render_noise_fresh(double az, double el, float **input) {
    ear_stage *s = hrtf_stage(test_kernel(), true);
    ear_clip *c = noise_clip(NOISE_S, 7);
    ear_play p = hrtf_voice(az, el);
    ear_stage_play(s, c, &p, NULL);
    float *out = malloc(sizeof(float) * 2 * NOISE_FRAMES);
    ear_stage_render(s, out, NOISE_FRAMES);
    if (input) {
        *input = malloc(sizeof(float) * NOISE_FRAMES);
        memcpy(*input, ear_clip_data(c), sizeof(float) * NOISE_FRAMES);
    }
    ear_clip_release(c);
    ear_stage_destroy(s);
    return out;
}

/* Renders are kept (by direction) for the tests that measure the same ones; a copy is
 * returned. */
static struct {
    double az, el;
    float *out, *in;
} cache[16];

static float *render_noise(double az, double el, float **input) {
    size_t i = 0;
    while (i < 16 && cache[i].out && !(cache[i].az == az && cache[i].el == el)) i++;
    if (i == 16) return render_noise_fresh(az, el, input);
    if (!cache[i].out) {
        cache[i].az = az;
        cache[i].el = el;
        cache[i].out = render_noise_fresh(az, el, &cache[i].in);
    }
    float *out = malloc(sizeof(float) * 2 * NOISE_FRAMES);
    memcpy(out, cache[i].out, sizeof(float) * 2 * NOISE_FRAMES);
    if (input) {
        *input = malloc(sizeof(float) * NOISE_FRAMES);
        memcpy(*input, cache[i].in, sizeof(float) * NOISE_FRAMES);
    }
    return out;
}

static const float dirs[][2] = {{0, 0},   {30, 0},    {90, 0},   {135, 20},
                                {180, 0}, {270, -30}, {315, 40}, {0, -40}};

TEST(noise_at_measured_directions_matches_the_dataset_by_third_octaves) {
    SETUP_ONCE(load_all);
    ASSERT_NOT_NULL(set);
    double worst = 0;
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        uint32_t d = find_dir(dirs[i][0], dirs[i][1]);
        ASSERT_NE(d, UINT32_MAX);
        float *x = NULL;
        float *out = render_noise(dirs[i][0], dirs[i][1], &x);
        for (int ear = 0; ear < 2; ear++) {
            double want[NBANDS], got[NBANDS];
            dataset_bands(d, ear, want);
            rendered_bands(x, out, NOISE_FRAMES, (uint32_t)ear, got);
            for (int b = 0; b < NBANDS; b++) worst = fmax(worst, fabs(want[b] - got[b]));
        }
        free(x);
        free(out);
    }
    fprintf(stderr, "rendered vs dataset, worst third-octave band (8 directions): %.3f dB\n",
            worst);
    ASSERT_DBL_LE(worst, 1.0);
}

TEST(itd_from_the_cross_correlation_matches_the_dataset_within_one_sample) {
    SETUP_ONCE(load_all);
    double worst = 0;
    float *buf = malloc(sizeof(float) * 2 * raw->N);
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        uint32_t d = find_dir(dirs[i][0], dirs[i][1]);
        for (uint32_t k = 0; k < raw->N; k++) {
            buf[2 * k] = raw_ear(d, 0)[k];
            buf[2 * k + 1] = raw_ear(d, 1)[k];
        }
        double want =
            ear_channel_lag(buf, raw->N, 2, 0, 1, 80) * RATE / raw->DataSamplingRate.values[0];
        float *out = render_noise(dirs[i][0], dirs[i][1], NULL);
        double got = ear_channel_lag(out, NOISE_FRAMES, 2, 0, 1, 80);
        fprintf(stderr, "  az %5.1f el %5.1f: ITD dataset %7.3f rendered %7.3f samples\n",
                (double)dirs[i][0], (double)dirs[i][1], want, got);
        worst = fmax(worst, fabs(want - got));
        free(out);
    }
    free(buf);
    fprintf(stderr, "ITD: worst %.3f samples\n", worst);
    ASSERT_DBL_LE(worst, 1.0);
}

TEST(front_and_back_differ_as_the_dataset_does) {
    SETUP_ONCE(load_all);
    uint32_t f = find_dir(0, 0), b = find_dir(180, 0);
    float *xf = NULL, *xb = NULL;
    float *of = render_noise(0, 0, &xf), *ob = render_noise(180, 0, &xb);
    double largest = 0, off = 0;
    for (int ear = 0; ear < 2; ear++) {
        double df[NBANDS], db[NBANDS], rf[NBANDS], rb[NBANDS];
        dataset_bands(f, ear, df);
        dataset_bands(b, ear, db);
        rendered_bands(xf, of, NOISE_FRAMES, (uint32_t)ear, rf);
        rendered_bands(xb, ob, NOISE_FRAMES, (uint32_t)ear, rb);
        for (int k = 0; k < NBANDS; k++) {
            largest = fmax(largest, fabs(df[k] - db[k]));
            off = fmax(off, fabs((df[k] - db[k]) - (rf[k] - rb[k])));
        }
    }
    fprintf(stderr,
            "front-back: dataset's largest band difference %.2f dB, rendered off it by "
            "%.3f dB\n",
            largest, off);
    ASSERT_DBL_GT(largest, 3.0);
    ASSERT_DBL_LE(off, 1.0);
    free(xf), free(xb), free(of), free(ob);
}

TEST(an_interpolated_direction_lies_between_its_neighbours) {
    SETUP_ONCE(load_all);
    /* Azimuth 32.5 lies halfway between the measured 30 and 35 on the horizontal ring. */
    ASSERT_NE(find_dir(30, 0), UINT32_MAX);
    ASSERT_NE(find_dir(35, 0), UINT32_MAX);
    float *x0 = NULL, *x1 = NULL, *xm = NULL;
    float *o0 = render_noise(30, 0, &x0), *o1 = render_noise(35, 0, &x1);
    float *om = render_noise(32.5, 0, &xm);
    double worst = 0;
    for (int ear = 0; ear < 2; ear++) {
        double a[NBANDS], b[NBANDS], m[NBANDS];
        rendered_bands(x0, o0, NOISE_FRAMES, (uint32_t)ear, a);
        rendered_bands(x1, o1, NOISE_FRAMES, (uint32_t)ear, b);
        rendered_bands(xm, om, NOISE_FRAMES, (uint32_t)ear, m);
        for (int k = 0; k < NBANDS; k++) {
            double lo = fmin(a[k], b[k]), hi = fmax(a[k], b[k]);
            worst = fmax(worst, fmax(lo - m[k], m[k] - hi));
        }
    }
    double i0 = ear_channel_lag(o0, NOISE_FRAMES, 2, 0, 1, 80);
    double i1 = ear_channel_lag(o1, NOISE_FRAMES, 2, 0, 1, 80);
    double im = ear_channel_lag(om, NOISE_FRAMES, 2, 0, 1, 80);
    fprintf(stderr,
            "interpolated: worst band outside its neighbours' range %.3f dB; ITD "
            "%.3f < %.3f < %.3f\n",
            worst, i0, im, i1);
    /* The same slack as the loader's test: summed minimum-phase filters of two
     * directions partly cancel where their phases differ. */
    ASSERT_DBL_LE(worst, 0.75);
    ASSERT_TRUE(fmin(i0, i1) < im && im < fmax(i0, i1));
    free(x0), free(x1), free(xm), free(o0), free(o1), free(om);
}

/* A sine swept around the head at 1 turn/s (its position moved every control block):
 * the largest sample-to-sample step of each ear, over that of a clean sine at the ear's
 * peak level, 2 A sin(pi f / fs). */
static double sweep_step_ratio(ear_kernel kernel, double hz, double el) {
    ear_stage *s = hrtf_stage(kernel, true);
    ear_clip *c = sine_clip(hz, 1.0, 0.5f);
    ear_play p = hrtf_voice(0, el);
    ear_voice_id id;
    ear_stage_play(s, c, &p, &id);
    ear_clip_release(c);
    const uint32_t block = 160, blocks = RATE / block;
    float *out = malloc(sizeof(float) * 2 * RATE);
    for (uint32_t k = 0; k < blocks; k++) {
        double az = 360.0 * (double)(k * block) / RATE;
        ear_stage_set_position(s, id, at_direction(az, el, 2.0));
        ear_stage_render(s, out + (size_t)k * block * 2, block);
    }
    double worst = 0;
    for (uint32_t ch = 0; ch < 2; ch++) {
        /* From the second block on: the first starts the sine from silence. */
        const float *o = out + 2 * block;
        double peak = ear_peak(o, RATE - block, 2, ch);
        double step = ear_max_delta(o, RATE - block, 2, ch);
        worst = fmax(worst, step / (2.0 * peak * sin(PI_D * hz / RATE)));
    }
    free(out);
    ear_stage_destroy(s);
    return worst;
}

TEST(a_sine_swept_around_the_head_steps_no_more_than_a_clean_sine) {
    SETUP_ONCE(load_all);
    double r1 = sweep_step_ratio(test_kernel(), 1000.0, 0.0);
    double r2 = sweep_step_ratio(test_kernel(), 3000.0, 0.0);
    double r3 = sweep_step_ratio(test_kernel(), 1000.0, 30.0);
    fprintf(stderr,
            "sweep 1 turn/s: max step / clean sine's at the peak level: 1 kHz %.4f, "
            "3 kHz %.4f, 1 kHz at 30 deg up %.4f\n",
            r1, r2, r3);
    ASSERT_DBL_LE(r1, 1.01);
    ASSERT_DBL_LE(r2, 1.01);
    ASSERT_DBL_LE(r3, 1.01);
}

/* A noise voice circling (with doppler unless `still_pitch`) and a sine voice approaching,
 * rendered in chunks of `chunk`. */
static float *moving_scene_pitch(ear_kernel kernel, uint32_t chunk, uint32_t frames,
                                 bool still_pitch) {
    ear_stage *s = hrtf_stage(kernel, true);
    ear_clip *n = noise_clip(0.5, 3), *c = sine_clip(440.0, 1.0, 0.3f);
    ear_play p = hrtf_voice(10, 0);
    p.no_doppler = still_pitch;
    p.attenuation.model = EAR_MODEL_INVERSE;
    ear_voice_id a, b;
    ear_stage_play(s, n, &p, &a);
    p = hrtf_voice(200, 20);
    ear_stage_play(s, c, &p, &b);
    ear_clip_release(n);
    ear_clip_release(c);
    float *out = malloc(sizeof(float) * 2 * frames);
    /* The game moves the voices every 480 frames; render calls of `chunk` frames end
     * there too, so that every chunking sends the same commands at the same frames. */
    for (uint32_t at = 0, m; at < frames; at += m) {
        m = frames - at < chunk ? frames - at : chunk;
        if (480 - at % 480 < m) m = 480 - at % 480;
        if (at % 480 == 0) {
            double t = (double)at / RATE;
            ear_stage_set_motion(s, a, at_direction(10 + 200 * t, 10 * t, 2.0 + t),
                                 ear_vec3_make(1, 0, 0));
            ear_stage_set_position(s, b, at_direction(200 - 90 * t, 20, 3.0 - t));
        }
        ear_stage_render(s, out + (size_t)at * 2, m);
    }
    ear_stage_destroy(s);
    return out;
}

static float *moving_scene(ear_kernel kernel, uint32_t chunk, uint32_t frames) {
    return moving_scene_pitch(kernel, chunk, frames, false);
}

TEST(deterministic_and_chunk_independent) {
    SETUP_ONCE(load_all);
    const uint32_t frames = 24000;
    float *a = moving_scene(test_kernel(), 480, frames);
    float *b = moving_scene(test_kernel(), 480, frames);
    float *c = moving_scene(test_kernel(), 1, frames);
    float *d = moving_scene(test_kernel(), 512, frames);
    ASSERT_MEM_EQ(a, b, sizeof(float) * 2 * frames);
    ASSERT_MEM_EQ(a, c, sizeof(float) * 2 * frames);
    ASSERT_MEM_EQ(a, d, sizeof(float) * 2 * frames);
    ASSERT_DBL_GT(ear_rms(a, frames, 2, 0), 0.01);
    free(a), free(b), free(c), free(d);
}

TEST(the_kernels_agree) {
    SETUP_ONCE(load_all);
    ear_stage_config probe = ear_stage_config_default();
    probe.kernel = EAR_KERNEL_AVX2;
    ear_stage *st = NULL;
    if (ear_stage_create(&probe, &st) != EAR_OK) return; /* no AVX2 here: nothing to compare */
    ear_stage_destroy(st);
    const uint32_t frames = 24000;
    float *a = moving_scene(EAR_KERNEL_SCALAR, 480, frames);
    float *b = moving_scene(EAR_KERNEL_AVX2, 480, frames);
    double worst = 0, peak = 0;
    for (uint32_t i = 0; i < 2 * frames; i++) {
        worst = fmax(worst, fabs((double)a[i] - b[i]));
        peak = fmax(peak, fabs((double)a[i]));
    }
    /* Without doppler every read lands on a sample (no interpolation to round), and the
     * fast convolution does the same operations in the same order in both kernels. */
    float *c = moving_scene_pitch(EAR_KERNEL_SCALAR, 480, frames, true);
    float *d = moving_scene_pitch(EAR_KERNEL_AVX2, 480, frames, true);
    double still = 0;
    for (uint32_t i = 0; i < 2 * frames; i++) still = fmax(still, fabs((double)c[i] - d[i]));
    fprintf(stderr,
            "scalar vs AVX2: largest difference %.3g of a peak %.3f with doppler, %.3g "
            "without\n",
            worst, peak, still);
    /* With doppler the AVX2 read interpolates with an FMA (as for a panned voice): a
     * rounding of each read sample, a few 1e-7 of the peak after the filters. */
    ASSERT_DBL_LE(worst, 1e-6 * peak);
    ASSERT_DBL_GT(ear_rms(c, frames, 2, 0), 0.01);
    ASSERT_DBL_LE(still, 0.0);
    /* The AVX-512 kernel reads the HRTF's voices too (its FFT and convolution are AVX2's):
     * the AVX2 kernel's bits. */
    probe.kernel = EAR_KERNEL_AVX512;
    if (ear_stage_create(&probe, &st) == EAR_OK) {
        ear_stage_destroy(st);
        float *e = moving_scene(EAR_KERNEL_AVX512, 480, frames);
        ASSERT_NOT_NULL(e);
        ASSERT_U64_EQ(ear_hash_samples(e, 2 * (size_t)frames),
                      ear_hash_samples(b, 2 * (size_t)frames));
        free(e);
    }
    free(a), free(b), free(c), free(d);
}

/* A still noise source at (60, 10) for `frames`, the stage's blocks `block` frames long
 * (the fast convolution then cuts them into other parts and transforms of other lengths). */
static float *still_noise(uint32_t block, uint32_t frames, uint32_t *fft_parts) {
    ear_stage_config c = ear_stage_config_default();
    c.kernel = test_kernel();
    c.block_frames = block;
    ear_stage *s = NULL;
    if (ear_stage_create(&c, &s) != EAR_OK) return NULL;
    ear_stage_hrtf v = ear_hrtf_stage_view(set);
    ear_stage_set_hrtf(s, &v);
    ear_stage_set_spatializer(s, EAR_SPATIALIZER_HRTF);
    ear_clip *clip = noise_clip(1.0, 7);
    ear_play p = hrtf_voice(60.0, 10.0);
    ear_voice_id id;
    ear_stage_play(s, clip, &p, &id);
    float *out = calloc((size_t)frames * 2u, sizeof(float));
    ear_stage_render(s, out, frames);
    ear_stage_hrtf_info info;
    ear_stage_get_hrtf(s, &info);
    *fft_parts = info.fft_length * 100u + info.fft_parts;
    ear_stage_destroy(s);
    ear_clip_release(clip);
    return out;
}

/* A voice that sends to the reverb has its dry part made on its own (transformed back
 * voice by voice) rather than in its bus's sums: with the room's wet level at 0, the
 * output is that dry part, and it must be the bus path's. */
TEST(a_sending_voice_sounds_as_a_dry_one) {
    SETUP_ONCE(load_all);
    const uint32_t frames = 9600;
    float *out[2];
    for (int send = 0; send < 2; send++) {
        ear_stage *s = hrtf_stage(test_kernel(), true);
        ASSERT_NOT_NULL(s);
        ear_reverb_params room;
        ear_reverb_preset_params(EAR_REVERB_HALL, &room);
        room.wet = 0.0f;
        ear_stage_set_reverb(s, &room, 0.0f);
        ear_clip *clip = noise_clip(1.0, 11);
        ear_play p = hrtf_voice(-45.0, 20.0);
        p.reverb_send = send ? 0.8f : 0.0f;
        p.volume = 0.7f;
        ear_stage_play(s, clip, &p, NULL);
        out[send] = calloc((size_t)frames * 2u, sizeof(float));
        ear_stage_render(s, out[send], frames);
        ear_stage_destroy(s);
        ear_clip_release(clip);
    }
    double worst = 0, peak = 0;
    for (uint32_t i = 0; i < 2 * frames; i++) {
        worst = fmax(worst, fabs((double)out[1][i] - out[0][i]));
        peak = fmax(peak, fabs((double)out[0][i]));
    }
    fprintf(stderr, "sending vs dry: largest difference %.3g of a peak %.3f\n", worst, peak);
    ASSERT_DBL_GT(peak, 0.05);
    ASSERT_DBL_LE(worst, 1e-6 * peak);
    free(out[0]), free(out[1]);
}

TEST(the_control_block_length_changes_nothing_for_a_still_source) {
    SETUP_ONCE(load_all);
    const uint32_t frames = 12000;
    uint32_t n0, n;
    float *ref = still_noise(160, frames, &n0);
    ASSERT_NOT_NULL(ref);
    double peak = 0;
    for (uint32_t i = 0; i < 2 * frames; i++) peak = fmax(peak, fabs((double)ref[i]));
    ASSERT_DBL_GT(peak, 0.05);
    const uint32_t blocks[] = {16, 101, 250, 1000, 4096};
    for (size_t k = 0; k < sizeof blocks / sizeof blocks[0]; k++) {
        float *o = still_noise(blocks[k], frames, &n);
        ASSERT_NOT_NULL(o);
        double worst = 0;
        for (uint32_t i = 0; i < 2 * frames; i++)
            worst = fmax(worst, fabs((double)o[i] - ref[i]));
        fprintf(stderr,
                "block %u (transform %u x100 + parts) vs 160 (%u): largest difference %.3g"
                " of a peak %.3f\n",
                blocks[k], n, n0, worst, peak);
        /* float rounding of transforms of other lengths: within 1e-5 of the peak */
        ASSERT_DBL_LE(worst, 1e-5 * peak);
        free(o);
    }
    free(ref);
}

TEST(a_bad_or_missing_file_is_an_error_and_the_stage_keeps_panning) {
    SETUP_ONCE(load_all);
    ear_hrtf_error err;
    ear_hrtf_set *bad = NULL;
    ASSERT_EQ(ear_hrtf_load("/nonexistent/kemar.sofa", NULL, &bad, &err), EAR_E_NOT_FOUND);
    ASSERT_STR_CONTAINS(err.message, "/nonexistent/kemar.sofa");
    ASSERT_NULL(bad);
    /* A stage that never got a set renders an HRTF voice exactly as a pan voice. */
    ear_stage *s1 = hrtf_stage(test_kernel(), false), *s2 = hrtf_stage(test_kernel(), false);
    ear_stage_set_spatializer(s1, EAR_SPATIALIZER_HRTF);
    ear_clip *c = sine_clip(500.0, 0.5, 0.5f);
    ear_play p = hrtf_voice(60, 0);
    p.spatializer = EAR_SPATIALIZER_HRTF;
    ear_stage_play(s1, c, &p, NULL);
    p.spatializer = EAR_SPATIALIZER_PAN;
    ear_stage_play(s2, c, &p, NULL);
    ear_clip_release(c);
    /* A set the stage cannot take (another rate; a delay not finite) is refused and
     * changes nothing. */
    ear_stage_hrtf v = ear_hrtf_stage_view(set);
    v.sample_rate = 44100;
    ASSERT_EQ(ear_stage_set_hrtf(s1, &v), EAR_E_INVALID_ARG);
    v = ear_hrtf_stage_view(set);
    float *bad_delay = malloc(sizeof(float) * set->count);
    memcpy(bad_delay, set->delay_left, sizeof(float) * set->count);
    bad_delay[3] = NAN;
    v.delay_left = bad_delay;
    ASSERT_EQ(ear_stage_set_hrtf(s1, &v), EAR_E_INVALID_ARG);
    free(bad_delay);
    ear_stage_hrtf_info info;
    ASSERT_EQ(ear_stage_get_hrtf(s1, &info), EAR_OK);
    ASSERT_TRUE(!info.loaded);
    ASSERT_EQ(info.spatializer, EAR_SPATIALIZER_HRTF);
    float *a = malloc(sizeof(float) * 2 * 9600), *b = malloc(sizeof(float) * 2 * 9600);
    ear_stage_render(s1, a, 9600);
    ear_stage_render(s2, b, 9600);
    ASSERT_MEM_EQ(a, b, sizeof(float) * 2 * 9600);
    ASSERT_DBL_GT(ear_rms(a, 9600, 2, 0), 0.05);
    free(a), free(b);
    ear_stage_destroy(s1);
    ear_stage_destroy(s2);
}

/* A looping sine of hz at half scale, 70 degrees left and 10 up, 2 m away. */
static ear_voice_id play_sine_at_70(ear_stage *s, double hz) {
    ear_clip *c = sine_clip(hz, 1.0, 0.5f);
    ear_play p = hrtf_voice(70, 10);
    ear_voice_id id = 0;
    ear_stage_play(s, c, &p, &id);
    ear_clip_release(c);
    return id;
}

/* Switching a playing sine from pan to HRTF, swapping the set and unloading it, each
 * while it plays: every change crossfades, so no step is larger than a clean sine's at
 * the output's peak level. */
TEST(switching_and_swapping_sets_while_playing_never_clicks) {
    SETUP_ONCE(load_all);
    /* Another set: the KEMAR filters cut to 64 taps. */
    float *l64 = malloc(sizeof(float) * set->count * 64),
          *r64 = malloc(sizeof(float) * set->count * 64);
    for (uint32_t d = 0; d < set->count; d++) {
        memcpy(l64 + d * 64, set->left + (size_t)d * set->taps, 64 * sizeof(float));
        memcpy(r64 + d * 64, set->right + (size_t)d * set->taps, 64 * sizeof(float));
    }
    ear_stage *s = hrtf_stage(test_kernel(), false);
    ear_stage_hrtf v = ear_hrtf_stage_view(set);
    ASSERT_EQ(ear_stage_set_hrtf(s, &v), EAR_OK);
    const double hz = 800.0;
    ear_voice_id id = play_sine_at_70(s, hz);
    const uint32_t frames = 48000, part = 9600;
    float *out = malloc(sizeof(float) * 2 * frames);
    ear_stage_render(s, out, part);
    ear_stage_set_voice_spatializer(s, id, EAR_SPATIALIZER_HRTF); /* pan -> HRTF */
    ear_stage_render(s, out + 2 * part, part);
    ear_stage_hrtf v2 = ear_hrtf_stage_view(set);
    v2.taps = 64;
    v2.left = l64;
    v2.right = r64;
    ASSERT_EQ(ear_stage_set_hrtf(s, &v2), EAR_OK); /* a swap */
    free(l64);                                     /* the stage has its own copy */
    free(r64);
    ear_stage_render(s, out + 4 * part, part);
    ASSERT_EQ(ear_stage_set_hrtf(s, NULL), EAR_OK); /* unload: back to the pan */
    ear_stage_render(s, out + 6 * part, part);
    ear_stage_set_hrtf(s, &v);
    ear_stage_set_voice_spatializer(s, id, EAR_SPATIALIZER_DEFAULT);
    ear_stage_set_spatializer(s, EAR_SPATIALIZER_HRTF);
    ear_stage_render(s, out + 8 * part, part);
    ear_stage_hrtf_info info;
    ear_stage_get_hrtf(s, &info);
    ASSERT_TRUE(info.loaded);
    ASSERT_EQ(info.taps, 112);
    ASSERT_EQ(info.count, set->count);
    ASSERT_EQ(info.filter_taps, 120);
    double worst = 0, worst_part = 0;
    for (uint32_t ch = 0; ch < 2; ch++) {
        const float *o = out + 2 * 160;
        /* Each part against its own peak: a change crossfades two sines of different
         * levels and phases linearly over one block of B frames, whose steps exceed a clean
         * sine's by at most |difference| / B per frame: at most 1 + 1 / (2 B sin(pi f /
         * fs)) of the part's clean sine when the two differ by up to its peak (1.060 at
         * 800 Hz; measured 1.029 for pan -> HRTF, 1.061 for the swap to filters cut to 64
         * taps). */
        for (uint32_t k = 1; k < 5; k++) {
            const float *q = out + (size_t)k * part * 2;
            worst_part =
                fmax(worst_part, ear_max_delta(q, part, 2, ch) /
                                     (2.0 * ear_peak(q, part, 2, ch) * sin(PI_D * hz / RATE)));
        }
        double peak = ear_peak(o, frames - 160, 2, ch);
        double step = ear_max_delta(o, frames - 160, 2, ch);
        worst = fmax(worst, step / (2.0 * peak * sin(PI_D * hz / RATE)));
    }
    fprintf(stderr,
            "switches and swaps: max step / clean sine's at the peak level %.4f (worst part "
            "against its own peak %.4f)\n",
            worst, worst_part);
    ASSERT_DBL_LE(worst, 1.01);
    ASSERT_DBL_LE(worst_part, 1.0 + 1.1 / (2.0 * 160.0 * sin(PI_D * hz / RATE)));
    free(out);
    ear_stage_destroy(s);
}

/* A voice stopped while heard through HRTF: the stop's envelope ramps the input, and the
 * last block, whose target is 0, holds the input's gain and ramps the output to 0 (as a
 * path dropped in a switch does: the test above), so no step is larger than a clean sine's
 * and what follows is silence, exactly. A short fade (5 ms, under two blocks) and a long
 * one. */
TEST(a_voice_stopped_on_hrtf_ends_without_a_click) {
    SETUP_ONCE(load_all);
    const float fades[] = {0.005f, 0.1f};
    for (size_t f = 0; f < 2; f++) {
        ear_stage *s = hrtf_stage(test_kernel(), true);
        ASSERT_NOT_NULL(s);
        const double hz = 800.0;
        ear_voice_id id = play_sine_at_70(s, hz);
        const uint32_t before = 9600, after = 9600;
        float *out = malloc(sizeof(float) * 2 * (before + after));
        ear_stage_render(s, out, before);
        ASSERT_EQ(ear_stage_stop(s, id, fades[f]), EAR_OK);
        ear_stage_render(s, out + 2 * before, after);
        double worst = 0, tail = 0;
        for (uint32_t ch = 0; ch < 2; ch++) {
            const float *o = out + 2 * 160; /* past the first block's start from silence */
            uint32_t n = before + after - 160;
            worst = fmax(worst, ear_max_delta(o, n, 2, ch) /
                                    (2.0 * ear_peak(o, n, 2, ch) * sin(PI_D * hz / RATE)));
        }
        for (uint32_t i = 2 * (before + 4800); i < 2 * (before + after); i++)
            tail = fmax(tail, fabs((double)out[i]));
        fprintf(stderr, "stopped over %.3f s: max step / clean sine's %.4f; after it %.3g\n",
                (double)fades[f], worst, tail);
        ASSERT_DBL_LE(worst, 1.01);
        ASSERT_DBL_LE(tail, 0.0);
        free(out);
        ear_stage_destroy(s);
    }
}

static void release_all(void) {
    for (size_t i = 0; i < 16; i++) {
        free(cache[i].out);
        free(cache[i].in);
        cache[i].out = cache[i].in = NULL;
    }
    ear_hrtf_free(set);
    if (raw) mysofa_free(raw);
    if (fft_made) real_spectrum_free(&fft);
    fft_made = false;
    set = NULL;
    raw = NULL;
}

TEST_MAIN(TEST_ENTRY(noise_at_measured_directions_matches_the_dataset_by_third_octaves),
          TEST_ENTRY(itd_from_the_cross_correlation_matches_the_dataset_within_one_sample),
          TEST_ENTRY(front_and_back_differ_as_the_dataset_does),
          TEST_ENTRY(an_interpolated_direction_lies_between_its_neighbours),
          TEST_ENTRY(a_sine_swept_around_the_head_steps_no_more_than_a_clean_sine),
          TEST_ENTRY(deterministic_and_chunk_independent), TEST_ENTRY(the_kernels_agree),
          TEST_ENTRY(the_control_block_length_changes_nothing_for_a_still_source),
          TEST_ENTRY(a_sending_voice_sounds_as_a_dry_one),
          TEST_ENTRY(a_bad_or_missing_file_is_an_error_and_the_stage_keeps_panning),
          TEST_ENTRY(switching_and_swapping_sets_while_playing_never_clicks),
          TEST_ENTRY(a_voice_stopped_on_hrtf_ends_without_a_click))
