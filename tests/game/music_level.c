/* SPDX-License-Identifier: Zlib */
/*
 * music_level <wav> <a_s> <b_s> <len_s>: the level of the window [a, a+len) against the
 * window [b, b+len) of the same WAV, in dB (20 log10 of the RMS ratio, both channels).
 * tests/game/game.sh compares a ducked stretch of the demo's music with the same stretch
 * of the loop one loop later (the same samples of the same loop, so only the gain
 * differs). Prints "db=<x>"; exit 1 when the file cannot be read or a window is outside.
 */
#include "earshot/analysis.h"
#include "earshot/decode.h"
#include "earshot/stage.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static double window_rms(const float *s, size_t frames, uint32_t ch, size_t at, size_t len) {
    (void)frames;
    double l = ear_rms(s + at * ch, len, ch, 0);
    double r = ch > 1 ? ear_rms(s + at * ch, len, ch, 1) : l;
    return sqrt((l * l + r * r) / 2);
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: music_level <wav> <a_s> <b_s> <len_s>\n");
        return 2;
    }
    ear_clip *clip = NULL;
    ear_io_error err = {0};
    if (ear_decode_file(argv[1], NULL, &clip, &err) != EAR_OK) {
        fprintf(stderr, "music_level: %s\n", err.message);
        return 1;
    }
    double rate = ear_clip_sample_rate(clip);
    size_t frames = (size_t)ear_clip_frames(clip);
    uint32_t ch = ear_clip_channels(clip);
    size_t a = (size_t)(atof(argv[2]) * rate), b = (size_t)(atof(argv[3]) * rate);
    size_t len = (size_t)(atof(argv[4]) * rate);
    if (!len || a + len > frames || b + len > frames) {
        fprintf(stderr, "music_level: a window is outside the %.2f s of %s\n",
                (double)frames / rate, argv[1]);
        ear_clip_release(clip);
        return 1;
    }
    const float *s = ear_clip_data(clip);
    double ra = window_rms(s, frames, ch, a, len), rb = window_rms(s, frames, ch, b, len);
    ear_clip_release(clip);
    if (!(ra > 0) || !(rb > 0)) {
        fprintf(stderr, "music_level: a window is silent (%g, %g)\n", ra, rb);
        return 1;
    }
    printf("db=%.3f rms_a=%.5f rms_b=%.5f\n", 20 * log10(ra / rb), ra, rb);
    return 0;
}
