/* SPDX-License-Identifier: Zlib */
/*
 * The Windows side of the POSIX calls posix_win.h names (its essay says what each one
 * means here). The only core file that includes <windows.h>; built on Windows only.
 *
 * Paths are UTF-8 in Earshot and are turned into UTF-16 for the wide Windows calls made
 * here. The CRT's own open/fopen take the ANSI code page (docs/windows.md: a path outside
 * it is not reached there).
 */
#include "posix_win.h"

#include <stdarg.h>
#include <stdbool.h>
#include <limits.h>
#include <locale.h>
#include <stdint.h>
#include <string.h>

#define WIN32_LEAN_AND_MEAN
#include <windows.h>

/* path as UTF-16 in a malloc'ed buffer; NULL with errno on failure. */
static wchar_t *wide(const char *path) {
    int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, path, -1, NULL, 0);
    if (n <= 0) {
        errno = EINVAL;
        return NULL;
    }
    wchar_t *w = malloc((size_t)n * sizeof *w);
    if (!w) {
        errno = ENOMEM;
        return NULL;
    }
    MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, path, -1, w, n);
    return w;
}

int ear__win_same_file(int fd, const char *path) {
    HANDLE a = (HANDLE)_get_osfhandle(fd);
    wchar_t *w = wide(path);
    if (a == INVALID_HANDLE_VALUE || !w) {
        free(w);
        return 0;
    }
    HANDLE b = CreateFileW(w, 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
                           OPEN_EXISTING,
                           FILE_FLAG_BACKUP_SEMANTICS | FILE_FLAG_OPEN_REPARSE_POINT, NULL);
    free(w);
    if (b == INVALID_HANDLE_VALUE) return 0;
    BY_HANDLE_FILE_INFORMATION x, y;
    int same = GetFileInformationByHandle(a, &x) && GetFileInformationByHandle(b, &y) &&
               x.dwVolumeSerialNumber == y.dwVolumeSerialNumber &&
               x.nFileIndexHigh == y.nFileIndexHigh && x.nFileIndexLow == y.nFileIndexLow;
    CloseHandle(b);
    return same;
}

static int errno_of(DWORD e) {
    switch (e) {
    case ERROR_FILE_NOT_FOUND:
    case ERROR_PATH_NOT_FOUND: return ENOENT;
    case ERROR_ACCESS_DENIED:
    case ERROR_SHARING_VIOLATION:
    case ERROR_LOCK_VIOLATION: return EACCES;
    case ERROR_FILE_EXISTS:
    case ERROR_ALREADY_EXISTS: return EEXIST;
    case ERROR_NOT_ENOUGH_MEMORY:
    case ERROR_OUTOFMEMORY: return ENOMEM;
    case ERROR_DISK_FULL:
    case ERROR_HANDLE_DISK_FULL: return ENOSPC;
    case ERROR_NOT_SAME_DEVICE: return EXDEV;
    case ERROR_FILENAME_EXCED_RANGE: return ENAMETOOLONG;
    default: return EIO;
    }
}

int ear__win_fcntl(int fd, int cmd, ...) {
    HANDLE h = (HANDLE)_get_osfhandle(fd);
    if (h == INVALID_HANDLE_VALUE) {
        errno = EBADF;
        return -1;
    }
    switch (cmd) {
    case F_GETFD: {
        /* FD_CLOEXEC is "not inherited": the handle's own flag, as a child would see it. */
        DWORD flags = 0;
        if (!GetHandleInformation(h, &flags)) {
            errno = EBADF;
            return -1;
        }
        return (flags & HANDLE_FLAG_INHERIT) ? 0 : FD_CLOEXEC;
    }
    case F_SETFD:
    case F_GETFL:
    case F_SETFL: return 0;
    case F_SETLK:
    case F_SETLKW: {
        va_list args;
        va_start(args, cmd);
        struct flock *lock = va_arg(args, struct flock *);
        va_end(args);
        OVERLAPPED at;
        memset(&at, 0, sizeof at);
        if (lock->l_type == F_UNLCK)
            return UnlockFileEx(h, 0, MAXDWORD, MAXDWORD, &at) ? 0 : (errno = EINVAL, -1);
        DWORD flags = lock->l_type == F_WRLCK ? LOCKFILE_EXCLUSIVE_LOCK : 0;
        if (cmd == F_SETLK) flags |= LOCKFILE_FAIL_IMMEDIATELY;
        if (LockFileEx(h, flags, 0, MAXDWORD, MAXDWORD, &at)) return 0;
        errno = EAGAIN;
        return -1;
    }
    default: errno = EINVAL; return -1;
    }
}

