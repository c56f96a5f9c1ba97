/* SPDX-License-Identifier: Zlib */
/*
 * Determinism: the same calls give the same samples bit for bit, run after run, and
 * however the render is cut into chunks (1 frame to 8192). Commands given between
 * render calls land on the next control-block boundary, so a script that issues them
 * at block boundaries hears the same thing under any chunking.
 */
#include "stage_util.h"
#include "test.h"

#define TOTAL 96000u /* 2 s */

typedef struct scene {
    ear_clip *tone, *noise, *stereo;
} scene;

static scene make_scene(void) {
    scene sc;
    sc.tone = sine_clip(330.0, 0.37, RATE, 0.4f);
    sc.noise = noise_clip(0.5, 22050, 0.2f, 4);
    float st[2 * 1000];
    for (int i = 0; i < 1000; i++) {
        st[2 * i] = (float)sin(i * 0.05) * 0.3f;
        st[2 * i + 1] = (float)cos(i * 0.031) * 0.3f;
    }
    ear_clip_create(st, 1000, 2, 32000, NULL, &sc.stereo);
    return sc;
}

static void free_scene(scene *sc) {
    ear_clip_release(sc->tone);
    ear_clip_release(sc->noise);
    ear_clip_release(sc->stereo);
}

/* Plays the scene's script, rendering in chunks from `chunks` (cycled); commands are
 * issued when the rendered frame count passes multiples of 4800 (block multiples). */
static uint64_t run(const scene *sc, const uint32_t *chunks, size_t nchunks) {
    ear_stage *s = new_stage();
    ear_voice_id a, b, c;
    ear_play pa = placed_at(5, 0, -5);
    pa.velocity = ear_vec3_make(-20, 0, 0);
    pa.loop_crossfade_s = 0.02f;
    ear_stage_play(s, sc->tone, &pa, &a);
    ear_play pb = placed_at(-3, -1, 4);
    pb.occlusion = 0.4f;
    ear_stage_play(s, sc->noise, &pb, &b);
    ear_stage_play(s, sc->stereo, &(ear_play){.looping = true, .pan = -0.3f, .pitch = 1.3f},
                   &c);
    float *out = malloc(TOTAL * 2 * sizeof *out);
    uint32_t done = 0, next_event = 4800;
    size_t k = 0;
    int event = 0;
    while (done < TOTAL) {
        uint32_t n = chunks[k++ % nchunks];
        if (n > TOTAL - done) n = TOTAL - done;
        if (done + n > next_event) n = next_event - done; /* stop at the event */
        ear_stage_render(s, out + 2 * (size_t)done, n);
        done += n;
        if (done == next_event) {
            event++;
            next_event += 4800;
            ear_stage_set_position(s, a, ear_vec3_make(5.0f - (float)event, 0, -5));
            ear_stage_set_pitch(s, c, 1.0f + 0.05f * (float)(event % 5));
            ear_stage_set_occlusion(s, b, (float)(event % 3) * 0.4f);
            ear_listener l = {{0, 0, (float)event * 0.1f},
                              {0, 0, -2},
                              {0.1f * (float)event, 0, -1},
                              {0, 1, 0}};
            ear_stage_set_listener(s, &l);
            if (event == 12) ear_stage_stop(s, b, 0.05f);
            if (event == 15) ear_stage_set_master_gain(s, 0.5f);
        }
    }
    uint64_t h = ear_hash_samples(out, (size_t)TOTAL * 2);
    free(out);
    ear_stage_destroy(s);
    return h;
}

TEST(same_calls_same_samples_run_after_run) {
    scene sc = make_scene();
    const uint32_t block[] = {480};
    uint64_t h1 = run(&sc, block, 1), h2 = run(&sc, block, 1);
    ASSERT_U64_EQ(h1, h2);
    free_scene(&sc);
}

TEST(chunking_does_not_change_the_samples) {
    scene sc = make_scene();
    const uint32_t ref_chunk[] = {8192};
    uint64_t ref = run(&sc, ref_chunk, 1);
    const uint32_t sizes[] = {1, 7, 159, 160, 161, 480, 1000, 4096, 8192};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        uint32_t one[] = {sizes[i]};
        ASSERT_U64_EQ(run(&sc, one, 1), ref);
    }
    uint32_t mixed[64];
    ear_rng rng;
    ear_rng_seed(&rng, 99);
    for (int i = 0; i < 64; i++) mixed[i] = 1 + ear_rng_below(&rng, 3000);
    ASSERT_U64_EQ(run(&sc, mixed, 64), ref);
    free_scene(&sc);
}

TEST(the_script_is_audible) {
    /* The hash test means something only if the scene is not silence. */
    scene sc = make_scene();
    ear_stage *s = new_stage();
    ear_stage_play(s, sc.tone, &(ear_play){.looping = true}, NULL);
    float *out = render(s, 4800);
    ASSERT_DBL_GT(ear_rms(out, 4800, 2, 0), 0.1);
    free(out);
    ear_stage_destroy(s);
    free_scene(&sc);
}

TEST_MAIN(TEST_ENTRY(same_calls_same_samples_run_after_run),
          TEST_ENTRY(chunking_does_not_change_the_samples), TEST_ENTRY(the_script_is_audible))
