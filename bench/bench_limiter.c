/* SPDX-License-Identifier: Zlib */
/*
 * What the output limiter costs: workload W64 (bench/workload.h) at N voices on the stage,
 * rendered with the limiter off and on, alternately (off, on, on, off, ...), each the best
 * of the repetitions; prints each side's time per second of output and the ratio on / off.
 * The limiter's own work does not depend on N (one pass over each block's output), so the
 * ratio is largest at small N.
 *
 * Usage: bench_limiter [seconds per run, 2] [N, 64] [repetitions, 7]
 *        bench_limiter count off|on [N] [blocks]   (one render, for callgrind's
 *                                                  --toggle-collect=run_scene)
 * Not part of CI: a loaded machine moves the times (the counts stay put).
 */
#define _POSIX_C_SOURCE 200809L
#include "earshot/stage.h"
#include "workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__GNUC__)
#define MEASURED __attribute__((noinline))
#else
#define MEASURED
#endif

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static ear_vec3 v3(w64_vec3 v) {
    return ear_vec3_make(v.x, v.y, v.z);
}

/* The limiter's lowest gain over the last run_scene, dB. */
static float lowest_db;

/* W64 for `blocks` 480-frame blocks; returns the render time and a checksum. */
MEASURED static double run_scene(w64_workload *w, bool limiter, uint32_t blocks, float *sum) {
    ear_stage_config c = ear_stage_config_default();
    c.max_voices = c.max_total_voices = w->voices;
    c.command_capacity = 16384;
    c.limiter.enabled = limiter;
    ear_stage *s = NULL;
    if (ear_stage_create(&c, &s) != EAR_OK) return -1.0;
    ear_voice_id *ids = calloc(w->voices, sizeof *ids);
    w64_workload_at(w, 0.0);
    for (uint32_t i = 0; i < w->voices; i++) {
        ear_clip *clip = NULL;
        ear_clip_create(w->clips + (size_t)i * W64_CLIP_FRAMES, W64_CLIP_FRAMES, 1,
                        W64_SAMPLE_RATE, NULL, &clip);
        ear_play p = {.looping = true, .placed = true};
        p.position = v3(w->positions[i]);
        p.velocity = v3(w->velocities[i]);
        p.attenuation = (ear_attenuation){EAR_MODEL_INVERSE, W64_REF_DISTANCE_M,
                                          W64_MAX_DISTANCE_M, W64_ROLLOFF};
        ear_stage_play(s, clip, &p, &ids[i]);
        ear_clip_release(clip);
    }
    static float out[W64_BLOCK_FRAMES * 2];
    double t = 0;
    float acc = 0;
    lowest_db = 0.0f;
    for (uint32_t b = 0; b < blocks; b++) {
        w64_workload_at(w, (double)b * W64_BLOCK_FRAMES / W64_SAMPLE_RATE);
        double t0 = now_s();
        for (uint32_t i = 0; i < w->voices; i++)
            ear_stage_set_motion(s, ids[i], v3(w->positions[i]), v3(w->velocities[i]));
        ear_stage_render(s, out, W64_BLOCK_FRAMES);
        t += now_s() - t0;
        acc += out[b % (W64_BLOCK_FRAMES * 2)];
        float g = ear_stage_limiter_gain_db(s);
        if (g < lowest_db) lowest_db = g;
    }
    *sum += acc;
    ear_stage_destroy(s);
    free(ids);
    return t;
}

int main(int argc, char **argv) {
    if (argc > 2 && strcmp(argv[1], "count") == 0) {
        bool on = strcmp(argv[2], "on") == 0;
        uint32_t n = argc > 3 ? (uint32_t)strtoul(argv[3], NULL, 10) : 64;
        uint32_t blocks = argc > 4 ? (uint32_t)strtoul(argv[4], NULL, 10) : 200;
        w64_workload w;
        if (w64_workload_init(&w, n) != 0) return 1;
        float sum = 0;
        run_scene(&w, on, blocks, &sum);
        printf("limiter %s: checksum %g, lowest gain %.2f dB\n", on ? "on" : "off", (double)sum,
               (double)lowest_db);
        w64_workload_deinit(&w);
        return 0;
    }
    double seconds = argc > 1 ? strtod(argv[1], NULL) : 2.0;
    uint32_t n = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 10) : 64;
    int reps = argc > 3 ? atoi(argv[3]) : 7;
    uint32_t blocks = (uint32_t)(seconds * W64_SAMPLE_RATE / W64_BLOCK_FRAMES);
    w64_workload w;
    if (w64_workload_init(&w, n) != 0) return 1;
    double best[2] = {1e30, 1e30};
    float sum = 0;
    for (int r = 0; r < reps; r++)
        for (int k = 0; k < 2; k++) {
            bool on = (k ^ (r & 1)) != 0; /* off on, on off, ... */
            double t = run_scene(&w, on, blocks, &sum);
            if (t >= 0 && t < best[on]) best[on] = t;
        }
    double per_s = (double)blocks * W64_BLOCK_FRAMES / W64_SAMPLE_RATE;
    printf("W64 N=%u, %.1f s of output, best of %d alternating runs:\n", n, per_s, reps);
    printf("  limiter off: %.3f ms per second of output\n", best[0] / per_s * 1e3);
    printf("  limiter on:  %.3f ms per second of output\n", best[1] / per_s * 1e3);
    printf("  on / off: %.4f (the limiter: %.3f ms per second of output)\n", best[1] / best[0],
           (best[1] - best[0]) / per_s * 1e3);
    printf("  (checksum %g)\n", (double)sum);
    w64_workload_deinit(&w);
    return 0;
}
