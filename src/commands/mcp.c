/* SPDX-License-Identifier: Zlib */
/*
 * The Model Context Protocol on top of the registry: JSON-RPC 2.0 messages, one per line
 * (the stdio transport), protocol 2025-11-25. Every command is a tool of its name with
 * the dots as underscores (audio_play, world_step) whose inputSchema is the command's
 * schema. A command that fails is a tool result with isError true (its error object as
 * the content), never a protocol error: the client's model reads it and tries again.
 * Protocol errors are kept for what the protocol itself gets wrong: bad JSON (-32700),
 * not a request (-32600), an unknown method (-32601), an unknown tool or bad call
 * arguments (-32602).
 */
#include "commands_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LATEST_PROTOCOL "2025-11-25"

static const char *const supported[] = {LATEST_PROTOCOL, "2025-06-18", "2025-03-26",
                                        "2024-11-05", "2024-10-07"};

void ear_mcp_tool_name(const char *command, char *out, size_t capacity) {
    if (!out || capacity == 0) return;
    snprintf(out, capacity, "%s", command ? command : "");
    for (char *p = out; *p; p++)
        if (*p == '.') *p = '_';
}

static char *dump(json_t *msg) {
    char *text = ear__json_write(msg);
    json_decref(msg);
    return text;
}

static char *rpc_error(json_t *id, int code, const char *message) {
    return dump(json_pack("{s:s, s:O, s:{s:i, s:s}}", "jsonrpc", "2.0", "id",
                          id ? id : json_null(), "error", "code", code, "message", message));
}

static char *rpc_result(json_t *id, json_t *result) {
    return dump(json_pack("{s:s, s:O, s:o}", "jsonrpc", "2.0", "id", id, "result", result));
}

char *ear_mcp_overlong(size_t line_number, size_t limit_bytes) {
    char message[200];
    snprintf(message, sizeof message,
             "Invalid Request: line %zu is longer than the limit of %zu bytes "
             "(--max-line-bytes); it was skipped up to its newline and nothing in it ran",
             line_number, limit_bytes);
    return dump(json_pack("{s:s, s:n, s:{s:i, s:s, s:{s:s, s:I, s:I}}}", "jsonrpc", "2.0", "id",
                          "error", "code", -32600, "message", message, "data", "code",
                          "E_TOO_BIG", "line", (json_int_t)line_number, "limit_bytes",
                          (json_int_t)limit_bytes));
}

static json_t *initialize(const json_t *params) {
    const char *asked = json_string_value(json_object_get(params, "protocolVersion"));
    const char *version = LATEST_PROTOCOL;
    for (size_t i = 0; asked && i < sizeof supported / sizeof supported[0]; i++)
        if (strcmp(asked, supported[i]) == 0) version = supported[i];
    return json_pack("{s:s, s:{s:{}}, s:{s:s, s:s, s:s}, s:s}", "protocolVersion", version,
                     "capabilities", "tools", "serverInfo", "name", "earshot", "title",
                     "Earshot audio stage", "version", "0.1.0", "instructions",
                     "Define sounds (audio_clip_define), place and play them (audio_play), "
                     "render offline and read the measurements (audio_render_offline). State "
                     "is kept between calls; audio_reset starts again. Files (paths, sound "
                     "files) must lie inside the server's working directory or the folders it "
                     "was given with --allow-root; any other reads as missing.");
}

static json_t *tools_list(ear_commands *c) {
    json_t *tools = json_array();
    for (size_t i = 0; i < ear_commands_count(); i++) {
        char name[64];
        ear_mcp_tool_name(ear_commands_name(i), name, sizeof name);
        const json_t *schema = ear_commands_schema(c, i);
        json_t *input = json_deep_copy(schema);
        /* title and description describe the tool, not its input. */
        json_object_del(input, "title");
        const char *description = json_string_value(json_object_get(schema, "description"));
        json_object_del(input, "description");
        json_array_append_new(tools,
                              json_pack("{s:s, s:s, s:s, s:o}", "name", name, "title",
                                        ear_commands_name(i), "description",
                                        description ? description : "", "inputSchema", input));
    }
    return json_pack("{s:o}", "tools", tools);
}