/* Fills the six X at the end of templ with letters and digits, from x (advanced). */
static void fill_name(char *templ, size_t n, uint64_t *x) {
    static const char letters[] =
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    for (size_t i = 0; i < 6; i++) {
        *x = *x * 6364136223846793005u + 1442695040888963407u;
        templ[n - 6 + i] = letters[(*x >> 33) % (sizeof letters - 1)];
    }
}

static uint64_t name_seed(const void *templ) {
    LARGE_INTEGER t;
    QueryPerformanceCounter(&t);
    return (uint64_t)t.QuadPart ^ ((uint64_t)GetCurrentProcessId() << 32) ^
           (uint64_t)(uintptr_t)templ;
}

char *ear__win_mkdtemp(char *templ) {
    size_t n = strlen(templ);
    if (n < 6 || strcmp(templ + n - 6, "XXXXXX") != 0) {
        errno = EINVAL;
        return NULL;
    }
    uint64_t x = name_seed(templ);
    for (int attempt = 0; attempt < 100; attempt++) {
        fill_name(templ, n, &x);
        wchar_t *w = wide(templ);
        if (!w) return NULL;
        BOOL made = CreateDirectoryW(w, NULL);
        DWORD e = GetLastError();
        free(w);
        if (made) return templ;
        if (e != ERROR_ALREADY_EXISTS) {
            errno = errno_of(e);
            return NULL;
        }
    }
    errno = EEXIST;
    return NULL;
}

int ear__win_setenv(const char *name, const char *value, int overwrite) {
    if (!overwrite && getenv(name)) return 0;
    if (_putenv_s(name, value) == 0) return 0;
    errno = EINVAL;
    return -1;
}

int ear__win_unsetenv(const char *name) {
    return _putenv_s(name, "") == 0 ? 0 : (errno = EINVAL, -1);
}

int ear__win_mkstemp(char *templ) {
    size_t n = strlen(templ);
    if (n < 6 || strcmp(templ + n - 6, "XXXXXX") != 0) {
        errno = EINVAL;
        return -1;
    }
    uint64_t x = name_seed(templ);
    for (int attempt = 0; attempt < 100; attempt++) {
        fill_name(templ, n, &x);
        wchar_t *w = wide(templ);
        if (!w) return -1;
        HANDLE h = CreateFileW(w, GENERIC_READ | GENERIC_WRITE,
                               FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
                               CREATE_NEW, FILE_ATTRIBUTE_NORMAL, NULL);
        DWORD e = GetLastError();
        free(w);
        if (h != INVALID_HANDLE_VALUE) {
            int fd = _open_osfhandle((intptr_t)h, _O_RDWR | _O_BINARY);
            if (fd < 0) CloseHandle(h);
            return fd;
        }
        if (e != ERROR_FILE_EXISTS && e != ERROR_ALREADY_EXISTS) {
            errno = errno_of(e);
            return -1;
        }
    }
    errno = EEXIST;
    return -1;
}

int ear__win_rename(const char *from, const char *to) {
    wchar_t *f = wide(from), *t = f ? wide(to) : NULL;
    int r = -1;
    if (f && t) {
        if (MoveFileExW(f, t, MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH))
            r = 0;
        else
            errno = errno_of(GetLastError());
    }
    free(f);
    free(t);
    return r;
}

int ear__win_fchmod(int fd, unsigned mode) {
    /* A file's only mode on Windows is read-only; the writer's files stay writable by
     * their owner (0600, 0644), so there is nothing to change unless the mode says so. */
    (void)fd;
    if (mode & 0200) return 0;
    errno = ENOTSUP;
    return -1;
}

