/* SPDX-License-Identifier: Zlib */
/*
 * The demo game's sounds (sounds.c): every sound and music loop it plays, made from the
 * synth. make_sounds writes them as WAVs at build time (the native game reads those);
 * the web build makes them at start and registers them with the asset cache.
 */
#ifndef EARSHOT_DEMO_SOUNDS_H
#define EARSHOT_DEMO_SOUNDS_H

#include "earshot/stage.h"

#define DEMO_SOUNDS_RATE 48000 /* every clip is mono at this rate */

/* Receives one sound: its name (the asset name the game asks for: "guide",
 * "step_stone_1", "garden"...), whether it was made, and the clip (one reference, owned
 * by the callee from then on; NULL when made is not EAR_OK). */
typedef void (*demo_sound_fn)(void *user, const char *name, ear_result made, ear_clip *clip);

/* Makes every sound, always in the same order and with the same bits for the same build,
 * handing each to fn. Returns how many could not be made (each was still handed to fn,
 * with its error). Thread: any (no shared state). */
int demo_sounds_make(demo_sound_fn fn, void *user);

#endif
