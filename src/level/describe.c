/* SPDX-License-Identifier: Zlib */
/*
 * Words for positions, directions and speeds. The text logic lives here once; every word
 * comes from the translation tables (keys position.*, direction.*, speed.*; English and
 * German built into src/lang/builtin_texts.c), so a game's .lang file can reword any of
 * them.
 *
 * A count with its unit takes the key "<key>.one" when the rounded number is 1 and "<key>"
 * otherwise, the plural rule English and German share; a language with other rules words
 * its texts around the number ("distance: {n} m"). The parts after the first carry no unit
 * ("3 meters ahead, 2 to the left") and so have one form.
 *
 * Geometry: yaw is degrees clockwise seen from above with 0 = north = -Z, so facing f looks
 * along (sin f, 0, -cos f) and has (cos f, 0, sin f) on its right. sin, cos and atan2 are
 * the portable ones (earshot/portable_math.h), so a position is worded the same natively
 * and in the web build, even on a boundary between two words.
 */
#include "level_internal.h"

#include "portable_math.h"

#include <stdio.h>
#include <string.h>

#define PI   3.14159265358979323846
#define PART 512

/* The lang to use: the caller's, or a fresh one with only the built-in texts. */
static ear_lang *use_lang(ear_lang *lang, ear_lang **owned) {
    *owned = NULL;
    if (lang) return lang;
    if (ear_lang_create(NULL, owned) != EAR_OK) return NULL;
    return *owned;
}

/* Formats key (with ".one" for 1) with {n} = count into out (PART bytes). */
static ear_result counted(ear_lang *lang, const char *key, long long count, bool plural,
                          char *out) {
    char name[64], number[32];
    snprintf(name, sizeof name, plural && count == 1 ? "%s.one" : "%s", key);
    snprintf(number, sizeof number, "%lld", count);
    ear_lang_arg arg = {"n", number};
    return ear_lang_format(lang, name, &arg, 1, out, PART, NULL);
}

/* Copies a finished sentence out with ear_lang_format's contract. */
static ear_result deliver(const char *text, char *out, size_t out_size, size_t *out_needed) {
    size_t n = strlen(text);
    if (out_needed) *out_needed = n;
    if (!out || n + 1 > out_size) return EAR_E_INVALID_ARG;
    memcpy(out, text, n + 1);
    return EAR_OK;
}

/* |x| rounded to a whole number; beyond 10^12 (no game's distance) it stays there, so the
 * conversion to long long is always defined (long is 32 bits on Windows: 10^12 did not fit,
 * and a far point said 2147483647 meters). */
static long long rounded(double x) {
    double r = floor(fabs(x) + 0.5);
    return (long long)(r < 1e12 ? r : 1e12);
}

ear_result ear_describe_position(ear_lang *lang, ear_vec3 from, float facing_deg, ear_vec3 to,
                                 char *out, size_t out_size, size_t *out_needed) {
    if (!ear_vec3_is_finite(from) || !ear_vec3_is_finite(to) || !isfinite(facing_deg))
        return EAR_E_INVALID_ARG;
    ear_lang *owned;
    ear_lang *l = use_lang(lang, &owned);
    if (!l) return EAR_E_OUT_OF_MEMORY;
    double yaw = (double)facing_deg * PI / 180.0;
    double dx = (double)to.x - from.x, dy = (double)to.y - from.y, dz = (double)to.z - from.z;
    double s, c;
    ear__sincos(yaw, &s, &c);
    double ahead = dx * s - dz * c;
    double right = dx * c + dz * s;
    struct {
        long long n;
        const char *alone, *after;
    } parts[3] = {
        {rounded(ahead), ahead >= 0 ? "position.ahead" : "position.behind",
         ahead >= 0 ? "position.then_ahead" : "position.then_behind"},
        {rounded(right), right >= 0 ? "position.right" : "position.left",
         right >= 0 ? "position.then_right" : "position.then_left"},
        {rounded(dy), dy >= 0 ? "position.up" : "position.down",
         dy >= 0 ? "position.then_up" : "position.then_down"},
    };
    char sentence[PART], part[PART], joined[PART];
    sentence[0] = '\0';
    ear_result r = EAR_OK;
    for (int i = 0; i < 3 && r == EAR_OK; i++) {
        if (parts[i].n == 0) continue;
        if (sentence[0] == '\0') {
            r = counted(l, parts[i].alone, parts[i].n, true, sentence);
            continue;
        }
        r = counted(l, parts[i].after, parts[i].n, false, part);
        if (r != EAR_OK) break;
        ear_lang_arg args[2] = {{"first", sentence}, {"second", part}};
        r = ear_lang_format(l, "position.join", args, 2, joined, sizeof joined, NULL);
        if (r == EAR_OK) memcpy(sentence, joined, sizeof sentence);
    }
    if (r == EAR_OK && sentence[0] == '\0')
        r = ear_lang_format(l, "position.here", NULL, 0, sentence, sizeof sentence, NULL);
    if (r == EAR_OK) r = deliver(sentence, out, out_size, out_needed);
    ear_lang_destroy(owned);
    return r;
}

