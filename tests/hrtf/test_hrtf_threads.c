/* SPDX-License-Identifier: Zlib */
/*
 * HRTF sets swapped on the game thread while another thread renders, as a device runs the
 * stage: each set is copied into a bank on the game thread and handed over through the
 * command ring; old banks are freed on the game thread once the mixer has let them go.
 * Nothing may be lost or leak (ASan), and under ThreadSanitizer (make test-tsan) there may
 * be no data race. The sets are made here (a horizontal ring of 72 directions, 32 taps),
 * so the test needs no SOFA file.
 */
#include "earshot/analysis.h"
#include "earshot/stage.h"
#include "test.h"

#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>

#define DIRS 72u
#define TAPS 32u

typedef struct shared {
    ear_stage *stage;
    atomic_bool stop;
    atomic_uint blocks;
    atomic_int bad; /* a rendered sample that was not finite */
} shared;

static void *render_thread(void *arg) {
    shared *sh = arg;
    float buf[2 * 480];
    while (!atomic_load(&sh->stop)) {
        ear_stage_render(sh->stage, buf, 480);
        for (int i = 0; i < 2 * 480; i++)
            if (!isfinite(buf[i])) atomic_store(&sh->bad, 1);
        atomic_fetch_add(&sh->blocks, 1u);
        sched_yield();
    }
    return NULL;
}

/* A set whose ear filters are decaying impulses, louder on the near side, version k. */
static void make_set(uint32_t k, float *az, float *el, float *l, float *r, float *dl,
                     float *dr) {
    for (uint32_t d = 0; d < DIRS; d++) {
        az[d] = 5.0f * (float)d;
        el[d] = 0.0f;
        float s = sinf(az[d] * 3.14159265f / 180.0f); /* 1 at the left */
        for (uint32_t i = 0; i < TAPS; i++) {
            float decay = expf(-(float)i / (4.0f + (float)(k % 3)));
            l[d * TAPS + i] = (0.6f + 0.4f * s) * decay;
            r[d * TAPS + i] = (0.6f - 0.4f * s) * decay;
        }
        dl[d] = s < 0.0f ? -30.0f * s : 0.0f;
        dr[d] = s > 0.0f ? 30.0f * s : 0.0f;
    }
}

TEST(sets_swapped_while_another_thread_renders) {
    float *az = malloc(sizeof(float) * DIRS), *el = malloc(sizeof(float) * DIRS);
    float *l = malloc(sizeof(float) * DIRS * TAPS), *r = malloc(sizeof(float) * DIRS * TAPS);
    float *dl = malloc(sizeof(float) * DIRS), *dr = malloc(sizeof(float) * DIRS);
    float tone[4800];
    for (int i = 0; i < 4800; i++)
        tone[i] = 0.3f * sinf(2.0f * 3.14159265f * 500.0f * (float)i / 48000.0f);
    ear_clip *clip;
    ASSERT_OK(ear_clip_create(tone, 4800, 1, 48000, NULL, &clip));
    ear_stage_config cfg = ear_stage_config_default();
    cfg.max_total_voices = 32;
    cfg.max_voices = 32;
    shared sh = {.stage = NULL};
    ASSERT_OK(ear_stage_create(&cfg, &sh.stage));
    ear_stage_set_render_thread_separate(sh.stage, true);
    atomic_init(&sh.stop, false);
    atomic_init(&sh.blocks, 0u);
    atomic_init(&sh.bad, 0);
    ear_voice_id ids[16];
    for (int i = 0; i < 16; i++) {
        ear_play p = {.looping = true, .placed = true};
        p.position = ear_vec3_make(cosf((float)i), 0.0f, sinf((float)i));
        p.spatializer = i % 2 ? EAR_SPATIALIZER_HRTF : EAR_SPATIALIZER_DEFAULT;
        ASSERT_OK(ear_stage_play(sh.stage, clip, &p, &ids[i]));
    }
    ear_clip_release(clip);
    ASSERT_OK(ear_stage_set_spatializer(sh.stage, EAR_SPATIALIZER_HRTF));
    pthread_t t;
    ASSERT_EQ(pthread_create(&t, NULL, render_thread, &sh), 0);
    for (uint32_t k = 0; k < 40; k++) {
        make_set(k, az, el, l, r, dl, dr);
        ear_stage_hrtf h = {48000, TAPS, DIRS, az, el, l, r, dl, dr, "synthetic"};
        ASSERT_OK(ear_stage_set_hrtf(sh.stage, k % 7 == 6 ? NULL : &h));
        for (int i = 0; i < 16; i++)
            ear_stage_set_position(
                sh.stage, ids[i],
                ear_vec3_make(cosf((float)i + (float)k), 0.1f, sinf((float)i + (float)k)));
        if (k % 5 == 0)
            ear_stage_set_voice_spatializer(sh.stage, ids[k % 16], EAR_SPATIALIZER_PAN);
        ear_stage_update(sh.stage); /* frees the banks the mixer has let go */
        unsigned seen = atomic_load(&sh.blocks);
        while (atomic_load(&sh.blocks) < seen + 2u) sched_yield();
    }
    atomic_store(&sh.stop, true);
    pthread_join(t, NULL);
    ASSERT_EQ(atomic_load(&sh.bad), 0);
    ear_stage_hrtf_info info;
    ASSERT_OK(ear_stage_get_hrtf(sh.stage, &info));
    ASSERT_TRUE(info.loaded);
    ASSERT_EQ(info.count, DIRS);
    ear_stage_destroy(sh.stage); /* frees the last bank and any not yet collected */
    free(az), free(el), free(l), free(r), free(dl), free(dr);
}

TEST_MAIN(TEST_ENTRY(sets_swapped_while_another_thread_renders))
