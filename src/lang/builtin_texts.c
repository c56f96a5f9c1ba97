/*
 * The engine's own texts, built in for English and German so that menus, speech
 * and saves have something to say before a game ships a single .lang file. Each
 * language is a constant array of key/text pairs searched linearly (a few
 * dozen); a game's own files override any of them because ear_lang_get asks the
 * loaded tables first. Placeholders use ear_lang_format's {name} syntax.
 */
#include "lang_internal.h"

#include <stddef.h>
#include <string.h>

typedef struct builtin_text {
    const char *key;
    const char *text;
} builtin_text;

static const builtin_text english[] = {
    {"language.name", "English"},
    {"menu.back", "Back"},
    {"menu.yes", "Yes"},
    {"menu.no", "No"},
    {"menu.ok", "OK"},
    {"menu.cancel", "Cancel"},
    {"menu.quit", "Quit"},
    {"menu.on", "on"},
    {"menu.off", "off"},
    {"menu.item_of", "{index} of {count}"},
    {"input.empty", "blank"},
    {"speech.muted", "Speech muted"},
    {"speech.unmuted", "Speech on"},
    {"save.broken", "The saved game could not be read. It was set aside and a new one begun."},
    {"save.failed", "The game could not be saved."},
    {"ui.role.menu", "menu"},
    {"ui.role.dialog", "dialog"},
    {"ui.role.button", "button"},
    {"ui.role.checkbox", "check box"},
    {"ui.role.slider", "slider"},
    {"ui.role.choice", "combo box"},
    {"ui.role.edit", "edit"},
    {"ui.role.password", "password edit"},
    {"ui.role.submenu", "submenu"},
    {"ui.checked", "checked"},
    {"ui.not_checked", "not checked"},
    {"ui.unavailable", "unavailable"},
    {"ui.separator", ", "},
    {"ui.value_unit", "{value} {unit}"},
    {"ui.decimal_point", "."},
    {"ui.unit.percent", "percent"},
    {"ui.unit.db", "decibels"},
    {"ui.unit.seconds", "seconds"},
    {"ui.star", "star"},
    {"ui.char.newline", "new line"},
};

static const builtin_text german[] = {
    {"language.name", "Deutsch"},
    {"menu.back", "Zurück"},
    {"menu.yes", "Ja"},
    {"menu.no", "Nein"},
    {"menu.ok", "OK"},
    {"menu.cancel", "Abbrechen"},
    {"menu.quit", "Beenden"},
    {"menu.on", "an"},
    {"menu.off", "aus"},
    {"menu.item_of", "{index} von {count}"},
    {"input.empty", "leer"},
    {"speech.muted", "Sprachausgabe stumm"},
    {"speech.unmuted", "Sprachausgabe an"},
    {"save.broken",
     "Der Spielstand konnte nicht gelesen werden. Er wurde beiseitegelegt und ein neuer "
     "begonnen."},
    {"save.failed", "Das Spiel konnte nicht gespeichert werden."},
    {"ui.role.menu", "Menü"},
    {"ui.role.dialog", "Dialog"},
    {"ui.role.button", "Schalter"},
    {"ui.role.checkbox", "Kontrollkästchen"},
    {"ui.role.slider", "Schieberegler"},
    {"ui.role.choice", "Kombinationsfeld"},
    {"ui.role.edit", "Eingabefeld"},
    {"ui.role.password", "Passwortfeld"},
    {"ui.role.submenu", "Untermenü"},
    {"ui.checked", "aktiviert"},
    {"ui.not_checked", "nicht aktiviert"},
    {"ui.unavailable", "nicht verfügbar"},
    {"ui.separator", ", "},
    {"ui.value_unit", "{value} {unit}"},
    {"ui.decimal_point", ","},
    {"ui.unit.percent", "Prozent"},
    {"ui.unit.db", "Dezibel"},
    {"ui.unit.seconds", "Sekunden"},
    {"ui.star", "Stern"},
    {"ui.char.newline", "neue Zeile"},
};

static const builtin_text *find_language(const char *code, size_t *out_count) {
    if (strcmp(code, "en") == 0) {
        *out_count = sizeof english / sizeof english[0];
        return english;
    }
    if (strcmp(code, "de") == 0) {
        *out_count = sizeof german / sizeof german[0];
        return german;
    }
    *out_count = 0;
    return NULL;
}

const char *ear__lang_builtin_get(const char *code, const char *key) {
    size_t count;
    const builtin_text *texts = find_language(code, &count);
    for (size_t i = 0; i < count; i++)
        if (strcmp(texts[i].key, key) == 0) return texts[i].text;
    return NULL;
}

bool ear__lang_builtin_has(const char *code) {
    size_t count;
    return find_language(code, &count) != NULL;
}
