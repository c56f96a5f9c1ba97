/* SPDX-License-Identifier: Zlib */
/*
 * Opening the table's chain, for either carrier (thread.c natively, direct.c on the web):
 * the first backend from an index on that may be tried and opens, published. After the
 * table (backends*.c) and shared.c, before the carriers.
 */
#include "speech_internal.h"

const ear__speech_backend *ear__speech_open_chain(ear_speech *sp, size_t from, size_t *index,
                                                  void **state) {
    for (size_t i = from; ear__speech_chain[i]; i++) {
        const ear__speech_backend *b = ear__speech_chain[i];
        bool last = ear__speech_chain[i + 1] == NULL;
        if (!last && b->usable && !b->usable(&sp->cfg)) continue;
        char **voices = NULL;
        size_t count = 0;
        *state = NULL;
        if (b->open && !b->open(sp, state, &voices, &count)) continue;
        *index = i;
        ear__speech_publish(sp, b, b->output, voices, count);
        return b;
    }
    return NULL;
}

void ear__speech_close_backend(ear_speech *sp, const ear__speech_backend *b, void *state) {
    if (b && b->close) b->close(sp, state);
}
