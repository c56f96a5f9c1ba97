/* SPDX-License-Identifier: Zlib */
/*
 * The web build's key probe (tests/web/web_test.mjs): a game that says, each frame, every
 * key pressed ("pressed Z"), every key released ("released Z") and the text typed
 * ("typed é"), queued, so the test reads which key the web backend made of each browser
 * event. Escape quits.
 */
#include "earshot/engine.h"

#include <stdio.h>

static void update(ear_ctx *ctx, void *user) {
    (void)user;
    char text[96];
    for (int k = 1; k < EAR_KEY_COUNT; k++) {
        if (ear_key_pressed(ctx, (ear_key)k)) {
            snprintf(text, sizeof text, "pressed %s", ear_key_name((ear_key)k));
            ear_say_queued(ctx, text);
        }
        if (ear_key_released(ctx, (ear_key)k)) {
            snprintf(text, sizeof text, "released %s", ear_key_name((ear_key)k));
            ear_say_queued(ctx, text);
        }
    }
    const char *typed = ear_text_typed(ctx);
    if (typed && typed[0]) {
        snprintf(text, sizeof text, "typed %s", typed);
        ear_say_queued(ctx, text);
    }
    if (ear_key_pressed(ctx, EAR_KEY_ESCAPE)) ear_quit(ctx);
}

int main(void) {
    ear_engine_config cfg = ear_engine_config_default("Key probe");
    cfg.mute = true;
    ear_scene scene = {.name = "key_probe", .update = update};
    return ear_run(&cfg, &scene);
}
