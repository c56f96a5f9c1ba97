/* SPDX-License-Identifier: Zlib */
/*
 * The stage alone, untimed: fixed scenes rendered for a fixed number of blocks, each
 * printed with a 64-bit FNV-1a hash of its output bytes. Two uses:
 *
 *  - the record that a change which should not move a sample moved none
 *    (`bench_stage hash` before and after; EARSHOT_KERNEL=scalar or avx2 for those kernels);
 *  - the workload under callgrind for `make bench-compare MODE=callgrind`, whose
 *    instruction counts stay put while the machine is loaded (`bench_stage w64 256 200`).
 *
 * Scenes (all on W64's placement, bench/workload.h):
 *  w64 N:    W64 itself: N placed looping voices moving on the circle, positions and
 *            velocities set every 480-frame block.
 *  virt:     4096 voices of which 64 are loud (the rest at 1/20: virtual), as bench_mixer.
 *  blend:    64 three-layer blends with a parameter swept, as bench_mixer.
 *  features: flat and placed voices, cones, occlusion, pools, ducks, bus fades and mutes,
 *            stops, one-shots, events, a moving listener and the master gain.
 *  w64h N:   W64 with every voice through the KEMAR set of libmysofa1 at 128 taps (the
 *            W64H benchmark's stage: ear_stage_set_spatializer(HRTF)); only its blocks are
 *            counted (w64h_blocks: callgrind --toggle-collect=w64h_blocks), not the set's
 *            loading or the bank's making. `bench_stage hash-hrtf` prints its hashes.
 *
 * W64_S16=1 in the environment stores the W64 scenes' clips as 16 bits (EAR_CLIP_S16), where
 * the stage has 16-bit clips.
 *
 * Usage: bench_stage hash | hash-hrtf | bench_stage <scene> [N] [blocks]
 * Only the public API is used, so the same file builds against older revisions; the HRTF
 * scenes only where the build defines BENCH_STAGE_HRTF (and links earshot_hrtf).
 */
#include "earshot/mixer.h"
#include "workload.h"

#if defined(BENCH_STAGE_HRTF)
#include "earshot/hrtf.h"
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The scenes' functions are what callgrind counts (--toggle-collect), so they must stay
 * functions under link-time optimisation. */
#if defined(__GNUC__)
#define MEASURED __attribute__((noinline))
#else
#define MEASURED
#endif

