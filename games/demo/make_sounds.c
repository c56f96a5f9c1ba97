/*
 * make_sounds: writes every sound the demo game plays into <dir>/sounds/ and its music
 * into <dir>/music/, built from the synth (no downloads). The build runs it once; the
 * game then loads these files through the engine's asset cache, level by level.
 *
 *     make_sounds <assets folder>
 */
#include "earshot/stage.h"
#include "earshot/synth.h"
#include "earshot/wav.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#define RATE 48000

static const char *g_dir;
static int g_failed;

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

static void write_clip(const char *folder, const char *name, ear_result made, ear_clip *clip) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s/%s.wav", g_dir, folder, name);
    if (made != EAR_OK) {
        fprintf(stderr, "make_sounds: %s: %s\n", name, ear_result_string(made));
        g_failed = 1;
        return;
    }
    ear_wav_write_config wc = ear_wav_write_config_default();
    wc.overwrite = true;
    ear_io_error err = {0};
    ear_result wr = ear_wav_write_with(path, ear_clip_data(clip), ear_clip_frames(clip), 1,
                                       RATE, &wc, &err);
    if (wr != EAR_OK) {
        fprintf(stderr, "make_sounds: %s: %s %s\n", path, ear_result_string(wr), err.message);
        g_failed = 1;
    }
    ear_clip_release(clip);
}

static void layers(const char *name, const ear_synth *p, size_t n) {
    ear_clip *c = NULL;
    ear_result r = ear_synth_clip_layers(p, n, NULL, &c);
    write_clip("sounds", name, r, c);
}

static void sequence(const char *folder, const char *name, const ear_synth *p, size_t n) {
    ear_clip *c = NULL;
    ear_result r = ear_synth_clip_sequence(p, n, NULL, &c);
    write_clip(folder, name, r, c);
}

