/*
 * WAV writing through libsndfile: 32-bit float samples, so a render is stored bit for
 * bit. The file is written beside its destination as "<path>.part" and renamed over
 * it only once complete, so a failed write leaves no half file and does not destroy
 * a file already at path.
 */
#include "earshot/wav.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <sndfile.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Frames handed to libsndfile per call (sf_count_t may be narrower than uint64_t). */
#define WRITE_CHUNK_FRAMES 65536u

ear_result ear_wav_write(const char *path, const float *samples, uint64_t frames,
                         uint32_t channels, uint32_t sample_rate) {
    if (!path || !*path || !samples || frames == 0 || channels == 0 || sample_rate == 0 ||
        channels > INT_MAX || sample_rate > INT_MAX || frames > SIZE_MAX / channels)
        return EAR_E_INVALID_ARG;
    /* A WAV of NaNs or infinities harms whoever plays it; refuse it before touching
     * the file system. */
    size_t total = (size_t)frames * channels;
    for (size_t i = 0; i < total; i++)
        if (!isfinite(samples[i])) return EAR_E_INVALID_ARG;

    size_t path_len = strlen(path);
    char *part_path = malloc(path_len + sizeof ".part");
    if (!part_path) return EAR_E_OUT_OF_MEMORY;
    memcpy(part_path, path, path_len);
    memcpy(part_path + path_len, ".part", sizeof ".part");

    SF_INFO info;
    memset(&info, 0, sizeof info);
    info.samplerate = (int)sample_rate;
    info.channels = (int)channels;
    info.format = SF_FORMAT_WAV | SF_FORMAT_FLOAT;
    SNDFILE *file = sf_open(part_path, SFM_WRITE, &info);
    if (!file) {
        ear_log(EAR_LOG_ERROR, "io", "cannot write %s: %s", path, sf_strerror(NULL));
        free(part_path);
        return EAR_E_IO;
    }
    ear_result result = EAR_OK;
    for (uint64_t done = 0; done < frames;) {
        uint64_t n = frames - done < WRITE_CHUNK_FRAMES ? frames - done : WRITE_CHUNK_FRAMES;
        sf_count_t written =
            sf_writef_float(file, samples + (size_t)done * channels, (sf_count_t)n);
        if (written != (sf_count_t)n) {
            ear_log(EAR_LOG_ERROR, "io", "cannot write %s: %s", path, sf_strerror(file));
            result = EAR_E_IO;
            break;
        }
        done += n;
    }
    int close_error = sf_close(file);
    if (close_error != 0 && result == EAR_OK) {
        ear_log(EAR_LOG_ERROR, "io", "cannot finish %s: %s", path,
                sf_error_number(close_error));
        result = EAR_E_IO;
    }
    if (result == EAR_OK && rename(part_path, path) != 0) {
        ear_log(EAR_LOG_ERROR, "io", "cannot write %s: renaming %s over it failed: %s", path,
                part_path, strerror(errno));
        result = EAR_E_IO;
    }
    if (result != EAR_OK) remove(part_path);
    free(part_path);
    return result;
}
