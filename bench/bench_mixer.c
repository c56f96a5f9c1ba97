/* SPDX-License-Identifier: Zlib */
/*
 * The mixer's costs, on W64's placement (bench/workload.h):
 *
 *  VIRT: 4096 voices of which 64 are real. The 64 loud ones are W64 voices; the other
 *  4032 play at a twentieth of their volume, so the voice manager keeps them virtual
 *  (their cursors move, nothing is rendered). The cost of one virtual voice is
 *  (render time with all 4096 - render time with the 64 alone) / 4032, against one real
 *  voice's render time / 64. Target: <= 0.05.
 *
 *  BLEND: 64 blend voices of three looping layers (each the voice's W64 sine, pitched
 *  by curves between 0.9 and 1.32, gains by equal-power curves over one parameter)
 *  against 64 plain W64 voices at the same places. Target: <= 3.5.
 *
 * Prints `VIRT N=4096 real=64 virtual_cost_over_real=<r>` and
 * `BLEND layers=3 cost_over_voice=<r>`, each the best of seven runs, interleaved.
 * Usage: bench_mixer [seconds]
 * EARSHOT_KERNEL=scalar or avx2 times that kernel instead of the default (the fastest), in
 * the same binary.
 */
#include "earshot/mixer.h"
#include "workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef enum kind { PLAIN, BLEND } kind;

static ear_kernel env_kernel(void) {
    const char *k = getenv("EARSHOT_KERNEL");
    if (k && strcmp(k, "scalar") == 0) return EAR_KERNEL_SCALAR;
    if (k && strcmp(k, "avx2") == 0) return EAR_KERNEL_AVX2;
    return EAR_KERNEL_AUTO;
}

/* Renders `seconds` of `count` voices from w (the first `loud` at full volume, the rest
 * at 1/20), setting positions each 480-frame block; returns render seconds only. */