/* A bar of music: notes of `beat` seconds (0 Hz is a rest), soft triangle tones. */
static void music(const char *name, const float *notes, size_t n, float beat, ear_waveform w) {
    ear_synth parts[64];
    for (size_t i = 0; i < n && i < 64; i++)
        parts[i] = notes[i] > 0
                       ? part(w, notes[i], beat, 0.22f, (ear_envelope){0.01f, 0.35f, 0.05f})
                       : rest(beat);
    sequence("sounds", name, parts, n < 64 ? n : 64);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: make_sounds <assets folder>\n");
        return 2;
    }
    g_dir = argv[1];
    char path[1024];
    const char *folders[] = {"", "/sounds", "/music"};
    for (size_t i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s%s", g_dir, folders[i]);
        if (mkdir(path, 0755) != 0 && errno != EEXIST) {
            fprintf(stderr, "make_sounds: %s: %s\n", path, strerror(errno));
            return 1;
        }
    }
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
        layers(name, stone, 2);
        ear_synth grass[1] = {
            part(EAR_WAVE_NOISE, 440, 0.14f, 0.16f, (ear_envelope){0.03f, 0.05f, 0.04f})};
        grass[0].seed = (uint64_t)(21 + i);
        snprintf(name, sizeof name, "step_grass_%d", i + 1);
        layers(name, grass, 1);
        ear_synth wood[2] = {part(EAR_WAVE_TRIANGLE, 300.0f + 25.0f * (float)i, 0.09f, 0.40f,
                                  (ear_envelope){0.002f, 0.03f, 0.01f}),
                             part(EAR_WAVE_NOISE, 440, 0.03f, 0.10f, tick)};
        wood[1].seed = (uint64_t)(31 + i);
        snprintf(name, sizeof name, "step_wood_%d", i + 1);
        layers(name, wood, 2);
    }
    /* A wall close by: a soft high tick placed where the wall is. */
    ear_synth wall[1] = {part(EAR_WAVE_SINE, 1800, 0.04f, 0.20f, tick)};
    layers("wall_near", wall, 1);
    /* Walking into a wall: a dull thud. */
    ear_synth bump[2] = {
        part(EAR_WAVE_SINE, 90, 0.15f, 0.6f, (ear_envelope){0.002f, 0.05f, 0.02f}),
        part(EAR_WAVE_NOISE, 440, 0.05f, 0.2f, tick)};
    layers("bump", bump, 2);
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
            static float loop[RATE / 2];
            const float *d = ear_clip_data(ping);
            uint64_t n = ear_clip_frames(ping);
            for (uint64_t i = 0; i < RATE / 2; i++) loop[i] = i < n ? d[i] : 0.0f;
            ear_clip_release(ping);
            ear_clip *c = NULL;
            ear_result made = ear_clip_create(loop, RATE / 2, 1, RATE, NULL, &c);
            write_clip("sounds", "guide", made, c);
        } else {
            write_clip("sounds", "guide", r, NULL);
        }
    }
    /* The goal beacon: two soft alternating tones (660, 880 Hz), a slow call. */
    ear_synth beacon[4] = {
        part(EAR_WAVE_TRIANGLE, 660, 0.25f, 0.3f, (ear_envelope){0.01f, 0.1f, 0.05f}),
        rest(0.15f),
        part(EAR_WAVE_TRIANGLE, 880, 0.25f, 0.3f, (ear_envelope){0.01f, 0.1f, 0.05f}),
        rest(0.35f)};
    sequence("sounds", "beacon", beacon, 4);
    /* The radio: a little tune in a square voice, heard muffled through walls. */
    const float radio_notes[] = {523, 659, 784, 659, 587, 698, 880, 698};
    ear_synth radio[8];
    for (int i = 0; i < 8; i++)
        radio[i] = part(EAR_WAVE_SQUARE, radio_notes[i], 0.2f, 0.12f,
                        (ear_envelope){0.005f, 0.15f, 0.02f});
    sequence("sounds", "radio", radio, 8);
    /* A pickup's sparkle: quick high notes. */
    ear_synth sparkle[4] = {part(EAR_WAVE_SINE, 2093, 0.08f, 0.18f, tick),
                            part(EAR_WAVE_SINE, 2637, 0.08f, 0.18f, tick),
                            part(EAR_WAVE_SINE, 3136, 0.08f, 0.18f, tick), rest(0.36f)};
    sequence("sounds", "sparkle", sparkle, 4);
    ear_synth collect[3] = {
        part(EAR_WAVE_SINE, 880, 0.08f, 0.3f, tick),
        part(EAR_WAVE_SINE, 1109, 0.08f, 0.3f, tick),
        part(EAR_WAVE_SINE, 1319, 0.2f, 0.3f, (ear_envelope){0.002f, 0.1f, 0.05f})};
    sequence("sounds", "collect", collect, 3);
    ear_synth reached[3] = {
        part(EAR_WAVE_TRIANGLE, 523, 0.5f, 0.17f, (ear_envelope){0.01f, 0.3f, 0.1f}),
        part(EAR_WAVE_TRIANGLE, 659, 0.5f, 0.17f, (ear_envelope){0.01f, 0.3f, 0.1f}),
        part(EAR_WAVE_TRIANGLE, 784, 0.5f, 0.17f, (ear_envelope){0.01f, 0.3f, 0.1f})};
    layers("fanfare", reached, 3);
    /* The hazard: a low buzzing saw (55 Hz, below all the music) with a beating second voice
     * (heard coming, doppler). */
    ear_synth buzz[2] = {part(EAR_WAVE_SAW, 55, 1.0f, 0.35f, (ear_envelope){0}),
                         part(EAR_WAVE_SAW, 57, 1.0f, 0.30f, (ear_envelope){0})};
    layers("hazard", buzz, 2);
    ear_synth hurt[1] = {
        sweep(EAR_WAVE_SQUARE, 420, 140, 0.35f, 0.35f, (ear_envelope){0.005f, 0.2f, 0.05f})};
    layers("hurt", hurt, 1);
    /* A crate: a scraping loop while it slides, a knock when it hits. */
    ear_synth scrape[1] = {part(EAR_WAVE_NOISE, 440, 1.0f, 0.15f, (ear_envelope){0})};
    layers("scrape", scrape, 1);
    ear_synth knock[2] = {
        part(EAR_WAVE_TRIANGLE, 140, 0.2f, 0.5f, (ear_envelope){0.002f, 0.06f, 0.03f}),
        part(EAR_WAVE_NOISE, 440, 0.06f, 0.2f, tick)};
    layers("crate_hit", knock, 2);
    /* The car: two engine loops crossfaded by rpm, a shift click, a crash. */
    ear_synth low[1] = {part(EAR_WAVE_ENGINE, 40, 1.0f, 0.35f, (ear_envelope){0})};
    layers("engine_low", low, 1);
    ear_synth high[1] = {part(EAR_WAVE_ENGINE, 80, 1.0f, 0.30f, (ear_envelope){0})};
    layers("engine_high", high, 1);
    ear_synth shift[2] = {part(EAR_WAVE_NOISE, 440, 0.05f, 0.25f, tick),
                          part(EAR_WAVE_SQUARE, 900, 0.03f, 0.1f, tick)};
    layers("shift", shift, 2);
    ear_synth crash[2] = {
        part(EAR_WAVE_NOISE, 440, 0.8f, 0.7f, (ear_envelope){0.002f, 0.25f, 0.1f}),
        sweep(EAR_WAVE_SINE, 120, 40, 0.6f, 0.6f, (ear_envelope){0.002f, 0.3f, 0.1f})};
    layers("crash", crash, 2);
    /* The finish: a bright chord. */
    ear_synth win[3] = {
        part(EAR_WAVE_SINE, 784, 0.8f, 0.17f, (ear_envelope){0.01f, 0.5f, 0.2f}),
        part(EAR_WAVE_SINE, 988, 0.8f, 0.17f, (ear_envelope){0.01f, 0.5f, 0.2f}),
        part(EAR_WAVE_SINE, 1175, 0.8f, 0.17f, (ear_envelope){0.01f, 0.5f, 0.2f})};
    layers("win", win, 3);

    /* Music: one loop per level and one for the menus (quiet, low, slow). */
    const float menu[] = {220, 0, 277, 0, 330, 0, 277, 0};
    music("menu", menu, 8, 0.5f, EAR_WAVE_SINE);
    const float garden[] = {262, 330, 392, 330, 294, 349, 440, 349,
                            262, 330, 392, 523, 494, 392, 330, 294};
    music("garden", garden, 16, 0.3f, EAR_WAVE_TRIANGLE);
    const float cellar[] = {220, 0, 262, 0, 247, 0, 196, 0, 220, 0, 165, 0, 196, 0, 247, 0};
    music("cellar", cellar, 16, 0.35f, EAR_WAVE_TRIANGLE);
    const float road[] = {147, 147, 220, 147, 175, 175, 262, 175,
                          131, 131, 196, 131, 165, 196, 220, 262};
    music("road", road, 16, 0.25f, EAR_WAVE_TRIANGLE);
    return g_failed;
}
