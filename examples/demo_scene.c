/* SPDX-License-Identifier: Zlib */
/*
 * A demo scene written against the stage in C (a test-only example; `make run` renders
 * examples/scenes/demo.scene.json with `earshot render`): a few placed and moving synth
 * sounds rendered offline to a WAV, then measured.
 *
 *   - a car engine drives past from left to right in front of the listener at
 *     25 m/s (doppler: higher while it comes, lower as it goes);
 *   - a beacon beeps behind the listener on the right (dull and quieter: the
 *     behind cue);
 *   - a bird chirps above and ahead;
 *   - wind noise sits behind a wall on the left (occluded: low-passed, quieter).
 *
 * Usage: demo_scene [out.wav] [seconds]. Prints one line of measurements per second
 * and a summary; every number comes from the buffer that was written.
 */
#include "earshot/analysis.h"
#include "earshot/stage.h"
#include "earshot/synth.h"
#include "earshot/wav.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RATE 48000u

static ear_clip *make(const ear_synth *parts, size_t n, bool sequence) {
    ear_clip *c = NULL;
    ear_result r = sequence ? ear_synth_clip_sequence(parts, n, NULL, &c)
                            : ear_synth_clip_layers(parts, n, NULL, &c);
    if (r != EAR_OK) {
        fprintf(stderr, "demo_scene: cannot build a clip: %s\n", ear_result_string(r));
        exit(1);
    }
    return c;
}

#ifndef EAR_VERSION
#define EAR_VERSION "0.1.0"
#endif

int main(int argc, char **argv) {
    if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        printf("usage: demo_scene [OUT.wav [SECONDS]]   (default demo_scene.wav, 8 s)\n"
               "       demo_scene --help | --version\n"
               "Renders the demo scene with the stage alone and writes it as a WAV (an\n"
               "existing file is replaced only when it is a WAV Earshot wrote).\n");
        return fflush(stdout) == 0 ? 0 : 1;
    }
    if (argc > 1 && strcmp(argv[1], "--version") == 0) {
        printf("demo_scene (Earshot) %s\n", EAR_VERSION);
        return fflush(stdout) == 0 ? 0 : 1;
    }
    if (argc > 3 || (argc > 1 && argv[1][0] == '-')) {
        fprintf(stderr, "usage: demo_scene [OUT.wav [SECONDS]]\n");
        return 2;
    }
    const char *path = argc > 1 ? argv[1] : "demo_scene.wav";
    char *end = NULL;
    double seconds = argc > 2 ? strtod(argv[2], &end) : 8.0;
    if ((argc > 2 && (end == argv[2] || *end)) || !(seconds > 0.5 && seconds <= 600.0)) {
        fprintf(stderr, "demo_scene: seconds must be a number in (0.5, 600], got %s\n",
                argv[2]);
        return 2;
    }
    uint32_t frames = (uint32_t)(seconds * RATE);

    ear_stage *stage = NULL;
    ear_result r = ear_stage_create(NULL, &stage);
    if (r != EAR_OK) {
        fprintf(stderr, "demo_scene: cannot create the stage: %s\n", ear_result_string(r));
        return 1;
    }

    ear_synth engine = {
        .waveform = EAR_WAVE_ENGINE, .frequency_hz = 60, .seconds = 1, .amplitude = 0.8f};
    ear_synth beep[2] = {{.waveform = EAR_WAVE_SQUARE,
                          .frequency_hz = 880,
                          .seconds = 0.08f,
                          .amplitude = 0.3f,
                          .envelope = {.attack_s = 0.002f, .release_s = 0.01f}},
                         {.waveform = EAR_WAVE_SINE,
                          .frequency_hz = 1,
                          .seconds = 0.72f,
                          .amplitude = 0.0001f}}; /* a near-silent gap completes the period */
    ear_synth chirp[2] = {
        {.waveform = EAR_WAVE_SINE,
         .frequency_hz = 2400,
         .end_frequency_hz = 4200,
         .seconds = 0.12f,
         .amplitude = 0.25f,
         .envelope = {.attack_s = 0.01f, .release_s = 0.04f}},
        {.waveform = EAR_WAVE_SINE, .frequency_hz = 1, .seconds = 0.9f, .amplitude = 0.0001f}};
    ear_synth wind = {.waveform = EAR_WAVE_NOISE, .seconds = 2, .amplitude = 0.3f, .seed = 7};

    ear_clip *engine_clip = make(&engine, 1, false);
    ear_clip *beep_clip = make(beep, 2, true);
    ear_clip *chirp_clip = make(chirp, 2, true);
    ear_clip *wind_clip = make(&wind, 1, false);

    ear_voice_id car, beacon, bird, gust;
    ear_stage_play(stage, engine_clip,
                   &(ear_play){.looping = true,
                               .placed = true,
                               .position = {-100, 0, -8},
                               .velocity = {25, 0, 0},
                               .attenuation = {EAR_MODEL_INVERSE, 5, 200, 1}},
                   &car);
    ear_stage_play(stage, beep_clip,
                   &(ear_play){.looping = true, .placed = true, .position = {3, 0, 4}},
                   &beacon);
    ear_stage_play(stage, chirp_clip,
                   &(ear_play){.looping = true, .placed = true, .position = {-2, 6, -5}},
                   &bird);
    ear_stage_play(stage, wind_clip,
                   &(ear_play){.looping = true,
                               .placed = true,
                               .position = {-6, 0, 0},
                               .occlusion = 0.7f,
                               .loop_crossfade_s = 0.05f},
                   &gust);

    float *out = malloc((size_t)frames * 2 * sizeof *out);
    if (!out) return 1;
    /* A game frame every 800 frames (60 Hz): the car's position follows its velocity. */
    printf("second  peak    rms_l   rms_r   max_delta  dominant_hz\n");
    for (uint32_t done = 0; done < frames;) {
        uint32_t n = frames - done < 800 ? frames - done : 800;
        float t = (float)done / (float)RATE;
        ear_stage_set_position(stage, car, ear_vec3_make(-100.0f + 25.0f * t, 0, -8));
        ear_stage_render(stage, out + 2 * (size_t)done, n);
        done += n;
    }
    for (uint32_t s = 0; s + RATE <= frames; s += RATE) {
        const float *w = out + 2 * (size_t)s;
        printf("%6u  %.4f  %.4f  %.4f  %.5f    %.1f\n", s / RATE,
               (double)ear_peak(w, RATE, 2, EAR_ALL_CHANNELS), ear_rms(w, RATE, 2, 0),
               ear_rms(w, RATE, 2, 1), (double)ear_max_delta(w, RATE, 2, EAR_ALL_CHANNELS),
               ear_dominant_hz(w, RATE, 2, 0, RATE));
    }
    r = ear_wav_write(path, out, frames, 2, RATE);
    printf("\nwrote %s: %.1f s, 48000 Hz stereo float\n", r == EAR_OK ? path : "(failed)",
           seconds);
    printf("peak %.4f  rms %.4f / %.4f  hash %016llx  max_delta %.5f\n",
           (double)ear_peak(out, frames, 2, EAR_ALL_CHANNELS), ear_rms(out, frames, 2, 0),
           ear_rms(out, frames, 2, 1),
           (unsigned long long)ear_hash_samples(out, (size_t)frames * 2),
           (double)ear_max_delta(out, frames, 2, EAR_ALL_CHANNELS));

    free(out);
    ear_clip_release(engine_clip);
    ear_clip_release(beep_clip);
    ear_clip_release(chirp_clip);
    ear_clip_release(wind_clip);
    ear_stage_destroy(stage);
    return r == EAR_OK ? 0 : 1;
}
