/* SPDX-License-Identifier: Zlib */
/*
 * Internal to the storage module and its tests.
 */
#ifndef EARSHOT_STORAGE_INTERNAL_H
#define EARSHOT_STORAGE_INTERNAL_H

/* Called by ear_storage_save after the temporary file is written and fsync'ed (it
 * stays open, and locked, until after the rename), just before it is renamed over the save;
 * tmp_path is its name. NULL (the default) in normal use. Tests set it to stand in for a crash
 * between write and rename (the hook _exit()s in a forked child). Not thread-safe; tests only.
 */
extern void (*ear__storage_before_rename)(const char *tmp_path);

#endif
