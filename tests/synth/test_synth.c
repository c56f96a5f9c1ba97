/* SPDX-License-Identifier: Zlib */
/*
 * Synth tests: every check measures the rendered samples against the formula the
 * header states (levels, frequencies, envelope shape, seams, hashes), with the
 * tolerance written beside it.
 */
#include "earshot/analysis.h"
#include "earshot/synth.h"
#include "test.h"

#define RATE   48000u
#define TWO_PI 6.283185307179586476925286766559

/* Renders a part into a fresh malloc'd buffer; *frames receives its length. */
static float *render(const ear_synth *s, uint64_t *frames) {
    *frames = ear_synth_frames(s);
    if (*frames == 0) return NULL;
    float *buf = malloc((size_t)*frames * sizeof *buf);
    if (buf && ear_synth_render(s, buf, *frames) != EAR_OK) {
        free(buf);
        return NULL;
    }
    return buf;
}

static double rms_of(const float *buf, size_t n) {
    double sum = 0.0;
    for (size_t i = 0; i < n; i++) sum += (double)buf[i] * (double)buf[i];
    return sqrt(sum / (double)n);
}

static double mean_of(const float *buf, size_t n) {
    double sum = 0.0;
    for (size_t i = 0; i < n; i++) sum += (double)buf[i];
    return sum / (double)n;
}

static double max_step(const float *buf, size_t n) {
    double m = 0.0;
    for (size_t i = 1; i < n; i++) m = fmax(m, fabs((double)buf[i] - (double)buf[i - 1]));
    return m;
}

TEST(defaults) {
    ear_synth s = {0};
    uint64_t n;
    float *buf = render(&s, &n);
    ASSERT_NOT_NULL(buf);
    ASSERT_U64_EQ(n, 48000);                       /* 1 s at 48 kHz */
    ASSERT_REL(ear_peak(buf, n, 1, 0), 0.5, 1e-4); /* amplitude 0.5 */
    ASSERT_REL(ear_zero_crossing_hz(buf, n, 1, 0, RATE), 440.0, 1e-5);
    free(buf);
}

TEST(sine_rms_and_frequency) {
    ear_synth s = {
        .waveform = EAR_WAVE_SINE, .frequency_hz = 440, .seconds = 1, .amplitude = 0.8f};
    uint64_t n;
    float *buf = render(&s, &n);
    ASSERT_NOT_NULL(buf);
    ASSERT_REL(rms_of(buf, n), 0.8 / sqrt(2.0), 1e-3); /* A / sqrt 2 within 0.1 % */
    ASSERT_DBL_LE(ear_peak(buf, n, 1, 0), 0.8f);       /* never above A */
    ASSERT_REL(ear_zero_crossing_hz(buf, n, 1, 0, RATE), 440.0, 5e-4); /* within 0.05 % */
    ASSERT_REL(ear_dominant_hz(buf, n, 1, 0, RATE), 440.0, 5e-4);
    ASSERT_REL(ear_tone_amplitude(buf, n, 1, 0, RATE, 440.0), 0.8, 5e-3);
    /* Each sample is the formula, rounded to float. */
    for (uint64_t i = 0; i < n; i += 97)
        ASSERT_NEAR(buf[i], 0.8 * sin(TWO_PI * 440.0 * (double)i / RATE), 1e-6);
    free(buf);
}

TEST(whole_cycles_rounding) {
    /* 441.3 Hz over 0.5 s is 220.65 cycles: the part is built with 221 cycles, so its
     * frequency is 221 / 0.5 s = 442 Hz. */
    ear_synth s = {.frequency_hz = 441.3f, .seconds = 0.5f, .amplitude = 0.5f};
    uint64_t n;
    float *buf = render(&s, &n);
    ASSERT_NOT_NULL(buf);
    ASSERT_U64_EQ(n, 24000);
    ASSERT_REL(ear_zero_crossing_hz(buf, n, 1, 0, RATE), 442.0, 5e-4);
    ASSERT_REL(ear_dominant_hz(buf, n, 1, 0, RATE), 442.0, 5e-4);
    free(buf);

    /* Below one cycle in the part: one cycle. 0.3 Hz over 1 s -> 1 Hz. */
    ear_synth slow = {.frequency_hz = 0.3f, .seconds = 1};
    buf = render(&slow, &n);
    ASSERT_NOT_NULL(buf);
    ASSERT_NEAR(buf[12000], 0.5, 1e-6); /* a quarter of the one cycle: the crest */
    free(buf);
}

