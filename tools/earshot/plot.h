/* SPDX-License-Identifier: Zlib */
/*
 * The picture of a render that `earshot render --plot` draws: waveform, RMS envelope and
 * spectrogram in one SVG.
 */
#ifndef EARSHOT_TOOL_PLOT_H
#define EARSHOT_TOOL_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The comment on every plot's second line ("<!-- Earshot plot -->"): the mark of a file
 * this writer may replace unasked. */
#define EAR_PLOT_SOFTWARE "Earshot plot"

/* Writes an SVG of an interleaved stereo buffer to path: the waveform of each channel (min
 * and max per pixel column), the RMS envelope (20 ms windows, in dBFS) and a spectrogram
 * (2048-point Hann FFTs, log frequency 40 Hz .. 20 kHz, -100..0 dB). title labels it.
 * Written through core's safe write (core.md): nothing at the path, or a plot Earshot
 * drew, is replaced; another file or a link is kept unless overwrite; a folder, FIFO or
 * device never; a failed write (a full disk) leaves the previous file as it was.
 * Returns 0, or -1 with "<path>: <reason>" in error (error_size bytes; may be NULL). */
int ear_plot_svg(const char *path, const float *stereo, uint64_t frames, uint32_t rate,
                 const char *title, bool overwrite, char *error, size_t error_size);

#endif
