/* SPDX-License-Identifier: Zlib */
/*
 * The demo game's base, which every other part of it calls and which calls none of them
 * (games/demo/ORDER): speech as the game says it (say interrupts, report waits: docs/game.md,
 * "Speech"), the words' arguments and times, and the player's settings: read from the save,
 * each value checked where it enters, stored, and applied to the stage, speech and UI.
 */
#include "demo_internal.h"

const char *const demo__language_choices[2] = {"lang.en", "lang.de"};
const char *const demo__language_codes[2] = {"en", "de"};

/* ---- Small helpers -------------------------------------------------------------------- */

void demo__say(ear_ctx *ctx, const char *text) {
    ear_say(ctx, text);
    /* Speech that bypasses the stage (speech-dispatcher) still ducks the music. */
    ear_speech_duck(ear_ctx_speech(ctx), ear_ctx_stage(ctx), "speech", text, 0);
}

void demo__say_fmt(ear_ctx *ctx, const char *key, const ear_lang_arg *args, size_t n) {
    char text[600];
    if (ear_lang_format(ear_ctx_lang(ctx), key, args, n, text, sizeof text, NULL) != EAR_OK)
        snprintf(text, sizeof text, "%s", ear_tr(ctx, key));
    demo__say(ctx, text);
}

/* What the game reports (a result, an error, a find, a level's intro) is not cut by what
 * follows it: it waits for what is being said (SSIP "message"), and a menu the game opens
 * in the same frame says its title after it (ear_ui_menu_set_after_speech). Only what
 * the player asks for (a key, a menu move) interrupts (docs/game.md, "Speech"). */
void demo__report(ear_ctx *ctx, demo *d, const char *text) {
    ear_say_queued(ctx, text);
    ear_speech_duck(ear_ctx_speech(ctx), ear_ctx_stage(ctx), "speech", text, 0);
    d->reported = true;
}

void demo__report_fmt(ear_ctx *ctx, demo *d, const char *key, const ear_lang_arg *args,
                      size_t n) {
    char text[600];
    if (ear_lang_format(ear_ctx_lang(ctx), key, args, n, text, sizeof text, NULL) != EAR_OK)
        snprintf(text, sizeof text, "%s", ear_tr(ctx, key));
    demo__report(ctx, d, text);
}

ear_lang_arg demo__arg_s(const char *name, const char *value) {
    ear_lang_arg a = {0};
    a.name = name;
    a.value = value;
    return a;
}

void demo__fmt_time(char *out, size_t cap, double s, bool de) {
    snprintf(out, cap, "%.1f", s);
    if (de)
        for (char *p = out; *p; p++)
            if (*p == '.') *p = ',';
}

bool demo__is_german(demo *d) {
    return d->set.language == 1;
}

/* ---- Saves ---------------------------------------------------------------------------- */

/* A value from the save, checked where it enters (the save is a file anyone can edit, and
 * the web's is plain text): within [lo, hi] as the settings' sliders offer it, clamped
 * there when it is a number beyond (1e30 is 100 percent, as the menu says and as it plays);
 * not a number at all (NaN, inf) is the default. */
static double save_number(demo *d, const char *key, double fallback, double lo, double hi) {
    double v = ear_storage_get_double(d->save, key, fallback);
    if (isnan(v) || isinf(v)) {
        if (ear_storage_has(d->save, key))
            ear_log(EAR_LOG_WARN, "demo", "the save's %s is not a number: %g instead", key,
                    fallback);
        return fallback;
    }
    if (v < lo || v > hi) {
        double c = v < lo ? lo : hi;
        ear_log(EAR_LOG_WARN, "demo", "the save's %s (%g) is outside %g to %g: %g instead", key,
                v, lo, hi, c);
        return c;
    }
    return v;
}

void demo__load_settings(demo *d) {
    ear_storage *s = d->save;
    d->set.master = save_number(d, "settings.master", 100, 0, 100);
    d->set.music = save_number(d, "settings.music", 60, 0, 100);
    d->set.sound = save_number(d, "settings.sound", 100, 0, 100);
    d->set.speech = save_number(d, "settings.speech", 100, 0, 100);
    d->set.rate = (int)save_number(d, "settings.rate", 0, -100, 100);
    d->set.speech_chosen = ear_storage_has(s, "settings.speech");
    d->set.rate_chosen = ear_storage_has(s, "settings.rate");
    const char *lang = ear_storage_get_string(s, "settings.language", "en");
    d->set.language = strcmp(lang, "de") == 0 ? 1 : 0;
    d->set.headphones = ear_storage_get_bool(s, "settings.headphones", false);
    d->set.repeat_delay_s = ear_storage_get_double(s, "settings.repeat_delay", 0.5);
    d->set.repeat_every_s = ear_storage_get_double(s, "settings.repeat_every", 0.08);
    /* a value outside the sliders' ranges (an older or edited save) is the default */
    if (!(d->set.repeat_delay_s >= 0.2 && d->set.repeat_delay_s <= 1.0))
        d->set.repeat_delay_s = 0.5;
    if (!(d->set.repeat_every_s >= 0.04 && d->set.repeat_every_s <= 0.3))
        d->set.repeat_every_s = 0.08;
}

