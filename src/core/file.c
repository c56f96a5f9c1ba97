/* SPDX-License-Identifier: Zlib */
/*
 * Files read and written the one safe way (core.h, "Files").
 *
 * Reading: the path is opened with O_NONBLOCK (a FIFO opens at once instead of waiting for
 * a writer), O_NOCTTY (a terminal never becomes ours) and O_CLOEXEC, and every check is
 * made on the open descriptor with fstat, so what is read is what was checked: a regular
 * file whose size at open is within the caller's limit. A file that grows while it is read
 * is read at most one byte past the limit and then refused. O_NONBLOCK is cleared once the
 * descriptor is known to be a regular file (where it means nothing), so a library handed
 * the descriptor sees an ordinary one.
 *
 * Writing: what is at the path is looked at with lstat (a link is never followed) and
 * either refused or noted (its device and inode); the bytes go to a temporary file made by
 * mkstemp beside the path (O_EXCL, so no planted name is opened), which is fsync'ed,
 * checked again (what is at the path must still be what was noted) and renamed over the
 * path; the folder is fsync'ed last. rename replaces a name, never what a link points to.
 * The temporary file carries a write lock until it is closed, so storage's clean-up of
 * stale temporary saves in another process leaves a live one alone. A window remains
 * between the last check and the rename in which another process could put a file at the
 * path; rename would replace it. POSIX has no rename that refuses to replace a file
 * (Linux's renameat2 RENAME_NOREPLACE fits only the "nothing was there" case), and the
 * window is a few system calls wide.
 */
#define _DEFAULT_SOURCE /* mkstemp, fsync, fchmod, fdopen, O_NOFOLLOW */
#include "earshot/core.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static ear_result
fail(char *error, size_t error_size, ear_result r, const char *format, ...) {
    if (error && error_size) {
        va_list args;
        va_start(args, format);
        vsnprintf(error, error_size, format, args);
        va_end(args);
    }
    return r;
}

const char *ear_file_kind_name(unsigned mode) {
    mode_t m = (mode_t)mode;
    if (S_ISREG(m)) return NULL;
    if (S_ISDIR(m)) return "a folder";
    if (S_ISFIFO(m)) return "a FIFO";
    if (S_ISSOCK(m)) return "a socket";
    if (S_ISCHR(m)) return "a character device";
    if (S_ISBLK(m)) return "a block device";
    if (S_ISLNK(m)) return "a symbolic link";
    return "not a regular file";
}

const char *ear_file_reason(const char *message, const char *path) {
    if (!message) return "";
    if (!path) return message;
    size_t n = strlen(path);
    if (strncmp(message, path, n) == 0 && message[n] == ':' && message[n + 1] == ' ')
        return message + n + 2;
    return message;
}

/* "16 MiB" when the limit is a whole number of MiB, else "N bytes". */
static void limit_text(char *out, size_t size, uint64_t max_bytes) {
    if (max_bytes >= ((uint64_t)1 << 20) && max_bytes % ((uint64_t)1 << 20) == 0)
        snprintf(out, size, "%" PRIu64 " MiB", max_bytes >> 20);
    else
        snprintf(out, size, "%" PRIu64 "-byte", max_bytes);
}

ear_result ear_file_open_read(const char *path, uint64_t max_bytes, int *out_fd,
                              uint64_t *out_size, char *error, size_t error_size) {
    if (error && error_size) error[0] = '\0';
    if (!path || !*path || !out_fd)
        return fail(error, error_size, EAR_E_INVALID_ARG, "%s: no path", path ? path : "");
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        if (e == ENOENT || e == ENOTDIR)
            return fail(error, error_size, EAR_E_NOT_FOUND, "%s: no such file", path);
        if (e == ENXIO) /* a socket, or a device with nothing behind it */
            return fail(error, error_size, EAR_E_IO, "%s: is not a file", path);
        /* Windows refuses to open a folder (EACCES) where POSIX opens it and fstat tells:
         * say what it is either way. */
        struct stat at;
        const char *what = (e == EACCES || e == EISDIR) && stat(path, &at) == 0
                               ? ear_file_kind_name((unsigned)at.st_mode)
                               : NULL;
        if (what) return fail(error, error_size, EAR_E_IO, "%s: is %s, not a file", path, what);
        return fail(error, error_size, EAR_E_IO, "%s: cannot be opened (%s)", path,
                    strerror(e));
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return fail(error, error_size, EAR_E_IO, "%s: cannot be read (%s)", path, strerror(e));
    }
    const char *kind = ear_file_kind_name((unsigned)st.st_mode);
    if (kind) {
        close(fd);
        return fail(error, error_size, EAR_E_IO, "%s: is %s, not a file", path, kind);
    }
    if ((uint64_t)st.st_size > max_bytes) {
        close(fd);
        char limit[48];
        limit_text(limit, sizeof limit, max_bytes);
        return fail(error, error_size, EAR_E_FORMAT,
                    "%s: is %" PRIu64 " bytes, over the %s limit for this file", path,
                    (uint64_t)st.st_size, limit);
    }
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0) (void)fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    *out_fd = fd;
    if (out_size) *out_size = (uint64_t)st.st_size;
    return EAR_OK;
}

