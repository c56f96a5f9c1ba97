/* SPDX-License-Identifier: Zlib */
/*
 * bench_io: how fast Earshot decodes music files, against sox decoding the same files in
 * the same run, and what share of real time the device callback spends rendering.
 *
 *   bench_io [seconds] [voices]       defaults: 60 s files, 256 voices
 *
 * Decoding. sox makes a stereo 44.1 kHz WAV of `seconds` seconds (a sweep on the left,
 * pink noise on the right, so neither codec has an easy time), then a FLAC and an Ogg
 * Vorbis file of it. Each file is decoded whole by ear_decode_file (into a clip of floats)
 * and by `sox <file> -t f32 /dev/null` (to raw floats, thrown away), three times each,
 * taking turns; the best time of each is reported. sox's time includes starting its
 * process (a few milliseconds, measured here as sox decoding a 10 ms file).
 *
 * The callback. A stage of `voices` real voices (placed, looping, moving, with doppler)
 * plays through the device on SDL's dummy driver, which runs the callback in real time
 * without a sound card, with 480-frame buffers (10 ms at 48 kHz) for 3 s. The device
 * measures each callback's render; the bench reports the mean and the largest as a share
 * of the buffer's 10 ms, and the same render offline for comparison.
 */
#define _POSIX_C_SOURCE 200809L

#include "earshot/decode.h"
#include "earshot/device.h"
#include "earshot/synth.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Runs a shell command quietly; its exit status. */
static int sh(const char *cmd) {
    char quiet[2200];
    snprintf(quiet, sizeof quiet, "%s >/dev/null 2>&1", cmd);
    return system(quiet);
}

static double time_sox(const char *path) {
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "sox '%s' -t f32 /dev/null", path);
    double t0 = now_s();
    if (sh(cmd) != 0) return -1;
    return now_s() - t0;
}

static double time_earshot(const char *path, uint64_t *frames) {
    ear_clip *clip = NULL;
    ear_io_error err;
    double t0 = now_s();
    if (ear_decode_file(path, NULL, &clip, &err) != EAR_OK) {
        fprintf(stderr, "%s\n", err.message);
        return -1;
    }
    double dt = now_s() - t0;
    *frames = ear_clip_frames(clip);
    ear_clip_release(clip);
    return dt;
}

static int bench_decode(const char *dir, double seconds) {
    char wav[512], tiny[512];
    snprintf(wav, sizeof wav, "%s/music.wav", dir);
    snprintf(tiny, sizeof tiny, "%s/tiny.flac", dir);
    char make_wav[1200], make_tiny[1200];
    snprintf(make_wav, sizeof make_wav,
             "sox -n -b 16 -r 44100 -c 2 '%s' synth %.3f sine 110-1760 pinknoise gain -8", wav,
             seconds);
    snprintf(make_tiny, sizeof make_tiny, "sox -n -r 44100 -c 2 '%s' synth 0.01 sine 440",
             tiny);
    if (sh(make_wav) != 0 || sh(make_tiny) != 0) {
        fprintf(stderr, "bench_io: sox could not make the files\n");
        return 1;
    }
    double sox_start = 1e9;
    for (int i = 0; i < 3; i++) {
        double t = time_sox(tiny);
        if (t >= 0 && t < sox_start) sox_start = t;
    }
    printf("# sox process start (decoding a 10 ms FLAC): %.1f ms\n", sox_start * 1e3);
    printf("%-6s %8s %12s %12s %10s %10s %8s\n", "format", "seconds", "earshot_ms", "sox_ms",
           "earshot_x", "sox_x", "ratio");
    const char *formats[] = {"flac", "ogg"};
    for (int f = 0; f < 2; f++) {
        char path[512];
        snprintf(path, sizeof path, "%s/music.%s", dir, formats[f]);
        char encode[1200];
        snprintf(encode, sizeof encode, "sox '%s' '%s'", wav, path);
        if (sh(encode) != 0) {
            fprintf(stderr, "bench_io: sox could not write %s\n", path);
            return 1;
        }
        double best_e = 1e9, best_s = 1e9;
        uint64_t frames = 0;
        for (int rep = 0; rep < 3; rep++) {
            double e = time_earshot(path, &frames);
            double s = time_sox(path);
            if (e < 0 || s < 0) return 1;
            if (e < best_e) best_e = e;
            if (s < best_s) best_s = s;
        }
        double audio_s = (double)frames / 44100.0;
        printf("%-6s %8.1f %12.1f %12.1f %10.0f %10.0f %8.2f\n", formats[f], audio_s,
               best_e * 1e3, best_s * 1e3, audio_s / best_e, audio_s / best_s, best_e / best_s);
    }
    return 0;
}