static uint64_t fnv(uint64_t h, const void *data, size_t bytes) {
    const unsigned char *p = data;
    for (size_t i = 0; i < bytes; i++) h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

/* EARSHOT_KERNEL=scalar or avx2 in the environment; else the default (the fastest). */
static ear_kernel env_kernel(void) {
    const char *k = getenv("EARSHOT_KERNEL");
    if (k && strcmp(k, "scalar") == 0) return EAR_KERNEL_SCALAR;
    if (k && strcmp(k, "avx2") == 0) return EAR_KERNEL_AVX2;
    return EAR_KERNEL_AUTO;
}

static ear_stage *make_stage(uint32_t max_voices, uint32_t total, uint32_t blends) {
    ear_stage_config c = ear_stage_config_default();
    c.max_voices = max_voices;
    c.max_total_voices = total;
    c.max_blend_voices = blends;
    c.command_capacity = 16384;
    c.kernel = env_kernel();
    ear_stage *s = NULL;
    if (ear_stage_create(&c, &s) != EAR_OK) {
        fprintf(stderr, "bench_stage: cannot create a stage for %u voices\n", total);
        exit(1);
    }
    return s;
}

static ear_vec3 v3(w64_vec3 v) {
    return ear_vec3_make(v.x, v.y, v.z);
}

static ear_play placed_play(const w64_workload *w, uint32_t i, float volume) {
    ear_play p = {.looping = true, .placed = true, .no_behind_cue = w64_no_cue() != 0};
    p.position = v3(w->positions[i % w->voices]);
    p.velocity = v3(w->velocities[i % w->voices]);
    p.attenuation = (ear_attenuation){EAR_MODEL_INVERSE, W64_REF_DISTANCE_M, W64_MAX_DISTANCE_M,
                                      W64_ROLLOFF};
    p.volume = volume;
    return p;
}

/* A W64 clip, stored as 16 bits with W64_S16=1 where the stage has 16-bit clips (this
 * file is built against older stages too, by scripts/bench-compare). */
static void w64_clip_create(const float *samples, uint64_t frames, ear_clip **out) {
#ifdef EAR_CLIP_S16
    if (w64_s16()) {
        ear_clip_create_ex(samples, frames, 1, W64_SAMPLE_RATE, EAR_CLIP_S16, NULL, out);
        return;
    }
#endif
    ear_clip_create(samples, frames, 1, W64_SAMPLE_RATE, NULL, out);
}

/* Plays `count` voices (blends when `blend`), the first `loud` at full volume, and
 * renders `blocks` 480-frame blocks with every voice moved before each. */
MEASURED static uint64_t run_w64(const w64_workload *w, uint32_t count, uint32_t loud,
                                 bool blend, uint32_t max_voices, uint32_t blocks) {
    ear_stage *s = make_stage(max_voices, count, blend ? count : 0);
    uint32_t nclips = count < w->voices ? count : w->voices;
    ear_clip **clips = calloc(nclips, sizeof *clips);
    ear_voice_id *ids = calloc(count, sizeof *ids);
    for (uint32_t i = 0; i < nclips; i++)
        w64_clip_create(w->clips + (size_t)i * W64_CLIP_FRAMES, W64_CLIP_FRAMES, &clips[i]);
    if (blend) {
        for (uint32_t i = 0; i < 60 && i < count; i++) {
            ear_blend_def d;
            memset(&d, 0, sizeof d);
            snprintf(d.name, sizeof d.name, "b%u", i);
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
                p->y[0] = 0.9f + 0.1f * (float)l, p->y[1] = (0.9f + 0.1f * (float)l) * 1.2f;
            }
            ear_stage_register_blend(s, &d);
        }
    }
    for (uint32_t i = 0; i < count; i++) {
        ear_play p = placed_play(w, i, i < loud ? 1.0f : 0.05f);
        if (blend) {
            char name[EAR_NAME_MAX];
            snprintf(name, sizeof name, "b%u", i % 60);
            ear_stage_play_blend(s, name, &p, &ids[i]);
        } else {
            ear_stage_play(s, clips[i % nclips], &p, &ids[i]);
        }
    }
    float *buf = malloc(W64_BLOCK_FRAMES * 2 * sizeof *buf);
    uint64_t h = 14695981039346656037ull;
    w64_workload *mw = (w64_workload *)w;
    for (uint32_t b = 0; b < blocks; b++) {
        w64_workload_at(mw, (double)b * W64_BLOCK_FRAMES / W64_SAMPLE_RATE);
        for (uint32_t i = 0; i < count; i++)
            ear_stage_set_motion(s, ids[i], v3(w->positions[i % w->voices]),
                                 v3(w->velocities[i % w->voices]));
        if (blend)
            for (uint32_t i = 0; i < count; i++)
                ear_stage_set_param(s, ids[i], "rpm", (float)((b + i) % 50) / 49.0f);
        ear_stage_render(s, buf, W64_BLOCK_FRAMES);
        h = fnv(h, buf, W64_BLOCK_FRAMES * 2 * sizeof *buf);
    }
    free(buf);
    ear_stage_destroy(s);
    for (uint32_t i = 0; i < nclips; i++) ear_clip_release(clips[i]);
    free(clips);
    free(ids);
    w64_workload_at(mw, 0.0);
    return h;
}

