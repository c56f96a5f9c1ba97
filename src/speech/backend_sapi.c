/* SPDX-License-Identifier: Zlib */
/*
 * SAPI 5 on Windows, the system's own voices: an ISpVoice made through COM on the speech
 * thread (which joins the multithreaded apartment for it), speaking asynchronously
 * (SPF_ASYNC, plain text: SPF_IS_NOT_XML) into the default audio output.
 *
 * SSIP's rules (speech.h) over SAPI's one queue, from what the voice reports of itself
 * (ISpVoice::GetStatus: speaking or not, and whether a stream waits behind the one being
 * said) and the priority of the last line queued:
 *   - an interrupt, a character or a key purges the queue first (SPF_PURGEBEFORESPEAK);
 *   - a message purges when only text, a notification or progress is queued, else waits;
 *   - a text replaces the text being said or waiting (a purge), else waits behind messages;
 *   - a notification is said only when the voice is idle or saying a notification (which
 *     it replaces);
 *   - progress is dropped while the voice speaks.
 * A voice whose Speak fails at open (Wine's sapi.dll: E_NOTIMPL) is not used.
 * A line dropped by those rules is SKIPPED (the game's timeline applies the same rules).
 * Rate -100..100 is SAPI's -10..10; volume -100..100 is SAPI's 0..100; the voice is
 * chosen by its description among the SAPI voice tokens (the voice list); punctuation
 * is the voice's own. SAPI does not go away: it is the last backend before the console.
 */
#include "speech_internal.h"

#include <stdlib.h>
#include <string.h>

#define COBJMACROS
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
/* The class and interface ids are defined here (mingw-w64's libuuid lacks SAPI's). */
#include <initguid.h>
#include <sapi.h>

typedef struct sapi {
    ISpVoice *voice;
    bool com;                 /* CoInitializeEx succeeded: CoUninitialize at close */
    ear_speech_priority last; /* of the last line queued */
} sapi;

static char *narrow(const wchar_t *w) {
    int n = WideCharToMultiByte(CP_UTF8, 0, w, -1, NULL, 0, NULL, NULL);
    if (n <= 0) return NULL;
    char *s = malloc((size_t)n);
    if (s) WideCharToMultiByte(CP_UTF8, 0, w, -1, s, n, NULL, NULL);
    return s;
}

/* The voice tokens' category enumeration; NULL when SAPI has none. */
static IEnumSpObjectTokens *voice_tokens(void) {
    ISpObjectTokenCategory *cat = NULL;
    IEnumSpObjectTokens *list = NULL;
    if (FAILED(CoCreateInstance(&CLSID_SpObjectTokenCategory, NULL, CLSCTX_ALL,
                                &IID_ISpObjectTokenCategory, (void **)&cat)))
        return NULL;
    if (FAILED(ISpObjectTokenCategory_SetId(cat, SPCAT_VOICES, FALSE)) ||
        FAILED(ISpObjectTokenCategory_EnumTokens(cat, NULL, NULL, &list)))
        list = NULL;
    ISpObjectTokenCategory_Release(cat);
    return list;
}

/* The next token's description (its default value) as UTF-8, and the token (held) in
 * *out_token when that is not NULL; NULL at the end. */
static char *next_voice(IEnumSpObjectTokens *list, ISpObjectToken **out_token) {
    for (;;) {
        ISpObjectToken *token = NULL;
        if (IEnumSpObjectTokens_Next(list, 1, &token, NULL) != S_OK || !token) return NULL;
        wchar_t *desc = NULL;
        char *name = NULL;
        if (SUCCEEDED(ISpObjectToken_GetStringValue(token, NULL, &desc)) && desc) {
            name = narrow(desc);
            CoTaskMemFree(desc);
        }
        if (name && out_token) {
            *out_token = token;
            return name;
        }
        ISpObjectToken_Release(token);
        if (name) return name;
    }
}

