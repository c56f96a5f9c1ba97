/*
 * WAV writing of renders (libsndfile). Reading and decoding of every format arrive
 * in io's decoding part.
 */
#ifndef EARSHOT_WAV_H
#define EARSHOT_WAV_H

#include "earshot/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes interleaved float samples as a 32-bit float WAV at path (samples stored bit
 * for bit), replacing any file there. The file is written as "<path>.part" and renamed
 * into place when complete, so a failure leaves no partial file and the old file, if
 * any, intact. EAR_E_INVALID_ARG (nothing touched) for a NULL or empty path, NULL
 * samples, zero frames, channels or sample rate, or a sample that is NaN or infinite;
 * EAR_E_OUT_OF_MEMORY; EAR_E_IO with a logged error (module "io") naming the file and
 * libsndfile's reason when it cannot be written. Thread: game (it touches a file). */
ear_result ear_wav_write(const char *path, const float *samples, uint64_t frames,
                         uint32_t channels, uint32_t sample_rate);

#ifdef __cplusplus
}
#endif

#endif
