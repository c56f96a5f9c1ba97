/* SPDX-License-Identifier: Zlib */
/*
 * earshot: the command tool. One registry (src/commands) serves four front ends:
 *
 *   earshot call <command> ['<json>'] [--json]   one command per process
 *   earshot serve                                JSON lines on stdin/stdout, state kept
 *   earshot mcp                                  Model Context Protocol server on stdio
 *   earshot render <scene.json | world.json> [-o out.wav] [--plot out.svg]
 *   earshot commands [--prefix audio.] [--json]  the commands and their schemas
 *   earshot help [<command>]                     usage, or a command's schema and examples
 *   earshot play <game.lua> [options]            a Lua game: runs earshot-lua beside it
 *
 * stdout carries results only (for mcp: protocol messages only); warnings and errors go to
 * stderr. Exit status: 0 success, 1 a command failed or the output could not be written
 * (a full disk, a closed pipe: said on stderr), 2 bad usage.
 */
#define _DEFAULT_SOURCE /* realpath */
#include "earshot/commands.h"
#include "earshot/wav.h"
#include "plot.h"
#include "scene.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static ear_commands *g_commands; /* for the log callback's notes */
static bool g_quiet_log;         /* serve and mcp: notes only, stderr stays quiet */

static void on_log(void *user, ear_log_level level, const char *module, const char *message) {
    (void)user;
    char note[700];
    snprintf(note, sizeof note, "%s: %s", module, message);
    if (level >= EAR_LOG_WARN && g_commands) ear_commands_add_note(g_commands, note);
    if (!g_quiet_log) fprintf(stderr, "earshot: %s\n", note);
}

#ifndef EAR_VERSION
#define EAR_VERSION "0.1.0"
#endif

static const char usage_text[] =
    "usage: earshot call <command> ['<json params>'] [--json] [--memory-mb N]\n"
    "       earshot serve [--allow-root DIR]...   JSON lines: {\"command\": ..., \"params\": "
    "...}\n"
    "       earshot mcp [--allow-root DIR]...     MCP server on stdio (protocol 2025-11-25)\n"
    "       earshot render <scene.json | world.json> [-o out.wav] [--overwrite]\n"
    "                      [--plot out.svg]\n"
    "                      [--allow-root DIR]... [--unconfined] [--memory-mb N]\n"
    "         serve and mcp also take --memory-mb N (default 1024), --max-line-bytes N\n"
    "         (default 67108864) and --max-output-mb N (the files a session writes;\n"
    "         default 1024)\n"
    "         serve, mcp and render take the work budget: --max-steps N (world steps in the\n"
    "         session), --max-work N (physics work a command), --max-render-seconds S\n"
    "         (seconds of audio rendered in the session), --max-rays N (ray casts a\n"
    "         command; a session 100 times as many)\n"
    "       earshot commands [--prefix audio.] [--json]\n"
    "       earshot help [<command>]              a command's schema and examples\n"
    "       earshot play <game.lua> [options]     a game in Lua (earshot-lua; docs/lua.md)\n"
    "       earshot --help | --version\n"
    "\n"
    "Files a request names (mcp; serve with --allow-root) and a scene's files (render) must\n"
    "lie inside the allowed folders: the working directory (mcp, serve) or the scene's\n"
    "folder (render), and each --allow-root DIR. Exit status: 0 success, 1 a command failed\n"
    "or the output could not be written, 2 bad usage. See docs/commands.md.\n";

/* Bad usage: the usage on stderr, status 2. */
static int usage(void) {
    fputs(usage_text, stderr);
    return 2;
}

static bool is_help(const char *arg) {
    return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0;
}

static int g_output_errno; /* why stdout first failed, 0 while it has not */

/* Flushes stdout; false when it failed now or before (the reason kept). */
static bool flush_output(void) {
    errno = 0;
    if (fflush(stdout) != 0 && !g_output_errno) g_output_errno = errno;
    return !ferror(stdout);
}

/* Flushes stdout; when something written to it was lost (a full disk, a closed pipe), says
 * so on stderr and turns status into 1. */
static int finish_output(int status) {
    if (!flush_output()) {
        fprintf(stderr, "earshot: cannot write the output: %s\n",
                g_output_errno ? strerror(g_output_errno) : "write error");
        return status ? status : 1;
    }
    return status;
}

static void print_error(const json_t *err) {
    const char *code = json_string_value(json_object_get(err, "code"));
    const char *message = json_string_value(json_object_get(err, "message"));
    fprintf(stderr, "earshot: %s: %s\n", code ? code : "E_INTERNAL", message ? message : "");
}

/* ---- Human-readable results --------------------------------------------------------- */

