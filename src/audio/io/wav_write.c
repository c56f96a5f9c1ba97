/* SPDX-License-Identifier: Zlib */
/*
 * WAV writing through libsndfile: 32-bit float samples, so a render is stored bit for
 * bit.
 *
 * What is at the target decides whether it may be replaced. Nothing there: write. A
 * regular file that is a WAV this writer made (its INFO chunk's software string starts
 * with EAR_WAV_SOFTWARE): replace it. Anything else is kept unless the caller asks for
 * overwrite: a symbolic link is never followed (with overwrite the link itself is
 * replaced, never the file it points to), another file is not destroyed, and a folder, a
 * FIFO or a device is refused even with overwrite (opening a FIFO would wait for a writer
 * that never comes; replacing a device node is never what a render means).
 *
 * The samples go through core's safe write (ear_file_write_begin/commit, core.md): a
 * temporary file made with mkstemp (O_EXCL: no planted name is ever opened) in the
 * target's folder, fsync'ed and renamed over the target only once complete: a failure
 * leaves no half file and the old file, if any, intact. rename replaces a name, never what
 * a link at that name points to.
 */
#define _DEFAULT_SOURCE
#include "earshot/wav.h"

#include "io_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <sndfile.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Frames handed to libsndfile per call (sf_count_t may be narrower than uint64_t). */
#define WRITE_CHUNK_FRAMES 65536u

ear_wav_write_config ear_wav_write_config_default(void) {
    return (ear_wav_write_config){.overwrite = false, .overwrite_hint = NULL};
}

static ear_result fail(ear_io_error *err, ear_result r, const char *path, const char *format,
                       ...) {
    va_list args;
    va_start(args, format);
    r = ear__io_failv(err, r, path, "cannot write ", format, args);
    va_end(args);
    return r;
}

/* A failure core's safe write described as "<path>: <reason>", said as this writer says
 * its own. */
static ear_result fail_core(ear_io_error *err, ear_result r, const char *path,
                            const char *why) {
    return fail(err, r, path, "%s", ear_file_reason(why, path));
}

/* Whether the open regular file fd is a WAV this writer made. */
static bool written_by_us(int fd) {
    SF_INFO info;
    memset(&info, 0, sizeof info);
    SNDFILE *f = sf_open_fd(fd, SFM_READ, &info, SF_FALSE);
    if (!f) return false;
    const char *software = sf_get_string(f, SF_STR_SOFTWARE);
    bool ours = (info.format & SF_FORMAT_TYPEMASK) == SF_FORMAT_WAV && software &&
                strncmp(software, EAR_WAV_SOFTWARE, strlen(EAR_WAV_SOFTWARE)) == 0;
    sf_close(f);
    return ours;
}

/* written_by_us as core's ours check. */
static bool ours_check(int fd, void *user) {
    (void)user;
    return written_by_us(fd);
}

ear_result ear_wav_write(const char *path, const float *samples, uint64_t frames,
                         uint32_t channels, uint32_t sample_rate) {
    return ear_wav_write_with(path, samples, frames, channels, sample_rate, NULL, NULL);
}

ear_result ear_wav_write_with(const char *path, const float *samples, uint64_t frames,
                              uint32_t channels, uint32_t sample_rate,
                              const ear_wav_write_config *config, ear_io_error *err) {
    if (!path || !*path || !samples || frames == 0 || channels == 0 || sample_rate == 0 ||
        channels > INT_MAX || sample_rate > INT_MAX || frames > SIZE_MAX / channels)
        return EAR_E_INVALID_ARG;
    ear_wav_write_config c = config ? *config : ear_wav_write_config_default();
    /* A WAV of NaNs or infinities harms whoever plays it; refuse it before touching
     * the file system. */
    size_t total = (size_t)frames * channels;
    for (size_t i = 0; i < total; i++)
        if (!isfinite(samples[i])) return EAR_E_INVALID_ARG;
    size_t path_len = strlen(path);
    if (path[path_len - 1] == '/') return fail(err, EAR_E_INVALID_ARG, path, "not a file name");

    /* Core's safe write (core.md): the target checked without following a link, the
     * samples into a temporary file beside it, fsync'ed and renamed over it. */
    ear_file_write_config fc = ear_file_write_config_default();
    fc.overwrite = c.overwrite;
    fc.ours = ours_check;
    fc.ours_name = "a WAV that Earshot wrote";
    fc.overwrite_hint = c.overwrite_hint;
    char why[EAR_ERROR_TEXT_MAX];
    ear_file_writer w;
    ear_result result = ear_file_write_begin(path, &fc, &w, why, sizeof why);
    if (result != EAR_OK) return fail_core(err, result, path, why);
    int fd = w.fd;

    SF_INFO info;
    memset(&info, 0, sizeof info);
    info.samplerate = (int)sample_rate;
    info.channels = (int)channels;
    info.format = SF_FORMAT_WAV | SF_FORMAT_FLOAT;
    SNDFILE *file = sf_open_fd(fd, SFM_WRITE, &info, SF_FALSE);
    if (!file) {
        result = fail(err, EAR_E_IO, path, "%s", sf_strerror(NULL));
    } else {
        sf_set_string(file, SF_STR_SOFTWARE, EAR_WAV_SOFTWARE);
        for (uint64_t done = 0; done < frames;) {
            uint64_t n =
                frames - done < WRITE_CHUNK_FRAMES ? frames - done : WRITE_CHUNK_FRAMES;
            sf_count_t written =
                sf_writef_float(file, samples + (size_t)done * channels, (sf_count_t)n);
            if (written != (sf_count_t)n) {
                result = fail(err, EAR_E_IO, path, "%s", sf_strerror(file));
                break;
            }
            done += n;
        }
        int close_error = sf_close(file);
        if (close_error != 0 && result == EAR_OK)
            result = fail(err, EAR_E_IO, path, "%s", sf_error_number(close_error));
    }
    if (result != EAR_OK) {
        ear_file_write_abort(&w);
        return result;
    }
    result = ear_file_write_commit(&w, why, sizeof why);
    if (result != EAR_OK) return fail_core(err, result, path, why);
    return EAR_OK;
}
