/* SPDX-License-Identifier: Zlib */
/*
 * Braille on Windows: there is no BrlAPI; the player's screen reader (NVDA) drives the
 * display itself from what it is given to speak. The speech thread's display stays closed.
 */
#include "braille.h"

void ear__braille_open(ear__speech_braille *b, const char *host) {
    (void)host;
    b->handle = NULL;
}

void ear__braille_show(ear__speech_braille *b, const char *text) {
    (void)b, (void)text;
}

void ear__braille_keys(ear__speech_braille *b) {
    (void)b;
}

void ear__braille_close(ear__speech_braille *b) {
    (void)b;
}
