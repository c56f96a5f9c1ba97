/* SPDX-License-Identifier: Zlib */
/*
 * espeak-ng loaded at run time (espeak_dl.c). espeak-ng is GPL-3+, so no Earshot library
 * links it: when the speech thread first needs it, the loader dlopens
 * "libespeak-ng.so.1" (or the name in EARSHOT_ESPEAK_LIB, which the tests use to point it
 * at a library that is not there) and looks its functions up into the table below. Its
 * header gives the types only, at compile time; nothing of it is in the link (no NEEDED
 * entry, no pkg-config Requires).
 *
 * Every call into espeak-ng goes through ear__espeak_api()->Name(...), named as the
 * library names them without "espeak_". Absent, the table is NULL and the loader has
 * logged one line saying so; the speech module then uses speech-dispatcher and the
 * console as before.
 */
#ifndef EAR_SPEECH_ESPEAK_DL_H
#define EAR_SPEECH_ESPEAK_DL_H

#include <espeak-ng/speak_lib.h>

#include <stdbool.h>
#include <stddef.h>
#include <wchar.h>

/* The library's name when EARSHOT_ESPEAK_LIB is unset or empty. */
#define EAR__ESPEAK_LIB "libespeak-ng.so.1"

typedef struct ear__espeak_table {
    int (*Initialize)(espeak_AUDIO_OUTPUT output, int buflength, const char *path, int options);
    void (*SetSynthCallback)(t_espeak_callback *callback);
    espeak_ERROR (*SetParameter)(espeak_PARAMETER parameter, int value, int relative);
    int (*GetParameter)(espeak_PARAMETER parameter, int current);
    espeak_ERROR (*SetPunctuationList)(const wchar_t *punctlist);
    espeak_ERROR (*Synth)(const void *text, size_t size, unsigned int position,
                          espeak_POSITION_TYPE position_type, unsigned int end_position,
                          unsigned int flags, unsigned int *unique_identifier, void *user_data);
    espeak_ERROR (*Char)(wchar_t character);
    espeak_ERROR (*Key)(const char *key_name);
    espeak_ERROR (*Synchronize)(void);
    espeak_ERROR (*Cancel)(void);
    int (*IsPlaying)(void);
    espeak_ERROR (*Terminate)(void);
    espeak_ERROR (*SetVoiceByName)(const char *name);
    espeak_ERROR (*SetVoiceByProperties)(espeak_VOICE *voice_spec);
    espeak_VOICE *(*GetCurrentVoice)(void);
    const espeak_VOICE **(*ListVoices)(espeak_VOICE *voice_spec);
    const char *(*Info)(const char **path_data);
} ear__espeak_table;

/* The loaded library's functions, or NULL when it cannot be loaded (not installed, or
 * lacking one of the functions): then one warning has been logged ("espeak-ng not found
 * (libespeak-ng.so.1): ..."), once per process. The library is loaded at the first call
 * and stays loaded. Calling the functions is still serialised by the caller (espeak-ng
 * keeps global state). Thread: any. */
const ear__espeak_table *ear__espeak_api(void);

#endif
