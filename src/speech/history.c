/* SPDX-License-Identifier: Zlib */
/*
 * The speech history: a ring of the last EAR_SPEECH_HISTORY messages
 * (items[(start + i) % EAR_SPEECH_HISTORY] for i < count, oldest first, each its own
 * allocation) and a review cursor, review < count whenever count > 0. Every add puts
 * the cursor on the newest message; a step moves it one message (speech.c's
 * ear_speech_history_back / _forward say the message under it). Game thread.
 */
#include "speech_internal.h"

#include <stdlib.h>
#include <string.h>

char *ear__speech_copy(const char *s, size_t max) {
    if (!s) return NULL;
    size_t n = strlen(s);
    n = ear_utf8_cut(s, n, max); /* never half a character */
    char *d = malloc(n + 1);
    if (!d) return NULL;
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

void ear__speech_history_clear(ear__speech_history *h) {
    for (size_t i = 0; i < h->count; i++) free(h->items[(h->start + i) % EAR_SPEECH_HISTORY]);
    memset(h, 0, sizeof *h);
}

ear_result ear__speech_history_add(ear__speech_history *h, const char *text) {
    char *copy = ear__speech_copy(text, EAR_SPEECH_TEXT_MAX - 1);
    if (!copy) return EAR_E_OUT_OF_MEMORY;
    if (h->count == EAR_SPEECH_HISTORY) {
        free(h->items[h->start]);
        h->items[h->start] = copy;
        h->start = (h->start + 1) % EAR_SPEECH_HISTORY;
    } else {
        h->items[(h->start + h->count) % EAR_SPEECH_HISTORY] = copy;
        h->count++;
    }
    h->review = h->count - 1;
    h->total++;
    return EAR_OK;
}

const char *ear__speech_history_get(const ear__speech_history *h, size_t index) {
    return index < h->count ? h->items[(h->start + index) % EAR_SPEECH_HISTORY] : NULL;
}

const char *ear__speech_history_step(ear__speech_history *h, bool back, bool *at_end) {
    *at_end = true;
    if (h->count == 0) return NULL;
    *at_end = back ? h->review == 0 : h->review + 1 >= h->count;
    if (!*at_end) h->review = back ? h->review - 1 : h->review + 1;
    return ear__speech_history_get(h, h->review);
}
