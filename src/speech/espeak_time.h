/* SPDX-License-Identifier: Zlib */
/*
 * How long espeak-ng takes to say a line (espeak_time.c), and espeak-ng's process-wide
 * state, which speech.c's espeak-ng output shares: one lock and one initialisation.
 */
#ifndef EARSHOT_SPEECH_ESPEAK_TIME_H
#define EARSHOT_SPEECH_ESPEAK_TIME_H

#include <pthread.h>
#include <stdbool.h>

/* Held around every use of espeak-ng in the process. */
extern pthread_mutex_t ear__espeak_lock;

/* With ear__espeak_lock held: initialises espeak-ng once for the process (synchronous
 * mode: espeak_Synth returns when every sample has gone to the callback) and returns its
 * sample rate, or -1 when espeak-ng could not start (then every call says -1). */
int ear__espeak_start(void);

/* How long espeak-ng takes to say text at rate (-100 .. 100, speech.h's scale: 80 .. 175
 * .. 450 words a minute) in voice (an espeak-ng voice or language name: "en", "de"; NULL
 * or unknown: English), synthesised into memory and never played: the samples its
 * callback is given, over its sample rate. Cached by (text, rate, voice), so a repeat
 * costs a look-up. False when espeak-ng cannot start or cannot say it (*out_s untouched).
 * Thread: any (takes ear__espeak_lock). */
bool ear__espeak_seconds(const char *text, int rate, const char *voice, double *out_s);

#endif
