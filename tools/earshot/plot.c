/* SPDX-License-Identifier: Zlib */
/*
 * An SVG of a render, for a person to look at: three panels sharing one time axis.
 *
 *   1. the waveform of both channels (left above, right below), drawn as the min..max
 *      band of each pixel column, so a 10 minute render is as readable as 10 ms;
 *   2. the RMS envelope of the mix in 20 ms windows, in dBFS from -60 to 0;
 *   3. a spectrogram of the mix: 2048-point Hann-windowed FFTs (Earshot's real FFT,
 *      single precision: src/audio/fft/real_fft.h)
 *      at 200 times, 90 log-spaced bands from 40 Hz to 20 kHz, coloured from -100 dB
 *      (dark) to 0 dB (bright).
 */
#define _DEFAULT_SOURCE /* read */
#include "plot.h"

#include "earshot/core.h"
#include "real_fft.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define WIDTH     1000
#define LEFT      60
#define PANEL_W   (WIDTH - LEFT - 20)
#define WAVE_H    200
#define RMS_H     120
#define SPEC_H    240
#define SPEC_COLS 200
#define SPEC_ROWS 90
#define FFT_N     2048
#define PI        3.14159265358979323846

/* A dark-blue .. purple .. orange .. yellow ramp (close to matplotlib's "inferno"). */
static void colour(double t, char out[8]) {
    static const double stops[5][3] = {
        {0, 0, 4}, {87, 16, 110}, {188, 55, 84}, {249, 142, 9}, {252, 255, 164}};
    if (!(t > 0)) t = 0;
    if (t > 1) t = 1;
    double x = t * 4;
    int i = (int)x;
    if (i > 3) i = 3;
    double f = x - i;
    int rgb[3];
    for (int k = 0; k < 3; k++)
        rgb[k] = (int)lround(stops[i][k] + (stops[i + 1][k] - stops[i][k]) * f);
    snprintf(out, 8, "#%02x%02x%02x", rgb[0] & 255, rgb[1] & 255, rgb[2] & 255);
}

static void wave_panel(FILE *f, const float *buf, uint64_t frames, int top) {
    int half = WAVE_H / 2;
    for (int ch = 0; ch < 2; ch++) {
        double mid = top + half * ch + half / 2.0;
        double scale = half / 2.0 - 2;
        fprintf(f, "<line x1='%d' y1='%.1f' x2='%d' y2='%.1f' stroke='#ccc'/>\n", LEFT, mid,
                LEFT + PANEL_W, mid);
        fprintf(f, "<text x='%d' y='%.1f' font-size='11' text-anchor='end'>%s</text>\n",
                LEFT - 6, mid + 4, ch ? "right" : "left");
        fprintf(f, "<path fill='none' stroke='#1f5fa8' stroke-width='1' d='");
        for (int x = 0; x < PANEL_W; x++) {
            uint64_t a = frames * (uint64_t)x / PANEL_W,
                     b = frames * (uint64_t)(x + 1) / PANEL_W;
            if (b <= a) b = a + 1;
            if (b > frames) b = frames;
            float lo = 0, hi = 0;
            for (uint64_t i = a; i < b; i++) {
                float s = buf[2 * i + (uint64_t)ch];
                if (s < lo) lo = s;
                if (s > hi) hi = s;
            }
            if (lo < -1) lo = -1;
            if (hi > 1) hi = 1;
            double y0 = mid - hi * scale, y1 = mid - lo * scale;
            if (y1 - y0 < 0.5) y1 = y0 + 0.5;
            fprintf(f, "M%d %.1fV%.1f", LEFT + x, y0, y1);
        }
        fprintf(f, "'/>\n");
    }
}

static void rms_panel(FILE *f, const float *buf, uint64_t frames, uint32_t rate, int top) {
    uint64_t window = rate / 50;
    if (window == 0) window = 1;
    uint64_t count = (frames + window - 1) / window;
    for (int db = -60; db <= 0; db += 20) {
        double y = top + RMS_H * (-db / 60.0);
        fprintf(f, "<line x1='%d' y1='%.1f' x2='%d' y2='%.1f' stroke='#eee'/>\n", LEFT, y,
                LEFT + PANEL_W, y);
        fprintf(f, "<text x='%d' y='%.1f' font-size='10' text-anchor='end'>%d dB</text>\n",
                LEFT - 6, y + 3, db);
    }
    fprintf(f, "<polyline fill='none' stroke='#c0392b' stroke-width='1.5' points='");
    for (uint64_t w = 0; w < count; w++) {
        uint64_t a = w * window, b = a + window < frames ? a + window : frames;
        double sum = 0;
        for (uint64_t i = a; i < b; i++) {
            double m = 0.5 * ((double)buf[2 * i] + (double)buf[2 * i + 1]);
            sum += m * m;
        }
        double rms = b > a ? sqrt(sum / (double)(b - a)) : 0;
        double db = rms > 1e-3 ? 20 * log10(rms) : -60;
        if (db > 0) db = 0;
        double x = LEFT + PANEL_W * ((double)a + (double)(b - a) / 2) / (double)frames;
        fprintf(f, "%.1f,%.1f ", x, top + RMS_H * (-db / 60.0));
    }
    fprintf(f, "'/>\n");
}

