/* SPDX-License-Identifier: Zlib */
/*
 * A fixed scene on the stage's scalar kernel, for the web build's determinism test and
 * its speed page. The same file is built natively (tests/web) and with emcc (web/):
 *
 *     stage_scene hash     prints "hash <16 hex digits> frames <n>": the FNV-1a hash of
 *                          the bits of 3 s of output (a doppler horn far away, a looping
 *                          square behind the listener whose pitch changes, seeded noise
 *                          occluded on the music bus that stops with a fade, a sweep
 *                          with an envelope; and, moving while they play: a car with a
 *                          cone and doppler driving past on the exponential model, a
 *                          drone behind on the fade model whose occlusion rises and
 *                          falls, a listener walking and turning, a blend whose
 *                          parameter sweeps its equal-power curves, pool picks at
 *                          random pitches, music crossfading twice and stopping, and a
 *                          duck of the music under the effects; rendered in uneven
 *                          chunks). Every input the scene computes is made with +, -,
 *                          * and / only, so it is the same on both builds too.
 *     stage_scene room     prints "room <16 hex digits> tail_db <x>": the hash of 2 s of a
 *                          0.05 s noise burst sent fully into the cave preset's room
 *                          (mixer.h's reverb), and its tail: the energy 200..300 ms
 *                          after the burst over its first 50 ms, in dB (the room is
 *                          there: the demo game's cellar in the browser)
 *     stage_scene portable prints "portable <16 hex digits> samples <n> synth-peak <x>":
 *                          the FNV-1a hash of 120 synth parts (sine, engine, triangle,
 *                          saw, square; plain, swept, enveloped; 4.8 M samples, the
 *                          synth's sin, cos, exp, log and expm1 at every sample), of
 *                          parts named with long mantissas and large exponents, and of
 *                          the physics world's direction vectors for 7200 facings and
 *                          pitches (ear_forward_from_facing, ear_right_from_facing):
 *                          everything the portable math (src/math) makes bit-equal
 *                          across the two builds.
 *     stage_scene bench V S  prints "ns_per_voice_frame <x> voices <V> seconds <S>":
 *                          V looping placed voices rendered for S seconds of audio,
 *                          best of 3 runs (the machine may be loaded)
 *
 * The page calls the same two functions through ear_web_scene_hash and
 * ear_web_scene_bench (web/page/bench.html and the tests).
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include "earshot/mixer.h"
#include "earshot/physics.h"
#include "earshot/stage.h"
#include "earshot/synth.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#define EXPORT EMSCRIPTEN_KEEPALIVE
#else
#define EXPORT
#endif

#define RATE 48000u

static ear_stage *scalar_stage(void) {
    ear_stage_config c = ear_stage_config_default();
    c.kernel = EAR_KERNEL_SCALAR;
    ear_stage *s = NULL;
    if (ear_stage_create(&c, &s) != EAR_OK) return NULL;
    return s;
}

static ear_clip *clip(ear_waveform w, float hz, float end_hz, float seconds, bool envelope) {
    ear_synth syn = {.waveform = w,
                     .frequency_hz = hz,
                     .end_frequency_hz = end_hz,
                     .seconds = seconds,
                     .amplitude = 0.4f,
                     .seed = 7};
    if (envelope) {
        syn.envelope.attack_s = 0.05f;
        syn.envelope.release_s = 0.2f;
    }
    ear_clip *c = NULL;
    if (ear_synth_clip(&syn, NULL, &c) != EAR_OK) return NULL;
    return c;
}

static uint64_t fnv(uint64_t h, const float *x, size_t n) {
    for (size_t i = 0; i < n; i++) {
        uint32_t u;
        memcpy(&u, &x[i], sizeof u);
        for (int b = 0; b < 4; b++) {
            h ^= (u >> (8 * b)) & 0xffu;
            h *= 0x100000001b3ull;
        }
    }
    return h;
}

/* The blend ("wind": a tone and noise crossfading along "speed", equal-power, the
 * tone's pitch rising with it), the pool ("blips": picks at random pitches within
 * +-5 semitones) and the duck (the music 9 dB down while effects sound). */
