/* SPDX-License-Identifier: Zlib */
/*
 * WAV writing tests: a render written as 32-bit float WAV reads back (through
 * libsndfile, independently of earshot_io) bit for bit, with its channels, rate and
 * length; failures give result codes and log the path.
 */
#define _DEFAULT_SOURCE
#include "earshot/wav.h"
#include "test.h"

#include <dirent.h>
#include <sndfile.h>
#include <sys/stat.h>
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

static int count_prefixed(const char *folder, const char *prefix);

TEST(round_trip_bit_exact) {
    const uint64_t frames = 100003; /* more than one write chunk */
    const uint32_t channels = 2, rate = 44100;
    float *samples = malloc(frames * channels * sizeof *samples);
    ASSERT_NOT_NULL(samples);
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
    ASSERT_NOT_NULL(f);
    ASSERT_EQ(info.channels, 2);
    ASSERT_EQ(info.samplerate, 44100);
    ASSERT_EQ(info.frames, (long long)frames);
    ASSERT_EQ(info.format, SF_FORMAT_WAV | SF_FORMAT_FLOAT);
    float *back = malloc(frames * channels * sizeof *back);
    ASSERT_NOT_NULL(back);
    ASSERT_EQ(sf_readf_float(f, back, (sf_count_t)frames), (long long)frames);
    sf_close(f);
    ASSERT_EQ(memcmp(samples, back, frames * channels * sizeof *back), 0);
    /* No temporary file is left beside it. */
    ASSERT_EQ(count_prefixed("/tmp", strrchr(path, '/') + 1), 1);
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
    ASSERT_NOT_NULL(f);
    ASSERT_EQ(info.channels, 1);
    ASSERT_EQ(info.samplerate, 8000);
    ASSERT_EQ(info.frames, 2);
    float back[2];
    ASSERT_EQ(sf_readf_float(f, back, 2), 2);
    sf_close(f);
    ASSERT_FLOAT_EQ(back[0], 0.125f);
    ASSERT_FLOAT_EQ(back[1], -0.125f);
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
    ASSERT_STR_CONTAINS(log.last, path); /* the message names the file */
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
    ASSERT_NE(access(path, F_OK), 0); /* nothing was written */
}

/* Writes text to path (a file that is not a WAV Earshot wrote). */
static void put_text(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    ASSERT_NOT_NULL(f);
    fputs(text, f);
    fclose(f);
}

/* The file's whole text, or "" (at most 255 bytes). */
static const char *get_text(const char *path, char *out, size_t cap) {
    out[0] = '\0';
    FILE *f = fopen(path, "r");
    if (!f) return out;
    size_t n = fread(out, 1, cap - 1, f);
    out[n] = '\0';
    fclose(f);
    return out;
}

/* How many names in folder start with prefix. */
static int count_prefixed(const char *folder, const char *prefix) {
    DIR *d = opendir(folder);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        if (strncmp(e->d_name, prefix, strlen(prefix)) == 0) n++;
    if (d) closedir(d);
    return n;
}

/* A fresh folder /tmp/earshot-test-wav-<pid>-<name>. */
static void temp_folder(char *out, size_t size, const char *name) {
    temp_path(out, size, name);
    mkdir(out, 0700);
}

TEST(planted_symlink_is_not_followed) {
    char dir[256], target[300], link_path[300], text[256];
    temp_folder(dir, sizeof dir, "link");
    snprintf(target, sizeof target, "%s/precious.txt", dir);
    snprintf(link_path, sizeof link_path, "%s/out.wav", dir);
    put_text(target, "keep me\n");
    ASSERT_EQ(symlink(target, link_path), 0);
    float s[2] = {0.1f, 0.2f};
    ear_io_error err = {{0}};
    ASSERT_EQ(ear_wav_write_with(link_path, s, 2, 1, 48000, NULL, &err), EAR_E_STATE);
    ASSERT_STR_CONTAINS(err.message, "symbolic link");
    ASSERT_STR_EQ(get_text(target, text, sizeof text), "keep me\n");
    /* Asked to overwrite, the link itself is replaced; its target is still untouched. */
    ear_wav_write_config c = ear_wav_write_config_default();
    c.overwrite = true;
    ASSERT_OK(ear_wav_write_with(link_path, s, 2, 1, 48000, &c, &err));
    struct stat st;
    ASSERT_EQ(lstat(link_path, &st), 0);
    ASSERT_TRUE(S_ISREG(st.st_mode));
    ASSERT_STR_EQ(get_text(target, text, sizeof text), "keep me\n");
    ASSERT_EQ(count_prefixed(dir, "out.wav.tmp-"), 0);
    remove(link_path);
    remove(target);
    rmdir(dir);
}

