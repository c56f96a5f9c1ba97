/* SPDX-License-Identifier: Zlib */
/*
 * Synth names: "synth:<waveform>:<hz>[:<seconds>[:<amplitude>]]", the short form a
 * game or a scene file uses to ask for a tone ("synth:square:300:0.15").
 *
 * Numbers are parsed here rather than with strtod, for two reasons: strtod follows
 * the C locale's decimal point (a game that sets a German locale would break
 * "0.15"), and it accepts more than a name should (leading spaces, signs, hex,
 * "inf", "nan"). The grammar is digits with an optional fraction and an optional
 * exponent: 440, 0.5, .5, 5., 2e3, 1.5E-1. The value is exact (correctly rounded)
 * when the significant digits fit in 53 bits and the decimal exponent is within 22;
 * otherwise it is scaled by 10^22 (exact in double) as often as needed and then by the
 * rest, one rounding a step, so within 2 + |exponent| / 22 units in the last place, which
 * no tone will notice. Only IEEE * and / are used (no libm pow), so a name gives the same
 * frequency natively and in the web build.
 */
#include "synth_internal.h"

#include <math.h>
#include <string.h>

#define NAME_PREFIX "synth:"
#define MAX_NAME_HZ 24000.0 /* Nyquist at the default 48 kHz */

static const double exact_powers_of_ten[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                               1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                               1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

static bool is_digit(char c) {
    return c >= '0' && c <= '9';
}

/* value * 10^exponent by exact powers of ten (10^22 at most a step). It stops early at
 * infinity or zero, where more steps change nothing, so a huge exponent costs little. */
static double scale_by_ten(double value, long exponent) {
    while (exponent > 22 && value < INFINITY) {
        value *= exact_powers_of_ten[22];
        exponent -= 22;
    }
    while (exponent < -22 && value > 0.0) {
        value /= exact_powers_of_ten[22];
        exponent += 22;
    }
    if (exponent > 22 || exponent < -22) return value; /* infinity or zero already */
    return exponent >= 0 ? value * exact_powers_of_ten[exponent]
                         : value / exact_powers_of_ten[-exponent];
}

/* Parses all of [s, s + len) as a decimal number; false on any other character. */
static bool parse_number(const char *s, size_t len, double *out) {
    size_t i = 0;
    uint64_t mantissa = 0;
    int significant = 0; /* digits kept in mantissa (at most 19) */
    long exponent = 0;   /* decimal exponent to apply to mantissa */
    size_t digits = 0;
    for (; i < len && is_digit(s[i]); i++, digits++) {
        if (significant < 19) {
            if (mantissa || s[i] != '0') {
                mantissa = mantissa * 10 + (uint64_t)(s[i] - '0');
                significant++;
            }
        } else {
            exponent++; /* an integer digit beyond what we keep */
        }
    }
    if (i < len && s[i] == '.') {
        for (i++; i < len && is_digit(s[i]); i++, digits++) {
            if (significant < 19) {
                if (mantissa || s[i] != '0') {
                    mantissa = mantissa * 10 + (uint64_t)(s[i] - '0');
                    significant++;
                }
                exponent--;
            }
        }
    }
    if (digits == 0) return false;
    if (i < len && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        bool negative = false;
        if (i < len && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
        if (i == len || !is_digit(s[i])) return false;
        long e = 0;
        for (; i < len && is_digit(s[i]); i++)
            if (e < 100000) e = e * 10 + (s[i] - '0');
        exponent += negative ? -e : e;
    }
    if (i != len) return false;

    /* One exact conversion and one rounding when the digits fit in 53 bits and the
     * exponent is within 22 (both operands exact): the correctly rounded value. */
    *out = mantissa == 0 ? 0.0 : scale_by_ten((double)mantissa, exponent);
    return true;
}

/* Parses a number field and checks it lies in (0, max]; false otherwise (also when
 * the value is too small to survive the conversion to float). */
static bool parse_positive(const char *s, size_t len, double max, float *out) {
    double v;
    if (!parse_number(s, len, &v)) return false;
    if (!isfinite(v) || !(v > 0.0) || v > max) return false;
    float f = (float)v;
    if (!(f > 0.0f)) return false;
    *out = f;
    return true;
}

static bool parse_waveform(const char *s, size_t len, ear_waveform *out) {
    static const struct {
        const char *name;
        ear_waveform waveform;
    } names[] = {{"sine", EAR_WAVE_SINE},         {"square", EAR_WAVE_SQUARE},
                 {"triangle", EAR_WAVE_TRIANGLE}, {"saw", EAR_WAVE_SAW},
                 {"noise", EAR_WAVE_NOISE},       {"engine", EAR_WAVE_ENGINE}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (strlen(names[i].name) == len && memcmp(names[i].name, s, len) == 0) {
            *out = names[i].waveform;
            return true;
        }
    }
    return false;
}

ear_result ear_synth_parse_name(const char *name, ear_synth *out) {
    if (!name || !out) return EAR_E_INVALID_ARG;
    const size_t prefix_len = sizeof NAME_PREFIX - 1;
    if (strncmp(name, NAME_PREFIX, prefix_len) != 0) return EAR_E_FORMAT;

    /* Split the rest at ':' into at most four fields. */
    const char *field[4];
    size_t field_len[4];
    size_t fields = 0;
    const char *p = name + prefix_len;
    for (;;) {
        const char *colon = strchr(p, ':');
        size_t len = colon ? (size_t)(colon - p) : strlen(p);
        if (fields == 4 || len == 0) return EAR_E_FORMAT;
        field[fields] = p;
        field_len[fields] = len;
        fields++;
        if (!colon) break;
        p = colon + 1;
    }
    if (fields < 2) return EAR_E_FORMAT;

    ear_synth s = {0};
    if (!parse_waveform(field[0], field_len[0], &s.waveform)) return EAR_E_FORMAT;
    if (!parse_positive(field[1], field_len[1], MAX_NAME_HZ, &s.frequency_hz))
        return EAR_E_FORMAT;
    if (fields > 2 &&
        !parse_positive(field[2], field_len[2], EAR__SYNTH_MAX_SECONDS, &s.seconds))
        return EAR_E_FORMAT;
    if (fields > 3 && !parse_positive(field[3], field_len[3], 1.0, &s.amplitude))
        return EAR_E_FORMAT;
    *out = s;
    return EAR_OK;
}

ear_result ear_synth_clip_from_name(const char *name, const ear_allocator *alloc,
                                    ear_clip **out_clip) {
    if (!out_clip) return EAR_E_INVALID_ARG;
    ear_synth s;
    ear_result r = ear_synth_parse_name(name, &s);
    if (r != EAR_OK) return r;
    return ear_synth_clip(&s, alloc, out_clip);
}