#if defined(BENCH_STAGE_HRTF)
/* The blocks of a W64H run, the part callgrind counts (w64h_blocks). */
MEASURED static uint64_t w64h_blocks(ear_stage *s, w64_workload *w, const ear_voice_id *ids,
                                     uint32_t count, uint32_t blocks) {
    float *buf = malloc(W64_BLOCK_FRAMES * 2 * sizeof *buf);
    uint64_t h = 14695981039346656037ull;
    for (uint32_t b = 0; b < blocks; b++) {
        w64_workload_at(w, (double)b * W64_BLOCK_FRAMES / W64_SAMPLE_RATE);
        for (uint32_t i = 0; i < count; i++)
            ear_stage_set_motion(s, ids[i], v3(w->positions[i % w->voices]),
                                 v3(w->velocities[i % w->voices]));
        ear_stage_render(s, buf, W64_BLOCK_FRAMES);
        h = fnv(h, buf, W64_BLOCK_FRAMES * 2 * sizeof *buf);
    }
    free(buf);
    return h;
}

/* W64 through the KEMAR set (bench_w64's W64H stage: 160-frame control blocks, W64's
 * speed of sound and doppler), `count` voices for `blocks` 480-frame blocks. */
static uint64_t run_w64h(const w64_workload *w, uint32_t count, uint32_t blocks) {
    ear_stage_config c = ear_stage_config_default();
    c.sample_rate = W64_SAMPLE_RATE;
    c.block_frames = 160;
    c.max_voices = count;
    c.max_total_voices = count;
    c.command_capacity = 16384;
    c.speed_of_sound = W64_SPEED_OF_SOUND;
    c.doppler_scale = 1.0f;
    c.kernel = env_kernel();
    ear_stage *s = NULL;
    if (ear_stage_create(&c, &s) != EAR_OK) {
        fprintf(stderr, "bench_stage: cannot create a stage for %u voices\n", count);
        exit(1);
    }
    ear_hrtf_config hc = ear_hrtf_config_default();
    ear_hrtf_set *set = NULL;
    ear_hrtf_error err;
    if (ear_hrtf_load(EAR_HRTF_DEFAULT_PATH, &hc, &set, &err) != EAR_OK) {
        fprintf(stderr, "bench_stage: %s\n", err.message);
        exit(1);
    }
    ear_stage_hrtf view = ear_hrtf_stage_view(set);
    if (ear_stage_set_hrtf(s, &view) != EAR_OK ||
        ear_stage_set_spatializer(s, EAR_SPATIALIZER_HRTF) != EAR_OK) {
        fprintf(stderr, "bench_stage: cannot give the stage the HRTF set\n");
        exit(1);
    }
    ear_hrtf_free(set);
    uint32_t nclips = count < w->voices ? count : w->voices;
    ear_voice_id *ids = calloc(count, sizeof *ids);
    for (uint32_t i = 0; i < count; i++) {
        ear_clip *clip = NULL;
        ear_clip_create(w->clips + (size_t)(i % nclips) * W64_CLIP_FRAMES, W64_CLIP_FRAMES, 1,
                        W64_SAMPLE_RATE, NULL, &clip);
        ear_play p = placed_play(w, i, 1.0f);
        ear_stage_play(s, clip, &p, &ids[i]);
        ear_clip_release(clip);
    }
    w64_workload *mw = (w64_workload *)w;
    uint64_t h = w64h_blocks(s, mw, ids, count, blocks);
    ear_stage_destroy(s);
    free(ids);
    w64_workload_at(mw, 0.0);
    return h;
}
#endif

