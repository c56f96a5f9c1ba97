/* SPDX-License-Identifier: Zlib */
/*
 * The level files (levels.h, docs/game.md "Levels"). A file is read whole (core's check:
 * a regular file of bounded size), its header lines parsed one by one, each error naming
 * the line and the column where it is; the map after `map:` is kept as text and built
 * (ear_level_build) each time the level loads, so a map from elsewhere (--map) takes its
 * place with the same checks.
 */
#include "levels.h"

#include "earshot/core.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The characters a map may hold: walls, the floors (',' grass, '=' wood, '.' and ' '
 * stone), and the things the game places. */
static const char tiles[] = "#P,=.*RBHCVF ";

static void fail(char *why, size_t cap, const char *name, uint32_t line, uint32_t column,
                 const char *format, ...) {
    char what[200];
    va_list args;
    va_start(args, format);
    vsnprintf(what, sizeof what, format, args);
    va_end(args);
    if (line > 0 && column > 0)
        snprintf(why, cap, "%s, line %u, column %u: %s.", name, line, column, what);
    else if (line > 0)
        snprintf(why, cap, "%s, line %u: %s.", name, line, what);
    else
        snprintf(why, cap, "%s: %s.", name, what);
}

/* The column (1-based, in characters) of byte offset `at` of a line. */
static uint32_t column_of(const char *line, size_t at) {
    uint32_t c = 1;
    for (size_t i = 0; i < at; i++)
        if (((unsigned char)line[i] & 0xc0) != 0x80) c++;
    return c;
}

static bool is_space(char c) {
    return c == ' ' || c == '\t';
}

/* A number within [lo, hi] (finite), the whole value. */
static bool number(const char *v, size_t n, double lo, double hi, double *out) {
    char buf[64];
    if (n == 0 || n >= sizeof buf) return false;
    memcpy(buf, v, n);
    buf[n] = '\0';
    char *end = NULL;
    double x = strtod(buf, &end);
    if (end == buf || *end != '\0' || !isfinite(x) || x < lo || x > hi) return false;
    *out = x;
    return true;
}

/* A name: letters, digits, '.', '_' and '-', at most cap - 1 of them. */
static bool word(const char *v, size_t n, char *out, size_t cap) {
    if (n == 0 || n >= cap) return false;
    for (size_t i = 0; i < n; i++) {
        char c = v[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '.' || c == '_' || c == '-'))
            return false;
    }
    memcpy(out, v, n);
    out[n] = '\0';
    return true;
}

typedef struct objective_name {
    const char *name;
    uint32_t tile;
} objective_name;

static const objective_name objective_names[] = {{"radio", DEMO_TILE_RADIO},
                                                 {"sparkles", DEMO_TILE_SPARKLE},
                                                 {"beacon", DEMO_TILE_BEACON},
                                                 {"finish", DEMO_TILE_FINISH}};

/* "radio, sparkles, beacon": each once, the goal last. Column of a bad one in *bad. */
static bool objectives(demo_level *l, const char *v, size_t n, size_t *bad, char *what,
                       size_t cap) {
    size_t i = 0;
    l->objective_count = 0;
    while (i < n) {
        while (i < n && (is_space(v[i]) || v[i] == ',')) i++;
        size_t s = i;
        while (i < n && v[i] != ',' && !is_space(v[i])) i++;
        if (i == s) break;
        *bad = s;
        uint32_t tile = 0;
        for (size_t k = 0; k < sizeof objective_names / sizeof *objective_names; k++)
            if (strlen(objective_names[k].name) == i - s &&
                memcmp(objective_names[k].name, v + s, i - s) == 0)
                tile = objective_names[k].tile;
        if (!tile) {
            snprintf(what, cap,
                     "\"%.*s\" is not an objective (radio, sparkles, beacon or finish)",
                     (int)(i - s), v + s);
            return false;
        }
        for (size_t k = 0; k < l->objective_count; k++)
            if (l->objectives[k] == tile) {
                snprintf(what, cap, "\"%.*s\" is listed twice", (int)(i - s), v + s);
                return false;
            }
        if (l->objective_count == DEMO_LEVEL_MAX_OBJECTIVES) {
            snprintf(what, cap, "more than %d objectives", DEMO_LEVEL_MAX_OBJECTIVES);
            return false;
        }
        l->objectives[l->objective_count++] = tile;
    }
    if (l->objective_count == 0) {
        *bad = 0;
        snprintf(what, cap, "no objectives (the last one is the goal: beacon or finish)");
        return false;
    }
    return true;
}

