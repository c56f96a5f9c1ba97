/* SPDX-License-Identifier: Zlib */
/*
 * The player that only hears. It gets exactly what a player gets: each spoken line (as
 * text) and each frame's stereo output, and it answers with keys held and pressed. It
 * never sees a position, a map or the game's state: it steers by measuring the guide
 * bell's level in each ear (Goertzel at 1000 Hz), front from back on foot by turning its
 * head a little and listening which ear the bell moves to, in the car by the bell's bright
 * partial (4000 Hz), which the stage's behind cue dulls, and the drone's hum (55 Hz, below
 * the music) for danger; menus by their announcements.
 */
#ifndef EARSHOT_DEMO_BOT_H
#define EARSHOT_DEMO_BOT_H

#include "earshot/input.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct bot bot;

/* play_all: at a completion it chooses "Next level" while there is one, else "Exit".
 * log (may be NULL): the bot writes its own decisions there, one per line. */
bot *bot_create(bool play_all, FILE *log);
void bot_destroy(bot *b);

/* The words the bot listens for, in the language the game speaks (a player knows the
 * language: main.c takes them from the game's translation table). Copied. Unset fields
 * (and a bot never given words) keep the English ones. */
typedef struct bot_words {
    const char *complete, *game_over;       /* "Level complete", "Game over" */
    const char *play, *next, *exit, *retry; /* the items it chooses */
    const char *follow, *car;               /* "Follow the bell", "You are in the car" */
    const char *levels[3];                  /* "Level 1: the garden", ... */
} bot_words;
void bot_set_words(bot *b, const bot_words *words);

/* A line the game spoke: its words as heard (a cut line: the words said before the cut;
 * "" for speech cut before its first word). */
void bot_hear_line(bot *b, const char *text);
/* Whether the game's voice is sounding this frame: a player hears a line being said before
 * it ends (its words arrive through bot_hear_line once its fate is known). */
void bot_hear_speaking(bot *b, bool speaking);
/* One frame of interleaved stereo output at rate. */
void bot_hear_audio(bot *b, const float *stereo, uint32_t frames, uint32_t rate);

/* The keys for the next frame: which keys to hold (held[key]) and which to tap once
 * (a press: down and up in the same frame). */
typedef struct bot_keys {
    bool held[EAR_KEY_COUNT];
    ear_key taps[4];
    size_t tap_count;
} bot_keys;
void bot_decide(bot *b, bot_keys *out);

/* Where the bot hears the guide bell over its last 30 frames, in degrees: 0 ahead,
 * positive to the right, beyond +-90 behind. False when it hears no bell. */
bool bot_bell_direction(const bot *b, float *out_deg);

#endif
