/* SPDX-License-Identifier: Zlib */
/*
 * earshot-demo: the demo game's process. A window and the sound card when there are a
 * display and a sound card; otherwise (or with --headless / --autoplay) a headless run
 * that this file drives frame by frame: script keys or the hearing bot's keys go in, the
 * stage's output comes out (to the bot, the WAV, the plot and the audio hash).
 */
#define _DEFAULT_SOURCE
#include "bot.h"
#include "demo.h"
#include <cli_game.h>    /* examples/: the front end's shared parts */
#include <cli_options.h> /* examples/: --help, --version, --script, shared */
#include <plot.h>        /* tools/earshot: the SVG writer, reused */

#include "earshot/hrtf.h"
#include "earshot/wav.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef DEMO_ASSETS
#define DEMO_ASSETS "assets"
#endif

static const char usage_text[] =
    "usage: earshot-demo [options]\n"
    "  Three Errands, Earshot's demo game, played by ear.\n"
    "  --window            a window (SDL2) even without a sound card or display check\n"
    "  --headless          no window: frames run as fast as they can (keys from --script)\n"
    "  --script FILE       keys (\"<frame> press|down|up KEY\", \"<frame> quit\"); a\n"
    "                      window run takes them too\n"
    "  --autoplay          headless, played by the bot that only hears\n"
    "  --record FILE       record the run's input and hashes per step\n"
    "  --replay FILE       play a recording back, checking every step's hashes\n"
    "  --speech-log FILE   what was heard: \"<start s>\\t<text>\\theard\" for each line\n"
    "                      said whole, \"...\\tcut <said s>/<full s>\" for one cut short\n"
    "  --level N           start straight in level N (1..3)\n"
    "  --map FILE          with --level N: level N's map from FILE (the game's tile\n"
    "                      characters, every line the map)\n"
    "  --all               autoplay: play on through every level\n"
    "  --lang CODE         en or de\n"
    "  --save PATH         the save file (settings and progress, encrypted; a window run\n"
    "                      defaults to $XDG_DATA_HOME/earshot/three-errands.save,\n"
    "                      %APPDATA%\\Earshot\\three-errands.save on Windows)\n"
    "  --seconds S         stop after S seconds of frames (the window close path)\n"
    "  --wav FILE          headless: write what was heard\n"
    "  --plot FILE         headless: an SVG picture of it\n"
    "  --bot-log FILE      autoplay: the bot's own log of what it heard and did\n"
    "  --bot-keys FILE     autoplay: the bot's keys as a --script (\"<frame> down KEY\")\n"
    "  --pad               autoplay: the bot plays with a gamepad (D-pad, stick, triggers,\n"
    "                      A and B) instead of the keyboard\n"
    "  --assets DIR        the sounds folder's parent (default: the build's)\n"
    "  --headphones        3D sound (HRTF) on headphones, whatever the save says\n"
    "  --no-headphones     panned sound, whatever the save says\n"
#ifdef _WIN32
    "  --hrtf FILE         the HRTF set (SOFA) for headphones (default: hrtf\\default.sofa\n"
    "                      in the assets folder, the MIT KEMAR set the game ships)\n"
#else
    "  --hrtf FILE         the HRTF set (SOFA) for headphones (default:\n"
    "                      " EAR_HRTF_DEFAULT_PATH ", Debian's libmysofa1)\n"
#endif
    "  --help, --version\n"
    "Keys: arrows walk and turn (drive in the car), C facing, W where am I, T time and\n"
    "score, S speed, K keys, F1 repeat, H history, Escape pause.\n";

/* The headphones' HRTF set: the SOFA file through the audio/hrtf loader (libmysofa),
 * made for the stage's rate, handed to the stage (which copies it) and freed. */
