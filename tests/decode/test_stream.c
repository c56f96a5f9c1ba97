/* SPDX-License-Identifier: Zlib */
/*
 * Streamed music: a file decoded by its own thread into a ring, read by another thread
 * the way the mixer reads it on the audio thread. The stream gives the same samples as
 * decoding the whole file, loops by seeking to the start, never blocks the reader (a slow
 * decoder shows as a short read), and ends a truncated file with a logged error.
 * Labelled "threads": `make test-tsan` runs it under ThreadSanitizer.
 */
#define _POSIX_C_SOURCE 200809L

#include "earshot/decode.h"
#include "sox_util.h"
#include "test.h"

#include <math.h>
#include <pthread.h>
#include <time.h>

static char dir[256];

static const char *at(const char *name) {
    static char paths[8][512];
    static int next = 0;
    char *p = paths[next++ % 8];
    snprintf(p, 512, "%s/%s", dir, name);
    return p;
}

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void nap_ms(long ms) {
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

/* The reader, as the audio thread runs it: asks for `block` frames at a time and never
 * waits on the stream; when it gets fewer, it comes back later (as the next callback
 * would). Collects up to `want` frames. */
typedef struct reader {
    ear_stream stream;
    uint32_t block;
    uint64_t want;
    float *out;
    uint64_t got;
    double longest_read_s;
    bool ended;
} reader;

static void *read_main(void *arg) {
    reader *rd = arg;
    uint32_t ch = rd->stream.channels;
    double give_up = now_s() + 60.0;
    while (rd->got < rd->want && now_s() < give_up) {
        uint32_t ask = rd->block;
        if (rd->want - rd->got < ask) ask = (uint32_t)(rd->want - rd->got);
        double t0 = now_s();
        uint32_t n = rd->stream.read(rd->stream.user, rd->out + rd->got * ch, ask);
        double dt = now_s() - t0;
        if (dt > rd->longest_read_s) rd->longest_read_s = dt;
        rd->got += n;
        if (n < ask) {
            if (rd->stream.ended(rd->stream.user)) {
                rd->ended = true;
                break;
            }
            nap_ms(1);
        }
    }
    return NULL;
}

static void read_on_a_thread(reader *rd) {
    pthread_t t;
    if (pthread_create(&t, NULL, read_main, rd) != 0) return;
    pthread_join(t, NULL);
}

static void remove_files(void) {
    remove_tree(dir);
}

/* The files the tests read, made by sox in a scratch folder by the first test that names
 * them (SETUP_ONCE, so each test also runs alone) and removed when the process exits. */
static void make_files(void) {
    ASSERT_TRUE(scratch_dir(dir, sizeof dir, "stream"));
    atexit(remove_files);
    ASSERT_TRUE(run("sox -n -b 16 -r 44100 -c 2 '%s' synth 3 sine 440 sine 660 gain -6",
                    at("music.wav")));
    ASSERT_TRUE(run("sox '%s' '%s'", at("music.wav"), at("music.ogg")));
    ASSERT_TRUE(run("sox '%s' '%s'", at("music.wav"), at("music.flac")));
}

/* The whole file through the stream equals the whole file decoded at once. */
static void check_same_as_decode(const char *name) {
    ear_clip *clip = NULL;
    ASSERT_OK(ear_decode_file(at(name), NULL, &clip, NULL));
    uint64_t frames = ear_clip_frames(clip);
    ear_stream s;
    ear_io_error err;
    /* A small ring so that the decoder has to keep up with the reader. */
    ASSERT_OK(ear_file_stream_open(
        at(name), &(ear_file_stream_config){.buffer_s = 0.1f, .poll_ms = 1}, &s, &err));
    ASSERT_EQ(s.channels, ear_clip_channels(clip));
    ASSERT_EQ(s.sample_rate, ear_clip_sample_rate(clip));
    reader rd = {.stream = s, .block = 480, .want = frames + 1000};
    rd.out = calloc((size_t)rd.want * s.channels, sizeof(float));
    read_on_a_thread(&rd);
    ASSERT_TRUE(rd.ended);
    ASSERT_EQ(rd.got, frames);
    ASSERT_EQ(memcmp(rd.out, ear_clip_data(clip), (size_t)frames * s.channels * sizeof(float)),
              0);
    ear_file_stream_stats st;
    ASSERT_OK(ear_file_stream_get_stats(&s, &st));
    ASSERT_EQ(st.frames_decoded, frames);
    ASSERT_EQ(st.frames_read, frames);
    ASSERT_EQ(st.loops, 0);
    printf("  %s: %llu frames, %llu underruns, longest read %.1f us\n", name,
           (unsigned long long)frames, (unsigned long long)st.underruns,
           rd.longest_read_s * 1e6);
    s.release(s.user);
    free(rd.out);
    ear_clip_release(clip);
}

TEST(stream_equals_whole_decode_ogg) {
    SETUP_ONCE(make_files);
    check_same_as_decode("music.ogg");
}
TEST(stream_equals_whole_decode_flac) {
    SETUP_ONCE(make_files);
    check_same_as_decode("music.flac");
}

/* A float WAV may hold NaN and infinities. Whole decoding stores them as 0; the stream
 * must give the very same samples, or one bad file turns the music bus (and the mix after
 * it) into NaN. Found by fuzz_decode. */
/* Writes a mono 32-bit float WAV of `frames` samples at `rate`. */
static bool write_float_wav(const char *path, const float *samples, uint32_t frames,
                            uint32_t rate) {
    uint32_t data_bytes = frames * 4;
    uint8_t header[44];
    memcpy(header, "RIFF", 4);
    uint32_t riff = 36 + data_bytes, fmt_size = 16, byte_rate = rate * 4;
    uint16_t format = 3 /* IEEE float */, channels = 1, align = 4, bits = 32;
    memcpy(header + 4, &riff, 4);
    memcpy(header + 8, "WAVEfmt ", 8);
    memcpy(header + 16, &fmt_size, 4);
    memcpy(header + 20, &format, 2);
    memcpy(header + 22, &channels, 2);
    memcpy(header + 24, &rate, 4);
    memcpy(header + 28, &byte_rate, 4);
    memcpy(header + 32, &align, 2);
    memcpy(header + 34, &bits, 2);
    memcpy(header + 36, "data", 4);
    memcpy(header + 40, &data_bytes, 4);
    FILE *f = fopen(path, "wb");
    if (!f) return false;
    bool ok = fwrite(header, 1, sizeof header, f) == sizeof header &&
              fwrite(samples, 4, frames, f) == frames;
    return fclose(f) == 0 && ok;
}

TEST(non_finite_samples_stream_as_zero_like_decoding) {
    SETUP_ONCE(make_files);
    enum { FRAMES = 3000 };
    static float samples[FRAMES];
    for (int i = 0; i < FRAMES; i++) samples[i] = 0.25f;
    samples[10] = NAN;
    samples[1500] = INFINITY;
    samples[2999] = -INFINITY;
    ASSERT_TRUE(write_float_wav(at("nan.wav"), samples, FRAMES, 8000));

    ear_clip *clip = NULL;
    ASSERT_OK(ear_decode_file(at("nan.wav"), NULL, &clip, NULL));
    ASSERT_EQ(ear_clip_frames(clip), FRAMES);
    ASSERT_FLOAT_EQ(ear_clip_data(clip)[10], 0.0f);
    ASSERT_FLOAT_EQ(ear_clip_data(clip)[1500], 0.0f);
    ASSERT_FLOAT_EQ(ear_clip_data(clip)[11], 0.25f);
    ear_clip_release(clip);
    check_same_as_decode("nan.wav");
}

/* decode.h's range: a float file's samples come as stored, beyond 1 in magnitude too (a
 * float WAV's headroom: 2.0 and -3.0 here), in the clip, in the stream, and on the stage,
 * which plays them at their value (a flat voice at pan 0 and volume 0.25: 0.5 and -0.75 in
 * both channels, to the float's last bit); nothing is clamped and nothing is warned. */
TEST(float_samples_beyond_one_come_as_stored) {
    SETUP_ONCE(make_files);
    enum { FRAMES = 4800 };
    static float samples[FRAMES];
    for (int i = 0; i < FRAMES; i++) samples[i] = 0.25f;
    for (int i = 1000; i < 1100; i++) samples[i] = 2.0f;
    for (int i = 2000; i < 2100; i++) samples[i] = -3.0f;
    ASSERT_TRUE(write_float_wav(at("hot.wav"), samples, FRAMES, 48000));
    log_catcher c;
    start_catching(&c);
    ear_clip *clip = NULL;
    ASSERT_OK(ear_decode_file(at("hot.wav"), NULL, &clip, NULL));
    stop_catching();
    ASSERT_EQ(c.lines, 0);
    ASSERT_EQ(ear_clip_frames(clip), FRAMES);
    ASSERT_MEM_EQ(ear_clip_data(clip), samples, sizeof samples);
    check_same_as_decode("hot.wav");

    ear_stage *stage;
    ASSERT_OK(ear_stage_create(NULL, &stage));
    ear_play play = {.volume = 0.25f};
    ASSERT_OK(ear_stage_play(stage, clip, &play, NULL));
    static float out[2 * FRAMES];
    ASSERT_OK(ear_stage_render(stage, out, FRAMES));
    for (int ch = 0; ch < 2; ch++) {
        ASSERT_FLOAT_EQ(out[2 * 1050 + ch], 0.5f);
        ASSERT_FLOAT_EQ(out[2 * 2050 + ch], -0.75f);
        ASSERT_FLOAT_EQ(out[2 * 3000 + ch], 0.0625f);
    }
    ear_stage_destroy(stage);
    ear_clip_release(clip);
}

TEST(looping_seeks_to_the_start) {
    SETUP_ONCE(make_files);
    ear_clip *clip = NULL;
    ASSERT_OK(ear_decode_file(at("music.flac"), NULL, &clip, NULL));
    uint64_t frames = ear_clip_frames(clip);
    ear_stream s;
    ASSERT_OK(ear_file_stream_open(
        at("music.flac"), &(ear_file_stream_config){.loop = true, .buffer_s = 0.2f}, &s, NULL));
    reader rd = {.stream = s, .block = 441, .want = frames * 5 / 2};
    rd.out = calloc((size_t)rd.want * 2, sizeof(float));
    read_on_a_thread(&rd);
    ASSERT_FALSE(rd.ended);
    ASSERT_FALSE(s.ended(s.user));
    ASSERT_EQ(rd.got, rd.want);
    const float *ref = ear_clip_data(clip);
    /* Frame i of the stream is frame i mod length of the file, bit for bit. */
    for (uint64_t i = 0; i < rd.want * 2; i++) {
        uint64_t frame = i / 2;
        if (rd.out[i] != ref[(frame % frames) * 2 + i % 2]) {
            ASSERT_EQ(i, (uint64_t)-1);
        }
    }
    ear_file_stream_stats st;
    ASSERT_OK(ear_file_stream_get_stats(&s, &st));
    ASSERT_GE(st.loops, 2);
    s.release(s.user);
    free(rd.out);
    ear_clip_release(clip);
}

TEST(the_reader_never_waits) {
    SETUP_ONCE(make_files);
    /* Read far faster than real time: the ring runs dry and reads come back short (an
     * underrun) instead of waiting for the decoder. */
    ear_stream s;
    ASSERT_OK(ear_file_stream_open(
        at("music.ogg"), &(ear_file_stream_config){.buffer_s = 0.05f, .prefill_s = 0.01f}, &s,
        NULL));
    float buf[2 * 4096];
    double longest = 0;
    uint64_t total = 0;
    for (int i = 0; i < 2000 && !s.ended(s.user); i++) {
        double t0 = now_s();
        total += s.read(s.user, buf, 4096);
        double dt = now_s() - t0;
        if (dt > longest) longest = dt;
    }
    ear_file_stream_stats st;
    ASSERT_OK(ear_file_stream_get_stats(&s, &st));
    printf("  %llu frames in 2000 reads, %llu underruns, longest read %.1f us\n",
           (unsigned long long)total, (unsigned long long)st.underruns, longest * 1e6);
    /* Reads that came back short prove the reader did not wait for the decoder (a read
     * that waited would always be whole). The longest read is printed, not asserted: on a
     * loaded machine a copy can be preempted for milliseconds. */
    ASSERT_GT(st.underruns, 0);
    ASSERT_LT(total, (uint64_t)2000 * 4096);
    s.release(s.user);
}

TEST(errors_and_a_truncated_stream) {
    SETUP_ONCE(make_files);
    ear_stream s;
    ear_io_error err = {{0}};
    ASSERT_EQ(ear_file_stream_open(at("none.ogg"), NULL, &s, &err), EAR_E_NOT_FOUND);
    ASSERT_STR_CONTAINS(err.message, "none.ogg: no such file");
    /* A FLAC cut in half opens (its header is whole); decoding stops where the file
     * does, the decoder thread logs it, and the stream ends. */
    ASSERT_TRUE(copy_prefix(at("music.flac"), at("cut.flac"), file_size(at("music.flac")) / 2));
    log_catcher c;
    start_catching(&c);
    ASSERT_OK(ear_file_stream_open(at("cut.flac"), NULL, &s, &err));
    reader rd = {.stream = s, .block = 480, .want = 44100 * 3};
    rd.out = calloc((size_t)rd.want * 2, sizeof(float));
    read_on_a_thread(&rd);
    s.release(s.user);
    stop_catching();
    ASSERT_TRUE(rd.ended);
    ASSERT_LT(rd.got, rd.want);
    ASSERT_STR_CONTAINS(c.text, "cut.flac: decoding stopped");
    free(rd.out);
    ear_stream other = {0};
    ear_file_stream_stats st;
    ASSERT_EQ(ear_file_stream_get_stats(&other, &st), EAR_E_INVALID_ARG);
}

TEST_MAIN(TEST_ENTRY(stream_equals_whole_decode_ogg),
          TEST_ENTRY(stream_equals_whole_decode_flac),
          TEST_ENTRY(non_finite_samples_stream_as_zero_like_decoding),
          TEST_ENTRY(float_samples_beyond_one_come_as_stored),
          TEST_ENTRY(looping_seeks_to_the_start), TEST_ENTRY(the_reader_never_waits),
          TEST_ENTRY(errors_and_a_truncated_stream))
