/* SPDX-License-Identifier: Zlib */
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
    {"save.failed", "The game could not be saved."}, /* Words for positions, directions and
                                                        speeds (src/physics/describe.c). */
    {"position.ahead", "{n} meters ahead"},
    {"position.ahead.one", "{n} meter ahead"},
    {"position.behind", "{n} meters behind you"},
    {"position.behind.one", "{n} meter behind you"},
    {"position.left", "{n} meters to the left"},
    {"position.left.one", "{n} meter to the left"},
    {"position.right", "{n} meters to the right"},
    {"position.right.one", "{n} meter to the right"},
    {"position.up", "{n} meters up"},
    {"position.up.one", "{n} meter up"},
    {"position.down", "{n} meters down"},
    {"position.down.one", "{n} meter down"},
    {"position.then_ahead", "{n} ahead"},
    {"position.then_behind", "{n} behind"},
    {"position.then_left", "{n} to the left"},
    {"position.then_right", "{n} to the right"},
    {"position.then_up", "{n} up"},
    {"position.then_down", "{n} down"},
    {"position.join", "{first}, {second}"},
    {"position.here", "right here"},
    {"direction.clock", "{hour} o'clock"},
    {"direction.north", "north"},
    {"direction.northeast", "northeast"},
    {"direction.east", "east"},
    {"direction.southeast", "southeast"},
    {"direction.south", "south"},
    {"direction.southwest", "southwest"},
    {"direction.west", "west"},
    {"direction.northwest", "northwest"},
    {"speed.kmh", "{n} kilometers per hour"},
    {"speed.kmh.one", "{n} kilometer per hour"},
    {"speed.mph", "{n} miles per hour"},
    {"speed.mph.one", "{n} mile per hour"},
    {"speed.mps", "{n} meters per second"},
    {"speed.mps.one", "{n} meter per second"},
    {"speed.reversing", "{speed}, reversing"},
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
    {"save.failed",
     "Das Spiel konnte nicht gespeichert werden."}, /* Words for positions, directions and
                                                       speeds (src/physics/describe.c). */
    {"position.ahead", "{n} Meter vor dir"},
    {"position.ahead.one", "{n} Meter vor dir"},
    {"position.behind", "{n} Meter hinter dir"},
    {"position.behind.one", "{n} Meter hinter dir"},
    {"position.left", "{n} Meter links"},
    {"position.left.one", "{n} Meter links"},
    {"position.right", "{n} Meter rechts"},
    {"position.right.one", "{n} Meter rechts"},
    {"position.up", "{n} Meter höher"},
    {"position.up.one", "{n} Meter höher"},
    {"position.down", "{n} Meter tiefer"},
    {"position.down.one", "{n} Meter tiefer"},
    {"position.then_ahead", "{n} vor dir"},
    {"position.then_behind", "{n} hinter dir"},
    {"position.then_left", "{n} links"},
    {"position.then_right", "{n} rechts"},
    {"position.then_up", "{n} höher"},
    {"position.then_down", "{n} tiefer"},
    {"position.join", "{first}, {second}"},
    {"position.here", "genau hier"},
    {"direction.clock", "{hour} Uhr"},
    {"direction.north", "Norden"},
    {"direction.northeast", "Nordosten"},
    {"direction.east", "Osten"},
    {"direction.southeast", "Südosten"},
    {"direction.south", "Süden"},
    {"direction.southwest", "Südwesten"},
    {"direction.west", "Westen"},
    {"direction.northwest", "Nordwesten"},
    {"speed.kmh", "{n} Kilometer pro Stunde"},
    {"speed.kmh.one", "{n} Kilometer pro Stunde"},
    {"speed.mph", "{n} Meilen pro Stunde"},
    {"speed.mph.one", "{n} Meile pro Stunde"},
    {"speed.mps", "{n} Meter pro Sekunde"},
    {"speed.mps.one", "{n} Meter pro Sekunde"},
    {"speed.reversing", "{speed}, rückwärts"},
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