TEST(seamless_loop) {
    static const ear_waveform waves[] = {EAR_WAVE_SINE, EAR_WAVE_SQUARE, EAR_WAVE_TRIANGLE,
                                         EAR_WAVE_SAW, EAR_WAVE_ENGINE};
    for (size_t w = 0; w < sizeof waves / sizeof waves[0]; w++) {
        ear_synth one = {.waveform = waves[w], .frequency_hz = 437, .seconds = 0.3f};
        ear_synth two = one;
        two.seconds = 0.6f; /* twice the frames and twice the cycles */
        uint64_t n1, n2;
        float *a = render(&one, &n1);
        float *b = render(&two, &n2);
        ASSERT_TRUE(a && b);
        ASSERT_U64_EQ(n2, 2 * n1);
        /* The step over the seam (last -> first) is no larger than the largest in-clip step. */
        double seam = fabs((double)a[0] - (double)a[n1 - 1]);
        ASSERT_DBL_LE(seam, max_step(a, (size_t)n1));
        /* The part played twice is the double-length part, bit for bit: the sample after
         * the last is exactly the first. */
        ASSERT_EQ(memcmp(a, b, (size_t)n1 * sizeof *a), 0);
        ASSERT_EQ(memcmp(a, b + n1, (size_t)n1 * sizeof *a), 0);
        free(a);
        free(b);
    }
}

TEST(waveform_levels) {
    const float amp = 0.6f;
    uint64_t n;
    /* Square: every sample is +A or -A, half of each. */
    ear_synth sq = {.waveform = EAR_WAVE_SQUARE, .frequency_hz = 400, .amplitude = amp};
    float *buf = render(&sq, &n);
    ASSERT_NOT_NULL(buf);
    for (uint64_t i = 0; i < n; i++) ASSERT_TRUE(buf[i] == amp || buf[i] == -amp);
    ASSERT_REL(rms_of(buf, n), amp, 1e-6);
    ASSERT_NEAR(mean_of(buf, n), 0.0, 1e-6);
    ASSERT_REL(ear_zero_crossing_hz(buf, n, 1, 0, RATE), 400.0, 5e-4);
    free(buf);
    /* Triangle and saw: uniform over [-A, A], RMS A / sqrt 3 (0.1 % for 120 samples a
     * cycle), peak A. */
    static const ear_waveform ramps[] = {EAR_WAVE_TRIANGLE, EAR_WAVE_SAW};
    for (size_t w = 0; w < 2; w++) {
        ear_synth s = {.waveform = ramps[w], .frequency_hz = 400, .amplitude = amp};
        buf = render(&s, &n);
        ASSERT_NOT_NULL(buf);
        ASSERT_REL(rms_of(buf, n), amp / sqrt(3.0), 1e-3);
        ASSERT_REL(ear_peak(buf, n, 1, 0), amp, 1e-6);
        /* The naive saw samples its jump at -A once a cycle: its mean is -A / 120. */
        ASSERT_NEAR(mean_of(buf, n), ramps[w] == EAR_WAVE_SAW ? -amp / 120.0 : 0.0, 1e-6);
        ASSERT_REL(ear_dominant_hz(buf, n, 1, 0, RATE), 400.0, 5e-4);
        free(buf);
    }
}

