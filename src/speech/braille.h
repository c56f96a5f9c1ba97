/* SPDX-License-Identifier: Zlib */
/*
 * The braille display of the speech thread (braille.c): a BrlAPI connection, the line on
 * the display and the first character shown. Zero-initialised is no display. Speech
 * thread only.
 */
#ifndef EARSHOT_SPEECH_BRAILLE_H
#define EARSHOT_SPEECH_BRAILLE_H

#include <stddef.h>

typedef struct ear__speech_braille {
    void *handle;       /* brlapi_handle_t *, NULL: no display */
    unsigned int cells; /* on the display */
    char *text;         /* the line on the display (owned) */
    size_t offset;      /* the first character shown */
} ear__speech_braille;

/* Opens BrlAPI at host (NULL: BrlAPI's default) and takes the display; nothing when
 * brltty is not reachable or offers no display (that is logged). */
void ear__braille_open(ear__speech_braille *b, const char *host);
/* Shows a line from its start (copied). */
void ear__braille_show(ear__speech_braille *b, const char *text);
/* Reads the display's keys and pans. */
void ear__braille_keys(ear__speech_braille *b);
void ear__braille_close(ear__speech_braille *b);

#endif