int ear__win_mkdir(const char *path, unsigned mode) {
    (void)mode;
    wchar_t *w = wide(path);
    if (!w) return -1;
    int r = CreateDirectoryW(w, NULL) ? 0 : -1;
    if (r) errno = errno_of(GetLastError());
    free(w);
    return r;
}

/* Earshot speaks over its standard streams (serve, MCP, the WAV on stdout): bytes, not
 * text with \n turned into \r\n. */
__attribute__((constructor)) static void binary_std_streams(void) {
    _setmode(0, _O_BINARY);
    _setmode(1, _O_BINARY);
    _setmode(2, _O_BINARY);
}

#include "win/dlfcn.h"
#include "win/poll.h"

static char dl_error[256];
static bool dl_failed;

static void *dl_fail(const char *what, const char *name) {
    snprintf(dl_error, sizeof dl_error, "%s: %s failed (Windows error %lu)", name, what,
             (unsigned long)GetLastError());
    dl_failed = true;
    return NULL;
}

void *ear__win_dlopen(const char *name, int flags) {
    (void)flags;
    wchar_t *w = wide(name);
    if (!w) return dl_fail("the name's UTF-8", name);
    HMODULE m = LoadLibraryW(w);
    free(w);
    return m ? (void *)m : dl_fail("LoadLibrary", name);
}

void *ear__win_dlsym(void *lib, const char *symbol) {
    FARPROC p = GetProcAddress((HMODULE)lib, symbol);
    if (!p) return dl_fail("GetProcAddress", symbol);
    void *out;
    memcpy(&out, &p, sizeof out);
    return out;
}

int ear__win_dlclose(void *lib) {
    return FreeLibrary((HMODULE)lib) ? 0 : -1;
}

char *ear__win_dlerror(void) {
    if (!dl_failed) return NULL;
    dl_failed = false;
    return dl_error;
}

/* Whether a read of fd would not wait: 1 ready, 0 not yet, -1 closed or broken (a read
 * sees the end). */
static int fd_ready(int fd) {
    HANDLE h = (HANDLE)_get_osfhandle(fd);
    if (h == INVALID_HANDLE_VALUE) return -2;
    switch (GetFileType(h)) {
    case FILE_TYPE_PIPE: {
        DWORD avail = 0;
        if (!PeekNamedPipe(h, NULL, 0, NULL, &avail, NULL)) return -1;
        return avail > 0;
    }
    case FILE_TYPE_CHAR: {
        DWORD events = 0;
        if (GetNumberOfConsoleInputEvents(h, &events)) return events > 0;
        return 1; /* NUL and other character devices never wait */
    }
    default: return 1; /* a disk file */
    }
}

int ear__win_poll(struct pollfd *fds, nfds_t count, int timeout_ms) {
    ULONGLONG start = GetTickCount64();
    for (;;) {
        int ready = 0;
        for (nfds_t i = 0; i < count; i++) {
            fds[i].revents = 0;
            int r = fd_ready(fds[i].fd);
            if (r == -2)
                fds[i].revents = POLLNVAL;
            else if (r < 0)
                fds[i].revents = (short)(POLLHUP | (fds[i].events & POLLIN));
            else if (r > 0)
                fds[i].revents = (short)(fds[i].events & (POLLIN | POLLOUT));
            else
                fds[i].revents = (short)(fds[i].events & POLLOUT);
            if (fds[i].revents) ready++;
        }
        if (ready || timeout_ms == 0) return ready;
        if (timeout_ms > 0 && GetTickCount64() - start >= (ULONGLONG)timeout_ms) return 0;
        Sleep(1);
    }
}

struct ear__win_locale {
    char numeric[64];
};

locale_t ear__win_newlocale(int mask, const char *name, locale_t base) {
    (void)base;
    if (mask != LC_NUMERIC_MASK || !name || strlen(name) >= 64) {
        errno = EINVAL;
        return NULL;
    }
    locale_t l = calloc(1, sizeof *l);
    if (!l) {
        errno = ENOMEM;
        return NULL;
    }
    memcpy(l->numeric, name, strlen(name) + 1);
    return l;
}

