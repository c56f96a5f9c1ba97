/* SPDX-License-Identifier: Zlib */
/*
 * Braille through BrlAPI (brltty), on the speech thread: every line delivered, whatever
 * the speech output, is also written to the display: as many characters as it has cells
 * (UTF-8, the rest blanked), from the window's first character. The display's panning
 * keys (brltty's FWINRT / FWINLT, full window right / left) move the window through a
 * line longer than the display; HOME and TOP go back to its start. No brltty is not an
 * error; a display that goes away is closed with a warning.
 */
#include "braille.h"

#include "speech_internal.h"

#include <brlapi.h>

#include <stdlib.h>
#include <string.h>

void ear__braille_open(ear__speech_braille *out, const char *host) {
    brlapi_handle_t *h = malloc(brlapi_getHandleSize());
    if (!h) return;
    brlapi_connectionSettings_t want = {.auth = NULL, .host = host};
    unsigned int x = 0, y = 0;
    if (brlapi__openConnection(h, &want, NULL) < 0) {
        free(h);
        return; /* no brltty: nothing to show on */
    }
    if (brlapi__getDisplaySize(h, &x, &y) < 0 || x == 0 ||
        brlapi__enterTtyModeWithPath(h, NULL, 0, NULL) < 0) {
        ear_log(EAR_LOG_INFO, "speech", "brltty answered but offers no display (%s)",
                brlapi_strerror(&brlapi_error));
        brlapi__closeConnection(h);
        free(h);
        return;
    }
    out->handle = h;
    out->cells = x * (y ? y : 1);
}

/* Writes the window of the message on the display: as many characters as it has
 * cells, from brl_offset. */
static void write_braille(ear__speech_braille *out) {
    if (!out->handle || !out->text) return;
    const char *text = out->text;
    size_t start = 0, skipped = 0;
    while (text[start] && skipped < out->offset) {
        size_t n = ear__speech_utf8_char(text + start, NULL);
        if (n == 0) break;
        start += n;
        skipped++;
    }
    size_t bytes = 0, chars = 0;
    while (text[start + bytes] && chars < out->cells) {
        size_t n = ear__speech_utf8_char(text + start + bytes, NULL);
        if (n == 0) break;
        bytes += n;
        chars++;
    }
    const char *window = text + start;
    if (chars == 0) {
        window = " ";
        bytes = chars = 1;
    }
    brlapi_writeArguments_t w = BRLAPI_WRITEARGUMENTS_INITIALIZER;
    w.regionBegin = 1;
    w.regionSize = -(int)chars; /* the rest of the display is blanked */
    w.text = window;
    w.textSize = (int)bytes;
    w.cursor = BRLAPI_CURSOR_OFF;
    w.charset = "UTF-8";
    if (brlapi__write(out->handle, &w) < 0) {
        ear_log(EAR_LOG_WARN, "speech", "the braille display went away (%s)",
                brlapi_strerror(&brlapi_error));
        brlapi__closeConnection(out->handle);
        free(out->handle);
        out->handle = NULL;
    }
}

/* Shows a message from its start. */
void ear__braille_show(ear__speech_braille *out, const char *text) {
    if (!out->handle) return;
    char *copy = ear__speech_copy(text, EAR_SPEECH_TEXT_MAX - 1);
    if (!copy) return;
    free(out->text);
    out->text = copy;
    out->offset = 0;
    write_braille(out);
}

/* The display's panning keys (brltty's FWINRT / FWINLT, "full window right / left")
 * move through a message longer than the display; HOME and TOP go back to its start.
 * Other keys are left alone. */
void ear__braille_keys(ear__speech_braille *out) {
    brlapi_keyCode_t code;
    while (out->handle && brlapi__readKey(out->handle, 0, &code) > 0) {
        if ((code & BRLAPI_KEY_TYPE_MASK) != BRLAPI_KEY_TYPE_CMD || !out->text) continue;
        brlapi_keyCode_t cmd_code = code & BRLAPI_KEY_CODE_MASK;
        size_t length = 0;
        for (size_t i = 0; out->text[i];) {
            size_t n = ear__speech_utf8_char(out->text + i, NULL);
            if (n == 0) break;
            i += n;
            length++;
        }
        size_t before = out->offset;
        if (cmd_code == BRLAPI_KEY_CMD_FWINRT && out->offset + out->cells < length)
            out->offset += out->cells;
        else if (cmd_code == BRLAPI_KEY_CMD_FWINLT)
            out->offset = out->offset > out->cells ? out->offset - out->cells : 0;
        else if (cmd_code == BRLAPI_KEY_CMD_HOME || cmd_code == BRLAPI_KEY_CMD_TOP)
            out->offset = 0;
        if (out->offset != before) write_braille(out);
    }
}

void ear__braille_close(ear__speech_braille *out) {
    free(out->text);
    out->text = NULL;
    if (!out->handle) return;
    brlapi__leaveTtyMode(out->handle);
    brlapi__closeConnection(out->handle);
    free(out->handle);
    out->handle = NULL;
}
