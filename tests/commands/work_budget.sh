#!/bin/sh
# The work budget through the real `earshot serve`, `mcp` and `render` (issue 24):
# - a pile of 600 touching spheres asked for 100000 steps is E_TOO_BIG ("physics work per
#   command") before a step is taken (before, a 1400-body pile took 0.3 s a step: hours);
# - a world document at step_hz 10000 rendered for 600 s (6 M steps) is E_TOO_BIG
#   ("steps per command") at once, exit status 1 (before: about 13 hours);
# - --max-steps and --max-render-seconds bound the session: what passes them is refused
#   whole, with the budget, what was asked and what is left;
# - a long world.step is cancelled by a serve cancel line, by SIGINT and by MCP's
#   notifications/cancelled, reports progress when asked, and the session goes on.
# Every step is bounded by `timeout`. A refusal is checked by what was done (no step taken,
# the estimate's words), never by the wall clock: a refused render that stepped anyway
# would run for hours and end by the timeout (exit 124), not with exit status 1.
set -eu
earshot=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
out=$dir/out

fail() {
    echo "work_budget: $*" >&2
    cut -c1-400 "$out" >&2 || true
    exit 1
}
expect_line() { # <line number> <fixed text it must hold>
    sed -n "$1p" "$out" | grep -qF -- "$2" || fail "answer $1 lacks $2"
}

# A pile: n spheres of radius 1 stacked 1 cm apart, all touching.
pile() { # <n> <step_hz>
    i=0
    printf '{"step_hz": %s, "bodies": [' "$2"
    while [ "$i" -lt "$1" ]; do
        [ "$i" -gt 0 ] && printf ','
        printf '{"name": "b%d", "kind": "dynamic", "shape": "sphere", "radius": 1, "position": [0, %d.%02d, 0]}' \
            "$i" $((i / 100)) $((i % 100))
        i=$((i + 1))
    done
    printf ']}'
}
# A row of n spheres 3 m apart, floating (gravity_scale 0): cheap to step.
row() { # <n>
    i=0
    printf '{"bodies": ['
    while [ "$i" -lt "$1" ]; do
        [ "$i" -gt 0 ] && printf ','
        printf '{"name": "r%d", "kind": "dynamic", "shape": "sphere", "radius": 0.5, "position": [%d, 0, 0], "gravity_scale": 0}' \
            "$i" $((i * 3))
        i=$((i + 1))
    done
    printf ']}'
}

# 1. The pile: refused before its first step; one step still runs.
{
    printf '{"command":"world.load","params":{"world":%s}}\n' "$(pile 600 60)"
    printf '%s\n' '{"command":"world.status"}' '{"command":"world.step","params":{"steps":100000}}' \
        '{"command":"world.status"}'
} >"$dir/pile.in"
timeout 60 "$earshot" serve <"$dir/pile.in" >"$out" || fail "serve of the pile failed"
expect_line 1 '"bodies":600'
expect_line 3 '"code":"E_TOO_BIG"'
expect_line 3 '"budget":"physics work per command"'
expect_line 3 '"where":"params.steps"'
expect_line 4 '"steps":0'

# 2. A world at step_hz 10000 rendered for 600 s: refused at once, exit 1.
printf '{"step_hz": 10000, "render": {"seconds": 600}, "bodies": [{"name": "a", "kind": "dynamic", "shape": "box", "half_extents": [1, 1, 1], "position": [0, 5, 0]}]}\n' \
    >"$dir/fast.world.json"
rc=0
timeout 30 "$earshot" render "$dir/fast.world.json" >"$out" 2>"$dir/err" || rc=$?
[ "$rc" -eq 1 ] || fail "render at step_hz 10000 exited $rc, not 1: $(cat "$dir/err")"
grep -qF 'E_TOO_BIG: params.seconds: over the steps per command budget: 6000000 asked' \
    "$dir/err" || fail "render said: $(cat "$dir/err")"
[ -s "$out" ] && fail "the refused render wrote an output: $(head -c 200 "$out")"
echo "work_budget: step_hz 10000 for 600 s refused before its first step"

# 3. The session's budgets: --max-steps 10 and --max-render-seconds 2.
printf '%s\n' \
    '{"command":"world.step","params":{"steps":6}}' \
    '{"command":"world.step","params":{"steps":5}}' \
    '{"command":"world.step","params":{"steps":4}}' \
    '{"command":"audio.render_offline","params":{"seconds":1.5}}' \
    '{"command":"audio.render_offline","params":{"seconds":1}}' \
    '{"command":"audio.render_offline","params":{"seconds":0.5}}' \
    '{"command":"world.status"}' '{"command":"audio.status"}' |
    timeout 30 "$earshot" serve --max-steps 10 --max-render-seconds 2 >"$out"
