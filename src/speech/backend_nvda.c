/* SPDX-License-Identifier: Zlib */
/*
 * NVDA on Windows, the player's own screen reader, through its controller client DLL
 * (nvdaControllerClient.dll, NVDA's public API for programs that speak through it). The
 * DLL is loaded at run time and never shipped with the game: the first of
 *
 *     EARSHOT_NVDA_DLL (a path, when set)
 *     nvdaControllerClient.dll, nvdaControllerClient64.dll beside the program
 *     the same in NVDA's folder: %ProgramFiles%\NVDA, %ProgramFiles(x86)%\NVDA
 *
 * that loads, has the four calls below and finds NVDA running. Each line goes to NVDA's
 * speech (nvdaController_speakText, which NVDA queues after what it is saying) and to its
 * braille display (nvdaController_brailleMessage): braille through NVDA. The interrupt
 * rule is the other backends': an interrupt, a character or a key cancels NVDA's speech
 * first (nvdaController_cancelSpeech). NVDA says at the player's own rate, voice and
 * volume (players_rate; the game's settings are not applied over the player's); it does
 * not report when a line ends, so lines are timed by the estimate. It goes away when NVDA
 * quits (testIfRunning, asked while idle): the carrier fails over to SAPI.
 */
#include "speech_internal.h"

#include <stdlib.h>
#include <string.h>

#define WIN32_LEAN_AND_MEAN
#include <windows.h>

typedef unsigned long(__stdcall *nvda_void_fn)(void);
typedef unsigned long(__stdcall *nvda_text_fn)(const wchar_t *text);

typedef struct nvda {
    HMODULE dll;
    nvda_void_fn test_if_running, cancel_speech;
    nvda_text_fn speak_text, braille_message;
} nvda;

static FARPROC entry(HMODULE dll, const char *name) {
    return GetProcAddress(dll, name);
}

/* Loads path and takes its calls; true when all four are there. */
static bool load(nvda *n, const wchar_t *path) {
    HMODULE dll = LoadLibraryW(path);
    if (!dll) return false;
    FARPROC t = entry(dll, "nvdaController_testIfRunning"),
            c = entry(dll, "nvdaController_cancelSpeech"),
            s = entry(dll, "nvdaController_speakText"),
            b = entry(dll, "nvdaController_brailleMessage");
    if (!t || !c || !s || !b) {
        FreeLibrary(dll);
        return false;
    }
    n->dll = dll;
    memcpy(&n->test_if_running, &t, sizeof t);
    memcpy(&n->cancel_speech, &c, sizeof c);
    memcpy(&n->speak_text, &s, sizeof s);
    memcpy(&n->braille_message, &b, sizeof b);
    return true;
}

/* Tries the two names in folder (ending in a backslash). */
static bool load_in(nvda *n, const wchar_t *folder) {
    static const wchar_t *const names[] = {L"nvdaControllerClient.dll",
                                           L"nvdaControllerClient64.dll"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        wchar_t path[MAX_PATH];
        if (_snwprintf(path, MAX_PATH, L"%ls%ls", folder, names[i]) < 0) continue;
        path[MAX_PATH - 1] = 0;
        if (load(n, path)) return true;
    }
    return false;
}

static bool find_dll(nvda *n) {
    const char *env = getenv("EARSHOT_NVDA_DLL");
    if (env && *env) {
        wchar_t *w = ear__speech_wide(env);
        bool ok = w && load(n, w);
        free(w);
        return ok;
    }
    wchar_t dir[MAX_PATH];
    DWORD len = GetModuleFileNameW(NULL, dir, MAX_PATH);
    if (len > 0 && len < MAX_PATH) {
        wchar_t *slash = wcsrchr(dir, L'\\');
        if (slash) {
            slash[1] = 0;
            if (load_in(n, dir)) return true;
        }
    }
    static const wchar_t *const roots[] = {L"ProgramFiles", L"ProgramW6432",
                                           L"ProgramFiles(x86)"};
    for (size_t i = 0; i < sizeof roots / sizeof roots[0]; i++) {
        wchar_t root[MAX_PATH - 16];
        DWORD r = GetEnvironmentVariableW(roots[i], root, MAX_PATH - 16);
        if (r == 0 || r >= MAX_PATH - 16) continue;
        if (_snwprintf(dir, MAX_PATH, L"%ls\\NVDA\\", root) < 0) continue;
        dir[MAX_PATH - 1] = 0;
        if (load_in(n, dir)) return true;
    }
    return false;
}

static bool open_backend(ear_speech *sp, void **state, char ***voices, size_t *count) {
    (void)sp;
    *voices = NULL;
    *count = 0;
    nvda *n = calloc(1, sizeof *n);
    if (!n) return false;
    if (!find_dll(n)) {
        ear_log(EAR_LOG_INFO, "speech",
                "NVDA's controller client (nvdaControllerClient.dll) not found beside the "
                "game nor in NVDA's folder; trying SAPI");
        free(n);
        return false;
    }
    if (n->test_if_running() != 0) {
        ear_log(EAR_LOG_INFO, "speech", "NVDA is not running; trying SAPI");
        FreeLibrary(n->dll);
        free(n);
        return false;
    }
    *state = n;
    return true;
}

static void close_backend(ear_speech *sp, void *state) {
    (void)sp;
    nvda *n = state;
    if (!n) return;
    FreeLibrary(n->dll);
    free(n);
}

static bool alive(ear_speech *sp, void *state) {
    (void)sp;
    nvda *n = state;
    return n->test_if_running() == 0;
}

static ear__speech_sent_result say(ear_speech *sp, void *state, const ear__speech_cmd *c) {
    nvda *n = state;
    if (c->epoch < atomic_load(&sp->latest_epoch)) return EAR__SENT_SKIPPED;
    bool interrupt = c->priority == EAR_SPEECH_INTERRUPT || c->what != EAR__SAY_TEXT;
    char buf[128];
    const char *words = ear__speech_shown(c->what, c->text, true, buf, sizeof buf);
    wchar_t *w = ear__speech_wide(words);
    if (!w) {
        ear_log(EAR_LOG_WARN, "speech", "NVDA: a line that is not UTF-8 (\"%.40s\")", c->text);
        return EAR__SENT_REFUSED;
    }
    unsigned long e = interrupt ? n->cancel_speech() : 0;
    if (e == 0) e = n->speak_text(w);
    if (e == 0) (void)n->braille_message(w); /* no display is not an error */
    free(w);
    if (e != 0) {
        if (n->test_if_running() != 0) return EAR__SENT_GONE;
        ear_log(EAR_LOG_WARN, "speech", "NVDA refused a line (error %lu, \"%.40s\")", e,
                c->text);
        return EAR__SENT_REFUSED;
    }
    return EAR__SENT_OK;
}

static ear__speech_sent_result apply(ear_speech *sp, void *state, const ear__speech_cmd *c) {
    (void)sp;
    nvda *n = state;
    /* The voice, rate, volume and punctuation are the player's own in NVDA. */
    if (c->kind == EAR__CMD_STOP && n->cancel_speech() != 0) {
        return n->test_if_running() != 0 ? EAR__SENT_GONE : EAR__SENT_REFUSED;
    }
    return EAR__SENT_OK;
}

const ear__speech_backend ear__speech_backend_nvda = {
    .name = "NVDA",
    .output = EAR_SPEECH_OUTPUT_NVDA,
    .usable = NULL, /* always: open says whether it is there */
    .open = open_backend,
    .close = close_backend,
    .say = say,
    .apply = apply,
    .alive = alive,
    .replays = true,
    .reports = false,
    .players_rate = true,
};
