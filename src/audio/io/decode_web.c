/* SPDX-License-Identifier: Zlib */
/*
 * Decoding in the web build: libsndfile has no web build in Debian and is not built
 * here, so a sound file cannot be decoded in the browser yet. Every call says so, naming
 * the file, and the game goes on (the asset cache warns once per name and plays
 * nothing), as natively for a file that will not decode. synth: sounds and clips the
 * game makes or registers play as natively. This file replaces decode.c and stream.c
 * there (docs/web.md says what building libsndfile with emcc would take); format names are
 * format_name.c's, as natively.
 */
#include "earshot/decode.h"

#include <stdio.h>
#include <string.h>

#define NO_DECODER                                                                             \
    "the web build has no decoder for sound files (libsndfile is not built for it)"

static ear_result refuse(const char *path, ear_io_error *err) {
    char text[EAR_ERROR_TEXT_MAX];
    snprintf(text, sizeof text, "%s: %s", path ? path : "(null)", NO_DECODER);
    if (err)
        memcpy(err->message, text, sizeof text);
    else
        ear_log(EAR_LOG_ERROR, "io", "%s", text);
    return EAR_E_UNSUPPORTED;
}

bool ear_decode_supports(ear_audio_format format) {
    (void)format;
    return false; /* no decoder at all here */
}

ear_result ear_decode_info(const char *path, ear_audio_info *out, ear_io_error *err) {
    (void)out;
    return refuse(path, err);
}

ear_result ear_decode_file(const char *path, const ear_allocator *alloc, ear_clip **out_clip,
                           ear_io_error *err) {
    (void)alloc, (void)out_clip;
    return refuse(path, err);
}

ear_result ear_file_stream_open(const char *path, const ear_file_stream_config *config,
                                ear_stream *out_stream, ear_io_error *err) {
    (void)config, (void)out_stream;
    return refuse(path, err);
}

ear_result ear_file_stream_get_stats(const ear_stream *stream, ear_file_stream_stats *out) {
    (void)stream, (void)out;
    return EAR_E_INVALID_ARG; /* no stream is ever made by ear_file_stream_open here */
}
