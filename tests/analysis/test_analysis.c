/* SPDX-License-Identifier: Zlib */
/*
 * Analysis tests: each measurement runs on a signal whose answer is known (by hand
 * for small buffers, by formula for generated tones and noise) and must land within
 * the stated tolerance.
 */
#include "earshot/analysis.h"
#include "test.h"

#define RATE   48000u
#define TWO_PI 6.283185307179586476925286766559

/* buf[i * channels + channel] = amp * sin(2 pi hz i / rate + phase), added. */
static void add_sine(float *buf, size_t frames, uint32_t channels, uint32_t channel, double hz,
                     double amp, double phase) {
    for (size_t i = 0; i < frames; i++)
        buf[i * channels + channel] +=
            (float)(amp * sin(TWO_PI * hz * (double)i / RATE + phase));
}

static float *zeros(size_t samples) {
    return calloc(samples, sizeof(float));
}

/* FNV-1a over the little-endian bytes of each float, written out independently. */
static uint64_t fnv_reference(const float *buf, size_t n) {
    uint64_t h = 14695981039346656037ull;
    for (size_t i = 0; i < n; i++) {
        uint32_t bits;
        memcpy(&bits, &buf[i], 4);
        unsigned char bytes[4] = {(unsigned char)bits, (unsigned char)(bits >> 8),
                                  (unsigned char)(bits >> 16), (unsigned char)(bits >> 24)};
        for (int b = 0; b < 4; b++) {
            h ^= bytes[b];
            h *= 1099511628211ull;
        }
    }
    return h;
}

TEST(levels_by_hand) {
    /* Stereo, three frames: left 0.5, -0.25, 1.0; right -1, 0.75, 0. */
    const float buf[6] = {0.5f, -1.0f, -0.25f, 0.75f, 1.0f, 0.0f};
    ASSERT_FLOAT_EQ(ear_peak(buf, 3, 2, 0), 1.0f);
    ASSERT_FLOAT_EQ(ear_peak(buf, 3, 2, 1), 1.0f);
    ASSERT_FLOAT_EQ(ear_peak(buf, 2, 2, 0), 0.5f);
    ASSERT_FLOAT_EQ(ear_peak(buf, 3, 2, EAR_ALL_CHANNELS), 1.0f);
    ASSERT_NEAR(ear_rms(buf, 3, 2, 0), sqrt((0.25 + 0.0625 + 1.0) / 3.0), 1e-15);
    ASSERT_NEAR(ear_rms(buf, 3, 2, 1), sqrt((1.0 + 0.5625) / 3.0), 1e-15);
    ASSERT_NEAR(ear_rms(buf, 3, 2, EAR_ALL_CHANNELS),
                sqrt((0.25 + 1.0 + 0.0625 + 0.5625 + 1.0) / 6.0), 1e-15);
    ASSERT_FLOAT_EQ(ear_max_delta(buf, 3, 2, 0), 1.25f); /* -0.25 -> 1.0 */
    ASSERT_FLOAT_EQ(ear_max_delta(buf, 3, 2, 1), 1.75f); /* -1 -> 0.75 */
    ASSERT_FLOAT_EQ(ear_max_delta(buf, 3, 2, EAR_ALL_CHANNELS), 1.75f);
    ASSERT_FLOAT_EQ(ear_max_delta(buf, 1, 2, 0), 0.0f); /* one frame: no step */
    const float mono[4] = {0.0f, 0.0f, -0.5f, 0.5f};
    ASSERT_FLOAT_EQ(ear_max_delta(mono, 4, 1, 0), 1.0f);
    ASSERT_FLOAT_EQ(ear_peak(mono, 4, 1, 0), 0.5f);
    ASSERT_NEAR(ear_rms(mono, 4, 1, 0), sqrt(0.125), 1e-15);
}

