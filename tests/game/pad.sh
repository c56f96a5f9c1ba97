#!/bin/sh
# The demo game with a gamepad (tests/game, CTest game_demo_pad): the bot that only hears
# plays level 1 through the gamepad's actions alone (its --bot-keys hold pad lines, no key
# line) and finishes it exactly as it does with the keys; plugging a pad in and pulling it
# out mid-game is said in English and German; a crash rumbles the pad.
# Usage: pad.sh <earshot-demo>
set -u
GAME=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
. "$(cd "$(dirname "$0")" && pwd)/common.sh"

# 1. The bot on a gamepad: level 1 finished, the pad's arrival heard, only pad lines sent.
"$GAME" --autoplay --level 1 --pad --bot-keys pad.keys --speech-log pad.log >pad.out 2>pad.err
check "pad autoplay exits 0" test $? -eq 0
check "pad autoplay: level 1 done" grep -q '^summary: level=1 finished=yes .*levels_done=1 ' pad.out
check "pad autoplay: 'Controller connected' heard" heard_text pad.log "Controller connected"
check "pad autoplay: the bot pressed no key" sh -c "! grep -Eq ' (down|up|press) ' pad.keys"
check "pad autoplay: it walked with the D-pad" grep -q ' pad_down DPUP$' pad.keys
check "pad autoplay: it turned with the stick" grep -q ' pad_axis LEFTX -1.0000$' pad.keys
check "pad autoplay: it confirmed with A" grep -q ' pad_press A$' pad.keys
# The bot's pad lines are a script: played back, they finish the level the same way.
"$GAME" --headless --level 1 --seconds 60 --script pad.keys >again.out 2>&1
check "the pad lines replayed as a script: level 1 done" \
    grep -q '^summary: level=1 finished=yes ' again.out
check "the same run, step for step" \
    test "$(grep audio_hash pad.out)" = "$(grep audio_hash again.out)"

# 2. Plugged in and pulled out mid-game, in both languages.
printf '10 pad_connect\n400 pad_disconnect\n500 quit\n' >plug.script
"$GAME" --headless --script plug.script --speech-log en.log >en.out 2>&1
check "connected said" heard_text en.log "Controller connected"
check "disconnected said" heard_text en.log "Controller disconnected"
"$GAME" --headless --lang de --script plug.script --speech-log de.log >de.out 2>&1
check "German: connected said" heard_text de.log "Controller verbunden"
check "German: disconnected said" heard_text de.log "Controller getrennt"

# 3. Level 3 on the right trigger: the car hits the east wall once (as game.sh's crash
# with the Up key: score -20), and the pad rumbles once.
printf '0 pad_connect\n700 pad_axis RIGHTTRIGGER 1\n' >crash.script
"$GAME" --headless --level 3 --seconds 26 --script crash.script >crash.out 2>&1
check "trigger crash: one hard crash (score -20)" \
    grep -q '^summary: level=3 finished=no .* score=-20 ' crash.out
check "trigger crash: the pad rumbled once" grep -qx 'pad: rumbles=1' crash.out
exit $fail
