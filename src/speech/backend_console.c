/* SPDX-License-Identifier: Zlib */
/*
 * The console backend, the last of the chain: each line printed (line_fn, default
 * stdout), a character as its name (" " as "space"), a key by its SSIP name. It has
 * nothing to interrupt, so it prints every line, stale or not, and it never goes away.
 * No voices, no settings; its lines are timed by the estimate.
 */
#include "speech_internal.h"

static ear__speech_sent_result say(ear_speech *sp, void *state, const ear__speech_cmd *c) {
    (void)state;
    ear__speech_write_line(&sp->cfg, ear__speech_shown(c->what, c->text, false, NULL, 0));
    return EAR__SENT_OK;
}

const ear__speech_backend ear__speech_backend_console = {
    .name = "console",
    .output = EAR_SPEECH_OUTPUT_CONSOLE,
    .usable = NULL, /* always */
    .open = NULL,   /* no state, no voices */
    .close = NULL,
    .say = say,
    .apply = NULL,
    .alive = NULL,
    .replays = false,
    .reports = false,
    .players_rate = false,
};