TEST(hash) {
    float buf[16];
    for (int i = 0; i < 16; i++) buf[i] = (float)i * 0.1f - 0.7f;
    ASSERT_U64_EQ(ear_hash_samples(NULL, 0), 0xcbf29ce484222325ull); /* FNV offset basis */
    ASSERT_U64_EQ(ear_hash_samples(buf, 0), 0xcbf29ce484222325ull);
    ASSERT_U64_EQ(ear_hash_samples(buf, 16), fnv_reference(buf, 16));
    uint64_t before = ear_hash_samples(buf, 16);
    for (int bit = 0; bit < 32; bit++) {
        uint32_t bits;
        memcpy(&bits, &buf[9], 4);
        bits ^= 1u << bit;
        float saved = buf[9];
        memcpy(&buf[9], &bits, 4);
        ASSERT_NE(ear_hash_samples(buf, 16), before); /* any one bit changes it */
        buf[9] = saved;
    }
    ASSERT_U64_EQ(ear_hash_samples(buf, 16), before);
    /* +0 and -0 are different bit patterns, so different hashes. */
    float pz = 0.0f, nz = -0.0f;
    ASSERT_NE(ear_hash_samples(&pz, 1), ear_hash_samples(&nz, 1));
}

TEST(zero_crossing_frequency) {
    const size_t n = RATE;
    float *buf = zeros(n);
    ASSERT_NOT_NULL(buf);
    add_sine(buf, n, 1, 0, 1000.5, 0.7, 0.3);
    ASSERT_REL(ear_zero_crossing_hz(buf, n, 1, 0, RATE), 1000.5, 5e-5);
    memset(buf, 0, n * sizeof *buf);
    add_sine(buf, n, 1, 0, 55.0, 0.1, 1.0);
    ASSERT_REL(ear_zero_crossing_hz(buf, n, 1, 0, RATE), 55.0, 5e-5);
    /* Fewer than two rising crossings: 0. */
    ASSERT_NEAR(ear_zero_crossing_hz(buf, 100, 1, 0, RATE), 0.0, 0.0);
    const float flat[4] = {0.25f, 0.25f, 0.25f, 0.25f};
    ASSERT_NEAR(ear_zero_crossing_hz(flat, 4, 1, 0, RATE), 0.0, 0.0);
    /* By hand: rising crossings at 1.5 and 5.5 frames -> one period of 4 frames. */
    const float saw[8] = {-1, -0.5f, 0.5f, 1, -1, -0.5f, 0.5f, 1};
    ASSERT_NEAR(ear_zero_crossing_hz(saw, 8, 1, 0, 8), 2.0, 1e-12);
    free(buf);
}

TEST(dominant_frequency) {
    const size_t n = RATE; /* 1 s */
    float *buf = zeros(n);
    ASSERT_NOT_NULL(buf);
    static const double tones[] = {97.3, 440.0, 1234.56, 9876.5};
    for (size_t t = 0; t < sizeof tones / sizeof tones[0]; t++) {
        memset(buf, 0, n * sizeof *buf);
        add_sine(buf, n, 1, 0, tones[t], 0.5, 0.7);
        ASSERT_REL(ear_dominant_hz(buf, n, 1, 0, RATE), tones[t], 1e-4); /* 0.01 % */
    }
    /* The stronger of two tones wins. */
    memset(buf, 0, n * sizeof *buf);
    add_sine(buf, n, 1, 0, 500.0, 0.3, 0.0);
    add_sine(buf, n, 1, 0, 3000.0, 0.6, 0.0);
    ASSERT_REL(ear_dominant_hz(buf, n, 1, 0, RATE), 3000.0, 1e-4);
    /* Silence: 0. */
    memset(buf, 0, n * sizeof *buf);
    ASSERT_NEAR(ear_dominant_hz(buf, n, 1, 0, RATE), 0.0, 0.0);
    free(buf);
    /* Stereo: one channel each, and the downmix hears the louder. */
    float *st = zeros(2 * n);
    ASSERT_NOT_NULL(st);
    add_sine(st, n, 2, 0, 700.0, 0.5, 0.0);
    add_sine(st, n, 2, 1, 1300.0, 0.2, 0.0);
    ASSERT_REL(ear_dominant_hz(st, n, 2, 0, RATE), 700.0, 1e-4);
    ASSERT_REL(ear_dominant_hz(st, n, 2, 1, RATE), 1300.0, 1e-4);
    ASSERT_REL(ear_dominant_hz(st, n, 2, EAR_ALL_CHANNELS, RATE), 700.0, 1e-4);
    free(st);
}