static json_t *tool_result(json_t *value, bool is_error) {
    char *text = ear__json_write(value);
    json_t *structured = is_error ? json_pack("{s:o}", "error", value) : value;
    json_t *r =
        json_pack("{s:[{s:s, s:s}], s:o, s:b}", "content", "type", "text", "text",
                  text ? text : "{}", "structuredContent", structured, "isError", is_error);
    free(text);
    return r;
}

char *ear_mcp_handle_line(ear_commands *c, const char *line, size_t length) {
    json_error_t jerr;
    /* The message's parse counts in the memory budget while it runs: one that would not
     * fit is refused before it is parsed (-32600, data E_TOO_BIG). JSON_DECODE_ANY: valid
     * JSON that is no request ("42") is an Invalid Request, not a Parse error. */
    uint64_t charged = 0;
    json_t *too_big = NULL;
    json_t *msg = ear__cmd_json_read(c, line, length, 0, "message", &charged, &too_big, &jerr);
    c->mem_refused = 0;
    if (too_big) {
        char message[700];
        snprintf(message, sizeof message, "Invalid Request: %s",
                 json_string_value(json_object_get(too_big, "message")));
        json_object_del(too_big, "message");
        json_object_del(too_big, "where");
        return dump(json_pack("{s:s, s:n, s:{s:i, s:s, s:o}}", "jsonrpc", "2.0", "id", "error",
                              "code", -32600, "message", message, "data", too_big));
    }
    if (!msg) return rpc_error(NULL, -32700, "Parse error: not valid JSON");
    json_t *id = json_object_get(msg, "id");
    const char *method = json_string_value(json_object_get(msg, "method"));
    json_t *params = json_object_get(msg, "params");
    char *reply = NULL;
    bool request = id && (json_is_string(id) || json_is_integer(id));
    if (!json_is_object(msg) || !json_is_string(json_object_get(msg, "jsonrpc"))) {
        reply = rpc_error(NULL, -32600, "Invalid Request");
    } else if (!method) {
        /* A response from the client (we send no requests): nothing to say. */
        reply = NULL;
    } else if (!request) {
        /* A notification (notifications/initialized, cancelled, ...): no answer. With an id
         * of the wrong type it is an invalid request. */
        reply = id ? rpc_error(NULL, -32600, "Invalid Request: bad id") : NULL;
    } else if (params && !json_is_object(params)) {
        reply = rpc_error(id, -32602, "Invalid params: expected an object");
    } else if (strcmp(method, "initialize") == 0) {
        reply = rpc_result(id, initialize(params));
    } else if (strcmp(method, "ping") == 0) {
        reply = rpc_result(id, json_object());
    } else if (strcmp(method, "tools/list") == 0) {
        reply = rpc_result(id, tools_list(c));
    } else if (strcmp(method, "tools/call") == 0) {
        const char *tool = json_string_value(json_object_get(params, "name"));
        json_t *args = json_object_get(params, "arguments");
        long index = -1;
        for (size_t i = 0; tool && i < ear_commands_count(); i++) {
            char name[64];
            ear_mcp_tool_name(ear_commands_name(i), name, sizeof name);
            if (strcmp(name, tool) == 0) index = (long)i;
        }
        if (index < 0) {
            char message[200];
            snprintf(message, sizeof message, "Unknown tool: %.100s", tool ? tool : "(none)");
            reply = rpc_error(id, -32602, message);
        } else if (args && !json_is_object(args)) {
            reply = rpc_error(id, -32602, "Invalid params: arguments must be an object");
        } else {
            json_t *err = NULL;
            c->request_id = id;
            c->progress_token =
                json_object_get(json_object_get(params, "_meta"), "progressToken");
            json_t *result = ear_commands_run(c, ear_commands_name((size_t)index), args, &err);
            c->request_id = c->progress_token = NULL;
            reply =
                rpc_result(id, result ? tool_result(result, false) : tool_result(err, true));
        }
    } else {
        char message[200];
        snprintf(message, sizeof message, "Method not found: %.100s", method);
        reply = rpc_error(id, -32601, message);
    }
    json_decref(msg);
    ear__cmd_uncharge(c, charged);
    return reply;
}
