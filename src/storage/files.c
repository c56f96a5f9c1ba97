/* SPDX-License-Identifier: Zlib */
/*
 * File safety for saves: what makes a save survive a crash, a full disk, a symlink and
 * another process, whatever the store holds.
 *
 * File I/O goes through POSIX calls (open, write, fsync, rename, link) because the
 * atomic-save guarantee needs fsync on the file and on its folder, which stdio cannot
 * give. A save path is followed through symbolic links to the file they name
 * (ear__save_target) before every load, save and move aside, so a symlinked save is
 * written through to its target with the temporary file beside the target; a path that
 * ends at a FIFO, a device, a socket or a folder is refused and never opened for writing.
 * Reading is core's bounded read (ear_file_read: a regular file of at most
 * EAR_FILE_MAX_SAVE_BYTES, checked on the open descriptor, so a FIFO planted at the path is
 * refused at once, never waited on). Writing is core's safe write: a temporary file beside
 * the save, fsync'ed, renamed over it, the folder fsync'ed. The temporary files a crash
 * left are removed at the next load, never one a live writer holds. A file that cannot be
 * read as a save is kept under `<save>.broken` (never replacing one), not overwritten.
 *
 * Below storage.c in src/storage/ORDER: it calls core and the C library only, and takes the
 * store's allocator and paths as arguments. Thread: any, for different files (a save is one
 * game's); the before-rename hook is for tests.
 */
#include "storage_internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void (*ear__storage_before_rename)(const char *tmp_path) = NULL;

static char *copy_path(const ear_allocator *a, const char *text) {
    size_t n = strlen(text);
    char *copy = a->alloc_fn(n + 1, a->user);
    if (copy) memcpy(copy, text, n + 1);
    return copy;
}

/* What a save path that is not a file is, for messages ("a FIFO"); NULL for a
 * regular file. */
static const char *kind_of(mode_t mode) {
    if (S_ISREG(mode)) return NULL;
    if (S_ISDIR(mode)) return "a folder";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISSOCK(mode)) return "a socket";
    return "a device";
}

/* The file a save path names once symbolic links are followed (at most 40), as a new
 * string from the store's allocator: the path itself when it is no link, a link's
 * target (relative targets against the link's folder) otherwise. The target need not
 * exist (a dangling link is where a new save goes). NULL with errno set on failure;
 * with *kind set (and errno EINVAL) when the path ends at something that is not a
 * regular file. */
char *ear__save_target(const ear_allocator *a, const char *save_path, const char **kind) {
    *kind = NULL;
    char *path = copy_path(a, save_path);
    for (int hops = 0; path; hops++) {
        struct stat st;
        if (lstat(path, &st) != 0) {
            if (errno == ENOENT) return path;
            break;
        }
        if (!S_ISLNK(st.st_mode)) {
            if (!(*kind = kind_of(st.st_mode))) return path;
            errno = EINVAL;
            break;
        }
        if (hops == 40) {
            errno = ELOOP;
            break;
        }
        char link[4096];
        ssize_t n = readlink(path, link, sizeof link - 1);
        if (n < 0) break;
        link[n] = '\0';
        const char *slash = strrchr(path, '/');
        size_t dir_len = link[0] == '/' || !slash ? 0 : (size_t)(slash - path) + 1;
        char *next = a->alloc_fn(dir_len + (size_t)n + 1, a->user);
        if (!next) {
            errno = ENOMEM;
            break;
        }
        memcpy(next, path, dir_len);
        memcpy(next + dir_len, link, (size_t)n + 1);
        a->free_fn(path, a->user);
        path = next;
    }
    int e = errno;
    if (path) a->free_fn(path, a->user);
    errno = e;
    return NULL;
}

/* The reason core's read gives, cut to the file's own words (ear_file_reason). */
ear_result ear__save_read(const ear_allocator *a, const char *path, char **out_data,
                          size_t *out_size, char *why, size_t why_size) {
    char message[768];
    ear_result r = ear_file_read(path, EAR_FILE_MAX_SAVE_BYTES, a, out_data, out_size, message,
                                 sizeof message);
    if (r != EAR_OK) snprintf(why, why_size, "%s", ear_file_reason(message, path));
    return r;
}

/* A temporary file's name for the save named base: exactly "<base>.tmp-XXXXXX", the
 * six X being letters and digits as mkstemp makes them. */
