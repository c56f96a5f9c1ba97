/* SPDX-License-Identifier: Zlib */
/*
 * 16-bit clips (EAR_CLIP_S16): how floats are quantised, that the storage is half the
 * bytes (counted through the allocator), and that a scene of 16-bit clips renders bit
 * for bit as the same scene of float clips holding the 16-bit values q / 32768: every
 * read path (steps up to one frame, up to two, beyond two, ramped by doppler; a loop
 * crossfade; a one-shot's end; flat and placed stereo; a blend's layers; occlusion),
 * under the kernel the test runs with (CTest runs it with both).
 */
#include "earshot/mixer.h"
#include "stage_util.h"
#include "test.h"

#define TOTAL  48000u /* 1 s */
#define VOICES 24

/* 16-bit data: a sine plus seeded noise, so that neighbouring samples differ. */
static int16_t *s16_data(uint64_t n, uint32_t channels, double hz, uint64_t seed) {
    int16_t *q = malloc((size_t)(n * channels) * sizeof *q);
    ear_rng rng;
    ear_rng_seed(&rng, seed);
    for (uint64_t i = 0; i < n * channels; i++) {
        double x = 9000.0 * sin(2.0 * PI_D * hz * (double)(i / channels) / 48000.0 +
                                (double)(i % channels)) +
                   (double)ear_rng_range(&rng, -3000.0f, 3000.0f);
        q[i] = (int16_t)lround(x);
    }
    return q;
}

/* The clip of n frames of q, stored as 16 bits (s16) or as the floats q / 32768. */
static ear_clip *clip_of(const int16_t *q, uint64_t n, uint32_t channels, uint32_t rate,
                         bool s16) {
    ear_clip *c = NULL;
    if (s16) {
        if (ear_clip_create_s16(q, n, channels, rate, NULL, &c) != EAR_OK) return NULL;
        return c;
    }
    float *f = malloc((size_t)(n * channels) * sizeof *f);
    for (uint64_t i = 0; i < n * channels; i++) f[i] = (float)q[i] / 32768.0f;
    if (ear_clip_create(f, n, channels, rate, NULL, &c) != EAR_OK) c = NULL;
    free(f);
    return c;
}

/* The scene, its clips stored as 16 bits or as floats. */
static float *render_scene(bool s16) {
    ear_stage *s = new_stage();
    if (!s) return NULL;
    int16_t *qa = s16_data(15000, 1, 440.0, 1), *qb = s16_data(24000, 1, 170.0, 2);
    int16_t *qs = s16_data(900, 2, 300.0, 3), *qo = s16_data(9600, 1, 700.0, 4);
    ear_clip *tone = clip_of(qa, 15000, 1, 48000, s16);
    ear_clip *noise = clip_of(qb, 24000, 1, 22050, s16);
    ear_clip *stereo = clip_of(qs, 900, 2, 32000, s16);
    ear_clip *shot = clip_of(qo, 9600, 1, 44100, s16);
    free(qa), free(qb), free(qs), free(qo);
    if (!tone || !noise || !stereo || !shot) return NULL;

    ear_voice_id ids[VOICES];
    for (int i = 0; i < VOICES; i++) {
        double a = 2.0 * PI_D * i / VOICES;
        ear_play p = placed_at((float)(8.0 * cos(a)), (float)(i % 5 == 0 ? -2 : 0),
                               (float)(8.0 * sin(a)));
        p.velocity = ear_vec3_make((float)(-9.0 * sin(a)), 0, (float)(9.0 * cos(a)));
        p.attenuation = (ear_attenuation){EAR_MODEL_INVERSE, 1.0f, 100.0f, 1.0f};
        p.occlusion = i % 4 == 0 ? 0.5f : 0.0f;
        p.loop_crossfade_s = i % 3 == 0 ? 0.03f : 0.0f;
        p.pitch = 0.7f + 0.25f * (float)(i % 12); /* 0.7 .. 3.45: every read path */
        ear_stage_play(s, i % 2 ? tone : noise, &p, &ids[i]);
    }
    ear_stage_play(s, stereo, &(ear_play){.looping = true, .pan = 0.4f, .pitch = 0.9f}, NULL);
    ear_play ps = placed_at(1, 0, -3);
    ear_stage_play(s, stereo, &ps, NULL);
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
        bd.layers[l].gain[0] = (ear_curve){
            .param = "rpm", .count = 2, .x = {0, 1}, .y = {l ? 0.2f : 1.0f, l ? 1.0f : 0.4f}};
        bd.layers[l].pitch_count = 1;
        bd.layers[l].pitch[0] =
            (ear_curve){.param = "rpm", .count = 2, .x = {0, 1}, .y = {0.95f, l ? 3.5f : 1.6f}};
    }
    ear_stage_register_blend(s, &bd);
    ear_voice_id engine = 0;
    ear_play ep = placed_at(-3, 0, 2);
    ear_stage_play_blend(s, "engine", &ep, &engine);
    ear_clip_release(tone);
    ear_clip_release(noise);
    ear_clip_release(stereo);
    ear_clip_release(shot);

    float *out = malloc(TOTAL * 2 * sizeof *out);
    for (uint32_t done = 0, event = 0; done < TOTAL; done += 4800, event++) {
        for (int i = 0; i < VOICES; i++) {
            double a = 2.0 * PI_D * i / VOICES + 0.2 * event;
            ear_stage_set_position(s, ids[i],
                                   ear_vec3_make((float)(8.0 * cos(a)),
                                                 (float)(i % 5 == 0 ? -2 : 0),
                                                 (float)(8.0 * sin(a))));
            if (i % 6 == 0) ear_stage_set_occlusion(s, ids[i], (float)(event % 3) * 0.4f);
        }
        ear_stage_set_param(s, engine, "rpm", (float)(event % 5) * 0.25f);
        ear_stage_render(s, out + 2 * (size_t)done, 4800);
    }
    ear_stage_destroy(s);
    return out;
}

