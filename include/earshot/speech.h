/* SPDX-License-Identifier: Zlib */
/*
 * Earshot speech: messages spoken by the player's screen reader or a synthesiser, with
 * a history the player can step back through.
 *
 * One speech thread, fed by a queue, owns the output. It tries, in order:
 *   1. speech-dispatcher (libspeechd), the path screen readers take on Linux;
 *   2. espeak-ng, synthesised into memory on the speech thread and handed back as a clip
 *      that ear_speech_update plays on the stage's ui bus (EAR_BUS_UI) on the game
 *      thread (so only the game thread talks to the stage);
 *   3. the console (each message printed as a line).
 * Messages sent while the thread is still starting wait in the queue and are not lost.
 * ear_speech_speak interrupts what is being said; ear_speech_speak_queued waits its
 * turn; ear_speech_say takes any of the screen readers' priorities (SSIP's, see
 * ear_speech_priority). ear_speech_say_char and ear_speech_say_key echo typing the way
 * the player's screen reader does. History (the last 100 messages, with a review cursor
 * that steps back and forth), mute and echo live on the game thread.
 *
 * When speech-dispatcher goes away while the game runs, the thread notices (at the next
 * message, or within a quarter of a second when idle), says the last message again on
 * the next output of the chain and stays there; a new speech object tries the daemon
 * again. Each message is also written to the braille display when BrlAPI (brltty) is
 * reachable; the display's panning keys move through a message longer than it.
 *
 * With outputs set to EAR_SPEECH_OUTPUT_LOG no thread is started: messages only go to
 * the history (headless runs and tests read it).
 *
 * Inside, one game side implements these calls over a table of backends, one file each
 * (src/speech/speech_internal.h); the web build's table holds the page's live regions.
 */
#ifndef EARSHOT_SPEECH_H
#define EARSHOT_SPEECH_H

#include "earshot/core.h"
#include "earshot/stage.h"

