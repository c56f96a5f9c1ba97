/* SPDX-License-Identifier: Zlib */
/*
 * Internal to the lang module: the built-in engine texts (builtin_texts.c).
 */
#ifndef EARSHOT_LANG_INTERNAL_H
#define EARSHOT_LANG_INTERNAL_H

#include <stdbool.h>

/* The built-in text of key for a normalised code ("en", "de"), or NULL. Only exact
 * codes match: the caller walks the chain of bases. */
const char *ear__lang_builtin_get(const char *code, const char *key);

/* True when built-in texts exist for exactly this normalised code. */
bool ear__lang_builtin_has(const char *code);

#endif
