/* SPDX-License-Identifier: Zlib */
/*
 * libFuzzer target for decoding (src/audio/io through libsndfile): each input is written to
 * a file and read the three ways a game reads sounds: ear_decode_info (the header),
 * ear_decode_file (a whole clip) and ear_file_stream_open (music: open, the prefill, a few
 * reads, release). Checked on every input: a failure's message starts with the file's
 * name; a decoded clip has 1 or 2 channels, a rate in 1000..384000 Hz, at least one frame,
 * agrees with the header on channels and rate, and holds only finite samples; the stream
 * agrees with the header too. Seeds: small WAV, FLAC, Ogg Vorbis, Opus and MP3 files that
 * sox and opusenc make at fuzz time (tests/fuzz/run-fuzz).
 */
#include "fuzz_files.h"

#include "earshot/decode.h"

#include <math.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_error(const char *path, const ear_io_error *err) {
    if (strncmp(err->message, path, strlen(path)) != 0) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *path = fuzz_write("input", data, size);
    ear_io_error err;
    ear_audio_info info;
    ear_result ri = ear_decode_info(path, &info, &err);
    if (ri != EAR_OK) check_error(path, &err);

    ear_clip *clip = NULL;
    ear_result rd = ear_decode_file(path, NULL, &clip, &err);
    if (rd != EAR_OK) {
        check_error(path, &err);
        if (clip) abort();
    } else {
        uint32_t ch = ear_clip_channels(clip), rate = ear_clip_sample_rate(clip);
        uint64_t frames = ear_clip_frames(clip);
        if (ri != EAR_OK || ch != info.channels || rate != info.sample_rate) abort();
        if (ch < 1 || ch > 2 || rate < 1000 || rate > 384000 || frames == 0) abort();
        const float *s = ear_clip_data(clip);
        for (uint64_t i = 0; i < frames * ch; i++)
            if (!isfinite(s[i])) abort();
        ear_clip_release(clip);
    }

    if (ri == EAR_OK) {
        ear_file_stream_config config = {.buffer_s = 0.05f, .prefill_s = 0.02f};
        ear_stream stream;
        if (ear_file_stream_open(path, &config, &stream, &err) == EAR_OK) {
            if (stream.channels != info.channels || stream.sample_rate != info.sample_rate)
                abort();
            float out[2 * 256];
            for (int i = 0; i < 4 && !stream.ended(stream.user); i++) {
                uint32_t got = stream.read(stream.user, out, 256);
                if (got > 256) abort();
                for (uint32_t k = 0; k < got * stream.channels; k++)
                    if (!isfinite(out[k])) abort();
            }
            stream.release(stream.user);
        } else {
            check_error(path, &err);
        }
    }
    return 0;
}