void demo__store_settings(demo *d) {
    ear_storage *s = d->save;
    ear_storage_set_double(s, "settings.master", d->set.master);
    ear_storage_set_double(s, "settings.music", d->set.music);
    ear_storage_set_double(s, "settings.sound", d->set.sound);
    if (d->set.speech_chosen) ear_storage_set_double(s, "settings.speech", d->set.speech);
    if (d->set.rate_chosen) ear_storage_set_int(s, "settings.rate", d->set.rate);
    ear_storage_set_string(s, "settings.language", demo__language_codes[d->set.language]);
    ear_storage_set_bool(s, "settings.headphones", d->set.headphones);
    ear_storage_set_double(s, "settings.repeat_delay", d->set.repeat_delay_s);
    ear_storage_set_double(s, "settings.repeat_every", d->set.repeat_every_s);
}

/* Writes the save when it changed and has a file; true when it was written (a run
 * without a save file keeps its progress in memory: nothing is written, nothing said).
 * A save that fails (a full disk) is said to the player and counted (main exits 1). */
bool demo__write_save(ear_ctx *ctx, demo *d) {
    if (!d->opt.save_path || !ear_storage_is_dirty(d->save) || !ear_storage_can_save(d->save))
        return false;
    if (ear_storage_save(d->save) == EAR_OK) return true;
    d->result.save_failures++;
    ear_log(EAR_LOG_ERROR, "demo", "%s", ear_storage_last_error(d->save));
    demo__report(ctx, d, ear_tr(ctx, "save.failed"));
    return false;
}

bool demo_driving(const demo *d) {
    return d->screen == SCREEN_GAME && d->map && d->car;
}

bool demo_headphones(const demo *d) {
    return d->opt.headphones > 0 || (d->opt.headphones == 0 && d->set.headphones);
}

/* Headphones: the HRTF set is loaded the first time the setting is on (about 1.4 s of CPU,
 * once a run, never per level); then the stage's placed voices go through it. A set that
 * cannot be loaded is said ("3D sound unavailable: ...", again each time the player turns
 * the setting on) and the game goes on panning. `spoken`: say the failure now. */
void demo__apply_headphones(ear_ctx *ctx, demo *d, bool spoken) {
    ear_stage *st = ear_ctx_stage(ctx);
    bool on = demo_headphones(d) && d->opt.load_hrtf;
    if (on && !d->hrtf_loaded && !d->hrtf_failed) {
        d->hrtf_why[0] = '\0';
        if (d->opt.load_hrtf(d->opt.hrtf_user, st, d->hrtf_why, sizeof d->hrtf_why) == EAR_OK) {
            d->hrtf_loaded = true;
        } else {
            d->hrtf_failed = true;
            if (!d->hrtf_why[0])
                snprintf(d->hrtf_why, sizeof d->hrtf_why, "the set could not be loaded.");
            spoken = true;
        }
    }
    if (on && d->hrtf_failed && spoken) {
        ear_lang_arg a[1] = {demo__arg_s("why", d->hrtf_why)};
        demo__report_fmt(ctx, d, "hrtf.unavailable", a, 1);
    }
    ear_spatializer want = on && d->hrtf_loaded ? EAR_SPATIALIZER_HRTF : EAR_SPATIALIZER_PAN;
    if (!d->spatializer_sent || want != d->spatializer) {
        if (ear_stage_set_spatializer(st, want) == EAR_OK) {
            d->spatializer = want;
            d->spatializer_sent = true;
        }
    }
}

void demo__apply_settings(ear_ctx *ctx, demo *d) {
    ear_stage *st = ear_ctx_stage(ctx);
    ear_stage_set_bus_volume(st, EAR_BUS_MASTER, (float)(d->set.master / 100.0));
    ear_stage_set_bus_volume(st, EAR_BUS_SFX, (float)(d->set.sound / 100.0));
    ear_stage_set_bus_volume(st, EAR_BUS_ENGINE, (float)(d->set.sound / 100.0));
    ear_stage_set_bus_volume(st, EAR_BUS_AMBIENCE, (float)(d->set.sound / 100.0));
    if (d->set.speech_chosen)
        ear_speech_set_volume(ear_ctx_speech(ctx), (int)(d->set.speech * 2 - 100));
    if (d->set.rate_chosen) ear_speech_set_rate(ear_ctx_speech(ctx), d->set.rate);
    ear_lang_set_language(ear_ctx_lang(ctx), demo__language_codes[d->set.language]);
    ear_ui_set_repeat(ear_ui_of(ctx), d->set.repeat_delay_s, d->set.repeat_every_s);
    ear_actions_set_repeat(ear_ctx_actions(ctx), d->set.repeat_delay_s, d->set.repeat_every_s);
}

/* A text of the game's own tables in a language (demo.h). */
bool demo_text(demo *d, const char *language, const char *key, char *out, size_t cap) {
    if (cap) out[0] = '\0';
    if (!d->texts || ear_lang_set_language(d->texts, language ? language : "en") != EAR_OK)
        return false;
    const char *v = ear_lang_get(d->texts, key);
    if (!v || v == key) return false;
    snprintf(out, cap, "%s", v);
    return true;
}