static ear_result load_hrtf(void *user, ear_stage *stage, char *why, size_t cap) {
    const char *path = user;
    ear_hrtf_config hc = ear_hrtf_config_default();
    hc.sample_rate = ear_stage_get_config(stage).sample_rate;
    ear_hrtf_set *set = NULL;
    ear_hrtf_error err = {{0}, 0};
    ear_result r = ear_hrtf_load(path, &hc, &set, &err);
    if (r != EAR_OK) {
        const char *m = err.message[0] ? err.message : ear_result_string(r);
        if (strncmp(m, "hrtf: ", 6) == 0) m += 6; /* the module's name: not for the player */
        snprintf(why, cap, "%s.", m);
        return r;
    }
    ear_stage_hrtf view = ear_hrtf_stage_view(set);
    r = ear_stage_set_hrtf(stage, &view);
    ear_hrtf_free(set);
    if (r != EAR_OK)
        snprintf(why, cap, "%s: the stage refused the set (%s).", path, ear_result_string(r));
    return r;
}

typedef struct run {
    FILE *speech_log;
    bool echo;
    bot *bot;
} run;

/* A log this run may replace: an empty file, or one whose first line is this log's
 * ("<seconds>.<cs>\t" for the speech log, "bot " for the bot's, "<frame> " and a key
 * action for the bot's keys). Any other file is kept (core's safe write, core.md). */
static bool is_log(int fd, void *user) {
    char head[16];
    ssize_t n = read(fd, head, sizeof head);
    if (n == 0) return true;
    if (n < 0) return false;
    char kind = user ? *(const char *)user : 's';
    if (kind == 'b') return n >= 4 && memcmp(head, "bot ", 4) == 0;
    if (kind != 'k') return cli_looks_like_speech_log(head, (size_t)n);
    ssize_t i = 0;
    while (i < n && head[i] >= '0' && head[i] <= '9') i++;
    return i > 0 && i + 3 < n && head[i] == ' ' &&
           (!memcmp(head + i + 1, "do", 2) || !memcmp(head + i + 1, "up", 2) ||
            !memcmp(head + i + 1, "pr", 2));
}

/* Opens one of the run's logs (cli_open_log): a speech log, the bot's log or its keys. */
static FILE *open_log(ear_file_writer *w, const char *flag, const char *path, char kind) {
    static const char kinds[] = "sbk";
    return cli_open_log(w, "earshot-demo", flag, path, is_log,
                        (void *)(kinds + (kind == 'b'   ? 1
                                          : kind == 'k' ? 2
                                                        : 0)),
                        kind == 'b'   ? "a bot log"
                        : kind == 'k' ? "a bot keys script"
                                      : "a speech log");
}

static bool close_log(ear_file_writer *w, const char *flag) {
    return cli_close_log(w, "earshot-demo", flag);
}

/* A line whose fate is known. The log says what was heard: "<start s>\t<text>\theard",
 * or "cut <said s>/<full s>" for a line cut short (0.00 for one dropped before it began).
 * The bot hears what a player heard: a whole line when it was said whole, the words said
 * before the cut of a cut one (none: an empty line, speech that began), nothing of a
 * dropped one. */
static void on_line(void *user, const ear_speech_event *e) {
    run *r = user;
    char fate[48];
    cli_speech_fate(e, fate, sizeof fate);
    cli_speech_log_line(r->speech_log, e);
    if (r->echo) printf("%7.2f  %s  [%s]\n", e->start_s, e->text, fate);
    /* a line cut before its first word is still heard as speech that began: an empty
     * line (the bot in the car stops to listen) */
    if (r->bot && (e->said_len > 0 || e->said_s > 0)) {
        char said[EAR_SPEECH_TEXT_MAX];
        size_t n = e->said_len < sizeof said ? e->said_len : sizeof said - 1;
        memcpy(said, e->text, n);
        said[n] = '\0';
        bot_hear_line(r->bot, said);
    }
}

/* The bot's gamepad: what it holds now, so only changes become events. */
typedef struct bot_pad {
    bool up, down;
    int16_t x, gas, brake;
} bot_pad;

static void pad_line(FILE *out, uint64_t frame, const char *what, const char *name, int16_t v,
                     bool axis) {
    if (!out) return;
    if (!name[0])
        fprintf(out, "%llu %s\n", (unsigned long long)frame, what);
    else if (axis)
        fprintf(out, "%llu %s %s %.4f\n", (unsigned long long)frame, what, name,
                v < 0 ? v / 32768.0 : v / 32767.0);
    else
        fprintf(out, "%llu %s %s\n", (unsigned long long)frame, what, name);
}

