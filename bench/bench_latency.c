/* SPDX-License-Identifier: Zlib */
/*
 * bench_latency: the time from a call to its sound, counted in the frames the device's
 * callback has taken, never by the wall clock.
 *
 *   bench_latency [trials]          default: 40 calls per buffer size
 *
 * The stage plays through the device module on SDL's "disk" audio driver, which runs the
 * callback in real time (one buffer, then a sleep of the buffer's length) and writes every
 * frame the callback rendered to a file: the file is the device's output, frame for frame.
 * At moments spread over the callback's period (sleeps of 7..37 ms from a fixed sequence),
 * the game thread reads H, the frames the callbacks have taken so far
 * (ear_device_get_stats), and plays a one-frame click at full volume. Afterwards the file
 * says at which output frame F each click came out: F - H frames passed between the call
 * and the sound leaving the callback (the wait for the next control block, the output
 * limiter's lookahead). A real device then plays what the callback gave it after what it
 * already holds: up to one buffer more (SDL's double buffer; a sound server or the
 * hardware can add their own, which no program sees). So:
 *
 *   best  = min(F - H)           the call came just before the callback took the block
 *   mean  = mean(F - H) + B / 2  the buffer being played is half done on average
 *   worst = max(F - H) + B       the call came just after a buffer started playing
 *
 * for each buffer size B, from the device's default down to the smallest it accepts (64).
 * The last line is the one a script reads, at the default:
 *
 *   latency frames=<worst> ms=<worst in ms> mean_frames=<n> buffer=<B> rate=<Hz>
 */
#define _POSIX_C_SOURCE 200809L

#include "earshot/device.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct latency {
    uint32_t buffer;
    uint32_t rate;
    uint32_t limiter;
    uint32_t bound_best, bound_worst; /* ear_device_get_latency: the bounds the device says */
    int64_t best, worst_seen, sum;
    int found;
} latency;

