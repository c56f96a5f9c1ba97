#!/bin/sh
# Lines longer than the limit, through the real `earshot serve` and `earshot mcp`: each gets
# exactly one E_TOO_BIG answer, the rest of it is skipped up to its newline, nothing in it
# runs (its tail is a command that would start a voice), and the next line is served.
# A line of exactly the limit (and one with a CR after it) is served. Usage:
#   line_limit.sh <earshot> [default]   ("default": one line past the real 64 MiB limit)
set -eu
earshot=$1
out=$(mktemp)
trap 'rm -f "$out"' EXIT

fail() {
    echo "line_limit: $*" >&2
    echo "--- answers:" >&2
    cut -c1-300 "$out" >&2
    exit 1
}

# n copies of the byte x.
pad() { head -c "$1" /dev/zero | tr '\0' x; }

play='{"command":"audio.play","params":{"sound":"synth:sine:440:1","looping":true}}'
voices='{"command":"audio.voices","id":"after"}'

expect_lines() {
    got=$(wc -l <"$out")
    [ "$got" -eq "$1" ] || fail "expected $1 answers, got $got"
}
expect_line() { # <line number> <fixed text it must hold>
    sed -n "$1p" "$out" | grep -qF -- "$2" || fail "answer $1 lacks $2"
}

if [ "${2:-}" = default ]; then
    # 64 MiB of padding, then the command: the tail starts exactly past the limit.
    { pad 67108864; printf '%s\n%s\n' "$play" "$voices"; } | "$earshot" serve >"$out"
    expect_lines 2
    expect_line 1 '"code":"E_TOO_BIG"'
    expect_line 1 '"limit_bytes":67108864'
    expect_line 2 '"id":"after","ok":true,"result":{"voices":[]}'
    echo "line_limit: default 64 MiB limit: one E_TOO_BIG, nothing ran"
    exit 0
fi

# serve, limit 100: a 100-byte pad with a command after it; exactly 100 bytes (padded with
# spaces); 101 bytes; 100 and a CR; a 300000-byte line that arrives over many reads; a
# last line past the limit without a newline.
status='{"command":"audio.status"}'
{
    printf '%s%s\n' "$(pad 100)" "$play"
    printf '%s\n' "$voices"
    printf '%s%74s\n' "$status" ""
    printf '%s%75s\n' "$status" ""
    printf '%s%74s\r\n' "$status" ""
    pad 300000
    printf '%s\n' "$play"
    printf '%s\n' "$voices"
    printf '%s' "$(pad 250)"
} | "$earshot" serve --max-line-bytes 100 >"$out"
expect_lines 8
expect_line 1 '"code":"E_TOO_BIG"'
expect_line 1 '"where":"line 1"'
expect_line 1 '"limit_bytes":100'
expect_line 2 '"id":"after","ok":true,"result":{"voices":[]}'
expect_line 3 '"ok":true'
expect_line 4 '"where":"line 4"'
expect_line 5 '"ok":true'
expect_line 6 '"where":"line 6"'
expect_line 7 '"id":"after","ok":true,"result":{"voices":[]}'
expect_line 8 '"where":"line 8"'
[ "$(grep -c E_TOO_BIG "$out")" -eq 4 ] || fail "expected 4 E_TOO_BIG answers"

# mcp, limit 200: the same with JSON-RPC. The long line is a tools/call that would start a
# voice; the answer is -32600 with id null and data.code E_TOO_BIG.
call='{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"audio_play","arguments":{"sound":"synth:sine:440:1","looping":true}}}'
list='{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"audio_voices","arguments":{}}}'
{
    printf '%s%s\n' "$(pad 200)" "$call"
    printf '%s\n' "$list"
    pad 300000
    printf '%s\n' "$call"
    printf '%s\n' "$list"
} | "$earshot" mcp --max-line-bytes 200 >"$out"
expect_lines 4
expect_line 1 '"id":null,"error":{"code":-32600'
expect_line 1 '"data":{"code":"E_TOO_BIG","line":1,"limit_bytes":200}'
expect_line 2 '"id":2,'
expect_line 2 '"structuredContent":{"voices":[]}'
expect_line 3 '"line":3,'
expect_line 4 '"structuredContent":{"voices":[]}'

# A bad limit is a usage error (exit 2), not a server.
if "$earshot" serve --max-line-bytes 0 </dev/null >/dev/null 2>&1; then
    fail "--max-line-bytes 0 was accepted"
fi
"$earshot" serve --max-line-bytes 0 </dev/null >/dev/null 2>&1 || [ $? -eq 2 ] ||
    fail "--max-line-bytes 0 did not exit 2"
echo "line_limit: serve and mcp: one error per long line, nothing in it ran"