TEST(engine_tone) {
    /* Eight harmonics 0.7^(k-1) scaled to peak A: RMS = A * sqrt(sum 0.49^(k-1) / 2) /
     * 2.0593262536 = 0.48001 A; the fundamental dominates at A / 2.0593. */
    const double amp = 0.9;
    ear_synth s = {.waveform = EAR_WAVE_ENGINE, .frequency_hz = 110, .amplitude = 0.9f};
    uint64_t n;
    float *buf = render(&s, &n);
    ASSERT_NOT_NULL(buf);
    double harmonics = 0.0;
    for (int k = 0; k < 8; k++) harmonics += pow(0.49, k) / 2.0;
    ASSERT_REL(rms_of(buf, n), amp * sqrt(harmonics) / 2.0593262536175096, 1e-3);
    ASSERT_DBL_LE(ear_peak(buf, n, 1, 0), amp * (1.0 + 1e-6));
    ASSERT_DBL_GE(ear_peak(buf, n, 1, 0), amp * 0.999);
    ASSERT_REL(ear_dominant_hz(buf, n, 1, 0, RATE), 110.0, 5e-4);
    ASSERT_REL(ear_tone_amplitude(buf, n, 1, 0, RATE, 110.0), amp / 2.0593262536175096, 5e-3);
    ASSERT_REL(ear_tone_amplitude(buf, n, 1, 0, RATE, 330.0), amp * 0.49 / 2.0593262536175096,
               5e-3);
    free(buf);
}

TEST(noise_seed_and_level) {
    ear_synth a = {.waveform = EAR_WAVE_NOISE, .amplitude = 0.5f, .seed = 7};
    ear_synth b = a;
    ear_synth c = a;
    c.seed = 8;
    uint64_t na, nb, nc;
    float *x = render(&a, &na);
    float *y = render(&b, &nb);
    float *z = render(&c, &nc);
    ASSERT_TRUE(x && y && z);
    ASSERT_U64_EQ(ear_hash_samples(x, na), ear_hash_samples(y, nb)); /* same seed, same bits */
    ASSERT_NE(ear_hash_samples(x, na), ear_hash_samples(z, nc));     /* another seed */
    ASSERT_REL(rms_of(x, na), 0.5 / sqrt(3.0), 0.02);                /* uniform in [-A, A] */
    ASSERT_NEAR(mean_of(x, na), 0.0, 0.01);
    ASSERT_DBL_LE(ear_peak(x, na, 1, 0), 0.5);
    /* Seed 0 means seed 1. */
    ear_synth d0 = {.waveform = EAR_WAVE_NOISE, .seed = 0},
              d1 = {.waveform = EAR_WAVE_NOISE, .seed = 1};
    uint64_t n0, n1;
    float *p0 = render(&d0, &n0), *p1 = render(&d1, &n1);
    ASSERT_TRUE(p0 && p1);
    ASSERT_U64_EQ(ear_hash_samples(p0, n0), ear_hash_samples(p1, n1));
    free(x);
    free(y);
    free(z);
    free(p0);
    free(p1);
}

/* The envelope the header states, evaluated independently of the synth. */
static double envelope_formula(const ear_envelope *e, uint64_t i, uint64_t frames) {
    double t = (double)i / RATE, level = 1.0;
    if (e->attack_s > 0 && t < e->attack_s) level = t / e->attack_s;
    if (e->decay_s > 0 && t > e->attack_s) level *= exp(-(t - e->attack_s) / e->decay_s);
    uint64_t r = (uint64_t)floor((double)e->release_s * RATE + 0.5);
    if (e->release_s > 0 && i >= frames - r) level *= (double)(frames - 1 - i) / (double)r;
    return level;
}

TEST(envelope_shape) {
    ear_synth s = {.frequency_hz = 1000,
                   .seconds = 1,
                   .amplitude = 0.8f,
                   .envelope = {.attack_s = 0.05f, .decay_s = 0.2f, .release_s = 0.1f}};
    uint64_t n;
    float *buf = render(&s, &n);
    ASSERT_NOT_NULL(buf);
    /* With an envelope the frequency is not rounded: every sample is
     * A * env(t) * sin(2 pi f t), to float precision. */
    for (uint64_t i = 0; i < n; i++) {
        double want =
            0.8 * envelope_formula(&s.envelope, i, n) * sin(TWO_PI * 1000.0 * (double)i / RATE);
        ASSERT_NEAR(buf[i], want, 2e-7);
    }
    ASSERT_FLOAT_EQ(buf[0], 0.0f);
    /* Measured: the tone level 0.2 s (one decay time) after the attack is A e^-1, in a
     * 10 ms window (10 cycles) centred there, within 1 %. */
    size_t centre = (size_t)((0.05 + 0.2) * RATE), half = 240;
    double level = ear_tone_amplitude(buf + centre - half, 2 * half, 1, 0, RATE, 1000.0);
    ASSERT_REL(level, 0.8 * exp(-1.0), 0.01);
    /* Attack: halfway up at 25 ms (the window's mean of a linear ramp is its centre). */
    level = ear_tone_amplitude(buf + 1200 - half, 2 * half, 1, 0, RATE, 1000.0);
    ASSERT_REL(level, 0.8 * 0.5, 0.01);
    free(buf);
}