static void print_scalar(const json_t *v) {
    switch (json_typeof(v)) {
    case JSON_STRING: printf("%s", json_string_value(v)); break;
    case JSON_INTEGER: printf("%lld", (long long)json_integer_value(v)); break;
    case JSON_REAL: printf("%.6g", json_real_value(v)); break;
    case JSON_TRUE: printf("true"); break;
    case JSON_FALSE: printf("false"); break;
    case JSON_NULL: printf("-"); break;
    default: break;
    }
}

static bool is_scalar(const json_t *v) {
    return !json_is_object(v) && !json_is_array(v);
}

static void print_human(const json_t *v, int indent) {
    const char *key;
    json_t *item;
    json_object_foreach((json_t *)v, key, item) {
        printf("%*s%s:", indent, "", key);
        if (is_scalar(item)) {
            printf(" ");
            print_scalar(item);
            printf("\n");
        } else if (json_is_object(item)) {
            printf("\n");
            print_human(item, indent + 2);
        } else {
            size_t i;
            json_t *e;
            bool scalars = true;
            json_array_foreach(item, i, e) scalars = scalars && is_scalar(e);
            if (scalars) {
                json_array_foreach(item, i, e) {
                    printf(" ");
                    print_scalar(e);
                }
                printf("\n");
            } else {
                printf("\n");
                json_array_foreach(item, i, e) {
                    printf("%*s- [%zu]\n", indent + 2, "", i);
                    if (json_is_object(e)) print_human(e, indent + 4);
                }
            }
        }
    }
}

static void print_result(const json_t *result, bool as_json) {
    if (as_json) {
        char *text = json_dumps(result, JSON_INDENT(2) | JSON_REAL_PRECISION(9));
        if (text) puts(text);
        free(text);
    } else {
        print_human(result, 0);
    }
}

/* ---- call ---------------------------------------------------------------------------- */

static bool size_arg(const char *text, size_t scale, size_t *out);

/* The largest value size_arg takes at this scale. */
static unsigned long long size_arg_max(size_t scale) {
    return (unsigned long long)(SIZE_MAX / 2) / scale;
}

/* A value in MiB (--memory-mb: call, serve, mcp, render; --max-output-mb: serve, mcp) into
 * *bytes; false, having said why and the range on stderr, when it is not a whole number
 * from 1 to the most a size holds. */
static bool mb_arg(const char *flag, const char *text, size_t *bytes) {
    if (size_arg(text, (size_t)1 << 20, bytes)) return true;
    fprintf(stderr, "earshot: %s: expected a whole number of MiB from 1 to %llu, not \"%s\"\n",
            flag, size_arg_max((size_t)1 << 20), text);
    return false;
}

static bool memory_mb_arg(const char *text, size_t *bytes) {
    return mb_arg("--memory-mb", text, bytes);
}

/* The work budget's options (serve, mcp, render): --max-steps N (world steps in the
 * session), --max-work N (physics work per command; the session's is 100 times it) and
 * --max-render-seconds S (seconds of audio rendered in the session, not wall clock).
 * 1 when argv[*i] was one (its value consumed), 0 when it is not, -1 when its value is bad
 * (said on stderr). */
static int budget_option(int argc, char **argv, int *i, ear_commands_config *config) {
    const char *flag = argv[*i];
    bool steps = strcmp(flag, "--max-steps") == 0, work = strcmp(flag, "--max-work") == 0;
    bool seconds = strcmp(flag, "--max-render-seconds") == 0;
    bool rays = strcmp(flag, "--max-rays") == 0;
    if ((!steps && !work && !seconds && !rays) || *i + 1 >= argc) return 0;
    const char *text = argv[++*i];
    char *end;
    errno = 0;
    if (seconds) {
        double v = strtod(text, &end);
        if (errno || end == text || *end || !(v > 0) || v > 1e9) {
            fprintf(stderr, "earshot: %s: expected seconds > 0 (at most 1e9), not \"%s\"\n",
                    flag, text);
            return -1;
        }
        config->max_session_render_seconds = v;
        return 1;
    }
    unsigned long long v = strtoull(text, &end, 10);
    if (errno || end == text || *end || text[0] == '-' || v == 0 || v > (1ull << 52)) {
        fprintf(stderr, "earshot: %s: expected a whole number from 1 to 2^52, not \"%s\"\n",
                flag, text);
        return -1;
    }
    if (steps) {
        config->max_session_steps = v;
    } else if (rays) {
        config->max_command_rays = v;
        config->max_session_rays = v > (1ull << 52) / 100 ? (1ull << 52) : v * 100;
    } else {
        config->max_command_work = v;
        config->max_session_work = v > (1ull << 52) / 100 ? (1ull << 52) : v * 100;
    }
    return 1;
}

