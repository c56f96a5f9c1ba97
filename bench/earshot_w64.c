/* SPDX-License-Identifier: Zlib */
/*
 * Workload W64 on Earshot's stage, through the public API only (include/earshot/
 * stage.h): one clip per voice made from the workload's float samples, one placed,
 * looping voice per clip with inverse attenuation (ref 1 m, max 100 m, rolloff 1),
 * doppler and the behind cue on (the defaults), a stage whose voice limits are raised
 * to N, and per block one ear_stage_set_motion (position and velocity) per
 * voice followed by ear_stage_render of the 480-frame block. The stage's own control
 * block stays at its default, 160 frames, so each render call runs three of them.
 *
 * Each voice holds the only reference to its clip once play succeeds, so destroying
 * the stage frees the clips.
 */
#include "workload.h"

#include "earshot/hrtf.h"
#include "earshot/stage.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

typedef struct w64_earshot {
    ear_stage *stage;
    ear_voice_id *ids;
    uint32_t voices;
    uint32_t command_capacity;
} w64_earshot;

static ear_vec3 to_vec3(w64_vec3 v) {
    return ear_vec3_make(v.x, v.y, v.z);
}

static void earshot_destroy(void *engine) {
    w64_earshot *e = engine;
    if (!e) return;
    ear_stage_destroy(e->stage);
    free(e->ids);
    free(e);
}

static int earshot_create(const w64_workload *w, void **out_engine) {
    w64_earshot *e = calloc(1, sizeof(*e));
    if (!e) return -1;
    e->voices = w->voices;
    e->ids = calloc(w->voices, sizeof(ear_voice_id));
    if (!e->ids) {
        free(e);
        return -1;
    }
    /* The ring holds the N play commands plus two updates per voice per block before
     * the first render drains them; leave room for twice that. */
    uint32_t capacity = 8192;
    while (capacity < 4u * w->voices) capacity *= 2;
    e->command_capacity = capacity;

    ear_stage_config c = ear_stage_config_default();
    c.sample_rate = W64_SAMPLE_RATE;
    c.channels = W64_CHANNELS;
    c.block_frames = 160;
    /* W64_BLOCK=n: another control block (a same-binary switch, to measure what the
     * per-voice-block bookkeeping costs; the figures are at 160). */
    const char *block = getenv("W64_BLOCK");
    if (block) c.block_frames = (uint32_t)strtoul(block, NULL, 10);
    c.max_voices = w->voices;
    c.max_total_voices = w->voices;
    c.command_capacity = capacity;
    c.speed_of_sound = W64_SPEED_OF_SOUND;
    c.doppler_scale = 1.0f;
    /* W64_KERNEL=scalar or avx2 times that kernel instead of the default (the fastest). */
    const char *kernel = getenv("W64_KERNEL");
    if (kernel && strcmp(kernel, "scalar") == 0) c.kernel = EAR_KERNEL_SCALAR;
    if (kernel && strcmp(kernel, "avx2") == 0) c.kernel = EAR_KERNEL_AVX2;
    ear_result r = ear_stage_create(&c, &e->stage);
    if (r != EAR_OK) {
        fprintf(stderr, "bench_w64: ear_stage_create: %s\n", ear_result_string(r));
        earshot_destroy(e);
        return -1;
    }
    if (w64_hrtf()) {
        /* W64H: the KEMAR set at its default 128 taps (W64_HRTF_TAPS=n: n taps), every
         * placed voice through it. */
        ear_hrtf_config hc = ear_hrtf_config_default();
        const char *taps = getenv("W64_HRTF_TAPS");
        if (taps) hc.taps = (uint32_t)strtoul(taps, NULL, 10);
        ear_hrtf_set *set = NULL;
        ear_hrtf_error err;
        r = ear_hrtf_load(EAR_HRTF_DEFAULT_PATH, &hc, &set, &err);
        if (r != EAR_OK) {
            fprintf(stderr, "bench_w64: %s\n", err.message);
            earshot_destroy(e);
            return -1;
        }
        ear_stage_hrtf view = ear_hrtf_stage_view(set);
        r = ear_stage_set_hrtf(e->stage, &view);
        ear_hrtf_free(set);
        if (r == EAR_OK) r = ear_stage_set_spatializer(e->stage, EAR_SPATIALIZER_HRTF);
        if (r != EAR_OK) {
            fprintf(stderr, "bench_w64: ear_stage_set_hrtf: %s\n", ear_result_string(r));
            earshot_destroy(e);
            return -1;
        }
    }
    /* W64_ONE_CLIP=1 (a same-binary switch, Earshot's side only): every voice plays the
     * first voice's clip, which stays in the caches, to measure what reading N clips
     * from memory costs. */
    const char *one = getenv("W64_ONE_CLIP");
    bool one_clip = one && one[0] && strcmp(one, "0") != 0;
    ear_clip *shared = NULL;
    for (uint32_t i = 0; i < w->voices; i++) {
        ear_clip *clip = NULL;
        if (shared) {
            clip = shared;
            ear_clip_retain(clip);
        } else {
            r = ear_clip_create_ex(w->clips + (size_t)i * W64_CLIP_FRAMES, W64_CLIP_FRAMES, 1,
                                   W64_SAMPLE_RATE, w64_s16() ? EAR_CLIP_S16 : 0u, NULL, &clip);
            if (r == EAR_OK && one_clip) {
                shared = clip;
                ear_clip_retain(shared);
            }
        }
        if (r != EAR_OK) {
            fprintf(stderr, "bench_w64: ear_clip_create: %s\n", ear_result_string(r));
            if (shared) ear_clip_release(shared);
            earshot_destroy(e);
            return -1;
        }
        ear_play p = {0};
        p.looping = true;
        p.placed = true;
        p.no_behind_cue = w64_no_cue() != 0;
        p.position = to_vec3(w->positions[i]);
        p.velocity = to_vec3(w->velocities[i]);
        p.attenuation = (ear_attenuation){EAR_MODEL_INVERSE, W64_REF_DISTANCE_M,
                                          W64_MAX_DISTANCE_M, W64_ROLLOFF};
        r = ear_stage_play(e->stage, clip, &p, &e->ids[i]);
        ear_clip_release(clip);
        if (r != EAR_OK) {
            fprintf(stderr, "bench_w64: ear_stage_play voice %u: %s\n", (unsigned)i,
                    ear_result_string(r));
            if (shared) ear_clip_release(shared);
            earshot_destroy(e);
            return -1;
        }
    }
    if (shared) ear_clip_release(shared);
    *out_engine = e;
    return 0;
}