static void list_voices(char ***voices, size_t *count) {
    *voices = NULL;
    *count = 0;
    IEnumSpObjectTokens *list = voice_tokens();
    if (!list) return;
    size_t cap = 0;
    for (char *name; (name = next_voice(list, NULL)) != NULL;) {
        if (*count == cap) {
            size_t grown = cap ? cap * 2 : 8;
            char **more = realloc(*voices, grown * sizeof *more);
            if (!more) {
                free(name);
                break;
            }
            *voices = more;
            cap = grown;
        }
        (*voices)[(*count)++] = name;
    }
    IEnumSpObjectTokens_Release(list);
}

static bool open_backend(ear_speech *sp, void **state, char ***voices, size_t *count) {
    (void)sp;
    *voices = NULL;
    *count = 0;
    sapi *s = calloc(1, sizeof *s);
    if (!s) return false;
    HRESULT hr = CoInitializeEx(NULL, COINIT_MULTITHREADED);
    s->com = SUCCEEDED(hr);
    hr = CoCreateInstance(&CLSID_SpVoice, NULL, CLSCTX_ALL, &IID_ISpVoice, (void **)&s->voice);
    if (FAILED(hr) || !s->voice) {
        ear_log(EAR_LOG_INFO, "speech", "SAPI 5 has no voice here (CoCreateInstance 0x%08lx)",
                (unsigned long)hr);
        if (s->com) CoUninitialize();
        free(s);
        return false;
    }
    /* A voice that cannot speak is no output: Wine's SpVoice answers E_NOTIMPL to Speak
     * (and a purge of nothing, which real SAPI accepts, is the probe). */
    hr = ISpVoice_Speak(s->voice, NULL, SPF_PURGEBEFORESPEAK, NULL);
    if (FAILED(hr)) {
        ear_log(EAR_LOG_INFO, "speech", "SAPI 5 cannot speak here (ISpVoice::Speak 0x%08lx)",
                (unsigned long)hr);
        ISpVoice_Release(s->voice);
        if (s->com) CoUninitialize();
        free(s);
        return false;
    }
    s->last = EAR_SPEECH_NOTIFICATION;
    list_voices(voices, count);
    *state = s;
    return true;
}

static void close_backend(ear_speech *sp, void *state) {
    (void)sp;
    sapi *s = state;
    if (!s) return;
    ISpVoice_Speak(s->voice, NULL, SPF_PURGEBEFORESPEAK, NULL);
    ISpVoice_Release(s->voice);
    if (s->com) CoUninitialize();
    free(s);
}

/* Whether the voice is saying something, and whether more waits behind it. */
static void voice_status(sapi *s, bool *speaking, bool *waiting) {
    SPVOICESTATUS st;
    memset(&st, 0, sizeof st);
    *speaking = *waiting = false;
    if (FAILED(ISpVoice_GetStatus(s->voice, &st, NULL))) return;
    *speaking = (st.dwRunningState & SPRS_IS_SPEAKING) != 0;
    *waiting = st.ulLastStreamQueued > st.ulCurrentStream;
}

/* The SAPI flag a line's priority asks for: purge first, or queue; -1 to drop it. */
static long rule(sapi *s, ear_speech_priority p, bool interrupt) {
    if (interrupt) return SPF_PURGEBEFORESPEAK;
    bool speaking, waiting;
    voice_status(s, &speaking, &waiting);
    bool busy = speaking || waiting;
    bool minor = s->last == EAR_SPEECH_TEXT || s->last == EAR_SPEECH_NOTIFICATION ||
                 s->last == EAR_SPEECH_PROGRESS;
    switch (p) {
    case EAR_SPEECH_MESSAGE: return busy && minor ? SPF_PURGEBEFORESPEAK : 0;
    case EAR_SPEECH_TEXT:
        return busy && s->last != EAR_SPEECH_MESSAGE ? SPF_PURGEBEFORESPEAK : 0;
    case EAR_SPEECH_NOTIFICATION:
        if (!busy) return 0;
        return s->last == EAR_SPEECH_NOTIFICATION ? SPF_PURGEBEFORESPEAK : -1;
    case EAR_SPEECH_PROGRESS: return busy ? -1 : 0;
    default: return SPF_PURGEBEFORESPEAK;
    }
}

