/* SPDX-License-Identifier: Zlib */
/*
 * Kernels: every kernel this CPU runs renders a busy scene within 1e-5 of the scalar
 * reference, is deterministic and chunk-independent, the AVX-512 kernel gives the AVX2
 * kernel's bits (float and 16-bit clips), and a kernel the CPU cannot run is refused at
 * create.
 */
#include "earshot/mixer.h"
#include "stage_util.h"
#include "test.h"

#define TOTAL  48000u /* 1 s */
#define VOICES 40

/* A busy scene: many placed voices moving on circles (about half behind, some
 * below, some occluded, most with one ear delayed), some pitched from 0.8 to 2.6 (every
 * read path: steps up to one frame, up to two, and beyond), a looping voice with a
 * crossfade, a flat stereo voice, a one-shot that ends, voices that stop, and a placed
 * blend of two layers pitched near and above 1 whose parameter moves. */
/* The tone and noise as 16-bit clips (EAR_CLIP_S16) where s16. */
static ear_clip *as_s16(ear_clip *c, bool s16) {
    if (!s16 || !c) return c;
    ear_clip *q = NULL;
    if (ear_clip_create_ex(ear_clip_data(c), ear_clip_frames(c), ear_clip_channels(c),
                           ear_clip_sample_rate(c), EAR_CLIP_S16, NULL, &q) != EAR_OK)
        q = NULL;
    ear_clip_release(c);
    return q;
}

static float *render_scene_block(ear_kernel kernel, uint32_t chunk, bool s16, uint32_t block) {
    ear_stage_config c = ear_stage_config_default();
    c.kernel = kernel;
    if (block) c.block_frames = block;
    ear_stage *s = NULL;
    if (ear_stage_create(&c, &s) != EAR_OK) return NULL;
    ear_clip *tone = as_s16(sine_clip(440.0, 0.31, RATE, 0.3f), s16);
    ear_clip *noise = as_s16(noise_clip(0.5, 22050, 0.2f, 7), s16);
    ear_clip *shot = sine_clip(700.0, 0.2, 44100, 0.3f);
    float st[2 * 900];
    for (int i = 0; i < 900; i++) {
        st[2 * i] = (float)sin(i * 0.07) * 0.2f;
        st[2 * i + 1] = (float)cos(i * 0.043) * 0.2f;
    }
    ear_clip *stereo = NULL;
    ear_clip_create(st, 900, 2, 32000, NULL, &stereo);

    ear_voice_id ids[VOICES];
    for (int i = 0; i < VOICES; i++) {
        double a = 2.0 * PI_D * i / VOICES;
        ear_play p = placed_at((float)(8.0 * cos(a)), (float)(i % 5 == 0 ? -2 : 0),
                               (float)(8.0 * sin(a)));
        p.velocity = ear_vec3_make((float)(-6.0 * sin(a)), 0, (float)(6.0 * cos(a)));
        p.attenuation = (ear_attenuation){EAR_MODEL_INVERSE, 1.0f, 100.0f, 1.0f};
        p.occlusion = i % 4 == 0 ? 0.5f : 0.0f;
        p.loop_crossfade_s = i % 3 == 0 ? 0.03f : 0.0f;
        ear_stage_play(s, i % 2 ? tone : noise, &p, &ids[i]);
    }
    ear_stage_play(s, stereo, &(ear_play){.looping = true, .pan = 0.4f, .pitch = 0.9f}, NULL);
    ear_stage_play(s, shot, &(ear_play){.placed = true, .position = {2, 0, 1}}, NULL);
    ear_blend_def bd;
    memset(&bd, 0, sizeof bd);
    snprintf(bd.name, sizeof bd.name, "engine");
    bd.param_count = 1;
    bd.params[0] = (ear_blend_param){"rpm", 0, 1, 0};
    bd.layer_count = 2;
    for (uint32_t l = 0; l < 2; l++) {
        bd.layers[l].clip = l ? noise : tone;
        bd.layers[l].gain_count = 1;
        bd.layers[l].gain[0] = (ear_curve){.param = "rpm",
                                           .count = 2,
                                           .x = {0, 1},
                                           .y = {l ? 0.2f : 1.0f, l ? 1.0f : 0.4f},
                                           .shape = EAR_CURVE_EQUAL_POWER};
        bd.layers[l].pitch_count = 1;
        bd.layers[l].pitch[0] =
            (ear_curve){.param = "rpm", .count = 2, .x = {0, 1}, .y = {0.95f, l ? 3.5f : 2.6f}};
    }
    ear_stage_register_blend(s, &bd);
    ear_voice_id engine = 0;
    ear_play ep = placed_at(-3, 0, 2);
    ear_stage_play_blend(s, "engine", &ep, &engine);
    ear_clip_release(tone);
    ear_clip_release(noise);
    ear_clip_release(shot);
    ear_clip_release(stereo);

    float *out = malloc(TOTAL * 2 * sizeof *out);
    uint32_t done = 0, next_event = 4800;
    int event = 0;
    while (done < TOTAL) {
        uint32_t n = chunk;
        if (n > next_event - done) n = next_event - done;
        ear_stage_render(s, out + 2 * (size_t)done, n);
        done += n;
        if (done == next_event) {
            event++;
            next_event += 4800;
            for (int i = 0; i < VOICES; i++) {
                double a = 2.0 * PI_D * i / VOICES + 0.2 * event;
                ear_stage_set_position(s, ids[i],
                                       ear_vec3_make((float)(8.0 * cos(a)),
                                                     (float)(i % 5 == 0 ? -2 : 0),
                                                     (float)(8.0 * sin(a))));
                if (i % 7 == 0)
                    ear_stage_set_pitch(s, ids[i], 0.8f + 0.6f * (float)(event % 4));
                if (i % 6 == 0) ear_stage_set_occlusion(s, ids[i], (float)(event % 3) * 0.4f);
            }
            ear_stage_set_param(s, engine, "rpm", (float)(event % 5) * 0.25f);
            if (event == 4) ear_stage_stop(s, ids[3], 0.02f);
            if (event == 6) ear_stage_stop(s, ids[10], 0.05f);
        }
    }
    ear_stage_destroy(s);
    return out;
}