expect_line 1 '"ok":true'
expect_line 2 '"budget":"steps per session"'
expect_line 2 '"asked":5,"left":4,"limit":10'
expect_line 3 '"ok":true'
expect_line 4 '"ok":true'
expect_line 5 '"budget":"rendered frames per session"'
expect_line 5 '"asked":48000,"left":24000,"limit":96000'
expect_line 6 '"ok":true'
expect_line 7 '"steps":10'
expect_line 8 '"max_steps":10,'
expect_line 8 '"seconds_rendered":2.0,"max_seconds_rendered":2.0'

if "$earshot" serve --max-steps 0 </dev/null >/dev/null 2>&1; then fail "--max-steps 0 was accepted"; fi
if "$earshot" serve --max-render-seconds nan </dev/null >/dev/null 2>&1; then
    fail "--max-render-seconds nan was accepted"
fi

# 4. Cancelled by a serve cancel line (sent a moment later), with progress asked for.
row 400 >"$dir/row.json"
{
    printf '{"command":"world.load","params":{"world":%s}}\n' "$(cat "$dir/row.json")"
    printf '%s\n' '{"command":"world.step","params":{"steps":100000},"id":7,"progress":true}'
    sleep 1
    printf '%s\n' '{"command":"cancel","params":{"id":7}}' '{"command":"world.status"}'
} | timeout 60 "$earshot" serve >"$out"
grep -qF '{"id":7,"progress":{"done":' "$out" || fail "no progress line"
grep -F '"code":"E_CANCELLED"' "$out" | grep -qF '"id":7' || fail "the step was not cancelled"
tail -1 "$out" | grep -qF '"bodies":400' || fail "the session did not go on"
steps=$(tail -1 "$out" | grep -o '"steps":[0-9]*' | cut -d: -f2)
[ "$steps" -gt 0 ] && [ "$steps" -lt 100000 ] || fail "the world took $steps steps"

# 5. Cancelled by SIGINT; the next line is still answered. SIGINT is sent once the step
# reports progress (it is running): waiting on input with none, SIGINT would end the
# session; with a command queued or running, it cancels that command. (Sent at a fixed
# delay instead, a loaded machine still parsing the world got it between lines.)
mkfifo "$dir/fifo"
{
    printf '{"command":"world.load","params":{"world":%s}}\n' "$(cat "$dir/row.json")"
    printf '%s\n' '{"command":"world.step","params":{"steps":100000},"id":9,"progress":true}'
    n=0
    while ! grep -qF '{"id":9,"progress":' "$out" 2>/dev/null && [ "$n" -lt 600 ]; do
        sleep 0.1
        n=$((n + 1))
    done
    sleep 2
    printf '%s\n' '{"command":"world.status"}'
} >"$dir/fifo" &
writer=$!
: >"$out"
timeout 60 "$earshot" serve <"$dir/fifo" >"$out" &
server=$!
n=0
while ! grep -qF '{"id":9,"progress":' "$out" 2>/dev/null && [ "$n" -lt 600 ]; do
    sleep 0.1
    n=$((n + 1))
done
kill -INT "$server"
wait "$server" || fail "serve exited $? after SIGINT"
wait "$writer"
grep -F '"code":"E_CANCELLED"' "$out" | grep -qF '"id":9' || fail "SIGINT did not cancel the step"
tail -1 "$out" | grep -qF '"bodies":400' || fail "the session did not go on after SIGINT"

# 6. MCP: notifications/cancelled for the call's id; progress for its token.
{
    printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}'
    printf '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"world_load","arguments":{"world":%s}}}\n' \
        "$(cat "$dir/row.json")"
    printf '%s\n' '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"world_step","arguments":{"steps":100000},"_meta":{"progressToken":"p3"}}}'
    sleep 1
    printf '%s\n' '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}' \
        '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"world_status","arguments":{}}}'
} | timeout 60 "$earshot" mcp >"$out"
grep -qF '"method":"notifications/progress","params":{"progressToken":"p3"' "$out" ||
    fail "no MCP progress"
# A cancelled request gets no response (MCP's rule); the next call shows the world went on.
if grep -qF '"id":3,' "$out"; then fail "MCP answered the cancelled call 3"; fi
grep -F '"id":4' "$out" | grep -qF '"isError":false' || fail "MCP did not go on"
steps=$(grep -F '"id":4' "$out" | grep -o '"steps":[0-9]*' | head -1 | cut -d: -f2)
[ "$steps" -gt 0 ] && [ "$steps" -lt 100000 ] || fail "MCP's world took $steps steps"
echo "work_budget: ok"
