#!/bin/sh
# Heard, not logged (tests/game, CTest game_demo_heard): in every flow of the demo game
# every line that carries information is heard whole, at espeak-ng's default rate and at
# the slowest rate the settings offer. A headless run times each line as espeak-ng says it
# (docs/modules/speech.md); the speech log gives each line's fate ("heard", or "cut
# <said>/<full>"). The scripts wait between keys as a player who listens does, so nothing
# at all may be cut: what the game reports (a result, an error, a find, an intro) is never
# cut by what follows it, and the next menu's title waits for it (docs/game.md, "Speech").
# Usage: heard.sh <earshot-demo>
set -u
GAME=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
. "$(cd "$(dirname "$0")" && pwd)/common.sh"

# keys <first frame> <gap> KEY... : a script pressing the first key at <first frame> and
# each next <gap> frames after the last ("WAIT" presses nothing), then quitting <gap>
# frames after the last.
keys() {
    f=$1 gap=$2
    shift 2
    for k in "$@"; do
        [ "$k" = WAIT ] || echo "$f press $k"
        f=$((f + gap))
    done
    echo "$f quit"
}
# all_heard <log> <what>: the log has lines and every one was said whole.
all_heard() {
    check "$2: lines were said" test -s "$1"
    check "$2: every line heard whole" sh -c "! grep -qv '	heard\$' '$1'"
    grep -v '	heard$' "$1" | sed 's/^/  cut: /'
}
heard() { grep -qE "^[0-9]+\.[0-9]{2}	$2	heard\$" "$1"; }

# The slowest rate, set in the settings (the settings flow, at the default rate until the
# rate moves): to Settings, down to the speech rate, Left ten times (-100), back.
keys 600 600 DOWN DOWN ENTER DOWN DOWN DOWN DOWN LEFT LEFT LEFT LEFT LEFT LEFT LEFT LEFT \
    LEFT LEFT ESCAPE >rate.script
"$GAME" --headless --script rate.script --save slow.save --speech-log settings.log >/dev/null 2>&1
all_heard settings.log "settings"
for line in "Main menu, menu" "Settings, menu" "Master volume, slider, 100 percent, 1 of 12" \
    "Speech rate, slider, 0, 5 of 12" "-100" "Settings, submenu, 3 of 5"; do
    check "settings: $line" heard settings.log "$line"
done

# No keys at all (a regular file: the game refuses devices as scripts).
: >empty.script
for rate in default slowest; do
    save() { # a copy of the slowest rate's save, or none
        if [ "$rate" = slowest ]; then cp slow.save "$1.save"; echo "--save $1.save"; fi
    }
    # The level intros, each said whole before anything else.
    for n in 1 2 3; do
        # shellcheck disable=SC2046
        "$GAME" --headless --level $n $(save intro$n) --script empty.script --seconds 25 \
            --speech-log intro$n-$rate.log >/dev/null 2>&1
        all_heard intro$n-$rate.log "$rate: level $n's intro"
        check "$rate: level $n's intro" grep -qE "^0\.00	Level $n: .*	heard\$" intro$n-$rate.log
    done

    # 3D sound unavailable, at the start: said whole, then the main menu.
    # shellcheck disable=SC2046
    "$GAME" --headless $(save hrtf) --headphones --hrtf "$DIR/none.sofa" --seconds 40 \
        --speech-log hrtf-$rate.log >/dev/null 2>&1
    all_heard hrtf-$rate.log "$rate: 3D sound unavailable"
    check "$rate: 3D sound unavailable, first" sh -c "head -1 hrtf-$rate.log | grep -q '^0.00	3D sound unavailable: .*Sounds are panned.	heard\$'"
    check "$rate: then the main menu" heard hrtf-$rate.log "Main menu, menu"
    check "$rate: and its first item" heard hrtf-$rate.log "Play, button, 1 of 5"

    # 3D sound unavailable when the player turns it on in the settings.
    keys 900 900 DOWN DOWN ENTER DOWN DOWN DOWN DOWN DOWN DOWN ENTER WAIT >hp.script
    # shellcheck disable=SC2046
    "$GAME" --headless $(save hp) --hrtf "$DIR/none.sofa" --script hp.script \
        --speech-log hp-$rate.log >/dev/null 2>&1
    all_heard hp-$rate.log "$rate: the headphones in the settings"
    check "$rate: the box is checked" heard hp-$rate.log "checked"
    check "$rate: then why 3D sound is unavailable" heard hp-$rate.log "3D sound unavailable: .*"

    # Pause: Escape after the intro, the menu and its first item; Resume.
    keys 900 900 ESCAPE ENTER WAIT >pause.script
    # shellcheck disable=SC2046
    "$GAME" --headless --level 1 $(save pause) --script pause.script \
        --speech-log pause-$rate.log >/dev/null 2>&1
    all_heard pause-$rate.log "$rate: pause"
    check "$rate: Paused, menu" heard pause-$rate.log "Paused, menu"
    check "$rate: Resume, button, 1 of 5" heard pause-$rate.log "Resume, button, 1 of 5"

    # Completion: level 1 walked to its goal by the keys the bot pressed (below), after
    # the intro: the finds, the result with its time and score, the menu after it.
    # Game over: level 2, walked into the drone's row: hurt twice, then game over.
    printf '800 down RIGHT\n860 up RIGHT\n870 down UP\n1090 up UP\n5000 quit\n' >over.script
    # shellcheck disable=SC2046
    "$GAME" --headless --level 2 $(save over) --script over.script \
        --speech-log over-$rate.log >/dev/null 2>&1
    all_heard over-$rate.log "$rate: game over"
    check "$rate: hurt" heard over-$rate.log "Ouch! 2 lives left\."
    check "$rate: game over with the score" heard over-$rate.log "Game over\. Score -?[0-9]+\."
    check "$rate: then the game-over menu" heard over-$rate.log "Game over, menu"
    check "$rate: and its first item" heard over-$rate.log "Retry, button, 1 of 3"
