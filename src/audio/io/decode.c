/*
 * Whole-file decoding through libsndfile. A file becomes one clip of interleaved floats
 * at its own rate and channel count; nothing is resampled here (the stage resamples at
 * play time).
 *
 * Truncation. libsndfile reads what a file holds and quietly stops early, so a truncated
 * file is found three ways: a WAV whose data chunk is longer than the file (libsndfile
 * shortens the count on open and says "(should be N)" in its log), a body that ends
 * before the frame count the header promised (FLAC, WAV), and an Ogg file whose last
 * page, with the stream's length, is missing (libsndfile then reports an unknown count).
 * MP3 carries no reliable length, so a cut MP3 decodes as a shorter sound.
 */
#define _POSIX_C_SOURCE 200809L

#include "io_internal.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Frames asked of libsndfile per call. */
#define DECODE_CHUNK_FRAMES 16384u

const char *ear_audio_format_name(ear_audio_format format) {
    switch (format) {
    case EAR_AUDIO_WAV: return "wav";
    case EAR_AUDIO_FLAC: return "flac";
    case EAR_AUDIO_VORBIS: return "vorbis";
    case EAR_AUDIO_OPUS: return "opus";
    case EAR_AUDIO_MP3: return "mp3";
    case EAR_AUDIO_OTHER: break;
    }
    return "other";
}

ear_result ear__io_fail(ear_io_error *err, ear_result result, const char *path,
                        const char *format, ...) {
    char text[EAR_ERROR_TEXT_MAX];
    int used = snprintf(text, sizeof text, "%s: ", path ? path : "(null)");
    if (used < 0) used = 0;
    if ((size_t)used < sizeof text) {
        va_list args;
        va_start(args, format);
        vsnprintf(text + used, sizeof text - (size_t)used, format, args);
        va_end(args);
    }
    if (err)
        memcpy(err->message, text, sizeof text);
    else
        ear_log(EAR_LOG_ERROR, "io", "%s", text);
    return result;
}

static ear_audio_format format_of(const SF_INFO *info) {
    int major = info->format & SF_FORMAT_TYPEMASK;
    int sub = info->format & SF_FORMAT_SUBMASK;
    switch (major) {
    case SF_FORMAT_WAV:
    case SF_FORMAT_WAVEX:
    case SF_FORMAT_RF64: return EAR_AUDIO_WAV;
    case SF_FORMAT_FLAC: return EAR_AUDIO_FLAC;
    case SF_FORMAT_MPEG: return EAR_AUDIO_MP3;
    case SF_FORMAT_OGG:
        if (sub == SF_FORMAT_VORBIS) return EAR_AUDIO_VORBIS;
        if (sub == SF_FORMAT_OPUS) return EAR_AUDIO_OPUS;
        return EAR_AUDIO_OTHER;
    default: return EAR_AUDIO_OTHER;
    }
}

bool ear__io_frames_exact(const SF_INFO *info) {
    return (info->format & SF_FORMAT_TYPEMASK) != SF_FORMAT_MPEG;
}

bool ear__io_header_overstates(SNDFILE *file) {
    char log[8192];
    if (sf_command(file, SFC_GET_LOG_INFO, log, (int)sizeof log) <= 0) return false;
    /* The data chunk's line, "data : 705600 (should be 352760)", when the file is short. */
    for (const char *line = log; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        if (len > 5 && strncmp(line, "data :", 6) == 0) {
            for (size_t i = 0; i + 10 <= len; i++)
                if (strncmp(line + i, "should be ", 10) == 0) return true;
        }
        line = end ? end + 1 : NULL;
    }
    return false;
}