static ear_result moving_setup(ear_stage *st, ear_clip *tone, ear_clip *noise, ear_clip *blip) {
    ear_blend_def b = {.name = "wind", .param_count = 1, .layer_count = 2, .volume = 0.5f};
    b.params[0] = (ear_blend_param){.name = "speed", .min = 0, .max = 1, .initial = 0.1f};
    ear_curve up = {
        .param = "speed", .count = 2, .x = {0, 1}, .y = {0, 1}, .shape = EAR_CURVE_EQUAL_POWER};
    ear_curve down = {.param = "speed",
                      .count = 3,
                      .x = {0, 0.6f, 1},
                      .y = {1, 0.5f, 0},
                      .shape = EAR_CURVE_EQUAL_POWER};
    ear_curve rise = {.param = "speed", .count = 2, .x = {0, 1}, .y = {0.8f, 1.6f}};
    b.layers[0] = (ear_blend_layer){.clip = tone, .gain_count = 1, .pitch_count = 1};
    b.layers[0].gain[0] = up;
    b.layers[0].pitch[0] = rise;
    b.layers[1] = (ear_blend_layer){.clip = noise, .gain_count = 1, .loop_crossfade_s = 0.05f};
    b.layers[1].gain[0] = down;
    ear_result r = ear_stage_register_blend(st, &b);
    if (r != EAR_OK) return r;
    ear_pool_def pool = {.name = "blips",
                         .clip_count = 1,
                         .clips = {blip},
                         .volume_min = 0.5f,
                         .volume_max = 0.9f,
                         .pitch_semitones_min = -5,
                         .pitch_semitones_max = 5};
    r = ear_stage_register_pool(st, &pool);
    if (r != EAR_OK) return r;
    ear_duck_rule duck = {.name = "fx",
                          .trigger = EAR_BUS_SFX,
                          .target = EAR_BUS_MUSIC,
                          .gain_db = -9,
                          .attack_s = 0.08f,
                          .release_s = 0.3f};
    return ear_stage_set_duck(st, &duck);
}

/* The moving part at time t (in chunks of 0.1 s): the car drives along x past the
 * listener, the drone's occlusion rises and falls, the blend's speed sweeps, and the
 * listener walks forward while it turns (its forward vector on the rational
 * parametrisation of the circle: no sin or cos in the scene itself). */
static bool move(ear_stage *st, ear_voice_id car, ear_voice_id drone, ear_voice_id blend,
                 float t) {
    bool failed = false;
    float x = -24.0f + 1.6f * t; /* 16 m/s */
    failed |=
        ear_stage_set_motion(st, car, (ear_vec3){x, 0, -3}, (ear_vec3){16, 0, 0}) != EAR_OK;
    failed |= ear_stage_set_forward(st, car, (ear_vec3){1, 0, 0.25f - 0.01f * t}) != EAR_OK;
    float tri = t < 15.0f ? t / 15.0f : (30.0f - t) / 15.0f;
    failed |= ear_stage_set_occlusion(st, drone, tri) != EAR_OK;
    failed |= ear_stage_set_position(
                  st, drone, (ear_vec3){4.0f - 0.2f * t, -1, 6.0f - 0.1f * t}) != EAR_OK;
    failed |= ear_stage_set_param(st, blend, "speed", t / 30.0f) != EAR_OK;
    float u = (t - 15.0f) / 20.0f; /* from -0.75 to 0.75: about -74 to 74 degrees */
    float d = 1.0f + u * u;
    ear_listener l = {.position = {0.05f * t, 0, -0.15f * t},
                      .velocity = {0.5f, 0, -1.5f},
                      .forward = {2.0f * u / d, 0, -(1.0f - u * u) / d},
                      .up = {0, 1, 0}};
    failed |= ear_stage_set_listener(st, &l) != EAR_OK;
    return failed;
}

uint64_t ear_web_scene_hash(void);
double ear_web_scene_bench(int voices, double seconds);
uint64_t ear_web_portable_hash(uint64_t *out_samples, float *out_peak);