static float *render_scene_as(ear_kernel kernel, uint32_t chunk, bool s16) {
    return render_scene_block(kernel, chunk, s16, 0);
}

static float *render_scene(ear_kernel kernel, uint32_t chunk) {
    return render_scene_as(kernel, chunk, false);
}

static bool have(ear_kernel kernel) {
    ear_stage_config c = ear_stage_config_default();
    c.kernel = kernel;
    ear_stage *s = NULL;
    ear_result r = ear_stage_create(&c, &s);
    ear_stage_destroy(s);
    return r == EAR_OK;
}

static bool have_avx2(void) {
    return have(EAR_KERNEL_AVX2);
}

TEST(every_kernel_matches_scalar) {
    float *ref = render_scene(EAR_KERNEL_SCALAR, 480);
    ASSERT_NOT_NULL(ref);
    ASSERT_DBL_GT(ear_rms(ref, TOTAL, 2, 0), 0.05);
    ear_kernel kernels[] = {EAR_KERNEL_AUTO, EAR_KERNEL_AVX2, EAR_KERNEL_AVX512};
    for (size_t k = 0; k < 3; k++) {
        if (kernels[k] != EAR_KERNEL_AUTO && !have(kernels[k])) continue;
        float *out = render_scene(kernels[k], 480);
        ASSERT_NOT_NULL(out);
        double worst = 0.0;
        for (size_t i = 0; i < (size_t)TOTAL * 2; i++) {
            double d = fabs((double)out[i] - (double)ref[i]);
            if (d > worst) worst = d;
        }
        ASSERT_DBL_LE(worst, 1e-5);
        free(out);
    }
    free(ref);
}

TEST(every_kernel_is_deterministic_and_chunk_independent) {
    ear_kernel kernels[] = {EAR_KERNEL_SCALAR, EAR_KERNEL_AVX2, EAR_KERNEL_AVX512};
    for (size_t k = 0; k < 3; k++) {
        if (!have(kernels[k])) continue;
        float *a = render_scene(kernels[k], 480);
        float *b = render_scene(kernels[k], 480);
        float *c = render_scene(kernels[k], 37);
        ASSERT_U64_EQ(ear_hash_samples(a, (size_t)TOTAL * 2),
                      ear_hash_samples(b, (size_t)TOTAL * 2));
        ASSERT_U64_EQ(ear_hash_samples(a, (size_t)TOTAL * 2),
                      ear_hash_samples(c, (size_t)TOTAL * 2));
        free(a);
        free(b);
        free(c);
    }
}