static int cmd_call(int argc, char **argv) {
    const char *name = NULL, *text = NULL;
    bool as_json = false;
    size_t memory = 0;
    for (int i = 0; i < argc; i++) {
        if (is_help(argv[i])) {
            fputs(usage_text, stdout);
            return finish_output(0);
        }
        if (strcmp(argv[i], "--json") == 0)
            as_json = true;
        else if (strcmp(argv[i], "--memory-mb") == 0 && i + 1 < argc) {
            if (!memory_mb_arg(argv[++i], &memory)) return 2;
        } else if (!name)
            name = argv[i];
        else if (!text)
            text = argv[i];
        else
            return usage();
    }
    if (!name) return usage();
    json_t *params = NULL;
    if (text) {
        json_error_t jerr;
        /* JSON_DECODE_ANY: valid JSON that is no object ("[1]", "42") is told what it is,
         * not given a line and column of no error. */
        params = json_loads(text, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &jerr);
        if (!params) {
            fprintf(stderr, "earshot: E_BAD_JSON: line %d, column %d: %s\n", jerr.line,
                    jerr.column, jerr.text);
            return 1;
        }
        if (!json_is_object(params)) {
            fprintf(stderr, "earshot: E_BAD_JSON: params: expected a JSON object, got %s\n",
                    json_is_array(params)    ? "an array"
                    : json_is_string(params) ? "a string"
                    : json_is_number(params) ? "a number"
                    : json_is_null(params)   ? "null"
                                             : "true or false");
            json_decref(params);
            return 1;
        }
    }
    ear_commands_config config = ear_commands_config_default();
    if (memory) config.max_memory_bytes = memory;
    ear_commands *c;
    if (ear_commands_create(&config, &c) != EAR_OK) {
        fprintf(stderr, "earshot: cannot create the stage\n");
        json_decref(params);
        return 1;
    }
    g_commands = c;
    json_t *err = NULL;
    json_t *result = ear_commands_run(c, name, params, &err);
    int status = 0;
    if (result) {
        print_result(result, as_json);
    } else {
        print_error(err);
        if (as_json) {
            char *e = json_dumps(err, JSON_COMPACT);
            if (e) fprintf(stderr, "%s\n", e);
            free(e);
        }
        status = 1;
    }
    json_decref(result);
    json_decref(err);
    json_decref(params);
    g_commands = NULL;
    ear_commands_destroy(c);
    return finish_output(status);
}

/* ---- serve and mcp: lines in, lines out ------------------------------------------------ */

typedef char *(*line_fn)(ear_commands *c, const char *line, size_t length);
typedef char *(*overlong_fn)(size_t line_number, size_t limit_bytes);

/* The longest line serve and mcp read (--max-line-bytes); a longer one gets one error. */
#define DEFAULT_MAX_LINE_BYTES ((size_t)64 << 20)

static void put_reply(char *reply) {
    if (reply) {
        fputs(reply, stdout);
        fputc('\n', stdout);
    }
    free(reply);
}

/* Set by the progress hook (below) when an MCP client cancelled the running request. */
static bool g_drop_reply;

/* The line being answered (from 1), for serve's errors. */
static uint64_t g_line_number;

/* Answers one line (without its newline): overlong()'s error when it is longer than
 * max_line (a CR before the newline not counted), nothing when it is blank. */
static void answer_line(ear_commands *c, line_fn handle, overlong_fn overlong, size_t max_line,
                        const char *line, size_t n, size_t line_number) {
    if (n && line[n - 1] == '\r') n--;
    if (n > max_line) {
        put_reply(overlong(line_number, max_line));
        return;
    }
    for (size_t k = 0; k < n; k++)
        if (line[k] != ' ' && line[k] != '\t') {
            g_line_number = line_number;
            char *reply = handle(c, line, n);
            if (g_drop_reply) {
                /* MCP: a request the client cancelled gets no response (the protocol's
                 * cancellation rule); the client knows it stopped. */
                free(reply);
                reply = NULL;
                g_drop_reply = false;
            }
            put_reply(reply);
            return;
        }
}

static char *serve_line(ear_commands *c, const char *line, size_t length) {
    return ear_commands_serve_line_at(c, line, length, g_line_number);
}

/* The input of serve and mcp. It is global so that the progress hook (below) can look at
 * what follows the line being answered while a long command runs: a cancel for it. */
static struct {
    char *in;
    size_t cap, len;
    size_t next;   /* the end of the line being answered: what follows is not yet answered */
    size_t looked; /* input up to here has been looked at for a cancel */
    bool eof, mcp;
    double last_poll_s, last_report_s;
} g_in;

/* SIGINT during a command cancels it; between commands it ends the session. */
static volatile sig_atomic_t g_interrupted;

static void on_sigint(int sig) {
    (void)sig;
    g_interrupted = 1;
}

static double monotonic_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Whether the complete line [line, line + n) cancels the running request: MCP's
 * notifications/cancelled whose requestId is its id, or serve's {"command": "cancel"}
 * (with "params": {"id": its id}, or without params: whatever runs). */
