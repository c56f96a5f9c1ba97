/* SPDX-License-Identifier: Zlib */
/*
 * poll() for the Windows build, which has none (posix_win.h's essay; platform_win.c):
 * POLLIN on a pipe, a file or a console. On the include path of the Windows build only.
 */
#ifndef EAR_WIN_POLL_H
#define EAR_WIN_POLL_H

#define POLLIN   0x0001
#define POLLPRI  0x0002
#define POLLOUT  0x0004
#define POLLERR  0x0008
#define POLLHUP  0x0010
#define POLLNVAL 0x0020

struct pollfd {
    int fd;
    short events;
    short revents;
};
typedef unsigned long nfds_t;

int ear__win_poll(struct pollfd *fds, nfds_t count, int timeout_ms);
#define poll ear__win_poll

#endif
