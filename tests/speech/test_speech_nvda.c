/* SPDX-License-Identifier: Zlib */
/*
 * Speech on Windows through NVDA's controller client (src/speech/backend_nvda.c), with the
 * recording stand-in for NVDA's DLL beside the test program (nvda_recorder.c, built as
 * nvdaControllerClient.dll into this test's own folder): the chain finds it beside the
 * program and chooses NVDA; a message is spoken and shown in braille; an interrupt cancels
 * NVDA's speech first; a character is said by its name; when NVDA quits, the speech
 * thread fails over to the next output (SAPI, or the console where SAPI cannot speak, as
 * under Wine) and says the last line there. Windows only (make test-windows).
 */
#include "earshot/speech.h"
#include "test.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

typedef void (*take_fn)(char *out, size_t size);
typedef void (*running_fn)(int on);
static take_fn take;
static running_fn set_running;

static void load_recorder(void) {
    void *dll = dlopen("nvdaControllerClient.dll", RTLD_NOW);
    ASSERT_NOT_NULL(dll);
    void *t = dlsym(dll, "nvda_recorder_take"), *r = dlsym(dll, "nvda_recorder_set_running");
    ASSERT_NOT_NULL(t);
    ASSERT_NOT_NULL(r);
    memcpy(&take, &t, sizeof t);
    memcpy(&set_running, &r, sizeof r);
}

/* Waits up to 5 s until the recording holds want's count of '|' entries; returns it. */
static const char *recorded(size_t entries) {
    static char got[8192];
    got[0] = '\0';
    struct timespec ts = {0, 10 * 1000000L};
    for (int i = 0; i < 500; i++) {
        size_t n = strlen(got);
        take(got + n, sizeof got - n);
        size_t bars = 0;
        for (const char *p = got; *p; p++) bars += *p == '|';
        if (bars >= entries) break;
        nanosleep(&ts, NULL);
    }
    return got;
}

static char console_line[256];

static void line(void *user, const char *text) {
    (void)user;
    snprintf(console_line, sizeof console_line, "%s", text);
}

static ear_speech *start(void) {
    ear_speech_config cfg = ear_speech_config_default();
    cfg.line_fn = line;
    ear_speech *sp = NULL;
    if (ear_speech_create(&cfg, &sp) != EAR_OK) return NULL;
    return sp;
}

TEST(nvda_beside_the_program_speaks_and_brailles) {
    load_recorder();
    set_running(1);
    ear_speech *sp = start();
    ASSERT_NOT_NULL(sp);
    ASSERT_EQ(ear_speech_get_output(sp, 10.0), EAR_SPEECH_OUTPUT_NVDA);
    ASSERT_OK(ear_speech_say(sp, "The bell is ahead.", EAR_SPEECH_MESSAGE));
    ASSERT_STR_EQ(recorded(2), "speak:The bell is ahead.|braille:The bell is ahead.|");
    /* An interrupt (menu navigation) cancels NVDA's speech first. */
    ASSERT_OK(ear_speech_say(sp, "Settings.", EAR_SPEECH_INTERRUPT));
    ASSERT_STR_EQ(recorded(3), "cancel|speak:Settings.|braille:Settings.|");
    /* A character is said by its name, and interrupts too. */
    ASSERT_OK(ear_speech_say_char(sp, " "));
    ASSERT_STR_EQ(recorded(3), "cancel|speak:space|braille:space|");
    ear_speech_destroy(sp);
}

TEST(nvda_not_running_is_not_chosen) {
    load_recorder();
    set_running(0);
    ear_speech *sp = start();
    ASSERT_NOT_NULL(sp);
    ear_speech_output out = ear_speech_get_output(sp, 10.0);
    ASSERT_NE(out, EAR_SPEECH_OUTPUT_NVDA);
    ASSERT_NE(out, EAR_SPEECH_OUTPUT_NONE);
    ear_speech_destroy(sp);
    set_running(1);
}

TEST(nvda_quitting_fails_over_and_the_line_is_said_again) {
    load_recorder();
    set_running(1);
    ear_speech *sp = start();
    ASSERT_NOT_NULL(sp);
    ASSERT_EQ(ear_speech_get_output(sp, 10.0), EAR_SPEECH_OUTPUT_NVDA);
    ASSERT_OK(ear_speech_say(sp, "Level one.", EAR_SPEECH_MESSAGE));
    ASSERT_STR_EQ(recorded(2), "speak:Level one.|braille:Level one.|");
    set_running(0); /* NVDA quits */
    ear_speech_output out = EAR_SPEECH_OUTPUT_NVDA;
    struct timespec ts = {0, 20 * 1000000L};
    for (int i = 0; i < 250 && out == EAR_SPEECH_OUTPUT_NVDA; i++) {
        nanosleep(&ts, NULL);
        out = ear_speech_get_output(sp, 0.0);
    }
    ASSERT_NE(out, EAR_SPEECH_OUTPUT_NVDA);
    if (out == EAR_SPEECH_OUTPUT_CONSOLE) {
        for (int i = 0; i < 250 && !console_line[0]; i++) nanosleep(&ts, NULL);
        ASSERT_STR_EQ(console_line, "Level one.");
    }
    ear_speech_destroy(sp);
    set_running(1);
}

TEST_MAIN(TEST_ENTRY(nvda_beside_the_program_speaks_and_brailles),
          TEST_ENTRY(nvda_not_running_is_not_chosen),
          TEST_ENTRY(nvda_quitting_fails_over_and_the_line_is_said_again))