ear_result ear_describe_direction(ear_lang *lang, ear_vec3 from, float facing_deg, ear_vec3 to,
                                  ear_direction_style style, char *out, size_t out_size,
                                  size_t *out_needed) {
    if (!ear_vec3_is_finite(from) || !ear_vec3_is_finite(to) || !isfinite(facing_deg))
        return EAR_E_INVALID_ARG;
    if (style != EAR_DIRECTION_CLOCK && style != EAR_DIRECTION_COMPASS)
        return EAR_E_INVALID_ARG;
    ear_lang *owned;
    ear_lang *l = use_lang(lang, &owned);
    if (!l) return EAR_E_OUT_OF_MEMORY;
    double dx = (double)to.x - from.x, dz = (double)to.z - from.z;
    /* Bearing clockwise from north; straight above or below counts as north. */
    double bearing = dx == 0 && dz == 0 ? 0 : ear__atan2(dx, -dz) * 180.0 / PI;
    char sentence[PART];
    ear_result r;
    if (style == EAR_DIRECTION_CLOCK) {
        double relative = fmod(bearing - (double)facing_deg, 360.0);
        if (dx == 0 && dz == 0) relative = 0;
        if (relative < 0) relative += 360.0;
        long hour = (long)floor(relative / 30.0 + 0.5) % 12;
        if (hour == 0) hour = 12;
        char number[16];
        snprintf(number, sizeof number, "%ld", hour);
        ear_lang_arg arg = {"hour", number};
        r = ear_lang_format(l, "direction.clock", &arg, 1, sentence, sizeof sentence, NULL);
    } else {
        static const char *const points[8] = {
            "direction.north", "direction.northeast", "direction.east", "direction.southeast",
            "direction.south", "direction.southwest", "direction.west", "direction.northwest"};
        double b = fmod(bearing, 360.0);
        if (b < 0) b += 360.0;
        long point = (long)floor(b / 45.0 + 0.5) % 8;
        r = ear_lang_format(l, points[point], NULL, 0, sentence, sizeof sentence, NULL);
    }
    if (r == EAR_OK) r = deliver(sentence, out, out_size, out_needed);
    ear_lang_destroy(owned);
    return r;
}

ear_result ear_describe_speed(ear_lang *lang, float speed_mps, ear_speed_unit unit, char *out,
                              size_t out_size, size_t *out_needed) {
    if (!isfinite(speed_mps)) return EAR_E_INVALID_ARG;
    static const char *const keys[3] = {"speed.kmh", "speed.mph", "speed.mps"};
    static const double factor[3] = {3.6, 3600.0 / 1609.344, 1.0};
    if ((int)unit < 0 || (int)unit > 2) return EAR_E_INVALID_ARG;
    ear_lang *owned;
    ear_lang *l = use_lang(lang, &owned);
    if (!l) return EAR_E_OUT_OF_MEMORY;
    long long n = rounded((double)speed_mps * factor[unit]);
    char sentence[PART], part[PART];
    ear_result r = counted(l, keys[unit], n, true, part);
    if (r == EAR_OK && speed_mps < 0 && n > 0) {
        ear_lang_arg arg = {"speed", part};
        r = ear_lang_format(l, "speed.reversing", &arg, 1, sentence, sizeof sentence, NULL);
    } else if (r == EAR_OK) {
        memcpy(sentence, part, sizeof sentence);
    }
    if (r == EAR_OK) r = deliver(sentence, out, out_size, out_needed);
    ear_lang_destroy(owned);
    return r;
}
