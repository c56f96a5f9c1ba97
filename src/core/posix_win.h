/* SPDX-License-Identifier: Zlib */
/*
 * The POSIX names Earshot's files use, on Windows (mingw-w64). The Windows build includes
 * this header before anything else in every file (-include, src/core/CMakeLists.txt), so
 * the modules keep their one POSIX way of doing things and the differences live here and
 * in platform_win.c, the only file that includes <windows.h>:
 *
 * - open flags that mean nothing on Windows are 0: O_NONBLOCK and O_NOCTTY (no FIFO nor
 *   terminal is opened by a path there), O_NOFOLLOW (see lstat); O_CLOEXEC is
 *   _O_NOINHERIT | _O_BINARY (every open of Earshot's says it). Files are binary: every
 *   program links mingw's binmode.o (_fmode) too.
 * - lstat is stat and S_ISLNK is false: a Windows symbolic link needs a privilege to
 *   create and CreateFile follows it; the checks on the open descriptor still hold.
 * - fsync is _commit (FlushFileBuffers). A folder cannot be opened to flush: file.c's
 *   ear_file_sync_folder_of does nothing on Windows (the rename is written through).
 * - rename replaces the target (MoveFileEx with MOVEFILE_REPLACE_EXISTING): Windows'
 *   rename() refuses an existing one, POSIX replaces it.
 * - mkstemp opens with FILE_SHARE_DELETE, so the still-open temporary file can be renamed
 *   over the path (the writer closes it after the rename, to keep its lock over it).
 * - fcntl does what the writer and storage ask: F_SETLK/F_SETLKW take a LockFileEx lock
 *   (F_RDLCK shared, F_WRLCK exclusive) over the whole file; F_GETFD says FD_CLOEXEC when
 *   the handle is not inheritable (GetHandleInformation); F_GETFL/F_SETFL/F_SETFD are
 *   accepted and change nothing.
 * - mkdir ignores the mode; fchmod sets the read-only bit only (Windows has no modes).
 * - geteuid is 0, as a Windows stat's st_uid is.
 * - pread reads at an offset and leaves the descriptor's position where it was.
 * - read and write take a size_t and return an ssize_t, as POSIX's (the CRT's take an
 *   unsigned int); they are object-like macros, so a struct member of that name (a
 *   stream's read callback) is renamed alike in every file and still works.
 * - realpath is GetFullPathName of a path that exists, with '/' as its separator (the
 *   callers compare folder prefixes at '/'); readlink never finds a link (see lstat).
 * - mkdtemp makes the folder with CreateDirectory (a random name, retried); setenv and
 *   unsetenv are _putenv_s; alarm (the tests' watchdog) does nothing: CTest's timeout is the
 *   watchdog there.
 * - The C locale for numbers (newlocale/uselocale of LC_NUMERIC_MASK "C") is the CRT's
 *   per-thread locale set to "C" and back.
 * - Signals: SIGINT (Ctrl+C in a console) through the CRT's signal(); sigaction sets the
 *   handler that way; SIGPIPE does not exist (a write to a closed pipe fails with EPIPE
 *   anyway) and the signal-set calls change nothing.
 * - poll (src/core/win/poll.h) answers for the descriptors Earshot polls, its standard
 *   input: a pipe (PeekNamedPipe), a file (always ready) or a console.
 * - dlopen (src/core/win/dlfcn.h) is LoadLibrary, with the UTF-8 name made wide.
 */
#ifndef EAR_POSIX_WIN_H
#define EAR_POSIX_WIN_H
#ifdef _WIN32

#include <direct.h>
#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#define O_NOFOLLOW 0
#define O_NONBLOCK 0
#define O_NOCTTY   0
/* Every open() of Earshot's says O_CLOEXEC, so that is where binary goes too: the CRT's
 * _open takes its default translation from _fmode otherwise, and a test or a game that is
 * not linked with binmode.o (or sets _fmode itself) read sealed saves with CR-LF and
 * Ctrl-Z translated: an encrypted save whose random nonce or cipher held those bytes did
 * not open again. */
#undef O_CLOEXEC
#define O_CLOEXEC  (_O_NOINHERIT | _O_BINARY)
#define FD_CLOEXEC 1
#define F_GETFD    1
#define F_SETFD    2
#define F_GETFL    3
#define F_SETFL    4
#define F_SETLK    6
#define F_SETLKW   7
#define F_RDLCK    0
#define F_WRLCK    1
#define F_UNLCK    2
struct flock {
    short l_type;
    short l_whence;
    off_t l_start;
    off_t l_len;
    int l_pid;
};
#ifndef S_ISLNK
#define S_ISLNK(m) ((void)(m), 0)
#endif
#ifndef S_ISSOCK
#define S_ISSOCK(m) ((void)(m), 0)
#endif
#ifndef S_ISBLK
#define S_ISBLK(m) ((void)(m), 0)
#endif
#ifndef S_ISFIFO
#define S_ISFIFO(m) (((m)&_S_IFMT) == _S_IFIFO)
#endif
typedef int uid_t;
#ifndef _POSIX
typedef _sigset_t sigset_t;
#endif