TEST(tone_amplitude) {
    const size_t n = RATE / 2;
    float *buf = zeros(n);
    ASSERT_NOT_NULL(buf);
    add_sine(buf, n, 1, 0, 440.0, 0.3, 0.4);
    add_sine(buf, n, 1, 0, 1000.0, 0.55, 2.0);
    ASSERT_REL(ear_tone_amplitude(buf, n, 1, 0, RATE, 440.0), 0.3, 5e-3);
    ASSERT_REL(ear_tone_amplitude(buf, n, 1, 0, RATE, 1000.0), 0.55, 5e-3);
    ASSERT_NEAR(ear_tone_amplitude(buf, n, 1, 0, RATE, 2000.0), 0.0, 1e-4); /* absent */
    /* Ten and a half cycles in the window, not on a bin: still within 0.5 %. */
    memset(buf, 0, n * sizeof *buf);
    add_sine(buf, 480, 1, 0, 1050.0, 0.5, 1.1);
    ASSERT_REL(ear_tone_amplitude(buf, 480, 1, 0, RATE, 1050.0), 0.5, 5e-3);
    /* Stereo downmix is the mean of the channels. */
    float *st = zeros(2 * n);
    ASSERT_NOT_NULL(st);
    add_sine(st, n, 2, 0, 600.0, 0.4, 0.0);
    add_sine(st, n, 2, 1, 600.0, 0.2, 0.0);
    ASSERT_REL(ear_tone_amplitude(st, n, 2, 0, RATE, 600.0), 0.4, 5e-3);
    ASSERT_REL(ear_tone_amplitude(st, n, 2, 1, RATE, 600.0), 0.2, 5e-3);
    ASSERT_REL(ear_tone_amplitude(st, n, 2, EAR_ALL_CHANNELS, RATE, 600.0), 0.3, 5e-3);
    free(st);
    free(buf);
}

TEST(envelopes) {
    /* RMS envelope by hand: windows of 4 over 10 frames -> 3 windows (4, 4, 2). */
    const float buf[10] = {1, -1, 1, -1, 0.5f, 0.5f, -0.5f, -0.5f, 0.25f, 0};
    double out[3] = {-1, -1, -1};
    size_t count = 0;
    ASSERT_OK(ear_rms_envelope(buf, 10, 1, 0, 4, out, 3, &count));
    ASSERT_EQ(count, 3);
    ASSERT_NEAR(out[0], 1.0, 1e-15);
    ASSERT_NEAR(out[1], 0.5, 1e-15);
    ASSERT_NEAR(out[2], sqrt(0.0625 / 2.0), 1e-15);
    /* Capacity 1: one value written, the count still says 3; capacity 0 counts only. */
    double one[2] = {-1, -1};
    ASSERT_OK(ear_rms_envelope(buf, 10, 1, 0, 4, one, 1, &count));
    ASSERT_EQ(count, 3);
    ASSERT_NEAR(one[0], 1.0, 1e-15);
    ASSERT_NEAR(one[1], -1.0, 0.0);
    ASSERT_OK(ear_rms_envelope(buf, 10, 1, 0, 4, NULL, 0, &count));
    ASSERT_EQ(count, 3);
    /* Stereo, all channels: window 1 frame = RMS of the frame's two samples. */
    const float st[4] = {0.6f, -0.8f, 0.0f, 0.0f};
    ASSERT_OK(ear_rms_envelope(st, 2, 2, EAR_ALL_CHANNELS, 1, out, 3, &count));
    ASSERT_EQ(count, 2);
    ASSERT_NEAR(out[0], sqrt((0.36 + 0.64) / 2.0), 1e-7);
    ASSERT_NEAR(out[1], 0.0, 0.0);

    /* Tone envelope: a 1 kHz tone at 0.2 for 0.1 s then 0.6 for 0.1 s, windows of
     * 0.05 s (50 cycles each) -> 0.2, 0.2, 0.6, 0.6; the 2 kHz tone beside it is not
     * counted. */
    const size_t n = 9600;
    float *tone = zeros(n);
    ASSERT_NOT_NULL(tone);
    for (size_t i = 0; i < n; i++)
        tone[i] = (float)((i < 4800 ? 0.2 : 0.6) * sin(TWO_PI * 1000.0 * (double)i / RATE) +
                          0.3 * sin(TWO_PI * 2000.0 * (double)i / RATE));
    double env[4];
    ASSERT_OK(ear_tone_envelope(tone, n, 1, 0, RATE, 1000.0, 2400, env, 4, &count));
    ASSERT_EQ(count, 4);
    ASSERT_REL(env[0], 0.2, 5e-3);
    ASSERT_REL(env[1], 0.2, 5e-3);
    ASSERT_REL(env[2], 0.6, 5e-3);
    ASSERT_REL(env[3], 0.6, 5e-3);
    /* A last partial window counts: 9600 / 2500 -> 4 windows, the last of 2100 frames. */
    ASSERT_OK(ear_tone_envelope(tone, n, 1, 0, RATE, 1000.0, 2500, env, 4, &count));
    ASSERT_EQ(count, 4);
    ASSERT_REL(env[3], 0.6, 5e-3);
    free(tone);
}