static void pad_button(ear_runner *rn, FILE *out, uint64_t frame, ear_pad_button b, bool *held,
                       bool want) {
    if (*held == want) return;
    ear_runner_pad_button(rn, 0, b, want);
    pad_line(out, frame, want ? "pad_down" : "pad_up", ear_pad_button_name(b), 0, false);
    *held = want;
}

static void pad_axis(ear_runner *rn, FILE *out, uint64_t frame, ear_pad_axis a, int16_t *now,
                     int16_t want) {
    if (*now == want) return;
    ear_runner_pad_axis(rn, 0, a, want);
    pad_line(out, frame, "pad_axis", ear_pad_axis_name(a), want, true);
    *now = want;
}

/* The bot's keys as a gamepad's controls: on foot the D-pad walks and the stick turns;
 * in the car the triggers are gas and brake and the stick steers; taps are A (Enter),
 * B (Escape) and the D-pad. Every value is a full push, so the game moves exactly as it
 * does for the keys. */
static void play_pad(ear_runner *rn, const bot_keys *k, bool driving, bot_pad *p,
                     uint64_t frame, FILE *out) {
    bool up = k->held[EAR_KEY_UP], down = k->held[EAR_KEY_DOWN];
    int16_t x =
        (int16_t)((k->held[EAR_KEY_RIGHT] ? 32767 : 0) - (k->held[EAR_KEY_LEFT] ? 32767 : 0));
    if (k->held[EAR_KEY_LEFT] && !k->held[EAR_KEY_RIGHT]) x = -32768;
    pad_button(rn, out, frame, EAR_PAD_DPAD_UP, &p->up, up && !driving);
    pad_button(rn, out, frame, EAR_PAD_DPAD_DOWN, &p->down, down && !driving);
    pad_axis(rn, out, frame, EAR_PAD_LEFT_X, &p->x, x);
    pad_axis(rn, out, frame, EAR_PAD_RIGHT_TRIGGER, &p->gas, up && driving ? 32767 : 0);
    pad_axis(rn, out, frame, EAR_PAD_LEFT_TRIGGER, &p->brake, down && driving ? 32767 : 0);
    for (size_t t = 0; t < k->tap_count; t++) {
        ear_pad_button b = k->taps[t] == EAR_KEY_ENTER    ? EAR_PAD_A
                           : k->taps[t] == EAR_KEY_ESCAPE ? EAR_PAD_B
                           : k->taps[t] == EAR_KEY_UP     ? EAR_PAD_DPAD_UP
                           : k->taps[t] == EAR_KEY_DOWN   ? EAR_PAD_DPAD_DOWN
                                                          : EAR_PAD_BUTTON_COUNT;
        if (b == EAR_PAD_BUTTON_COUNT) { /* no button for it: the key, and a note */
            ear_log(EAR_LOG_WARN, "demo", "the bot's %s has no pad button: pressed as a key",
                    ear_key_name(k->taps[t]));
            ear_runner_key_down(rn, k->taps[t]);
            ear_runner_key_up(rn, k->taps[t]);
            continue;
        }
        ear_runner_pad_button(rn, 0, b, true);
        ear_runner_pad_button(rn, 0, b, false);
        pad_line(out, frame, "pad_press", ear_pad_button_name(b), 0, false);
    }
}

/* What the demo's headless run does around the shared frame loop (cli_run_headless): the
 * bot's keys or gamepad go in each frame, its ears take each frame's output, the audio
 * hash goes into the game's state, and --wav or --plot keep the whole output. */
typedef struct headless_run {
    demo *d;
    bot *bot;
    bool pad, capture;
    FILE *keys_out;
    bool held[EAR_KEY_COUNT];
    bot_pad pad_state;
    float *audio;
    size_t audio_frames, audio_cap;
} headless_run;

static void on_close(void *user) {
    demo_close(((headless_run *)user)->d);
}

