/* SPDX-License-Identifier: Zlib */
/*
 * A stand-in for NVDA's controller client (nvdaControllerClient.dll) for the Windows
 * speech test (test_speech_nvda.c): the same four calls NVDA's DLL exports, which record
 * what they were asked ("cancel", "speak:<text>", "braille:<text>", each followed by '|')
 * instead of reaching NVDA, and a switch for whether "NVDA" runs. No NVDA runs under Wine;
 * the backend's side of the protocol (the search beside the program, the interrupt rule,
 * braille, the fail-over when NVDA quits) is what this lets the test check.
 */
#define WIN32_LEAN_AND_MEAN
#include <windows.h>

#include <stdio.h>
#include <string.h>

static SRWLOCK lock = SRWLOCK_INIT;
static char log_text[8192];
static volatile LONG running = 1;

static void note(const char *what, const wchar_t *text) {
    char utf8[2048] = "";
    if (text) WideCharToMultiByte(CP_UTF8, 0, text, -1, utf8, (int)sizeof utf8, NULL, NULL);
    AcquireSRWLockExclusive(&lock);
    size_t n = strlen(log_text);
    snprintf(log_text + n, sizeof log_text - n, "%s%s%s|", what, text ? ":" : "", utf8);
    ReleaseSRWLockExclusive(&lock);
}

__declspec(dllexport) unsigned long __stdcall nvdaController_testIfRunning(void);
__declspec(dllexport) unsigned long __stdcall nvdaController_cancelSpeech(void);
__declspec(dllexport) unsigned long __stdcall nvdaController_speakText(const wchar_t *text);
__declspec(dllexport) unsigned long __stdcall nvdaController_brailleMessage(
    const wchar_t *text);
__declspec(dllexport) void nvda_recorder_take(char *out, size_t size);
__declspec(dllexport) void nvda_recorder_set_running(int on);

/* NVDA's answers: 0, or RPC_S_SERVER_UNAVAILABLE (1722) when it does not run. */
unsigned long __stdcall nvdaController_testIfRunning(void) {
    return running ? 0 : 1722;
}

unsigned long __stdcall nvdaController_cancelSpeech(void) {
    if (!running) return 1722;
    note("cancel", NULL);
    return 0;
}

unsigned long __stdcall nvdaController_speakText(const wchar_t *text) {
    if (!running) return 1722;
    note("speak", text);
    return 0;
}

unsigned long __stdcall nvdaController_brailleMessage(const wchar_t *text) {
    if (!running) return 1722;
    note("braille", text);
    return 0;
}

/* Copies what was recorded since the last call into out and forgets it. */
void nvda_recorder_take(char *out, size_t size) {
    AcquireSRWLockExclusive(&lock);
    snprintf(out, size, "%s", log_text);
    log_text[0] = '\0';
    ReleaseSRWLockExclusive(&lock);
}

void nvda_recorder_set_running(int on) {
    InterlockedExchange(&running, on ? 1 : 0);
}
