/* SPDX-License-Identifier: Zlib */
/*
 * The headless backend: no window, no sound card, no clock. Frame f runs at time
 * f / step_hz and takes exactly one fixed step (frame 0 only starts the first scene),
 * the script's events for frame f are queued just before it, the save lives in memory
 * and speech goes to its history only. Tests, smoke runs and replays drive games here.
 */
#include "runtime_internal.h"

#include <stdlib.h>

/* Frames without a fixed step after which a replay is declared stalled. */
#define STALL_FRAMES 600

static int by_frame(const void *a, const void *b) {
    const ear_script_event *x = *(const ear_script_event *const *)a;
    const ear_script_event *y = *(const ear_script_event *const *)b;
    if (x->frame != y->frame) return x->frame < y->frame ? -1 : 1;
    /* Same frame: keep the script's order (pointers into one array). */
    return x < y ? -1 : x > y;
}

ear_result ear__run_headless(ear_runner *r, const ear_engine_config *cfg);

ear_result ear__run_headless(ear_runner *r, const ear_engine_config *cfg) {
    ear_runner_set_one_step_per_frame(r, true);
    const ear_script_event **order = NULL;
    size_t count = 0, next = 0;
    if (cfg->script && cfg->script->count && !cfg->replay_path) {
        count = cfg->script->count;
        order = malloc(count * sizeof *order);
        if (!order) return EAR_E_OUT_OF_MEMORY;
        for (size_t i = 0; i < count; i++) order[i] = &cfg->script->events[i];
        qsort(order, count, sizeof *order, by_frame);
    } else if (cfg->script && cfg->replay_path) {
        ear_log(EAR_LOG_WARN, "runtime", "a replay ignores the script");
    }
    uint64_t last_steps = 0, still = 0;
    ear_result res = EAR_OK;
    for (uint64_t frame = 0; ear_runner_running(r); frame++) {
        if (cfg->frames && frame >= cfg->frames) break;
        if (cfg->replay_path && ear_runner_replay_done(r)) break;
        while (next < count && order[next]->frame <= frame)
            ear__script_event_queue(r, order[next++]);
        ear_runner_frame(r, (double)frame / cfg->step_hz);
        /* A replay whose game stays paused would never finish: its input for the pause's
         * frames arrives in one frame, so a pause toggled from update may not end. */
        still = ear_runner_steps(r) == last_steps ? still + 1 : 0;
        last_steps = ear_runner_steps(r);
        if (cfg->replay_path && still == STALL_FRAMES) {
            ear_log(EAR_LOG_ERROR, "runtime",
                    "replay '%s' stalled at step %llu: no step for %d frames (paused?)",
                    cfg->replay_path, (unsigned long long)last_steps, STALL_FRAMES);
            res = EAR_E_STATE;
            break;
        }
    }
    free(order);
    if (cfg->replay_path && ear_runner_replay_mismatch(r) != UINT64_MAX) res = EAR_E_STATE;
    return res;
}
