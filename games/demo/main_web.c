/* SPDX-License-Identifier: Zlib */
/*
 * earshot-demo in a web browser (web/CMakeLists.txt, docs/web.md): the page's Start
 * button runs this main. The same game (session.c and the rest) as the native process (main.c),
 * without what belongs to a native process: no flags, no headless loop, no bot, no WAV or plot.
 * Its sounds are made in memory when the game starts (the web build reads no sound
 * files); its save is plain key = value in the browser's storage (the page's working
 * folder, kept in IndexedDB), since the web build has no libsodium.
 */
#include "demo.h"

#include <stdio.h>

/* Relative: it lives in the page's working folder, which outlives the page. */
#define WEB_SAVE "three-errands.save"

int main(void) {
    demo_options o = {0};
    o.save_path = WEB_SAVE;
    o.data_dir = "/demo"; /* the levels and texts, packed in (web/CMakeLists.txt) */
    o.sounds_in_memory = true;
    o.plain_save = true;
    o.screen_reader_speech = true; /* the live regions: the settings offer no speech sliders */
    demo *d = demo_create(&o);
    ear_ui *ui = NULL;
    if (!d || ear_ui_create(NULL, &ui) != EAR_OK) {
        fprintf(stderr, "earshot-demo: the game could not start (out of memory)\n");
        demo_destroy(d);
        return 1;
    }
    ear_engine_config cfg = ear_engine_config_default("Three Errands");
    demo_configure(d, &cfg);
    ear_ui_attach(ui, &cfg);
    /* In the browser this does not return while the game runs: main's locals (cfg, the
     * scene) stay valid, and the page says when the game has ended. */
    ear_scene scene = demo_scene(d);
    int code = ear_run(&cfg, &scene);
    demo_destroy(d);
    ear_ui_destroy(ui);
    return code;
}
