/* SPDX-License-Identifier: Zlib */
/*
 * libFuzzer target for headless key scripts (src/runtime/script.c, ear_script_parse): each
 * input, NUL-terminated, is parsed; a parsed script's events are checked (a known action, a
 * named key for down/up/press, a text without a line break, a pad button or axis in range
 * and an axis value in -1..1) and fed, frame by frame, to an ear_input as the headless
 * backend feeds them (src/runtime/input.c; pad lines drive slot 0). A failure's message
 * names the line ("script line N: ..."). Seeds: tests/fuzz/seeds/script.
 */
#include "earshot/engine.h"
#include "earshot/input.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    ear_script script;
    char error[256];
    ear_result r = ear_script_parse(text, &script, error, sizeof error);
    free(text);
    if (r != EAR_OK) {
        if (r != EAR_E_FORMAT || strncmp(error, "script line ", 12) != 0) abort();
        return 0;
    }
    ear_input input;
    ear_input_init(&input);
    uint64_t frame = 0;
    for (size_t i = 0; i < script.count; i++) {
        const ear_script_event *e = &script.events[i];
        /* A frame's events, then the frame (at most a thousand frames apart, so that a
         * large frame number does not make the run long). */
        if (e->frame != frame) {
            ear_input_begin_frame(&input, (double)(frame % 100000) / 60.0);
            ear_input_end_step(&input);
            frame = e->frame;
        }
        switch (e->action) {
        case EAR_SCRIPT_DOWN:
        case EAR_SCRIPT_UP:
        case EAR_SCRIPT_PRESS:
            if (e->key == EAR_KEY_UNKNOWN || e->key >= EAR_KEY_COUNT) abort();
            if (e->action != EAR_SCRIPT_UP) ear_input_key_down(&input, e->key);
            if (e->action != EAR_SCRIPT_DOWN) ear_input_key_up(&input, e->key);
            break;
        case EAR_SCRIPT_TEXT:
            if (!e->text || strpbrk(e->text, "\n")) abort();
            ear_input_text(&input, e->text);
            break;
        case EAR_SCRIPT_FOCUS_LOST: ear_input_focus_lost(&input); break;
        case EAR_SCRIPT_FOCUS_GAINED:
        case EAR_SCRIPT_QUIT: break;
        case EAR_SCRIPT_PAD_CONNECT: ear_input_pad_added(&input, 0, true); break;
        case EAR_SCRIPT_PAD_DISCONNECT: ear_input_pad_removed(&input, 0); break;
        case EAR_SCRIPT_PAD_DOWN:
        case EAR_SCRIPT_PAD_UP:
        case EAR_SCRIPT_PAD_PRESS:
            if (e->control < 0 || e->control >= (int)EAR_PAD_BUTTON_COUNT) abort();
            if (e->action != EAR_SCRIPT_PAD_UP)
                ear_input_pad_button(&input, 0, (ear_pad_button)e->control, true);
            if (e->action != EAR_SCRIPT_PAD_DOWN)
                ear_input_pad_button(&input, 0, (ear_pad_button)e->control, false);
            break;
        case EAR_SCRIPT_PAD_AXIS:
            if (e->control < 0 || e->control >= (int)EAR_PAD_AXIS_COUNT) abort();
            if (!(e->value >= -1.0f && e->value <= 1.0f)) abort();
            ear_input_pad_axis(&input, 0, (ear_pad_axis)e->control,
                               (int16_t)(e->value * 32767.0f));
            break;
        default: abort();
        }
    }
    ear_input_begin_frame(&input, 0);
    ear_input_end_step(&input);
    ear_script_free(&script);
    return 0;
}
