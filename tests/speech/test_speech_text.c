/* SPDX-License-Identifier: Zlib */
/*
 * The history ring and the text rules that speech.c and speech_web.c share
 * (src/speech/history.c, text.c), tested on their own: the ring's wrap, the cut at a
 * UTF-8 boundary, the strict one-character decoder, what characters and keys are
 * accepted, and the names.
 */
#include "speech_internal.h"
#include "test.h"

TEST(the_ring_keeps_the_newest_100_in_order) {
    ear__speech_history h;
    memset(&h, 0, sizeof h);
    char text[32];
    for (int i = 0; i < 250; i++) {
        snprintf(text, sizeof text, "message %d", i);
        ASSERT_OK(ear__speech_history_add(&h, text));
        ASSERT_EQ(h.review, h.count - 1);
    }
    ASSERT_EQ(h.count, EAR_SPEECH_HISTORY);
    ASSERT_U64_EQ(h.total, 250);
    ASSERT_EQ(h.start, 250 % EAR_SPEECH_HISTORY);
    /* Oldest first: 150 .. 249. */
    for (int i = 0; i < EAR_SPEECH_HISTORY; i++) {
        snprintf(text, sizeof text, "message %d", 150 + i);
        ASSERT_STR_EQ(h.items[(h.start + (size_t)i) % EAR_SPEECH_HISTORY], text);
    }
    ear__speech_history_clear(&h);
    ASSERT_EQ(h.count, 0);
    ASSERT_U64_EQ(h.total, 0);
}

TEST(copies_are_cut_before_a_split_character) {
    /* 1022 'a' and "é" (2 bytes) make 1024 bytes; the cut at 1023 would split "é". */
    char text[EAR_SPEECH_TEXT_MAX + 8];
    memset(text, 'a', 1022);
    memcpy(text + 1022, "\xC3\xA9", 3);
    ear__speech_history h;
    memset(&h, 0, sizeof h);
    ASSERT_OK(ear__speech_history_add(&h, text));
    ASSERT_EQ(strlen(h.items[0]), 1022);
    ear__speech_history_clear(&h);
    char *c = ear__speech_copy("\xE2\x82\xAC\xE2\x82\xAC", 4); /* "€€" cut at 4: "€" */
    ASSERT_STR_EQ(c, "\xE2\x82\xAC");
    free(c);
    ASSERT_NULL(ear__speech_copy(NULL, 10));
}

TEST(the_decoder_takes_only_shortest_forms_of_real_code_points) {
    uint32_t cp = 0;
    ASSERT_EQ(ear__speech_utf8_char("A", &cp), 1);
    ASSERT_EQ(cp, 0x41);
    ASSERT_EQ(ear__speech_utf8_char("\xC3\xA9", &cp), 2);
    ASSERT_EQ(cp, 0xE9);
    ASSERT_EQ(ear__speech_utf8_char("\xE2\x82\xAC", &cp), 3);
    ASSERT_EQ(cp, 0x20AC);
    ASSERT_EQ(ear__speech_utf8_char("\xF0\x9F\x98\x80", &cp), 4);
    ASSERT_EQ(cp, 0x1F600);
    ASSERT_EQ(ear__speech_utf8_char("\xF4\x8F\xBF\xBF", &cp), 4); /* U+10FFFF */
    ASSERT_EQ(cp, 0x10FFFF);
    cp = 7;
    ASSERT_EQ(ear__speech_utf8_char("", &cp), 0);
    ASSERT_EQ(ear__speech_utf8_char("\xC0\x80", &cp), 0);         /* overlong NUL */
    ASSERT_EQ(ear__speech_utf8_char("\xE0\x80\xAF", &cp), 0);     /* overlong '/' */
    ASSERT_EQ(ear__speech_utf8_char("\xF0\x8F\xBF\xBF", &cp), 0); /* overlong U+FFFF */
    ASSERT_EQ(ear__speech_utf8_char("\xED\xA0\x80", &cp), 0);     /* surrogate D800 */
    ASSERT_EQ(ear__speech_utf8_char("\xF4\x90\x80\x80", &cp), 0); /* U+110000 */
    ASSERT_EQ(ear__speech_utf8_char("\xC3", &cp), 0);             /* cut short */
    ASSERT_EQ(ear__speech_utf8_char("\x80", &cp), 0);             /* a lone continuation */
    ASSERT_EQ(ear__speech_utf8_char("\xF8\x88\x80\x80\x80", &cp), 0);
    ASSERT_EQ(cp, 7); /* untouched on failure */
}

TEST(characters_and_keys_accepted) {
    ASSERT_TRUE(ear__speech_char_valid("a"));
    ASSERT_TRUE(ear__speech_char_valid(" "));
    ASSERT_TRUE(ear__speech_char_valid("\xC3\xA4"));
    ASSERT_FALSE(ear__speech_char_valid(""));
    ASSERT_FALSE(ear__speech_char_valid("ab"));
    ASSERT_FALSE(ear__speech_char_valid("\x01"));
    ASSERT_FALSE(ear__speech_char_valid("\x7F"));
    ASSERT_FALSE(ear__speech_char_valid("\xC3"));
    ASSERT_TRUE(ear__speech_key_valid("shift_a"));
    ASSERT_TRUE(ear__speech_key_valid("\xC3\xA4"));
    ASSERT_FALSE(ear__speech_key_valid(""));
    ASSERT_FALSE(ear__speech_key_valid("a b"));
    ASSERT_FALSE(ear__speech_key_valid("a\"b"));
    ASSERT_FALSE(ear__speech_key_valid("a\tb"));
    ASSERT_FALSE(ear__speech_key_valid("\xC3("));
    char key[70];
    memset(key, 'k', 64);
    key[64] = '\0';
    ASSERT_TRUE(ear__speech_key_valid(key));
    key[64] = 'k';
    key[65] = '\0';
    ASSERT_FALSE(ear__speech_key_valid(key));
}

TEST(every_output_has_a_name_and_others_are_unknown) {
    ASSERT_STR_EQ(ear_speech_output_name(EAR_SPEECH_OUTPUT_NONE), "none");
    ASSERT_STR_EQ(ear_speech_output_name(EAR_SPEECH_OUTPUT_DISPATCHER), "speech-dispatcher");
    ASSERT_STR_EQ(ear_speech_output_name(EAR_SPEECH_OUTPUT_ESPEAK), "espeak-ng");
    ASSERT_STR_EQ(ear_speech_output_name(EAR_SPEECH_OUTPUT_LOG), "log");
    ASSERT_STR_EQ(ear_speech_output_name(EAR_SPEECH_OUTPUT_LIVE_REGION), "live-region");
    ASSERT_STR_EQ(ear_speech_output_name(EAR_SPEECH_OUTPUT_NVDA), "nvda");
    ASSERT_STR_EQ(ear_speech_output_name(EAR_SPEECH_OUTPUT_SAPI), "sapi");
    ASSERT_STR_EQ(ear_speech_output_name((ear_speech_output)42), "unknown");
    ear_speech_config c = ear_speech_config_default();
    ASSERT_STR_EQ(c.client_name, "earshot");
    ASSERT_FALSE(c.log_only);
}

TEST_MAIN(TEST_ENTRY(the_ring_keeps_the_newest_100_in_order),
          TEST_ENTRY(copies_are_cut_before_a_split_character),
          TEST_ENTRY(the_decoder_takes_only_shortest_forms_of_real_code_points),
          TEST_ENTRY(characters_and_keys_accepted),
          TEST_ENTRY(every_output_has_a_name_and_others_are_unknown))
