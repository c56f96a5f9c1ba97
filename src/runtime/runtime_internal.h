/* SPDX-License-Identifier: Zlib */
/* Internal to src/runtime: the replay file's reader and writer, the frame's phase names
 * and the test hook that records them. */
#ifndef EARSHOT_RUNTIME_INTERNAL_H
#define EARSHOT_RUNTIME_INTERNAL_H

#include "earshot/engine.h"

#include <stdio.h>

/* The magic at the start of every replay file (16 bytes, the NUL included). */
/* The save's keys of the game's speech settings (speech_settings.c). */
#define EAR__SPEECH_KEY_VOICE  "speech.voice"
#define EAR__SPEECH_KEY_RATE   "speech.rate"
#define EAR__SPEECH_KEY_VOLUME "speech.volume"
#define EAR__SPEECH_KEY_PUNCT  "speech.punctuation"

#define EAR__REPLAY_MAGIC      "EARSHOT-REPLAY\n"
#define EAR__REPLAY_MAGIC_LEN  16
#define EAR__REPLAY_FLAG_STAGE 1u /* rows carry the stage's output hash */

/* Called at the start of each phase of ear_runner_frame with its name ("time", "input",
 * "ui", "ui_events", "fixed_step", "fixed_update", "update", "world_sync",
 * "scene_changes", "quit_save"; the first frame: "time", "start", "scene_changes",
 * "quit_save"). NULL (the default) calls nothing. For tests of the frame order. */
extern void (*ear__runner_phase_hook)(const char *phase, void *user);
extern void *ear__runner_phase_hook_user;

/* One recorded step. */
typedef struct ear__replay_row {
    uint64_t scene_hash;
    uint64_t stage_hash;
    uint32_t first_event;
    uint32_t event_count;
} ear__replay_row;

struct ear_replay {
    double step_hz;
    uint32_t flags;
    ear__replay_row *rows;
    uint64_t row_count;
    ear_input_event *events;
    size_t event_count;
};

/* The rows of a loaded replay (for the runner). */
const ear__replay_row *ear__replay_get_row(const ear_replay *replay, uint64_t step);

typedef struct ear__replay_writer {
    ear_file_writer out; /* core's safe write: a temporary file renamed at close */
    FILE *file;          /* out's stream */
    char *path;
    uint64_t rows;
    bool failed;
} ear__replay_writer;

/* Starts a recording at path (core's safe write: a new file or an earlier replay is
 * replaced when the recording ends, anything else is kept, EAR_E_STATE) and writes the
 * header. EAR_E_IO (logged) when it cannot be created. */
ear_result ear__replay_writer_open(ear__replay_writer *writer, const char *path, double step_hz,
                                   uint32_t flags);
/* Appends one step's row. A write error is logged once and recording stops. */
void ear__replay_writer_step(ear__replay_writer *writer, uint64_t scene_hash,
                             uint64_t stage_hash, const ear_input_event *events,
                             uint32_t count);
/* Writes the row count into the header and renames the finished file over the path.
 * EAR_E_IO (logged; the path keeps what it held) when any write failed. Done once; later
 * calls return EAR_OK. */
ear_result ear__replay_writer_close(ear__replay_writer *writer);

/* 64-bit mixing (splitmix64's finaliser), for combining hashes. */
uint64_t ear__mix64(uint64_t x);

/* audio_device.c: the default audio hooks (the device module). */
ear_result ear__device_attach(ear_stage *stage, void *user, void **out_device);
void ear__device_update(void *device, void *user);
void ear__device_detach(void *device, void *user);

/* Queues one script event on the runner as the player's input would come (a press is a
 * down and an up in the same frame; quit closes the runner). script.c; Thread: game. */
void ear__script_event_queue(ear_runner *runner, const ear_script_event *event);
/* A script's axis value -1..1 as the raw value a pad reports (-32768..32767). */
int16_t ear__axis_raw(float v);

#endif
