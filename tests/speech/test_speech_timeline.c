/* SPDX-License-Identifier: Zlib */
/*
 * Speech takes time (speech.h): the timeline of a headless (log_only) speech object. A
 * line lasts its length and is heard whole, or is cut at the moment an interrupting
 * line, a stop or a newer notification comes; queued lines start where the one before
 * ended; the listener hears every start, end and cut with the words said; the lengths
 * are espeak-ng's (synthesised into memory, cached, slower at a slower rate, in the
 * language set) or the documented estimate.
 */
#include "espeak_time.h"
#include "speech_internal.h"
#include "test.h"

#include <string.h>

typedef struct heard {
    ear_speech_event e[32];
    char text[32][128];
    size_t n;
} heard;

static void listen(void *user, const ear_speech_event *e) {
    heard *h = user;
    if (h->n >= 32) return;
    h->e[h->n] = *e;
    snprintf(h->text[h->n], sizeof h->text[h->n], "%s", e->text);
    h->e[h->n].text = h->text[h->n];
    h->n++;
}

static ear_speech *estimated(heard *h) {
    ear_speech_config c = ear_speech_config_default();
    c.log_only = true;
    c.skip_espeak = true; /* the estimate: exact lengths to test against */
    ear_speech *sp = NULL;
    if (ear_speech_create(&c, &sp) != EAR_OK) return NULL;
    memset(h, 0, sizeof *h);
    ear_speech_set_listener(sp, listen, h);
    return sp;
}

TEST(the_estimate_counts_letters_digits_and_pauses) {
    /* 11 letters (2.2 words) and an inner stop (1): 3.2 words at 175 a minute. */
    ASSERT_NEAR(ear_speech_estimate_s("Out of fuel. Hm", 0), 3.2 * 60 / 175, 1e-9);
    /* the last stop and a decimal point cost nothing; digits 1.25 each */
    ASSERT_NEAR(ear_speech_estimate_s("Time 31.2.", 0), (0.8 + 3 * 1.25) * 60 / 175, 1e-9);
    /* a comma a quarter; the slowest rate is 80 words a minute, the fastest 450 */
    ASSERT_NEAR(ear_speech_estimate_s("Main menu, menu", -100), (2.4 + 0.25) * 60 / 80, 1e-9);
    ASSERT_NEAR(ear_speech_estimate_s("Main menu, menu", 100), (2.4 + 0.25) * 60 / 450, 1e-9);
    /* "ü" is one letter, not two */
    ASSERT_NEAR(ear_speech_estimate_s("Hauptmenü Hauptmenü", 0), 18 * 0.2 * 60 / 175, 1e-9);
    ASSERT_NEAR(ear_speech_estimate_s("", 0), 0.1, 1e-12);
}

TEST(the_words_said_are_whole_words_by_the_fraction) {
    const char *t = "Level complete. Time 31.2 seconds.";
    ASSERT_EQ(ear_speech_said_len(t, 0), 0);
    ASSERT_EQ(ear_speech_said_len(t, 0.1), 0);   /* 3 of 34 characters: "Lev" */
    ASSERT_EQ(ear_speech_said_len(t, 0.16), 5);  /* 5 characters: "Level" */
    ASSERT_EQ(ear_speech_said_len(t, 0.45), 15); /* "Level complete." with its stop */
    ASSERT_EQ(ear_speech_said_len(t, 1), strlen(t));
    ASSERT_EQ(ear_speech_said_len("Größe", 0.99), 0); /* not inside a character */
}

TEST(an_interrupting_line_cuts_the_one_being_said_at_that_moment) {
    heard h;
    ear_speech *sp = estimated(&h);
    ASSERT_TRUE(sp != NULL);
    const char *result = "Level complete. Time 31.2 seconds. Score 1234.";
    double full = ear_speech_estimate_s(result, 0);
    ear_speech_advance(sp, 1.0);
    ASSERT_OK(ear_speech_speak(sp, result));
    ASSERT_EQ(h.n, 1);
    ASSERT_EQ(h.e[0].kind, EAR_SPEECH_EVENT_START);
    ASSERT_NEAR(h.e[0].start_s, 1.0, 1e-12);
    ASSERT_TRUE(ear_speech_speaking(sp));
    ear_speech_advance(sp, 2.0);
    ear_speech_event cur;
    ASSERT_TRUE(ear_speech_current(sp, &cur));
    ASSERT_NEAR(cur.said_s, 1.0, 1e-12);
    ASSERT_EQ(cur.said_len, ear_speech_said_len(result, 1.0 / full));
    ASSERT_OK(ear_speech_speak(sp, "Next level, button, 1 of 4"));
    ASSERT_EQ(h.n, 3);
    ASSERT_EQ(h.e[1].kind, EAR_SPEECH_EVENT_CUT);
    ASSERT_STR_EQ(h.e[1].text, result);
    ASSERT_NEAR(h.e[1].said_s, 1.0, 1e-12);
    ASSERT_NEAR(h.e[1].full_s, full, 1e-12);
    ASSERT_EQ(h.e[2].kind, EAR_SPEECH_EVENT_START);
    ASSERT_NEAR(h.e[2].start_s, 2.0, 1e-12);
    /* the menu item is heard whole when its time is up, not before */
    double item = ear_speech_estimate_s("Next level, button, 1 of 4", 0);
    ear_speech_advance(sp, 2.0 + item - 0.01);
    ASSERT_EQ(h.n, 3);
    ear_speech_advance(sp, 2.0 + item);
    ASSERT_EQ(h.n, 4);
    ASSERT_EQ(h.e[3].kind, EAR_SPEECH_EVENT_END);
    ASSERT_NEAR(h.e[3].said_s, item, 1e-12);
    ASSERT_EQ(h.e[3].said_len, strlen("Next level, button, 1 of 4"));
    ASSERT_FALSE(ear_speech_speaking(sp));
    ear_speech_destroy(sp);
}