static bool cancels(const char *line, size_t n, const json_t *id) {
    const char *needle = g_in.mcp ? "notifications/cancelled" : "\"cancel\"";
    bool found = false;
    size_t k = strlen(needle);
    for (size_t i = 0; i + k <= n && !found; i++) found = memcmp(line + i, needle, k) == 0;
    if (!found) return false;
    json_t *msg = json_loadb(line, n, 0, NULL);
    bool yes = false;
    if (g_in.mcp) {
        const char *method = json_string_value(json_object_get(msg, "method"));
        json_t *asked = json_object_get(json_object_get(msg, "params"), "requestId");
        yes = method && strcmp(method, "notifications/cancelled") == 0 && id && asked &&
              json_equal(asked, (json_t *)id);
    } else {
        const char *command = json_string_value(json_object_get(msg, "command"));
        json_t *params = json_object_get(msg, "params");
        json_t *asked = json_object_get(params, "id");
        yes = command && strcmp(command, "cancel") == 0 &&
              (!asked || (id && json_equal(asked, (json_t *)id)));
    }
    json_decref(msg);
    return yes;
}

/* The registry's progress hook for serve and mcp. At most every 50 ms it reads what input
 * has arrived (without waiting: poll, then one read into the buffer's free space, which is
 * never moved or grown here, as the line being answered lies in it) and looks at each new
 * complete line for a cancel of the running request; every 250 ms it reports progress to
 * a request that asked for it. SIGINT cancels at once. One thread does all of it: the
 * command stops between two steps or chunks, never inside one. */
static bool front_progress(void *user, const char *unit, uint64_t done, uint64_t total) {
    (void)user;
    if (g_interrupted) {
        g_interrupted = 0;
        return false;
    }
    double now = monotonic_s();
    if (now - g_in.last_poll_s < 0.05) return true;
    g_in.last_poll_s = now;
    const json_t *token = ear_commands_progress_token(g_commands);
    if (token && now - g_in.last_report_s >= 0.25 && done < total) {
        g_in.last_report_s = now;
        json_t *note =
            g_in.mcp ? json_pack("{s:s, s:s, s:{s:O, s:I, s:I, s:s+}}", "jsonrpc", "2.0",
                                 "method", "notifications/progress", "params", "progressToken",
                                 token, "progress", (json_int_t)done, "total",
                                 (json_int_t)total, "message", unit, " so far")
                     : json_pack("{s:O, s:{s:I, s:I, s:s}}", "id", token, "progress", "done",
                                 (json_int_t)done, "total", (json_int_t)total, "unit", unit);
        char *text = note ? json_dumps(note, JSON_COMPACT) : NULL;
        if (text) {
            fputs(text, stdout);
            fputc('\n', stdout);
            fflush(stdout);
        }
        free(text);
        json_decref(note);
    }
    const json_t *id = ear_commands_request_id(g_commands);
    struct pollfd pfd = {STDIN_FILENO, POLLIN, 0};
    if (!g_in.eof && g_in.len < g_in.cap && poll(&pfd, 1, 0) > 0) {
        ssize_t got = read(STDIN_FILENO, g_in.in + g_in.len, g_in.cap - g_in.len);
        if (got > 0)
            g_in.len += (size_t)got;
        else if (got == 0)
            g_in.eof = true;
    }
    if (g_in.looked < g_in.next) g_in.looked = g_in.next;
    size_t line_start = g_in.looked;
    for (size_t i = g_in.looked; i < g_in.len; i++) {
        if (g_in.in[i] != '\n') continue;
        if (cancels(g_in.in + line_start, i - line_start, id)) {
            g_drop_reply = g_in.mcp;
            return false;
        }
        line_start = i + 1;
        g_in.looked = line_start;
    }
    return true;
}

/* Reads stdin in large chunks, answers every complete line, and writes the answers of a
 * chunk in one go: a client that sends one line at a time gets its answer at once, and
 * one that streams many lines pays one write per chunk, not per line.
 *
 * A line longer than max_line bytes (its newline and a CR before it not counted) gets one
 * answer, overlong()'s, and is skipped up to its newline without being kept or read:
 * nothing in it runs. Each byte is looked at once (`scanned`), so a long line costs time
 * in proportion to its length, and the buffer never holds more than max_line + 2 bytes of
 * one line. The progress hook may add input at the end of the buffer while a line is
 * answered (g_in.len grows); the loop goes on to it. */