ear_result ear_file_read(const char *path, uint64_t max_bytes, const ear_allocator *allocator,
                         char **out_data, size_t *out_size, char *error, size_t error_size) {
    if (!out_data || !out_size)
        return fail(error, error_size, EAR_E_INVALID_ARG, "%s: no output", path ? path : "");
    if (max_bytes >= SIZE_MAX) max_bytes = SIZE_MAX - 1;
    int fd;
    uint64_t at_open = 0;
    ear_result r = ear_file_open_read(path, max_bytes, &fd, &at_open, error, error_size);
    if (r != EAR_OK) return r;
    ear_allocator a = ear_allocator_resolve(allocator);
    /* The size at open plus one byte, to see the end (or growth) in the first read. */
    size_t cap = (size_t)at_open + 2, len = 0;
    char *data = a.alloc_fn(cap, a.user);
    while (data) {
        if (cap - len < 2) {
            size_t bigger = cap > SIZE_MAX / 2 ? SIZE_MAX : cap * 2;
            if (bigger > (size_t)max_bytes + 2) bigger = (size_t)max_bytes + 2;
            char *grown = a.realloc_fn(data, bigger, a.user);
            if (!grown) {
                a.free_fn(data, a.user);
                data = NULL;
                break;
            }
            data = grown;
            cap = bigger;
        }
        ssize_t got = read(fd, data + len, cap - len - 1);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) {
            int e = errno;
            a.free_fn(data, a.user);
            close(fd);
            return fail(error, error_size, EAR_E_IO, "%s: cannot be read (%s)", path,
                        strerror(e));
        }
        if (got == 0) break;
        len += (size_t)got;
        if (len > max_bytes) {
            a.free_fn(data, a.user);
            close(fd);
            char limit[48];
            limit_text(limit, sizeof limit, max_bytes);
            return fail(error, error_size, EAR_E_FORMAT,
                        "%s: grew past the %s limit for this file while it was read", path,
                        limit);
        }
    }
    close(fd);
    if (!data) return fail(error, error_size, EAR_E_OUT_OF_MEMORY, "%s: out of memory", path);
    data[len] = '\0';
    *out_data = data;
    *out_size = len;
    return EAR_OK;
}

/* ---- Writing ---------------------------------------------------------------------- */

ear_file_write_config ear_file_write_config_default(void) {
    ear_file_write_config c;
    memset(&c, 0, sizeof c);
    return c;
}

bool ear_file_write_all(int fd, const void *data, size_t size) {
    const char *p = data;
    while (size > 0) {
        ssize_t n = write(fd, p, size);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return false;
        if (n == 0) {
            errno = EIO;
            return false;
        }
        p += n;
        size -= (size_t)n;
    }
    return true;
}

static void writer_zero(ear_file_writer *w) {
    memset(w, 0, sizeof *w);
    w->fd = -1;
}

/* Makes "<path>.tmp-XXXXXX" (mode 0600) and takes a write lock on it. A clean-up in
 * another process (storage's) that removed it between mkstemp and the lock leaves it
 * with no name: then another is made. -1 with errno on failure. */
static int create_temp(char *tmp, size_t len, const char *path) {
    for (int attempt = 0;; attempt++) {
        snprintf(tmp, len, "%s.tmp-XXXXXX", path);
        int fd = mkstemp(tmp);
        if (fd < 0) return -1;
        (void)fcntl(fd, F_SETFD, FD_CLOEXEC);
        struct flock lock;
        memset(&lock, 0, sizeof lock);
        lock.l_type = F_WRLCK;
        lock.l_whence = SEEK_SET;
        (void)fcntl(fd, F_SETLKW, &lock);
        struct stat st;
        if (attempt == 2 || fstat(fd, &st) != 0 || st.st_nlink > 0) return fd;
        close(fd);
    }
}

/* Opens the character device or FIFO at path for writing into it, without waiting for a
 * reader and without following a link; -1 with errno when that is not possible. */
