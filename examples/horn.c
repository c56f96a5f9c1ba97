/* SPDX-License-Identifier: Zlib */
#include <earshot/analysis.h>
#include <earshot/stage.h>
#include <earshot/synth.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    if (argc > 1) { /* --help and --version, as every Earshot program */
        int help = strcmp(argv[1], "--help") == 0, version = strcmp(argv[1], "--version") == 0;
        if (version) printf("horn (Earshot) %s\n", ear_version());
        if (!version)
            fputs("usage: horn [--help | --version]\n"
                  "Prints the pitch heard from a 440 Hz horn driving towards you at 30 m/s.\n",
                  help ? stdout : stderr);
        return help || version ? 0 : 2;
    }
    ear_stage *stage;
    ear_stage_create(NULL, &stage); /* NULL: 48 kHz stereo, defaults */
    ear_clip *horn;
    ear_synth_clip(&(ear_synth){.waveform = EAR_WAVE_SINE, .frequency_hz = 440}, NULL, &horn);
    ear_play at = {.looping = true, .placed = true, .position = {-200, 0, 0}};
    at.velocity = ear_vec3_make(30, 0, 0); /* towards the listener at 30 m/s */
    at.attenuation.model = EAR_MODEL_NONE;
    ear_stage_play(stage, horn, &at, NULL);
    static float out[2 * 48000];
    ear_stage_render(stage, out, 48000); /* one second, interleaved stereo */
    printf("%.1f Hz\n", ear_dominant_hz(out, 48000, 2, 0, 48000));
    ear_clip_release(horn);
    ear_stage_destroy(stage);
}