/* The AVX-512 kernel widens the AVX2 one without changing an operation: the same scene
 * gives the same bits, with float and with 16-bit clips, rendered whole or in odd chunks. */
TEST(avx512_gives_the_avx2_kernels_bits) {
    if (!have(EAR_KERNEL_AVX512)) return; /* this CPU has none (the refusal: below) */
    for (int s16 = 0; s16 < 2; s16++) {
        float *a = render_scene_as(EAR_KERNEL_AVX2, 480, s16 != 0);
        float *b = render_scene_as(EAR_KERNEL_AVX512, 480, s16 != 0);
        float *c = render_scene_as(EAR_KERNEL_AVX512, 37, s16 != 0);
        ASSERT_NOT_NULL(a);
        ASSERT_NOT_NULL(b);
        ASSERT_NOT_NULL(c);
        ASSERT_DBL_GT(ear_rms(a, TOTAL, 2, 0), 0.05);
        size_t first = (size_t)TOTAL * 2;
        for (size_t i = 0; i < (size_t)TOTAL * 2 && first == (size_t)TOTAL * 2; i++)
            if (memcmp(&a[i], &b[i], sizeof a[i]) != 0) first = i;
        ASSERT_U64_EQ((uint64_t)first, (uint64_t)TOTAL * 2); /* the first that differs */
        ASSERT_U64_EQ(ear_hash_samples(b, (size_t)TOTAL * 2),
                      ear_hash_samples(a, (size_t)TOTAL * 2));
        ASSERT_U64_EQ(ear_hash_samples(c, (size_t)TOTAL * 2),
                      ear_hash_samples(a, (size_t)TOTAL * 2));
        free(a);
        free(b);
        free(c);
    }
    /* Control blocks of 40 and 100 frames (not whole sixteens: the read's frame-by-frame
     * tail, and the filter and mix left to the AVX2 kernel) and of 128. */
    const uint32_t blocks[] = {40, 100, 128};
    for (size_t k = 0; k < 3; k++) {
        float *a = render_scene_block(EAR_KERNEL_AVX2, 480, false, blocks[k]);
        float *b = render_scene_block(EAR_KERNEL_AVX512, 480, false, blocks[k]);
        ASSERT_NOT_NULL(a);
        ASSERT_NOT_NULL(b);
        ASSERT_DBL_GT(ear_rms(a, TOTAL, 2, 0), 0.05);
        ASSERT_U64_EQ(ear_hash_samples(b, (size_t)TOTAL * 2),
                      ear_hash_samples(a, (size_t)TOTAL * 2));
        free(a);
        free(b);
    }
}

TEST(auto_reports_the_kernel_it_chose) {
    ear_stage *s = NULL;
    ASSERT_OK(ear_stage_create(NULL, &s));
    ear_kernel k = ear_stage_get_config(s).kernel;
    ear_kernel want = have(EAR_KERNEL_AVX512) ? EAR_KERNEL_AVX512
                      : have_avx2()           ? EAR_KERNEL_AVX2
                                              : EAR_KERNEL_SCALAR;
    ASSERT_EQ(k, want);
    ear_stage_destroy(s);
}

TEST(an_unknown_kernel_is_refused) {
    ear_stage_config c = ear_stage_config_default();
    c.kernel = (ear_kernel)99;
    ear_stage *s = NULL;
    ASSERT_EQ(ear_stage_create(&c, &s), EAR_E_INVALID_ARG);
    ASSERT_NULL(s);
#if !defined(__x86_64__)
    c.kernel = EAR_KERNEL_AVX2;
    ASSERT_EQ(ear_stage_create(&c, &s), EAR_E_UNSUPPORTED);
#endif
    if (!have(EAR_KERNEL_AVX512)) {
        c.kernel = EAR_KERNEL_AVX512;
        ASSERT_EQ(ear_stage_create(&c, &s), EAR_E_UNSUPPORTED);
        ASSERT_NULL(s);
    }
}

TEST_MAIN(TEST_ENTRY(every_kernel_matches_scalar),
          TEST_ENTRY(every_kernel_is_deterministic_and_chunk_independent),
          TEST_ENTRY(avx512_gives_the_avx2_kernels_bits),
          TEST_ENTRY(auto_reports_the_kernel_it_chose),
          TEST_ENTRY(an_unknown_kernel_is_refused))