static int open_device(const char *path, const struct stat *was) {
    int fd = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) return -1;
    struct stat st;
    if (fstat(fd, &st) != 0 || st.st_dev != was->st_dev || st.st_ino != was->st_ino) {
        close(fd);
        errno = EAGAIN;
        return -1;
    }
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0) (void)fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    return fd;
}

ear_result ear_file_write_begin(const char *path, const ear_file_write_config *config,
                                ear_file_writer *w, char *error, size_t error_size) {
    if (error && error_size) error[0] = '\0';
    if (!w) return EAR_E_INVALID_ARG;
    writer_zero(w);
    if (!path || !*path || path[strlen(path) - 1] == '/')
        return fail(error, error_size, EAR_E_INVALID_ARG, "%s: not a file name",
                    path ? path : "");
    ear_file_write_config c = config ? *config : ear_file_write_config_default();
    const char *hint = c.overwrite_hint ? c.overwrite_hint : " (overwrite replaces it)";
    struct stat st;
    bool existed = lstat(path, &st) == 0;
    if (!existed && errno != ENOENT) {
        int e = errno;
        return fail(error, error_size, EAR_E_IO, "%s: %s", path,
                    e == ENOTDIR ? "no such folder" : strerror(e));
    }
    bool direct = false;
    if (existed) {
        const char *kind = ear_file_kind_name((unsigned)st.st_mode);
        if (S_ISLNK(st.st_mode)) {
            if (!c.overwrite)
                return fail(error, error_size, EAR_E_STATE,
                            "%s: is a symbolic link, which is not followed; it is kept%s", path,
                            hint);
        } else if (c.stream_devices && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))) {
            direct = true;
        } else if (kind) {
            return fail(error, error_size, EAR_E_STATE, "%s: is %s; it is never replaced", path,
                        kind);
        } else if (!c.overwrite) {
            bool ours = false;
            if (c.ours) {
                int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
                if (fd >= 0) {
                    struct stat now;
                    bool regular = fstat(fd, &now) == 0 && S_ISREG(now.st_mode);
#ifdef _WIN32 /* no inodes there: the volume and file index */
                    bool same = regular && ear__win_same_file(fd, path);
#else
                    bool same = regular && now.st_ino == st.st_ino && now.st_dev == st.st_dev;
#endif
                    ours = same && c.ours(fd, c.ours_user);
                    close(fd);
                }
            }
            if (!ours)
                return fail(error, error_size, EAR_E_STATE,
                            "%s: exists and is not %s; it is kept%s", path,
                            c.ours_name ? c.ours_name : "a file Earshot wrote", hint);
        }
    }
    size_t len = strlen(path);
    w->path = malloc(len + 1);
    if (!w->path)
        return fail(error, error_size, EAR_E_OUT_OF_MEMORY, "%s: out of memory", path);
    memcpy(w->path, path, len + 1);
    w->existed = existed;
    if (existed) {
        w->dev = (uint64_t)st.st_dev;
        w->ino = (uint64_t)st.st_ino;
    }
    if (direct) {
        w->fd = open_device(path, &st);
        if (w->fd < 0) {
            int e = errno;
            free(w->path);
            writer_zero(w);
            if (e == ENXIO)
                return fail(error, error_size, EAR_E_STATE, "%s: is a FIFO with no reader",
                            path);
            return fail(error, error_size, EAR_E_IO, "%s: cannot be opened (%s)", path,
                        strerror(e));
        }
        return EAR_OK;
    }
    w->tmp = malloc(len + sizeof ".tmp-XXXXXX");
    if (!w->tmp) {
        free(w->path);
        writer_zero(w);
        return fail(error, error_size, EAR_E_OUT_OF_MEMORY, "%s: out of memory", path);
    }
    w->fd = create_temp(w->tmp, len + sizeof ".tmp-XXXXXX", path);
    if (w->fd < 0) {
        int e = errno;
        free(w->tmp);
        free(w->path);
        writer_zero(w);
        return fail(error, error_size, EAR_E_IO, "%s: %s", path,
                    e == ENOENT || e == ENOTDIR ? "no such folder" : strerror(e));
    }
    (void)fchmod(w->fd, c.mode ? (mode_t)c.mode : (mode_t)0644);
    return EAR_OK;
}

FILE *ear_file_writer_stream(ear_file_writer *w) {
    if (!w || w->fd < 0) return NULL;
    if (!w->stream) w->stream = fdopen(w->fd, "w");
    return w->stream;
}