TEST(a_queued_line_starts_where_the_one_before_ended) {
    heard h;
    ear_speech *sp = estimated(&h);
    ASSERT_TRUE(sp != NULL);
    double a = ear_speech_estimate_s("Game over. Score 120.", 0);
    double b = ear_speech_estimate_s("Game over, menu", 0);
    double c = ear_speech_estimate_s("Retry, button, 1 of 3", 0);
    ASSERT_OK(ear_speech_speak_queued(sp, "Game over. Score 120."));
    ASSERT_OK(ear_speech_speak_queued(sp, "Game over, menu"));
    ASSERT_OK(ear_speech_speak_queued(sp, "Retry, button, 1 of 3"));
    /* one late advance: the times are the lines' own, not the frame's */
    ear_speech_advance(sp, 60.0);
    ASSERT_EQ(h.n, 6);
    const ear_speech_event_kind kinds[6] = {EAR_SPEECH_EVENT_START, EAR_SPEECH_EVENT_END,
                                            EAR_SPEECH_EVENT_START, EAR_SPEECH_EVENT_END,
                                            EAR_SPEECH_EVENT_START, EAR_SPEECH_EVENT_END};
    for (size_t i = 0; i < 6; i++) ASSERT_EQ(h.e[i].kind, kinds[i]);
    ASSERT_NEAR(h.e[2].start_s, a, 1e-12);
    ASSERT_NEAR(h.e[4].start_s, a + b, 1e-12);
    ASSERT_NEAR(h.e[5].said_s, c, 1e-12);
    ear_speech_destroy(sp);
}

TEST(notifications_progress_and_stop_follow_ssip) {
    heard h;
    ear_speech *sp = estimated(&h);
    ASSERT_TRUE(sp != NULL);
    ASSERT_OK(ear_speech_say(sp, "first news", EAR_SPEECH_NOTIFICATION));
    ear_speech_advance(sp, 0.2);
    ASSERT_OK(ear_speech_say(sp, "second news", EAR_SPEECH_NOTIFICATION));
    /* the newer notification replaces the older at 0.2 s */
    ASSERT_EQ(h.n, 3);
    ASSERT_EQ(h.e[1].kind, EAR_SPEECH_EVENT_CUT);
    ASSERT_STR_EQ(h.e[1].text, "first news");
    ASSERT_NEAR(h.e[1].said_s, 0.2, 1e-12);
    /* a message cuts a notification; a notification while it is said is dropped (0 s) */
    ASSERT_OK(ear_speech_say(sp, "A message", EAR_SPEECH_MESSAGE));
    ASSERT_OK(ear_speech_say(sp, "third news", EAR_SPEECH_NOTIFICATION));
    ASSERT_EQ(h.n, 6);
    ASSERT_EQ(h.e[3].kind, EAR_SPEECH_EVENT_CUT);
    ASSERT_STR_EQ(h.e[4].text, "A message");
    ASSERT_EQ(h.e[5].kind, EAR_SPEECH_EVENT_CUT);
    ASSERT_STR_EQ(h.e[5].text, "third news");
    ASSERT_NEAR(h.e[5].said_s, 0, 1e-12);
    /* progress while busy: only the last of a series, after the message */
    ASSERT_OK(ear_speech_say(sp, "loading 10", EAR_SPEECH_PROGRESS));
    ASSERT_OK(ear_speech_say(sp, "loading 90", EAR_SPEECH_PROGRESS));
    ASSERT_EQ(h.n, 7); /* "loading 10" dropped */
    ASSERT_STR_EQ(h.e[6].text, "loading 10");
    double msg = ear_speech_estimate_s("A message", 0);
    ear_speech_advance(sp, 0.2 + msg);
    ASSERT_EQ(h.n, 9);
    ASSERT_EQ(h.e[7].kind, EAR_SPEECH_EVENT_END);
    ASSERT_STR_EQ(h.e[8].text, "loading 90");
    ASSERT_NEAR(h.e[8].start_s, 0.2 + msg, 1e-12);
    /* a message cuts progress being said; stop cuts the message, and drops a line
     * waiting behind it */
    ASSERT_OK(ear_speech_speak_queued(sp, "after"));
    ASSERT_OK(ear_speech_speak_queued(sp, "waiting"));
    ear_speech_stop(sp);
    ASSERT_EQ(h.n, 13);
    ASSERT_EQ(h.e[9].kind, EAR_SPEECH_EVENT_CUT);
    ASSERT_STR_EQ(h.e[9].text, "loading 90");
    ASSERT_EQ(h.e[10].kind, EAR_SPEECH_EVENT_START);
    ASSERT_STR_EQ(h.e[10].text, "after");
    ASSERT_EQ(h.e[11].kind, EAR_SPEECH_EVENT_CUT);
    ASSERT_STR_EQ(h.e[11].text, "after");
    ASSERT_STR_EQ(h.e[12].text, "waiting");
    ASSERT_NEAR(h.e[12].said_s, 0, 1e-12);
    ASSERT_FALSE(ear_speech_speaking(sp));
    ear_speech_destroy(sp);
}

