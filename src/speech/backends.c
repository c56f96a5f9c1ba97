/* SPDX-License-Identifier: Zlib */
/*
 * The native table of speech backends, in the order the speech thread tries them:
 * speech-dispatcher (screen readers), espeak-ng into the stage, the console (always
 * there). A new backend (Windows' SAPI, say) is its own backend_<name>.c with an
 * ear__speech_backend, and one line here. A headless run times its lines by espeak-ng
 * (espeak_time.c), the estimate when espeak-ng is absent.
 */
#include "espeak_time.h"
#include "speech_internal.h"

const ear__speech_backend *const ear__speech_chain[] = {
    &ear__speech_backend_dispatcher,
    &ear__speech_backend_espeak,
    &ear__speech_backend_console,
    NULL,
};

const ear__speech_timer_fn ear__speech_log_timer = ear__espeak_seconds;