static void earshot_update(void *engine, const w64_workload *w) {
    w64_earshot *e = engine;
    for (uint32_t i = 0; i < e->voices; i++) {
        ear_stage_set_motion(e->stage, e->ids[i], to_vec3(w->positions[i]),
                             to_vec3(w->velocities[i]));
    }
}

static void earshot_render(void *engine, float *out, uint32_t frames) {
    w64_earshot *e = engine;
    ear_stage_render(e->stage, out, frames);
}

static void earshot_describe(void *engine, FILE *to) {
    w64_earshot *e = engine;
    ear_stage_config c = ear_stage_get_config(e->stage);
    fprintf(to,
            "# earshot: stage %u Hz, %u channels, control block %u frames, max_voices %u, "
            "command_capacity %u, doppler and behind cue on\n",
            (unsigned)c.sample_rate, (unsigned)c.channels, (unsigned)c.block_frames,
            (unsigned)c.max_voices, (unsigned)c.command_capacity);
    ear_stage_hrtf_info hi;
    ear_stage_get_hrtf(e->stage, &hi);
    if (hi.loaded)
        fprintf(to, "# earshot hrtf: %s, %u directions, %u taps (%u rendered per ear)\n",
                hi.source, (unsigned)hi.count, (unsigned)hi.taps, (unsigned)hi.filter_taps);
    fprintf(to, "# earshot kernel=%s\n",
            c.kernel == EAR_KERNEL_AVX512   ? "avx512"
            : c.kernel == EAR_KERNEL_AVX2   ? "avx2"
            : c.kernel == EAR_KERNEL_SCALAR ? "scalar"
                                            : "auto");
}

const w64_engine_ops w64_earshot_ops = {
    .name = "earshot",
    .create = earshot_create,
    .update = earshot_update,
    .render = earshot_render,
    .destroy = earshot_destroy,
    .describe = earshot_describe,
};