/* 3 s of the fixed scene; 0 when something could not be made or a call failed. */
EXPORT uint64_t ear_web_scene_hash(void) {
    ear_stage *st = scalar_stage();
    ear_clip *horn = clip(EAR_WAVE_SINE, 440, 0, 1, false);
    ear_clip *square = clip(EAR_WAVE_SQUARE, 220, 0, 0.5f, false);
    ear_clip *noise = clip(EAR_WAVE_NOISE, 0, 0, 1, false);
    ear_clip *sweep = clip(EAR_WAVE_SAW, 200, 1600, 1.5f, true);
    ear_clip *car = clip(EAR_WAVE_SAW, 180, 0, 1, false);
    ear_clip *drone = clip(EAR_WAVE_SQUARE, 95, 0, 1, false);
    ear_clip *tone = clip(EAR_WAVE_SINE, 523.25f, 0, 1, false);
    ear_clip *blip = clip(EAR_WAVE_TRIANGLE, 880, 0, 0.12f, true);
    ear_clip *tune_a = clip(EAR_WAVE_TRIANGLE, 330, 0, 0.75f, false);
    ear_clip *tune_b = clip(EAR_WAVE_SAW, 247, 0, 0.6f, false);
    uint64_t h = 0;
    bool failed = false;
    float peak = 0.0f;
    if (!st || !horn || !square || !noise || !sweep || !car || !drone || !tone || !blip ||
        !tune_a || !tune_b || moving_setup(st, tone, noise, blip) != EAR_OK)
        goto done;
    ear_voice_id v_horn = 0, v_square = 0, v_noise = 0, v_sweep = 0;
    ear_play p_horn = {
        .looping = true, .placed = true, .position = {-60, 0, 5}, .velocity = {30, 0, 0}};
    ear_play p_square = {
        .looping = true, .placed = true, .position = {0, 0, -4}, .volume = 0.5f};
    ear_play p_noise = {.looping = true,
                        .placed = true,
                        .position = {3, 1, 2},
                        .occlusion = 0.7f,
                        .bus = EAR_BUS_MUSIC};
    ear_play p_sweep = {.placed = false, .pan = -0.4f, .pitch = 1.25f};
    ear_stage_play(st, horn, &p_horn, &v_horn);
    ear_stage_play(st, square, &p_square, &v_square);
    ear_stage_play(st, noise, &p_noise, &v_noise);
    ear_stage_play(st, sweep, &p_sweep, &v_sweep);
    ear_voice_id v_car = 0, v_drone = 0, v_blend = 0;
    ear_play p_car = {
        .looping = true,
        .placed = true,
        .position = {-24, 0, -3},
        .velocity = {16, 0, 0},
        .forward = {1, 0, 0.25f},
        .attenuation = {.model = EAR_MODEL_EXPONENTIAL, .rolloff = 1.3f},
        .cone = {.inner_angle_rad = 1.0f, .outer_angle_rad = 2.6f, .outer_gain = 0.2f},
        .doppler_factor = 1.5f,
        .volume = 0.8f};
    ear_play p_drone = {.looping = true,
                        .placed = true,
                        .position = {4, -1, 6},
                        .attenuation = {.model = EAR_MODEL_FADE, .max_distance_m = 30},
                        .volume = 0.6f,
                        .smoothing_ms = 35};
    ear_play p_blend = {.placed = true, .position = {-2, 0, 1}, .no_doppler = true};
    failed |= ear_stage_play(st, car, &p_car, &v_car) != EAR_OK;
    failed |= ear_stage_play(st, drone, &p_drone, &v_drone) != EAR_OK;
    failed |= ear_stage_play_blend(st, "wind", &p_blend, &v_blend) != EAR_OK;
    ear_music_params m_a = {.name = "a",
                            .source = {.clip = tune_a},
                            .loop = true,
                            .crossfade_s = 0.4f,
                            .volume = 0.7f};
    ear_music_params m_b = {
        .name = "b", .source = {.clip = tune_b}, .loop = true, .crossfade_s = 0.9f};
    static float out[2 * 4800];
    h = 0xcbf29ce484222325ull;
    for (int chunk = 0; chunk < 30; chunk++) { /* 30 chunks of 0.1 s */
        if (chunk == 12) failed |= ear_stage_set_pitch(st, v_square, 1.5f) != EAR_OK;
        if (chunk == 18) failed |= ear_stage_stop(st, v_noise, 0.3f) != EAR_OK;
        if (chunk == 2) failed |= ear_stage_music_play(st, &m_a) != EAR_OK;
        if (chunk == 14) failed |= ear_stage_music_play(st, &m_b) != EAR_OK;
        if (chunk == 26) failed |= ear_stage_music_stop(st, 0.35f) != EAR_OK;
        if (chunk % 6 == 3) {
            ear_play p_blip = {.placed = true, .position = {(float)(chunk - 15) * 0.4f, 0, -2}};
            failed |= ear_stage_play_pool(st, "blips", &p_blip, NULL) != EAR_OK;
        }
        if (chunk == 9) failed |= ear_stage_set_volume(st, v_drone, 1.0f) != EAR_OK;
        if (chunk == 21) failed |= ear_stage_set_volume(st, v_car, 0.3f) != EAR_OK;
        /* Uneven render sizes: the stage's output does not depend on the chunking. */
        uint32_t first = 1000 + (uint32_t)(chunk * 37) % 1500;
        for (int half = 0; half < 2; half++) {
            failed |= move(st, v_car, v_drone, v_blend, (float)chunk + 0.5f * (float)half);
            uint32_t n = half ? 4800 - first : first;
            ear_stage_render(st, out, n);
            h = fnv(h, out, (size_t)n * 2);
            for (uint32_t i = 0; i < 2 * n; i++)
                if (out[i] > peak || -out[i] > peak) peak = out[i] > 0 ? out[i] : -out[i];
        }
    }
    /* Every call must have worked, and the hash means something only if the scene is
     * not silence. */
    if (failed || !(peak > 0.05f)) h = 0;
done:
    ear_clip_release(car);
    ear_clip_release(drone);
    ear_clip_release(tone);
    ear_clip_release(blip);
    ear_clip_release(tune_a);
    ear_clip_release(tune_b);
    ear_clip_release(horn);
    ear_clip_release(square);
    ear_clip_release(noise);
    ear_clip_release(sweep);
    ear_stage_destroy(st);
    return h;
}