TEST(release_ends_on_zero) {
    static const ear_waveform waves[] = {EAR_WAVE_SINE, EAR_WAVE_SQUARE, EAR_WAVE_TRIANGLE,
                                         EAR_WAVE_SAW,  EAR_WAVE_NOISE,  EAR_WAVE_ENGINE};
    for (size_t w = 0; w < sizeof waves / sizeof waves[0]; w++) {
        ear_synth s = {.waveform = waves[w],
                       .frequency_hz = 523,
                       .seconds = 0.25f,
                       .amplitude = 1,
                       .envelope = {.release_s = 0.05f}};
        uint64_t n;
        float *buf = render(&s, &n);
        ASSERT_NOT_NULL(buf);
        uint32_t bits;
        memcpy(&bits, &buf[n - 1], sizeof bits);
        ASSERT_EQ(bits, 0); /* +0.0f exactly, not -0.0f */
        /* The ramp: 2400 frames, the sample k frames before the end is at most k / 2400. */
        for (uint64_t k = 0; k < 2400; k++)
            ASSERT_DBL_LE(fabs(buf[n - 1 - k]), (double)k / 2400.0 + 1e-7);
        free(buf);
    }
    /* A release shorter than a frame still ends on zero. */
    ear_synth tiny = {.frequency_hz = 523, .seconds = 0.01f, .envelope = {.release_s = 1e-6f}};
    uint64_t n;
    float *buf = render(&tiny, &n);
    ASSERT_NOT_NULL(buf);
    ASSERT_FLOAT_EQ(buf[n - 1], 0.0f);
    free(buf);
}

/* Mean frequency over [t0, t1] of the exponential sweep f0 (f1/f0)^(t/T). */
static double sweep_mean_hz(double f0, double f1, double length, double t0, double t1) {
    double k = log(f1 / f0) / length;
    return f0 * (exp(k * t1) - exp(k * t0)) / (k * (t1 - t0));
}

TEST(sweep_is_exponential) {
    ear_synth s = {
        .frequency_hz = 200, .end_frequency_hz = 800, .seconds = 2, .amplitude = 0.5f};
    uint64_t n;
    float *buf = render(&s, &n);
    ASSERT_NOT_NULL(buf);
    ASSERT_U64_EQ(n, 96000);
    const size_t win = 4800; /* 0.1 s */
    struct {
        size_t start;
    } spans[] = {{0}, {48000 - win / 2}, {96000 - win}};
    for (size_t i = 0; i < 3; i++) {
        double t0 = (double)spans[i].start / RATE, t1 = t0 + (double)win / RATE;
        double want = sweep_mean_hz(200, 800, 2.0, t0, t1);
        double got = ear_zero_crossing_hz(buf + spans[i].start, win, 1, 0, RATE);
        ASSERT_REL(got, want, 5e-3);
    }
    /* At the middle an exponential sweep is at the geometric mean, 400 Hz (linear would
     * be 500). */
    ASSERT_REL(ear_zero_crossing_hz(buf + 48000 - win / 2, win, 1, 0, RATE), 400.0, 5e-3);
    /* The phase is continuous: no step larger than a 800 Hz sine's largest. */
    ASSERT_DBL_LE(max_step(buf, (size_t)n), 0.5 * TWO_PI * 800.0 / RATE * 1.001);
    free(buf);
}

