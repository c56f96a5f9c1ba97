/* SPDX-License-Identifier: Zlib */
/*
 * WAV writing of renders (libsndfile). Reading and decoding of every format arrive
 * in io's decoding part (decode.h).
 */
#ifndef EARSHOT_WAV_H
#define EARSHOT_WAV_H

#include "earshot/core.h"
#include "earshot/decode.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The software string (the INFO chunk's ISFT) of every WAV written here; a file that
 * carries it is one this writer may replace without being asked. */
#define EAR_WAV_SOFTWARE "Earshot"

typedef struct ear_wav_write_config {
    /* Replace whatever regular file or symbolic link is at the path (the link itself,
     * never the file it points to). Default false: only a WAV that Earshot wrote (or
     * nothing) may be there. */
    bool overwrite;
    /* Added to the message that keeps a file or a link, saying how to replace it (never to
     * the one that refuses a folder, FIFO or device); NULL (the default) is
     * " (overwrite replaces it)". The earshot tool says " (use --overwrite)". */
    const char *overwrite_hint;
} ear_wav_write_config;

/* The defaults above. Thread: any. */
ear_wav_write_config ear_wav_write_config_default(void);

/* Writes interleaved float samples as a 32-bit float WAV at path (samples stored bit
 * for bit, software string EAR_WAV_SOFTWARE). The samples go to a temporary file made
 * with mkstemp beside the path ("<path>.tmp-XXXXXX"), fsync'ed and renamed over path when
 * complete, so a failure leaves no partial file and the old file, if any, intact.
 *
 * What is at path (lstat, never followed): nothing, or a WAV Earshot wrote, is replaced;
 * a symbolic link or any other regular file is kept and refused with EAR_E_STATE unless
 * config->overwrite (then the link or file is replaced; a link's target is never written);
 * a folder, FIFO, socket or device is refused with EAR_E_STATE always (never opened, so
 * never waited on). config NULL means the defaults.
 *
 * EAR_E_INVALID_ARG (nothing touched) for a NULL or empty path or one ending in '/', NULL
 * samples, zero frames, channels or sample rate, or a sample that is NaN or infinite;
 * EAR_E_OUT_OF_MEMORY; EAR_E_IO when it cannot be written (a missing folder: "no such
 * folder"; a full disk). Every failure but the argument checks is written to
 * err->message as "<path>: <reason>", or, when err is NULL, logged (module "io", "cannot
 * write <path>: <reason>"). Thread: game (it touches files). */
ear_result ear_wav_write_with(const char *path, const float *samples, uint64_t frames,
                              uint32_t channels, uint32_t sample_rate,
                              const ear_wav_write_config *config, ear_io_error *err);

/* ear_wav_write_with with the default config and no err. Thread: game. */
ear_result ear_wav_write(const char *path, const float *samples, uint64_t frames,
                         uint32_t channels, uint32_t sample_rate);

#ifdef __cplusplus
}
#endif

#endif