/* The portable math's users, hashed (the "portable" mode above); 0 when a part fails. */
EXPORT uint64_t ear_web_portable_hash(uint64_t *out_samples, float *out_peak) {
    static const ear_waveform waves[] = {EAR_WAVE_SINE, EAR_WAVE_ENGINE, EAR_WAVE_TRIANGLE,
                                         EAR_WAVE_SAW, EAR_WAVE_SQUARE};
    static float buf[48000];
    uint64_t h = 0xcbf29ce484222325ull, samples = 0;
    float peak = 0;
    for (int k = 0; k < 120; k++) {
        ear_synth syn = {.waveform = waves[k % 5],
                         .frequency_hz = 37.0f + 113.7f * (float)k,
                         .end_frequency_hz = k % 3 == 0 ? 0.0f : 80.0f + 97.3f * (float)k,
                         .seconds = 0.8f,
                         .amplitude = 0.9f,
                         .envelope = {.attack_s = k % 2 ? 0.01f : 0.0f,
                                      .decay_s = k % 4 == 1 ? 0.7f : 0.0f,
                                      .release_s = k % 7 == 0 ? 0.0f : 0.05f}};
        uint64_t n = ear_synth_frames(&syn);
        if (n > 48000 || ear_synth_render(&syn, buf, n) != EAR_OK) return 0;
        h = fnv(h, buf, (size_t)n);
        samples += n;
        for (uint64_t i = 0; i < n; i++)
            if (buf[i] > peak || -buf[i] > peak) peak = buf[i] > 0 ? buf[i] : -buf[i];
    }
    /* Names whose numbers are scaled by powers of ten beyond the exact ones. */
    static const char *names[] = {"synth:sine:4400000000000000000000e-19:0.1",
                                  "synth:engine:1234567890123456789e-40:0.1",
                                  "synth:sine:1234567890123456789012345e-22:0.1:0.3"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        ear_synth syn;
        if (ear_synth_parse_name(names[i], &syn) != EAR_OK) return 0;
        h = fnv(h, &syn.frequency_hz, 1);
        uint64_t n = ear_synth_frames(&syn);
        if (n > 48000 || ear_synth_render(&syn, buf, n) != EAR_OK) return 0;
        h = fnv(h, buf, (size_t)n);
        samples += n;
    }
    for (int i = 0; i < 7200; i++) {
        float facing = -720.0f + 0.2f * (float)i, pitch = -90.0f + 0.025f * (float)i;
        ear_vec3 f = ear_forward_from_facing(facing, pitch), r = ear_right_from_facing(facing);
        float v[6] = {f.x, f.y, f.z, r.x, r.y, r.z};
        h = fnv(h, v, 6);
    }
    *out_samples = samples;
    *out_peak = peak;
    return h;
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Nanoseconds per voice-frame of `voices` placed looping voices (best of 3); < 0 when
 * the stage could not be made. */
EXPORT double ear_web_scene_bench(int voices, double seconds) {
    if (voices < 1 || voices > 64 || !(seconds > 0)) return -1;
    double best = -1;
    for (int run = 0; run < 3; run++) {
        ear_stage *st = scalar_stage();
        ear_clip *c = clip(EAR_WAVE_SAW, 110, 0, 1, false);
        if (!st || !c) {
            ear_clip_release(c);
            ear_stage_destroy(st);
            return -1;
        }
        for (int i = 0; i < voices; i++) {
            ear_play p = {.looping = true,
                          .placed = true,
                          .pitch = 1.0f + 0.01f * (float)i,
                          .position = {(float)(i % 8) - 4, 0, (float)(i / 8) + 1}};
            ear_stage_play(st, c, &p, NULL);
        }
        static float out[2 * 1024];
        uint64_t total = (uint64_t)(seconds * RATE), done = 0;
        double t0 = now_s();
        while (done < total) {
            uint32_t n = total - done < 1024 ? (uint32_t)(total - done) : 1024;
            ear_stage_render(st, out, n);
            done += n;
        }
        double ns = (now_s() - t0) * 1e9 / ((double)total * voices);
        if (best < 0 || ns < best) best = ns;
        ear_clip_release(c);
        ear_stage_destroy(st);
    }
    return best;
}

/* The room: the cave preset, a seeded noise burst sending 1, 2 s rendered in 0.1 s chunks.
 * Returns the hash (0 on failure) and the tail over the head in dB. */
uint64_t ear_web_room_hash(double *tail_db);
EXPORT uint64_t ear_web_room_hash(double *tail_db) {
    ear_stage *st = scalar_stage();
    ear_clip *burst = clip(EAR_WAVE_NOISE, 0, 0, 0.05f, false);
    ear_reverb_params cave;
    uint64_t h = 0;
    if (st && burst && ear_reverb_preset_params(EAR_REVERB_CAVE, &cave) == EAR_OK &&
        ear_stage_set_reverb(st, &cave, 0.02f) == EAR_OK) {
        static float out[2 * RATE * 2];
        float pre[2 * 4800];
        for (int i = 0; i < 5; i++) ear_stage_render(st, pre, 4800); /* the room settles */
        if (ear_stage_play(st, burst, &(ear_play){.reverb_send = 1.0f}, NULL) == EAR_OK) {
            for (uint32_t f = 0; f < 2 * RATE; f += 4800)
                ear_stage_render(st, out + 2 * f, 4800);
            h = fnv(0xcbf29ce484222325ull, out, 2 * RATE * 2);
            double head = 0, tail = 0;
            for (uint32_t i = 0; i < RATE / 20; i++)
                head +=
                    (double)out[2 * i] * out[2 * i] + (double)out[2 * i + 1] * out[2 * i + 1];
            for (uint32_t i = RATE / 5; i < 3 * RATE / 10; i++)
                tail +=
                    (double)out[2 * i] * out[2 * i] + (double)out[2 * i + 1] * out[2 * i + 1];
            /* per sample: 50 ms of head against 100 ms of tail */
            if (tail_db) *tail_db = 10.0 * log10((tail / (RATE / 10)) / (head / (RATE / 20)));
        }
    }
    if (burst) ear_clip_release(burst);
    ear_stage_destroy(st);
    return h;
}

int main(int argc, char **argv) {
    if (argc >= 2 && strcmp(argv[1], "room") == 0) {
        double tail_db = 0;
        uint64_t h = ear_web_room_hash(&tail_db);
        if (!h) {
            fprintf(stderr, "stage_scene: the room could not be made\n");
            return 1;
        }
        printf("room %016llx tail_db %.2f\n", (unsigned long long)h, tail_db);
        return 0;
    }
    if (argc >= 2 && strcmp(argv[1], "hash") == 0) {
        uint64_t h = ear_web_scene_hash();
        if (!h) {
            fprintf(stderr, "stage_scene: the scene could not be made\n");
            return 1;
        }
        printf("hash %016llx frames %u\n", (unsigned long long)h, 30u * 4800u);
        return 0;
    }
    if (argc >= 2 && strcmp(argv[1], "portable") == 0) {
        uint64_t samples = 0;
        float peak = 0;
        uint64_t h = ear_web_portable_hash(&samples, &peak);
        if (!h) {
            fprintf(stderr, "stage_scene: a synth part could not be made\n");
            return 1;
        }
        printf("portable %016llx samples %llu synth-peak %.9g\n", (unsigned long long)h,
               (unsigned long long)samples, (double)peak);
        return 0;
    }
    if (argc >= 4 && strcmp(argv[1], "bench") == 0) {
        int voices = atoi(argv[2]);
        double seconds = atof(argv[3]);
        double ns = ear_web_scene_bench(voices, seconds);
        if (ns < 0) {
            fprintf(stderr, "stage_scene: bench needs 1..64 voices and seconds > 0\n");
            return 2;
        }
        printf("ns_per_voice_frame %.2f voices %d seconds %g\n", ns, voices, seconds);
        return 0;
    }
    if (argc >= 2 && strcmp(argv[1], "none") == 0) return 0; /* the page calls in itself */
    fprintf(stderr, "usage: stage_scene hash | stage_scene room | stage_scene portable | "
                    "stage_scene bench VOICES SECONDS\n");
    return 2;
}