static int serve_lines(ear_commands *c, line_fn handle, overlong_fn overlong, size_t max_line) {
    size_t scanned = 0, line_number = 0;
    bool skipping = false; /* inside a line that was too long, until its newline */
    g_in.cap = (size_t)1 << 16;
    g_in.len = 0;
    g_in.eof = false;
    g_in.in = malloc(g_in.cap);
    if (!g_in.in) return 1;
    int status = 0;
    for (;;) {
        if (g_in.len == g_in.cap) {
            /* Only a line that may still be short enough fills the buffer (a longer one
             * is being skipped): max_line bytes, a CR and the newline at most. */
            size_t cap = g_in.cap;
            size_t want = cap < (max_line + 2) / 2 ? cap * 2 : max_line + 2;
            char *grown = want > cap ? realloc(g_in.in, want) : NULL;
            if (!grown) {
                fprintf(stderr, "earshot: out of memory reading a line\n");
                status = 1;
                break;
            }
            g_in.in = grown;
            g_in.cap = want;
        }
        ssize_t got =
            g_in.eof ? 0 : read(STDIN_FILENO, g_in.in + g_in.len, g_in.cap - g_in.len);
        if (got < 0 && errno == EINTR) {
            if (g_interrupted) break; /* SIGINT between commands ends the session */
            continue;
        }
        bool eof = got <= 0;
        if (!eof) g_in.len += (size_t)got;
        char *in = g_in.in;
        size_t start = 0;
        if (skipping) {
            char *nl = memchr(in, '\n', g_in.len);
            start = nl ? (size_t)(nl - in) + 1 : g_in.len;
            skipping = nl == NULL;
            scanned = start;
        }
        for (size_t i = scanned; i < g_in.len; i++) {
            if (in[i] != '\n') continue;
            g_in.next = g_in.looked = i + 1;
            g_in.last_poll_s = g_in.last_report_s = 0;
            answer_line(c, handle, overlong, max_line, in + start, i - start, ++line_number);
            start = i + 1;
        }
        eof = eof || g_in.eof;
        if (eof && !skipping && start < g_in.len) {
            /* The last line, without a newline. */
            g_in.next = g_in.looked = g_in.len;
            g_in.last_poll_s = g_in.last_report_s = 0;
            answer_line(c, handle, overlong, max_line, in + start, g_in.len - start,
                        ++line_number);
            start = g_in.len;
        }
        if (start > 0) memmove(in, in + start, g_in.len - start);
        g_in.len -= start;
        scanned = g_in.len;
        size_t len = g_in.len;
        if (!skipping && (len > max_line + 1 || (len == max_line + 1 && in[len - 1] != '\r'))) {
            /* The line so far is already too long (only a CR may still come before its
             * newline): answer now, skip the rest. */
            put_reply(overlong(++line_number, max_line));
            skipping = true;
            g_in.len = scanned = 0;
        }
        /* Answers that cannot be written (a closed pipe, a full disk) end the session. */
        if (!flush_output()) {
            free(g_in.in);
            g_in.in = NULL;
            return 1; /* said by cmd_serve's finish_output */
        }
        if (eof) break;
    }
    free(g_in.in);
    g_in.in = NULL;
    return status;
}

/* Reads a size option's value: a whole number of at least 1 (with `scale`, times that). */
static bool size_arg(const char *text, size_t scale, size_t *out) {
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno || end == text || *end || text[0] == '-' || v == 0 ||
        v > (unsigned long long)(SIZE_MAX / 2) / scale)
        return false;
    *out = (size_t)v * scale;
    return true;
}

