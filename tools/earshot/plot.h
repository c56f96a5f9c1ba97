/* SPDX-License-Identifier: Zlib */
/*
 * The picture of a render that `earshot render --plot` draws: waveform, RMS envelope and
 * spectrogram in one SVG.
 */
#ifndef EARSHOT_TOOL_PLOT_H
#define EARSHOT_TOOL_PLOT_H

#include <stdint.h>

/* Writes an SVG of an interleaved stereo buffer to path: the waveform of each channel (min
 * and max per pixel column), the RMS envelope (20 ms windows, in dBFS) and a spectrogram
 * (2048-point Hann FFTs, log frequency 40 Hz .. 20 kHz, -100..0 dB). title labels it.
 * Returns 0, or -1 with errno set when the file cannot be written. */
int ear_plot_svg(const char *path, const float *stereo, uint64_t frames, uint32_t rate,
                 const char *title);

#endif
