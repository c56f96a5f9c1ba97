/* SPDX-License-Identifier: Zlib */
/*
 * The Windows table of speech backends (docs/windows.md), in the order the speech thread
 * tries them: NVDA (the player's screen reader, backend_nvda.c), SAPI 5 (the system's
 * voices, backend_sapi.c), the console. There is no espeak-ng in the Windows build: a headless
 * run times its lines by the estimate.
 */
#include "speech_internal.h"

const ear__speech_backend *const ear__speech_chain[] = {
    &ear__speech_backend_nvda,
    &ear__speech_backend_sapi,
    &ear__speech_backend_console,
    NULL,
};

const ear__speech_timer_fn ear__speech_log_timer = NULL;
