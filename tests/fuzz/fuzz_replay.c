/* SPDX-License-Identifier: Zlib */
/*
 * libFuzzer target for replay files (src/runtime/replay.c, ear_replay_load): each input is
 * written to a file and loaded. A failure's message names the file; a loaded replay has a
 * positive step rate, no more steps than the file has room for (18 bytes a row), and
 * answers for every step, and every step's events lie inside the replay's event list with a
 * known type and key (a gamepad event: a slot, button or axis in range). Seeds:
 * tests/fuzz/seeds/replay (a replay of a few steps with key and text events, in the format
 * docs/modules/runtime.md describes).
 */
#include "fuzz_files.h"

#include "earshot/engine.h"
#include "runtime_internal.h" /* the rows and events, checked */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *path = fuzz_write("input.replay", data, size);
    ear_replay *replay = NULL;
    char error[512];
    ear_result r = ear_replay_load(path, &replay, error, sizeof error);
    if (r != EAR_OK) {
        if (replay || !strstr(error, path)) abort();
        return 0;
    }
    uint64_t steps = ear_replay_steps(replay);
    if (!(ear_replay_step_hz(replay) > 0) || steps > size / 18) abort();
    for (uint64_t i = 0; i < steps; i++) {
        if (ear_replay_step_hash(replay, i) != ear_replay_step_hash(replay, i)) abort();
        const ear__replay_row *row = ear__replay_get_row(replay, i);
        if (!row || (size_t)row->first_event + row->event_count > replay->event_count) abort();
        for (uint32_t k = 0; k < row->event_count; k++) {
            const ear_input_event *e = &replay->events[row->first_event + k];
            if (e->type < EAR_INPUT_KEY_DOWN || e->type > EAR_INPUT_PAD_AXIS ||
                e->key >= EAR_KEY_COUNT || memchr(e->text, '\0', sizeof e->text) == NULL)
                abort();
            /* A gamepad event: its slot and its button or axis index the input's arrays. */
            if (e->type >= EAR_INPUT_PAD_ADDED &&
                (e->pad >= EAR_PAD_MAX ||
                 e->control >= (e->type == EAR_INPUT_PAD_AXIS ? EAR_PAD_AXIS_COUNT
                                                              : EAR_PAD_BUTTON_COUNT)))
                abort();
        }
    }
    (void)ear_replay_hashes_stage(replay);
    if (ear_replay_step_hash(replay, steps) != 0 || ear__replay_get_row(replay, steps)) abort();
    ear_replay_free(replay);
    return 0;
}
