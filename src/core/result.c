/* SPDX-License-Identifier: Zlib */
/*
 * Result codes and their messages. Every ear_result value has a sentence and a
 * stable name; anything else maps to "unknown result" so a caller never gets NULL.
 */
#include "earshot/core.h"

#include <math.h>

const char *ear_result_string(ear_result result) {
    switch (result) {
    case EAR_OK: return "success";
    case EAR_E_INVALID_ARG: return "invalid argument";
    case EAR_E_OUT_OF_MEMORY: return "out of memory";
    case EAR_E_STALE_ID: return "the voice has ended (stale id)";
    case EAR_E_NOT_FOUND: return "not found";
    case EAR_E_TOO_MANY_VOICES: return "too many voices";
    case EAR_E_UNSUPPORTED: return "not supported";
    case EAR_E_IO: return "input/output error";
    case EAR_E_FORMAT: return "bad format";
    case EAR_E_NO_DEVICE: return "no audio device";
    case EAR_E_STATE: return "not allowed in the current state";
    case EAR_E_CRYPTO: return "encryption or authentication failed";
    }
    return "unknown result";
}

const char *ear_result_name(ear_result result) {
    switch (result) {
    case EAR_OK: return "EAR_OK";
    case EAR_E_INVALID_ARG: return "EAR_E_INVALID_ARG";
    case EAR_E_OUT_OF_MEMORY: return "EAR_E_OUT_OF_MEMORY";
    case EAR_E_STALE_ID: return "EAR_E_STALE_ID";
    case EAR_E_NOT_FOUND: return "EAR_E_NOT_FOUND";
    case EAR_E_TOO_MANY_VOICES: return "EAR_E_TOO_MANY_VOICES";
    case EAR_E_UNSUPPORTED: return "EAR_E_UNSUPPORTED";
    case EAR_E_IO: return "EAR_E_IO";
    case EAR_E_FORMAT: return "EAR_E_FORMAT";
    case EAR_E_NO_DEVICE: return "EAR_E_NO_DEVICE";
    case EAR_E_STATE: return "EAR_E_STATE";
    case EAR_E_CRYPTO: return "EAR_E_CRYPTO";
    }
    return "EAR_E_UNKNOWN";
}

float ear_vec3_length(ear_vec3 a) {
    return sqrtf(ear_vec3_dot(a, a));
}

ear_vec3 ear_vec3_normalize_or(ear_vec3 a, ear_vec3 fallback) {
    if (!ear_vec3_is_finite(a)) return fallback;
    float len = ear_vec3_length(a);
    if (!(len > 1e-9f) || !isfinite(len)) return fallback;
    return ear_vec3_scale(a, 1.0f / len);
}