TEST(spectral_centroid) {
    const size_t n = RATE;
    float *buf = zeros(n);
    ASSERT_NOT_NULL(buf);
    add_sine(buf, n, 1, 0, 1000.0, 0.5, 0.0);
    ASSERT_REL(ear_spectral_centroid(buf, n, 1, 0, RATE), 1000.0, 0.01);
    /* Two tones of equal power: the mean of their frequencies. */
    add_sine(buf, n, 1, 0, 3000.0, 0.5, 0.0);
    ASSERT_REL(ear_spectral_centroid(buf, n, 1, 0, RATE), 2000.0, 0.01);
    /* Power weighting: amplitude 1 at 500 Hz and 0.5 at 2500 Hz -> (1 * 500 + 0.25 * 2500)
     * / 1.25 = 900 Hz. */
    memset(buf, 0, n * sizeof *buf);
    add_sine(buf, n, 1, 0, 500.0, 1.0, 0.0);
    add_sine(buf, n, 1, 0, 2500.0, 0.5, 0.0);
    ASSERT_REL(ear_spectral_centroid(buf, n, 1, 0, RATE), 900.0, 0.01);
    memset(buf, 0, n * sizeof *buf);
    ASSERT_NEAR(ear_spectral_centroid(buf, n, 1, 0, RATE), 0.0, 0.0);
    free(buf);
}

TEST(channel_lag) {
    const size_t n = 24000;
    float *src = malloc(n * sizeof *src);
    float *st = zeros(2 * n);
    ASSERT_TRUE(src && st);
    ear_rng rng;
    ear_rng_seed(&rng, 99);
    for (size_t i = 0; i < n; i++) src[i] = ear_rng_range(&rng, -0.5f, 0.5f);
    static const long delays[] = {0, 1, 3, 17, -5, -40};
    for (size_t d = 0; d < sizeof delays / sizeof delays[0]; d++) {
        long delay = delays[d];
        /* b[i] = a[i - delay], zeros where that falls outside. */
        for (size_t i = 0; i < n; i++) {
            long j = (long)i - delay;
            st[2 * i] = src[i];
            st[2 * i + 1] = (j >= 0 && j < (long)n) ? src[j] : 0.0f;
        }
        ASSERT_NEAR(ear_channel_lag(st, n, 2, 0, 1, 64), (double)delay, 0.05);
        ASSERT_NEAR(ear_channel_lag(st, n, 2, 1, 0, 64), -(double)delay, 0.05);
    }
    /* A lag beyond max_lag cannot be found; the best is at the edge of the search. */
    double edge = ear_channel_lag(st, n, 2, 0, 1, 10);
    ASSERT_DBL_LE(fabs(edge), 10.0);
    /* Silence in one channel: 0. */
    for (size_t i = 0; i < n; i++) st[2 * i + 1] = 0.0f;
    ASSERT_NEAR(ear_channel_lag(st, n, 2, 0, 1, 64), 0.0, 0.0);
    free(src);
    free(st);
}

