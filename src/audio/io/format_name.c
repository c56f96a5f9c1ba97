/* SPDX-License-Identifier: Zlib */
/*
 * The names of the audio formats (ear_audio_format_name), in one place for both decoders:
 * decode.c natively (libsndfile) and decode_web.c in the web build, which decodes nothing
 * but still names formats for the messages and commands that print them. Plain C: no
 * libsndfile here.
 */
#include "earshot/decode.h"

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
