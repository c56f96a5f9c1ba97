/* SPDX-License-Identifier: Zlib */
/*
 * What items say. Every word comes from the translation tables (ui.* keys, English and
 * German built in), so menus, forms and tests share one wording: "<label>, <role>,
 * <state>, <unavailable>, <i of n>", the parts joined by "ui.separator" and left out when
 * empty. Numbers are printed in the C locale and their point replaced by
 * "ui.decimal_point", so German says "0,5".
 */
#include "ui_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int ear__ui_step_decimals(double step) {
    int d = 0;
    double s = fabs(step);
    while (d < 6 && fabs(s - round(s)) > 1e-9 * (s > 1 ? s : 1)) {
        s *= 10;
        d++;
    }
    return d;
}

size_t ear_ui_describe_value(ear_lang *lang, const ear_ui_item *item, double value, char *out,
                             size_t size) {
    if (!out || !size) return 0;
    out[0] = '\0';
    if (!item) return 0;
    int decimals = item->decimals > 0 ? item->decimals : ear__ui_step_decimals(item->step);
    if (decimals > 6) decimals = 6;
    char num[64];
    double v = value;
    if (fabs(v) < 0.5 * pow(10.0, -decimals)) v = 0; /* never "-0" */
    snprintf(num, sizeof num, "%.*f", decimals, v);
    char spoken[96] = "";
    const char *point = ear_lang_get(lang, "ui.decimal_point");
    for (const char *c = num; *c; c++) {
        char one[2] = {*c, '\0'};
        ear__ui_append(spoken, sizeof spoken, *c == '.' ? point : one);
    }
    if (!item->unit && !item->format) return ear__ui_copy(out, size, spoken);
    ear_lang_arg args[2] = {{"value", spoken},
                            {"unit", item->unit ? ear_lang_get(lang, item->unit) : ""}};
    size_t needed = 0;
    const char *key = item->format ? item->format : "ui.value_unit";
    char buf[EAR_UI_TEXT_MAX];
    if (ear_lang_format(lang, key, args, 2, buf, sizeof buf, &needed) != EAR_OK)
        return ear__ui_copy(out, size, spoken);
    /* "{value} {unit}" with no unit leaves a trailing space. */
    size_t n = strlen(buf);
    while (n > 0 && buf[n - 1] == ' ') buf[--n] = '\0';
    return ear__ui_copy(out, size, buf);
}

/* The words being built; once a part had to be cut, nothing more is added (a cut text
 * ends where it was cut, not in a stray separator). */
typedef struct words {
    char *out;
    size_t size;
    const char *sep;
    bool cut;
} words;

static void add_part(words *w, const char *part) {
    if (!part || !part[0] || w->cut) return;
    size_t len = strlen(w->out);
    size_t want = len + (len ? strlen(w->sep) : 0) + strlen(part);
    if (len) ear__ui_append(w->out, w->size, w->sep);
    if (ear__ui_append(w->out, w->size, part) < want) w->cut = true;
}

size_t ear_ui_describe_item(ear_lang *lang, const ear_ui_item *item, size_t index, size_t count,
                            char *out, size_t size) {
    if (!out || !size) return 0;
    out[0] = '\0';
    if (!item) return 0;
    words w = {out, size, ear_lang_get(lang, "ui.separator"), false};
    const char *label = item->label ? item->label : item->id;
    add_part(&w, label ? ear_lang_get(lang, label) : "");
    const char *role = "ui.role.button";
    switch (item->kind) {
    case EAR_UI_BUTTON: role = "ui.role.button"; break;
    case EAR_UI_TOGGLE: role = "ui.role.checkbox"; break;
    case EAR_UI_SLIDER: role = "ui.role.slider"; break;
    case EAR_UI_CHOICE: role = "ui.role.choice"; break;
    case EAR_UI_TEXT: role = item->password ? "ui.role.password" : "ui.role.edit"; break;
    case EAR_UI_SUBMENU: role = "ui.role.submenu"; break;
    }
    add_part(&w, ear_lang_get(lang, role));
    char state[EAR_UI_TEXT_MAX] = "";
    switch (item->kind) {
    case EAR_UI_TOGGLE:
        ear__ui_copy(state, sizeof state,
                     ear_lang_get(lang, item->checked ? "ui.checked" : "ui.not_checked"));
        break;
    case EAR_UI_SLIDER:
        ear_ui_describe_value(lang, item, item->value, state, sizeof state);
        break;
    case EAR_UI_CHOICE:
        if (item->choices && item->selected < item->choice_count)
            ear__ui_copy(state, sizeof state,
                         ear_lang_get(lang, item->choices[item->selected]));
        break;
    case EAR_UI_TEXT:
        if (!item->text || !item->text[0]) {
            ear__ui_copy(state, sizeof state, ear_lang_get(lang, "input.empty"));
        } else if (item->password) {
            size_t n = ear_utf8_count(item->text, strlen(item->text));
            const char *star = ear_lang_get(lang, "ui.star");
            for (size_t i = 0; i < n; i++) {
                if (i) ear__ui_append(state, sizeof state, " ");
                ear__ui_append(state, sizeof state, star);
            }
        } else {
            ear__ui_copy(state, sizeof state, item->text);
        }
        break;
    case EAR_UI_BUTTON:
    case EAR_UI_SUBMENU: break;
    }
    add_part(&w, state);
    if (item->disabled) add_part(&w, ear_lang_get(lang, "ui.unavailable"));
    if (count) {
        char i_s[24], n_s[24], pos[96];
        snprintf(i_s, sizeof i_s, "%zu", index + 1);
        snprintf(n_s, sizeof n_s, "%zu", count);
        ear_lang_arg args[2] = {{"index", i_s}, {"count", n_s}};
        if (ear_lang_format(lang, "menu.item_of", args, 2, pos, sizeof pos, NULL) == EAR_OK)
            add_part(&w, pos);
    }
    return strlen(out);
}