TEST(long_part_keeps_phase) {
    /* 10 minutes at 8 kHz with an envelope (no rounding of the frequency): the last
     * samples still match sin(2 pi f i / rate) computed directly, so nothing drifts. */
    ear_synth s = {.frequency_hz = 1234.5f,
                   .seconds = 600,
                   .amplitude = 1,
                   .sample_rate = 8000,
                   .envelope = {.attack_s = 0.01f}};
    uint64_t n;
    float *buf = render(&s, &n);
    ASSERT_NOT_NULL(buf);
    ASSERT_U64_EQ(n, 4800000);
    for (uint64_t i = n - 1000; i < n; i++)
        ASSERT_NEAR(buf[i], sin(TWO_PI * fmod(1234.5 * (double)i / 8000.0, 1.0)), 1e-6);
    free(buf);
}

TEST(layers_sum) {
    ear_synth layers[2] = {{.frequency_hz = 440, .seconds = 1, .amplitude = 0.3f},
                           {.frequency_hz = 660, .seconds = 0.5f, .amplitude = 0.2f}};
    ear_clip *clip = NULL;
    ASSERT_OK(ear_synth_clip_layers(layers, 2, NULL, &clip));
    ASSERT_U64_EQ(ear_clip_frames(clip), 48000); /* the longest layer */
    ASSERT_EQ(ear_clip_channels(clip), 1);
    ASSERT_EQ(ear_clip_sample_rate(clip), RATE);
    const float *data = ear_clip_data(clip);
    uint64_t n0, n1;
    float *a = render(&layers[0], &n0), *b = render(&layers[1], &n1);
    ASSERT_TRUE(a && b);
    for (uint64_t i = 0; i < n0; i++) ASSERT_FLOAT_EQ(data[i], a[i] + (i < n1 ? b[i] : 0.0f));
    ASSERT_REL(ear_tone_amplitude(data, 24000, 1, 0, RATE, 440), 0.3, 5e-3);
    ASSERT_REL(ear_tone_amplitude(data, 24000, 1, 0, RATE, 660), 0.2, 5e-3);
    ASSERT_NEAR(ear_tone_amplitude(data + 24000, 24000, 1, 0, RATE, 660), 0.0, 1e-3);
    free(a);
    free(b);
    ear_clip_release(clip);
}

TEST(sequence_in_order) {
    ear_synth parts[3] = {{.frequency_hz = 300, .seconds = 0.25f},
                          {.waveform = EAR_WAVE_NOISE, .seconds = 0.1f, .seed = 3},
                          {.frequency_hz = 600, .seconds = 0.5f, .amplitude = 0.25f}};
    ear_clip *clip = NULL;
    ASSERT_OK(ear_synth_clip_sequence(parts, 3, NULL, &clip));
    ASSERT_U64_EQ(ear_clip_frames(clip), 12000 + 4800 + 24000);
    const float *data = ear_clip_data(clip);
    uint64_t at = 0;
    for (size_t p = 0; p < 3; p++) {
        uint64_t n;
        float *one = render(&parts[p], &n);
        ASSERT_NOT_NULL(one);
        ASSERT_EQ(memcmp(data + at, one, (size_t)n * sizeof *one), 0);
        at += n;
        free(one);
    }
    ASSERT_REL(ear_dominant_hz(data, 12000, 1, 0, RATE), 300.0, 5e-4);
    ASSERT_REL(ear_dominant_hz(data + 16800, 24000, 1, 0, RATE), 600.0, 5e-4);
    ASSERT_REL(ear_tone_amplitude(data + 16800, 24000, 1, 0, RATE, 600), 0.25, 5e-3);
    ear_clip_release(clip);
}