#ifdef __cplusplus
extern "C" {
#endif

#define EAR_SPEECH_HISTORY  100  /* messages kept for repeat and review */
#define EAR_SPEECH_TEXT_MAX 1024 /* longest message in bytes; longer ones are cut */

typedef enum ear_speech_output {
    EAR_SPEECH_OUTPUT_NONE = 0,   /* not decided yet (the thread is starting) */
    EAR_SPEECH_OUTPUT_DISPATCHER, /* speech-dispatcher */
    EAR_SPEECH_OUTPUT_ESPEAK,     /* espeak-ng into the stage */
    EAR_SPEECH_OUTPUT_CONSOLE,    /* printed lines */
    EAR_SPEECH_OUTPUT_LOG,        /* history only, no thread */
    /* The web build: the page's ARIA live regions (src/speech/speech_web.c). */
    EAR_SPEECH_OUTPUT_LIVE_REGION,
    /* Windows (docs/windows.md): NVDA through its controller client; SAPI 5's voices. */
    EAR_SPEECH_OUTPUT_NVDA,
    EAR_SPEECH_OUTPUT_SAPI,
} ear_speech_output;

/* "none", "speech-dispatcher", "espeak-ng", "console", "log", "live-region", "nvda",
 * "sapi"; "unknown" otherwise. Thread: any. */
const char *ear_speech_output_name(ear_speech_output output);

/* How a message meets what is already being said. Each is one of SSIP's priorities (the
 * speech-dispatcher protocol screen readers use), so the game's speech and the screen
 * reader's own arbitrate the way the player knows; espeak-ng follows the same rules on
 * the stage; the console prints every message. */
typedef enum ear_speech_priority {
    /* Menu navigation, answers to a key: cancels everything this game has said or
     * queued, then SSIP "important" (said at once, not cut by other clients' speech). */
    EAR_SPEECH_INTERRUPT = 0,
    /* Messages in play: SSIP "message", said after what is queued, in order; cancels
     * waiting text, notifications and progress. */
    EAR_SPEECH_MESSAGE,
    /* Text the player reads: SSIP "text", waits for messages; a newer text replaces an
     * older one that is still waiting or being said. */
    EAR_SPEECH_TEXT,
    /* Repeated, unimportant news: SSIP "notification", said only when nothing else is
     * waiting or being said, and a newer one replaces it: they never pile up. */
    EAR_SPEECH_NOTIFICATION,
    /* Progress ("loading 40 %"): SSIP "progress", dropped while something else is being
     * said, except the last of a series, which is always said. */
    EAR_SPEECH_PROGRESS,
} ear_speech_priority;

/* "important", "message", "text", "notification", "progress" (the SSIP names), or
 * "unknown". Thread: any. */
const char *ear_speech_priority_name(ear_speech_priority priority);

/* Which punctuation the voice says. EAR_SPEECH_PUNCT_PLAYER keeps the player's own
 * setting (speech-dispatcher's DefaultPunctuationMode; espeak-ng's default, none). */
typedef enum ear_speech_punctuation {
    EAR_SPEECH_PUNCT_PLAYER = 0,
    EAR_SPEECH_PUNCT_NONE,
    EAR_SPEECH_PUNCT_SOME,
    EAR_SPEECH_PUNCT_MOST,
    EAR_SPEECH_PUNCT_ALL,
} ear_speech_punctuation;

/* "player", "none", "some", "most", "all"; "unknown" otherwise. Thread: any. */
const char *ear_speech_punctuation_name(ear_speech_punctuation punctuation);
/* The value of a name above (EAR_E_NOT_FOUND for any other; *out untouched then).
 * Thread: any. */
ear_result ear_speech_punctuation_parse(const char *name, ear_speech_punctuation *out);

/* Receives each line the console output (and echo) writes: the message without a
 * newline. Called on the speech thread (console output) or the game thread (echo). */
typedef void (*ear_speech_line_fn)(void *user, const char *text);

typedef struct ear_speech_config {
    const char *client_name; /* the name speech-dispatcher shows; default "earshot" */
    bool log_only;           /* default false; true: no thread, history only */
    bool skip_dispatcher;    /* default false: try speech-dispatcher first */
    bool skip_espeak;        /* default false: then espeak-ng (needs a stage) */
    /* The speech-dispatcher socket; default NULL: libspeechd's default (its environment
     * SPEECHD_ADDRESS or the user's runtime socket). */
    const char *dispatcher_socket;
    bool dispatcher_autospawn; /* default false: never start a daemon */
    /* The stage espeak-ng speaks on (borrowed; must outlive the speech object). NULL:
     * espeak-ng is skipped, since nobody would hear it. */
    ear_stage *stage;
    float espeak_volume; /* linear volume of espeak-ng's voice; 0 means 1 */
    bool mute;           /* default false */
    bool echo;           /* default false: also write each message as a line */
    /* The game's own voice settings (its settings menu). Each applies only when set;
     * unset, the player's speech-dispatcher defaults are left alone (nothing is sent). */
    const char *voice; /* default NULL: the player's voice */
    bool use_rate;     /* default false: the player's rate */
    int rate;          /* -100 (slowest) .. 100 (fastest), when use_rate; default 0 */
    bool use_volume;   /* default false: the player's volume */
    int volume;        /* -100 .. 100 (SSIP's scale), when use_volume; default 0 */
    ear_speech_punctuation punctuation; /* default EAR_SPEECH_PUNCT_PLAYER */
    /* Braille: each message is also written to the display brltty drives (BrlAPI).
     * braille_host default NULL: BrlAPI's default (BRLAPI_HOST, else the local
     * ":0"); skip_braille default false. An unreachable brltty is not an error. */
    bool skip_braille;
    const char *braille_host;
    /* Where console lines and echo go; default NULL: stdout. */
    ear_speech_line_fn line_fn;
    void *line_user;
} ear_speech_config;

/* The defaults above. Thread: any. */
ear_speech_config ear_speech_config_default(void);

typedef struct ear_speech ear_speech;

/* Creates the speech object and starts its thread (unless log_only). Returns at once;
 * the thread picks its output in the background. config NULL: defaults (the copied
 * strings are owned by the object). Fails with EAR_E_OUT_OF_MEMORY or EAR_E_STATE (the
 * thread could not start); *out_speech untouched then. Thread: game. */
ear_result ear_speech_create(const ear_speech_config *config, ear_speech **out_speech);

/* Stops the thread (what is queued is dropped; the current message is cancelled) and
 * frees everything. Stops the espeak-ng voice on the stage. NULL does nothing.
 * Thread: game. */
void ear_speech_destroy(ear_speech *speech);

/* Says text (copied; cut at EAR_SPEECH_TEXT_MAX - 1 bytes), interrupting whatever is
 * being said, and adds it to the history. While muted the message goes to the history
 * only. EAR_E_INVALID_ARG for NULL. Thread: game. */
ear_result ear_speech_speak(ear_speech *speech, const char *text);
/* Says text after everything already queued (EAR_SPEECH_MESSAGE). Thread: game. */
ear_result ear_speech_speak_queued(ear_speech *speech, const char *text);
/* Says text with a priority (see ear_speech_priority; speak is EAR_SPEECH_INTERRUPT,
 * speak_queued EAR_SPEECH_MESSAGE). Progress messages do not enter the history; the
 * others do. EAR_E_INVALID_ARG for NULL or an unknown priority. Thread: game. */
ear_result ear_speech_say(ear_speech *speech, const char *text, ear_speech_priority priority);
/* Says one character the way the player's screen reader spells it (SSIP CHAR: the
 * player's voice says "space", "exclamation", "capital A" as its settings say), for
 * text-input echo and single letters. utf8_char: one UTF-8 character (copied; " " is
 * sent as "space"). Interrupts like ear_speech_speak; not added to the history.
 * EAR_E_INVALID_ARG for NULL or anything but exactly one valid character.
 * Thread: game. */
ear_result ear_speech_say_char(ear_speech *speech, const char *utf8_char);
/* Says a key the way the player's screen reader names it (SSIP KEY): an SSIP key name
 * such as "a", "space", "enter", "shift_a", "control_x" (copied). Interrupts; not added
 * to the history. EAR_E_INVALID_ARG for NULL, "", or a name with spaces, quotes or
 * control characters. Thread: game. */
ear_result ear_speech_say_key(ear_speech *speech, const char *key_name);
/* Stops speaking and drops what is queued. Thread: game. */
void ear_speech_stop(ear_speech *speech);
/* Says the newest history entry again (interrupting), without adding to the history.
 * EAR_E_NOT_FOUND when the history is empty. Thread: game. */
ear_result ear_speech_repeat_last(ear_speech *speech);

/* Game-thread housekeeping, once a frame (the engine calls it in world sync): plays the
 * clips espeak-ng has finished on the stage. Thread: game. */
void ear_speech_update(ear_speech *speech);

/* Mute (messages then go to the history only), whether it is muted, and echo (each
 * message also written as a line, as config.echo). Thread: game. */
void ear_speech_set_mute(ear_speech *speech, bool mute);
bool ear_speech_muted(const ear_speech *speech);
void ear_speech_set_echo(ear_speech *speech, bool echo);

/* The output in use. Waits for the thread to choose, at most timeout_s (0: do not wait;
 * EAR_SPEECH_OUTPUT_NONE then if it has not chosen yet). Thread: game. */
ear_speech_output ear_speech_get_output(ear_speech *speech, double timeout_s);

/* Voices of the output in use, published by the thread once it has started; these wait
 * for that at most 3 seconds. The console has none. Names are owned by the object.
 * Thread: game. */
size_t ear_speech_voice_count(ear_speech *speech);
const char *ear_speech_voice_name(ear_speech *speech, size_t index);
/* Chooses a voice by name (EAR_E_NOT_FOUND when the output has no such voice). Thread: game. */
ear_result ear_speech_set_voice(ear_speech *speech, const char *name);
/* -100 (slowest) .. 100 (fastest), clamped; 0 is the output's normal rate. From now on
 * the game's rate applies instead of the player's. Thread: game. */
void ear_speech_set_rate(ear_speech *speech, int rate);
/* -100 .. 100 (SSIP's volume), clamped; the game's volume applies from now on. Thread: game. */
void ear_speech_set_volume(ear_speech *speech, int volume);
/* The punctuation the voice says. EAR_SPEECH_PUNCT_PLAYER asks speech-dispatcher for
 * the player's default again only at the next start (SSIP has no "reset"). Thread: game. */
void ear_speech_set_punctuation(ear_speech *speech, ear_speech_punctuation punctuation);

/* History, oldest first: the count (at most EAR_SPEECH_HISTORY) and the message at
 * index (NULL out of range), owned by the object, valid until the next speak. Thread: game. */
size_t ear_speech_history_count(const ear_speech *speech);
const char *ear_speech_history_at(const ear_speech *speech, size_t index);
/* Reading the history: a review cursor that starts on the newest message and goes
 * back there whenever a message enters the history. history_back moves it one message
 * older and says that one (interrupting, not added to the history); history_forward
 * one newer. At either end the cursor stays and the message there is said again, so
 * the player hears where they are: EAR_E_NOT_FOUND then (and for an empty history,
 * which says nothing). Thread: game. */
ear_result ear_speech_history_back(ear_speech *speech);
ear_result ear_speech_history_forward(ear_speech *speech);
/* The cursor's index (oldest first, as ear_speech_history_at), or
 * ear_speech_history_count when the history is empty. Thread: game. */
size_t ear_speech_history_cursor(const ear_speech *speech);

/* Messages given to speak / speak_queued since creation (repeats not counted). Thread: game. */
uint64_t ear_speech_total(const ear_speech *speech);
/* Messages the thread has handed to its output so far (for tests). Thread: any. */
uint64_t ear_speech_delivered(const ear_speech *speech);

/* Whether a braille display is connected through BrlAPI (waits for the thread to have
 * tried, after choosing its speech output, at most 3 seconds; false with log_only).
 * Thread: game. */
bool ear_speech_braille_connected(ear_speech *speech);

/* ---- Speech takes time: what is being said, and what was heard ----------------------------
 *
 * Every message, character and key the object says (not muted) is a line on a timeline:
 * it starts when nothing is said before it (at once when it interrupts), lasts its
 * length, and ends whole (heard) or is cut: by an interrupting line, a stop, a newer
 * notification, or a message over text. A line dropped before it started is cut after
 * 0 s. The clock is the caller's (ear_speech_advance; the runner gives its real clock,
 * which a headless run takes from its fixed frames, so the same run gives the same
 * times). A line's length:
 *   - log_only (headless runs): as long as espeak-ng takes to say it at the rate and in
 *     the language set (synthesised into memory, never played; cached by text, rate and
 *     voice), or the estimate below when espeak-ng is absent or skip_espeak is set;
 *   - the console, and the web build's live regions: the estimate;
 *   - speech-dispatcher: what the daemon reports (SSIP's BEGIN, END and CANCEL events):
 *     a message's line ends when the daemon says it ended and is cut when it says it was
 *     cancelled, at the clock's next advance (characters and keys, which SSIP answers
 *     without a message id, and lines said before the output was chosen: the estimate);
 *   - espeak-ng on the stage: the estimate (docs/modules/speech.md).
 */
typedef enum ear_speech_event_kind {
    EAR_SPEECH_EVENT_START = 0, /* the line begins to be said */
    EAR_SPEECH_EVENT_END,       /* it was said whole */
    EAR_SPEECH_EVENT_CUT,       /* it was cut short (said_s < full_s), or dropped (0) */
} ear_speech_event_kind;

/* "start", "end", "cut"; "unknown" otherwise. Thread: any. */
const char *ear_speech_event_name(ear_speech_event_kind kind);

typedef struct ear_speech_event {
    ear_speech_event_kind kind;
    const char *text;             /* the whole line (valid during the call) */
    ear_speech_priority priority; /* characters, keys, repeats: EAR_SPEECH_INTERRUPT */
    bool again;                   /* a repeat or a history read */
    double start_s;  /* when it began (a line dropped before it began: when dropped) */
    double said_s;   /* how much of it was said (END: full_s) */
    double full_s;   /* how long it takes whole */
    size_t said_len; /* bytes of text said whole, word by word (ear_speech_said_len) */
} ear_speech_event;

/* Called on the game thread, inside the call that started, ended or cut the line (say,
 * stop, advance, destroy). It must not call back into the speech object. */
typedef void (*ear_speech_event_fn)(void *user, const ear_speech_event *event);

/* Receives every start, end and cut from now on (NULL: none). Thread: game. */
void ear_speech_set_listener(ear_speech *speech, ear_speech_event_fn fn, void *user);
/* The clock moves to now_s (seconds; never backwards): lines whose time is up end, and
 * the next waiting line starts where the last one ended. Lines said afterwards start at
 * now_s. Thread: game. */
void ear_speech_advance(ear_speech *speech, double now_s);
/* Whether a line is being said at the clock's time. Thread: game. */
bool ear_speech_speaking(const ear_speech *speech);
/* The line being said: START with said_s and said_len so far. False when silent.
 * Thread: game. */
bool ear_speech_current(const ear_speech *speech, ear_speech_event *out);
/* The language lines are timed in ("en", "de": espeak-ng's voice for it; default "en").
 * Nothing is sent to speech-dispatcher. Thread: game. */
void ear_speech_set_language(ear_speech *speech, const char *code);

/* The documented estimate: how long a line takes at rate (-100 .. 100, 0 the normal
 * rate, as ear_speech_set_rate), in words at wpm = 80 .. 175 .. 450 words a minute
 * (espeak-ng's scale) of 60 / wpm seconds each: a letter counts a fifth of a word, a
 * digit 1.25, a comma, colon or semicolon a quarter and a sentence's end one, both only
 * when more words follow. At least 0.1 s. Thread: any. */
double ear_speech_estimate_s(const char *text, int rate);
/* How many bytes of text are said when fraction (0 .. 1) of its time has passed: the
 * whole words whose last character is within the first fraction of its characters
 * (strlen(text) at 1). Thread: any. */
size_t ear_speech_said_len(const char *text, double fraction);

/* ---- The speech duck ---------------------------------------------------------------------
 *
 * Speech that bypasses the stage (speech-dispatcher, the player's screen reader) must
 * still duck the music, so a game holds a duck rule (ear_stage_set_duck) down while it
 * speaks. The rule is one, here: a line holds it s_per_char seconds per character (UTF-8
 * characters; s_per_char 0 means EAR_SPEECH_DUCK_S_PER_CHAR), and muted speech ducks
 * nothing. */
#define EAR_SPEECH_DUCK_S_PER_CHAR 0.06

/* How long text holds the duck: its characters times s_per_char (0: the default); 0 for
 * NULL. Thread: any. */
double ear_speech_duck_hold_s(const char *text, double s_per_char);
/* Holds the stage's duck rule named rule down for ear_speech_duck_hold_s(text,
 * s_per_char), unless speech is muted (speech may be NULL: not muted). Nothing for a
 * NULL stage, rule or text, or an empty rule (EAR_OK). Otherwise
 * ear_stage_trigger_duck's result (EAR_E_NOT_FOUND for a rule the stage does not have).
 * Thread: game. */
ear_result ear_speech_duck(const ear_speech *speech, ear_stage *stage, const char *rule,
                           const char *text, double s_per_char);

/* The espeak-ng voice currently on the stage, or EAR_VOICE_NONE (also once its clip has
 * ended, from the next ear_speech_update). Thread: game. */
ear_voice_id ear_speech_stage_voice(const ear_speech *speech);

#ifdef __cplusplus
}
#endif

#endif /* EARSHOT_SPEECH_H */