uint32_t demo_level_start_tile(const demo_level *level) {
    return level->drive ? DEMO_TILE_CAR : DEMO_TILE_START;
}

uint32_t demo_level_goal_tile(const demo_level *level) {
    return level->drive ? DEMO_TILE_FINISH : DEMO_TILE_BEACON;
}

enum {
    K_TITLE,
    K_INTRO,
    K_KIND,
    K_CELL,
    K_OBJECTIVES,
    K_PAR,
    K_FUEL,
    K_MUSIC,
    K_PLACE,
    K_ROOM,
    K_COUNT
};
static const char *const keys[K_COUNT] = {"title", "intro", "kind",  "cell",  "objectives",
                                          "par",   "fuel",  "music", "place", "room"};

ear_result demo_level_parse(const char *text, size_t size, const char *name, demo_level *out,
                            char *why, size_t cap) {
    memset(out, 0, sizeof *out);
    snprintf(out->source, sizeof out->source, "%s", name);
    bool seen[K_COUNT] = {0};
    uint32_t line_no = 0, kind_line = 0, objectives_line = 0;
    size_t i = 0;
    bool map = false;
    while (i < size && !map) {
        const char *line = text + i;
        size_t n = 0;
        while (i + n < size && line[n] != '\n') n++;
        i += n + (i + n < size);
        line_no++;
        size_t len = n;
        if (len && line[len - 1] == '\r') len--;
        size_t s = 0;
        while (s < len && is_space(line[s])) s++;
        size_t e = len;
        while (e > s && is_space(line[e - 1])) e--;
        if (s == e || line[s] == '#') continue; /* blank, or a comment */
        if (e - s == 4 && memcmp(line + s, "map:", 4) == 0) {
            map = true;
            break;
        }
        for (size_t k = s; k < e; k++)
            if ((unsigned char)line[k] < 0x20) {
                fail(why, cap, name, line_no, column_of(line, k), "a control character");
                return EAR_E_FORMAT;
            }
        const char *eq = memchr(line + s, '=', e - s);
        if (!eq) {
            fail(why, cap, name, line_no, column_of(line, s),
                 "expected \"key = value\" or \"map:\"");
            return EAR_E_FORMAT;
        }
        size_t ke = (size_t)(eq - line);
        while (ke > s && is_space(line[ke - 1])) ke--;
        size_t vs = (size_t)(eq - line) + 1;
        while (vs < e && is_space(line[vs])) vs++;
        int key = -1;
        for (int k = 0; k < K_COUNT; k++)
            if (strlen(keys[k]) == ke - s && memcmp(keys[k], line + s, ke - s) == 0) key = k;
        if (key < 0) {
            fail(why, cap, name, line_no, column_of(line, s),
                 "\"%.*s\" is not a level setting (title, intro, kind, cell, objectives, par, "
                 "fuel, music, place, room)",
                 (int)(ke - s), line + s);
            return EAR_E_FORMAT;
        }
        if (seen[key]) {
            fail(why, cap, name, line_no, column_of(line, s), "\"%s\" is set twice", keys[key]);
            return EAR_E_FORMAT;
        }
        seen[key] = true;
        const char *v = line + vs;
        size_t vn = e - vs;
        uint32_t vc = column_of(line, vs);
        double x = 0;
        bool ok = true;
        const char *expected = "";
        switch (key) {
        case K_TITLE:
            ok = word(v, vn, out->title_key, sizeof out->title_key);
            expected = "a text key (letters, digits, '.', '_', '-')";
            break;
        case K_INTRO:
            ok = word(v, vn, out->intro_key, sizeof out->intro_key);
            expected = "a text key (letters, digits, '.', '_', '-')";
            break;
        case K_MUSIC:
            ok = word(v, vn, out->music, sizeof out->music);
            expected = "a sound's name";
            break;
        case K_PLACE:
            ok = word(v, vn, out->place, sizeof out->place);
            expected = "a name";
            break;
        case K_ROOM:
            ok = word(v, vn, out->room, sizeof out->room);
            expected = "a room preset's name";
            break;
        case K_KIND:
            kind_line = line_no;
            if (vn == 7 && memcmp(v, "on foot", 7) == 0)
                out->drive = false;
            else if (vn == 7 && memcmp(v, "driving", 7) == 0)
                out->drive = true;
            else
                ok = false;
            expected = "\"on foot\" or \"driving\"";
            break;
        case K_CELL:
            ok = number(v, vn, 0.1, 100, &x);
            out->cell_m = (float)x;
            expected = "a cell size in metres from 0.1 to 100";
            break;
        case K_PAR:
            ok = number(v, vn, 0, 3600, &x);
            out->par_s = x;
            expected = "a time in seconds from 0 to 3600";
            break;
        case K_FUEL:
            ok = number(v, vn, 0.01, 1000, &x);
            out->fuel_l = (float)x;
            expected = "litres from 0.01 to 1000";
            break;
        case K_OBJECTIVES: {
            objectives_line = line_no;
            size_t bad = 0;
            char what[160];
            if (!objectives(out, v, vn, &bad, what, sizeof what)) {
                fail(why, cap, name, line_no, column_of(line, vs + bad), "%s", what);
                return EAR_E_FORMAT;
            }
            break;
        }
        default: break;
        }
        if (!ok) {
            fail(why, cap, name, line_no, vc, "\"%.*s\": expected %s", (int)vn, v, expected);
            memset(out->title_key, 0, sizeof out->title_key);
            return EAR_E_FORMAT;
        }
    }
    if (!map) {
        fail(why, cap, name, line_no, 0, "no \"map:\" line (the map follows it)");
        return EAR_E_FORMAT;
    }
    for (int k = 0; k < K_COUNT; k++) {
        if (seen[k] || k == K_FUEL) continue;
        fail(why, cap, name, 0, 0, "no \"%s\" setting", keys[k]);
        return EAR_E_FORMAT;
    }
    if (out->drive != seen[K_FUEL]) {
        fail(why, cap, name, kind_line, 0,
             out->drive ? "a driving level needs its \"fuel\"" : "\"fuel\" is for driving");
        return EAR_E_FORMAT;
    }
    uint32_t goal = demo_level_goal_tile(out), last = out->objectives[out->objective_count - 1];
    for (size_t k = 0; k < out->objective_count; k++) {
        uint32_t t = out->objectives[k];
        bool is_goal = t == DEMO_TILE_BEACON || t == DEMO_TILE_FINISH;
        if (is_goal && t != goal) {
            fail(why, cap, name, objectives_line, 0, "%s is not the goal of a level %s",
                 t == DEMO_TILE_BEACON ? "the beacon" : "the finish",
                 out->drive ? "driving" : "on foot");
            return EAR_E_FORMAT;
        }
    }
    if (last != goal) {
        fail(why, cap, name, objectives_line, 0, "the last objective must be the goal (%s)",
             out->drive ? "finish" : "beacon");
        return EAR_E_FORMAT;
    }
    out->map_line = line_no + 1;
    out->map_size = size - i;
    out->map = malloc(out->map_size + 1);
    if (!out->map) {
        fail(why, cap, name, 0, 0, "out of memory");
        return EAR_E_OUT_OF_MEMORY;
    }
    memcpy(out->map, text + i, out->map_size);
    out->map[out->map_size] = '\0';
    /* the map is built (and checked) now too, so a bad level file is known at once */
    ear_level *built = NULL;
    demo_map_check c = demo_level_build_map(out, NULL, 0, NULL, 0, &built, why, cap);
    ear_level_destroy(built);
    if (c != DEMO_MAP_OK) {
        if (c == DEMO_MAP_NO_START || c == DEMO_MAP_NO_GOAL)
            fail(why, cap, name, 0, 0, "the map has no %s ('%c')",
                 c == DEMO_MAP_NO_START ? "start" : "goal",
                 (char)(c == DEMO_MAP_NO_START ? demo_level_start_tile(out)
                                               : demo_level_goal_tile(out)));
        demo_level_free(out);
        return EAR_E_FORMAT;
    }
    return EAR_OK;
}

