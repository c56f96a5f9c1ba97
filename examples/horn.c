#include <earshot/analysis.h>
#include <earshot/stage.h>
#include <earshot/synth.h>
#include <stdio.h>

int main(void) {
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