static int bench_callback(uint32_t voices) {
    setenv("SDL_AUDIODRIVER", "dummy", 1);
    ear_stage_config sc = ear_stage_config_default();
    sc.max_voices = voices;
    sc.max_total_voices = voices < 512 ? 512 : voices;
    ear_stage *stage;
    if (ear_stage_create(&sc, &stage) != EAR_OK) return 1;
    ear_clip *clips[4];
    for (int i = 0; i < 4; i++)
        if (ear_synth_clip(&(ear_synth){.waveform = i == 3 ? EAR_WAVE_NOISE : EAR_WAVE_ENGINE,
                                        .frequency_hz = 55.0f * (float)(i + 1),
                                        .seconds = 2,
                                        .seed = 9},
                           NULL, &clips[i]) != EAR_OK)
            return 1;
    for (uint32_t v = 0; v < voices; v++) {
        float a = 6.2831853f * (float)v / (float)voices;
        ear_play p = {.looping = true,
                      .placed = true,
                      .volume = 0.05f,
                      .position = {20.0f * cosf(a), 0.5f * (float)(v % 5), 20.0f * sinf(a)},
                      .velocity = {-8.0f * sinf(a), 0, 8.0f * cosf(a)},
                      .start_frame = (uint64_t)v * 97u};
        ear_voice_id id;
        if (ear_stage_play(stage, clips[v % 4], &p, &id) != EAR_OK) return 1;
    }
    for (int i = 0; i < 4; i++) ear_clip_release(clips[i]);

    /* Offline first: the same stage, 1 s in 480-frame calls on this thread. */
    float buf[2 * 480];
    double worst = 0, total = 0;
    int calls = 100;
    for (int i = 0; i < calls; i++) {
        double t0 = now_s();
        ear_stage_render(stage, buf, 480);
        double dt = now_s() - t0;
        total += dt;
        if (dt > worst) worst = dt;
    }
    printf(
        "# offline: %u voices, 480-frame render mean %.1f us (%.1f%% of 10 ms), max %.1f us\n",
        voices, total / calls * 1e6, total / calls / 0.01 * 100, worst * 1e6);

    ear_device_config dc = ear_device_config_default();
    dc.buffer_frames = 480;
    ear_device *dev;
    if (ear_device_open(stage, &dc, &dev) != EAR_OK ||
        ear_device_get_state(dev) != EAR_DEVICE_PLAYING) {
        fprintf(stderr, "bench_io: the dummy audio driver did not open\n");
        return 1;
    }
    double end = now_s() + 3.0;
    while (now_s() < end) {
        ear_device_update(dev);
        struct timespec nap = {0, 16000000L};
        nanosleep(&nap, NULL);
    }
    ear_device_stats st = ear_device_get_stats(dev);
    ear_device_close(dev);
    double block_s = (double)st.buffer_frames / st.sample_rate;
    double mean = st.callbacks ? (double)st.render_ns_total / (double)st.callbacks * 1e-9 : 0;
    double max = (double)st.render_ns_max * 1e-9;
    printf("%-8s %10s %12s %10s %12s %10s\n", "voices", "callbacks", "mean_us", "mean_share",
           "max_us", "max_share");
    printf("%-8u %10llu %12.1f %9.1f%% %12.1f %9.1f%%\n", voices,
           (unsigned long long)st.callbacks, mean * 1e6, mean / block_s * 100, max * 1e6,
           max / block_s * 100);
    ear_stage_destroy(stage);
    return st.callbacks > 0 ? 0 : 1;
}

int main(int argc, char **argv) {
    double seconds = argc > 1 ? atof(argv[1]) : 60.0;
    uint32_t voices = argc > 2 ? (uint32_t)atoi(argv[2]) : 256u;
    if (!(seconds > 0) || voices == 0) {
        fprintf(stderr, "usage: bench_io [seconds] [voices]\n");
        return 2;
    }
    char dir[] = "/tmp/earshot-bench-io-XXXXXX";
    if (!mkdtemp(dir)) return 1;
    printf("# bench_io: decoding %.0f s files, and the device callback at %u voices\n", seconds,
           voices);
    int status = bench_decode(dir, seconds);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "bench_io: could not remove %s\n", dir);
    if (status == 0) status = bench_callback(voices);
    return status;
}
