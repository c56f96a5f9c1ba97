/* SPDX-License-Identifier: Zlib */
/*
 * Internal to Earshot: what a JSON value is, in the words every JSON reader's messages use
 * ("expected an object, got an array"). One definition for the readers of audio.json and
 * blends (assets), world documents (level) and commands' params (commands). Outside the
 * public include folder; like the name index, internal to each shared library.
 */
#ifndef EAR_JSON_KIND_H
#define EAR_JSON_KIND_H

#include <jansson.h>

/* "an object", "an array", "a string", "a number", "true", "false" or "null" (also for a
 * NULL value). Thread: any (pure). */
const char *ear__json_kind(const json_t *v);

#endif
