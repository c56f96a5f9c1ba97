/* SPDX-License-Identifier: Zlib */
/*
 * audio.json and .blend.json into mixer.h's structs (jansson). Pure parsing: no file, no
 * stage, no clip (bus names come from the mixer's ear_bus_from_name); sound names are kept
 * as text for setup_load.c to resolve.
 *
 * Every object's keys are checked against the keys it may have, so a typo is an error
 * rather than a silently ignored setting. An error names the file and the JSON path of
 * the value at fault ("assets/audio.json: blends[0].layers[1].gain[0].points: expected an
 * array of [x, y] pairs"); parsing stops at the first.
 */
#include "assets_internal.h"

#include "earshot/synth.h"

#include "json_kind.h"

#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct parser {
    const char *label;
    ear_io_error *err;
} parser;

typedef char json_path[256];

static ear_result fail(parser *p, const char *path, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static ear_result fail(parser *p, const char *path, const char *format, ...) {
    char reason[400];
    va_list args;
    va_start(args, format);
    vsnprintf(reason, sizeof reason, format, args);
    va_end(args);
    char text[EAR_ERROR_TEXT_MAX];
    if (path && *path)
        snprintf(text, sizeof text, "%.200s: %.120s: %.180s", p->label, path, reason);
    else
        snprintf(text, sizeof text, "%.200s: %.300s", p->label, reason);
    if (p->err)
        memcpy(p->err->message, text, sizeof text);
    else
        ear_log(EAR_LOG_ERROR, "assets", "%s", text);
    return EAR_E_FORMAT;
}

static void key_path(json_path out, const char *base, const char *key) {
    if (base && *base)
        snprintf(out, sizeof(json_path), "%.150s.%.100s", base, key);
    else
        snprintf(out, sizeof(json_path), "%.100s", key);
}

static void index_path(json_path out, const char *base, size_t i) {
    snprintf(out, sizeof(json_path), "%.200s[%zu]", base, i);
}

/* Fails on the first key of obj that is not in `allowed` (a NULL-terminated list). */
static ear_result check_keys(parser *p, json_t *obj, const char *path,
                             const char *const *allowed) {
    const char *key;
    json_t *value;
    json_object_foreach(obj, key, value) {
        bool ok = false;
        for (const char *const *k = allowed; *k; k++)
            if (strcmp(*k, key) == 0) ok = true;
        if (!ok) {
            char expected[200] = "";
            for (const char *const *k = allowed; *k; k++) {
                size_t used = strlen(expected);
                snprintf(expected + used, sizeof expected - used, "%s%s",
                         k == allowed ? "" : ", ", *k);
            }
            json_path at;
            key_path(at, path, key);
            return fail(p, at, "unknown key (expected one of: %s)", expected);
        }
    }
    return EAR_OK;
}

static ear_result want_object(parser *p, json_t *v, const char *path) {
    return json_is_object(v) ? EAR_OK
                             : fail(p, path, "expected an object, got %s", ear__json_kind(v));
}

/* A number field: absent leaves *out alone (unless required). */
static ear_result get_number(parser *p, json_t *obj, const char *key, const char *path,
                             bool required, double min, double max, float *out) {
    json_t *v = json_object_get(obj, key);
    json_path at;
    key_path(at, path, key);
    if (!v) return required ? fail(p, at, "missing (a number is required)") : EAR_OK;
    if (!json_is_number(v)) return fail(p, at, "expected a number");
    double d = json_number_value(v);
    if (!isfinite(d) || d < min || d > max)
        return fail(p, at, "%g is outside %g..%g", d, min, max);
    *out = (float)d;
    return EAR_OK;
}

static ear_result get_string(parser *p, json_t *obj, const char *key, const char *path,
                             bool required, char *out, size_t cap) {
    json_t *v = json_object_get(obj, key);
    json_path at;
    key_path(at, path, key);
    if (!v) return required ? fail(p, at, "missing (a string is required)") : EAR_OK;
    if (!json_is_string(v)) return fail(p, at, "expected a string");
    const char *s = json_string_value(v);
    if (!*s) return fail(p, at, "must not be empty");
    if (strlen(s) >= cap) return fail(p, at, "too long (at most %zu bytes)", cap - 1);
    memcpy(out, s, strlen(s) + 1);
    return EAR_OK;
}

static ear_result get_bus(parser *p, json_t *obj, const char *key, const char *path,
                          bool required, ear_bus *out) {
    char name[32] = "";
    ear_result r = get_string(p, obj, key, path, required, name, sizeof name);
    if (r != EAR_OK || !name[0]) return r;
    if (ear_bus_from_name(name, out) == EAR_OK) return EAR_OK;
    json_path at;
    key_path(at, path, key);
    return fail(p, at, "no bus named \"%s\" (sfx, master, music, ui, engine, ambience)", name);
}

/* A [min, max] pair of numbers. */
static ear_result get_range(parser *p, json_t *obj, const char *key, const char *path,
                            double lo, double hi, float *out_min, float *out_max) {
    json_t *v = json_object_get(obj, key);
    if (!v) return EAR_OK;
    json_path at;
    key_path(at, path, key);
    if (!json_is_array(v) || json_array_size(v) != 2 || !json_is_number(json_array_get(v, 0)) ||
        !json_is_number(json_array_get(v, 1)))
        return fail(p, at, "expected [min, max]");
    double a = json_number_value(json_array_get(v, 0)),
           b = json_number_value(json_array_get(v, 1));
    if (!(a >= lo && a <= hi && b >= lo && b <= hi))
        return fail(p, at, "values must lie in %g..%g", lo, hi);
    if (a > b) return fail(p, at, "min %g is above max %g", a, b);
    *out_min = (float)a;
    *out_max = (float)b;
    return EAR_OK;
}

/* A setup file names its sounds in a few bytes, and a synth name's seconds field sets what
 * its clip costs: one longer than EAR_AUDIO_SETUP_SYNTH_MAX_S is refused here, naming the
 * file, the place, the sound and the field. A name that does not parse is left to the
 * cache, which says what a synth name is when it is resolved. */
static ear_result check_synth_length(parser *p, const char *path, const char *name) {
    ear_synth sy;
    if (strncmp(name, "synth:", 6) != 0 || ear_synth_parse_name(name, &sy) != EAR_OK)
        return EAR_OK;
    if (sy.seconds <= EAR_AUDIO_SETUP_SYNTH_MAX_S) return EAR_OK;
    return fail(p, path,
                "sound \"%s\": its seconds field asks for %g s, more than the %g s a synth "
                "clip in a setup file may last (EAR_AUDIO_SETUP_SYNTH_MAX_S; a longer sound "
                "belongs in a sound file)",
                name, (double)sy.seconds, (double)EAR_AUDIO_SETUP_SYNTH_MAX_S);
}

static ear_result parse_curve(parser *p, json_t *v, const char *path, const ear_blend_def *def,
                              ear_curve *out) {
    static const char *const keys[] = {"param", "points", "shape", NULL};
    ear_result r;
    if ((r = want_object(p, v, path)) || (r = check_keys(p, v, path, keys))) return r;
    memset(out, 0, sizeof *out);
    if ((r = get_string(p, v, "param", path, true, out->param, sizeof out->param))) return r;
    bool known = false;
    for (uint32_t i = 0; i < def->param_count; i++)
        if (strcmp(def->params[i].name, out->param) == 0) known = true;
    json_path at;
    if (!known) {
        key_path(at, path, "param");
        return fail(p, at, "no parameter named \"%s\" in this blend's params", out->param);
    }
    key_path(at, path, "points");
    json_t *points = json_object_get(v, "points");
    if (!points) return fail(p, at, "missing (an array of [x, y] pairs is required)");
    if (!json_is_array(points) || json_array_size(points) == 0)
        return fail(p, at, "expected an array of [x, y] pairs");
    if (json_array_size(points) > EAR_CURVE_MAX_POINTS)
        return fail(p, at, "%zu points; at most %d", json_array_size(points),
                    EAR_CURVE_MAX_POINTS);
    size_t i;
    json_t *pt;
    json_array_foreach(points, i, pt) {
        if (!json_is_array(pt) || json_array_size(pt) != 2 ||
            !json_is_number(json_array_get(pt, 0)) || !json_is_number(json_array_get(pt, 1)))
            return fail(p, at, "expected an array of [x, y] pairs");
        double x = json_number_value(json_array_get(pt, 0));
        double y = json_number_value(json_array_get(pt, 1));
        json_path pt_at;
        index_path(pt_at, at, i);
        if (!isfinite(x) || !isfinite(y) || fabs(x) > 1e9 || fabs(y) > 1e6)
            return fail(p, pt_at, "not a finite [x, y] pair");
        if (i > 0 && !(x > out->x[i - 1]))
            return fail(p, pt_at, "x must increase along the curve (%g after %g)", x,
                        (double)out->x[i - 1]);
        out->x[i] = (float)x;
        out->y[i] = (float)y;
    }
    out->count = (uint32_t)json_array_size(points);
    char shape[32] = "";
    if ((r = get_string(p, v, "shape", path, false, shape, sizeof shape))) return r;
    if (!shape[0] || strcmp(shape, "linear") == 0)
        out->shape = EAR_CURVE_LINEAR;
    else if (strcmp(shape, "equal_power") == 0)
        out->shape = EAR_CURVE_EQUAL_POWER;
    else {
        key_path(at, path, "shape");
        return fail(p, at, "\"%s\" is not a shape (linear, equal_power)", shape);
    }
    return EAR_OK;
}

static ear_result parse_curves(parser *p, json_t *layer, const char *key, const char *path,
                               const ear_blend_def *def, ear_curve *out, uint32_t *out_count) {
    json_t *v = json_object_get(layer, key);
    *out_count = 0;
    if (!v) return EAR_OK;
    json_path at;
    key_path(at, path, key);
    if (!json_is_array(v)) return fail(p, at, "expected an array of curves");
    if (json_array_size(v) > EAR_BLEND_MAX_CURVES)
        return fail(p, at, "%zu curves; at most %d", json_array_size(v), EAR_BLEND_MAX_CURVES);
    size_t i;
    json_t *c;
    json_array_foreach(v, i, c) {
        json_path c_at;
        index_path(c_at, at, i);
        ear_result r = parse_curve(p, c, c_at, def, &out[i]);
        if (r) return r;
    }
    *out_count = (uint32_t)json_array_size(v);
    return EAR_OK;
}

static ear_result parse_blend_json(parser *p, json_t *v, const char *path,
                                   ear_blend_source *out) {
    static const char *const keys[] = {"name",   "bus", "smoothing_ms", "volume", "params",
                                       "layers", NULL};
    static const char *const param_keys[] = {"name", "min", "max", "default", NULL};
    static const char *const layer_keys[] = {"clip", "gain", "pitch", "loop_crossfade_ms",
                                             NULL};
    ear_result r;
    if ((r = want_object(p, v, path)) || (r = check_keys(p, v, path, keys))) return r;
    memset(out, 0, sizeof *out);
    ear_blend_def *def = &out->def;
    if ((r = get_string(p, v, "name", path, true, def->name, sizeof def->name)) ||
        (r = get_bus(p, v, "bus", path, false, &def->bus)) ||
        (r = get_number(p, v, "smoothing_ms", path, false, 0, 60000, &def->smoothing_ms)) ||
        (r = get_number(p, v, "volume", path, false, 0, 1000, &def->volume)))
        return r;

    json_path at;
    key_path(at, path, "params");
    json_t *params = json_object_get(v, "params");
    if (params) {
        if (!json_is_array(params)) return fail(p, at, "expected an array of parameters");
        if (json_array_size(params) > EAR_BLEND_MAX_PARAMS)
            return fail(p, at, "%zu parameters; at most %d", json_array_size(params),
                        EAR_BLEND_MAX_PARAMS);
        size_t i;
        json_t *pv;
        json_array_foreach(params, i, pv) {
            json_path p_at;
            index_path(p_at, at, i);
            ear_blend_param *bp = &def->params[i];
            if ((r = want_object(p, pv, p_at)) || (r = check_keys(p, pv, p_at, param_keys)) ||
                (r = get_string(p, pv, "name", p_at, true, bp->name, sizeof bp->name)) ||
                (r = get_number(p, pv, "min", p_at, true, -1e9, 1e9, &bp->min)) ||
                (r = get_number(p, pv, "max", p_at, true, -1e9, 1e9, &bp->max)))
                return r;
            if (bp->min > bp->max) {
                json_path m_at;
                key_path(m_at, p_at, "max");
                return fail(p, m_at, "max %g is below min %g", (double)bp->max,
                            (double)bp->min);
            }
            bp->initial = bp->min;
            if ((r = get_number(p, pv, "default", p_at, false, -1e9, 1e9, &bp->initial)))
                return r;
            for (size_t j = 0; j < i; j++)
                if (strcmp(def->params[j].name, bp->name) == 0) {
                    json_path n_at;
                    key_path(n_at, p_at, "name");
                    return fail(p, n_at, "a second parameter named \"%s\"", bp->name);
                }
        }
        def->param_count = (uint32_t)json_array_size(params);
    }

    key_path(at, path, "layers");
    json_t *layers = json_object_get(v, "layers");
    if (!layers) return fail(p, at, "missing (a blend needs at least one layer)");
    if (!json_is_array(layers) || json_array_size(layers) == 0)
        return fail(p, at, "expected an array of one or more layers");
    if (json_array_size(layers) > EAR_BLEND_MAX_LAYERS)
        return fail(p, at, "%zu layers; at most %d", json_array_size(layers),
                    EAR_BLEND_MAX_LAYERS);
    size_t i;
    json_t *lv;
    json_array_foreach(layers, i, lv) {
        json_path l_at;
        index_path(l_at, at, i);
        ear_blend_layer *layer = &def->layers[i];
        float crossfade_ms = 0.0f;
        if ((r = want_object(p, lv, l_at)) || (r = check_keys(p, lv, l_at, layer_keys)) ||
            (r = get_string(p, lv, "clip", l_at, true, out->clip_names[i],
                            sizeof out->clip_names[i])) ||
            (r = check_synth_length(p, l_at, out->clip_names[i])) ||
            (r = get_number(p, lv, "loop_crossfade_ms", l_at, false, 0, 60000,
                            &crossfade_ms)) ||
            (r = parse_curves(p, lv, "gain", l_at, def, layer->gain, &layer->gain_count)) ||
            (r = parse_curves(p, lv, "pitch", l_at, def, layer->pitch, &layer->pitch_count)))
            return r;
        layer->loop_crossfade_s = crossfade_ms / 1000.0f;
        layer->clip = NULL;
    }
    def->layer_count = (uint32_t)json_array_size(layers);
    return EAR_OK;
}

static ear_result parse_pool_json(parser *p, json_t *v, const char *path,
                                  ear_pool_source *out) {
    static const char *const keys[] = {"name",          "clips",           "bus",
                                       "volume",        "pitch_semitones", "no_repeat",
                                       "max_instances", "priority",        NULL};
    ear_result r;
    if ((r = want_object(p, v, path)) || (r = check_keys(p, v, path, keys))) return r;
    memset(out, 0, sizeof *out);
    ear_pool_def *def = &out->def;
    if ((r = get_string(p, v, "name", path, true, def->name, sizeof def->name)) ||
        (r = get_bus(p, v, "bus", path, false, &def->bus)) ||
        (r = get_range(p, v, "volume", path, 0, 1000, &def->volume_min, &def->volume_max)) ||
        (r = get_range(p, v, "pitch_semitones", path, -48, 48, &def->pitch_semitones_min,
                       &def->pitch_semitones_max)))
        return r;
    json_path at;
    key_path(at, path, "clips");
    json_t *clips = json_object_get(v, "clips");
    if (!clips) return fail(p, at, "missing (a pool needs at least one clip)");
    if (!json_is_array(clips) || json_array_size(clips) == 0)
        return fail(p, at, "expected an array of one or more sound names");
    if (json_array_size(clips) > EAR_POOL_MAX_CLIPS)
        return fail(p, at, "%zu clips; at most %d", json_array_size(clips), EAR_POOL_MAX_CLIPS);
    size_t i;
    json_t *cv;
    json_array_foreach(clips, i, cv) {
        json_path c_at;
        index_path(c_at, at, i);
        if (!json_is_string(cv) || !*json_string_value(cv))
            return fail(p, c_at, "expected a sound name");
        if (strlen(json_string_value(cv)) >= EAR_SOUND_NAME_MAX)
            return fail(p, c_at, "too long (at most %d bytes)", EAR_SOUND_NAME_MAX - 1);
        snprintf(out->clip_names[i], EAR_SOUND_NAME_MAX, "%s", json_string_value(cv));
        if ((r = check_synth_length(p, c_at, out->clip_names[i]))) return r;
    }
    def->clip_count = (uint32_t)json_array_size(clips);
    json_t *nr = json_object_get(v, "no_repeat");
    if (nr) {
        key_path(at, path, "no_repeat");
        if (!json_is_boolean(nr)) return fail(p, at, "expected true or false");
        def->no_repeat = json_is_true(nr);
    }
    float max_instances = 0.0f, priority = 0.0f;
    if ((r = get_number(p, v, "max_instances", path, false, 0, 65535, &max_instances)) ||
        (r = get_number(p, v, "priority", path, false, 0, 255, &priority)))
        return r;
    if (max_instances != floorf(max_instances) || priority != floorf(priority)) {
        key_path(at, path,
                 max_instances != floorf(max_instances) ? "max_instances" : "priority");
        return fail(p, at, "expected a whole number");
    }
    def->max_instances = (uint32_t)max_instances;
    def->priority = (uint8_t)priority;
    return EAR_OK;
}

static ear_result parse_duck_json(parser *p, json_t *v, const char *path, ear_duck_rule *out) {
    static const char *const keys[] = {"name",    "trigger",   "target",
                                       "gain_db", "threshold", "attack_s",
                                       "hold_s",  "release_s", NULL};
    ear_result r;
    if ((r = want_object(p, v, path)) || (r = check_keys(p, v, path, keys))) return r;
    memset(out, 0, sizeof *out);
    if ((r = get_string(p, v, "name", path, true, out->name, sizeof out->name)) ||
        (r = get_bus(p, v, "trigger", path, true, &out->trigger)) ||
        (r = get_bus(p, v, "target", path, true, &out->target)) ||
        (r = get_number(p, v, "gain_db", path, false, -120, 0, &out->gain_db)) ||
        (r = get_number(p, v, "threshold", path, false, 0, 1000, &out->threshold)) ||
        (r = get_number(p, v, "attack_s", path, false, 0, 3600, &out->attack_s)) ||
        (r = get_number(p, v, "hold_s", path, false, 0, 3600, &out->hold_s)) ||
        (r = get_number(p, v, "release_s", path, false, 0, 3600, &out->release_s)))
        return r;
    if (out->trigger == out->target) {
        json_path at;
        key_path(at, path, "target");
        return fail(p, at, "a bus cannot duck itself (trigger and target are both \"%s\")",
                    ear_bus_name(out->target));
    }
    return EAR_OK;
}

/* "reverb": {"preset": name, the room's fields over it, "sends": {bus: send}}. */
static ear_result parse_reverb_json(parser *p, json_t *v, ear_audio_setup *s) {
    if (!v) return EAR_OK;
    static const char *const keys[] = {
        "preset",  "rt60_low_s", "rt60_high_s", "crossover_hz", "predelay_ms", "size",
        "density", "damping",    "wet",         "sends",        NULL};
    ear_result r;
    if ((r = want_object(p, v, "reverb")) || (r = check_keys(p, v, "reverb", keys))) return r;
    ear_reverb_params room = ear_reverb_params_default();
    char name[32] = "";
    if ((r = get_string(p, v, "preset", "reverb", false, name, sizeof name))) return r;
    if (name[0]) {
        ear_reverb_preset preset;
        if (ear_reverb_preset_from_name(name, &preset) != EAR_OK)
            return fail(p, "reverb.preset",
                        "no preset named \"%s\" (room, hall, cave, corridor, outdoors)", name);
        ear_reverb_preset_params(preset, &room);
    }
    /* The ranges are ear_reverb_params_check's (mixer.h). */
    if ((r = get_number(p, v, "rt60_low_s", "reverb", false, 0.1, 30, &room.rt60_low_s)) ||
        (r = get_number(p, v, "rt60_high_s", "reverb", false, 0.1, 30, &room.rt60_high_s)) ||
        (r = get_number(p, v, "crossover_hz", "reverb", false, 50, 10000,
                        &room.crossover_hz)) ||
        (r = get_number(p, v, "predelay_ms", "reverb", false, 0, 200, &room.predelay_ms)) ||
        (r = get_number(p, v, "size", "reverb", false, 0.25, 3, &room.size)) ||
        (r = get_number(p, v, "density", "reverb", false, 0, 1, &room.density)) ||
        (r = get_number(p, v, "damping", "reverb", false, 0, 1, &room.damping)) ||
        (r = get_number(p, v, "wet", "reverb", false, 0, 4, &room.wet)))
        return r;
    json_t *sends = json_object_get(v, "sends");
    if (sends) {
        if (!json_is_object(sends))
            return fail(p, "reverb.sends", "expected an object of bus names and sends");
        const char *key;
        json_t *value;
        json_object_foreach(sends, key, value) {
            json_path at;
            key_path(at, "reverb.sends", key);
            ear_bus bus;
            if (ear_bus_from_name(key, &bus) != EAR_OK)
                return fail(p, at,
                            "no bus of that name (sfx, master, music, ui, engine, ambience)");
            if ((r = get_number(p, sends, key, "reverb.sends", true, 0, 1,
                                &s->reverb_send[bus])))
                return r;
            s->has_reverb_send[bus] = true;
        }
    }
    s->reverb = room;
    s->has_reverb = true;
    return EAR_OK;
}

static json_t *load_json(parser *p, const char *text, size_t length) {
    json_error_t jerr;
    /* JSON_DECODE_ANY: a document that is valid JSON but not an object ("42") is told
     * so by the caller's check, not called "not valid JSON". */
    json_t *root = json_loadb(text, length, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &jerr);
    if (!root) {
        char text_at[EAR_ERROR_TEXT_MAX];
        snprintf(text_at, sizeof text_at, "line %d, column %d", jerr.line, jerr.column);
        fail(p, text_at, "not valid JSON: %s", jerr.text);
    }
    return root;
}

/* A name must not be used twice in one list. */
#define CHECK_UNIQUE(items, count, field, list)                                                \
    for (uint32_t i_ = 0; i_ < (count); i_++)                                                  \
        for (uint32_t j_ = 0; j_ < i_; j_++)                                                   \
            if (strcmp((items)[i_] field, (items)[j_] field) == 0) {                           \
                json_path at_;                                                                 \
                snprintf(at_, sizeof at_, "%s[%u].name", list, i_);                            \
                r = fail(&p, at_, "a second entry named \"%s\"", (items)[i_] field);           \
                goto done;                                                                     \
            }

ear_result ear_audio_setup_parse(const char *text, size_t length, const char *label,
                                 ear_audio_setup **out_setup, ear_io_error *err) {
    if (!text || !out_setup) return EAR_E_INVALID_ARG;
    parser p = {label ? label : "audio.json", err};
    json_t *root = load_json(&p, text, length);
    if (!root) return EAR_E_FORMAT;
    static const char *const keys[] = {"buses", "ducks",  "clips", "blends",
                                       "pools", "reverb", NULL};
    ear_audio_setup *s = calloc(1, sizeof *s);
    ear_result r = s ? EAR_OK : EAR_E_OUT_OF_MEMORY;
    if (r) goto done;
    if ((r = want_object(&p, root, "")) || (r = check_keys(&p, root, "", keys))) goto done;

    json_t *buses = json_object_get(root, "buses");
    if (buses) {
        if (!json_is_object(buses)) {
            r = fail(&p, "buses", "expected an object of bus names and volumes");
            goto done;
        }
        const char *key;
        json_t *value;
        json_object_foreach(buses, key, value) {
            json_path at;
            key_path(at, "buses", key);
            ear_bus bus;
            if (ear_bus_from_name(key, &bus) != EAR_OK) {
                r = fail(&p, at,
                         "no bus of that name (sfx, master, music, ui, engine, ambience)");
                goto done;
            }
            if ((r = get_number(&p, buses, key, "buses", true, 0, 1000, &s->bus_volume[bus])))
                goto done;
            s->has_bus_volume[bus] = true;
        }
    }

    if ((r = parse_reverb_json(&p, json_object_get(root, "reverb"), s))) goto done;

    json_t *clips = json_object_get(root, "clips");
    if (clips) {
        if (!json_is_object(clips)) {
            r = fail(&p, "clips", "expected an object of sound names and files");
            goto done;
        }
        s->clips = calloc(json_object_size(clips) + 1, sizeof *s->clips);
        if (!s->clips) {
            r = EAR_E_OUT_OF_MEMORY;
            goto done;
        }
        const char *key;
        json_t *value;
        json_object_foreach(clips, key, value) {
            json_path at;
            key_path(at, "clips", key);
            ear_clip_alias *c = &s->clips[s->clip_count];
            if (strlen(key) >= sizeof c->name || !*key) {
                r = fail(&p, at, "a sound name must be 1..%zu bytes", sizeof c->name - 1);
                goto done;
            }
            snprintf(c->name, sizeof c->name, "%s", key);
            if ((r = get_string(&p, clips, key, "clips", true, c->file, sizeof c->file)))
                goto done;
            s->clip_count++;
        }
    }

    json_t *ducks = json_object_get(root, "ducks");
    if (ducks) {
        if (!json_is_array(ducks)) {
            r = fail(&p, "ducks", "expected an array of ducking rules");
            goto done;
        }
        s->ducks = calloc(json_array_size(ducks) + 1, sizeof *s->ducks);
        if (!s->ducks) {
            r = EAR_E_OUT_OF_MEMORY;
            goto done;
        }
        size_t i;
        json_t *v;
        json_array_foreach(ducks, i, v) {
            json_path at;
            index_path(at, "ducks", i);
            if ((r = parse_duck_json(&p, v, at, &s->ducks[i]))) goto done;
            s->duck_count++;
        }
        CHECK_UNIQUE(s->ducks, s->duck_count, .name, "ducks");
    }

    json_t *blends = json_object_get(root, "blends");
    if (blends) {
        if (!json_is_array(blends)) {
            r = fail(&p, "blends", "expected an array of blends");
            goto done;
        }
        s->blends = calloc(json_array_size(blends) + 1, sizeof *s->blends);
        if (!s->blends) {
            r = EAR_E_OUT_OF_MEMORY;
            goto done;
        }
        size_t i;
        json_t *v;
        json_array_foreach(blends, i, v) {
            json_path at;
            index_path(at, "blends", i);
            if ((r = parse_blend_json(&p, v, at, &s->blends[i]))) goto done;
            s->blend_count++;
        }
        CHECK_UNIQUE(s->blends, s->blend_count, .def.name, "blends");
    }

    json_t *pools = json_object_get(root, "pools");
    if (pools) {
        if (!json_is_array(pools)) {
            r = fail(&p, "pools", "expected an array of pools");
            goto done;
        }
        s->pools = calloc(json_array_size(pools) + 1, sizeof *s->pools);
        if (!s->pools) {
            r = EAR_E_OUT_OF_MEMORY;
            goto done;
        }
        size_t i;
        json_t *v;
        json_array_foreach(pools, i, v) {
            json_path at;
            index_path(at, "pools", i);
            if ((r = parse_pool_json(&p, v, at, &s->pools[i]))) goto done;
            s->pool_count++;
        }
        CHECK_UNIQUE(s->pools, s->pool_count, .def.name, "pools");
    }

done:
    json_decref(root);
    if (r != EAR_OK) {
        ear_audio_setup_destroy(s);
        return r;
    }
    *out_setup = s;
    return EAR_OK;
}

ear_result ear_blend_parse(const char *text, size_t length, const char *label,
                           ear_blend_source *out, ear_io_error *err) {
    if (!text || !out) return EAR_E_INVALID_ARG;
    parser p = {label ? label : "blend.json", err};
    json_t *root = load_json(&p, text, length);
    if (!root) return EAR_E_FORMAT;
    ear_blend_source *tmp = malloc(sizeof *tmp);
    ear_result r = tmp ? parse_blend_json(&p, root, "", tmp) : EAR_E_OUT_OF_MEMORY;
    if (r == EAR_OK) memcpy(out, tmp, sizeof *tmp);
    free(tmp);
    json_decref(root);
    return r;
}
