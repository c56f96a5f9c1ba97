/* SPDX-License-Identifier: Zlib */
/*
 * The demo game's level files (games/demo/levels.c, docs/game.md "Levels"): the three
 * shipped files parse to the levels the game always had, and every error in a level file
 * or a map names the file, the line and the column.
 */
#include "levels.h"
#include "test.h"

#include <stdio.h>
#include <string.h>

static const char good[] = "# a comment\n"
                           "title = level1\n"
                           "intro = level1.intro\n"
                           "kind = on foot\n"
                           "cell = 1.0\n"
                           "objectives = sparkles, beacon\n"
                           "par = 60\n"
                           "music = garden\n"
                           "place = garden\n"
                           "room = outdoors\n"
                           "map:\n"
                           "#####\n"
                           "#P*B#\n"
                           "#####\n";

/* good with line `line` (1-based) replaced by `with`. */
static void edit(char *out, size_t cap, int line, const char *with) {
    out[0] = '\0';
    const char *p = good;
    for (int n = 1; *p; n++) {
        const char *e = strchr(p, '\n');
        size_t len = (size_t)(e - p) + 1;
        if (n == line)
            snprintf(out + strlen(out), cap - strlen(out), "%s\n", with);
        else
            snprintf(out + strlen(out), cap - strlen(out), "%.*s", (int)len, p);
        p += len;
    }
}

static void expect_error(int line, const char *with, const char *want) {
    char text[1024], why[400] = "";
    edit(text, sizeof text, line, with);
    demo_level l;
    ear_result r = demo_level_parse(text, strlen(text), "t.level", &l, why, sizeof why);
    printf("  line %d \"%s\": %s\n", line, with, why);
    ASSERT_EQ(r, EAR_E_FORMAT);
    ASSERT_STR_EQ(why, want);
    ASSERT_TRUE(l.map == NULL);
}

TEST(the_shipped_levels_are_the_levels_the_game_had) {
    const char *dir = DEMO_LEVELS_DIR;
    char path[600], why[400] = "";
    demo_level l;
    snprintf(path, sizeof path, "%s/level2.level", dir);
    ASSERT_EQ(demo_level_load(path, "levels/level2.level", &l, why, sizeof why), EAR_OK);
    ASSERT_STR_EQ(l.title_key, "level2");
    ASSERT_STR_EQ(l.intro_key, "level2.intro");
    ASSERT_STR_EQ(l.room, "cave");
    ASSERT_FALSE(l.drive);
    ASSERT_NEAR(l.cell_m, 1.0f, 0.0f);
    ASSERT_NEAR(l.par_s, 90.0, 0.0);
    ASSERT_EQ(l.objective_count, 3u);
    ASSERT_EQ(l.objectives[0], (uint32_t)'R');
    ASSERT_EQ(l.objectives[2], (uint32_t)'B');
    ASSERT_EQ(l.map_line, 12u); /* after the comment, nine settings and "map:" */
    ear_level *map = NULL;
    ASSERT_EQ(demo_level_build_map(&l, NULL, 0, NULL, 0, &map, why, sizeof why), DEMO_MAP_OK);
    ASSERT_EQ(ear_level_rows(map), 12u);
    ASSERT_EQ(ear_level_columns(map), 16u);
    ASSERT_EQ(ear_level_tile_count(map, 'H'), 1u);
    ear_level_destroy(map);
    demo_level_free(&l);
    snprintf(path, sizeof path, "%s/level3.level", dir);
    ASSERT_EQ(demo_level_load(path, "levels/level3.level", &l, why, sizeof why), EAR_OK);
    ASSERT_TRUE(l.drive);
    ASSERT_NEAR(l.cell_m, 2.0f, 0.0f);
    ASSERT_NEAR(l.fuel_l, 1.5f, 0.0f);
    ASSERT_EQ(l.objective_count, 1u);
    ASSERT_EQ(l.objectives[0], (uint32_t)'F');
    demo_level_free(&l);
}

TEST(header_errors_name_the_line_and_column) {
    expect_error(4, "kind = flying",
                 "t.level, line 4, column 8: \"flying\": expected \"on foot\" or \"driving\".");
    expect_error(
        5, "cell = -1",
        "t.level, line 5, column 8: \"-1\": expected a cell size in metres from 0.1 to 100.");
    expect_error(5, "cell = 1e400",
                 "t.level, line 5, column 8: \"1e400\": expected a cell size in metres from "
                 "0.1 to 100.");
    expect_error(6, "objectives = sparkles, treasure",
                 "t.level, line 6, column 24: \"treasure\" is not an objective (radio, "
                 "sparkles, beacon or finish).");
    expect_error(6, "objectives = beacon, sparkles",
                 "t.level, line 6: the last objective must be the goal (beacon).");
    expect_error(6, "objectives = sparkles, finish",
                 "t.level, line 6: the finish is not the goal of a level on foot.");
    expect_error(7, "  speed = 3",
                 "t.level, line 7, column 3: \"speed\" is not a level setting (title, intro, "
                 "kind, cell, objectives, par, fuel, music, place, room).");
    expect_error(8, "music garden",
                 "t.level, line 8, column 1: expected \"key = value\" or \"map:\".");
    expect_error(9, "title = again", "t.level, line 9, column 1: \"title\" is set twice.");
    expect_error(4, "kind = driving", "t.level, line 4: a driving level needs its \"fuel\".");
    expect_error(11, "", "t.level, line 14: no \"map:\" line (the map follows it).");
    expect_error(10, "# no room", "t.level: no \"room\" setting.");
}

TEST(map_errors_name_the_file_line_and_column) {
    expect_error(13, "#P*x#", "t.level, line 13, column 4: 'x' is not a tile of the game.");
    expect_error(13, "#P*\tB#", "t.level, line 13, column 4: a tab (indent with spaces).");
    expect_error(13, "#.*B#", "t.level: the map has no start ('P').");
    /* a map of its own (--map): its lines count from 1 */
    char why[400] = "";
    demo_level l;
    ASSERT_EQ(demo_level_parse(good, strlen(good), "t.level", &l, why, sizeof why), EAR_OK);
    ear_level *map = NULL;
    const char other[] = "####\n#PB#\n#..\x01#\n####\n";
    ASSERT_EQ(
        demo_level_build_map(&l, other, strlen(other), "my.map", 1, &map, why, sizeof why),
        DEMO_MAP_BAD);
    ASSERT_STR_EQ(why, "my.map, line 3, column 4: a control character.");
    ASSERT_TRUE(map == NULL);
    const char no_goal[] = "####\n#P.#\n####\n";
    ASSERT_EQ(
        demo_level_build_map(&l, no_goal, strlen(no_goal), "my.map", 1, &map, why, sizeof why),
        DEMO_MAP_NO_GOAL);
    demo_level_free(&l);
}

TEST_MAIN(TEST_ENTRY(the_shipped_levels_are_the_levels_the_game_had),
          TEST_ENTRY(header_errors_name_the_line_and_column),
          TEST_ENTRY(map_errors_name_the_file_line_and_column))
