/* SPDX-License-Identifier: Zlib */
/*
 * The web build's backend: every line goes to the page's ARIA live regions, which the
 * player's own screen reader speaks (NVDA, JAWS, VoiceOver, Orca through the browser's
 * accessibility tree). speech-dispatcher, espeak-ng and BrlAPI have no web build; the
 * game side (speech.c: the history, the review cursor, mute, the timeline) is the
 * native one.
 *
 * Priorities: an interrupting line, characters and keys go to the assertive region (the
 * screen reader cuts what it is saying); the others to the polite region, each as a new
 * line after the ones before, so queued messages are said in order. A character is its
 * name (a live region reads a lone space as nothing: "space"), a key its words ("shift
 * a"). The page clears a region before it sets the same words again, so a repeat is
 * spoken again (web/page/earshot-web.js); stop clears both.
 *
 * The page cannot tell when the screen reader has said a line, so the timeline times each
 * line by the documented estimate at the screen reader's normal rate (players_rate): an
 * assertive line cuts what the estimate says is still being said, a polite one waits for
 * it. The screen reader's voice, rate and volume are the player's: no voices, no settings.
 */
#include "speech_internal.h"

#include <emscripten.h>

#include <stdlib.h>
#include <string.h>

/* The page's announce (web/page/earshot-web.js); nothing when there is no page (node). */
EM_JS(void, ear__web_announce, (const char *text, int assertive), {
    if (Module["earAnnounce"]) Module["earAnnounce"](UTF8ToString(text), !!assertive);
})
EM_JS(void, ear__web_announce_stop, (void), {
    if (Module["earAnnounceStop"]) Module["earAnnounceStop"]();
})

static ear__speech_sent_result say(ear_speech *sp, void *state, const ear__speech_cmd *c) {
    (void)sp, (void)state;
    char words[128];
    const char *shown = ear__speech_shown(c->what, c->text, true, words, sizeof words);
    bool assertive = c->priority == EAR_SPEECH_INTERRUPT || c->what != EAR__SAY_TEXT;
    ear__web_announce(shown, assertive ? 1 : 0);
    return EAR__SENT_OK;
}

static ear__speech_sent_result apply(ear_speech *sp, void *state, const ear__speech_cmd *c) {
    (void)sp, (void)state;
    if (c->kind == EAR__CMD_STOP) ear__web_announce_stop();
    return EAR__SENT_OK;
}

const ear__speech_backend ear__speech_backend_web = {
    .name = "live-region",
    .output = EAR_SPEECH_OUTPUT_LIVE_REGION,
    .usable = NULL, /* always */
    .open = NULL,   /* no state, no voices */
    .close = NULL,
    .say = say,
    .apply = apply,
    .alive = NULL,
    .replays = false,
    .reports = false,
    .players_rate = true,
};
