/* SPDX-License-Identifier: Zlib */
/*
 * For the tests' sources only, in the Windows build (tests/CMakeLists.txt includes it first
 * there, after src/core/posix_win.h): the POSIX calls some tests make to build their
 * fixtures — FIFOs, symbolic links, child processes — which Windows does not have. Each
 * fails with ENOSYS, so the tests that need one fail loudly if run; scripts/test-windows
 * names them and does not run them under Wine (docs/windows.md lists them).
 */
#ifndef EAR_WIN_TEST_SHIMS_H
#define EAR_WIN_TEST_SHIMS_H
#ifdef _WIN32

#include <errno.h>
#include <sys/types.h>

static inline int ear__test_enosys(void) {
    errno = ENOSYS;
    return -1;
}
#define mkfifo(path, mode)    ((void)(path), (void)(mode), ear__test_enosys())
#define symlink(target, path) ((void)(target), (void)(path), ear__test_enosys())
#define fork()                ear__test_enosys()
#define waitpid(pid, status, flags)                                                            \
    ((void)(pid), (void)(status), (void)(flags), ear__test_enosys())
#define pipe(fds)           ((void)(fds), ear__test_enosys())
#define kill(pid, sig)      ((void)(pid), (void)(sig), ear__test_enosys())
#define WIFEXITED(status)   ((void)(status), 0)
#define WEXITSTATUS(status) ((void)(status), 0)
#define WIFSIGNALED(status) ((void)(status), 0)
#define WTERMSIG(status)    ((void)(status), 0)
/* setrlimit (a file size limit for a child that is never forked there) */
struct rlimit {
    unsigned long rlim_cur, rlim_max;
};
#define RLIMIT_FSIZE          1
#define setrlimit(what, lim)  ((void)(what), (void)(lim), ear__test_enosys())
#define chown(path, uid, gid) ((void)(path), (void)(uid), (void)(gid), ear__test_enosys())
#ifndef SIGXFSZ
#define SIGXFSZ 25
#endif
#ifndef SIGKILL
#define SIGKILL 9
#endif

#endif
#endif
