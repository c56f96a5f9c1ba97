/* SPDX-License-Identifier: Zlib */
/*
 * World documents: a physics world (gravity, step rate, an ASCII level, bodies) as JSON,
 * read by jansson and built through the public physics API.
 *
 * Everything is checked before anything is built: each field's type and range, a name
 * given twice, a vehicle on a body that is not kinematic. The first problem is reported
 * with the JSON path of the field ("bodies[2].mass") and what was wrong, and nothing is
 * left behind. Only then is the world created, the level's walls added (fixed boxes named
 * "wall:<row>:<column>", in row order) and the bodies added in document order, so a
 * document always gives the same ids and the same state.
 *
 * Unknown keys are errors (a typo such as "mas" must not pass as a default), except the
 * names a caller lists in the options: those are tolerated and left to the caller (the
 * audio world reads its per-body "source", "impact" and "listener" objects that way).
 */
#include "level_internal.h"

#include "json_kind.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_COORD 1e6
/* The smallest half extent or radius (m) and mass (kg) a document may give: below them a
 * step's sub-steps or 1 / mass run away (a mass of 1e-40 made every number NaN on the
 * first step). */
#define MIN_SIZE 1e-3
#define MIN_MASS 1e-3

typedef struct doc_body {
    ear_body_desc desc;
    ear_vehicle_config vehicle;
    bool has_vehicle;
    char name[64];
} doc_body;

typedef struct parse {
    const ear_level_doc_options *options;
    ear_level_doc_error *err;
    bool oom; /* the level could not be built for want of memory */
} parse;

ear_level_doc_options ear_level_doc_options_default(void) {
    ear_level_doc_options o;
    memset(&o, 0, sizeof o);
    o.max_bodies = 100000;
    return o;
}