TEST(a_foreign_file_is_kept_unless_asked) {
    char path[256], text[256];
    temp_path(path, sizeof path, "foreign.wav");
    put_text(path, "not a wav\n");
    float s[2] = {0.1f, 0.2f};
    ear_io_error err = {{0}};
    ASSERT_EQ(ear_wav_write_with(path, s, 2, 1, 48000, NULL, &err), EAR_E_STATE);
    ASSERT_STR_CONTAINS(err.message, "not a WAV that Earshot wrote");
    ASSERT_STR_EQ(get_text(path, text, sizeof text), "not a wav\n");
    /* A WAV another program wrote (no Earshot software string) is kept too. */
    SF_INFO info = {
        .samplerate = 8000, .channels = 1, .format = SF_FORMAT_WAV | SF_FORMAT_PCM_16};
    SNDFILE *f = sf_open(path, SFM_WRITE, &info);
    ASSERT_NOT_NULL(f);
    short pcm[4] = {1, 2, 3, 4};
    ASSERT_EQ(sf_writef_short(f, pcm, 4), 4);
    sf_close(f);
    ASSERT_EQ(ear_wav_write_with(path, s, 2, 1, 48000, NULL, &err), EAR_E_STATE);
    ear_wav_write_config c = ear_wav_write_config_default();
    c.overwrite = true;
    ASSERT_OK(ear_wav_write_with(path, s, 2, 1, 48000, &c, &err));
    /* Now it is ours: replaced without being asked. */
    ASSERT_OK(ear_wav_write_with(path, s, 1, 2, 44100, NULL, &err));
    memset(&info, 0, sizeof info);
    f = sf_open(path, SFM_READ, &info);
    ASSERT_NOT_NULL(f);
    ASSERT_EQ(info.samplerate, 44100);
    ASSERT_EQ(info.channels, 2);
    const char *software = sf_get_string(f, SF_STR_SOFTWARE);
    ASSERT_STR_STARTS(software, EAR_WAV_SOFTWARE);
    sf_close(f);
    remove(path);
}

TEST(fifo_and_folder_are_refused_without_waiting) {
    char path[256];
    temp_path(path, sizeof path, "fifo.wav");
    ASSERT_EQ(mkfifo(path, 0600), 0);
    float s[2] = {0.1f, 0.2f};
    ear_io_error err = {{0}};
    ear_wav_write_config c = {.overwrite = true};
    /* Opening a FIFO with no reader would block: the call returns at once instead. */
    ASSERT_EQ(ear_wav_write_with(path, s, 2, 1, 48000, &c, &err), EAR_E_STATE);
    ASSERT_STR_CONTAINS(err.message, "is a FIFO");
    struct stat st;
    ASSERT_EQ(lstat(path, &st), 0);
    ASSERT_TRUE(S_ISFIFO(st.st_mode));
    remove(path);
    ASSERT_EQ(ear_wav_write_with("/tmp", s, 2, 1, 48000, &c, &err), EAR_E_STATE);
    ASSERT_STR_CONTAINS(err.message, "is a folder");
    ASSERT_EQ(ear_wav_write_with("/dev/null", s, 2, 1, 48000, &c, &err), EAR_E_STATE);
    ASSERT_STR_CONTAINS(err.message, "is a character device; it is never replaced");
}

TEST_MAIN(TEST_ENTRY(round_trip_bit_exact), TEST_ENTRY(mono_overwrites),
          TEST_ENTRY(unwritable_path), TEST_ENTRY(bad_arguments),
          TEST_ENTRY(planted_symlink_is_not_followed),
          TEST_ENTRY(a_foreign_file_is_kept_unless_asked),
          TEST_ENTRY(fifo_and_folder_are_refused_without_waiting))