static void on_input(void *user, ear_runner *rn, uint64_t frame) {
    headless_run *h = user;
    if (!h->bot) return;
    bot_keys k;
    bot_hear_speaking(h->bot, ear_speech_speaking(ear_ctx_speech(ear_runner_ctx(rn))));
    if (h->pad) {
        if (frame == 0) {
            ear_runner_pad_added(rn, 0, true);
            pad_line(h->keys_out, frame, "pad_connect", "", 0, false);
        }
        bot_decide(h->bot, &k);
        play_pad(rn, &k, demo_driving(h->d), &h->pad_state, frame, h->keys_out);
        return;
    }
    bot_decide(h->bot, &k);
    for (int key = 1; key < EAR_KEY_COUNT; key++) {
        bool down = k.held[key] && !h->held[key], up = !k.held[key] && h->held[key];
        if (down) ear_runner_key_down(rn, (ear_key)key);
        if (up) ear_runner_key_up(rn, (ear_key)key);
        if (h->keys_out && (down || up))
            fprintf(h->keys_out, "%llu %s %s\n", (unsigned long long)frame,
                    down ? "down" : "up", ear_key_name((ear_key)key));
        h->held[key] = k.held[key];
    }
    for (size_t t = 0; t < k.tap_count; t++) {
        ear_runner_key_down(rn, k.taps[t]);
        ear_runner_key_up(rn, k.taps[t]);
        if (h->keys_out)
            fprintf(h->keys_out, "%llu press %s\n", (unsigned long long)frame,
                    ear_key_name(k.taps[t]));
    }
}

static void on_audio(void *user, const float *stereo, uint32_t frames, uint64_t audio_hash) {
    headless_run *h = user;
    const uint32_t rate = 48000;
    demo_set_audio_hash(h->d, audio_hash);
    if (h->bot) bot_hear_audio(h->bot, stereo, frames, rate);
    if (!h->capture) return;
    if (h->audio_frames + frames > h->audio_cap) {
        size_t cap = h->audio_cap ? h->audio_cap * 2 : (size_t)rate * 16;
        float *grown = realloc(h->audio, cap * 2 * sizeof *grown);
        if (grown) {
            h->audio = grown;
            h->audio_cap = cap;
        }
    }
    if (h->audio_frames + frames <= h->audio_cap) {
        memcpy(h->audio + h->audio_frames * 2, stereo, (size_t)frames * 2 * sizeof *stereo);
        h->audio_frames += frames;
    }
}

