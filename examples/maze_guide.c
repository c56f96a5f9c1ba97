/* SPDX-License-Identifier: Zlib */
/*
 * Guiding a player through a maze by ear: an ASCII level, the cheapest path from the
 * player ('P') to the exit ('E'), and at each turn of the path the sentence a screen reader
 * would say ("4 meters ahead", "3 meters to the right"), as the player walks it facing the
 * way they last went. Prints the path's length and one line per leg; with "de" as its
 * argument, the sentences are German.
 */
#include "earshot/level.h"
#include "earshot/physics.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const MAZE = "\n"
                                "    ##########\n"
                                "    #P...#...#\n"
                                "    #.##.#.#.#\n"
                                "    #..#...#E#\n"
                                "    ##########\n";

int main(int argc, char **argv) {
    ear_level *level = NULL;
    ear_level_error err;
    if (ear_level_build(MAZE, 2.0f, 3.0f, &level, &err) != EAR_OK) {
        fprintf(stderr, "maze: %s\n", err.message);
        return 1;
    }
    ear_vec3 start, exit;
    ear_level_tile(level, 'P', 0, &start, NULL, NULL);
    ear_level_tile(level, 'E', 0, &exit, NULL, NULL);
    ear_path path;
    if (ear_level_find_path(level, start, exit, NULL, &path) != EAR_OK) {
        fprintf(stderr, "maze: no way out\n");
        ear_level_destroy(level);
        return 1;
    }
    ear_lang *lang = NULL;
    ear_lang_create(NULL, &lang);
    if (argc > 1) ear_lang_set_language(lang, argv[1]);
    printf("path: %zu cells, %.0f m\n", path.count, (double)path.length_m);
    /* Walk the path leg by leg: a leg ends where the direction changes. */
    float facing = 90; /* the player starts facing east */
    size_t from = 0;
    for (size_t i = 1; i < path.count; i++) {
        bool last = i + 1 == path.count;
        ear_vec3 d = ear_vec3_sub(path.points[i], path.points[i - 1]);
        ear_vec3 next = last ? d : ear_vec3_sub(path.points[i + 1], path.points[i]);
        if (!last && fabsf(d.x - next.x) < 1e-6f && fabsf(d.z - next.z) < 1e-6f) continue;
        char sentence[128];
        ear_describe_position(lang, path.points[from], facing, path.points[i], sentence,
                              sizeof sentence, NULL);
        printf("%s\n", sentence);
        /* The player now faces the way this leg went (yaw clockwise from north). */
        facing = (float)(atan2(d.x, -d.z) * 180.0 / 3.14159265358979323846);
        from = i;
    }
    ear_lang_destroy(lang);
    ear_path_release(&path);
    ear_level_destroy(level);
    return 0;
}