static bool fail(parse *p, const char *where, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static bool fail(parse *p, const char *where, const char *format, ...) {
    if (!p->err) return false;
    char what[300];
    va_list args;
    va_start(args, format);
    vsnprintf(what, sizeof what, format, args);
    va_end(args);
    snprintf(p->err->where, sizeof p->err->where, "%s", where);
    if (where[0])
        snprintf(p->err->message, sizeof p->err->message, "%s: %s", where, what);
    else
        snprintf(p->err->message, sizeof p->err->message, "%s", what);
    return false;
}

static bool listed(const char *const *names, const char *key) {
    for (; names && *names; names++)
        if (strcmp(*names, key) == 0) return true;
    return false;
}

/* Refuses keys of obj that are not in known (NULL-terminated) nor in extra. */
static bool check_keys(parse *p, const json_t *obj, const char *where, const char *const *known,
                       const char *const *extra, const char *list) {
    const char *key;
    const json_t *value;
    json_object_foreach((json_t *)obj, key, value) {
        (void)value;
        if (listed(known, key) || listed(extra, key)) continue;
        char at[160], more[200] = "";
        for (const char *const *e = extra; e && *e; e++) /* the caller's keys are keys too */
            snprintf(more + strlen(more), sizeof more - strlen(more), ", %.40s", *e);
        snprintf(at, sizeof at, "%s%s%.60s", where, where[0] ? "." : "", key);
        return fail(p, at, "unknown key (expected %s%s)", list, more);
    }
    return true;
}

static void path_of(char *out, size_t size, const char *where, const char *key) {
    /* A path longer than out is cut (and ends in "..."): it only names a place in
     * messages. */
    int n = snprintf(out, size, "%s%s%s", where, where[0] ? "." : "", key);
    if (n >= 0 && (size_t)n >= size && size > 4) memcpy(out + size - 4, "...", 4);
}

/* A number at obj[key] within [lo, hi] (open at lo when lo_open); *out keeps its value
 * when the key is absent. */
static bool number(parse *p, const json_t *obj, const char *where, const char *key, double lo,
                   bool lo_open, double hi, float *out) {
    const json_t *v = json_object_get(obj, key);
    if (!v) return true;
    char at[160];
    path_of(at, sizeof at, where, key);
    if (!json_is_number(v)) return fail(p, at, "expected a number");
    double x = json_number_value(v);
    if (!isfinite(x)) return fail(p, at, "expected a finite number");
    if (lo_open ? !(x > lo) : !(x >= lo)) {
        if (lo_open) return fail(p, at, "must be > %g (got %g)", lo, x);
        return fail(p, at, "must be >= %g (got %g)", lo, x);
    }
    if (x > hi) return fail(p, at, "must be <= %g (got %g)", hi, x);
    *out = (float)x;
    return true;
}

static bool boolean(parse *p, const json_t *obj, const char *where, const char *key,
                    bool *out) {
    const json_t *v = json_object_get(obj, key);
    if (!v) return true;
    char at[160];
    path_of(at, sizeof at, where, key);
    if (!json_is_boolean(v)) return fail(p, at, "expected true or false");
    *out = json_is_true(v);
    return true;
}

/* [x, y, z] at obj[key], each finite and within +-limit; each > 0 when positive. */
static bool vec3(parse *p, const json_t *obj, const char *where, const char *key, double limit,
                 bool positive, ear_vec3 *out) {
    const json_t *v = json_object_get(obj, key);
    if (!v) return true;
    char at[160];
    path_of(at, sizeof at, where, key);
    if (!json_is_array(v) || json_array_size(v) != 3)
        return fail(p, at, "expected [x, y, z] (three numbers)");
    float xyz[3];
    for (size_t i = 0; i < 3; i++) {
        const json_t *e = json_array_get(v, i);
        char item[176];
        snprintf(item, sizeof item, "%s[%zu]", at, i);
        if (!json_is_number(e)) return fail(p, item, "expected a number");
        double x = json_number_value(e);
        if (!isfinite(x)) return fail(p, item, "expected a finite number");
        /* A size below a millimetre would take thousands of sub-steps a step. */
        if (positive && !(x >= MIN_SIZE))
            return fail(p, item, "must be >= %g (got %g)", MIN_SIZE, x);
        if (fabs(x) > limit) return fail(p, item, "must be within +-%g (got %g)", limit, x);
        xyz[i] = (float)x;
    }
    *out = ear_vec3_make(xyz[0], xyz[1], xyz[2]);
    return true;
}

static const char *const body_keys[] = {
    "name",    "shape",         "half_extents", "radius",     "position",
    "kind",    "sensor",        "mass",         "bounciness", "friction",
    "damping", "gravity_scale", "max_speed",    "velocity",   "facing",
    "pitch",   "tag",           "vehicle",      NULL};
#define BODY_KEY_LIST                                                                          \
    "name, shape, half_extents, radius, position, kind, sensor, mass, bounciness, friction, "  \
    "damping, gravity_scale, max_speed, velocity, facing, pitch, tag, vehicle"

static const char *const vehicle_keys[] = {"load",
                                           "engine_force",
                                           "brake_force",
                                           "top_speed",
                                           "grip",
                                           "rolling_resistance",
                                           "engine_braking",
                                           "turn_radius",
                                           "max_turn_rate",
                                           "gears",
                                           "idle_rpm",
                                           "max_rpm",
                                           "fuel",
                                           "fuel_capacity",
                                           "consumption",
                                           "engine_on",
                                           NULL};
#define VEHICLE_KEY_LIST                                                                       \
    "load, engine_force, brake_force, top_speed, grip, rolling_resistance, engine_braking, "   \
    "turn_radius, max_turn_rate, gears, idle_rpm, max_rpm, fuel, fuel_capacity, "              \
    "consumption, engine_on"

static bool parse_vehicle(parse *p, const json_t *v, const char *where,
                          ear_vehicle_config *out) {
    if (!json_is_object(v)) return fail(p, where, "expected an object of vehicle parameters");
    if (!check_keys(p, v, where, vehicle_keys, NULL, VEHICLE_KEY_LIST)) return false;
    ear_vehicle_config c = ear_vehicle_config_default();
    float gears = (float)c.gears;
    bool fuel_given = json_object_get(v, "fuel") != NULL;
    if (!number(p, v, where, "load", 0, false, 1e6, &c.load_kg) ||
        !number(p, v, where, "engine_force", 0, true, 1e7, &c.engine_force_n) ||
        !number(p, v, where, "brake_force", 0, true, 1e7, &c.brake_force_n) ||
        !number(p, v, where, "top_speed", 0, true, 1000, &c.top_speed_mps) ||
        !number(p, v, where, "grip", 0, true, 1000, &c.grip_mps2) ||
        !number(p, v, where, "rolling_resistance", 0, false, 1000,
                &c.rolling_resistance_mps2) ||
        !number(p, v, where, "engine_braking", 0, false, 1000, &c.engine_braking_mps2) ||
        !number(p, v, where, "turn_radius", 0, true, 1e4, &c.turn_radius_m) ||
        !number(p, v, where, "max_turn_rate", 0, true, 3600, &c.max_turn_rate_dps) ||
        !number(p, v, where, "gears", 1, false, 20, &gears) ||
        !number(p, v, where, "idle_rpm", 0, true, 1e5, &c.idle_rpm) ||
        !number(p, v, where, "max_rpm", 0, true, 1e5, &c.max_rpm) ||
        !number(p, v, where, "fuel_capacity", 0, true, 1e6, &c.fuel_capacity_l) ||
        !number(p, v, where, "fuel", 0, false, 1e6, &c.fuel_l) ||
        !number(p, v, where, "consumption", 0, false, 1e4, &c.consumption_l_per_100km) ||
        !boolean(p, v, where, "engine_on", &c.engine_on))
        return false;
    char at[160];
    if (gears != floorf(gears)) {
        path_of(at, sizeof at, where, "gears");
        return fail(p, at, "expected a whole number of gears (got %g)", (double)gears);
    }
    c.gears = (uint32_t)gears;
    if (!(c.idle_rpm < c.max_rpm)) {
        path_of(at, sizeof at, where, "idle_rpm");
        return fail(p, at, "must be below max_rpm (%g >= %g)", (double)c.idle_rpm,
                    (double)c.max_rpm);
    }
    if (!fuel_given) c.fuel_l = c.fuel_capacity_l;
    if (c.fuel_l > c.fuel_capacity_l) {
        path_of(at, sizeof at, where, "fuel");
        return fail(p, at, "more than fuel_capacity (%g > %g liters)", (double)c.fuel_l,
                    (double)c.fuel_capacity_l);
    }
    *out = c;
    return true;
}

static bool parse_body(parse *p, const json_t *b, size_t index, doc_body *out) {
    char where[48], at[160];
    snprintf(where, sizeof where, "bodies[%zu]", index);
    if (!json_is_object(b)) return fail(p, where, "expected an object describing a body");
    if (!check_keys(p, b, where, body_keys, p->options->extra_body_keys, BODY_KEY_LIST))
        return false;
    memset(out, 0, sizeof *out);
    ear_body_desc d = ear_body_desc_default();

    const json_t *name = json_object_get(b, "name");
    path_of(at, sizeof at, where, "name");
    if (!name) return fail(p, at, "missing: every body needs a name");
    if (!json_is_string(name)) return fail(p, at, "expected a string");
    size_t n = json_string_length(name);
    if (n == 0 || n > 63) return fail(p, at, "expected 1 to 63 bytes (got %zu)", n);
    if (strlen(json_string_value(name)) != n) return fail(p, at, "contains a NUL character");
    memcpy(out->name, json_string_value(name), n + 1);

    const json_t *kind = json_object_get(b, "kind");
    path_of(at, sizeof at, where, "kind");
    if (!kind) return fail(p, at, "missing (expected \"fixed\", \"kinematic\" or \"dynamic\")");
    const char *k = json_string_value(kind);
    if (k && strcmp(k, "fixed") == 0)
        d.kind = EAR_BODY_FIXED;
    else if (k && strcmp(k, "kinematic") == 0)
        d.kind = EAR_BODY_KINEMATIC;
    else if (k && strcmp(k, "dynamic") == 0)
        d.kind = EAR_BODY_DYNAMIC;
    else
        return fail(p, at, "expected \"fixed\", \"kinematic\" or \"dynamic\"");

    const json_t *shape = json_object_get(b, "shape");
    path_of(at, sizeof at, where, "shape");
    if (!shape) return fail(p, at, "missing (expected \"box\" or \"sphere\")");
    const char *s = json_string_value(shape);
    bool box = s && strcmp(s, "box") == 0, sphere = s && strcmp(s, "sphere") == 0;
    if (!box && !sphere) return fail(p, at, "expected \"box\" or \"sphere\"");
    if (box) {
        d.shape = EAR_SHAPE_BOX;
        path_of(at, sizeof at, where, "half_extents");
        if (!json_object_get(b, "half_extents"))
            return fail(p, at, "missing: a box needs half_extents [x, y, z]");
        if (json_object_get(b, "radius")) {
            path_of(at, sizeof at, where, "radius");
            return fail(p, at, "only a sphere has a radius (this body is a box)");
        }
        if (!vec3(p, b, where, "half_extents", MAX_COORD, true, &d.half_extents_m))
            return false;
    } else {
        d.shape = EAR_SHAPE_SPHERE;
        path_of(at, sizeof at, where, "radius");
        if (!json_object_get(b, "radius"))
            return fail(p, at, "missing: a sphere needs a radius");
        if (json_object_get(b, "half_extents")) {
            path_of(at, sizeof at, where, "half_extents");
            return fail(p, at, "only a box has half_extents (this body is a sphere)");
        }
        if (!number(p, b, where, "radius", MIN_SIZE, false, MAX_COORD, &d.radius_m))
            return false;
    }

    path_of(at, sizeof at, where, "position");
    if (!json_object_get(b, "position")) return fail(p, at, "missing: expected [x, y, z]");
    if (!vec3(p, b, where, "position", MAX_COORD, false, &d.position_m) ||
        !vec3(p, b, where, "velocity", MAX_COORD, false, &d.velocity_mps) ||
        !boolean(p, b, where, "sensor", &d.sensor) ||
        !number(p, b, where, "mass", MIN_MASS, false, 1e9, &d.mass_kg) ||
        !number(p, b, where, "bounciness", 0, false, 1, &d.bounciness) ||
        !number(p, b, where, "friction", 0, false, 1e3, &d.friction) ||
        !number(p, b, where, "damping", 0, false, 1e3, &d.damping_per_s) ||
        !number(p, b, where, "gravity_scale", -1e3, false, 1e3, &d.gravity_scale) ||
        !number(p, b, where, "max_speed", 0, false, 1e6, &d.max_speed_mps) ||
        !number(p, b, where, "facing", -1e6, false, 1e6, &d.facing_deg) ||
        !number(p, b, where, "pitch", -90, false, 90, &d.pitch_deg))
        return false;
    const json_t *t = json_object_get(b, "tag");
    if (t) {
        path_of(at, sizeof at, where, "tag");
        if (!json_is_integer(t) || json_integer_value(t) < 0)
            return fail(p, at, "expected a whole number >= 0");
        d.user_tag = (uint64_t)json_integer_value(t);
    }
    const json_t *v = json_object_get(b, "vehicle");
    if (v) {
        path_of(at, sizeof at, where, "vehicle");
        if (!parse_vehicle(p, v, at, &out->vehicle)) return false;
        if (d.kind != EAR_BODY_KINEMATIC) {
            path_of(at, sizeof at, where, "kind");
            return fail(p, at, "a vehicle's body is \"kinematic\" (got \"%s\")", k);
        }
        if (d.sensor) {
            path_of(at, sizeof at, where, "sensor");
            return fail(p, at, "a vehicle cannot be a sensor");
        }
        out->has_vehicle = true;
    }
    out->desc = d;
    return true;
}

static const char *const level_keys[] = {"map", "cell", "height", "origin", "wall", NULL};

/* Reads the level object and builds the level (its own rows and columns in errors). */
static bool parse_level(parse *p, const json_t *l, ear_level **out) {
    if (!json_is_object(l)) return fail(p, "level", "expected an object {map, cell, height}");
    if (!check_keys(p, l, "level", level_keys, NULL, "map, cell, height, origin, wall"))
        return false;
    ear_level_config cfg = ear_level_config_default();
    cfg.allocator = p->options->allocator;
    if (!number(p, l, "level", "cell", 0, true, 1e4, &cfg.cell_m) ||
        !number(p, l, "level", "height", 0, true, 1e4, &cfg.wall_height_m) ||
        !vec3(p, l, "level", "origin", MAX_COORD, false, &cfg.origin))
        return false;
    const json_t *wall = json_object_get(l, "wall");
    if (wall) {
        const char *w = json_string_value(wall);
        size_t i = 0;
        if (!w || !*w || !ear_utf8_valid(w, strlen(w)))
            return fail(p, "level.wall", "expected one character");
        /* One code point: its bytes are the whole string. */
        uint32_t cp = (unsigned char)w[0];
        size_t len = cp < 0x80 ? 1 : (cp >> 5) == 6 ? 2 : (cp >> 4) == 14 ? 3 : 4;
        if (strlen(w) != len) return fail(p, "level.wall", "expected one character");
        cp = len == 1 ? cp : len == 2 ? (cp & 0x1fu) : len == 3 ? (cp & 0x0fu) : (cp & 0x07u);
        for (i = 1; i < len; i++) cp = (cp << 6) | ((unsigned char)w[i] & 0x3fu);
        if (cp <= ' ') return fail(p, "level.wall", "expected a visible character");
        cfg.wall_char = cp;
    }
    const json_t *map = json_object_get(l, "map");
    if (!map) return fail(p, "level.map", "missing: expected an array of row strings");
    char *text = NULL;
    size_t size = 0;
    bool rows = json_is_array(map);
    if (json_is_string(map)) {
        size = json_string_length(map);
        text = malloc(size + 1);
        if (!text) return fail(p, "level.map", "out of memory");
        memcpy(text, json_string_value(map), size + 1);
    } else if (rows) {
        size_t count = json_array_size(map);
        for (size_t i = 0; i < count; i++) {
            const json_t *row = json_array_get(map, i);
            if (!json_is_string(row)) {
                char at[48];
                snprintf(at, sizeof at, "level.map[%zu]", i);
                return fail(p, at, "expected a string (one row of the map)");
            }
            const char *r = json_string_value(row);
            if (memchr(r, '\n', json_string_length(row))) {
                char at[48];
                snprintf(at, sizeof at, "level.map[%zu]", i);
                return fail(p, at, "a row may not hold a line break");
            }
            size += json_string_length(row) + 1;
        }
        text = malloc(size + 1);
        if (!text) return fail(p, "level.map", "out of memory");
        size_t at = 0;
        for (size_t i = 0; i < count; i++) {
            const json_t *row = json_array_get(map, i);
            memcpy(text + at, json_string_value(row), json_string_length(row));
            at += json_string_length(row);
            text[at++] = '\n';
        }
        text[at] = '\0';
    } else {
        return fail(p, "level.map", "expected an array of row strings (or one string)");
    }
    ear_level_error le;
    ear_result r = ear_level_build_with(text, size, &cfg, out, &le);
    free(text);
    if (r == EAR_OK) return true;
    if (r == EAR_E_OUT_OF_MEMORY) {
        p->oom = true;
        return fail(p, "level", "out of memory");
    }
    if (le.row == 0) return fail(p, "level", "%s", le.message);
    char at[48];
    if (rows)
        snprintf(at, sizeof at, "level.map[%u]", le.row - 1);
    else
        snprintf(at, sizeof at, "level.map");
    return fail(p, at, "%s", le.message);
}

static const char *const top_keys[] = {"gravity", "step_hz", "level", "bodies", NULL};

void ear_level_doc_unload(ear_level_doc *doc) {
    if (!doc) return;
    ear_physics_destroy(doc->world);
    ear_level_destroy(doc->level);
    memset(doc, 0, sizeof *doc);
}

ear_result ear_level_doc_load(const char *text, size_t size,
                              const ear_level_doc_options *options, ear_level_doc *out,
                              ear_level_doc_error *err) {
    ear_level_doc_options opts = options ? *options : ear_level_doc_options_default();
    if (opts.max_bodies == 0) opts.max_bodies = 100000;
    parse p = {&opts, err, false};
    if (err) memset(err, 0, sizeof *err);
    if (!text || !out) {
        fail(&p, "", "no document or no place for the world");
        return EAR_E_INVALID_ARG;
    }
    json_error_t jerr;
    /* JSON_DECODE_ANY: valid JSON that is not an object ("42") is told so below. */
    json_t *root = json_loadb(text, size, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &jerr);
    if (!root) {
        char at[64];
        snprintf(at, sizeof at, "line %d, column %d", jerr.line, jerr.column);
        fail(&p, at, "not valid JSON: %s", jerr.text);
        return EAR_E_FORMAT;
    }
    ear_result result = EAR_E_FORMAT;
    doc_body *bodies = NULL;
    ear_level *level = NULL;
    ear_physics *world = NULL;
    size_t body_count = 0, walls = 0;
    ear_physics_config pc = ear_physics_config_default();
    pc.allocator = opts.allocator;
    float step_hz = 60;

    if (!json_is_object(root)) {
        fail(&p, "", "expected an object {gravity, step_hz, level, bodies}, got %s",
             ear__json_kind(root));
        goto done;
    }
    if (!check_keys(&p, root, "", top_keys, opts.extra_keys,
                    "gravity, step_hz, level, bodies") ||
        !vec3(&p, root, "", "gravity", 1e4, false, &pc.gravity_mps2) ||
        !number(&p, root, "", "step_hz", 1, false, 10000, &step_hz))
        goto done;
    const json_t *lv = json_object_get(root, "level");
    if (lv && !json_is_null(lv) && !parse_level(&p, lv, &level)) {
        if (p.oom) result = EAR_E_OUT_OF_MEMORY;
        goto done;
    }
    const json_t *list = json_object_get(root, "bodies");
    if (list && !json_is_array(list)) {
        fail(&p, "bodies", "expected an array of bodies");
        goto done;
    }
    body_count = list ? json_array_size(list) : 0;
    walls = level ? ear_level_wall_count(level) : 0;
    if (body_count + walls > opts.max_bodies) {
        fail(&p, "bodies", "%zu bodies and %zu walls: more than the %zu allowed", body_count,
             walls, opts.max_bodies);
        goto done;
    }
    bodies = calloc(body_count ? body_count : 1, sizeof *bodies);
    if (!bodies) {
        result = EAR_E_OUT_OF_MEMORY;
        fail(&p, "bodies", "out of memory");
        goto done;
    }
    for (size_t i = 0; i < body_count; i++) {
        if (!parse_body(&p, json_array_get(list, i), i, &bodies[i])) goto done;
        /* Names are how documents and commands refer to bodies: each one once. */
        for (size_t j = 0; j < i; j++)
            if (strcmp(bodies[j].name, bodies[i].name) == 0) {
                char at[48];
                snprintf(at, sizeof at, "bodies[%zu].name", i);
                fail(&p, at, "\"%s\" is already the name of bodies[%zu]", bodies[i].name, j);
                goto done;
            }
        if (level && strncmp(bodies[i].name, "wall:", 5) == 0) {
            char at[48];
            snprintf(at, sizeof at, "bodies[%zu].name", i);
            fail(&p, at, "names starting with \"wall:\" belong to the level's walls");
            goto done;
        }
    }

    result = ear_physics_create(&pc, &world);
    if (result != EAR_OK) {
        fail(&p, "", "the world could not be created: %s", ear_result_string(result));
        goto done;
    }
    result = ear_physics_reserve(world, body_count + walls);
    if (result == EAR_OK && level) result = ear_level_add_to_world(level, world, NULL);
    for (size_t i = 0; i < body_count && result == EAR_OK; i++) {
        bodies[i].desc.name = bodies[i].name;
        bodies[i].desc.vehicle = bodies[i].has_vehicle ? &bodies[i].vehicle : NULL;
        ear_body_id id;
        result = ear_physics_add_body(world, &bodies[i].desc, &id);
        if (result != EAR_OK) {
            char at[48];
            snprintf(at, sizeof at, "bodies[%zu]", i);
            fail(&p, at, "the physics refused the body: %s", ear_result_string(result));
        }
    }
    if (result != EAR_OK && err && !err->message[0])
        fail(&p, "", "the world could not be built: %s", ear_result_string(result));

done:
    json_decref(root);
    free(bodies);
    if (result != EAR_OK) {
        ear_physics_destroy(world);
        ear_level_destroy(level);
        return result;
    }
    out->world = world;
    out->level = level;
    out->step_hz = step_hz;
    out->wall_count = walls;
    out->body_count = body_count;
    return EAR_OK;
}