TEST(bad_arguments) {
    float buf[8] = {0.1f, -0.2f, 0.3f, -0.4f, 0.5f, -0.6f, 0.7f, -0.8f};
    double out[4];
    size_t count = 77;
    /* NULL buffer, zero frames, zero channels, channel out of range: 0 and no crash. */
    ASSERT_FLOAT_EQ(ear_peak(NULL, 8, 1, 0), 0.0f);
    ASSERT_FLOAT_EQ(ear_peak(buf, 0, 1, 0), 0.0f);
    ASSERT_FLOAT_EQ(ear_peak(buf, 8, 0, 0), 0.0f);
    ASSERT_FLOAT_EQ(ear_peak(buf, 4, 2, 2), 0.0f);
    ASSERT_NEAR(ear_rms(NULL, 8, 1, 0), 0.0, 0.0);
    ASSERT_NEAR(ear_rms(buf, 0, 1, 0), 0.0, 0.0);
    ASSERT_FLOAT_EQ(ear_max_delta(NULL, 8, 1, 0), 0.0f);
    ASSERT_FLOAT_EQ(ear_max_delta(buf, 4, 2, 5), 0.0f);
    ASSERT_NEAR(ear_zero_crossing_hz(buf, 8, 1, 0, 0), 0.0, 0.0);
    ASSERT_NEAR(ear_zero_crossing_hz(NULL, 8, 1, 0, RATE), 0.0, 0.0);
    ASSERT_NEAR(ear_dominant_hz(NULL, 8, 1, 0, RATE), 0.0, 0.0);
    ASSERT_NEAR(ear_dominant_hz(buf, 8, 1, 0, 0), 0.0, 0.0);
    ASSERT_NEAR(ear_dominant_hz(buf, 8, 1, 3, RATE), 0.0, 0.0);
    ASSERT_NEAR(ear_spectral_centroid(buf, 0, 1, 0, RATE), 0.0, 0.0);
    ASSERT_NEAR(ear_tone_amplitude(buf, 8, 1, 0, RATE, NAN), 0.0, 0.0);
    ASSERT_NEAR(ear_tone_amplitude(buf, 8, 1, 0, RATE, -1.0), 0.0, 0.0);
    ASSERT_NEAR(ear_tone_amplitude(buf, 8, 1, 0, RATE, 24000.0), 0.0, 0.0);
    ASSERT_NEAR(ear_tone_amplitude(buf, 8, 1, 0, 0, 100.0), 0.0, 0.0);
    ASSERT_NEAR(ear_channel_lag(buf, 4, 2, 0, 2, 3), 0.0, 0.0);
    ASSERT_NEAR(ear_channel_lag(NULL, 4, 2, 0, 1, 3), 0.0, 0.0);
    ASSERT_NEAR(ear_channel_lag(buf, 4, 2, 0, 1, 1000), ear_channel_lag(buf, 4, 2, 0, 1, 3),
                0.0); /* max_lag is clamped to frames - 1 */
    ASSERT_EQ(ear_rms_envelope(NULL, 8, 1, 0, 2, out, 4, &count), EAR_E_INVALID_ARG);
    ASSERT_EQ(ear_rms_envelope(buf, 0, 1, 0, 2, out, 4, &count), EAR_E_INVALID_ARG);
    ASSERT_EQ(ear_rms_envelope(buf, 8, 1, 0, 0, out, 4, &count), EAR_E_INVALID_ARG);
    ASSERT_EQ(ear_rms_envelope(buf, 8, 1, 0, 2, out, 4, NULL), EAR_E_INVALID_ARG);
    ASSERT_EQ(ear_rms_envelope(buf, 8, 1, 0, 2, NULL, 4, &count), EAR_E_INVALID_ARG);
    ASSERT_EQ(ear_rms_envelope(buf, 8, 1, 1, 2, out, 4, &count), EAR_E_INVALID_ARG);
    ASSERT_EQ(ear_tone_envelope(buf, 8, 1, 0, RATE, NAN, 2, out, 4, &count), EAR_E_INVALID_ARG);
    ASSERT_EQ(ear_tone_envelope(buf, 8, 1, 0, 0, 100, 2, out, 4, &count), EAR_E_INVALID_ARG);
    ASSERT_EQ(ear_tone_envelope(buf, 8, 1, 0, RATE, 100, 0, out, 4, &count), EAR_E_INVALID_ARG);
    ASSERT_EQ(count, 77); /* untouched by every failure */

    /* A NaN or infinity in the measured samples makes the measurement NaN. */
    buf[5] = NAN;
    ASSERT_TRUE(isnan(ear_peak(buf, 8, 1, 0)));
    ASSERT_TRUE(isnan(ear_rms(buf, 8, 1, 0)));
    ASSERT_TRUE(isnan(ear_max_delta(buf, 8, 1, 0)));
    ASSERT_TRUE(isnan(ear_zero_crossing_hz(buf, 8, 1, 0, RATE)));
    ASSERT_TRUE(isnan(ear_dominant_hz(buf, 8, 1, 0, RATE)));
    ASSERT_TRUE(isnan(ear_spectral_centroid(buf, 8, 1, 0, RATE)));
    ASSERT_TRUE(isnan(ear_tone_amplitude(buf, 8, 1, 0, RATE, 1000.0)));
    ASSERT_TRUE(isnan(ear_channel_lag(buf, 4, 2, 0, 1, 2)));
    ASSERT_OK(ear_rms_envelope(buf, 8, 1, 0, 4, out, 4, &count));
    ASSERT_EQ(count, 2);
    ASSERT_NEAR(out[0], sqrt((0.01 + 0.04 + 0.09 + 0.16) / 4.0), 1e-7);
    ASSERT_TRUE(isnan(out[1]));
    /* Channel 0 of the stereo view does not see the NaN in channel 1 (index 5). */
    ASSERT_FLOAT_EQ(ear_peak(buf, 4, 2, 0), 0.7f);
    buf[5] = INFINITY;
    ASSERT_TRUE(isinf(ear_peak(buf, 8, 1, 0)));
    ASSERT_TRUE(isnan(ear_dominant_hz(buf, 8, 1, 0, RATE)));
}