ear_result ear__io_open(const char *path, SNDFILE **out_file, SF_INFO *info,
                        ear_audio_info *out, ear_io_error *err) {
    struct stat st;
    if (stat(path, &st) != 0) {
        if (errno == ENOENT || errno == ENOTDIR)
            return ear__io_fail(err, EAR_E_NOT_FOUND, path, "no such file");
        return ear__io_fail(err, EAR_E_IO, path, "cannot read: %s", strerror(errno));
    }
    if (S_ISDIR(st.st_mode))
        return ear__io_fail(err, EAR_E_IO, path, "is a folder, not a sound file");
    if (st.st_size == 0) return ear__io_fail(err, EAR_E_FORMAT, path, "the file is empty");

    memset(info, 0, sizeof *info);
    SNDFILE *file = sf_open(path, SFM_READ, info);
    if (!file) {
        int code = sf_error(NULL);
        if (code == SF_ERR_SYSTEM)
            return ear__io_fail(err, EAR_E_IO, path, "cannot read: %s", sf_strerror(NULL));
        if (code == SF_ERR_MALFORMED_FILE)
            return ear__io_fail(err, EAR_E_FORMAT, path, "malformed or truncated: %s",
                                sf_strerror(NULL));
        if (ear__io_is_text(path))
            return ear__io_fail(err, EAR_E_FORMAT, path, "is a text file, not a sound file");
        return ear__io_fail(err, EAR_E_FORMAT, path, "not a sound file libsndfile can read: %s",
                            sf_strerror(NULL));
    }
    ear_result result = EAR_OK;
    if (info->channels < 1 || info->channels > 2)
        result = ear__io_fail(err, EAR_E_UNSUPPORTED, path,
                              "has %d channels; Earshot plays mono and stereo files",
                              info->channels);
    else if (info->samplerate < 1000 || info->samplerate > 384000)
        result = ear__io_fail(err, EAR_E_UNSUPPORTED, path,
                              "its rate of %d Hz is outside 1000..384000 Hz", info->samplerate);
    else if (ear__io_header_overstates(file))
        result = ear__io_fail(err, EAR_E_FORMAT, path,
                              "truncated: the header promises more audio than the file holds");
    else if ((info->format & SF_FORMAT_TYPEMASK) == SF_FORMAT_OGG &&
             (info->frames <= 0 || info->frames == SF_COUNT_MAX))
        result = ear__io_fail(err, EAR_E_FORMAT, path,
                              "truncated: the Ogg stream's last page is missing");
    else if (info->frames == 0)
        result = ear__io_fail(err, EAR_E_FORMAT, path, "holds no audio frames");
    if (result != EAR_OK) {
        sf_close(file);
        return result;
    }
    /* Integer files are read as floats in [-1, 1); float files as they are. */
    sf_command(file, SFC_SET_NORM_FLOAT, NULL, SF_TRUE);
    if (out) {
        out->frames =
            (info->frames > 0 && info->frames != SF_COUNT_MAX) ? (uint64_t)info->frames : 0;
        out->channels = (uint32_t)info->channels;
        out->sample_rate = (uint32_t)info->samplerate;
        out->format = format_of(info);
    }
    *out_file = file;
    return EAR_OK;
}

ear_result ear_decode_info(const char *path, ear_audio_info *out, ear_io_error *err) {
    if (!path || !out) return EAR_E_INVALID_ARG;
    SNDFILE *file;
    SF_INFO info;
    ear_result r = ear__io_open(path, &file, &info, out, err);
    if (r == EAR_OK) sf_close(file);
    return r;
}

/* A sample that is NaN or infinite (a float file can hold them) is stored as 0. */
static void sanitize(float *s, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (!isfinite(s[i])) s[i] = 0.0f;
}