/* What uselocale answers with: this thread's LC_NUMERIC before the switch. */
static _Thread_local struct ear__win_locale previous;

locale_t ear__win_uselocale(locale_t locale) {
    if (!locale) return &previous;
    if (locale != &previous) {
        _configthreadlocale(_ENABLE_PER_THREAD_LOCALE);
        const char *now = setlocale(LC_NUMERIC, NULL);
        snprintf(previous.numeric, sizeof previous.numeric, "%s", now ? now : "C");
    }
    setlocale(LC_NUMERIC, locale->numeric);
    return &previous;
}

void ear__win_freelocale(locale_t locale) {
    if (locale != &previous) free(locale);
}

ssize_t ear__win_read(int fd, void *buf, size_t size) {
    return _read(fd, buf, size > INT_MAX ? INT_MAX : (unsigned)size);
}

ssize_t ear__win_write(int fd, const void *buf, size_t size) {
    return _write(fd, buf, size > INT_MAX ? INT_MAX : (unsigned)size);
}

char *ear__win_realpath(const char *path, char *resolved) {
    wchar_t *w = wide(path);
    if (!w) return NULL;
    wchar_t full[32768];
    DWORD n = GetFullPathNameW(w, 32768, full, NULL);
    free(w);
    if (n == 0 || n >= 32768) {
        errno = n ? ENAMETOOLONG : errno_of(GetLastError());
        return NULL;
    }
    if (GetFileAttributesW(full) == INVALID_FILE_ATTRIBUTES) {
        errno = errno_of(GetLastError());
        return NULL;
    }
    int len = WideCharToMultiByte(CP_UTF8, 0, full, -1, NULL, 0, NULL, NULL);
    if (len <= 0) {
        errno = EINVAL;
        return NULL;
    }
    if (resolved && len > PATH_MAX) { /* the caller's buffer is PATH_MAX bytes */
        errno = ENAMETOOLONG;
        return NULL;
    }
    if (!resolved && !(resolved = malloc((size_t)len))) {
        errno = ENOMEM;
        return NULL;
    }
    WideCharToMultiByte(CP_UTF8, 0, full, -1, resolved, len, NULL, NULL);
    for (char *p = resolved; *p; p++)
        if (*p == '\\') *p = '/';
    return resolved;
}

int ear__win_remove_unlocked(const char *path) {
    wchar_t *w = wide(path);
    if (!w) return 0;
    HANDLE h = CreateFileW(w, GENERIC_READ | DELETE,
                           FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
                           OPEN_EXISTING, FILE_FLAG_OPEN_REPARSE_POINT, NULL);
    free(w);
    if (h == INVALID_HANDLE_VALUE) return 0;
    OVERLAPPED at;
    memset(&at, 0, sizeof at);
    int removed = 0;
    /* A shared lock is refused while a writer holds its exclusive one: that file is live. */
    if (GetFileType(h) == FILE_TYPE_DISK &&
        LockFileEx(h, LOCKFILE_FAIL_IMMEDIATELY, 0, MAXDWORD, MAXDWORD, &at)) {
        FILE_DISPOSITION_INFO gone = {TRUE};
        removed =
            SetFileInformationByHandle(h, FileDispositionInfo, &gone, sizeof gone) ? 1 : 0;
        UnlockFileEx(h, 0, MAXDWORD, MAXDWORD, &at);
    }
    CloseHandle(h);
    return removed;
}

int ear__win_link(const char *from, const char *to) {
    wchar_t *f = wide(from), *t = f ? wide(to) : NULL;
    int r = -1;
    if (f && t) {
        if (CreateHardLinkW(t, f, NULL))
            r = 0;
        else
            errno = errno_of(GetLastError());
    }
    free(f);
    free(t);
    return r;
}

ssize_t ear__win_pread(int fd, void *buf, size_t size, off_t offset) {
    __int64 was = _lseeki64(fd, 0, SEEK_CUR);
    if (was < 0 || _lseeki64(fd, (__int64)offset, SEEK_SET) < 0) return -1;
    ssize_t got = ear__win_read(fd, buf, size);
    int e = errno;
    (void)_lseeki64(fd, was, SEEK_SET);
    errno = e;
    return got;
}
