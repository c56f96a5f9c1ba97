/* SPDX-License-Identifier: Zlib */
/*
 * The demo game's sounds and music loops, made from the synth (docs/game.md). The native
 * build's make_sounds writes each one as a WAV at build time and the game loads them
 * through the asset cache; the web build, which reads no sound files, makes the same
 * clips at start and registers them with the cache under the same names.
 */
#include "sounds.h"

#include "earshot/synth.h"

#include <stdint.h>
#include <stdio.h>

#define RATE DEMO_SOUNDS_RATE

typedef struct out {
    demo_sound_fn fn;
    void *user;
    int failed;
} out;

static void emit(out *o, const char *name, ear_result made, ear_clip *clip) {
    if (made != EAR_OK) o->failed++;
    o->fn(o->user, name, made, made == EAR_OK ? clip : NULL);
}

static ear_synth part(ear_waveform w, float hz, float seconds, float amp, ear_envelope env) {
    ear_synth s = {0};
    s.waveform = w;
    s.frequency_hz = hz;
    s.seconds = seconds;
    s.amplitude = amp;
    s.sample_rate = RATE;
    s.envelope = env;
    return s;
}

static ear_synth sweep(ear_waveform w, float hz, float to_hz, float seconds, float amp,
                       ear_envelope env) {
    ear_synth s = part(w, hz, seconds, amp, env);
    s.end_frequency_hz = to_hz;
    return s;
}

/* A silent part: a sine of the smallest amplitude the synth takes, then cut to zero by a
 * release as long as the part. */
static ear_synth rest(float seconds) {
    return part(EAR_WAVE_SINE, 100, seconds, 1e-6f, (ear_envelope){0, 0, seconds});
}

static void layers(out *o, const char *name, const ear_synth *p, size_t n) {
    ear_clip *c = NULL;
    ear_result r = ear_synth_clip_layers(p, n, NULL, &c);
    emit(o, name, r, c);
}

static void sequence(out *o, const char *name, const ear_synth *p, size_t n) {
    ear_clip *c = NULL;
    ear_result r = ear_synth_clip_sequence(p, n, NULL, &c);
    emit(o, name, r, c);
}

/* A bar of music: notes of `beat` seconds (0 Hz is a rest), soft triangle tones. */
static void music(out *o, const char *name, const float *notes, size_t n, float beat,
                  ear_waveform w) {
    ear_synth parts[64];
    for (size_t i = 0; i < n && i < 64; i++)
        parts[i] = notes[i] > 0
                       ? part(w, notes[i], beat, 0.22f, (ear_envelope){0.01f, 0.35f, 0.05f})
                       : rest(beat);
    sequence(o, name, parts, n < 64 ? n : 64);
}

