/* SPDX-License-Identifier: Zlib */
/*
 * The parts a game's process shares: the demo game (games/demo/main.c) and earshot-lua
 * (tools/earshot-lua/main.c) are each a front end over the runtime that picks a window or
 * a headless run, keeps its save in the user's data folder, writes what was heard to a
 * speech log, and drives a headless run frame by frame. This file is that once: the
 * front ends keep only what is theirs (the demo's bot, WAV and plot; the Lua game's
 * script and budget). Example code, not part of the engine: compiled into each program.
 */
#ifndef EARSHOT_EXAMPLES_CLI_GAME_H
#define EARSHOT_EXAMPLES_CLI_GAME_H

#include "earshot/engine.h"
#include "earshot/core.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* --seconds as frames: rounded up, and at least one, so any positive value is a limit
 * (0.01 s at 60 frames a second was 0 frames, which meant no limit at all). */
uint64_t cli_seconds_to_frames(double seconds, double frame_hz);

/* Whether a window could open (DISPLAY or WAYLAND_DISPLAY set; always on Windows, where
 * SDL says when it cannot) and whether there is a sound card (/dev/snd/controlC0; always
 * on Windows, where SDL's WASAPI path says when there is none). */
bool cli_have_display(void);
bool cli_have_sound_card(void);

/* The user's data folder for Earshot's games, made if missing (as mkdir -p):
 * $XDG_DATA_HOME/earshot (else ~/.local/share/earshot), on Windows %APPDATA%/Earshot,
 * with "/sub" after it when sub is given. False when it could not be made or does not
 * fit in cap. */
bool cli_user_data_folder(const char *sub, char *out, size_t cap);

/* Whether a file's first bytes are a speech log's ("<seconds>.<cs>\t"): the logs a run
 * may replace (core's safe write keeps any other file). */
bool cli_looks_like_speech_log(const char *head, size_t n);

/* One line of a speech log, for a line whose fate is known: "<start s>\t<text>\theard",
 * or "...\tcut <said s>/<full s>" for a line cut short (0.00 said for one dropped before
 * it began). The fate alone ("heard", "cut 0.40/1.20") goes to fate when it is not NULL. */
void cli_speech_fate(const ear_speech_event *e, char *fate, size_t cap);
void cli_speech_log_line(FILE *log, const ear_speech_event *e);

/* Opens a log through core's safe write (a temporary file renamed over the path at the
 * end, or a device or pipe written into: --speech-log /dev/stderr); ours says which files
 * it may replace and name what they are. NULL, said on stderr as "<program>: <flag>
 * <why>", when the path is refused. */
FILE *cli_open_log(ear_file_writer *w, const char *program, const char *flag, const char *path,
                   bool (*ours)(int fd, void *user), void *user, const char *name);

/* Finishes a log opened by cli_open_log (nothing for one never opened): false, said,
 * when any of it could not be written (a full disk, /dev/full). */
bool cli_close_log(ear_file_writer *w, const char *program, const char *flag);

/* What a headless run calls back, each optional. */
typedef struct cli_headless_hooks {
    void *user;
    /* The game's own close, just before the runner's: a script's quit or --seconds. */
    void (*close)(void *user);
    /* Input after the script's lines of the frame (the demo's bot); not in a replay. */
    void (*input)(void *user, ear_runner *rn, uint64_t frame);
    /* The frame's stereo output once hashed; audio_hash is every frame's so far. */
    void (*audio)(void *user, const float *stereo, uint32_t frames, uint64_t audio_hash);
} cli_headless_hooks;

typedef struct cli_headless_result {
    uint64_t audio_hash;      /* FNV-1a 64 of every frame's output */
    uint64_t step_audio_hash; /* the same as of the last frame that ran a fixed step */
} cli_headless_result;

/* Drives a headless runner to its end, one fixed step a frame at 60 frames a second:
 * the script's lines go in at their frames (not in a replay, which has its own), the
 * stage's 800 frames of 48 kHz stereo are rendered after each frame and hashed, and
 * --seconds (max_frames, 0 for none) closes the game. The frame loop is this process's:
 * the runner renders no audio itself. False, said, when the script's order could not be
 * allocated (nothing ran). */
bool cli_run_headless(const char *program, ear_runner *rn, const ear_script *script,
                      bool replay, uint64_t max_frames, const cli_headless_hooks *hooks,
                      cli_headless_result *out);

#endif