static bool is_own_temp_name(const char *name, const char *base, size_t base_len) {
    if (strncmp(name, base, base_len) != 0 || strncmp(name + base_len, ".tmp-", 5) != 0)
        return false;
    const char *x = name + base_len + 5;
    for (int i = 0; i < 6; i++) {
        char c = x[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')))
            return false;
    }
    return x[6] == '\0';
}

#ifndef _WIN32
/* Whether the directory entry name in dfd is still the regular file st describes. */
static bool same_file(int dfd, const char *name, const struct stat *st) {
    struct stat now;
    return fstatat(dfd, name, &now, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(now.st_mode) &&
           now.st_dev == st->st_dev && now.st_ino == st->st_ino;
}
#endif

/* Removes the temporary files an interrupted save of file left beside it (a crash
 * between mkstemp and rename): names of exactly file's own pattern, regular files owned
 * by this user (links, FIFOs, folders and other users' files are left alone; no link is
 * followed), which no writer holds. A writer holds a write lock on its temporary file
 * from its creation to its rename (create_temp), so a save in progress in another
 * process is never touched. Says once in the log how many it removed. */
void ear__save_remove_stale_temps(const char *save_path, const char *file) {
    const char *slash = strrchr(file, '/');
    const char *base = slash ? slash + 1 : file;
    size_t base_len = strlen(base), dir_len = slash ? (size_t)(slash - file) : 0;
    char dir[4096];
    if (!slash)
        memcpy(dir, ".", 2);
    else if (dir_len == 0)
        memcpy(dir, "/", 2);
    else if (dir_len < sizeof dir) {
        memcpy(dir, file, dir_len);
        dir[dir_len] = '\0';
    } else {
        return;
    }
#ifdef _WIN32
    /* Windows has no folder descriptors: each name is joined to the folder, and the
     * lock test and the removal are one step on one handle (posix_win.h). */
    DIR *wd = opendir(dir);
    if (!wd) return;
    size_t gone = 0;
    char one[300] = "", joined[4400];
    for (struct dirent *e; (e = readdir(wd)) != NULL;) {
        struct stat st;
        snprintf(joined, sizeof joined, "%s/%s", dir, e->d_name);
        if (is_own_temp_name(e->d_name, base, base_len) && stat(joined, &st) == 0 &&
            S_ISREG(st.st_mode) && ear__win_remove_unlocked(joined) && gone++ == 0)
            snprintf(one, sizeof one, "%s", e->d_name);
    }
    closedir(wd);
    if (gone)
        ear_log(EAR_LOG_WARN, "storage",
                "save '%s': removed %zu temporary file%s left by an interrupted save (%s%s)",
                save_path, gone, gone == 1 ? "" : "s", one, gone > 1 ? ", ..." : "");
#else
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0) return;
    DIR *d = fdopendir(dfd);
    if (!d) {
        close(dfd);
        return;
    }
    size_t removed = 0;
    char first[300] = "";
    uid_t me = geteuid();
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        const char *name = de->d_name;
        struct stat st;
        if (!is_own_temp_name(name, base, base_len) ||
            fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode) ||
            st.st_uid != me)
            continue;
        int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
        if (fd < 0) continue;
        struct stat opened;
        struct flock lock;
        memset(&lock, 0, sizeof lock);
        lock.l_type = F_RDLCK;
        lock.l_whence = SEEK_SET;
        /* A read lock is refused while a writer holds its write lock: that one is live. */
        bool stale = fstat(fd, &opened) == 0 && opened.st_dev == st.st_dev &&
                     opened.st_ino == st.st_ino && fcntl(fd, F_SETLK, &lock) == 0;
        if (stale && same_file(dfd, name, &st) && unlinkat(dfd, name, 0) == 0) {
            if (removed++ == 0) snprintf(first, sizeof first, "%s", name);
        }
        close(fd);
    }
    closedir(d);
    if (removed)
        ear_log(EAR_LOG_WARN, "storage",
                "save '%s': removed %zu temporary file%s left by an interrupted save (%s%s)",
                save_path, removed, removed == 1 ? "" : "s", first, removed > 1 ? ", ..." : "");
#endif
}

static bool path_exists(const char *path) {
    struct stat st;
    return lstat(path, &st) == 0 || errno != ENOENT;
}

/* Moves the unusable file aside to the first free name of `<path>.broken`,
 * `<path>.broken.1`, ... without ever replacing an existing file. Returns the new name
 * (from a's memory, the caller's), or NULL with errno saying why. */
char *ear__save_move_aside(const ear_allocator *a, const char *file) {
    size_t len = strlen(file) + 32;
    char *target = a->alloc_fn(len, a->user);
    if (!target) {
        errno = ENOMEM;
        return NULL;
    }
    for (int n = 0; n < 100; n++) {
        if (n == 0)
            snprintf(target, len, "%s.broken", file);
        else
            snprintf(target, len, "%s.broken.%d", file, n);
        /* link() refuses to replace an existing name, so two runs cannot race one
         * broken file over another; where hard links are not supported, check and
         * rename instead. */
        if (link(file, target) == 0) {
            /* If unlink fails the bytes are still safe under the new name: a later
             * save renames a new file over the old name, it never writes into the
             * shared one. */
            (void)unlink(file);
        } else if (errno == EEXIST) {
            continue;
        } else if (path_exists(target)) {
            continue;
        } else if (rename(file, target) != 0) {
            break;
        }
        (void)ear_file_sync_folder_of(file);
        return target;
    }
    int e = errno == EEXIST || errno == 0 ? EEXIST : errno;
    a->free_fn(target, a->user);
    errno = e;
    return NULL;
}

/* Writes bytes through core's safe write (core.md) beside the save: "<file>.tmp-XXXXXX"
 * (mkstemp, mode 0600: saves are the player's own, with a write lock held until it is
 * closed after its rename, so that a load of the same save in another process
 * (remove_stale_temps) leaves it alone), fsync'ed, renamed over the save, the folder
 * fsync'ed. file is the save's target (save_target): a regular file or nothing, so it may
 * be replaced. On failure the temporary file is removed, the save is untouched and why
 * says what failed. */
bool ear__save_write(const char *file, const void *bytes, size_t size, char *why,
                     size_t why_size) {
    ear_file_write_config c = ear_file_write_config_default();
    c.overwrite = true;
    c.mode = 0600;
    char message[768];
    ear_file_writer w;
    bool ok = ear_file_write_begin(file, &c, &w, message, sizeof message) == EAR_OK;
    if (!ok) {
        snprintf(why, why_size, "cannot create a temporary file beside it (%s)",
                 ear_file_reason(message, file));
        return false;
    }
    if (!ear_file_write_all(w.fd, bytes, size)) {
        snprintf(message, sizeof message, "%s: cannot write the temporary file (%s)", file,
                 strerror(errno));
        ear_file_write_abort(&w);
        ok = false;
    } else {
        if (ear__storage_before_rename) ear__storage_before_rename(w.tmp);
        ok = ear_file_write_commit(&w, message, sizeof message) == EAR_OK;
    }
    if (!ok) snprintf(why, why_size, "%s", ear_file_reason(message, file));
    return ok;
}