done

# The completion flow: the bot walks level 1 once; its keys up to the goal, played 800
# frames later (the intro said whole at either rate first), walk there again.
"$GAME" --autoplay --level 1 --bot-keys bot.keys --speech-log bot.log >/dev/null 2>&1
goal=$(awk -F'\t' '$2 ~ /^Level complete\. Time/ { printf "%d", $1 * 60; exit }' bot.log)
check "the bot reached the goal (frame ${goal:-none})" test -n "$goal"
awk -v g="${goal:-0}" '$1 < g { $1 += 800; print }' bot.keys >walk.script
echo "$(( ${goal:-0} + 800 + 2400 )) quit" >>walk.script
for rate in default slowest; do
    opt=
    if [ "$rate" = slowest ]; then cp slow.save walk.save; opt="--save walk.save"; fi
    # shellcheck disable=SC2086
    "$GAME" --headless --level 1 $opt --script walk.script --speech-log walk-$rate.log \
        >walk-$rate.out 2>&1
    check "$rate: level 1 done by the bot's keys" grep -q '^summary: level=1 finished=yes ' walk-$rate.out
    all_heard walk-$rate.log "$rate: completion"
    check "$rate: the first sparkle" heard walk-$rate.log "Sparkle found\. 2 to go\."
    check "$rate: the second" heard walk-$rate.log "Sparkle found\. 1 to go\."
    check "$rate: the result, time and score" heard walk-$rate.log \
        "Level complete\. Time [0-9]+\.[0-9] seconds\. Score [0-9]+\."
    check "$rate: then the completion menu" heard walk-$rate.log "Level complete, menu"
    check "$rate: and its first item" heard walk-$rate.log "Next level, button, 1 of 4"
done
# The slowest rate is slower: the result (from its start to the menu title's, which waits
# for it) takes 175 / 80 times as long (espeak-ng's 175 and 80 words a minute), +-15 %.
took() { awk -F'\t' '$2 ~ /^Level complete\. Time/ { s = $1 } $2 == "Level complete, menu" {
    printf "%.2f", $1 - s; exit }' "$1"; }
a=$(took walk-default.log) b=$(took walk-slowest.log)
check "the result: ${a:-?} s at the default rate, ${b:-?} s at the slowest" \
    awk -v a="${a:-0}" -v b="${b:-0}" 'BEGIN { r = a > 0 ? b / a : 0; exit !(r > 1.86 && r < 2.52) }'

# A damaged save: said whole before the main menu (the rate in it is lost with it: the
# default rate).
cp slow.save broken.save
b=$(od -An -tu1 -j40 -N1 broken.save | tr -d ' ')
printf "\\$(printf '%03o' $((b ^ 255)))" | dd of=broken.save bs=1 seek=40 conv=notrunc 2>/dev/null
"$GAME" --headless --save broken.save --seconds 30 --speech-log broken.log >/dev/null 2>&1
all_heard broken.log "a damaged save"
check "a damaged save, first" sh -c "head -1 broken.log | grep -q '^0.00	The save file was damaged and has been set aside. The game starts from the defaults.	heard\$'"
check "then the main menu" heard broken.log "Main menu, menu"
check "and its first item" heard broken.log "Play, button, 1 of 5"
exit $fail
