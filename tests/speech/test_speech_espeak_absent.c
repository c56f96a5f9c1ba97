/* SPDX-License-Identifier: Zlib */
/*
 * espeak-ng absent: the loader (src/speech/espeak_dl.c) is pointed at a library name
 * that no system has (EARSHOT_ESPEAK_LIB), as on a player's machine without espeak-ng.
 * The speech object still starts, falls to the console, speaks there, and one warning
 * line says why (and no other: not "could not start" as well). The loader runs once per
 * process, so this is its own test program; test_speech_espeak speaks with the real
 * library.
 */
#define _POSIX_C_SOURCE 200809L
#include "earshot/mixer.h"
#include "earshot/speech.h"
#include "test.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ABSENT "libespeak-ng-absent-for-the-test.so.1"

static char warnings[4][512];
static int warning_count, other_speech_lines;

static void capture(void *user, ear_log_level level, const char *module, const char *message) {
    (void)user;
    if (strcmp(module, "speech") != 0) return;
    if (level >= EAR_LOG_WARN && warning_count < 4)
        snprintf(warnings[warning_count++], sizeof warnings[0], "%s", message);
    else if (strstr(message, "espeak"))
        other_speech_lines++;
}

/* The console's lines, written on the speech thread: the text before the count. */
static char spoken[256];
static atomic_int spoken_count;

static void line(void *user, const char *text) {
    (void)user;
    snprintf(spoken, sizeof spoken, "%s", text);
    atomic_fetch_add(&spoken_count, 1);
}

static void wait_spoken(int n) {
    struct timespec ts = {0, 10 * 1000000L};
    for (int i = 0; i < 1000 && atomic_load(&spoken_count) < n; i++) nanosleep(&ts, NULL);
}

TEST(espeak_absent_is_one_line_and_the_console_speaks) {
    ASSERT_EQ(setenv("EARSHOT_ESPEAK_LIB", ABSENT, 1), 0);
    ear_log_set(capture, NULL, EAR_LOG_DEBUG);
    ear_stage *stage;
    ASSERT_OK(ear_stage_create(NULL, &stage));
    ear_speech_config cfg = ear_speech_config_default();
    cfg.skip_braille = true; /* never the developer's own display */
    cfg.skip_dispatcher = true;
    cfg.stage = stage; /* espeak-ng would be tried: there is a stage to hear it on */
    cfg.line_fn = line;
    ear_speech *sp;
    ASSERT_OK(ear_speech_create(&cfg, &sp));
    ASSERT_EQ(ear_speech_get_output(sp, 10.0), EAR_SPEECH_OUTPUT_CONSOLE);
    ASSERT_EQ(warning_count, 1);
    ASSERT_STR_EQ(warnings[0], "espeak-ng not found (" ABSENT "): the espeak backend is off; "
                               "speech-dispatcher and the console still speak");
    ASSERT_EQ(other_speech_lines, 0);

    /* The engine works: the message reaches the console. */
    ASSERT_OK(ear_speech_speak(sp, "Still speaking."));
    wait_spoken(1);
    ASSERT_EQ(atomic_load(&spoken_count), 1);
    ASSERT_STR_EQ(spoken, "Still speaking.");
    ASSERT_EQ(warning_count, 1);
    ear_speech_destroy(sp);

    /* A second speech object does not try again nor say it again. */
    ASSERT_OK(ear_speech_create(&cfg, &sp));
    ASSERT_EQ(ear_speech_get_output(sp, 10.0), EAR_SPEECH_OUTPUT_CONSOLE);
    ear_speech_destroy(sp);
    ASSERT_EQ(warning_count, 1);
    ear_stage_destroy(stage);
    ear_log_set(NULL, NULL, EAR_LOG_WARN);
}

TEST_MAIN(TEST_ENTRY(espeak_absent_is_one_line_and_the_console_speaks))
