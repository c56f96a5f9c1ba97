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
    /* The load counts in the session's budget: what the file declares (libmysofa's
     * arrays, read from its dataspaces before libmysofa reads it, and the set's own) must
     * fit the room left, or it is E_TOO_BIG at once (a 1.17 MB file declaring 32,000
     * directions took 276 MB); the set's arrays are allocated through the budget's hrtf
     * part, the stage's bank of it through the stage part. */
    hc.allocator = ear__cmd_alloc(c, EAR__PART_HRTF);
    ear_hrtf_set *set = NULL;
    ear_hrtf_error e;
    size_t before = c->mem_used;
    hc.max_load_bytes = c->config.max_memory_bytes - c->mem_used;
    ear_result r = ear_hrtf_load(path, &hc, &set, &e);
    if (r == EAR_E_OUT_OF_MEMORY && e.needed_bytes && ear__cmd_room(c, e.needed_bytes)) {
        /* Trimming idle cached sounds made room: once more. */
        before = c->mem_used;
        hc.max_load_bytes = c->config.max_memory_bytes - c->mem_used;
        r = ear_hrtf_load(path, &hc, &set, &e);
    }
    if (r == EAR_E_OUT_OF_MEMORY && e.needed_bytes) {
        *err = ear_command_error("E_TOO_BIG", "params.path",
                                 "params.path: %s (%.1f MiB of the session's %.1f MiB memory "
                                 "budget in use; nothing was changed; the budget is set with "
                                 "--memory-mb)",
                                 e.message, (double)c->mem_used / (1024.0 * 1024.0),
                                 (double)c->config.max_memory_bytes / (1024.0 * 1024.0));
        if (*err) {
            json_object_set_new(*err, "needed_bytes", json_integer((json_int_t)e.needed_bytes));
            json_object_set_new(*err, "used_bytes", json_integer((json_int_t)c->mem_used));
            json_object_set_new(*err, "budget_bytes",
                                json_integer((json_int_t)c->config.max_memory_bytes));
        }
        return NULL;
    }
    if (r == EAR_E_OUT_OF_MEMORY && c->mem_refused) {
        *err = ear__cmd_too_big(c, "params.path", c->mem_refused);
        return NULL;
    }
    if (r == EAR_OK) {
        /* libmysofa's arrays lived beside what was in use while it read them. */
        if (set->load_bytes > c->hrtf_load_peak) c->hrtf_load_peak = set->load_bytes;
        if (before + set->load_bytes > c->mem_peak) c->mem_peak = before + set->load_bytes;
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