/* Most of the mixer's paths in one scripted scene. */
MEASURED static uint64_t run_features(const w64_workload *w, uint32_t blocks) {
    ear_stage *s = make_stage(24, 64, 8);
    ear_clip *clips[8];
    for (uint32_t i = 0; i < 8; i++)
        ear_clip_create(w->clips + (size_t)(i * 7) * W64_CLIP_FRAMES, W64_CLIP_FRAMES / 4, 1,
                        i % 2 ? 44100 : 48000, NULL, &clips[i]);
    float stereo[2 * 12000];
    for (uint32_t j = 0; j < 12000; j++) {
        stereo[2 * j] = w->clips[j];
        stereo[2 * j + 1] = w->clips[W64_CLIP_FRAMES * 3 + j];
    }
    ear_clip *st = NULL;
    ear_clip_create(stereo, 12000, 2, 48000, NULL, &st);

    ear_pool_def pd;
    memset(&pd, 0, sizeof pd);
    snprintf(pd.name, sizeof pd.name, "steps");
    pd.clip_count = 4;
    for (uint32_t i = 0; i < 4; i++) pd.clips[i] = clips[i];
    pd.volume_min = 0.5f, pd.volume_max = 1.0f;
    pd.pitch_semitones_min = -2, pd.pitch_semitones_max = 2;
    pd.no_repeat = true;
    pd.max_instances = 3;
    ear_stage_register_pool(s, &pd);

    ear_duck_rule dr;
    memset(&dr, 0, sizeof dr);
    snprintf(dr.name, sizeof dr.name, "ui-over-sfx");
    dr.trigger = EAR_BUS_UI;
    dr.target = EAR_BUS_SFX;
    ear_stage_set_duck(s, &dr);

    ear_voice_id ids[16] = {0};
    for (uint32_t i = 0; i < 8; i++) {
        ear_play p = placed_play(w, i * 5, 0.8f);
        p.pitch = 0.8f + 0.05f * (float)i;
        if (i == 1) {
            p.forward = ear_vec3_make(0, 0, 1);
            p.cone = (ear_cone){1.0f, 2.5f, 0.2f};
        }
        if (i == 2) p.occlusion = 0.7f;
        if (i == 3) p.loop_crossfade_s = 0.05f;
        if (i == 4) p.attenuation.model = EAR_MODEL_FADE;
        if (i == 5) p.no_doppler = true, p.priority = 9;
        if (i == 6) p.bus = EAR_BUS_AMBIENCE;
        ear_stage_play(s, clips[i], &p, &ids[i]);
    }
    ear_play flat = {.looping = true, .pan = -0.6f, .bus = EAR_BUS_MUSIC};
    ear_stage_play(s, st, &flat, &ids[8]);

    float *buf = malloc(W64_BLOCK_FRAMES * 2 * sizeof *buf);
    uint64_t h = 14695981039346656037ull;
    w64_workload *mw = (w64_workload *)w;
    for (uint32_t b = 0; b < blocks; b++) {
        w64_workload_at(mw, (double)b * W64_BLOCK_FRAMES / W64_SAMPLE_RATE);
        for (uint32_t i = 0; i < 8; i++)
            ear_stage_set_motion(s, ids[i], v3(w->positions[i * 5]), v3(w->velocities[i * 5]));
        if (b % 7 == 0) {
            ear_play p = placed_play(w, b, 0);
            p.looping = false;
            ear_voice_id id;
            ear_stage_play_pool(s, "steps", &p, &id);
        }
        if (b % 11 == 3) {
            ear_play p = {.pan = 0.4f, .bus = EAR_BUS_UI};
            ear_stage_play_event(s, clips[5], &p, NULL);
        }
        if (b == 10) ear_stage_fade_bus(s, EAR_BUS_AMBIENCE, 0.2f, 0.3f);
        if (b == 20) ear_stage_set_bus_muted(s, EAR_BUS_MUSIC, true);
        if (b == 26) ear_stage_set_bus_muted(s, EAR_BUS_MUSIC, false);
        if (b == 30) ear_stage_set_volume(s, ids[0], 0.1f);
        if (b == 33) ear_stage_set_pitch(s, ids[1], 1.5f);
        if (b == 36) ear_stage_set_occlusion(s, ids[2], 0.1f);
        if (b == 40) ear_stage_trigger_duck(s, "ui-over-sfx", 0.3f);
        if (b == 45) ear_stage_stop(s, ids[3], 0.1f);
        if (b == 50) ear_stage_set_master_gain(s, 0.7f);
        if (b == 55) ear_stage_set_pan(s, ids[8], 0.8f);
        if (b % 9 == 0) {
            ear_listener l = ear_stage_get_listener(s);
            l.position = ear_vec3_make(0.1f * (float)b, 0, -0.05f * (float)b);
            l.forward = ear_vec3_make((float)(b % 5) - 2.0f, 0, -1);
            ear_stage_set_listener(s, &l);
        }
        ear_stage_render(s, buf, W64_BLOCK_FRAMES);
        h = fnv(h, buf, W64_BLOCK_FRAMES * 2 * sizeof *buf);
    }
    ear_stage_stop_all(s);
    for (uint32_t b = 0; b < 4; b++) {
        ear_stage_render(s, buf, W64_BLOCK_FRAMES);
        h = fnv(h, buf, W64_BLOCK_FRAMES * 2 * sizeof *buf);
    }
    free(buf);
    ear_stage_destroy(s);
    for (uint32_t i = 0; i < 8; i++) ear_clip_release(clips[i]);
    ear_clip_release(st);
    w64_workload_at(mw, 0.0);
    return h;
}