TEST(parse_name) {
    ear_synth s;
    ASSERT_OK(ear_synth_parse_name("synth:square:300:0.15", &s));
    ASSERT_EQ(s.waveform, EAR_WAVE_SQUARE);
    ASSERT_FLOAT_EQ(s.frequency_hz, 300.0f);
    ASSERT_FLOAT_EQ(s.seconds, 0.15f);
    ASSERT_FLOAT_EQ(s.amplitude, 0.0f); /* default */
    ASSERT_OK(ear_synth_parse_name("synth:sine:440", &s));
    ASSERT_EQ(s.waveform, EAR_WAVE_SINE);
    ASSERT_FLOAT_EQ(s.frequency_hz, 440.0f);
    ASSERT_FLOAT_EQ(s.seconds, 0.0f);
    ASSERT_OK(ear_synth_parse_name("synth:saw:1.5e3:2:1", &s));
    ASSERT_EQ(s.waveform, EAR_WAVE_SAW);
    ASSERT_FLOAT_EQ(s.frequency_hz, 1500.0f);
    ASSERT_FLOAT_EQ(s.seconds, 2.0f);
    ASSERT_FLOAT_EQ(s.amplitude, 1.0f);
    ASSERT_OK(ear_synth_parse_name("synth:triangle:.5:3600:0.123456789", &s));
    ASSERT_FLOAT_EQ(s.frequency_hz, 0.5f);
    ASSERT_FLOAT_EQ(s.seconds, 3600.0f);
    ASSERT_FLOAT_EQ(s.amplitude, 0.123456789f);
    ASSERT_OK(ear_synth_parse_name("synth:noise:1:5.", &s));
    ASSERT_EQ(s.waveform, EAR_WAVE_NOISE);
    ASSERT_FLOAT_EQ(s.seconds, 5.0f);
    ASSERT_OK(ear_synth_parse_name("synth:engine:24000", &s));
    ASSERT_OK(ear_synth_parse_name("synth:sine:0.1e+3", &s));
    ASSERT_FLOAT_EQ(s.frequency_hz, 100.0f);

    static const char *bad[] = {
        "",
        "synth",
        "synth:",
        "synth:sine",
        "synth:sine:",
        "synth:sine:abc",
        "synth:sine:440x",
        "synth:sine: 440",
        "synth:sine:440 ",
        "synth:sine:+440",
        "synth:sine:-440",
        "synth:sine:0",
        "synth:sine:0.0",
        "synth:sine:nan",
        "synth:sine:inf",
        "synth:sine:0x10",
        "synth:sine:1e",
        "synth:sine:1e+",
        "synth:sine:.",
        "synth:sine:1..2",
        "synth:sine:1e400",
        "synth:sine:1e-50",
        "synth:sine:24000.1",
        "synth:sine:440:0",
        "synth:sine:440:-1",
        "synth:sine:440:3600.5",
        "synth:sine:440:1:0",
        "synth:sine:440:1:1.5",
        "synth:sine:440:1:0.5:9",
        "synth:sine:440::0.5",
        "synth:sine:440:1:",
        "synth:Sine:440",
        "synth:sin:440",
        "synth::440",
        "sine:440",
        "SYNTH:sine:440",
        " synth:sine:440",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ear_synth out = {.frequency_hz = 12345}; /* untouched on failure */
        int r = ear_synth_parse_name(bad[i], &out);
        if (r != EAR_E_FORMAT) fprintf(stderr, "name \"%s\"\n", bad[i]);
        ASSERT_EQ(r, EAR_E_FORMAT);
        ASSERT_FLOAT_EQ(out.frequency_hz, 12345.0f);
    }
    ASSERT_EQ(ear_synth_parse_name(NULL, &s), EAR_E_INVALID_ARG);
    ASSERT_EQ(ear_synth_parse_name("synth:sine:440", NULL), EAR_E_INVALID_ARG);
}

TEST(clip_from_name) {
    ear_clip *clip = NULL;
    ASSERT_OK(ear_synth_clip_from_name("synth:square:300:0.15", NULL, &clip));
    ASSERT_U64_EQ(ear_clip_frames(clip), 7200);
    ASSERT_EQ(ear_clip_channels(clip), 1);
    ASSERT_EQ(ear_clip_sample_rate(clip), RATE);
    ASSERT_EQ(ear_clip_refcount(clip), 1);
    ASSERT_REL(ear_peak(ear_clip_data(clip), 7200, 1, 0), 0.5, 1e-6);
    ASSERT_REL(ear_zero_crossing_hz(ear_clip_data(clip), 7200, 1, 0, RATE), 300.0, 5e-4);
    ear_clip_release(clip);
    clip = NULL;
    ASSERT_EQ(ear_synth_clip_from_name("synth:sine:oops", NULL, &clip), EAR_E_FORMAT);
    ASSERT_NULL(clip);
    ASSERT_EQ(ear_synth_clip_from_name("synth:sine:440", NULL, NULL), EAR_E_INVALID_ARG);
}

