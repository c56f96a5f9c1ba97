/* SPDX-License-Identifier: Zlib */
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
#include <unistd.h>

/* Frames asked of libsndfile per call. */
#define DECODE_CHUNK_FRAMES 16384u

ear_result ear__io_failv(ear_io_error *err, ear_result result, const char *path,
                         const char *log_prefix, const char *format, va_list args) {
    char text[EAR_ERROR_TEXT_MAX];
    int used = snprintf(text, sizeof text, "%s: ", path ? path : "(null)");
    if (used < 0) used = 0;
    if ((size_t)used < sizeof text)
        vsnprintf(text + used, sizeof text - (size_t)used, format, args);
    if (err)
        memcpy(err->message, text, sizeof text);
    else
        ear_log(EAR_LOG_ERROR, "io", "%s%s", log_prefix, text);
    return result;
}

ear_result ear__io_fail(ear_io_error *err, ear_result result, const char *path,
                        const char *format, ...) {
    va_list args;
    va_start(args, format);
    result = ear__io_failv(err, result, path, "", format, args);
    va_end(args);
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

/* The most frames a file of `bytes` bytes can hold at its codec's best compression, or 0
 * when Earshot knows no bound (MP3, whose count is an estimate, and other formats).
 * FLAC: a block of up to 65536 frames of a constant signal costs about 12 bytes (5461
 * frames a byte). Ogg Vorbis: a 4096-frame packet of one byte plus its lacing byte (2048);
 * Opus: a 120 ms packet (5760 frames) of two bytes plus one (1920). WAV: 4-bit ADPCM or
 * GSM 6.10, about 5. The bounds below are twice those or more, so no real file meets them. */
static uint64_t most_frames(const SF_INFO *info, uint64_t bytes) {
    uint64_t per_byte;
    switch (info->format & SF_FORMAT_TYPEMASK) {
    case SF_FORMAT_FLAC:
    case SF_FORMAT_OGG: per_byte = 8192; break;
    case SF_FORMAT_WAV:
    case SF_FORMAT_WAVEX:
    case SF_FORMAT_RF64: per_byte = 16; break;
    default: return 0;
    }
    return bytes > UINT64_MAX / per_byte ? UINT64_MAX : bytes * per_byte;
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

/* The formats Earshot decodes (decode.md): WAV (with its WAVE_FORMAT_EXTENSIBLE and RF64
 * forms), FLAC, Ogg Vorbis, Ogg Opus and MP3. libsndfile reads about twenty more (PAF,
 * MAT, VOC, headerless VOX ADPCM...), which no game is asked to ship and whose decoders get
 * little use: a file in one of them is refused by name. */
static bool documented_format(const SF_INFO *info) {
    switch (info->format & SF_FORMAT_TYPEMASK) {
    case SF_FORMAT_WAV:
    case SF_FORMAT_WAVEX:
    case SF_FORMAT_RF64:
    case SF_FORMAT_FLAC:
    case SF_FORMAT_MPEG: return true;
    case SF_FORMAT_OGG: {
        int sub = info->format & SF_FORMAT_SUBMASK;
        return sub == SF_FORMAT_VORBIS || sub == SF_FORMAT_OPUS;
    }
    default: return false;
    }
}

/* libsndfile's name of the file's container ("PAF (Ensoniq PARIS)"), or "unknown". */
static const char *major_name(const SF_INFO *info) {
    SF_FORMAT_INFO f;
    memset(&f, 0, sizeof f);
    f.format = info->format & SF_FORMAT_TYPEMASK;
    if (sf_command(NULL, SFC_GET_FORMAT_INFO, &f, (int)sizeof f) == 0 && f.name) return f.name;
    return "unknown";
}

/* Whether libsndfile lists the major format (and, when sub is not 0, the subtype). */
static bool sndfile_reads(int major, int sub) {
    int count = 0;
    bool found = false;
    sf_command(NULL, SFC_GET_FORMAT_MAJOR_COUNT, &count, (int)sizeof count);
    for (int i = 0; i < count && !found; i++) {
        SF_FORMAT_INFO f = {.format = i};
        found =
            sf_command(NULL, SFC_GET_FORMAT_MAJOR, &f, (int)sizeof f) == 0 && f.format == major;
    }
    if (!found || !sub) return found;
    sf_command(NULL, SFC_GET_FORMAT_SUBTYPE_COUNT, &count, (int)sizeof count);
    for (int i = 0; i < count; i++) {
        SF_FORMAT_INFO f = {.format = i};
        if (sf_command(NULL, SFC_GET_FORMAT_SUBTYPE, &f, (int)sizeof f) == 0 && f.format == sub)
            return true;
    }
    return false;
}

bool ear_decode_supports(ear_audio_format format) {
    switch (format) {
    case EAR_AUDIO_WAV: return sndfile_reads(SF_FORMAT_WAV, 0);
    case EAR_AUDIO_FLAC: return sndfile_reads(SF_FORMAT_FLAC, 0);
    case EAR_AUDIO_VORBIS: return sndfile_reads(SF_FORMAT_OGG, SF_FORMAT_VORBIS);
    case EAR_AUDIO_OPUS: return sndfile_reads(SF_FORMAT_OGG, SF_FORMAT_OPUS);
    case EAR_AUDIO_MP3: return sndfile_reads(SF_FORMAT_MPEG, 0);
    case EAR_AUDIO_OTHER: return false;
    }
    return false;
}

ear_result ear__io_open(const char *path, SNDFILE **out_file, SF_INFO *info,
                        ear_audio_info *out, uint64_t *out_bytes, ear_io_error *err) {
    /* A regular file of at most EAR_FILE_MAX_SOUND_BYTES, checked on the descriptor that
     * libsndfile then reads (core.md): a FIFO is refused, not waited on. */
    int fd = -1;
    uint64_t bytes = 0;
    char why[EAR_ERROR_TEXT_MAX];
    ear_result opened =
        ear_file_open_read(path, EAR_FILE_MAX_SOUND_BYTES, &fd, &bytes, why, sizeof why);
    if (opened != EAR_OK) {
        const char *reason = ear_file_reason(why, path);
        if (strcmp(reason, "is a folder, not a file") == 0)
            reason = "is a folder, not a sound file";
        return ear__io_fail(err, opened, path, "%s", reason);
    }
    if (bytes == 0) {
        close(fd);
        return ear__io_fail(err, EAR_E_FORMAT, path, "the file is empty");
    }
    /* A second descriptor on the same open file, to look at its first bytes when
     * libsndfile refuses it (it closes its own either way). */
    int sniff = dup(fd);
    memset(info, 0, sizeof *info);
    SNDFILE *file = sf_open_fd(fd, SFM_READ, info, SF_TRUE);
    if (!file) {
        int code = sf_error(NULL);
        bool text = sniff >= 0 && ear__io_is_text_fd(sniff);
        bool mp3 =
            sniff >= 0 && !ear_decode_supports(EAR_AUDIO_MP3) && ear__io_is_mp3_fd(sniff);
        if (sniff >= 0) close(sniff);
        if (mp3)
            return ear__io_fail(err, EAR_E_UNSUPPORTED, path,
                                "is an MP3 file, and this build decodes no MP3 (its "
                                "libsndfile was built without MPEG)");
        if (code == SF_ERR_SYSTEM)
            return ear__io_fail(err, EAR_E_IO, path, "cannot read: %s", sf_strerror(NULL));
        if (code == SF_ERR_MALFORMED_FILE)
            return ear__io_fail(err, EAR_E_FORMAT, path, "malformed or truncated: %s",
                                sf_strerror(NULL));
        if (text)
            return ear__io_fail(err, EAR_E_FORMAT, path, "is a text file, not a sound file");
        return ear__io_fail(err, EAR_E_FORMAT, path, "not a sound file libsndfile can read: %s",
                            sf_strerror(NULL));
    }
    if (sniff >= 0) close(sniff);
    if (!documented_format(info)) {
        ear_result r = ear__io_fail(err, EAR_E_UNSUPPORTED, path,
                                    "its format, %s, is not one Earshot decodes (WAV, FLAC, "
                                    "Ogg Vorbis, Opus, MP3)",
                                    major_name(info));
        sf_close(file);
        return r;
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
    else if (info->frames > 0 && most_frames(info, bytes) &&
             (uint64_t)info->frames > most_frames(info, bytes))
        result = ear__io_fail(err, EAR_E_FORMAT, path,
                              "corrupt: the header claims %lld frames, more than a file of "
                              "%lld bytes can hold (at most %llu)",
                              (long long)info->frames, (long long)bytes,
                              (unsigned long long)most_frames(info, bytes));
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
    if (out_bytes) *out_bytes = bytes;
    return EAR_OK;
}

ear_result ear_decode_info(const char *path, ear_audio_info *out, ear_io_error *err) {
    if (!path || !out) return EAR_E_INVALID_ARG;
    SNDFILE *file;
    SF_INFO info;
    ear_result r = ear__io_open(path, &file, &info, out, NULL, err);
    if (r == EAR_OK) sf_close(file);
    return r;
}

/* What a file may cost. A header's frame count is a claim, not a fact: a corrupt or
 * hostile file of a few kilobytes can claim billions of frames. So the samples are decoded
 * into a buffer that starts at what the file can plausibly hold (the claim, or at most
 * PLAUSIBLE_FRAMES_PER_BYTE frames per byte of the file, whichever is smaller) and doubles
 * only as decoded frames fill it; the clip then takes that buffer (ear_clip_adopt), so
 * nothing is copied and nothing is zeroed. Memory therefore follows the frames really
 * decoded (at most twice them while growing), never the claim. */
#define PLAUSIBLE_FRAMES_PER_BYTE 8u
#define PLAUSIBLE_FRAMES_FLOOR    65536u

/* The decoding buffer: interleaved floats through the caller's allocator. */
typedef struct growing {
    ear_allocator a;
    float *data;
    size_t cap_frames, done;
    uint32_t ch;
} growing;

static bool grow_to(growing *g, uint64_t frames) {
    if (frames <= g->cap_frames) return true;
    if (frames > SIZE_MAX / sizeof(float) / g->ch) return false;
    size_t bytes = (size_t)frames * g->ch * sizeof(float);
    float *p =
        g->data ? g->a.realloc_fn(g->data, bytes, g->a.user) : g->a.alloc_fn(bytes, g->a.user);
    if (!p) return false;
    g->data = p;
    g->cap_frames = (size_t)frames;
    return true;
}

/* Decodes until the end of the file, or `limit` frames (the exact formats' claim; 0 for no
 * limit), into a growing buffer that starts at first_cap frames. false when memory ran
 * out (what was decoded stays in the buffer, for the caller to free). */
static bool decode_growing(SNDFILE *file, growing *g, uint64_t first_cap, uint64_t limit) {
    if (limit && first_cap > limit) first_cap = limit;
    if (!grow_to(g, first_cap)) return false;
    for (;;) {
        if (limit && g->done >= limit) break;
        if (g->done == g->cap_frames) {
            uint64_t want = (uint64_t)g->cap_frames * 2;
            if (limit && want > limit) want = limit;
            if (!grow_to(g, want)) return false;
        }
        size_t room = g->cap_frames - g->done;
        if (room > DECODE_CHUNK_FRAMES) room = DECODE_CHUNK_FRAMES;
        sf_count_t got = sf_readf_float(file, g->data + g->done * g->ch, (sf_count_t)room);
        if (got <= 0) break;
        g->done += (size_t)got;
    }
    return true;
}

static ear_result decode_clip(const char *path, SNDFILE *file, const SF_INFO *info,
                              uint64_t file_bytes, const ear_allocator *alloc,
                              ear_clip **out_clip, ear_io_error *err) {
    growing g = {ear_allocator_resolve(alloc), NULL, 0, 0, (uint32_t)info->channels};
    bool exact = ear__io_frames_exact(info);
    uint64_t claim =
        info->frames > 0 && info->frames != SF_COUNT_MAX ? (uint64_t)info->frames : 0;
    uint64_t plausible =
        file_bytes > (UINT64_MAX - PLAUSIBLE_FRAMES_FLOOR) / PLAUSIBLE_FRAMES_PER_BYTE
            ? UINT64_MAX
            : file_bytes * PLAUSIBLE_FRAMES_PER_BYTE + PLAUSIBLE_FRAMES_FLOOR;
    uint64_t first = claim && claim < plausible ? claim : plausible;
    /* MP3's count is an estimate (a Xing header's, which a file may set to anything): a
     * little room past it if the file's size allows, and no limit. */
    if (!exact && claim && claim < plausible) first = claim + DECODE_CHUNK_FRAMES;
    if (!decode_growing(file, &g, first, exact ? claim : 0)) {
        size_t done = g.done;
        g.a.free_fn(g.data, g.a.user);
        return ear__io_fail(err, EAR_E_OUT_OF_MEMORY, path,
                            "out of memory after decoding %zu frames", done);
    }
    ear_result r = EAR_OK;
    if (exact && g.done < claim) {
        if (sf_error(file) != SF_ERR_NO_ERROR)
            r = ear__io_fail(err, EAR_E_FORMAT, path,
                             "corrupt or truncated: decoding stopped after %llu of %llu "
                             "frames: %s",
                             (unsigned long long)g.done, (unsigned long long)claim,
                             sf_strerror(file));
        else
            r = ear__io_fail(err, EAR_E_FORMAT, path,
                             "truncated: the header promises %llu frames, the file holds %llu",
                             (unsigned long long)claim, (unsigned long long)g.done);
    } else if (g.done == 0 && sf_error(file) != SF_ERR_NO_ERROR) {
        r = ear__io_fail(err, EAR_E_FORMAT, path, "decoding failed: %s", sf_strerror(file));
    } else if (g.done == 0) {
        r = ear__io_fail(err, EAR_E_FORMAT, path, "holds no audio frames");
    }
    if (r == EAR_OK && g.cap_frames > g.done) {
        /* Give back what the last doubling (or an estimate) left unused. */
        float *p = g.a.realloc_fn(g.data, g.done * g.ch * sizeof(float), g.a.user);
        if (p) {
            g.data = p;
            g.cap_frames = g.done;
        }
    }
    if (r == EAR_OK) {
        r = ear_clip_adopt(g.data, g.done, g.ch, (uint32_t)info->samplerate, &g.a, out_clip);
        if (r != EAR_OK) ear__io_fail(err, r, path, "%s", ear_result_string(r));
    }
    if (r != EAR_OK) g.a.free_fn(g.data, g.a.user);
    return r;
}

ear_result ear_decode_file(const char *path, const ear_allocator *alloc, ear_clip **out_clip,
                           ear_io_error *err) {
    if (!path || !out_clip) return EAR_E_INVALID_ARG;
    SNDFILE *file;
    SF_INFO info;
    uint64_t bytes = 0;
    ear_result r = ear__io_open(path, &file, &info, NULL, &bytes, err);
    if (r != EAR_OK) return r;
    r = decode_clip(path, file, &info, bytes, alloc, out_clip, err);
    sf_close(file);
    return r;
}
