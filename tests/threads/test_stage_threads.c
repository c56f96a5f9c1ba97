/* SPDX-License-Identifier: Zlib */
/*
 * The stage across two threads, as a device will run it: the game thread sends
 * commands while another thread renders. Nothing may be lost, nothing may block, and
 * under ThreadSanitizer (make test-tsan) there may be no data race.
 */
#include "earshot/analysis.h"
#include "earshot/stage.h"
#include "test.h"

#include <stdatomic.h>
#include <pthread.h>
#include <sched.h>

typedef struct shared {
    ear_stage *stage;
    atomic_bool stop;
    atomic_uint blocks;
    _Atomic float last_sample;
} shared;

/* pthreads rather than C11 threads: ThreadSanitizer intercepts pthread_create only. */
static void *render_thread(void *arg) {
    shared *sh = arg;
    float buf[2 * 480];
    while (!atomic_load(&sh->stop)) {
        ear_stage_render(sh->stage, buf, 480);
        atomic_store(&sh->last_sample, buf[2 * 479]);
        atomic_fetch_add(&sh->blocks, 1u);
        sched_yield();
    }
    return NULL;
}

TEST(commands_from_the_game_thread_while_another_renders) {
    /* A constant clip: the mix is exactly the sum of the voices' volumes x 0.001. */
    float dc[4800];
    for (int i = 0; i < 4800; i++) dc[i] = 0.001f;
    ear_clip *clip;
    ASSERT_OK(ear_clip_create(dc, 4800, 1, 48000, NULL, &clip));
    ear_stage_config cfg = ear_stage_config_default();
    cfg.command_capacity = 1024; /* small enough that the overflow path is exercised */
    cfg.max_total_voices = 256;
    cfg.max_voices = 256;
    shared sh = {.stage = NULL};
    ASSERT_OK(ear_stage_create(&cfg, &sh.stage));
    ear_stage_set_render_thread_separate(sh.stage, true);
    atomic_init(&sh.stop, false);
    atomic_init(&sh.blocks, 0u);

    ear_voice_id ids[100];
    for (int i = 0; i < 100; i++)
        ASSERT_OK(ear_stage_play(sh.stage, clip, &(ear_play){.looping = true}, &ids[i]));
    pthread_t t;
    ASSERT_EQ(pthread_create(&t, NULL, render_thread, &sh), 0);
    /* 100,000 commands; the last volume of each voice is (i % 10) / 10. */
    for (int k = 0; k < 1000; k++) {
        for (int i = 0; i < 100; i++) {
            float v = (k == 999) ? (float)(i % 10) / 10.0f : (float)((k + i) % 7) / 3.0f;
            ASSERT_OK(ear_stage_set_volume(sh.stage, ids[i], v));
        }
        ear_stage_update(sh.stage);
        uint64_t cur;
        ASSERT_OK(ear_stage_get_cursor(sh.stage, ids[k % 100], &cur));
        ASSERT_TRUE(ear_stage_is_playing(sh.stage, ids[k % 100]));
    }
    /* Keep handing the overflow to the ring as the renderer frees room, until the last
     * volumes are heard: sum over voices of (i % 10) / 10 = 45, times 0.001. Every
     * command had to arrive, in order, for the mix to settle there. */
    float heard = 0.0f;
    for (int tries = 0; tries < 20000; tries++) {
        ear_stage_update(sh.stage);
        unsigned before = atomic_load(&sh.blocks);
        while (atomic_load(&sh.blocks) < before + 1u) sched_yield();
        heard = atomic_load(&sh.last_sample);
        if (fabsf(heard - 0.045f) < 1e-5f) break;
    }
    atomic_store(&sh.stop, true);
    pthread_join(t, NULL);
    ASSERT_NEAR(heard, 0.045, 1e-5);
    ear_stage_destroy(sh.stage);
    ear_clip_release(clip);
}

TEST_MAIN(TEST_ENTRY(commands_from_the_game_thread_while_another_renders))
