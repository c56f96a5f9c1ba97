/* SPDX-License-Identifier: Zlib */
/*
 * Engine settings and the ways to run a game: ear_engine_run builds a runner and hands
 * it to the chosen backend; ear_run turns the result into an exit code; ear_run_fn wraps
 * a single function in a scene.
 */
#include "runtime_internal.h"

ear_result ear__run_headless(ear_runner *r, const ear_engine_config *cfg);
#ifdef __EMSCRIPTEN__
ear_result ear__run_web(ear_runner *r, const ear_engine_config *cfg);
#else
ear_result ear__run_sdl(ear_runner *r, const ear_engine_config *cfg, ear_stage *stage);
#endif

ear_engine_config ear_engine_config_default(const char *title) {
    ear_engine_config c = {0};
    c.title = title ? title : "Earshot";
    c.step_hz = 60;
    c.frame_hz = 60;
    c.max_steps = 8;
    c.max_frame_s = 0.25;
    c.pause_on_focus_loss = true;
    c.backend = EAR_BACKEND_SDL2;
    c.speech = ear_speech_config_default();
    /* The stage plays on the sound card unless the game brings its own audio hooks. */
    c.audio_attach = ear__device_attach;
    c.audio_update = ear__device_update;
    c.audio_detach = ear__device_detach;
    return c;
}

ear_result ear_engine_run(const ear_engine_config *config, const ear_scene *first_scene) {
    if (!config || !first_scene) return EAR_E_INVALID_ARG;
    ear_runner *r;
    ear_result res = ear_runner_create(config, first_scene, &r);
    if (res != EAR_OK) {
        ear_log(EAR_LOG_ERROR, "runtime", "the game could not start: %s",
                ear_result_string(res));
        return res;
    }
    if (config->backend == EAR_BACKEND_HEADLESS || config->replay_path) {
        res = ear__run_headless(r, config);
    } else {
#ifdef __EMSCRIPTEN__
        /* The browser's frames own the runner from here: ear__run_web returns only when
         * it could not start (r is destroyed below); otherwise it unwinds main's stack
         * into the browser's loop and destroys r itself when the game quits. */
        res = ear__run_web(r, config);
#else
        if (config->backend == EAR_BACKEND_WEB) {
            ear_log(EAR_LOG_ERROR, "runtime",
                    "the web backend exists only in the web build (make web)");
            res = EAR_E_UNSUPPORTED;
        } else {
            res = ear__run_sdl(r, config, ear_ctx_stage(ear_runner_ctx(r)));
        }
#endif
    }
    /* A save or a recording that could not be written is the run's failure too. */
    ear_result finished = ear_runner_finish(r);
    if (res == EAR_OK) res = finished;
    ear_runner_destroy(r);
    return res;
}

int ear_run(const ear_engine_config *config, const ear_scene *first_scene) {
    ear_result res = ear_engine_run(config, first_scene);
    if (res != EAR_OK) {
        ear_log(EAR_LOG_ERROR, "runtime", "the game ended with an error: %s",
                ear_result_string(res));
        return 1;
    }
    return 0;
}

static void fn_update(ear_ctx *ctx, void *user) {
    ear_update_fn fn;
    /* A function pointer travels through the scene's void * by way of a holder. */
    fn = *(ear_update_fn *)user;
    fn(ctx, NULL);
}

int ear_run_fn(const char *title, ear_update_fn fn) {
    if (!fn) return 1;
    ear_engine_config cfg = ear_engine_config_default(title);
    ear_scene scene = {0};
    scene.name = title;
    scene.update = fn_update;
    scene.user = &fn;
    return ear_run(&cfg, &scene);
}
