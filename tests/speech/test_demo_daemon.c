/* SPDX-License-Identifier: Zlib */
/*
 * The demo game against the real speech-dispatcher: the player's speech rate, volume and
 * voice are theirs. The test starts a private daemon (tests/speech/speechd_fixture.h:
 * Debian's speech-dispatcher with a module that logs each message with the voice, rate,
 * punctuation and volume it is said with) whose defaults are rate 37, volume 55 and the
 * voice "earshot-alpha", then the game itself, as a player starts it: earshot-demo
 * --window under SDL's dummy video and audio drivers, finding the daemon through
 * SPEECHD_ADDRESS as a game started from a desktop session does, its keys from a script.
 *
 *   1. Started with no save, the game sends none of the three: every line it says is
 *      said at the daemon's rate, volume and voice.
 *   2. The player moves the speech rate in Settings one step down (-10): from the new
 *      value's line on, the rate is the game's (-10), while the volume and the voice stay the
 *      daemon's; before it, the daemon's rate. Started again with that save, the rate
 *      is the game's from the first line, the volume and voice still the daemon's.
 */
#define _POSIX_C_SOURCE 200809L
#include "speechd_fixture.h"
#include "test.h"

static speechd_fixture daemon_;

/* At exit (before the fixture's own handler, registered earlier): the daemon stopped and
 * its folder removed. */
static void teardown(void) {
    (void)speechd_release; /* the fixture's, for messages that hold: none here */
    speechd_stop(&daemon_);
    speechd_remove(&daemon_);
}

static bool daemon_up(void) {
    if (daemon_.pid > 0) return true;
    if (!speechd_configure(&daemon_, 37, 55) || !speechd_start(&daemon_)) return false;
    static bool registered = false;
    if (!registered) atexit(teardown);
    registered = true;
    return true;
}

/* Runs the game for `seconds` with the key script `keys` and the save `save` (in the
 * daemon's folder), speaking through the daemon; its exit status (-1: it did not run
 * or was killed). */
static int run_demo(const char *name, const char *keys, const char *save, double seconds) {
    char script[160], out[160], save_path[160], secs[32], address[160];
    snprintf(script, sizeof script, "%s/%s.script", daemon_.dir, name);
    snprintf(out, sizeof out, "%s/%s.out", daemon_.dir, name);
    snprintf(save_path, sizeof save_path, "%s/%s", daemon_.dir, save);
    snprintf(secs, sizeof secs, "%.1f", seconds);
    snprintf(address, sizeof address, "unix_socket:%s", daemon_.socket);
    if (!speechd_write_file(script, keys, 0600)) return -1;
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
            close(fd);
        }
        setenv("SDL_VIDEODRIVER", "dummy", 1);
        setenv("SDL_AUDIODRIVER", "dummy", 1);
        setenv("SPEECHD_ADDRESS", address, 1);
        execl(EARSHOT_DEMO, EARSHOT_DEMO, "--window", "--save", save_path, "--seconds", secs,
              "--script", script, (char *)NULL);
        _exit(127);
    }
    int status;
    if (waitpid(pid, &status, 0) != pid) return -1;
    if (!WIFEXITED(status)) return -1;
    if (WEXITSTATUS(status) != 0) {
        fprintf(stderr, "earshot-demo exited %d; its output is in %s\n", WEXITSTATUS(status),
                out);
    }
    return WEXITSTATUS(status);
}

/* One message the daemon's module said: "say|<text>|<voice>|<rate>|<punct>|<volume>". */
typedef struct said_line {
    char text[96], voice[32], rate[8], volume[8];
} said_line;

static int said_lines(said_line *out, int max) {
    static char lines[256][160];
    int n = speechd_lines(&daemon_, lines, 256), count = 0;
    for (int i = 0; i < n && count < max; i++) {
        if (strncmp(lines[i], "say|", 4) != 0) continue;
        char *field[6] = {0};
        int k = 0;
        for (char *p = lines[i], *bar; k < 6 && p; p = bar ? bar + 1 : NULL, k++) {
            bar = strchr(p, '|');
            if (bar) *bar = '\0';
            field[k] = p;
        }
        if (k < 6) continue;
        said_line *s = &out[count++];
        snprintf(s->text, sizeof s->text, "%s", field[1]);
        snprintf(s->voice, sizeof s->voice, "%s", field[2]);
        snprintf(s->rate, sizeof s->rate, "%s", field[3]);
        snprintf(s->volume, sizeof s->volume, "%s", field[5]);
    }
    return count;
}