int main(int argc, char **argv) {
    bool headless = false, autoplay = false, all = false, choose_mode = true, pad = false;
    const char *script_path = NULL, *record = NULL, *replay = NULL, *speech_path = NULL;
    const char *lang = NULL, *save = NULL, *wav = NULL, *svg = NULL;
    const char *assets = DEMO_ASSETS, *bot_log_path = NULL, *bot_keys_path = NULL;
    const char *hrtf_path = EAR_HRTF_DEFAULT_PATH, *map_path = NULL;
    int level = 0, headphones = 0;
    double seconds = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool v = i + 1 < argc;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            return cli_print_help(usage_text);
        } else if (!strcmp(a, "--version")) {
            return cli_print_version("earshot-demo");
        } else if (!strcmp(a, "--headless")) {
            headless = true;
            choose_mode = false;
        } else if (!strcmp(a, "--autoplay")) {
            headless = autoplay = true;
            choose_mode = false;
        } else if (!strcmp(a, "--window")) {
            choose_mode = false; /* a window whatever the machine has */
        } else if (!strcmp(a, "--pad")) {
            pad = true;
        } else if (!strcmp(a, "--all")) {
            all = true;
        } else if (!strcmp(a, "--script") && v) {
            script_path = argv[++i];
        } else if (!strcmp(a, "--record") && v) {
            record = argv[++i];
        } else if (!strcmp(a, "--replay") && v) {
            replay = argv[++i];
            headless = true;
            choose_mode = false;
        } else if (!strcmp(a, "--speech-log") && v) {
            speech_path = argv[++i];
        } else if (!strcmp(a, "--level") && v) {
            level = atoi(argv[++i]);
            if (level < 1 || level > DEMO_LEVELS) {
                fprintf(stderr, "earshot-demo: --level %s: expected 1 to %d\n", argv[i],
                        DEMO_LEVELS);
                return 2;
            }
        } else if (!strcmp(a, "--map") && v) {
            map_path = argv[++i];
        } else if (!strcmp(a, "--lang") && v) {
            lang = argv[++i];
            if (strcmp(lang, "en") && strcmp(lang, "de")) {
                fprintf(stderr, "earshot-demo: --lang %s: expected en or de\n", lang);
                return 2;
            }
        } else if (!strcmp(a, "--save") && v) {
            save = argv[++i];
        } else if (!strcmp(a, "--seconds") && v) {
            char *end;
            seconds = strtod(argv[++i], &end);
            if (*end || !(seconds > 0) || seconds > 86400) {
                fprintf(stderr, "earshot-demo: --seconds %s: expected a number of seconds\n",
                        argv[i]);
                return 2;
            }
        } else if (!strcmp(a, "--bot-log") && v) {
            bot_log_path = argv[++i];
        } else if (!strcmp(a, "--bot-keys") && v) {
            bot_keys_path = argv[++i];
        } else if (!strcmp(a, "--wav") && v) {
            wav = argv[++i];
        } else if (!strcmp(a, "--plot") && v) {
            svg = argv[++i];
        } else if (!strcmp(a, "--assets") && v) {
            assets = argv[++i];
        } else if (!strcmp(a, "--headphones")) {
            headphones = 1;
        } else if (!strcmp(a, "--no-headphones")) {
            headphones = -1;
        } else if (!strcmp(a, "--hrtf") && v) {
            hrtf_path = argv[++i];
        } else {
            fprintf(stderr, "earshot-demo: %s: unknown option\n%s", a, usage_text);
            return 2;
        }
    }
    if (choose_mode) {
        bool display = cli_have_display(), card = cli_have_sound_card();
        if (display && card) {
            printf("mode: window and sound card (a display and a sound card were found)\n");
        } else {
            headless = autoplay = true;
            printf("mode: autoplay (%s): the bot that only hears plays level %d\n",
                   !display ? "no display: DISPLAY and WAYLAND_DISPLAY are unset"
                            : "no sound card in /dev/snd",
                   level ? level : 1);
            /* no WAV or SVG unless asked (--wav, --plot): `make run` asks for them in the
             * build folder; a run started anywhere else leaves the working folder alone */
        }
        fflush(stdout);
    }
    if (autoplay && !level) level = 1;
    if (map_path && !level) {
        fprintf(stderr, "earshot-demo: --map %s: needs --level N (the level it replaces)\n",
                map_path);
        return 2;
    }

    run r = {0};
    ear_file_writer speech_out = {.fd = -1}, bot_out = {.fd = -1}, keys_out = {.fd = -1};
    if (speech_path &&
        !(r.speech_log = open_log(&speech_out, "--speech-log", speech_path, 's')))
        return 1;
    r.echo = autoplay;
    FILE *bot_log = bot_log_path ? open_log(&bot_out, "--bot-log", bot_log_path, 'b') : NULL;
    if (bot_log_path && !bot_log) {
        ear_file_write_abort(&speech_out);
        return 1;
    }
    /* the bot's keys as a script another run can play (tests/game/heard.sh walks level 1
     * to its goal by them, with the speech at any rate) */
    FILE *bot_keys_out =
        bot_keys_path ? open_log(&keys_out, "--bot-keys", bot_keys_path, 'k') : NULL;
    if (bot_keys_path && !bot_keys_out) {
        ear_file_write_abort(&speech_out);
        ear_file_write_abort(&bot_out);
        return 1;
    }
    if (autoplay && !replay) r.bot = bot_create(all, bot_log);

    ear_script script = {0};
    if (script_path && !cli_load_script("earshot-demo", script_path, &script)) return 2;

    /* A window run keeps its save in the user's data folder unless --save says where;
     * headless runs keep none unless asked (tests, smoke runs). */
    char default_save[1024];
    if (!save && !headless && cli_user_data_folder(NULL, default_save, sizeof default_save) &&
        strlen(default_save) + sizeof "/three-errands.save" <= sizeof default_save) {
        strcat(default_save, "/three-errands.save");
        save = default_save;
    }
    demo_options o = {0};
    o.save_path = save;
    o.language = lang;
    o.start_level = level;
    o.assets_dir = assets;
    if (map_path) o.map_files[level - 1] = map_path;
    o.on_line = on_line;
    o.line_user = &r;
    o.load_hrtf = load_hrtf;