static double run(const w64_workload *w, uint32_t count, uint32_t loud, kind k, double seconds,
                  uint32_t max_voices) {
    ear_stage_config c = ear_stage_config_default();
    c.kernel = env_kernel();
    c.max_voices = max_voices;
    c.max_total_voices = count;
    c.max_blend_voices = k == BLEND ? count : 0;
    c.command_capacity = 16384;
    ear_stage *s = NULL;
    if (ear_stage_create(&c, &s) != EAR_OK) {
        fprintf(stderr, "bench_mixer: cannot create a stage for %u voices\n", count);
        exit(1);
    }
    /* W64's 64 clips, shared by every voice that plays the same tone. */
    uint32_t nclips = count < w->voices ? count : w->voices;
    ear_clip **clips = calloc(nclips, sizeof *clips);
    ear_voice_id *ids = calloc(count, sizeof *ids);
    for (uint32_t i = 0; i < nclips; i++)
        ear_clip_create(w->clips + (size_t)i * W64_CLIP_FRAMES, W64_CLIP_FRAMES, 1,
                        W64_SAMPLE_RATE, NULL, &clips[i]);
    if (k == BLEND) {
        /* Sixty definitions (the table holds 64); three layers of the voice's own clip
         * at rates near 1 stand for three recordings of an engine. */
        for (uint32_t i = 0; i < count; i++) {
            ear_blend_def d;
            memset(&d, 0, sizeof d);
            snprintf(d.name, sizeof d.name, "b%u", i % 60);
            if (i < 60) {
                d.param_count = 1;
                d.params[0] = (ear_blend_param){"rpm", 0, 1, 0.5f};
                d.layer_count = 3;
                for (uint32_t l = 0; l < 3; l++) {
                    d.layers[l].clip = clips[i % nclips];
                    d.layers[l].gain_count = 1;
                    d.layers[l].pitch_count = 1;
                    ear_curve *g = &d.layers[l].gain[0];
                    snprintf(g->param, sizeof g->param, "rpm");
                    g->count = 2;
                    g->x[0] = 0, g->x[1] = 1;
                    g->y[0] = l == 0 ? 1.0f : 0.0f, g->y[1] = l == 2 ? 1.0f : 0.3f;
                    g->shape = EAR_CURVE_EQUAL_POWER;
                    ear_curve *p = &d.layers[l].pitch[0];
                    snprintf(p->param, sizeof p->param, "rpm");
                    p->count = 2;
                    p->x[0] = 0, p->x[1] = 1;
                    /* Near unity, as an engine's recordings play. */
                    p->y[0] = 0.9f + 0.1f * (float)l, p->y[1] = (0.9f + 0.1f * (float)l) * 1.2f;
                }
                ear_stage_register_blend(s, &d);
            }
        }
    }
    for (uint32_t i = 0; i < count; i++) {
        w64_vec3 pos = w->positions[i % w->voices], vel = w->velocities[i % w->voices];
        ear_play p = {.looping = true, .placed = true};
        p.position = ear_vec3_make(pos.x, pos.y, pos.z);
        p.velocity = ear_vec3_make(vel.x, vel.y, vel.z);
        p.attenuation = (ear_attenuation){EAR_MODEL_INVERSE, W64_REF_DISTANCE_M,
                                          W64_MAX_DISTANCE_M, W64_ROLLOFF};
        p.volume = i < loud ? 1.0f : 0.05f;
        if (k == BLEND) {
            char name[EAR_NAME_MAX];
            snprintf(name, sizeof name, "b%u", i % 60);
            ear_stage_play_blend(s, name, &p, &ids[i]);
        } else {
            ear_stage_play(s, clips[i % nclips], &p, &ids[i]);
        }
    }
    float *buf = malloc(W64_BLOCK_FRAMES * 2 * sizeof *buf);
    uint32_t blocks = (uint32_t)(seconds * W64_SAMPLE_RATE / W64_BLOCK_FRAMES);
    ear_stage_render(s, buf, W64_BLOCK_FRAMES); /* warm-up */
    double render = 0;
    for (uint32_t b = 0; b < blocks; b++) {
        for (uint32_t i = 0; i < count; i++) {
            w64_vec3 pos = w->positions[i % w->voices], vel = w->velocities[i % w->voices];
            ear_stage_set_motion(s, ids[i], ear_vec3_make(pos.x, pos.y, pos.z),
                                 ear_vec3_make(vel.x, vel.y, vel.z));
        }
        double t0 = now_s();
        ear_stage_render(s, buf, W64_BLOCK_FRAMES);
        render += now_s() - t0;
    }
    ear_stage_stats st = ear_stage_get_stats(s);
    if (k == PLAIN && st.real_voices != (loud < max_voices ? loud : max_voices)) {
        fprintf(stderr, "bench_mixer: expected %u real voices, the stage rendered %u\n", loud,
                st.real_voices);
        exit(1);
    }
    free(buf);
    ear_stage_destroy(s);
    for (uint32_t i = 0; i < nclips; i++) ear_clip_release(clips[i]);
    free(clips);
    free(ids);
    return render;
}

int main(int argc, char **argv) {
    double seconds = argc > 1 ? atof(argv[1]) : 2.0;
    if (!(seconds > 0.0)) seconds = 2.0;
    w64_workload w;
    if (w64_workload_init(&w, 64) != 0) return 1;
    w64_workload_at(&w, 0.0);

    double best_real = 1e30, best_all = 1e30;
    for (int r = 0; r < 7; r++) {
        double a = run(&w, 64, 64, PLAIN, seconds, 64);
        double b = run(&w, 4096, 64, PLAIN, seconds, 64);
        best_real = a < best_real ? a : best_real;
        best_all = b < best_all ? b : best_all;
    }
    double per_real = best_real / 64.0, per_virtual = (best_all - best_real) / 4032.0;
    printf(
        "# VIRT render seconds: 64 real alone %.4f, with 4032 virtual %.4f (%.1f s of audio)\n",
        best_real, best_all, seconds);
    printf("VIRT N=4096 real=64 virtual_cost_over_real=%.4f\n", per_virtual / per_real);

    double best_plain = 1e30, best_blend = 1e30;
    for (int r = 0; r < 7; r++) {
        double a = run(&w, 64, 64, PLAIN, seconds, 64);
        double b = run(&w, 64, 64, BLEND, seconds, 64);
        best_plain = a < best_plain ? a : best_plain;
        best_blend = b < best_blend ? b : best_blend;
    }
    printf("# BLEND render seconds: 64 plain voices %.4f, 64 three-layer blends %.4f\n",
           best_plain, best_blend);
    printf("BLEND layers=3 cost_over_voice=%.3f\n", best_blend / best_plain);
    w64_workload_deinit(&w);
    return 0;
}
