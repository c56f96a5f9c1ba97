#!/bin/sh
# The bot finishes maps it has never seen (tests/game/maps/: eight on foot, four roads),
# each played with --level N --map FILE (foot-hall3 as level 2: its radio, sparkle and
# beacon lie across a drone's hall, crossed three times; the others on foot as level 1,
# the roads as level 3, in the car). The bot's code names none of them. Then a bad map
# file: the error names the file, line and column, is heard whole, and the main menu
# follows; and out of fuel: a car that runs dry is heard saying so, then game over (at the
# default rate and at the slowest the settings offer).
# Usage: maps.sh <earshot-demo>
set -u
GAME=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
SRC=$(cd "$(dirname "$0")/../../games/demo" && pwd)
MAPS=$(cd "$(dirname "$0")/maps" && pwd)
SELF=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
# One map's run, in the folder it is started in (the pool below starts these).
play() { # play <map file>: <name>.out, .log, .bot, .rc
    name=$(basename "$1" .map)
    case $name in foot-hall3) level=2 ;; foot-*) level=1 ;; *) level=3 ;; esac
    "$GAME" --autoplay --level "$level" --map "$1" --speech-log "$name.log" \
        --bot-log "$name.bot" >"$name.out" 2>"$name.err"
    echo "$?" >"$name.rc"
}
if [ "${2:-}" = "--play" ]; then
    play "$3"
    exit 0
fi
. "$(cd "$(dirname "$0")" && pwd)/common.sh"

# 3. Out of fuel: the car circles a field at full lock, gas held from the start (UP and
# RIGHT), away from the finish; the tank (1.5 l at 60 l per 100 km: 2.5 km, about 280 s)
# runs dry and the car rolls to a stand. The line is heard whole, then game over.
cat >field.map <<'EOF'
###########
#.........#
#...V.....#
#.........#
#.........#
#.........#
#.........#
#.........#
#........F#
###########
EOF
printf '1 down UP\n1 down RIGHT\n' >circle.script
# And at the slowest rate the settings offer (heard.sh's rule, for this flow too): a save
# with the speech rate at -100, made by the settings (Down to the rate, Left ten times).
f=30
for k in DOWN DOWN ENTER DOWN DOWN DOWN DOWN LEFT LEFT LEFT LEFT LEFT LEFT LEFT LEFT LEFT \
    LEFT ESCAPE; do
    echo "$f press $k"
    f=$((f + 30))
done >slow.script
echo "$((f + 60)) quit" >>slow.script
fuel_run() {
    "$GAME" --headless --level 3 --map field.map --script circle.script --seconds 330 \
        --speech-log fuel.log >fuel.out 2>&1
    echo "$?" >fuel.rc
    "$GAME" --headless --script slow.script --save slow.save >/dev/null 2>&1
    "$GAME" --headless --level 3 --map field.map --save slow.save --script circle.script \
        --seconds 330 --speech-log fuel-slow.log >fuel-slow.out 2>&1
    echo "$?" >fuel-slow.rc
}
# 1. Every map, four runs at a time (a pool: the next starts as one ends; the runs are
# independent, so the test's wall time on two cores is about their CPU time over two).
# The out-of-fuel run (3. below) starts first, with them.
fuel_run &
ls "$MAPS"/*.map | xargs -P 4 -n 1 sh "$SELF" "$GAME" --play
wait
check "twelve unseen maps (8 on foot, 4 roads)" test "$(ls "$MAPS"/foot-*.map | wc -l)" -eq 8 -a "$(ls "$MAPS"/road-*.map | wc -l)" -eq 4
for m in "$MAPS"/*.map; do
    name=$(basename "$m" .map)
    echo "$name: $(grep '^summary:' "$name.out")"
    check "$name: exits 0" test "$(cat "$name.rc")" -eq 0
    check "$name: finished" grep -q '^summary: level=[123] finished=yes .*levels_done=1 ' "$name.out"
    check "$name: the bot's code does not name it" sh -c "! grep -rqi '$name' '$SRC/bot.c' '$SRC/bot.h'"
done
check "the roads' U-turn and bends: the bot backed up or came round as a player would" \
    sh -c "cat road-*.bot | grep -q 'backing up'"

# 2. A bad map file: "bad.map, line 3, column 2: ..." heard whole, then the main menu.
printf '#####\n#P.B#\n#x..#\n#####\n' >bad.map
"$GAME" --headless --level 1 --map bad.map --seconds 20 --speech-log bad.log >bad.out 2>bad.err
check "bad map: exits 0 (the game goes on)" test $? -eq 0
check "bad map: the error is heard with file, line and column" heard bad.log \
    "0.00	Level 1: the garden could not be loaded: bad.map, line 3, column 2: 'x' is not a tile of the game. You are in the main menu."
check "bad map: then the main menu" heard_text bad.log "Main menu, menu"
check "bad map: the error is logged" grep -q "bad.map, line 3, column 2: 'x' is not a tile of the game" bad.err
printf '#####\n#P..#\n#####\n' >nogoal.map
"$GAME" --headless --level 1 --map nogoal.map --seconds 20 --lang de --speech-log nogoal.log >/dev/null 2>&1
check "a map without a goal: said (in German)" heard nogoal.log \
    "0.00	Level 1: der Garten konnte nicht geladen werden: die Karte hat kein Ziel ('B'). Du bist im Hauptmenü."
"$GAME" --headless --map bad.map >nolevel.out 2>&1
check "--map needs --level" test $? -eq 2

# 3. Out of fuel (run with the maps above, in fuel_run).
check "out of fuel: the run exits 0" test "$(cat fuel.rc)" -eq 0
check "out of fuel: heard whole" heard_text fuel.log "Out of fuel."
check "out of fuel: then game over with the score" \
    sh -c "grep -qE '	Game over\\. Score -?[0-9]+\\.	heard\$' fuel.log"
check "out of fuel: the summary says not finished" grep -q '^summary: level=3 finished=no ' fuel.out
check "out of fuel, slowest rate: the run exits 0" test "$(cat fuel-slow.rc)" -eq 0
check "out of fuel, slowest rate: every line heard whole" sh -c "test -s fuel-slow.log && ! grep -qv '	heard\$' fuel-slow.log"
check "out of fuel, slowest rate: heard whole" heard_text fuel-slow.log "Out of fuel."
check "out of fuel, slowest rate: then game over with the score" \
    sh -c "grep -qE '	Game over\\. Score -?[0-9]+\\.	heard\$' fuel-slow.log"
# The rate was the slowest: the game over's line starts 80 / 175 as fast after "Out of
# fuel." does (espeak-ng's 80 and 175 words a minute), so the gap is at least 1.8 times.
gap() { awk -F'\t' '$2 == "Out of fuel." { s = $1 } $2 ~ /^Game over\. Score/ { printf "%.2f", $1 - s; exit }' "$1"; }
a=$(gap fuel.log) b=$(gap fuel-slow.log)
check "out of fuel: said in ${a:-?} s at the default rate, ${b:-?} s at the slowest" \
    awk -v a="${a:-0}" -v b="${b:-0}" 'BEGIN { exit !(a > 0 && b / a > 1.8) }'
exit $fail