int main(int argc, char **argv) {
    const char *scene = argc > 1 ? argv[1] : "hash";
    uint32_t n = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 10) : 256;
    uint32_t blocks = argc > 3 ? (uint32_t)strtoul(argv[3], NULL, 10) : 200;
    /* W64 at N needs N clips; the other scenes share W64's 64 (the hash's N = 256 too). */
    w64_workload w;
    bool big = (strcmp(scene, "w64") == 0 || strcmp(scene, "w64h") == 0) && n > 64;
    if (w64_workload_init(&w, big ? n : 256) != 0) return 1;
    w64_workload_at(&w, 0.0);
    const char *kname = env_kernel() == EAR_KERNEL_SCALAR ? "scalar"
                        : env_kernel() == EAR_KERNEL_AVX2 ? "avx2"
                                                          : "default";
    if (strcmp(scene, "hash") == 0) {
        w64_workload w64;
        if (w64_workload_init(&w64, 64) != 0) return 1;
        w64_workload_at(&w64, 0.0);
        printf("kernel=%s w64 N=64 %016llx\n", kname,
               (unsigned long long)run_w64(&w64, 64, 64, false, 64, 200));
        printf("kernel=%s w64 N=256 %016llx\n", kname,
               (unsigned long long)run_w64(&w, 256, 256, false, 256, 100));
        printf("kernel=%s virt %016llx\n", kname,
               (unsigned long long)run_w64(&w64, 4096, 64, false, 64, 50));
        printf("kernel=%s blend %016llx\n", kname,
               (unsigned long long)run_w64(&w64, 64, 64, true, 64, 100));
        printf("kernel=%s features %016llx\n", kname,
               (unsigned long long)run_features(&w, 120));
        w64_workload_deinit(&w64);
#if defined(BENCH_STAGE_HRTF)
    } else if (strcmp(scene, "hash-hrtf") == 0) {
        w64_workload w64;
        if (w64_workload_init(&w64, 64) != 0) return 1;
        w64_workload_at(&w64, 0.0);
        printf("kernel=%s w64h N=64 %016llx\n", kname,
               (unsigned long long)run_w64h(&w64, 64, 100));
        printf("kernel=%s w64h N=256 %016llx\n", kname,
               (unsigned long long)run_w64h(&w, 256, 40));
        w64_workload_deinit(&w64);
    } else if (strcmp(scene, "w64h") == 0) {
        printf("%016llx\n", (unsigned long long)run_w64h(&w, n, blocks));
#endif
    } else if (strcmp(scene, "w64") == 0) {
        printf("%016llx\n", (unsigned long long)run_w64(&w, n, n, false, n, blocks));
    } else if (strcmp(scene, "virt") == 0) {
        printf("%016llx\n", (unsigned long long)run_w64(&w, 4096, 64, false, 64, blocks));
    } else if (strcmp(scene, "blend") == 0) {
        printf("%016llx\n", (unsigned long long)run_w64(&w, 64, 64, true, 64, blocks));
    } else if (strcmp(scene, "features") == 0) {
        printf("%016llx\n", (unsigned long long)run_features(&w, blocks));
    } else {
        fprintf(stderr, "usage: bench_stage hash | hash-hrtf | bench_stage "
                        "w64|virt|blend|features|w64h [N] [blocks]\n");
        return 2;
    }
    w64_workload_deinit(&w);
    return 0;
}
