/*
 * WAV writing tests: a render written as 32-bit float WAV reads back (through
 * libsndfile, independently of earshot_io) bit for bit, with its channels, rate and
 * length; failures give result codes and log the path.
 */
#include "earshot/wav.h"
#include "test.h"

#include <sndfile.h>
#include <unistd.h>

typedef struct captured_log {
    int errors;
    char last[1024];
} captured_log;

static void capture(void *user, ear_log_level level, const char *module, const char *message) {
    captured_log *log = user;
    if (level == EAR_LOG_ERROR && strcmp(module, "io") == 0) log->errors++;
    snprintf(log->last, sizeof log->last, "%s", message);
}

/* A temporary path in the test's own directory under /tmp. */
static void temp_path(char *out, size_t size, const char *name) {
    snprintf(out, size, "/tmp/earshot-test-wav-%ld-%s", (long)getpid(), name);
}

TEST(round_trip_bit_exact) {
    const uint64_t frames = 100003; /* more than one write chunk */
    const uint32_t channels = 2, rate = 44100;
    float *samples = malloc(frames * channels * sizeof *samples);
    ASSERT_TRUE(samples != NULL);
    ear_rng rng;
    ear_rng_seed(&rng, 5);
    for (uint64_t i = 0; i < frames * channels; i++)
        samples[i] = ear_rng_range(&rng, -1.5f, 1.5f); /* floats beyond +-1 survive too */
    samples[0] = -0.0f;
    samples[1] = 1e-42f; /* a subnormal */
    char path[256];
    temp_path(path, sizeof path, "round.wav");
    ASSERT_OK(ear_wav_write(path, samples, frames, channels, rate));

    SF_INFO info;
    memset(&info, 0, sizeof info);
    SNDFILE *f = sf_open(path, SFM_READ, &info);
    ASSERT_TRUE(f != NULL);
    ASSERT_EQ(info.channels, 2);
    ASSERT_EQ(info.samplerate, 44100);
    ASSERT_EQ(info.frames, (long long)frames);
    ASSERT_EQ(info.format, SF_FORMAT_WAV | SF_FORMAT_FLOAT);
    float *back = malloc(frames * channels * sizeof *back);
    ASSERT_TRUE(back != NULL);
    ASSERT_EQ(sf_readf_float(f, back, (sf_count_t)frames), (long long)frames);
    sf_close(f);
    ASSERT_EQ(memcmp(samples, back, frames * channels * sizeof *back), 0);
    /* No partial file is left beside it. */
    char part[300];
    snprintf(part, sizeof part, "%s.part", path);
    ASSERT_TRUE(access(part, F_OK) != 0);
    remove(path);
    free(samples);
    free(back);
}

TEST(mono_overwrites) {
    float one[3] = {0.25f, -0.5f, 0.75f};
    float two[2] = {0.125f, -0.125f};
    char path[256];
    temp_path(path, sizeof path, "mono.wav");
    ASSERT_OK(ear_wav_write(path, one, 3, 1, 48000));
    ASSERT_OK(ear_wav_write(path, two, 2, 1, 8000)); /* replaces the first file */
    SF_INFO info;
    memset(&info, 0, sizeof info);
    SNDFILE *f = sf_open(path, SFM_READ, &info);
    ASSERT_TRUE(f != NULL);
    ASSERT_EQ(info.channels, 1);
    ASSERT_EQ(info.samplerate, 8000);
    ASSERT_EQ(info.frames, 2);
    float back[2];
    ASSERT_EQ(sf_readf_float(f, back, 2), 2);
    sf_close(f);
    ASSERT_TRUE(back[0] == 0.125f && back[1] == -0.125f);
    remove(path);
}

TEST(unwritable_path) {
    captured_log log = {0};
    ear_log_set(capture, &log, EAR_LOG_DEBUG);
    float s[2] = {0.1f, 0.2f};
    const char *path = "/nonexistent-earshot-dir/sub/out.wav";
    ASSERT_EQ(ear_wav_write(path, s, 2, 1, 48000), EAR_E_IO);
    ear_log_set(NULL, NULL, EAR_LOG_WARN);
    ASSERT_EQ(log.errors, 1);
    ASSERT_TRUE(strstr(log.last, path) != NULL); /* the message names the file */
}

TEST(bad_arguments) {
    float s[4] = {0.1f, 0.2f, 0.3f, 0.4f};
    char path[256];
    temp_path(path, sizeof path, "bad.wav");
    ASSERT_EQ(ear_wav_write(NULL, s, 2, 1, 48000), EAR_E_INVALID_ARG);
    ASSERT_EQ(ear_wav_write("", s, 2, 1, 48000), EAR_E_INVALID_ARG);
    ASSERT_EQ(ear_wav_write(path, NULL, 2, 1, 48000), EAR_E_INVALID_ARG);
    ASSERT_EQ(ear_wav_write(path, s, 0, 1, 48000), EAR_E_INVALID_ARG);
    ASSERT_EQ(ear_wav_write(path, s, 2, 0, 48000), EAR_E_INVALID_ARG);
    ASSERT_EQ(ear_wav_write(path, s, 2, 1, 0), EAR_E_INVALID_ARG);
    s[2] = NAN;
    ASSERT_EQ(ear_wav_write(path, s, 4, 1, 48000), EAR_E_INVALID_ARG);
    s[2] = -INFINITY;
    ASSERT_EQ(ear_wav_write(path, s, 4, 1, 48000), EAR_E_INVALID_ARG);
    ASSERT_TRUE(access(path, F_OK) != 0); /* nothing was written */
}

TEST_MAIN(TEST_ENTRY(round_trip_bit_exact), TEST_ENTRY(mono_overwrites),
          TEST_ENTRY(unwritable_path), TEST_ENTRY(bad_arguments))
