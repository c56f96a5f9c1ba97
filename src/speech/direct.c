/* SPDX-License-Identifier: Zlib */
/*
 * The web build's carrier: no thread (a page's main thread is the game's), so the first
 * backend of the table (backends_web.c) that opens is opened at create, every command
 * is handed to it at once on the game thread, and it is closed at destroy. It never
 * goes away, so there is no fail-over; the echo and the count of delivered lines are
 * kept as the speech thread keeps them (thread.c). No braille: the screen reader drives
 * the player's display itself.
 */
#include "speech_internal.h"

#include <stdlib.h>

typedef struct direct {
    const ear__speech_backend *backend;
    void *state;
} direct;

ear_result ear__speech_carrier_start(ear_speech *sp) {
    direct *d = calloc(1, sizeof *d);
    if (!d) return EAR_E_OUT_OF_MEMORY;
    size_t index = 0;
    d->backend = ear__speech_open_chain(sp, 0, &index, &d->state);
    if (!d->backend) {
        free(d);
        return EAR_E_STATE;
    }
    sp->carrier = d;
    return EAR_OK;
}

void ear__speech_carrier_send(ear_speech *sp, ear__speech_cmd *c) {
    direct *d = sp->carrier;
    if (d && c->kind == EAR__CMD_SAY) {
        if (d->backend->say(sp, d->state, c) != EAR__SENT_SKIPPED) {
            if (d->backend->output != EAR_SPEECH_OUTPUT_CONSOLE && atomic_load(&sp->echo))
                ear__speech_write_line(&sp->cfg,
                                       ear__speech_shown(c->what, c->text, false, NULL, 0));
            atomic_fetch_add(&sp->delivered, 1);
        }
    } else if (d && d->backend->apply) {
        d->backend->apply(sp, d->state, c);
    }
    free(c->text);
    free(c);
}

void ear__speech_carrier_stop(ear_speech *sp) {
    direct *d = sp->carrier;
    if (!d) return;
    ear__speech_close_backend(sp, d->backend, d->state);
    free(d);
    sp->carrier = NULL;
}