TEST(a_16_bit_scene_renders_as_its_float_twin_bit_for_bit) {
    float *f = render_scene(false), *q = render_scene(true);
    ASSERT_NOT_NULL(f);
    ASSERT_NOT_NULL(q);
    ASSERT_DBL_GT(ear_rms(f, TOTAL, 2, 0), 0.02);
    double worst = 0.0;
    for (size_t i = 0; i < (size_t)TOTAL * 2; i++) {
        double d = fabs((double)f[i] - (double)q[i]);
        if (d > worst) worst = d;
    }
    ASSERT_NEAR(worst, 0.0, 0.0);
    ASSERT_MEM_EQ(f, q, (size_t)TOTAL * 2 * sizeof *f);
    free(f);
    free(q);
}

TEST(floats_are_rounded_to_16_bits_and_clamped) {
    const float in[] = {0.0f,        0.5f,         -1.0f,         1.0f,
                        2.0f,        -3.0f,        NAN,           INFINITY,
                        -INFINITY,   1.0f / 65536, -1.0f / 65536, 0.4999f / 32768,
                        3.0f / 65536};
    const int16_t want[] = {0, 16384, -32768, 32767, 32767, -32768, 0, 0, 0, 1, -1, 0, 2};
    uint64_t n = sizeof in / sizeof in[0];
    ear_clip *c = NULL;
    ASSERT_OK(ear_clip_create_ex(in, n, 1, 48000, EAR_CLIP_S16, NULL, &c));
    ASSERT_EQ(ear_clip_flags(c), EAR_CLIP_S16);
    ASSERT_NULL(ear_clip_data(c));
    ASSERT_NULL(ear_clip_data_mut(c));
    const int16_t *d = ear_clip_data_s16(c);
    ASSERT_NOT_NULL(d);
    for (uint64_t i = 0; i < n; i++) ASSERT_EQ(d[i], want[i]);
    ASSERT_EQ(ear_clip_frames(c), n);
    ear_clip_release(c);

    /* A float clip has no 16-bit data; unknown flags are refused. */
    ASSERT_OK(ear_clip_create_ex(in, n, 1, 48000, 0, NULL, &c));
    ASSERT_EQ(ear_clip_flags(c), 0u);
    ASSERT_NULL(ear_clip_data_s16(c));
    ASSERT_NOT_NULL(ear_clip_data(c));
    ear_clip_release(c);
    c = NULL;
    ASSERT_EQ(ear_clip_create_ex(in, n, 1, 48000, 2u, NULL, &c), EAR_E_INVALID_ARG);
    ASSERT_NULL(c);

    /* From 16-bit samples: copied as they are; NULL is silence, to be filled. */
    ASSERT_OK(ear_clip_create_s16(want, n, 1, 48000, NULL, &c));
    ASSERT_MEM_EQ(ear_clip_data_s16(c), want, sizeof want);
    ear_clip_release(c);
    ASSERT_OK(ear_clip_create_s16(NULL, 4, 2, 48000, NULL, &c));
    for (int i = 0; i < 8; i++) ASSERT_EQ(ear_clip_data_s16(c)[i], 0);
    ear_clip_data_s16_mut(c)[3] = 77;
    ASSERT_EQ(ear_clip_data_s16(c)[3], 77);
    ear_clip_release(c);
}

static size_t counted;
static void *count_alloc(size_t size, void *user) {
    (void)user;
    counted += size;
    return malloc(size);
}
static void count_free(void *p, void *user) {
    (void)user;
    free(p);
}

TEST(a_16_bit_clip_takes_half_the_sample_bytes) {
    ear_allocator a = {count_alloc, NULL, count_free, NULL};
    ear_clip *c = NULL;
    counted = 0;
    ASSERT_OK(ear_clip_create_ex(NULL, 48000, 1, 48000, 0, &a, &c));
    size_t f32 = counted;
    ear_clip_release(c);
    counted = 0;
    ASSERT_OK(ear_clip_create_ex(NULL, 48000, 1, 48000, EAR_CLIP_S16, &a, &c));
    size_t s16 = counted;
    ear_clip_release(c);
    ASSERT_EQ(f32 - s16, (size_t)48000 * 2);
    ASSERT_LT(s16, (size_t)48000 * 2 + 128); /* the samples and one header */
}

TEST_MAIN(TEST_ENTRY(a_16_bit_scene_renders_as_its_float_twin_bit_for_bit),
          TEST_ENTRY(floats_are_rounded_to_16_bits_and_clamped),
          TEST_ENTRY(a_16_bit_clip_takes_half_the_sample_bytes))
