/* SPDX-License-Identifier: Zlib */
/*
 * Decoding (libsndfile): WAV, FLAC, Ogg Vorbis, Opus and MP3 files become float clips at
 * the file's own rate and channel count (the stage resamples at play time, so nothing is
 * re-encoded per machine), and music files become streams decoded on a background thread
 * ahead of the mixer. See docs/modules/decode.md.
 */
#ifndef EARSHOT_DECODE_H
#define EARSHOT_DECODE_H

#include "earshot/core.h"
#include "earshot/mixer.h"
#include "earshot/stage.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The text of an error that names the file and the reason, for example
 * "sounds/door.flac: truncated: the header promises 88200 frames, the file holds 40960".
 * Functions that take one write it on failure (when it is not NULL) and log nothing;
 * given NULL, they log the same text (level error, module "io") instead. */
#define EAR_ERROR_TEXT_MAX 512
typedef struct ear_io_error {
    char message[EAR_ERROR_TEXT_MAX];
} ear_io_error;

typedef enum ear_audio_format {
    EAR_AUDIO_OTHER = 0, /* something else libsndfile reads (AIFF, W64, ...) */
    EAR_AUDIO_WAV,
    EAR_AUDIO_FLAC,
    EAR_AUDIO_VORBIS, /* Ogg Vorbis */
    EAR_AUDIO_OPUS,   /* Ogg Opus; libsndfile decodes it at 48 kHz (or the rate the
                         encoder recorded, when Opus supports it) */
    EAR_AUDIO_MP3,
} ear_audio_format;

/* What a file holds, as its header says. */
typedef struct ear_audio_info {
    uint64_t frames; /* MP3: libsndfile's estimate (encoder delay and padding included);
                        0 when the file does not say */
    uint32_t channels;
    uint32_t sample_rate;
    ear_audio_format format;
} ear_audio_info;

/* "wav", "flac", "vorbis", "opus", "mp3" or "other". Thread: any. */
const char *ear_audio_format_name(ear_audio_format format);

/* Whether this build decodes files of `format`: the five formats above, each as far as the
 * libsndfile it runs with reads it (the Windows build's has no MP3: docs/windows.md; the web
 * build decodes none). An MP3 file where the build has no MP3 is refused with
 * EAR_E_UNSUPPORTED, by name. EAR_AUDIO_OTHER: false. Thread: any. */
bool ear_decode_supports(ear_audio_format format);

/* Reads a file's header into *out. Errors as ear_decode_file's (a claim no file of its
 * size can hold included), except that a truncated body is found only by decoding.
 * Thread: any. */
ear_result ear_decode_info(const char *path, ear_audio_info *out, ear_io_error *err);

/* Decodes a whole file into a new clip (one reference, owned by the caller; alloc NULL:
 * the default allocator) of interleaved floats at the file's own rate and channel count.
 * Integer formats come in [-1, 1) (libsndfile's normalisation); float formats (and a lossy
 * decoder's output) come as stored, so a sample may pass 1 in magnitude (a float file's
 * headroom: nothing is clamped; the stage's output limiter deals with overs), except NaN and
 * infinities, which become 0. Fails, with *out_clip untouched and the reason in err:
 *   EAR_E_INVALID_ARG  NULL path or out_clip;
 *   EAR_E_NOT_FOUND    no file at path;
 *   EAR_E_FORMAT       not audio, malformed, or truncated (a WAV, FLAC, Vorbis or Opus
 *                      body shorter than its header promises, an Ogg file without its
 *                      end), a header claiming more frames than a file of its size can
 *                      hold, or no frames at all;
 *   EAR_E_UNSUPPORTED  more than two channels, or a rate outside 1000..384000 Hz;
 *   EAR_E_IO           the file cannot be read;
 *   EAR_E_OUT_OF_MEMORY alloc refused.
 * Memory follows the frames the file really holds, never its header's claim: every byte
 * comes from alloc, starting at most at 8 frames a byte of the file (plus 65536) and at
 * most doubling as decoded frames fill it; nothing is zeroed or copied (the clip adopts
 * the buffer). See docs/modules/decode.md.
 * Thread: any (it reads a file: never the audio thread). */
ear_result ear_decode_file(const char *path, const ear_allocator *alloc, ear_clip **out_clip,
                           ear_io_error *err);

/* ---- Streaming ------------------------------------------------------------------- */

/* How a music file streams. Zero fields mean the defaults. */
typedef struct ear_file_stream_config {
    bool loop;       /* default false; true: the decoder seeks back to the start at
                        the end, so the stream never ends */
    float buffer_s;  /* decoded audio held ahead of the mixer; default 2 s (0.05..60) */
    float prefill_s; /* decoded on the opening thread before open returns, so the
                        first reads do not underrun; default 0.25 s (at most buffer_s) */
    float poll_ms;   /* how long the decoder sleeps when the buffer is full;
                        default 5 ms */
    const ear_allocator *allocator; /* NULL: malloc/realloc/free */
} ear_file_stream_config;

/* Opens a music file as an ear_stream (mixer.h) and starts its decoder thread. The
 * thread decodes into a lock-free single-producer/single-consumer ring ahead of the
 * reader; out_stream->read (audio thread) copies from the ring and never blocks,
 * allocates, locks or logs: when the decoder is behind, it returns fewer frames (an
 * underrun, counted). out_stream->ended is true once a non-looping file is decoded to its
 * end and every frame has been read. out_stream->release (game thread) stops and joins
 * the thread and frees everything; the stage calls it when it is done with a stream it
 * was given, and a caller who never hands the stream over calls it once itself.
 * A read error in mid-file (a truncated file) is logged by the decoder thread (module
 * "io", naming the file) and ends the stream there. Samples as ear_decode_file's (the same
 * range, bit for bit). Errors as ear_decode_file's, with
 * nothing started and *out_stream untouched. Thread: game. */
ear_result ear_file_stream_open(const char *path, const ear_file_stream_config *config,
                                ear_stream *out_stream, ear_io_error *err);

typedef struct ear_file_stream_stats {
    uint64_t frames_decoded; /* by the decoder, loops included */
    uint64_t frames_read;    /* by the reader */
    uint64_t underruns;      /* reads that got fewer frames than asked while the file
                                had more */
    uint64_t loops;          /* times the decoder went back to the start */
    uint32_t buffer_frames;  /* the ring's capacity */
} ear_file_stream_stats;

/* Counters of a stream made by ear_file_stream_open (EAR_E_INVALID_ARG for any other
 * stream). Thread: any (atomics). */
ear_result ear_file_stream_get_stats(const ear_stream *stream, ear_file_stream_stats *out);

#ifdef __cplusplus
}
#endif

#endif