static int cmd_serve(bool mcp, int argc, char **argv) {
    ear_commands_config config = ear_commands_config_default();
    config.confine_paths = mcp;
    size_t max_line = DEFAULT_MAX_LINE_BYTES, memory = 0, output = 0;
    const char **roots = calloc((size_t)argc + 2, sizeof *roots);
    size_t root_count = 0;
    if (!roots) return 1;
    for (int i = 0; i < argc; i++) {
        if (is_help(argv[i])) {
            free(roots);
            fputs(usage_text, stdout);
            return finish_output(0);
        }
        if (strcmp(argv[i], "--allow-root") == 0 && i + 1 < argc) {
            char real[PATH_MAX];
            if (!realpath(argv[i + 1], real)) {
                fprintf(stderr, "earshot: --allow-root %s: no such folder\n", argv[i + 1]);
                free(roots);
                return 2;
            }
            roots[root_count++] = argv[++i];
        } else if (strcmp(argv[i], "--max-line-bytes") == 0 && i + 1 < argc) {
            if (!size_arg(argv[++i], 1, &max_line)) {
                fprintf(stderr,
                        "earshot: --max-line-bytes: expected a whole number from 1 to %llu, "
                        "not \"%s\"\n",
                        size_arg_max(1), argv[i]);
                free(roots);
                return 2;
            }
        } else if (strcmp(argv[i], "--memory-mb") == 0 && i + 1 < argc) {
            if (!memory_mb_arg(argv[++i], &memory)) {
                free(roots);
                return 2;
            }
        } else if (strcmp(argv[i], "--max-output-mb") == 0 && i + 1 < argc) {
            if (!mb_arg("--max-output-mb", argv[++i], &output)) {
                free(roots);
                return 2;
            }
        } else {
            int b = budget_option(argc, argv, &i, &config);
            if (b != 1) {
                free(roots);
                return b < 0 ? 2 : usage();
            }
        }
    }
    if (memory) config.max_memory_bytes = memory;
    if (output) config.max_output_bytes = output;
    /* A line's parsed JSON costs several times its text and is not counted by the budget
     * (jansson allocates it): a line may take at most a sixteenth of the budget, so a
     * 60 MB line at --memory-mb 64 is one E_TOO_BIG answer, never read. */
    if (max_line > config.max_memory_bytes / 16)
        max_line = (size_t)(config.max_memory_bytes / 16);
    config.on_progress = front_progress;
    g_in.mcp = mcp;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint; /* no SA_RESTART: a read waiting for input sees EINTR */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    if (root_count) {
        /* The working directory stays allowed; the flag adds folders (and, for serve, turns
         * confinement on). */
        roots[root_count++] = ".";
        config.confine_paths = true;
        config.allowed_roots = roots;
        config.allowed_root_count = root_count;
    }
    ear_commands *c;
    int created = ear_commands_create(&config, &c);
    free(roots);
    if (created != EAR_OK) {
        fprintf(stderr, "earshot: cannot create the stage\n");
        return 1;
    }
    g_commands = c;
    g_quiet_log = mcp;
    int status = serve_lines(c, mcp ? ear_mcp_handle_line : serve_line,
                             mcp ? ear_mcp_overlong : ear_commands_serve_overlong, max_line);
    if (g_interrupted) status = 130; /* ended by SIGINT between commands */
    g_commands = NULL;
    ear_commands_destroy(c);
    return finish_output(status);
}

/* ---- commands -------------------------------------------------------------------------- */

static int cmd_commands(int argc, char **argv) {
    const char *prefix = "";
    bool as_json = false;
    for (int i = 0; i < argc; i++) {
        if (is_help(argv[i])) {
            fputs(usage_text, stdout);
            return finish_output(0);
        }
        if (strcmp(argv[i], "--prefix") == 0 && i + 1 < argc)
            prefix = argv[++i];
        else if (strcmp(argv[i], "--json") == 0)
            as_json = true;
        else
            return usage();
    }
    ear_commands *c;
    if (ear_commands_create(NULL, &c) != EAR_OK) return 1;
    json_t *all = json_object();
    for (size_t i = 0; i < ear_commands_count(); i++) {
        const char *name = ear_commands_name(i);
        if (strncmp(name, prefix, strlen(prefix)) != 0) continue;
        const json_t *schema = ear_commands_schema(c, i);
        if (as_json) {
            json_object_set(all, name, (json_t *)schema);
        } else {
            const char *d = json_string_value(json_object_get(schema, "description"));
            printf("%-22s %s\n", name, d ? d : "");
            printf("%-22s schemas/commands/%s.json:", "", name);
            const char *key;
            json_t *v;
            json_object_foreach(json_object_get(schema, "properties"), key, v)
                printf(" %s", key);
            printf("\n");
        }
    }
    if (as_json) print_result(all, true);
    json_decref(all);
    ear_commands_destroy(c);
    return finish_output(0);
}

/* ---- help ------------------------------------------------------------------------------ */

/* `earshot help <command>`: the description, each param's line, the schema and the
 * examples as call and serve lines. An unknown name is an error naming the nearest. */
static int cmd_help(int argc, char **argv) {
    if (argc == 0) {
        fputs(usage_text, stdout);
        return finish_output(0);
    }
    if (argc > 1) return usage();
    ear_commands *c;
    if (ear_commands_create(NULL, &c) != EAR_OK) return 1;
    long i = ear_commands_find(argv[0]);
    if (i < 0) {
        json_t *err = NULL;
        json_decref(ear_commands_run(c, argv[0], NULL, &err)); /* unknown: runs nothing */
        print_error(err);
        json_decref(err);
        ear_commands_destroy(c);
        return 1;
    }
    const json_t *schema = ear_commands_schema(c, (size_t)i);
    const char *d = json_string_value(json_object_get(schema, "description"));
    printf("%s: %s\n\nparams (schemas/commands/%s.json):\n", argv[0], d ? d : "", argv[0]);
    const char *key;
    json_t *v;
    json_object_foreach(json_object_get(schema, "properties"), key, v) {
        const char *pd = json_string_value(json_object_get(v, "description"));
        const json_t *type = json_object_get(v, "type");
        bool required = false;
        size_t r;
        json_t *name;
        json_array_foreach(json_object_get(schema, "required"), r, name) {
            if (json_is_string(name) && strcmp(json_string_value(name), key) == 0)
                required = true;
        }
        printf("  %-14s %-8s %s%s\n", key, json_is_string(type) ? json_string_value(type) : "",
               required ? "(required) " : "", pd ? pd : "");
    }
    char *text =
        json_dumps(schema, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(9));
    printf("\nschema:\n%s\n\nexamples:\n", text ? text : "{}");
    free(text);
    size_t k;
    json_array_foreach(json_object_get(schema, "examples"), k, v) {
        char *p = json_dumps(v, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(9));
        printf("  earshot call %s '%s'\n", argv[0], p ? p : "{}");
        printf("  {\"command\": \"%s\", \"params\": %s}\n", argv[0], p ? p : "{}");
        free(p);
    }
    ear_commands_destroy(c);
    return finish_output(0);
}