/* The exact-count path: decodes straight into the clip's memory. */
static ear_result decode_exact(const char *path, SNDFILE *file, const SF_INFO *info,
                               const ear_allocator *alloc, ear_clip **out_clip,
                               ear_io_error *err) {
    uint64_t frames = (uint64_t)info->frames;
    uint32_t ch = (uint32_t)info->channels;
    if (frames > SIZE_MAX / sizeof(float) / ch)
        return ear__io_fail(err, EAR_E_OUT_OF_MEMORY, path, "too long to hold in memory");
    ear_clip *clip;
    ear_result r = ear_clip_create(NULL, frames, ch, (uint32_t)info->samplerate, alloc, &clip);
    if (r != EAR_OK) return ear__io_fail(err, r, path, "%s", ear_result_string(r));
    float *data = ear_clip_data_mut(clip);
    uint64_t done = 0;
    while (done < frames) {
        uint64_t want =
            frames - done < DECODE_CHUNK_FRAMES ? frames - done : DECODE_CHUNK_FRAMES;
        sf_count_t got = sf_readf_float(file, data + done * ch, (sf_count_t)want);
        if (got <= 0) break;
        done += (uint64_t)got;
    }
    if (done < frames) {
        ear_clip_release(clip);
        if (sf_error(file) != SF_ERR_NO_ERROR)
            return ear__io_fail(err, EAR_E_FORMAT, path,
                                "corrupt or truncated: decoding stopped after %llu of %llu "
                                "frames: %s",
                                (unsigned long long)done, (unsigned long long)frames,
                                sf_strerror(file));
        return ear__io_fail(err, EAR_E_FORMAT, path,
                            "truncated: the header promises %llu frames, the file holds %llu",
                            (unsigned long long)frames, (unsigned long long)done);
    }
    sanitize(data, (size_t)frames * ch);
    *out_clip = clip;
    return EAR_OK;
}

/* The estimated-count path (MP3): decodes into a growing buffer until the end. */
static ear_result decode_until_end(const char *path, SNDFILE *file, const SF_INFO *info,
                                   const ear_allocator *alloc, ear_clip **out_clip,
                                   ear_io_error *err) {
    uint32_t ch = (uint32_t)info->channels;
    size_t cap_frames = info->frames > 0 && info->frames < (sf_count_t)(SIZE_MAX / 8 / ch)
                            ? (size_t)info->frames + DECODE_CHUNK_FRAMES
                            : (size_t)DECODE_CHUNK_FRAMES * 4;
    float *buf = malloc(cap_frames * ch * sizeof *buf);
    if (!buf) return ear__io_fail(err, EAR_E_OUT_OF_MEMORY, path, "out of memory");
    size_t done = 0;
    for (;;) {
        if (cap_frames - done < DECODE_CHUNK_FRAMES) {
            if (cap_frames > SIZE_MAX / 2 / ch / sizeof *buf) {
                free(buf);
                return ear__io_fail(err, EAR_E_OUT_OF_MEMORY, path, "too long to hold");
            }
            float *bigger = realloc(buf, cap_frames * 2 * ch * sizeof *buf);
            if (!bigger) {
                free(buf);
                return ear__io_fail(err, EAR_E_OUT_OF_MEMORY, path, "out of memory");
            }
            buf = bigger;
            cap_frames *= 2;
        }
        sf_count_t got = sf_readf_float(file, buf + done * ch, DECODE_CHUNK_FRAMES);
        if (got <= 0) break;
        done += (size_t)got;
    }
    ear_result r = EAR_OK;
    if (sf_error(file) != SF_ERR_NO_ERROR && done == 0)
        r = ear__io_fail(err, EAR_E_FORMAT, path, "decoding failed: %s", sf_strerror(file));
    else if (done == 0)
        r = ear__io_fail(err, EAR_E_FORMAT, path, "holds no audio frames");
    else {
        r = ear_clip_create(buf, done, ch, (uint32_t)info->samplerate, alloc, out_clip);
        if (r != EAR_OK) ear__io_fail(err, r, path, "%s", ear_result_string(r));
    }
    free(buf);
    return r;
}

ear_result ear_decode_file(const char *path, const ear_allocator *alloc, ear_clip **out_clip,
                           ear_io_error *err) {
    if (!path || !out_clip) return EAR_E_INVALID_ARG;
    SNDFILE *file;
    SF_INFO info;
    ear_result r = ear__io_open(path, &file, &info, NULL, err);
    if (r != EAR_OK) return r;
    if (ear__io_frames_exact(&info))
        r = decode_exact(path, file, &info, alloc, out_clip, err);
    else
        r = decode_until_end(path, file, &info, alloc, out_clip, err);
    sf_close(file);
    return r;
}
