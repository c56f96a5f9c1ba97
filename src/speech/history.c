/* SPDX-License-Identifier: Zlib */
/*
 * The speech history both outputs share: a ring of the last EAR_SPEECH_HISTORY
 * messages (items[(start + i) % EAR_SPEECH_HISTORY] for i < count, oldest first, each
 * its own allocation) and a review cursor, review < count whenever count > 0. Every add
 * puts the cursor on the newest message; history_back and history_forward move it one
 * step and say the message under it through the output's ear__speech_say_again. All of
 * it lives on the game thread.
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

static const char *history_get(const ear__speech_history *h, size_t index) {
    return h->items[(h->start + index) % EAR_SPEECH_HISTORY];
}

ear_result ear_speech_repeat_last(ear_speech *sp) {
    if (!sp) return EAR_E_INVALID_ARG;
    ear__speech_history *h = ear__speech_history_of(sp);
    if (h->count == 0) return EAR_E_NOT_FOUND;
    h->review = h->count - 1;
    return ear__speech_say_again(sp, history_get(h, h->count - 1));
}

/* At either end the cursor stays and the message under it is said again, so the player
 * hears where they are; EAR_E_NOT_FOUND tells the caller it did not move. */
static ear_result review_step(ear_speech *sp, bool back) {
    if (!sp) return EAR_E_INVALID_ARG;
    ear__speech_history *h = ear__speech_history_of(sp);
    if (h->count == 0) return EAR_E_NOT_FOUND;
    bool at_end = back ? h->review == 0 : h->review + 1 >= h->count;
    if (!at_end) h->review = back ? h->review - 1 : h->review + 1;
    ear_result res = ear__speech_say_again(sp, history_get(h, h->review));
    if (res != EAR_OK) return res;
    return at_end ? EAR_E_NOT_FOUND : EAR_OK;
}

ear_result ear_speech_history_back(ear_speech *sp) {
    return review_step(sp, true);
}

ear_result ear_speech_history_forward(ear_speech *sp) {
    return review_step(sp, false);
}

size_t ear_speech_history_cursor(const ear_speech *sp) {
    if (!sp) return 0;
    const ear__speech_history *h = ear__speech_history_of_const(sp);
    return h->count ? h->review : 0;
}

size_t ear_speech_history_count(const ear_speech *sp) {
    return sp ? ear__speech_history_of_const(sp)->count : 0;
}

const char *ear_speech_history_at(const ear_speech *sp, size_t index) {
    if (!sp) return NULL;
    const ear__speech_history *h = ear__speech_history_of_const(sp);
    return index < h->count ? history_get(h, index) : NULL;
}

uint64_t ear_speech_total(const ear_speech *sp) {
    return sp ? ear__speech_history_of_const(sp)->total : 0;
}