/* ---- render ------------------------------------------------------------------------------ */

/* An absolute form of path, against the working directory; false when too long. */
static bool absolute_path(const char *path, char *out, size_t capacity) {
    char cwd[PATH_MAX];
    int n = path[0] == '/'            ? snprintf(out, capacity, "%s", path)
            : getcwd(cwd, sizeof cwd) ? snprintf(out, capacity, "%s/%s", cwd, path)
                                      : -1;
    return n >= 0 && (size_t)n < capacity;
}

static int cmd_render(int argc, char **argv) {
    const char *file = NULL, *wav = NULL, *svg = NULL;
    bool overwrite = false, unconfined = false;
    size_t memory = 0;
    ear_commands_config budget = ear_commands_config_default();
    const char **extra = calloc((size_t)argc + 1, sizeof *extra);
    size_t extra_count = 0;
    if (!extra) return 1;
    for (int i = 0; i < argc; i++) {
        if (is_help(argv[i])) {
            free(extra);
            fputs(usage_text, stdout);
            return finish_output(0);
        }
        if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
            wav = argv[++i];
        else if (strcmp(argv[i], "--plot") == 0 && i + 1 < argc)
            svg = argv[++i];
        else if (strcmp(argv[i], "--overwrite") == 0)
            overwrite = true;
        else if (strcmp(argv[i], "--unconfined") == 0)
            unconfined = true;
        else if (strcmp(argv[i], "--allow-root") == 0 && i + 1 < argc)
            extra[extra_count++] = argv[++i];
        else if (strcmp(argv[i], "--memory-mb") == 0 && i + 1 < argc) {
            if (!memory_mb_arg(argv[++i], &memory)) {
                free(extra);
                return 2;
            }
        } else if (!file && argv[i][0] != '-')
            file = argv[i];
        else {
            int b = budget_option(argc, argv, &i, &budget);
            if (b != 1) {
                free(extra);
                return b < 0 ? 2 : usage();
            }
        }
    }
    if (!file) {
        free(extra);
        return usage();
    }
    scene sc;
    /* A world document (bodies or a level) renders as a scene that loads it and renders
     * in lockstep with the world (render's "scene" is true). */
    uint64_t scene_cost = 0;
    json_t *scene_doc = scene_load_file(
        file, memory ? (uint64_t)memory : ear_commands_config_default().max_memory_bytes,
        &scene_cost, stderr);
    if (!scene_parse(&sc, scene_from_world(scene_doc), file, stderr)) {
        scene_free(&sc);
        free(extra);
        return 1;
    }

    /* A scene is data from others: its paths are relative to its own folder and confined
     * to it (and to each --allow-root) unless --unconfined. The outputs the user named on
     * the command line are theirs, resolved against the working directory first. */
    char wav_path[PATH_MAX] = "", svg_path[PATH_MAX] = "", scene_dir[PATH_MAX];
    char **roots = calloc(extra_count + 2, sizeof *roots);
    size_t root_count = 0;
    int status = 1;
    ear_commands *c = NULL;
    bool setup_ok = roots != NULL && realpath(file, scene_dir) != NULL;
    if (setup_ok) {
        char *slash = strrchr(scene_dir, '/');
        if (slash == scene_dir)
            slash[1] = '\0';
        else if (slash)
            *slash = '\0';
        roots[root_count++] = scene_dir;
    }
    for (size_t i = 0; i < extra_count && setup_ok; i++) {
        char real[PATH_MAX];
        if (!realpath(extra[i], real)) {
            fprintf(stderr, "earshot: --allow-root %s: no such folder\n", extra[i]);
            status = 2;
            setup_ok = false;
        } else if (!(roots[root_count++] = strdup(real))) {
            setup_ok = false;
        }
    }
    if (setup_ok && ((wav && !absolute_path(wav, wav_path, sizeof wav_path)) ||
                     (svg && !absolute_path(svg, svg_path, sizeof svg_path)))) {
        fprintf(stderr, "earshot: an output path is too long\n");
        setup_ok = false;
    }
    if (setup_ok && chdir(scene_dir) != 0) {
        fprintf(stderr, "earshot: %s: cannot enter its folder: %s\n", file, strerror(errno));
        setup_ok = false;
    }
    if (!setup_ok) goto done;
    ear_commands_config config = budget; /* the defaults and the budget's options */
    scene_hook(&sc, &config, isatty(STDERR_FILENO));
    config.confine_paths = !unconfined;
    config.allowed_roots = (const char *const *)roots;
    config.allowed_root_count = root_count;
    if (memory) config.max_memory_bytes = memory;
    if (ear_commands_create(&config, &c) != EAR_OK) goto done;
    g_commands = c;
    /* The scene's parsed JSON lives as long as the render: it counts in the budget. */
    json_t *charge_err = ear_commands_charge(c, file, scene_cost);
    if (charge_err) {
        fprintf(stderr, "%s: render: ", file);
        print_error(charge_err);
        json_decref(charge_err);
        goto done;
    }

    json_t *err = NULL;
    json_t *result = scene_play(&sc, c, &err);
    if (!result) {
        if (err) {
            fprintf(stderr, "%s: render: ", file);
            print_error(err);
            json_decref(err);
        }
        goto done;
    }
    uint64_t frames;
    const float *buf = ear_commands_last_buffer(c, &frames);
    if (wav) {
        ear_wav_write_config wc = ear_wav_write_config_default();
        wc.overwrite = overwrite;
        /* Only a file or a link that --overwrite may replace is told so: a folder, FIFO
         * or device is never replaced, and its message says that instead. */
        wc.overwrite_hint = " (use --overwrite)";
        ear_io_error io = {{0}};
        ear_result r = ear_wav_write_with(wav_path, buf, frames, 2, 48000, &wc, &io);
        if (r != EAR_OK) {
            fprintf(stderr, "earshot: -o %s: %s\n", wav, io.message);
            json_decref(result);
            goto done;
        }
        json_object_set_new(result, "path", json_string(wav));
    }
    json_object_set_new(result, "scene", json_string(file));
    print_human(result, 0);
    json_decref(result);
    status = 0;
    if (svg) {
        char why[600];
        if (ear_plot_svg(svg_path, buf, frames, 48000, file, overwrite, why, sizeof why) != 0) {
            fprintf(stderr, "earshot: --plot %s: %s\n", svg, why);
            status = 1;
        } else {
            printf("plot: %s\n", svg);
        }
    }
done:
    g_commands = NULL;
    ear_commands_destroy(c);
    scene_free(&sc);
    for (size_t r = 1; roots && r < root_count; r++) free(roots[r]);
    free(roots);
    free(extra);
    return finish_output(status);
}

