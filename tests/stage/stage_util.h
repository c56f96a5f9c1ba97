/* SPDX-License-Identifier: Zlib */
/*
 * Helpers shared by the stage tests: clips made with plain libm (so the stage's tests
 * do not depend on the synth), one-call renders and per-channel measurements.
 */
#ifndef EAR_TEST_STAGE_UTIL_H
#define EAR_TEST_STAGE_UTIL_H

#include "earshot/analysis.h"
#include "earshot/stage.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PI_D 3.14159265358979323846
#define RATE 48000u

/* A mono sine clip; phase computed in double. */
static inline ear_clip *sine_clip(double hz, double seconds, uint32_t rate, float amp) {
    uint64_t n = (uint64_t)llround(seconds * rate);
    float *s = malloc(n * sizeof *s);
    for (uint64_t i = 0; i < n; i++)
        s[i] = amp * (float)sin(2.0 * PI_D * hz * (double)i / rate);
    ear_clip *c = NULL;
    if (ear_clip_create(s, n, 1, rate, NULL, &c) != EAR_OK) c = NULL;
    free(s);
    return c;
}

/* A mono clip of seeded white noise, uniform in [-amp, amp]. */
static inline ear_clip *noise_clip(double seconds, uint32_t rate, float amp, uint64_t seed) {
    uint64_t n = (uint64_t)llround(seconds * rate);
    float *s = malloc(n * sizeof *s);
    ear_rng rng;
    ear_rng_seed(&rng, seed);
    for (uint64_t i = 0; i < n; i++) s[i] = ear_rng_range(&rng, -amp, amp);
    ear_clip *c = NULL;
    if (ear_clip_create(s, n, 1, rate, NULL, &c) != EAR_OK) c = NULL;
    free(s);
    return c;
}

/* The kernel the tests ask for: EARSHOT_KERNEL=scalar, avx2 or avx512 in the environment (CTest
 * runs each stage test once with scalar), else the default. */
static inline ear_kernel test_kernel(void) {
    const char *k = getenv("EARSHOT_KERNEL");
    if (k && strcmp(k, "scalar") == 0) return EAR_KERNEL_SCALAR;
    if (k && strcmp(k, "avx2") == 0) return EAR_KERNEL_AVX2;
    if (k && strcmp(k, "avx512") == 0) return EAR_KERNEL_AVX512;
    return EAR_KERNEL_AUTO;
}

static inline ear_stage *new_stage(void) {
    ear_stage_config c = ear_stage_config_default();
    c.kernel = test_kernel();
    ear_stage *s = NULL;
    if (ear_stage_create(&c, &s) != EAR_OK) return NULL;
    return s;
}

/* Renders `frames` stereo frames into a new buffer (free it). */
static inline float *render(ear_stage *s, uint32_t frames) {
    float *out = malloc((size_t)frames * 2 * sizeof *out);
    if (ear_stage_render(s, out, frames) != EAR_OK) {
        free(out);
        return NULL;
    }
    return out;
}

/* A placed voice's play parameters with no attenuation, doppler or cue unless asked. */
static inline ear_play placed_at(float x, float y, float z) {
    ear_play p = {0};
    p.placed = true;
    p.looping = true;
    p.position = ear_vec3_make(x, y, z);
    return p;
}

#endif
