/* SPDX-License-Identifier: Zlib */
/*
 * audio.json and .blend.json in the web build: jansson has no web build here, so these
 * files cannot be parsed in the browser yet. Both parsers say so, naming the file; the
 * asset cache then goes on without the setup (as natively for a file that will not
 * parse), and blends and pools by name are not found. This file replaces setup_parse.c
 * there (docs/web.md).
 */
#include "assets_internal.h"

#include <stdio.h>
#include <stdlib.h>

#define NO_JSON "the web build cannot read JSON setup files (jansson is not built for it)"

static ear_result refuse(const char *label, ear_io_error *err) {
    if (err) snprintf(err->message, sizeof err->message, "%.300s: %s", label, NO_JSON);
    return EAR_E_UNSUPPORTED;
}

ear_result ear_audio_setup_parse(const char *text, size_t length, const char *label,
                                 ear_audio_setup **out_setup, ear_io_error *err) {
    (void)length;
    if (!text || !out_setup) return EAR_E_INVALID_ARG;
    return refuse(label ? label : "audio.json", err);
}

ear_result ear_blend_parse(const char *text, size_t length, const char *label,
                           ear_blend_source *out, ear_io_error *err) {
    (void)length;
    if (!text || !out) return EAR_E_INVALID_ARG;
    return refuse(label ? label : "blend.json", err);
}