static int spectrogram_panel(FILE *f, const float *buf, uint64_t frames, uint32_t rate,
                             int top) {
    /* The bins' arrays hold the packed input (even samples in re, odd in im) on entry. */
    float *re = malloc(sizeof(float) * (FFT_N / 2 + 1));
    float *im = malloc(sizeof(float) * (FFT_N / 2 + 1));
    float *work = malloc(sizeof(float) * FFT_N);
    double *table = malloc(sizeof(double) * ear__rfft_table_doubles(FFT_N));
    if (!re || !im || !work || !table) {
        free(re);
        free(im);
        free(work);
        free(table);
        return -1;
    }
    ear__rfft plan;
    ear__rfft_init(&plan, FFT_N, table);
    fprintf(f, "<g shape-rendering='crispEdges'>\n");
    double lo = 40, hi = rate / 2.0 < 20000 ? rate / 2.0 : 20000;
    double cell_w = (double)PANEL_W / SPEC_COLS, cell_h = (double)SPEC_H / SPEC_ROWS;
    double wsum = 0;
    for (int i = 0; i < FFT_N; i++) wsum += 0.5 - 0.5 * cos(2 * PI * i / (FFT_N - 1));
    for (int col = 0; col < SPEC_COLS; col++) {
        int64_t centre = (int64_t)(frames * (uint64_t)(2 * col + 1) / (2 * SPEC_COLS));
        for (int i = 0; i < FFT_N; i++) {
            int64_t k = centre - FFT_N / 2 + i;
            double s = 0;
            if (k >= 0 && (uint64_t)k < frames)
                s = 0.5 * ((double)buf[2 * k] + (double)buf[2 * k + 1]);
            float v = (float)(s * (0.5 - 0.5 * cos(2 * PI * i / (FFT_N - 1))));
            if (i & 1)
                im[i / 2] = v;
            else
                re[i / 2] = v;
        }
        ear__rfft_forward(&plan, re, im, work);
        for (int row = 0; row < SPEC_ROWS; row++) {
            /* The strongest bin in the band: a tone shows even where bands are narrower
             * than a bin. */
            double f0 = lo * pow(hi / lo, (double)row / SPEC_ROWS);
            double f1 = lo * pow(hi / lo, (double)(row + 1) / SPEC_ROWS);
            int b0 = (int)floor(f0 * FFT_N / rate), b1 = (int)ceil(f1 * FFT_N / rate);
            if (b1 > FFT_N / 2) b1 = FFT_N / 2;
            double peak = 0;
            for (int b = b0; b <= b1; b++) {
                double m = sqrt((double)re[b] * re[b] + (double)im[b] * im[b]);
                if (m > peak) peak = m;
            }
            double amplitude = 2 * peak / wsum;
            double db = amplitude > 1e-5 ? 20 * log10(amplitude) : -100;
            char c[8];
            colour((db + 100) / 100, c);
            fprintf(f, "<rect x='%.1f' y='%.1f' width='%.2f' height='%.2f' fill='%s'/>\n",
                    LEFT + col * cell_w, top + SPEC_H - (row + 1) * cell_h, cell_w + 0.6,
                    cell_h + 0.6, c);
        }
    }
    fprintf(f, "</g>\n");
    free(re);
    free(im);
    free(work);
    free(table);
    static const double ticks[] = {50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000};
    for (size_t i = 0; i < sizeof ticks / sizeof ticks[0]; i++) {
        if (ticks[i] < lo || ticks[i] > hi) continue;
        double y = top + SPEC_H - SPEC_H * log(ticks[i] / lo) / log(hi / lo);
        fprintf(f, "<text x='%d' y='%.1f' font-size='10' text-anchor='end'>%g%s</text>\n",
                LEFT - 6, y + 3, ticks[i] >= 1000 ? ticks[i] / 1000 : ticks[i],
                ticks[i] >= 1000 ? " kHz" : " Hz");
    }
    return 0;
}