static void nap_ms(long ms) {
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

/* One buffer size: `trials` clicks; 0, or 1 with a message. */
static int measure(uint32_t buffer, int trials, latency *out) {
    char path[] = "/tmp/earshot-latency-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) return perror("bench_latency: mkstemp"), 1;
    close(fd);
    setenv("SDL_AUDIODRIVER", "disk", 1);
    setenv("SDL_DISKAUDIOFILE", path, 1);

    ear_stage *stage;
    ear_stage_config sc = ear_stage_config_default();
    if (ear_stage_create(&sc, &stage) != EAR_OK)
        return fputs("bench_latency: stage\n", stderr), 1;
    float one[2] = {1.0f, 1.0f};
    ear_clip *click;
    if (ear_clip_create(one, 1, 2, sc.sample_rate, NULL, &click) != EAR_OK) return 1;
    ear_device_config dc = ear_device_config_default();
    dc.buffer_frames = buffer;
    ear_device *dev;
    if (ear_device_open(stage, &dc, &dev) != EAR_OK ||
        ear_device_get_state(dev) != EAR_DEVICE_PLAYING) {
        fputs("bench_latency: SDL's disk audio driver did not open\n", stderr);
        return 1;
    }
    uint64_t *h = calloc((size_t)trials, sizeof *h);
    if (!h) return 1;
    nap_ms(60); /* the first callbacks */
    uint32_t seq = 12345u;
    for (int i = 0; i < trials; i++) {
        seq = seq * 1103515245u + 12345u;
        nap_ms(7 + (long)((seq >> 16) % 31u));
        ear_device_update(dev);
        h[i] = ear_device_get_stats(dev).frames;
        ear_play p = {.volume = 1.0f, .pitch = 1.0f};
        ear_voice_id id;
        if (ear_stage_play(stage, click, &p, &id) != EAR_OK) return 1;
        /* The next click no sooner than this one is out, so each is found alone. */
        nap_ms(1 + (long)(2u * buffer * 1000u / sc.sample_rate));
    }
    nap_ms(60 + (long)(2u * buffer * 1000u / sc.sample_rate));
    ear_device_stats st = ear_device_get_stats(dev);
    out->limiter = ear_stage_latency_frames(stage);
    ear_stage_call_latency bound = ear_device_get_latency(dev);
    out->bound_best = bound.best_frames;
    out->bound_worst = bound.worst_frames;
    ear_device_close(dev);
    ear_clip_release(click);
    ear_stage_destroy(stage);

    FILE *f = fopen(path, "rb");
    if (!f) return perror(path), 1;
    fseek(f, 0, SEEK_END);
    long bytes = ftell(f);
    fseek(f, 0, SEEK_SET);
    size_t frames = (size_t)bytes / (2 * sizeof(float));
    float *pcm = malloc(frames * 2 * sizeof(float) + 1);
    if (!pcm || fread(pcm, 2 * sizeof(float), frames, f) != frames) return 1;
    fclose(f);
    remove(path);

    out->buffer = st.buffer_frames;
    out->rate = st.sample_rate;
    out->best = INT64_MAX;
    out->worst_seen = 0;
    out->sum = 0;
    out->found = 0;
    size_t from = 0;
    for (int i = 0; i < trials; i++) {
        size_t at = h[i] > from ? (size_t)h[i] : from;
        while (at < frames && fabsf(pcm[2 * at]) < 1e-3f) at++;
        if (at >= frames) break;
        int64_t d = (int64_t)at - (int64_t)h[i];
        if (d < out->best) out->best = d;
        if (d > out->worst_seen) out->worst_seen = d;
        out->sum += d;
        out->found++;
        from = at + 1;
        while (from < frames && fabsf(pcm[2 * from]) >= 1e-3f) from++;
    }
    free(pcm);
    free(h);
    if (out->found != trials) {
        fprintf(stderr, "bench_latency: %d of %d clicks found at %u frames\n", out->found,
                trials, buffer);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv) {
    int trials = argc > 1 ? atoi(argv[1]) : 40;
    if (trials < 1 || trials > 10000)
        return fputs("usage: bench_latency [trials]\n", stderr), 2;
    uint32_t def = ear_device_config_default().buffer_frames;
    uint32_t sizes[] = {def, 512, 256, 128, 64};
    printf(
        "# bench_latency: from ear_stage_play to the sound at the output, SDL's disk driver, "
        "%d calls each\n",
        trials);
    printf("%-8s %8s %10s %10s %10s %10s %10s %9s %13s\n", "buffer", "limiter", "best_fr",
           "mean_fr", "worst_fr", "best_ms", "mean_ms", "worst_ms", "bounds_fr");
    latency at_default = {0};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        if (i > 0 && sizes[i] == def) continue; /* the default is measured first */
        latency l;
        if (measure(sizes[i], trials, &l)) return 1;
        double mean = (double)l.sum / l.found + l.buffer / 2.0;
        int64_t worst = l.worst_seen + l.buffer;
        double ms = 1000.0 / l.rate;
        /* the device's own bounds beside what was measured: a measurement outside them
         * is said (a call made while a callback rendered can come out a block sooner) */
        bool inside = l.best >= l.bound_best && worst <= l.bound_worst;
        printf("%-8u %8u %10" PRId64 " %10.0f %10" PRId64 " %10.2f %10.2f %9.2f %6u..%-6u%s\n",
               l.buffer, l.limiter, l.best, mean, worst, (double)l.best * ms, mean * ms,
               (double)worst * ms, l.bound_best, l.bound_worst, inside ? "" : " outside");
        if (i == 0) at_default = l;
    }
    double ms = 1000.0 / at_default.rate;
    int64_t worst = at_default.worst_seen + at_default.buffer;
    printf("latency frames=%" PRId64 " ms=%.2f mean_frames=%.0f buffer=%u rate=%u\n", worst,
           (double)worst * ms,
           (double)at_default.sum / at_default.found + at_default.buffer / 2.0,
           at_default.buffer, at_default.rate);
    return 0;
}