TEST(repeats_are_lines_and_destroy_cuts_what_is_left) {
    heard h;
    ear_speech *sp = estimated(&h);
    ASSERT_TRUE(sp != NULL);
    ASSERT_OK(ear_speech_speak(sp, "Sparkle found. 2 left."));
    ASSERT_OK(ear_speech_repeat_last(sp));
    ASSERT_EQ(h.n, 3);
    ASSERT_EQ(h.e[1].kind, EAR_SPEECH_EVENT_CUT);
    ASSERT_TRUE(h.e[2].again);
    ASSERT_STR_EQ(h.e[2].text, "Sparkle found. 2 left.");
    /* muted: not said, nothing on the timeline */
    ear_speech_set_mute(sp, true);
    ASSERT_EQ(h.n, 4); /* muting stops (cuts) the repeat */
    ASSERT_OK(ear_speech_speak(sp, "unheard"));
    ASSERT_EQ(h.n, 4);
    ear_speech_set_mute(sp, false);
    ASSERT_OK(ear_speech_speak_queued(sp, "still waiting"));
    ear_speech_destroy(sp);
    ASSERT_EQ(h.n, 6);
    ASSERT_EQ(h.e[5].kind, EAR_SPEECH_EVENT_CUT);
    ASSERT_STR_EQ(h.e[5].text, "still waiting");
}

TEST(a_headless_run_times_lines_by_espeak_ng) {
    const char *result = "Level complete. Time 31.2 seconds. Score 1234.";
    double normal = 0, slow = 0, again = 0, german = 0;
    ASSERT_TRUE(ear__espeak_seconds(result, 0, "en", &normal));
    ASSERT_TRUE(ear__espeak_seconds(result, -100, "en", &slow));
    ASSERT_TRUE(ear__espeak_seconds(result, 0, "en", &again));
    ASSERT_TRUE(ear__espeak_seconds("Level geschafft. Zeit 31,2 Sekunden. Punkte 1234.", 0,
                                    "de", &german));
    /* espeak-ng 1.51 says it in 5.9 s at 175 words a minute, 12.2 s at 80 */
    ASSERT_DBL_GT(normal, 4.0);
    ASSERT_DBL_LT(normal, 8.0);
    ASSERT_NEAR(slow / normal, 175.0 / 80.0, 0.3);
    ASSERT_NEAR(again, normal, 1e-12); /* the cache: the same length */
    ASSERT_DBL_GT(german, normal);     /* "einunddreißig Komma zwei" */
    /* the estimate is within a third of it */
    ASSERT_NEAR(ear_speech_estimate_s(result, 0) / normal, 1.0, 0.34);

    /* a log_only object times lines so, at the rate and in the language set */
    heard h;
    ear_speech_config c = ear_speech_config_default();
    c.log_only = true;
    ear_speech *sp = NULL;
    ASSERT_OK(ear_speech_create(&c, &sp));
    memset(&h, 0, sizeof h);
    ear_speech_set_listener(sp, listen, &h);
    ASSERT_OK(ear_speech_speak(sp, result));
    ASSERT_NEAR(h.e[0].full_s, normal, 1e-12);
    ear_speech_set_rate(sp, -100);
    ASSERT_OK(ear_speech_speak(sp, result));
    ASSERT_NEAR(h.e[2].full_s, slow, 1e-12);
    ear_speech_set_rate(sp, 0);
    ear_speech_set_language(sp, "de");
    ASSERT_OK(ear_speech_speak(sp, "Level geschafft. Zeit 31,2 Sekunden. Punkte 1234."));
    ASSERT_NEAR(h.e[4].full_s, german, 1e-12);
    ear_speech_destroy(sp);
}

TEST_MAIN(TEST_ENTRY(the_estimate_counts_letters_digits_and_pauses),
          TEST_ENTRY(the_words_said_are_whole_words_by_the_fraction),
          TEST_ENTRY(an_interrupting_line_cuts_the_one_being_said_at_that_moment),
          TEST_ENTRY(a_queued_line_starts_where_the_one_before_ended),
          TEST_ENTRY(notifications_progress_and_stop_follow_ssip),
          TEST_ENTRY(repeats_are_lines_and_destroy_cuts_what_is_left),
          TEST_ENTRY(a_headless_run_times_lines_by_espeak_ng))