static int find_text(const said_line *s, int n, const char *text) {
    for (int i = 0; i < n; i++)
        if (!strcmp(s[i].text, text)) return i;
    return -1;
}

static said_line said[256];

/* What the daemon said, for the output of a failing check. */
static void show(const said_line *s, int n) {
    for (int i = 0; i < n; i++)
        fprintf(stderr, "  said %d: %s | %s | rate %s | volume %s\n", i, s[i].text, s[i].voice,
                s[i].rate, s[i].volume);
}

TEST(the_daemons_settings_hold_after_the_game_starts) {
    ASSERT_TRUE(daemon_up());
    unlink(daemon_.log);
    /* Two moves in the main menu, then the run ends (4 s). */
    ASSERT_EQ(run_demo("start", "90 press DOWN\n150 press DOWN\n", "start.save", 4.0), 0);
    ASSERT_GE(speechd_wait(&daemon_, "done|Settings, submenu, 3 of 5", false), 0);
    int n = said_lines(said, 256);
    ASSERT_GE(find_text(said, n, "Main menu, menu"), 0);
    ASSERT_GE(find_text(said, n, "Play, button, 1 of 5"), 0);
    ASSERT_GE(find_text(said, n, "Settings, submenu, 3 of 5"), 0);
    for (int i = 0; i < n; i++) {
        ASSERT_STR_EQ(said[i].voice, "earshot-alpha");
        ASSERT_STR_EQ(said[i].rate, "37");
        ASSERT_STR_EQ(said[i].volume, "55");
    }
}

TEST(only_the_rate_the_player_set_is_the_games) {
    ASSERT_TRUE(daemon_up());
    unlink(daemon_.log);
    /* To Settings, down to the speech rate (5 of 12), one step slower, one item down. */
    const char *keys = "60 press DOWN\n90 press DOWN\n120 press ENTER\n"
                       "180 press DOWN\n210 press DOWN\n240 press DOWN\n270 press DOWN\n"
                       "330 press LEFT\n390 press DOWN\n";
    ASSERT_EQ(run_demo("rate", keys, "rate.save", 8.0), 0);
    int n = said_lines(said, 256);
    show(said, n);
    int slider = find_text(said, n, "Speech rate, slider, 0, 5 of 12");
    int next = find_text(said, n, "Language, combo box, English, 6 of 12");
    ASSERT_GE(slider, 0);
    /* Between them the new value, -10 (which the daemon's symbols say as "minus 10"). */
    ASSERT_EQ(next, slider + 2);
    ASSERT_NOT_NULL(strstr(said[slider + 1].text, "10"));
    for (int i = 0; i < n; i++) {
        /* The volume and the voice stay the daemon's; the rate is the game's once set,
         * from the new value itself on (the player hears the rate they chose). */
        ASSERT_STR_EQ(said[i].voice, "earshot-alpha");
        ASSERT_STR_EQ(said[i].volume, "55");
        ASSERT_STR_EQ(said[i].rate, i <= slider ? "37" : "-10");
    }
    /* Started again with that save: the rate is the game's from the first line, the
     * volume and the voice still the daemon's. */
    unlink(daemon_.log);
    ASSERT_EQ(run_demo("again", "", "rate.save", 3.0), 0);
    n = said_lines(said, 256);
    ASSERT_GE(find_text(said, n, "Main menu, menu"), 0);
    for (int i = 0; i < n; i++) {
        ASSERT_STR_EQ(said[i].voice, "earshot-alpha");
        ASSERT_STR_EQ(said[i].volume, "55");
        ASSERT_STR_EQ(said[i].rate, "-10");
    }
}

TEST_MAIN(TEST_ENTRY(the_daemons_settings_hold_after_the_game_starts),
          TEST_ENTRY(only_the_rate_the_player_set_is_the_games))
