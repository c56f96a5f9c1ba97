#!/bin/sh
# SPDX-License-Identifier: Zlib
# Plays a Lua game headless by a key script and checks what came out:
#   play.sh EARSHOT_LUA GAME.lua KEYS WORKDIR SUMMARY_REGEX [HEARD_LINE...]
# The summary line must match SUMMARY_REGEX (grep -E) with errors=0; each HEARD_LINE must
# be in the speech log as "<start>\t<line>\theard". Then the run is recorded and replayed:
# the replay must reproduce every step's hash.
set -u
bin=$1 game=$2 keys=$3 work=$4 want=$5
shift 5
mkdir -p "$work"
out=$work/out.txt log=$work/speech.log rec=$work/run.rep
rm -f "$log" "$rec"
if ! "$bin" --headless --script "$keys" --speech-log "$log" --record "$rec" "$game" >"$out" 2>&1; then
    echo "FAILED: the run exited with an error"; cat "$out"; exit 1
fi
cat "$out"
summary=$(grep '^summary:' "$out")
echo "$summary" | grep -q ' errors=0 ' || { echo "FAILED: script errors"; exit 1; }
echo "$summary" | grep -Eq "$want" || { echo "FAILED: the summary does not match $want"; exit 1; }
for line in "$@"; do
    if ! grep -qP "^[0-9]+\.[0-9]{2}\t\Q$line\E\theard$" "$log"; then
        echo "FAILED: not heard whole: $line"; cat "$log"; exit 1
    fi
done
if ! "$bin" --replay "$rec" "$game" >"$work/replay.txt" 2>&1; then
    echo "FAILED: the replay diverged"; cat "$work/replay.txt"; exit 1
fi
echo "replayed: $(grep '^summary:' "$work/replay.txt")"
echo "PASSED"
