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
 * The samples go to a temporary file made with mkstemp (O_EXCL: no planted name is ever
 * opened) in the target's folder, which is fsync'ed and renamed over the target only
 * once complete: a failure leaves no half file and the old file, if any, intact. rename
 * replaces a name, never what a link at that name points to.
 */
#define _DEFAULT_SOURCE /* mkstemp, fsync, fchmod */
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
    return (ear_wav_write_config){.overwrite = false};
}

static ear_result fail(ear_io_error *err, ear_result r, const char *path, const char *format,
                       ...) {
    va_list args;
    va_start(args, format);
    r = ear__io_failv(err, r, path, "cannot write ", format, args);
    va_end(args);
    return r;
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

/* EAR_OK when path may be (re)written; else the refusal. */
static ear_result check_target(const char *path, bool overwrite, ear_io_error *err) {
    struct stat st;
    if (lstat(path, &st) != 0) {
        if (errno == ENOENT) return EAR_OK;
        return fail(err, EAR_E_IO, path, "%s",
                    errno == ENOTDIR ? "no such folder" : strerror(errno));
    }
    if (S_ISLNK(st.st_mode))
        return overwrite ? EAR_OK
                         : fail(err, EAR_E_STATE, path,
                                "is a symbolic link, which is not followed (overwrite "
                                "replaces the link itself)");
    if (S_ISDIR(st.st_mode)) return fail(err, EAR_E_STATE, path, "is a folder");
    if (!S_ISREG(st.st_mode))
        return fail(err, EAR_E_STATE, path, "is a %s, not a file",
                    S_ISFIFO(st.st_mode)   ? "FIFO"
                    : S_ISSOCK(st.st_mode) ? "socket"
                                           : "device");
    if (overwrite) return EAR_OK;
    /* O_NOFOLLOW and O_NONBLOCK: whatever replaced the file since lstat is not followed
     * and not waited on. */
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    bool ours = false;
    if (fd >= 0) {
        struct stat now;
        ours = fstat(fd, &now) == 0 && S_ISREG(now.st_mode) && written_by_us(fd);
        close(fd);
    }
    if (!ours)
        return fail(err, EAR_E_STATE, path,
                    "exists and is not a WAV that Earshot wrote; it is kept (overwrite "
                    "replaces it)");
    return EAR_OK;
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

    ear_result result = check_target(path, c.overwrite, err);
    if (result != EAR_OK) return result;

    char *tmp = malloc(path_len + sizeof ".tmp-XXXXXX");
    if (!tmp) return EAR_E_OUT_OF_MEMORY;
    memcpy(tmp, path, path_len);
    memcpy(tmp + path_len, ".tmp-XXXXXX", sizeof ".tmp-XXXXXX");
    int fd = mkstemp(tmp);
    if (fd < 0) {
        int e = errno;
        free(tmp);
        return fail(err, EAR_E_IO, path, "%s",
                    e == ENOENT || e == ENOTDIR ? "no such folder" : strerror(e));
    }
    (void)fcntl(fd, F_SETFD, FD_CLOEXEC);
    (void)fchmod(fd, 0644); /* a render is for listening to, not a secret */

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
    if (result == EAR_OK && fsync(fd) != 0)
        result = fail(err, EAR_E_IO, path, "%s", strerror(errno));
    if (close(fd) != 0 && result == EAR_OK)
        result = fail(err, EAR_E_IO, path, "%s", strerror(errno));
    if (result == EAR_OK && rename(tmp, path) != 0)
        result =
            fail(err, EAR_E_IO, path, "renaming %s over it failed: %s", tmp, strerror(errno));
    if (result != EAR_OK) unlink(tmp);
    free(tmp);
    return result;
}