ear_result demo_level_load(const char *path, const char *name, demo_level *out, char *why,
                           size_t cap) {
    memset(out, 0, sizeof *out);
    char *text = NULL;
    size_t size = 0;
    char err[512];
    ear_result r =
        ear_file_read(path, DEMO_LEVEL_MAX_BYTES, NULL, &text, &size, err, sizeof err);
    if (r != EAR_OK) {
        snprintf(why, cap, "%s.", err);
        return r;
    }
    r = demo_level_parse(text, size, name, out, why, cap);
    ear_allocator a = ear_allocator_resolve(NULL);
    a.free_fn(text, a.user);
    return r;
}

void demo_level_free(demo_level *level) {
    if (!level) return;
    free(level->map);
    level->map = NULL;
    level->map_size = 0;
}

demo_map_check demo_level_build_map(const demo_level *level, const char *text, size_t size,
                                    const char *name, uint32_t first_line, ear_level **out,
                                    char *why, size_t cap) {
    *out = NULL;
    if (!text) {
        text = level->map;
        size = level->map_size;
        name = level->source;
        first_line = level->map_line;
    }
    if (!text) {
        fail(why, cap, name, 0, 0, "no map");
        return DEMO_MAP_BAD;
    }
    ear_level_config lc = ear_level_config_default();
    lc.cell_m = level->cell_m;
    lc.wall_height_m = 3.0f;
    ear_level_error err;
    memset(&err, 0, sizeof err);
    ear_level *map = NULL;
    if (ear_level_build_with(text, size, &lc, &map, &err) != EAR_OK) {
        /* the builder's "row R, column C: what": its rows are the text's lines */
        const char *what = err.message;
        const char *colon = err.row > 0 ? strstr(what, ": ") : NULL;
        if (colon) what = colon + 2;
        fail(why, cap, name, err.row > 0 ? first_line + err.row - 1 : 0, err.column, "%s",
             what[0] ? what : "the map is not a map");
        return DEMO_MAP_BAD;
    }
    /* every character one of the game's tiles */
    uint32_t line = first_line, column = 0;
    for (size_t i = 0; i < size; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c == '\n') {
            line++;
            column = 0;
            continue;
        }
        if ((c & 0xc0) != 0x80) column++;
        if (c == '\r' || (c & 0xc0) == 0x80) continue;
        if (c >= 0x80 || !strchr(tiles, c)) {
            if (c >= 0x80)
                fail(why, cap, name, line, column,
                     "a character that is not a tile of the game");
            else
                fail(why, cap, name, line, column, "'%c' is not a tile of the game", c);
            ear_level_destroy(map);
            return DEMO_MAP_BAD;
        }
    }
    if (ear_level_tile_count(map, demo_level_start_tile(level)) == 0) {
        ear_level_destroy(map);
        return DEMO_MAP_NO_START;
    }
    if (ear_level_tile_count(map, demo_level_goal_tile(level)) == 0) {
        ear_level_destroy(map);
        return DEMO_MAP_NO_GOAL;
    }
    *out = map;
    return DEMO_MAP_OK;
}