/* earshot play: the Lua runner is its own program (Lua is linked into it alone), found
 * beside this one; argv from "play" on becomes its arguments. Returns only when it could
 * not be started. */
static int cmd_play(int argc, char **argv) {
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 16);
    if (n <= 0) {
        fprintf(stderr, "earshot play: cannot find this program's folder\n");
        return 1;
    }
    self[n] = '\0';
    char *slash = strrchr(self, '/');
    snprintf(slash ? slash + 1 : self, 12, "earshot-lua");
    argv[0] = self;
    (void)argc;
    execv(self, argv);
    fprintf(stderr, "earshot play: %s: %s (built with Lua 5.4, liblua5.4-dev)\n", self,
            strerror(errno));
    return 2;
}

int main(int argc, char **argv) {
    if (argc < 2) return usage();
    /* A closed pipe is an error to report (EPIPE), not a silent death by SIGPIPE. */
    signal(SIGPIPE, SIG_IGN);
    ear_log_set(on_log, NULL, EAR_LOG_WARN);
    const char *verb = argv[1];
    if (is_help(verb)) {
        fputs(usage_text, stdout);
        return finish_output(0);
    }
    if (strcmp(verb, "--version") == 0 || strcmp(verb, "-V") == 0) {
        printf("earshot %s\n", EAR_VERSION);
        return finish_output(0);
    }
    if (strcmp(verb, "play") == 0) return cmd_play(argc - 1, argv + 1);
    if (strcmp(verb, "help") == 0) return cmd_help(argc - 2, argv + 2);
    if (strcmp(verb, "call") == 0) return cmd_call(argc - 2, argv + 2);
    if (strcmp(verb, "serve") == 0) return cmd_serve(false, argc - 2, argv + 2);
    if (strcmp(verb, "mcp") == 0) return cmd_serve(true, argc - 2, argv + 2);
    if (strcmp(verb, "render") == 0) return cmd_render(argc - 2, argv + 2);
    if (strcmp(verb, "commands") == 0) return cmd_commands(argc - 2, argv + 2);
    return usage();
}
