/* SPDX-License-Identifier: Zlib */
/*
 * The data of workload W64 (see workload.h): one 1 s sine clip per voice, computed
 * with plain libm in double precision and stored as float, so both engines read the
 * very same samples; and each voice's straight path along the tangent of the 10 m
 * circle. Positions are a pure function of time: p_i(t) = start_i + velocity_i * t.
 */
#include "workload.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

double w64_frequency_hz(uint32_t i, uint32_t n) {
    if (n < 2) return 220.0;
    return 220.0 + 660.0 * (double)i / (double)(n - 1);
}

int w64_workload_init(w64_workload *w, uint32_t n) {
    const double two_pi = 6.283185307179586;
    w->voices = n;
    w->clips = malloc((size_t)n * W64_CLIP_FRAMES * sizeof(float));
    w->start_m = malloc((size_t)n * sizeof(w64_vec3));
    w->velocity = malloc((size_t)n * sizeof(w64_vec3));
    w->positions = malloc((size_t)n * sizeof(w64_vec3));
    w->velocities = malloc((size_t)n * sizeof(w64_vec3));
    if (!w->clips || !w->start_m || !w->velocity || !w->positions || !w->velocities) {
        w64_workload_deinit(w);
        return -1;
    }
    for (uint32_t i = 0; i < n; i++) {
        double f = w64_frequency_hz(i, n);
        float *clip = w->clips + (size_t)i * W64_CLIP_FRAMES;
        for (uint32_t k = 0; k < W64_CLIP_FRAMES; k++) {
            clip[k] = (float)(W64_AMPLITUDE * sin(two_pi * f * (double)k / W64_SAMPLE_RATE));
        }
        double angle = two_pi * (double)i / (double)n;
        double c = cos(angle), s = sin(angle);
        w->start_m[i] = (w64_vec3){(float)(W64_CIRCLE_RADIUS_M * c), 0.0f,
                                   (float)(W64_CIRCLE_RADIUS_M * s)};
        /* The tangent of the circle at the start point, counter-clockwise seen from +Y. */
        w->velocity[i] =
            (w64_vec3){(float)(-W64_SPEED_MPS * s), 0.0f, (float)(W64_SPEED_MPS * c)};
    }
    w64_workload_at(w, 0.0);
    return 0;
}

void w64_workload_deinit(w64_workload *w) {
    free(w->clips);
    free(w->start_m);
    free(w->velocity);
    free(w->positions);
    free(w->velocities);
    w->clips = NULL;
    w->start_m = w->velocity = w->positions = w->velocities = NULL;
    w->voices = 0;
}

void w64_workload_at(w64_workload *w, double t_s) {
    float t = (float)t_s;
    for (uint32_t i = 0; i < w->voices; i++) {
        w64_vec3 p = w->start_m[i], v = w->velocity[i];
        w->positions[i] = (w64_vec3){p.x + v.x * t, p.y + v.y * t, p.z + v.z * t};
        w->velocities[i] = v;
    }
}

int w64_s16(void) {
    const char *v = getenv("W64_S16");
    return v && v[0] && strcmp(v, "0") != 0;
}

int w64_hrtf(void) {
    const char *v = getenv("W64_HRTF");
    return v && v[0] && strcmp(v, "0") != 0;
}

int w64_no_cue(void) {
    const char *v = getenv("W64_NO_CUE");
    return v && v[0] && strcmp(v, "0") != 0;
}