/* mingw-w64's classification macros pick float/double/long double versions with
 * __builtin_choose_expr, whose unchosen branches -Wconversion warns about: GCC's type-
 * generic built-ins instead (the same answers). */
#include <math.h>
#undef isfinite
#undef isnan
#undef isinf
#undef isnormal
#undef signbit
#undef fpclassify
#define isfinite(x) __builtin_isfinite(x)
#define isnan(x)    __builtin_isnan(x)
#define isinf(x)    __builtin_isinf_sign(x)
#define isnormal(x) __builtin_isnormal(x)
#define signbit(x)  __builtin_signbit(x)
#define fpclassify(x)                                                                          \
    __builtin_fpclassify(FP_NAN, FP_INFINITE, FP_NORMAL, FP_SUBNORMAL, FP_ZERO, x)

#include <signal.h>
#ifndef SIGPIPE
#define SIGPIPE 13
#endif
#ifndef SIG_BLOCK
#define SIG_BLOCK 0
#endif
struct sigaction {
    void (*sa_handler)(int);
    sigset_t sa_mask;
    int sa_flags;
};
static inline int ear__win_sigemptyset(sigset_t *set) {
    *set = 0;
    return 0;
}
static inline int ear__win_sigaddset(sigset_t *set, int sig) {
    *set |= (sigset_t)1 << sig;
    return 0;
}
static inline int ear__win_sigaction(int sig, const struct sigaction *act,
                                     struct sigaction *old) {
    (void)old;
    return signal(sig, act->sa_handler) == SIG_ERR ? -1 : 0;
}
#define sigemptyset              ear__win_sigemptyset
#define sigaddset                ear__win_sigaddset
#define sigaction(sig, act, old) ear__win_sigaction(sig, act, old)

int ear__win_fcntl(int fd, int cmd, ...);
int ear__win_mkstemp(char *templ);
int ear__win_rename(const char *from, const char *to);
int ear__win_fchmod(int fd, unsigned mode);
int ear__win_mkdir(const char *path, unsigned mode);

typedef struct ear__win_locale *locale_t;
#define LC_NUMERIC_MASK 1
locale_t ear__win_newlocale(int mask, const char *name, locale_t base);
locale_t ear__win_uselocale(locale_t locale);
void ear__win_freelocale(locale_t locale);
ssize_t ear__win_read(int fd, void *buf, size_t size);
ssize_t ear__win_write(int fd, const void *buf, size_t size);
char *ear__win_realpath(const char *path, char *resolved);
/* Removes the file at path when no writer holds a lock on it; 1 removed, 0 not. */
int ear__win_remove_unlocked(const char *path);
/* Whether the open fd and the file at path are one file (the same volume and file index:
 * a Windows stat has no inode, and fstat's st_dev is not stat's). */
int ear__win_same_file(int fd, const char *path);
/* A hard link (CreateHardLink), which refuses an existing name as POSIX link does. */
int ear__win_link(const char *from, const char *to);

char *ear__win_mkdtemp(char *templ);
int ear__win_setenv(const char *name, const char *value, int overwrite);
int ear__win_unsetenv(const char *name);

ssize_t ear__win_pread(int fd, void *buf, size_t size, off_t offset);
#define pread    ear__win_pread
#define mkdtemp  ear__win_mkdtemp
#define setenv   ear__win_setenv
#define unsetenv ear__win_unsetenv
static inline unsigned ear__win_alarm(unsigned seconds) {
    (void)seconds;
    return 0;
}
#define alarm                     ear__win_alarm
#define newlocale                 ear__win_newlocale
#define uselocale                 ear__win_uselocale
#define freelocale                ear__win_freelocale
#define read                      ear__win_read
#define write                     ear__win_write
#define realpath                  ear__win_realpath
#define link                      ear__win_link
#define readlink(path, buf, size) ((void)(path), (void)(buf), (void)(size), errno = EINVAL, -1)
#define fcntl                     ear__win_fcntl
#define mkstemp                   ear__win_mkstemp
#define rename                    ear__win_rename
#define fchmod                    ear__win_fchmod
#define mkdir(path, mode)         ear__win_mkdir(path, mode)
#define fsync                     _commit
#define lstat                     stat
#define geteuid()                 0

#endif
#endif
