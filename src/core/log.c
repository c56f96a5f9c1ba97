/* SPDX-License-Identifier: Zlib */
/*
 * The process-wide log callback. The default writes warnings and errors to stderr;
 * a game or tool replaces it with ear_log_set. Messages are formatted into a fixed
 * buffer (long ones are cut, never allocated), so logging cannot fail.
 */
#include "earshot/core.h"

#include <stdarg.h>
#include <stdio.h>

static void default_log(void *user, ear_log_level level, const char *module,
                        const char *message) {
    (void)user;
    static const char *names[] = {"debug", "info", "warning", "error"};
    fprintf(stderr, "earshot %s: %s: %s\n", module, names[level], message);
}

static ear_log_fn log_fn = default_log;
static void *log_user = NULL;
static ear_log_level log_min = EAR_LOG_WARN;

void ear_log_set(ear_log_fn fn, void *user, ear_log_level min_level) {
    log_fn = fn ? fn : default_log;
    log_user = fn ? user : NULL;
    log_min = min_level;
}

void ear_log(ear_log_level level, const char *module, const char *format, ...) {
    if (level < log_min || level > EAR_LOG_ERROR) return;
    char message[1024];
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof message, format, args);
    va_end(args);
    log_fn(log_user, level, module ? module : "earshot", message);
}