/* Flushes the writer's stream (if any) and fsyncs its temporary file; 0 or errno. */
static int sync_output(ear_file_writer *w) {
    if (w->stream && (fflush(w->stream) != 0 || ferror(w->stream))) return errno ? errno : EIO;
    if (w->tmp && w->fd >= 0 && fsync(w->fd) != 0) return errno;
    return 0;
}

/* Closes the writer's stream or descriptor; the error of the close, or 0. */
static int close_output(ear_file_writer *w) {
    int e = 0;
    if (w->stream) {
        if (fclose(w->stream) != 0) e = errno ? errno : EIO;
    } else if (w->fd >= 0) {
        if (close(w->fd) != 0) e = errno;
    }
    w->stream = NULL;
    w->fd = -1;
    return e;
}

int ear_file_sync_folder_of(const char *path) {
#ifdef _WIN32
    /* A folder cannot be opened to flush on Windows (posix_win.h); the rename itself was
     * written through (MOVEFILE_WRITE_THROUGH). */
    (void)path;
    return 0;
#endif
    const char *slash = strrchr(path, '/');
    char dir[4096];
    if (!slash)
        memcpy(dir, ".", 2);
    else if (slash == path)
        memcpy(dir, "/", 2);
    else {
        size_t n = (size_t)(slash - path);
        if (n >= sizeof dir) return ENAMETOOLONG;
        memcpy(dir, path, n);
        dir[n] = '\0';
    }
    int fd = open(dir, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return errno;
    int e = fsync(fd) == 0 ? 0 : errno;
    close(fd);
    /* Some file systems cannot fsync a folder; the rename still happened. */
    return e == EINVAL ? 0 : e;
}

ear_result ear_file_write_commit(ear_file_writer *w, char *error, size_t error_size) {
    if (error && error_size) error[0] = '\0';
    if (!w || !w->path) return EAR_E_INVALID_ARG;
    /* The bytes are flushed and fsync'ed first; the temporary file is closed only after
     * its rename, so its lock covers the rename (a clean-up elsewhere leaves it alone). */
    int e = sync_output(w);
    if (!e && !w->tmp) e = close_output(w); /* a device: its close may report the error */
    ear_result r = EAR_OK;
    if (e) {
        r = fail(error, error_size, EAR_E_IO,
                 w->tmp ? "%s: cannot be written (%s); the previous file is kept"
                        : "%s: cannot be written (%s)",
                 w->path, strerror(e));
    } else if (w->tmp) {
        struct stat st;
        bool there = lstat(w->path, &st) == 0;
        bool same =
            there ? w->existed && (uint64_t)st.st_dev == w->dev && (uint64_t)st.st_ino == w->ino
                  : !w->existed || errno == ENOENT;
        if (!same)
            r = fail(error, error_size, EAR_E_STATE,
                     "%s: was changed by someone else while it was written; it is kept",
                     w->path);
        else if (rename(w->tmp, w->path) != 0)
            r = fail(error, error_size, EAR_E_IO,
                     "%s: cannot rename the temporary file over it (%s); the previous file "
                     "is kept",
                     w->path, strerror(errno));
    }
    if (r != EAR_OK && w->tmp) (void)unlink(w->tmp);
    /* fsync'ed already: the close has nothing left to say about the bytes. */
    (void)close_output(w);
    if (r == EAR_OK && w->tmp && (e = ear_file_sync_folder_of(w->path)) != 0)
        ear_log(EAR_LOG_WARN, "core", "%s: written, but its folder could not be fsync'ed (%s)",
                w->path, strerror(e));
    free(w->tmp);
    free(w->path);
    writer_zero(w);
    return r;
}

void ear_file_write_abort(ear_file_writer *w) {
    if (!w) return;
    (void)close_output(w);
    if (w->tmp) (void)unlink(w->tmp);
    free(w->tmp);
    free(w->path);
    writer_zero(w);
}

ear_result ear_file_write(const char *path, const void *data, size_t size,
                          const ear_file_write_config *config, char *error, size_t error_size) {
    if (!data && size) return EAR_E_INVALID_ARG;
    ear_file_writer w;
    ear_result r = ear_file_write_begin(path, config, &w, error, error_size);
    if (r != EAR_OK) return r;
    if (size && !ear_file_write_all(w.fd, data, size)) {
        int e = errno;
        bool replacing = w.tmp != NULL;
        ear_file_write_abort(&w);
        return fail(error, error_size, EAR_E_IO,
                    replacing ? "%s: cannot be written (%s); the previous file is kept"
                              : "%s: cannot be written (%s)",
                    path, strerror(e));
    }
    return ear_file_write_commit(&w, error, error_size);
}
