#!/bin/sh
# The demo game headless (tests/game): the bot that only hears finishes every level, menus
# speak word for word in English and German, the save round trip and a tampered save, a
# recorded run replays to the same hashes, the cache's loads, window close replacing a
# route, and pause reasons. Usage: game.sh <earshot-demo>
set -u
GAME=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
SRC=$(cd "$(dirname "$0")/../../games/demo" && pwd)
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
cd "$DIR" || exit 1
fail=0
check() { # check <what> <command...>
    what=$1
    shift
    if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; fail=1; fi
}
has_line() { grep -qxF -- "$2" "$1"; }

# 1. The bot plays every level from the first, reading only what it hears.
"$GAME" --autoplay --all --level 1 --speech-log all.log --bot-log bot.log >all.out 2>all.err
check "autoplay exits 0" test $? -eq 0
check "summary: three levels done" grep -q '^summary: level=3 finished=yes .*levels_done=3 ' all.out
check "speech log: three completions with time and score" \
    test "$(grep -cE '^[0-9]+\.[0-9]{2}	Level complete\. Time [0-9]+\.[0-9] seconds\. Score [0-9]+\.$' all.log)" -eq 3
check "the bot logged its own decisions" grep -q 'the bell is ahead' bot.log
# Cache: level 2 adds its music only (walking sounds stay), level 3 the car's six sounds.
check "cache loads 22 23 29 across next level" grep -qx 'loads: 22 23 29' all.out

# 2. Menus by script, word for word.
cat >menu.script <<'S'
5 press DOWN
10 press DOWN
15 press ENTER
30 press DOWN
35 press RIGHT
40 press ESCAPE
50 press UP
55 press UP
60 press ENTER
80 press ENTER
200 press ESCAPE
230 quit
S
"$GAME" --headless --script menu.script --save s.save --speech-log en.log >en.out 2>&1
for line in "0.02	Main menu, menu" "0.02	Play, button, 1 of 5" "0.08	Choose a level, submenu, 2 of 5" \
    "0.17	Settings, submenu, 3 of 5" "0.27	Settings, menu" \
    "0.27	Master volume, slider, 100 percent, 1 of 8" "0.50	Music volume, slider, 60 percent, 2 of 8" \
    "0.58	70 percent" "1.00	Level 1: the garden. Follow the bell. Find two sparkles, then the beacon." \
    "3.33	Paused, menu" "3.33	Resume, button, 1 of 5"; do
    check "English: $line" has_line en.log "$line"
done
# 3. The save kept the music volume (70); German this time.
"$GAME" --headless --script menu.script --save s.save --lang de --speech-log de.log >de.out 2>&1
for line in "0.02	Hauptmenü, Menü" "0.02	Spielen, Schalter, 1 von 5" "0.27	Einstellungen, Menü" \
    "0.50	Musiklautstärke, Schieberegler, 70 Prozent, 2 von 8" "0.58	80 Prozent" \
    "3.33	Pause, Menü"; do
    check "German: $line" has_line de.log "$line"
done
check "the save is encrypted" sh -c "head -c 18 s.save | grep -q EARSHOT-SAVE-ENC1"
# 4. A tampered save: set aside as .broken, defaults, and said.
printf 'X' | dd of=s.save bs=1 seek=40 conv=notrunc 2>/dev/null
"$GAME" --headless --script menu.script --save s.save --speech-log broken.log >/dev/null 2>&1
check "tampered save becomes .broken" test -f s.save.broken
check "tampered save is said" grep -q 'The save file was damaged and has been set aside. The game starts from the defaults.' broken.log
check "defaults after the tampered save" grep -qF "Music volume, slider, 60 percent, 2 of 8" broken.log

# 5. A recorded autoplay replays to the same state and audio hash at every step.
"$GAME" --autoplay --level 1 --record run.rep >rec.out 2>&1
"$GAME" --replay run.rep --level 1 >rep.out 2>rep.err
check "replay exits 0 (every step's state hash equal)" test $? -eq 0
check "replay gives the same audio hash" test "$(grep audio_hash rec.out)" = "$(grep audio_hash rep.out)"