static ear__speech_sent_result say(ear_speech *sp, void *state, const ear__speech_cmd *c) {
    sapi *s = state;
    if (c->epoch < atomic_load(&sp->latest_epoch)) return EAR__SENT_SKIPPED;
    bool interrupt = c->priority == EAR_SPEECH_INTERRUPT || c->what != EAR__SAY_TEXT;
    long flags = rule(s, c->priority, interrupt);
    if (flags < 0) return EAR__SENT_SKIPPED;
    char buf[128];
    wchar_t *w = ear__speech_wide(ear__speech_shown(c->what, c->text, true, buf, sizeof buf));
    if (!w) {
        ear_log(EAR_LOG_WARN, "speech", "SAPI: a line that is not UTF-8 (\"%.40s\")", c->text);
        return EAR__SENT_REFUSED;
    }
    HRESULT hr = ISpVoice_Speak(s->voice, w, (DWORD)flags | SPF_ASYNC | SPF_IS_NOT_XML, NULL);
    free(w);
    if (FAILED(hr)) {
        ear_log(EAR_LOG_WARN, "speech", "SAPI refused a line (0x%08lx, \"%.40s\")",
                (unsigned long)hr, c->text);
        return EAR__SENT_REFUSED;
    }
    s->last = interrupt ? EAR_SPEECH_MESSAGE : c->priority;
    return EAR__SENT_OK;
}

/* Chooses the voice whose description is name; false when there is none. */
static bool set_voice(sapi *s, const char *name) {
    IEnumSpObjectTokens *list = voice_tokens();
    if (!list) return false;
    bool found = false;
    ISpObjectToken *token = NULL;
    for (char *n; !found && (n = next_voice(list, &token)) != NULL;) {
        found = strcmp(n, name) == 0 && SUCCEEDED(ISpVoice_SetVoice(s->voice, token));
        free(n);
        ISpObjectToken_Release(token);
    }
    IEnumSpObjectTokens_Release(list);
    return found;
}

static long clamp(long v, long lo, long hi) {
    return v < lo ? lo : v > hi ? hi : v;
}

static ear__speech_sent_result apply(ear_speech *sp, void *state, const ear__speech_cmd *c) {
    (void)sp;
    sapi *s = state;
    HRESULT hr = S_OK;
    switch (c->kind) {
    case EAR__CMD_STOP: hr = ISpVoice_Speak(s->voice, NULL, SPF_PURGEBEFORESPEAK, NULL); break;
    case EAR__CMD_VOICE:
        if (!set_voice(s, c->text)) {
            ear_log(EAR_LOG_WARN, "speech", "SAPI has no voice \"%.60s\"", c->text);
            return EAR__SENT_REFUSED;
        }
        break;
    case EAR__CMD_RATE: hr = ISpVoice_SetRate(s->voice, clamp(c->value / 10, -10, 10)); break;
    case EAR__CMD_VOLUME:
        hr = ISpVoice_SetVolume(s->voice, (USHORT)clamp((c->value + 100) / 2, 0, 100));
        break;
    default: break; /* punctuation: the voice's own */
    }
    if (FAILED(hr)) {
        ear_log(EAR_LOG_WARN, "speech", "SAPI refused a setting (0x%08lx)", (unsigned long)hr);
        return EAR__SENT_REFUSED;
    }
    return EAR__SENT_OK;
}

const ear__speech_backend ear__speech_backend_sapi = {
    .name = "SAPI",
    .output = EAR_SPEECH_OUTPUT_SAPI,
    .usable = NULL, /* always: open says whether it is there */
    .open = open_backend,
    .close = close_backend,
    .say = say,
    .apply = apply,
    .alive = NULL,
    .replays = true,
    .reports = false,
    .players_rate = false,
};
