/* SPDX-License-Identifier: Zlib */
/*
 * The device under load: the game thread issues 100,000 commands while SDL's audio thread
 * renders in real time (the disk driver, paced like a sound card, writing the mix to a
 * file). None is lost (the mix settles exactly where the last commands put it), no call
 * blocks, and under ThreadSanitizer (`make test-tsan`, label "threads") nothing races.
 */
#define _POSIX_C_SOURCE 200809L

#include "earshot/device.h"
#include "../decode/sox_util.h"
#include "test.h"

#include <time.h>

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void nap_ms(long ms) {
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

/* The left sample of the last whole frame in the file the disk driver writes. */
static bool last_sample(const char *path, float *out) {
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    fseek(f, 0, SEEK_END);
    long frames = ftell(f) / (long)(2 * sizeof(float));
    bool ok = frames > 0 && fseek(f, (frames - 1) * (long)(2 * sizeof(float)), SEEK_SET) == 0 &&
              fread(out, sizeof(float), 1, f) == 1;
    fclose(f);
    return ok;
}

TEST(hundred_thousand_commands_while_the_callback_renders) {
    char dir[256];
    ASSERT_TRUE(scratch_dir(dir, sizeof dir, "device-threads"));
    char out_path[512];
    snprintf(out_path, sizeof out_path, "%s/mix.raw", dir);
    setenv("SDL_AUDIODRIVER", "disk", 1);
    setenv("SDL_DISKAUDIOFILE", out_path, 1);
    unsetenv("SDL_DISKAUDIODELAY"); /* paced in real time, one buffer per buffer's length */

    /* A constant clip: the mix is exactly the sum of the voices' volumes x 0.001. */
    float dc[4800];
    for (int i = 0; i < 4800; i++) dc[i] = 0.001f;
    ear_clip *clip;
    ASSERT_OK(ear_clip_create(dc, 4800, 1, 48000, NULL, &clip));
    ear_stage_config sc = ear_stage_config_default();
    /* A small ring, so that the overflow path carries most commands and the audio side
     * can take only a few commands per callback (at most 4 blocks x 256). */
    sc.command_capacity = 256;
    sc.max_voices = 128;
    ear_stage *stage;
    ASSERT_OK(ear_stage_create(&sc, &stage));
    ear_voice_id ids[100];
    for (int i = 0; i < 100; i++)
        ASSERT_OK(ear_stage_play(stage, clip, &(ear_play){.looping = true}, &ids[i]));
    ear_clip_release(clip);

    ear_device_config cfg = ear_device_config_default();
    cfg.buffer_frames = 480; /* 10 ms */
    ear_device *dev;
    ASSERT_OK(ear_device_open(stage, &cfg, &dev));
    ASSERT_EQ(ear_device_get_state(dev), EAR_DEVICE_PLAYING);

    /* 100,000 commands; the last volume of voice i is (i % 10) / 10. */
    double longest_call = 0;
    int slow_calls = 0; /* calls over 2 ms */
    double start = now_s();
    for (int k = 0; k < 1000; k++) {
        for (int i = 0; i < 100; i++) {
            float v = (k == 999) ? (float)(i % 10) / 10.0f : (float)((k + i) % 7) / 3.0f;
            double t0 = now_s();
            ear_result r = ear_stage_set_volume(stage, ids[i], v);
            double dt = now_s() - t0;
            if (dt > longest_call) longest_call = dt;
            if (dt > 0.002) slow_calls++;
            ASSERT_OK(r);
        }
        ear_device_update(dev);
        if (k % 100 == 0) nap_ms(1); /* a game's frames, compressed */
    }
    double issued_in = now_s() - start;
    uint64_t callbacks_during = ear_device_get_stats(dev).callbacks;

    /* Keep calling update (which moves the overflow into the ring as the callback frees
     * room) until the last volumes are heard: sum over voices of (i % 10) / 10 = 45,
     * times 0.001. Every command had to arrive, in order, for the mix to settle there. */
    float heard = 0;
    double give_up = now_s() + 60;
    while (now_s() < give_up) {
        ear_device_update(dev);
        nap_ms(5);
        if (last_sample(out_path, &heard) && fabsf(heard - 0.045f) < 1e-5f) break;
    }
    ear_device_stats st = ear_device_get_stats(dev);
    ear_device_close(dev);
    printf("  100000 commands issued in %.3f s (longest call %.1f us, %d over 2 ms) while %llu "
           "callbacks ran;\n"
           "  %llu callbacks in all, render max %.1f us of a 10 ms buffer; heard %.6f\n",
           issued_in, longest_call * 1e6, slow_calls, (unsigned long long)callbacks_during,
           (unsigned long long)st.callbacks, (double)st.render_ns_max / 1e3, (double)heard);
    ASSERT_NEAR(heard, 0.045, 1e-5);
    /* Nothing blocks. While the game thread issued its 100,000 commands, the callback can
     * have taken at most 4 blocks x 256 commands per callback out of the ring; everything
     * else waited in the game side's overflow queue. Had a call waited for the callback to
     * make room, issuing would have outlasted 100,000 / 1024 callbacks. */
    ASSERT_GT(st.callbacks, 10);
#if !defined(__SANITIZE_THREAD__)
    /* (Under ThreadSanitizer every call is instrumented and issuing is slower than the
     * callback's blocks by far, so the count says nothing there: 409 callbacks ran.) */
    ASSERT_LT(callbacks_during * 4u * 256u, 100000u);
#endif
#if !defined(__SANITIZE_THREAD__) && !defined(__SANITIZE_ADDRESS__)
    ASSERT_LT(st.render_ns_max, 10000000u); /* the callback keeps up with real time */
#endif
    ear_stage_destroy(stage);
    remove_tree(dir);
}

TEST_MAIN(TEST_ENTRY(hundred_thousand_commands_while_the_callback_renders))