# 6. Window close in the same frame as Play: the close's Exit wins, no level loads.
printf '5 press ENTER\n5 quit\n' >close.script
"$GAME" --headless --script close.script --speech-log close.log >close.out 2>&1
check "close replaces the Play route" sh -c "! grep -q 'Level 1' close.log && grep -q '^summary: level=0 ' close.out"

# 7. Pause reasons: focus loss pauses; regaining focus does not end a player pause.
printf '10 focus_lost\n130 focus_gained\n300 quit\n' >focus.script
"$GAME" --headless --level 1 --script focus.script >focus.out 2>&1
check "focus loss pauses 2 s of 5 (time_s 2.98)" grep -q 'time_s=2.98 ' focus.out
printf '10 press ESCAPE\n20 focus_lost\n40 focus_gained\n300 quit\n' >pause.script
"$GAME" --headless --level 1 --script pause.script >pause.out 2>&1
check "player pause survives focus regained (time_s 0.17)" grep -q 'time_s=0.17 ' pause.out

# 8. The keys in a level: where am I, facing (compass and clock), status, F1, key help, history.
printf '10 press W\n20 press C\n30 press T\n40 press F1\n50 press K\n60 press H\n70 press H\n100 quit\n' >keys.script
"$GAME" --headless --level 1 --script keys.script --speech-log keys.log >/dev/null 2>&1
for line in "0.17	Level 1: the garden. The bell is 2 meters ahead, 1 to the right. 0 of 3 found. Time 0.2 seconds, score 0." \
    "0.33	Facing east. The bell is at 1 o'clock." "0.50	Time 0.5 seconds, score 0, 3 lives." \
    "0.67	Time 0.5 seconds, score 0, 3 lives." "1.00	Time 0.5 seconds, score 0, 3 lives." \
    "1.17	Facing east. The bell is at 1 o'clock."; do
    check "keys: $line" has_line keys.log "$line"
done
printf '10 press S\n100 down UP\n300 press S\n400 quit\n' >car.script
"$GAME" --headless --level 3 --script car.script --lang de --speech-log car.log >/dev/null 2>&1
check "car: speed, gear and fuel in German" has_line car.log "5.00	26 Kilometer pro Stunde, Gang 3, 1,5 Liter im Tank."

# 10. Cache loads across restart (nothing read again), level select to level 2 (its music
# read, level 1's trimmed), and back to level 1 (its music read again): 22 22 23 24.
printf '10 press ESCAPE\n20 press DOWN\n25 press ENTER\n40 press ESCAPE\n50 press DOWN\n55 press DOWN\n60 press ENTER\n70 press DOWN\n75 press ENTER\n90 press ESCAPE\n100 press DOWN\n105 press DOWN\n110 press ENTER\n120 press ENTER\n200 quit\n' >cache.script
"$GAME" --headless --level 1 --script cache.script --speech-log cache.log >cache.out 2>&1
check "cache loads 22 22 23 24 across restart and level select" grep -qx 'loads: 22 22 23 24' cache.out
check "level select reaches level 2" grep -q '^0.42	Level 2: the cellar. Follow the bell.' cache.log

# 9. The bot hears only: its code includes nothing of the game's (only its header and keys).
check "bot sources exist" test -f "$SRC/bot.c" -a -f "$SRC/bot.h"
check "bot.c includes only bot.h and the C library" \
    sh -c "! grep -E '^#include' '$SRC/bot.c' | grep -vE '\"bot.h\"|<(math|stdlib|string|stdio)\.h>'"
check "bot.h includes only earshot/input.h and the C library" \
    sh -c "! grep -E '^#include' '$SRC/bot.h' | grep -vE 'earshot/input.h|<std(bool|def|int|io)\.h>'"
exit $fail