TEST(bad_arguments) {
    float buf[64];
    ASSERT_U64_EQ(ear_synth_frames(NULL), 0);
    ASSERT_EQ(ear_synth_render(NULL, buf, 64), EAR_E_INVALID_ARG);
    ear_synth ok = {.seconds = 0.001f}; /* 48 frames */
    ASSERT_U64_EQ(ear_synth_frames(&ok), 48);
    ASSERT_OK(ear_synth_render(&ok, buf, 64));
    ASSERT_EQ(ear_synth_render(&ok, NULL, 64), EAR_E_INVALID_ARG);
    ASSERT_EQ(ear_synth_render(&ok, buf, 47), EAR_E_INVALID_ARG); /* too small a buffer */

    ear_synth bad[] = {
        {.frequency_hz = -1},
        {.frequency_hz = NAN},
        {.frequency_hz = INFINITY},
        {.frequency_hz = 24001},     /* above Nyquist at 48 kHz */
        {.end_frequency_hz = 30000}, /* so is the sweep's end */
        {.end_frequency_hz = -5},
        {.seconds = -0.5f},
        {.seconds = NAN},
        {.seconds = 3601},
        {.amplitude = -0.1f},
        {.amplitude = INFINITY},
        {.sample_rate = 999},
        {.sample_rate = 384001},
        {.envelope = {.attack_s = -1}},
        {.envelope = {.decay_s = NAN}},
        {.envelope = {.release_s = INFINITY}},
        {.waveform = (ear_waveform)42},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ASSERT_U64_EQ(ear_synth_frames(&bad[i]), 0);
        ASSERT_EQ(ear_synth_render(&bad[i], buf, 64), EAR_E_INVALID_ARG);
        ear_clip *clip = NULL;
        ASSERT_EQ(ear_synth_clip(&bad[i], NULL, &clip), EAR_E_INVALID_ARG);
        ASSERT_NULL(clip);
    }
    ear_clip *clip = NULL;
    ASSERT_EQ(ear_synth_clip(NULL, NULL, &clip), EAR_E_INVALID_ARG);
    ASSERT_EQ(ear_synth_clip(&ok, NULL, NULL), EAR_E_INVALID_ARG);
    ASSERT_EQ(ear_synth_clip_layers(&ok, 0, NULL, &clip), EAR_E_INVALID_ARG);
    ASSERT_EQ(ear_synth_clip_sequence(NULL, 2, NULL, &clip), EAR_E_INVALID_ARG);
    ear_synth mixed[2] = {{.sample_rate = 48000}, {.sample_rate = 44100}};
    ASSERT_EQ(ear_synth_clip_layers(mixed, 2, NULL, &clip), EAR_E_INVALID_ARG);
    ASSERT_EQ(ear_synth_clip_sequence(mixed, 2, NULL, &clip), EAR_E_INVALID_ARG);
    ear_synth one_bad[2] = {{.frequency_hz = 440}, {.seconds = -1}};
    ASSERT_EQ(ear_synth_clip_sequence(one_bad, 2, NULL, &clip), EAR_E_INVALID_ARG);
    ASSERT_NULL(clip);
}

TEST_MAIN(TEST_ENTRY(defaults), TEST_ENTRY(sine_rms_and_frequency),
          TEST_ENTRY(whole_cycles_rounding), TEST_ENTRY(seamless_loop),
          TEST_ENTRY(waveform_levels), TEST_ENTRY(engine_tone),
          TEST_ENTRY(noise_seed_and_level), TEST_ENTRY(envelope_shape),
          TEST_ENTRY(release_ends_on_zero), TEST_ENTRY(sweep_is_exponential),
          TEST_ENTRY(long_part_keeps_phase), TEST_ENTRY(layers_sum),
          TEST_ENTRY(sequence_in_order), TEST_ENTRY(parse_name), TEST_ENTRY(clip_from_name),
          TEST_ENTRY(bad_arguments))
