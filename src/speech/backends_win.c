/* SPDX-License-Identifier: Zlib */
/*
 * The Windows table of speech backends (docs/windows.md), in the order the speech thread
 * tries them: NVDA (the player's screen reader, backend_nvda.c), SAPI 5 (the system's
 * voices, backend_sapi.c), the console. There is no espeak-ng in the Windows build: a headless
 * run times its lines by the estimate.
 */
#include "speech_internal.h"

#include <stdlib.h>

#define WIN32_LEAN_AND_MEAN
#include <windows.h>

wchar_t *ear__speech_wide(const char *text) {
    int n = MultiByteToWideChar(CP_UTF8, 0, text, -1, NULL, 0);
    if (n <= 0) return NULL;
    wchar_t *w = malloc((size_t)n * sizeof *w);
    if (w) MultiByteToWideChar(CP_UTF8, 0, text, -1, w, n);
    return w;
}

const ear__speech_backend *const ear__speech_chain[] = {
    &ear__speech_backend_nvda,
    &ear__speech_backend_sapi,
    &ear__speech_backend_console,
    NULL,
};

const ear__speech_timer_fn ear__speech_log_timer = NULL;
