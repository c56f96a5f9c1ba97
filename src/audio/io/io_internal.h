/* SPDX-License-Identifier: Zlib */
/*
 * What io's decoding files share: opening a file with libsndfile and checking it is
 * something Earshot can play, and writing an error that names the file and the reason.
 */
#ifndef EAR_IO_INTERNAL_H
#define EAR_IO_INTERNAL_H

#include "earshot/decode.h"

#include <sndfile.h>
#include <stdarg.h>

/* Writes "<path>: <reason>" into err, or logs it (error, module "io") when err is NULL,
 * and returns result. */
ear_result ear__io_fail(ear_io_error *err, ear_result result, const char *path,
                        const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* ear__io_fail with a va_list; log_prefix goes before the text when it is logged (the WAV
 * writer's "cannot write "). */
ear_result ear__io_failv(ear_io_error *err, ear_result result, const char *path,
                         const char *log_prefix, const char *format, va_list args);

/* Opens path for reading (ear_file_open_read: a regular file of at most
 * EAR_FILE_MAX_SOUND_BYTES, the descriptor handed to sf_open_fd) and fills *info, *out and
 * *out_bytes (the file's size; both may be NULL). A file libsndfile reads in a format
 * decode.md does not name is EAR_E_UNSUPPORTED. Fails, with nothing open, as
 * ear_decode_file documents. */
ear_result ear__io_open(const char *path, SNDFILE **out_file, SF_INFO *info,
                        ear_audio_info *out, uint64_t *out_bytes, ear_io_error *err);

/* True when libsndfile's frame count for this file is exact (so a shorter body is a
 * truncated file): everything but MP3, whose count is an estimate. */
bool ear__io_frames_exact(const SF_INFO *info);

/* True when libsndfile noticed, while opening, that the file is shorter than its header
 * says (its log then holds "(should be N)"). */
bool ear__io_header_overstates(SNDFILE *file);

/* True when the first 512 bytes of the file open at fd (read with pread, so its offset
 * does not matter) look like text (no NUL or other control bytes but
 * tab, newlines, form feed; UTF-8 allowed): a file that will not decode because it is
 * text, not audio (sniff.c). */
bool ear__io_is_text_fd(int fd);
/* True when the file starts with an MPEG audio Layer III frame header (sync, a version, a
 * bit rate and a sample rate that are not reserved), or with an ID3v2 tag and such a
 * header after it. */
bool ear__io_is_mp3_fd(int fd);

#endif