static void escape(FILE *f, const char *s) {
    for (; s && *s; s++) {
        if (*s == '<')
            fputs("&lt;", f);
        else if (*s == '&')
            fputs("&amp;", f);
        else if (*s == '>')
            fputs("&gt;", f);
        else
            fputc(*s, f);
    }
}

/* The comment every plot carries on its second line: a file that has it is one this
 * writer may replace unasked. */
#define PLOT_MARK "<!-- " EAR_PLOT_SOFTWARE " -->"

static bool is_plot(int fd, void *user) {
    (void)user;
    char head[512];
    ssize_t got = read(fd, head, sizeof head - 1);
    if (got <= 0) return false;
    head[got] = '\0';
    const char *line2 = strchr(head, '\n');
    return strncmp(head, "<svg ", 5) == 0 && line2 &&
           strncmp(line2 + 1, PLOT_MARK, strlen(PLOT_MARK)) == 0;
}

int ear_plot_svg(const char *path, const float *stereo, uint64_t frames, uint32_t rate,
                 const char *title, bool overwrite, char *error, size_t error_size) {
    if (error && error_size) error[0] = '\0';
    if (!path || !stereo || frames == 0 || rate == 0) {
        if (error && error_size)
            snprintf(error, error_size, "%s: nothing to plot", path ? path : "");
        return -1;
    }
    /* Core's safe write (core.md): the picture goes to a temporary file renamed over the
     * path, so a full disk never truncates the previous plot; a link is not followed; a
     * file that is not a plot is kept unless overwrite; a device never replaced. */
    ear_file_write_config wc = ear_file_write_config_default();
    wc.overwrite = overwrite;
    wc.ours = is_plot;
    wc.ours_name = "a plot Earshot drew";
    wc.overwrite_hint = " (use --overwrite)";
    ear_file_writer w;
    if (ear_file_write_begin(path, &wc, &w, error, error_size) != EAR_OK) return -1;
    FILE *f = ear_file_writer_stream(&w);
    if (!f) {
        ear_file_write_abort(&w);
        if (error && error_size) snprintf(error, error_size, "%s: out of memory", path);
        return -1;
    }
    int wave_top = 64, rms_top = wave_top + WAVE_H + 40, spec_top = rms_top + RMS_H + 40;
    int height = spec_top + SPEC_H + 50;
    fprintf(f,
            "<svg xmlns='http://www.w3.org/2000/svg' width='%d' height='%d' "
            "font-family='sans-serif'>\n" PLOT_MARK "\n"
            "<rect width='100%%' height='100%%' fill='white'/>\n",
            WIDTH, height);
    fprintf(f, "<text x='%d' y='22' font-size='15'>", LEFT);
    escape(f, title);
    fprintf(f, " — %.2f s, %u Hz stereo</text>\n", (double)frames / rate, rate);
    fprintf(f,
            "<text x='%d' y='%d' font-size='12' fill='#555'>waveform (min..max per "
            "column)</text>\n",
            LEFT, wave_top - 6);
    wave_panel(f, stereo, frames, wave_top);
    fprintf(f,
            "<text x='%d' y='%d' font-size='12' fill='#555'>RMS envelope of the mix, 20 ms "
            "windows</text>\n",
            LEFT, rms_top - 6);
    rms_panel(f, stereo, frames, rate, rms_top);
    fprintf(f,
            "<text x='%d' y='%d' font-size='12' fill='#555'>spectrogram of the mix "
            "(-100..0 dB)</text>\n",
            LEFT, spec_top - 6);
    int r = spectrogram_panel(f, stereo, frames, rate, spec_top);
    double seconds = (double)frames / rate;
    double step = seconds > 20 ? 5 : seconds > 8 ? 1 : seconds > 2 ? 0.5 : 0.1;
    for (double t = 0; t <= seconds + 1e-9; t += step) {
        double x = LEFT + PANEL_W * t / seconds;
        fprintf(f, "<line x1='%.1f' y1='%d' x2='%.1f' y2='%d' stroke='#888'/>\n", x,
                spec_top + SPEC_H, x, spec_top + SPEC_H + 5);
        fprintf(f, "<text x='%.1f' y='%d' font-size='10' text-anchor='middle'>%g s</text>\n", x,
                spec_top + SPEC_H + 17, t);
    }
    fprintf(f, "</svg>\n");
    if (r != 0) {
        ear_file_write_abort(&w);
        if (error && error_size) snprintf(error, error_size, "%s: out of memory", path);
        return -1;
    }
    return ear_file_write_commit(&w, error, error_size) == EAR_OK ? 0 : -1;
}