int demo_sounds_make(demo_sound_fn fn, void *user) {
    out o_ = {fn, user, 0};
    out *o = &o_;
    const ear_envelope tick = {0.002f, 0.02f, 0.01f};

    /* Footsteps, three per surface (a pool picks one): stone is a bright click on a
     * low knock, grass a soft long rustle, wood a hollow mid knock. */
    for (int i = 0; i < 3; i++) {
        char name[32];
        ear_synth stone[2] = {part(EAR_WAVE_NOISE, 440, 0.06f, 0.30f, tick),
                              part(EAR_WAVE_TRIANGLE, 170.0f + 15.0f * (float)i, 0.07f, 0.35f,
                                   (ear_envelope){0.002f, 0.025f, 0.01f})};
        stone[0].seed = (uint64_t)(11 + i);
        snprintf(name, sizeof name, "step_stone_%d", i + 1);
        layers(o, name, stone, 2);
        ear_synth grass[1] = {
            part(EAR_WAVE_NOISE, 440, 0.14f, 0.16f, (ear_envelope){0.03f, 0.05f, 0.04f})};
        grass[0].seed = (uint64_t)(21 + i);
        snprintf(name, sizeof name, "step_grass_%d", i + 1);
        layers(o, name, grass, 1);
        ear_synth wood[2] = {part(EAR_WAVE_TRIANGLE, 300.0f + 25.0f * (float)i, 0.09f, 0.40f,
                                  (ear_envelope){0.002f, 0.03f, 0.01f}),
                             part(EAR_WAVE_NOISE, 440, 0.03f, 0.10f, tick)};
        wood[1].seed = (uint64_t)(31 + i);
        snprintf(name, sizeof name, "step_wood_%d", i + 1);
        layers(o, name, wood, 2);
    }
    /* A wall close by: a soft high tick placed where the wall is. */
    ear_synth wall[1] = {part(EAR_WAVE_SINE, 1800, 0.04f, 0.20f, tick)};
    layers(o, "wall_near", wall, 1);
    /* Walking into a wall: a dull thud. */
    ear_synth bump[2] = {
        part(EAR_WAVE_SINE, 90, 0.15f, 0.6f, (ear_envelope){0.002f, 0.05f, 0.02f}),
        part(EAR_WAVE_NOISE, 440, 0.05f, 0.2f, tick)};
    layers(o, "bump", bump, 2);
    /* The guide: a bell of 1000 Hz with its fourth harmonic at 4000 Hz, once every half
     * second. Its bright partial dulls behind the player (the stage's behind cue). */
    ear_synth bell[2] = {
        part(EAR_WAVE_SINE, 1000, 0.18f, 0.35f, (ear_envelope){0.003f, 0.06f, 0.03f}),
        part(EAR_WAVE_SINE, 4000, 0.18f, 0.18f, (ear_envelope){0.003f, 0.05f, 0.03f})};
    {
        ear_clip *ping = NULL;
        ear_result r = ear_synth_clip_layers(bell, 2, NULL, &ping);
        if (r == EAR_OK) {
            /* the ping, then silence to half a second */
            ear_clip *c = NULL;
            ear_result made = ear_clip_create(NULL, RATE / 2, 1, RATE, NULL, &c);
            if (made == EAR_OK) {
                float *loop = ear_clip_data_mut(c);
                const float *d = ear_clip_data(ping);
                uint64_t n = ear_clip_frames(ping);
                for (uint64_t i = 0; i < RATE / 2; i++) loop[i] = i < n ? d[i] : 0.0f;
            }
            ear_clip_release(ping);
            emit(o, "guide", made, c);
        } else {
            emit(o, "guide", r, NULL);
        }
    }
    /* The goal beacon: two soft alternating tones (660, 880 Hz), a slow call. */
    ear_synth beacon[4] = {
        part(EAR_WAVE_TRIANGLE, 660, 0.25f, 0.3f, (ear_envelope){0.01f, 0.1f, 0.05f}),
        rest(0.15f),
        part(EAR_WAVE_TRIANGLE, 880, 0.25f, 0.3f, (ear_envelope){0.01f, 0.1f, 0.05f}),
        rest(0.35f)};
    sequence(o, "beacon", beacon, 4);
    /* The radio: a little tune in a square voice, heard muffled through walls. */
    const float radio_notes[] = {523, 659, 784, 659, 587, 698, 880, 698};
    ear_synth radio[8];
    for (int i = 0; i < 8; i++)
        radio[i] = part(EAR_WAVE_SQUARE, radio_notes[i], 0.2f, 0.12f,
                        (ear_envelope){0.005f, 0.15f, 0.02f});
    sequence(o, "radio", radio, 8);
    /* A pickup's sparkle: quick high notes. */
    ear_synth sparkle[4] = {part(EAR_WAVE_SINE, 2093, 0.08f, 0.18f, tick),
                            part(EAR_WAVE_SINE, 2637, 0.08f, 0.18f, tick),
                            part(EAR_WAVE_SINE, 3136, 0.08f, 0.18f, tick), rest(0.36f)};
    sequence(o, "sparkle", sparkle, 4);
    ear_synth collect[3] = {
        part(EAR_WAVE_SINE, 880, 0.08f, 0.3f, tick),
        part(EAR_WAVE_SINE, 1109, 0.08f, 0.3f, tick),
        part(EAR_WAVE_SINE, 1319, 0.2f, 0.3f, (ear_envelope){0.002f, 0.1f, 0.05f})};
    sequence(o, "collect", collect, 3);
    ear_synth reached[3] = {
        part(EAR_WAVE_TRIANGLE, 523, 0.5f, 0.17f, (ear_envelope){0.01f, 0.3f, 0.1f}),
        part(EAR_WAVE_TRIANGLE, 659, 0.5f, 0.17f, (ear_envelope){0.01f, 0.3f, 0.1f}),
        part(EAR_WAVE_TRIANGLE, 784, 0.5f, 0.17f, (ear_envelope){0.01f, 0.3f, 0.1f})};
    layers(o, "fanfare", reached, 3);
    /* The hazard: a low buzzing saw (55 Hz, below all the music) with a beating second voice
     * (heard coming, doppler). */
    ear_synth buzz[2] = {part(EAR_WAVE_SAW, 55, 1.0f, 0.35f, (ear_envelope){0}),
                         part(EAR_WAVE_SAW, 57, 1.0f, 0.30f, (ear_envelope){0})};
    layers(o, "hazard", buzz, 2);
    ear_synth hurt[1] = {
        sweep(EAR_WAVE_SQUARE, 420, 140, 0.35f, 0.35f, (ear_envelope){0.005f, 0.2f, 0.05f})};
    layers(o, "hurt", hurt, 1);
    /* A crate: a scraping loop while it slides, a knock when it hits. */
    ear_synth scrape[1] = {part(EAR_WAVE_NOISE, 440, 1.0f, 0.15f, (ear_envelope){0})};
    layers(o, "scrape", scrape, 1);
    ear_synth knock[2] = {
        part(EAR_WAVE_TRIANGLE, 140, 0.2f, 0.5f, (ear_envelope){0.002f, 0.06f, 0.03f}),
        part(EAR_WAVE_NOISE, 440, 0.06f, 0.2f, tick)};
    layers(o, "crate_hit", knock, 2);
    /* The car: two engine loops crossfaded by rpm, a shift click, a crash. */
    ear_synth low[1] = {part(EAR_WAVE_ENGINE, 40, 1.0f, 0.35f, (ear_envelope){0})};
    layers(o, "engine_low", low, 1);
    ear_synth high[1] = {part(EAR_WAVE_ENGINE, 80, 1.0f, 0.30f, (ear_envelope){0})};
    layers(o, "engine_high", high, 1);
    ear_synth shift[2] = {part(EAR_WAVE_NOISE, 440, 0.05f, 0.25f, tick),
                          part(EAR_WAVE_SQUARE, 900, 0.03f, 0.1f, tick)};
    layers(o, "shift", shift, 2);
    ear_synth crash[2] = {
        part(EAR_WAVE_NOISE, 440, 0.8f, 0.7f, (ear_envelope){0.002f, 0.25f, 0.1f}),
        sweep(EAR_WAVE_SINE, 120, 40, 0.6f, 0.6f, (ear_envelope){0.002f, 0.3f, 0.1f})};
    layers(o, "crash", crash, 2);
    /* The finish: a bright chord. */
    ear_synth win[3] = {
        part(EAR_WAVE_SINE, 784, 0.8f, 0.17f, (ear_envelope){0.01f, 0.5f, 0.2f}),
        part(EAR_WAVE_SINE, 988, 0.8f, 0.17f, (ear_envelope){0.01f, 0.5f, 0.2f}),
        part(EAR_WAVE_SINE, 1175, 0.8f, 0.17f, (ear_envelope){0.01f, 0.5f, 0.2f})};
    layers(o, "win", win, 3);

    /* Music: one loop per level and one for the menus (quiet, low, slow). */
    const float menu[] = {220, 0, 277, 0, 330, 0, 277, 0};
    music(o, "menu", menu, 8, 0.5f, EAR_WAVE_SINE);
    const float garden[] = {262, 330, 392, 330, 294, 349, 440, 349,
                            262, 330, 392, 523, 494, 392, 330, 294};
    music(o, "garden", garden, 16, 0.3f, EAR_WAVE_TRIANGLE);
    const float cellar[] = {220, 0, 262, 0, 247, 0, 196, 0, 220, 0, 165, 0, 196, 0, 247, 0};
    music(o, "cellar", cellar, 16, 0.35f, EAR_WAVE_TRIANGLE);
    const float road[] = {147, 147, 220, 147, 175, 175, 262, 175,
                          131, 131, 196, 131, 165, 196, 220, 262};
    music(o, "road", road, 16, 0.25f, EAR_WAVE_TRIANGLE);
    return o->failed;
}
