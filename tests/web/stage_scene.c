/*
 * A fixed scene on the stage's scalar kernel, for the web build's determinism test and
 * its speed page. The same file is built natively (tests/web) and with emcc (web/):
 *
 *     stage_scene hash     prints "hash <16 hex digits> frames <n>": the FNV-1a hash of
 *                          the bits of 3 s of output (a doppler horn far away, a looping
 *                          square behind the listener whose pitch changes, seeded noise
 *                          occluded on the music bus that stops with a fade, a sweep
 *                          with an envelope, rendered in uneven chunks)
 *     stage_scene bench V S  prints "ns_per_voice_frame <x> voices <V> seconds <S>":
 *                          V looping placed voices rendered for S seconds of audio,
 *                          best of 3 runs (the machine may be loaded)
 *
 * The page calls the same two functions through ear_web_scene_hash and
 * ear_web_scene_bench (web/page/bench.html and the tests).
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include "earshot/stage.h"
#include "earshot/synth.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#define EXPORT EMSCRIPTEN_KEEPALIVE
#else
#define EXPORT
#endif

#define RATE 48000u

static ear_stage *scalar_stage(void) {
    ear_stage_config c = ear_stage_config_default();
    c.kernel = EAR_KERNEL_SCALAR;
    ear_stage *s = NULL;
    if (ear_stage_create(&c, &s) != EAR_OK) return NULL;
    return s;
}

static ear_clip *clip(ear_waveform w, float hz, float end_hz, float seconds, bool envelope) {
    ear_synth syn = {.waveform = w,
                     .frequency_hz = hz,
                     .end_frequency_hz = end_hz,
                     .seconds = seconds,
                     .amplitude = 0.4f,
                     .seed = 7};
    if (envelope) {
        syn.envelope.attack_s = 0.05f;
        syn.envelope.release_s = 0.2f;
    }
    ear_clip *c = NULL;
    if (ear_synth_clip(&syn, NULL, &c) != EAR_OK) return NULL;
    return c;
}

static uint64_t fnv(uint64_t h, const float *x, size_t n) {
    for (size_t i = 0; i < n; i++) {
        uint32_t u;
        memcpy(&u, &x[i], sizeof u);
        for (int b = 0; b < 4; b++) {
            h ^= (u >> (8 * b)) & 0xffu;
            h *= 0x100000001b3ull;
        }
    }
    return h;
}

uint64_t ear_web_scene_hash(void);
double ear_web_scene_bench(int voices, double seconds);

/* 3 s of the fixed scene; 0 when something could not be made. */
EXPORT uint64_t ear_web_scene_hash(void) {
    ear_stage *st = scalar_stage();
    ear_clip *horn = clip(EAR_WAVE_SINE, 440, 0, 1, false);
    ear_clip *square = clip(EAR_WAVE_SQUARE, 220, 0, 0.5f, false);
    ear_clip *noise = clip(EAR_WAVE_NOISE, 0, 0, 1, false);
    ear_clip *sweep = clip(EAR_WAVE_SAW, 200, 1600, 1.5f, true);
    uint64_t h = 0;
    if (!st || !horn || !square || !noise || !sweep) goto done;
    ear_voice_id v_horn = 0, v_square = 0, v_noise = 0, v_sweep = 0;
    ear_play p_horn = {
        .looping = true, .placed = true, .position = {-60, 0, 5}, .velocity = {30, 0, 0}};
    ear_play p_square = {
        .looping = true, .placed = true, .position = {0, 0, -4}, .volume = 0.5f};
    ear_play p_noise = {.looping = true,
                        .placed = true,
                        .position = {3, 1, 2},
                        .occlusion = 0.7f,
                        .bus = EAR_BUS_MUSIC};
    ear_play p_sweep = {.placed = false, .pan = -0.4f, .pitch = 1.25f};
    ear_stage_play(st, horn, &p_horn, &v_horn);
    ear_stage_play(st, square, &p_square, &v_square);
    ear_stage_play(st, noise, &p_noise, &v_noise);
    ear_stage_play(st, sweep, &p_sweep, &v_sweep);
    static float out[2 * 4800];
    h = 0xcbf29ce484222325ull;
    for (int chunk = 0; chunk < 30; chunk++) { /* 30 chunks of 0.1 s */
        /* Not here yet: moving a voice, the listener or an occlusion while it plays.
         * Those paths call tanf, acosf, sinf/cosf and exp with changing arguments, and
         * glibc (whose x86-64 builds pick FMA variants at run time) and emscripten's musl
         * round some of those differently in the last bit (docs/web.md, "Bit for
         * bit"): the stage needs its own portable versions first (noted for the lead). */
        if (chunk == 12) ear_stage_set_pitch(st, v_square, 1.5f);
        if (chunk == 18) ear_stage_stop(st, v_noise, 0.3f);
        /* Uneven render sizes: the stage's output does not depend on the chunking. */
        uint32_t first = 1000 + (uint32_t)(chunk * 37) % 1500;
        ear_stage_render(st, out, first);
        h = fnv(h, out, (size_t)first * 2);
        ear_stage_render(st, out, 4800 - first);
        h = fnv(h, out, (size_t)(4800 - first) * 2);
    }
done:
    ear_clip_release(horn);
    ear_clip_release(square);
    ear_clip_release(noise);
    ear_clip_release(sweep);
    ear_stage_destroy(st);
    return h;
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Nanoseconds per voice-frame of `voices` placed looping voices (best of 3); < 0 when
 * the stage could not be made. */
EXPORT double ear_web_scene_bench(int voices, double seconds) {
    if (voices < 1 || voices > 64 || !(seconds > 0)) return -1;
    double best = -1;
    for (int run = 0; run < 3; run++) {
        ear_stage *st = scalar_stage();
        ear_clip *c = clip(EAR_WAVE_SAW, 110, 0, 1, false);
        if (!st || !c) {
            ear_clip_release(c);
            ear_stage_destroy(st);
            return -1;
        }
        for (int i = 0; i < voices; i++) {
            ear_play p = {.looping = true,
                          .placed = true,
                          .pitch = 1.0f + 0.01f * (float)i,
                          .position = {(float)(i % 8) - 4, 0, (float)(i / 8) + 1}};
            ear_stage_play(st, c, &p, NULL);
        }
        static float out[2 * 1024];
        uint64_t total = (uint64_t)(seconds * RATE), done = 0;
        double t0 = now_s();
        while (done < total) {
            uint32_t n = total - done < 1024 ? (uint32_t)(total - done) : 1024;
            ear_stage_render(st, out, n);
            done += n;
        }
        double ns = (now_s() - t0) * 1e9 / ((double)total * voices);
        if (best < 0 || ns < best) best = ns;
        ear_clip_release(c);
        ear_stage_destroy(st);
    }
    return best;
}

int main(int argc, char **argv) {
    if (argc >= 2 && strcmp(argv[1], "hash") == 0) {
        uint64_t h = ear_web_scene_hash();
        if (!h) {
            fprintf(stderr, "stage_scene: the scene could not be made\n");
            return 1;
        }
        printf("hash %016llx frames %u\n", (unsigned long long)h, 30u * 4800u);
        return 0;
    }
    if (argc >= 4 && strcmp(argv[1], "bench") == 0) {
        int voices = atoi(argv[2]);
        double seconds = atof(argv[3]);
        double ns = ear_web_scene_bench(voices, seconds);
        if (ns < 0) {
            fprintf(stderr, "stage_scene: bench needs 1..64 voices and seconds > 0\n");
            return 2;
        }
        printf("ns_per_voice_frame %.2f voices %d seconds %g\n", ns, voices, seconds);
        return 0;
    }
    if (argc >= 2 && strcmp(argv[1], "none") == 0) return 0; /* the page calls in itself */
    fprintf(stderr, "usage: stage_scene hash | stage_scene bench VOICES SECONDS\n");
    return 2;
}