/* ---- Memory: bounded, and a failure is an error ------------------------------------- */

/* An allocator that counts live bytes and their peak, and refuses every allocation after
 * `allow` of them (SIZE_MAX: none refused). */
typedef struct budget {
    size_t live, peak, calls, allow;
} budget;

static void *budget_alloc(size_t size, void *user) {
    budget *b = user;
    if (b->calls >= b->allow) return NULL;
    b->calls++;
    unsigned char *p = malloc(size + 16);
    if (!p) return NULL;
    memcpy(p, &size, sizeof size);
    b->live += size;
    if (b->live > b->peak) b->peak = b->live;
    return p + 16;
}

static void budget_free(void *ptr, void *user) {
    if (!ptr) return;
    budget *b = user;
    unsigned char *p = (unsigned char *)ptr - 16;
    size_t size;
    memcpy(&size, p, sizeof size);
    b->live -= size;
    free(p);
}

TEST(an_fft_that_cannot_allocate_is_an_error) {
    size_t n = RATE;
    float *buf = zeros(n);
    add_sine(buf, n, 1, 0, 440.0, 0.5, 0.0);
    /* Each of the three allocations fails in turn: an error, nothing held, out untouched. */
    for (size_t allow = 0; allow < 3; allow++) {
        budget b = {0, 0, 0, allow};
        ear_allocator a = {budget_alloc, NULL, budget_free, &b};
        double hz = -1.0;
        ASSERT_EQ(ear_measure_dominant_hz(buf, n, 1, 0, RATE, &a, &hz), EAR_E_OUT_OF_MEMORY);
        ASSERT_NEAR(hz, -1.0, 0.0);
        ASSERT_EQ(b.live, 0);
        b.calls = 0;
        ASSERT_EQ(ear_measure_spectral_centroid(buf, n, 1, 0, RATE, &a, &hz),
                  EAR_E_OUT_OF_MEMORY);
        ASSERT_NEAR(hz, -1.0, 0.0);
        ASSERT_EQ(b.live, 0);
    }
    /* With the memory, the same call measures, and gives all of it back. */
    budget b = {0, 0, 0, SIZE_MAX};
    ear_allocator a = {budget_alloc, NULL, budget_free, &b};
    double hz = 0.0;
    ASSERT_OK(ear_measure_dominant_hz(buf, n, 1, 0, RATE, &a, &hz));
    ASSERT_REL(hz, 440.0, 1e-4);
    ASSERT_EQ(b.live, 0);
    ASSERT_LE(b.peak, ear_spectrum_scratch_bytes(n));
    ASSERT_EQ(ear_measure_dominant_hz(buf, n, 1, 0, RATE, &a, NULL), EAR_E_INVALID_ARG);
    free(buf);
}