#ifdef _WIN32
    /* The set the game ships, in its assets folder (wherever --assets puts that). */
    char shipped_hrtf[1024];
    if (!strcmp(hrtf_path, EAR_HRTF_DEFAULT_PATH)) {
        snprintf(shipped_hrtf, sizeof shipped_hrtf, "%s/hrtf/default.sofa", assets);
        hrtf_path = shipped_hrtf;
    }
#endif
    o.hrtf_user = (void *)(uintptr_t)hrtf_path; /* read only */
    o.headphones = headphones;
    demo *d = demo_create(&o);
    ear_ui *ui = NULL;
    if (!d || ear_ui_create(NULL, &ui) != EAR_OK) {
        fprintf(stderr, "earshot-demo: out of memory\n");
        return 1;
    }
    if (r.bot) {
        /* The bot listens in the language the game speaks: the words from its table. */
        const char *keys[] = {"menu.complete",
                              "menu.gameover",
                              "menu.play",
                              "menu.next",
                              "menu.exit",
                              "menu.retry",
                              "hint.follow",
                              "hint.car",
                              demo_level_title_key(d, 1),
                              demo_level_title_key(d, 2),
                              demo_level_title_key(d, 3)};
        char words[11][96];
        for (int k = 0; k < 11; k++)
            demo_text(d, demo_language(d), keys[k], words[k], sizeof words[k]);
        bot_words w = {words[0], words[1], words[2],
                       words[3], words[4], words[5],
                       words[6], words[7], {words[8], words[9], words[10]}};
        bot_set_words(r.bot, &w);
    }
    ear_engine_config cfg = ear_engine_config_default("Three Errands");
    demo_configure(d, &cfg);
    ear_ui_attach(ui, &cfg);
    cfg.record_path = record;
    cfg.replay_path = replay;
    ear_scene scene = demo_scene(d);
    int code = 0;

    if (!headless) {
        /* A window run takes the script and --seconds too (a smoke run under SDL's dummy
         * video and disk audio drivers): the end of either is the window's close. */
        if (script_path) cfg.script = &script;
        if (seconds > 0) cfg.frames = cli_seconds_to_frames(seconds, cfg.frame_hz);
        ear_result res = ear_engine_run(&cfg, &scene);
        code = res == EAR_OK ? 0 : 1;
        if (res == EAR_E_UNSUPPORTED) fprintf(stderr, "earshot-demo: no display\n");
    } else {
        cfg.backend = EAR_BACKEND_HEADLESS;
        cfg.audio_attach = NULL;
        cfg.audio_update = NULL;
        cfg.audio_detach = NULL;
        ear_runner *rn = NULL;
        ear_result res = ear_runner_create(&cfg, &scene, &rn);
        if (res != EAR_OK) {
            /* A refused --record or --replay (a FIFO, a foreign file) ends here: everything
             * made so far is freed, and no log is left half made. */
            fprintf(stderr, "earshot-demo: the game could not start: %s\n",
                    ear_result_string(res));
            ear_file_write_abort(&speech_out);
            ear_file_write_abort(&bot_out);
            ear_file_write_abort(&keys_out);
            bot_destroy(r.bot);
            demo_destroy(d);
            ear_ui_destroy(ui);
            ear_script_free(&script);
            return 1;
        }
        uint64_t max_frames = seconds > 0 ? cli_seconds_to_frames(seconds, 60.0) : 0;
        if (autoplay && !max_frames) max_frames = 60 * (all ? 600 : 240);
        headless_run hr = {
            .d = d, .bot = r.bot, .pad = pad, .keys_out = bot_keys_out, .capture = wav || svg};
        cli_headless_hooks hooks = {
            .user = &hr, .close = on_close, .input = on_input, .audio = on_audio};
        cli_headless_result out = {0};
        if (!cli_run_headless("earshot-demo", rn, &script, replay != NULL, max_frames, &hooks,
                              &out))
            code = 1;
        ear_stage *stage = ear_ctx_stage(ear_runner_ctx(rn));
        const uint32_t rate = 48000;
        float *all_audio = hr.audio;
        size_t audio_frames = hr.audio_frames;
        uint64_t frames = ear_runner_frames(rn), steps = ear_runner_steps(rn);
        uint64_t spoken = ear_speech_total(ear_ctx_speech(ear_runner_ctx(rn)));
        uint64_t voices = ear_world_get_stats(ear_ctx_world(ear_runner_ctx(rn))).started;
        uint64_t mismatch = ear_runner_replay_mismatch(rn);
        const ear_pad *pad0 = &ear_ctx_input(ear_runner_ctx(rn))->pads[0];
        bool pad_seen = pad0->connected || pad0->rumble_count;
        uint32_t pad_rumbles = pad0->rumble_count;
        /* how the stage placed the voices at the end, and each level's room */
        ear_stage_hrtf_info hi;
        if (ear_stage_get_hrtf(stage, &hi) == EAR_OK)
            printf("spatializer: %s loaded=%s directions=%u taps=%u source=%s\n",
                   hi.spatializer == EAR_SPATIALIZER_HRTF ? "hrtf" : "pan",
                   hi.loaded ? "yes" : "no", hi.count, hi.taps, hi.loaded ? hi.source : "-");
        for (size_t i = 0; demo_room_at(d, i); i++) printf("room: %s\n", demo_room_at(d, i));
        /* The recording (and the runner's save) written, or the run's failure. */
        if (ear_runner_finish(rn) != EAR_OK) code = 1;
        ear_runner_destroy(rn);
        if (replay && mismatch != UINT64_MAX) {
            fprintf(stderr, "earshot-demo: the replay diverged at step %llu\n",
                    (unsigned long long)mismatch);
            code = 1;
        }
        if (wav && audio_frames) {
            /* A WAV Earshot wrote is replaced; any other file is kept. */
            ear_wav_write_config wc = ear_wav_write_config_default();
            ear_io_error err = {0};
            if (ear_wav_write_with(wav, all_audio, audio_frames, 2, rate, &wc, &err) !=
                EAR_OK) {
                fprintf(stderr, "earshot-demo: %s\n", err.message);
                code = 1;
            } else {
                printf("wav: %s (%.1f s)\n", wav, (double)audio_frames / rate);
            }
        }
        if (svg && audio_frames) {
            char why[600];
            if (ear_plot_svg(svg, all_audio, audio_frames, rate, "Three Errands, autoplay",
                             false, why, sizeof why) != 0) {
                fprintf(stderr, "earshot-demo: --plot %s\n", why);
                code = 1;
            } else {
                printf("plot: %s\n", svg);
            }
        }
        free(all_audio);
        demo_result res_d = demo_get_result(d);
        printf("loads:");
        for (size_t i = 0; i < demo_level_starts(d); i++)
            printf(" %llu", (unsigned long long)demo_loads_at_level_start(d, i));
        printf("\n");
        if (pad_seen) /* a run that had a gamepad */
            printf("pad: rumbles=%u\n", pad_rumbles);
        printf("audio_hash: %016llx (at step %llu)\n", (unsigned long long)out.step_audio_hash,
               (unsigned long long)steps);
        printf("summary: level=%d finished=%s time_s=%.2f score=%ld levels_done=%d frames=%llu "
               "steps=%llu voices=%llu spoken=%llu loads=%llu\n",
               res_d.level, res_d.finished ? "yes" : "no", res_d.time_s, res_d.score,
               res_d.levels_done, (unsigned long long)frames, (unsigned long long)steps,
               (unsigned long long)voices, (unsigned long long)spoken,
               (unsigned long long)res_d.loads);
    }
    r.speech_log = NULL;
    if (!close_log(&speech_out, "--speech-log")) code = 1;
    bot_destroy(r.bot);
    if (!close_log(&bot_out, "--bot-log")) code = 1;
    if (demo_get_result(d).save_failures) code = 1;
    if (!close_log(&keys_out, "--bot-keys")) code = 1;
    demo_destroy(d);
    ear_ui_destroy(ui);
    ear_script_free(&script);
    return code;
}
