/* SPDX-License-Identifier: Zlib */
/*
 * The espeak-ng loader (espeak_dl.h): dlopen of the library once per process, dlsym of
 * each function into one table, published through pthread_once so every thread sees the
 * table whole or not at all. A library that lacks a function is treated as absent (and
 * closed), never half used.
 *
 * dlsym answers with a void *, which ISO C does not convert to a function pointer; the
 * bits are copied instead (POSIX guarantees they are the same). Each entry's type is
 * checked against the header's prototype at compile time, in an unevaluated sizeof, so
 * the table cannot drift from the library's declarations without a compile error and no
 * reference to the library's symbols reaches the object file.
 */
#include "espeak_dl.h"

#include "earshot/core.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static ear__espeak_table table;
static const ear__espeak_table *loaded;

/* Each function: its name in the library and where its pointer goes. */
#define ENTRY(field)                                                                           \
    { "espeak_" #field, &table.field }

typedef struct entry {
    const char *name;
    void *slot;
} entry;

/* POSIX (dlsym) makes a function pointer the size and bits of a void *. */
_Static_assert(sizeof(void *) == sizeof(void (*)(void)), "function pointers as void *");

/* Fails to compile when a field's type differs from the header's prototype. */
#define CHECK(field) (void)sizeof(table.field = espeak_##field)

static void load(void) {
    CHECK(Initialize);
    CHECK(SetSynthCallback);
    CHECK(SetParameter);
    CHECK(GetParameter);
    CHECK(SetPunctuationList);
    CHECK(Synth);
    CHECK(Char);
    CHECK(Key);
    CHECK(Synchronize);
    CHECK(Cancel);
    CHECK(IsPlaying);
    CHECK(Terminate);
    CHECK(SetVoiceByName);
    CHECK(SetVoiceByProperties);
    CHECK(GetCurrentVoice);
    CHECK(ListVoices);
    CHECK(Info);
    const entry entries[] = {
        ENTRY(Initialize),
        ENTRY(SetSynthCallback),
        ENTRY(SetParameter),
        ENTRY(GetParameter),
        ENTRY(SetPunctuationList),
        ENTRY(Synth),
        ENTRY(Char),
        ENTRY(Key),
        ENTRY(Synchronize),
        ENTRY(Cancel),
        ENTRY(IsPlaying),
        ENTRY(Terminate),
        ENTRY(SetVoiceByName),
        ENTRY(SetVoiceByProperties),
        ENTRY(GetCurrentVoice),
        ENTRY(ListVoices),
        ENTRY(Info),
    };
    const char *name = getenv("EARSHOT_ESPEAK_LIB");
    if (!name || !*name) name = EAR__ESPEAK_LIB;
    void *lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        ear_log(EAR_LOG_WARN, "speech",
                "espeak-ng not found (%s): the espeak backend is off; speech-dispatcher and "
                "the console still speak",
                name);
        return;
    }
    for (size_t i = 0; i < sizeof entries / sizeof entries[0]; i++) {
        void *sym = dlsym(lib, entries[i].name);
        if (!sym) {
            ear_log(EAR_LOG_WARN, "speech",
                    "espeak-ng not usable (%s has no %s): the espeak backend is off; "
                    "speech-dispatcher and the console still speak",
                    name, entries[i].name);
            dlclose(lib);
            return;
        }
        memcpy(entries[i].slot, &sym, sizeof sym);
    }
    loaded = &table;
}

const ear__espeak_table *ear__espeak_api(void) {
    pthread_once(&load_once, load);
    return loaded;
}