/* Half a minute (1.44 M frames, past one transform's 2^20) is measured in segments: the
 * same answers within the same tolerances, at the memory of one segment. */
TEST(long_views_measure_in_bounded_memory) {
    size_t n = 30 * (size_t)RATE;
    ASSERT_GT(n, EAR_SPECTRUM_MAX_FRAMES);
    float *buf = zeros(n);
    add_sine(buf, n, 1, 0, 1234.5, 0.5, 0.3);
    budget b = {0, 0, 0, SIZE_MAX};
    ear_allocator a = {budget_alloc, NULL, budget_free, &b};
    double hz = 0.0;
    ASSERT_OK(ear_measure_dominant_hz(buf, n, 1, 0, RATE, &a, &hz));
    printf("  30 s: dominant %.6f Hz, peak %zu bytes\n", hz, b.peak);
    ASSERT_REL(hz, 1234.5, 1e-5);
    /* One segment's transform: 2^21 floats in, 2^20 + 1 bins and power sums out. */
    ASSERT_EQ(ear_spectrum_scratch_bytes(n),
              ear_spectrum_scratch_bytes(EAR_SPECTRUM_MAX_FRAMES));
    ASSERT_LE(b.peak, ear_spectrum_scratch_bytes(n));
    ASSERT_LE(b.peak, (size_t)25 << 20);
    /* The whole-view transform would have needed 2^22 floats and 2^21 bins: 32 MiB. */
    ASSERT_LT(b.peak, (size_t)(1u << 22) * sizeof(float) + ((size_t)1 << 21) * 8);
    ASSERT_EQ(b.live, 0);
    ASSERT_OK(ear_measure_spectral_centroid(buf, n, 1, 0, RATE, &a, &hz));
    ASSERT_REL(hz, 1234.5, 0.01);
    /* The louder of two tones, the second only in the last 10 s at four times the first's
     * amplitude (16 times its power over a third of the time): the summed segments hear
     * it, though it lies in the tail of the first segment and the second half of the
     * last. */
    add_sine(buf + 20 * (size_t)RATE, 10 * (size_t)RATE, 1, 0, 3000.0, 2.0, 0.0);
    ASSERT_OK(ear_measure_dominant_hz(buf, n, 1, 0, RATE, &a, &hz));
    ASSERT_REL(hz, 3000.0, 1e-5);
    free(buf);
}

TEST_MAIN(TEST_ENTRY(levels_by_hand), TEST_ENTRY(hash), TEST_ENTRY(zero_crossing_frequency),
          TEST_ENTRY(dominant_frequency), TEST_ENTRY(tone_amplitude), TEST_ENTRY(envelopes),
          TEST_ENTRY(spectral_centroid), TEST_ENTRY(channel_lag), TEST_ENTRY(bad_arguments),
          TEST_ENTRY(an_fft_that_cannot_allocate_is_an_error),
          TEST_ENTRY(long_views_measure_in_bounded_memory))
