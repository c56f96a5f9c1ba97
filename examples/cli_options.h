/* SPDX-License-Identifier: Zlib */
/*
 * The command-line pieces the examples (beacon, menu_demo) and the demo game share:
 * --help and --version, a --headless frame count, and a --script file loaded into an
 * ear_script. Each prints what went wrong, prefixed with the program's name, on stderr.
 * Example code, not part of the engine: compiled into each program that uses it.
 */
#ifndef EARSHOT_EXAMPLES_CLI_OPTIONS_H
#define EARSHOT_EXAMPLES_CLI_OPTIONS_H

#include "earshot/engine.h"

#include <stdbool.h>
#include <stdint.h>

/* Prints usage on stdout; the exit code: 0, or 1 when stdout could not be written. */
int cli_print_help(const char *usage);

/* Prints "<program> (Earshot) <version>" on stdout; the exit code as cli_print_help's. */
int cli_print_version(const char *program);

/* A --headless frame count: digits only, 1 to 10^8 (0 would mean "until Escape", which a
 * headless run without a script never presses). On anything else prints "<program>:
 * --headless <text>: expected a number of frames from 1 to 100000000" and returns false
 * with *out untouched. */
bool cli_parse_frames(const char *program, const char *text, uint64_t *out);

/* Reads the file at path and parses it as a script (ear_script_parse) into *script, which
 * then owns its events (free it with ear_script_free). On failure prints "<program>:
 * script '<path>': <reason>" (the parse error with its line, "no such file", or the
 * reading error) and returns false, with *script untouched. */
bool cli_load_script(const char *program, const char *path, ear_script *script);

#endif
