/* SPDX-License-Identifier: Zlib */
/*
 * audio.hrtf.load: an HRTF set (a SOFA file, read by the audio/hrtf loader with libmysofa)
 * for the session's stage, and the stage-wide spatializer. The file is confined to the
 * session's allowed folders like every other path; a file that is missing or not a SOFA
 * HRIR set is an error that changes nothing (the stage keeps what it had: panning, or the
 * last set). audio.status reports the set (ear__cmd_hrtf_status).
 */
#include "commands_internal.h"
#include "earshot/hrtf.h"

#include <string.h>

/* "pan" | "hrtf" | "default" (absent: fallback). */
ear_spatializer ear__spatializer(const json_t *params, const char *key,
                                 ear_spatializer fallback) {
    const char *s = ear__str(params, key);
    if (!s) return fallback;
    if (strcmp(s, "pan") == 0) return EAR_SPATIALIZER_PAN;
    if (strcmp(s, "hrtf") == 0) return EAR_SPATIALIZER_HRTF;
    return EAR_SPATIALIZER_DEFAULT;
}

static const char *spatializer_name(ear_spatializer s) {
    return s == EAR_SPATIALIZER_HRTF ? "hrtf" : (s == EAR_SPATIALIZER_PAN ? "pan" : "default");
}

json_t *ear__cmd_hrtf_status(const ear_commands *c) {
    ear_stage_hrtf_info info;
    if (ear_stage_get_hrtf(c->stage, &info) != EAR_OK) return json_null();
    if (!info.loaded)
        return json_pack("{s:b, s:s}", "loaded", false, "spatializer",
                         spatializer_name(info.spatializer));
    return json_pack("{s:b, s:s, s:s, s:i, s:i, s:i, s:i, s:i, s:i}", "loaded", true,
                     "spatializer", spatializer_name(info.spatializer), "source", info.source,
                     "directions", (int)info.count, "taps", (int)info.taps, "filter_taps",
                     (int)info.filter_taps, "sample_rate", (int)info.sample_rate, "fft_length",
                     (int)info.fft_length, "fft_parts", (int)info.fft_parts);
}

json_t *ear__cmd_hrtf_load(ear_commands *c, json_t *params, json_t **err) {
    char path[4096];
    if ((*err = ear__cmd_path(c, ear__str(params, "path"), false, "params.path", path,
                              sizeof path)))
        return NULL;
    ear_hrtf_config hc = ear_hrtf_config_default();
    hc.sample_rate = EAR__RATE;
    hc.taps = (uint32_t)ear__num(params, "taps", hc.taps);
    /* The set's arrays count in the session's budget while it is loaded and copied: one
     * that does not fit is E_TOO_BIG, not the machine's memory. */
    hc.allocator = &c->alloc;
    ear_hrtf_set *set = NULL;
    ear_hrtf_error e;
    ear_result r = ear_hrtf_load(path, &hc, &set, &e);
    if (r == EAR_E_OUT_OF_MEMORY && c->mem_refused) {
        *err = ear__cmd_too_big(c, "params.path", c->mem_refused);
        return NULL;
    }
    if (r != EAR_OK) {
        const char *code = r == EAR_E_NOT_FOUND       ? "E_NOT_FOUND"
                           : r == EAR_E_IO            ? "E_IO"
                           : r == EAR_E_OUT_OF_MEMORY ? "E_OUT_OF_MEMORY"
                                                      : "E_BAD_PARAM";
        *err = ear_command_error(code, "params.path", "params.path: %s", e.message);
        if (*err && r == EAR_E_NOT_FOUND) json_object_set_new(*err, "name", json_string(path));
        if (*err && r == EAR_E_FORMAT)
            json_object_set_new(*err, "expected", json_string("a SOFA HRIR file (AES69)"));
        return NULL;
    }
    ear_stage_hrtf view = ear_hrtf_stage_view(set);
    r = ear_stage_set_hrtf(c->stage, &view);
    ear_hrtf_free(set);
    if (r != EAR_OK) {
        *err = r == EAR_E_OUT_OF_MEMORY ? ear__cmd_alloc_error(c, "params.path", 0)
                                        : ear__cmd_result_error(r, "params.path", path);
        return NULL;
    }
    ear_stage_set_spatializer(c->stage,
                              ear__spatializer(params, "spatializer", EAR_SPATIALIZER_HRTF));
    return ear__cmd_hrtf_status(c);
}
