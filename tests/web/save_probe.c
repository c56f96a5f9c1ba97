/* SPDX-License-Identifier: Zlib */
/*
 * The web build's save probe (tests/web/web_test.mjs): a game whose start reads the
 * count kept in its save ("probe.save", a relative path: the page's browser storage),
 * adds one, says "Count N." and quits, which writes the save. Loading the page again
 * must say the next number: the save outlived the page.
 */
#include "earshot/engine.h"

#include <stdio.h>

static void start(ear_ctx *ctx, void *user) {
    (void)user;
    ear_storage *st = ear_ctx_storage(ctx);
    int64_t count = ear_storage_get_int(st, "probe.count", 0) + 1;
    ear_storage_set_int(st, "probe.count", count);
    char text[64];
    snprintf(text, sizeof text, "Count %lld.", (long long)count);
    ear_say(ctx, text);
    ear_quit(ctx);
}

int main(void) {
    ear_engine_config cfg = ear_engine_config_default("Save probe");
    cfg.save_path = "probe.save";
    cfg.mute = true;
    ear_scene scene = {.name = "save_probe", .start = start};
    return ear_run(&cfg, &scene);
}
