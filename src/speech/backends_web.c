/* SPDX-License-Identifier: Zlib */
/*
 * The web build's table of speech backends: the page's live regions, which the player's
 * own screen reader speaks. There is no espeak-ng in the browser: a headless run (node)
 * times its lines by the estimate.
 */
#include "speech_internal.h"

const ear__speech_backend *const ear__speech_chain[] = {
    &ear__speech_backend_web,
    NULL,
};

const ear__speech_timer_fn ear__speech_log_timer = NULL;
