#!/bin/sh
# The demo game's keys as a player presses them (tests/game, issue 26): a key held when a
# menu opens does nothing in it (the completion menu under a held Up, the pause menu under
# held Up and Escape), the key repeat setting (the exact count of moves in 2 s), the quit
# question, Escape on the completion and game-over menus and in the main menu, best times and "Saved.",
# the small things (S on foot, K and T in the car, "1 life left"), the music in the
# settings at the volume being set, and no WAV or SVG in the working folder unless asked.
# Usage: keys.sh <earshot-demo> <music_level>
set -u
GAME=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
LEVEL=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
. "$(cd "$(dirname "$0")" && pwd)/common.sh"
near() { # near <what> <expected dB> <music_level args...>
    what=$1 want=$2
    shift 2
    got=$("$LEVEL" "$@") || { echo "FAIL: $what (music_level failed)"; fail=1; return; }
    check "$what: $got (want $want +-0.5 dB)" \
        awk -v w="$want" -v g="${got#db=}" 'BEGIN { d = (g + 0) - w; exit !(d <= 0.5 && d >= -0.5) }'
}
# 1. Keys as a player presses them: a key held when a menu opens does nothing in it until
# it is let go and pressed again. The script walks level 1 to the goal (turns of 60 frames
# are 90 degrees, walks at 2 m/s) and still holds Up for 3.5 s after the goal: the
# completion menu stays on its first item (before: it moved every 0.08 s, 40 lines).
cat >goal.script <<'S'
10 down RIGHT
70 up RIGHT
70 down UP
160 up UP
160 down LEFT
220 up LEFT
220 down UP
520 up UP
520 down LEFT
580 up LEFT
580 down UP
640 up UP
640 down LEFT
760 up LEFT
760 down UP
820 up UP
820 down RIGHT
880 up RIGHT
880 down UP
1120 up UP
1120 down RIGHT
1180 up RIGHT
1180 down UP
1195 up UP
1195 down RIGHT
1255 up RIGHT
1255 down UP
1360 up UP
1360 down RIGHT
1420 up RIGHT
1420 down UP
1525 up UP
1525 down RIGHT
1585 up RIGHT
1585 down UP
1900 up UP
S
{ cat goal.script; printf '1950 quit\n'; } >goal-held.script
"$GAME" --headless --level 1 --script goal-held.script --save goal.save --speech-log goal.log >goal.out 2>&1
check "held Up onto the goal: level 1 finished" grep -q '^summary: level=1 finished=yes ' goal.out
check "held Up: the completion menu says its first item and nothing after" \
    test "$(sed -n '/Level complete, menu/,$p' goal.log | cut -f2 | tr '\n' '|')" = \
    "Level complete, menu|Best time 28.2 seconds. Saved.|Next level, button, 1 of 4|"
# The best time, in level select (English and German), once the level has one.
# (the item is said after the menu's title, so the run lasts until it has been said whole)
printf '10 press DOWN\n20 press ENTER\n600 quit\n' >best.script
"$GAME" --headless --script best.script --save goal.save --speech-log best.log >/dev/null 2>&1
check "level select says the best time" heard_text best.log "Level 1: the garden, best time 28.2 seconds, button, 1 of 3"
"$GAME" --headless --script best.script --save goal.save --lang de --speech-log bestde.log >/dev/null 2>&1
check "German level select says the best time" heard_text bestde.log "Level 1: der Garten, Bestzeit 28,2 Sekunden, Schalter, 1 von 3"
# Escape on the completion menu goes back to the main menu (before: nothing).
{ cat goal.script; printf '1950 press ESCAPE\n2000 quit\n'; } >goal-esc.script
"$GAME" --headless --level 1 --script goal-esc.script --speech-log goalesc.log >/dev/null 2>&1
check "Escape on the completion menu: the main menu" \
    test "$(sed -n '/Level complete, menu/,$p' goalesc.log | cut -f2 | tr '\n' '|')" = \
    "Level complete, menu|Best time 28.2 seconds.|Next level, button, 1 of 4|Main menu, menu|Play, button, 1 of 5|"
# Escape on the game-over menu goes back to the main menu too (heard.sh's walk into level
# 2's drone row: game over at 51.7 s, its menu at 53.9 s, Escape at 56.7 s).
printf '800 down RIGHT\n860 up RIGHT\n870 down UP\n1090 up UP\n3400 press ESCAPE\n3600 quit\n' >over-esc.script
"$GAME" --headless --level 2 --script over-esc.script --speech-log overesc.log >/dev/null 2>&1
check "Escape on the game-over menu: the main menu" \
    test "$(sed -n '/	Game over, menu	/,$p' overesc.log | cut -f2 | tr '\n' '|')" = \
    "Game over, menu|Retry, button, 1 of 3|Main menu, menu|Play, button, 1 of 5|"
# Up held while Escape (held too) opens the pause menu: it stays on Resume.
printf '10 down UP\n60 down ESCAPE\n200 up ESCAPE\n250 up UP\n300 quit\n' >held-pause.script
"$GAME" --headless --level 1 --script held-pause.script --speech-log heldpause.log >/dev/null 2>&1
check "held Up and Escape into the pause menu: it stays on Resume" \
    test "$(sed -n '/Paused, menu/,$p' heldpause.log | cut -f2 | tr '\n' '|')" = "Paused, menu|Resume, button, 1 of 5|"
# Down held 2 s (frames 20 to 140) in the main menu: the press, then a move at 0.5 s and
# every 0.08 s after (0.5 + 18 * 0.08 = 1.94 s, the last before 119/60 s): 20 moves. With
# the key-repeat delay set to 0.8 s in the settings (saved): the press and 0.8 + 14 * 0.08
# = 1.92 s: 16 moves, and the first repeat 0.8 s after the press.
printf '20 down DOWN\n140 up DOWN\n200 quit\n' >hold.script
"$GAME" --headless --script hold.script --speech-log hold.log >/dev/null 2>&1
check "Down held 2 s: 20 moves (delay 0.5 s, then every 0.08 s)" \
    test "$(sed '1,2d' hold.log | cut -f2 | grep -c ' of 5$')" -eq 20
{ printf '5 press DOWN\n10 press DOWN\n15 press ENTER\n'
  for i in 0 1 2 3 4 5 6; do echo "$((30 + i * 5)) press DOWN"; done
  printf '70 press RIGHT\n75 press RIGHT\n80 press RIGHT\n90 press ESCAPE\n120 quit\n'; } >repeat.script
"$GAME" --headless --script repeat.script --save repeat.save --speech-log repeat.log >/dev/null 2>&1
for line in "1.00	Key repeat delay, slider, 0.5 seconds, 8 of 12" "1.33	0.8 seconds"; do
    check "key repeat setting: $line" said repeat.log "$line"
done
"$GAME" --headless --script hold.script --save repeat.save --speech-log hold8.log >/dev/null 2>&1
check "Down held 2 s with the delay at 0.8 s: 16 moves" test "$(sed '1,2d' hold8.log | cut -f2 | grep -c ' of 5$')" -eq 16
check "the first repeat 0.8 s after the press" \
    test "$(sed -n '3,4p' hold8.log | cut -f1 | tr '\n' ' ')" = "0.33 1.13 "
"$GAME" --headless --script repeat.script --save repeat.save --lang de --speech-log repeatde.log >/dev/null 2>&1
check "German: Tastenwiederholung nach, 0,8 Sekunden" \
    said repeatde.log "1.00	Tastenwiederholung nach, Schieberegler, 0,8 Sekunden, 8 von 12"
# Quit asks "Quit the game?" (No first): from the pause menu (the level would be lost) No
# goes back to it, Yes quits (the run ends at frame 70); Escape in the main menu asks too,
# and Escape on the question goes back.
printf '10 press ESCAPE\n20 press UP\n30 press ENTER\n40 press ENTER\n50 press ENTER\n60 press UP\n70 press ENTER\n200 quit\n' >quit.script
"$GAME" --headless --level 1 --script quit.script --speech-log quit.log >quit.out 2>&1
check "pause Quit asks; No back; Yes quits" \
    test "$(sed '1,3d' quit.log | cut -f2 | tr '\n' '|')" = \
    "Quit, button, 5 of 5|Quit the game?, dialog|No, button, 2 of 2|Quit, button, 5 of 5|Quit the game?, dialog|No, button, 2 of 2|Yes, button, 1 of 2|"
check "Yes quit the game at frame 70" grep -q ' frames=71 ' quit.out
"$GAME" --headless --level 1 --script quit.script --lang de --speech-log quitde.log >/dev/null 2>&1
for line in "Spiel beenden?, Dialog" "Nein, Schalter, 2 von 2" "Ja, Schalter, 1 von 2"; do
    check "German quit: $line" said_text quitde.log "$line"
done
printf '10 press ESCAPE\n20 press ESCAPE\n40 quit\n' >mainesc.script
"$GAME" --headless --script mainesc.script --speech-log mainesc.log >/dev/null 2>&1
check "Escape in the main menu asks; Escape on the question goes back" \
    test "$(cut -f2 mainesc.log | tr '\n' '|')" = \
    "Main menu, menu|Play, button, 1 of 5|Quit the game?, dialog|No, button, 2 of 2|Play, button, 1 of 5|"
# The small things: S on foot says why it does nothing; K and T in the car speak the car's
# keys and what the car has; "1 life left", not "1 lives": in level 2 the player walks
# south into the hall and waits there: the drone hits it at 16.9 and 34.3 s.
printf '10 down RIGHT\n70 up RIGHT\n70 down UP\n250 up UP\n2400 press T\n2500 quit\n' >hurt.script
"$GAME" --headless --level 2 --script hurt.script --speech-log hurt.log >/dev/null 2>&1
for line in "16.90	Ouch! 2 lives left." "34.27	Ouch! 1 life left." "40.00	Time 40.0 seconds, score -200, 1 life."; do
    check "lives: $line" said hurt.log "$line"
done
"$GAME" --headless --level 2 --script hurt.script --lang de --speech-log hurtde.log >/dev/null 2>&1
check "German: Noch 1 Leben" said hurtde.log "34.27	Autsch! Noch 1 Leben."
printf '10 press S\n60 quit\n' >foot.script
"$GAME" --headless --level 1 --script foot.script --speech-log foot.log >/dev/null 2>&1
check "S on foot says why" said foot.log "0.17	You are on foot: S tells the car's speed, gear and fuel when you drive."
printf '10 press K\n20 press T\n60 quit\n' >carkeys.script
"$GAME" --headless --level 3 --script carkeys.script --speech-log carkeys.log >/dev/null 2>&1
check "K in the car: the car's keys" said carkeys.log \
    "0.17	Up is gas, Down brakes and then reverses, Left and Right steer. S says speed, gear and fuel, T time, score and what the car has, W where you are, C where you face. F1 repeats, H reads the history. Escape pauses."
check "T in the car: what the car has" said carkeys.log \
    "0.33	Time 0.3 seconds, score 0. The car: 0 kilometers per hour, gear 1 of 3, 1.5 of 1.5 liters of fuel."
"$GAME" --headless --level 3 --script carkeys.script --lang de --speech-log carkeysde.log >/dev/null 2>&1
check "German T in the car" said carkeysde.log \
    "0.33	Zeit 0,3 Sekunden, Punkte 0. Das Auto: 0 Kilometer pro Stunde, Gang 1 von 3, 1,5 von 1,5 Litern im Tank."

# 2. The music plays on in the settings at the volume being set: the main menu's loop
# (4.0 s) over one whole loop before and after the music volume goes from 60 to 70
# percent (Right at 6.17 s): +1.34 dB, 20 log10(70 / 60). Before, the first slider move
# silenced it (a flag for "the settings are up" was set only by their first event).
printf '5 press DOWN\n10 press DOWN\n15 press ENTER\n30 press DOWN\n370 press RIGHT\n700 quit\n' >setmusic.script
"$GAME" --headless --script setmusic.script --wav setmusic.wav --speech-log setmusic.log >/dev/null 2>&1
check "music volume to 70 in the settings" said setmusic.log "6.17	70 percent"
near "the music in the settings at 70 against 60 percent" 1.34 setmusic.wav 7.0 2.0 4.0

# 3. The game writes no WAV or SVG into the working folder unless asked: with no display
# it chooses autoplay (the bot plays level 1) and the folder it ran in stays empty
# (`make run` asks for them, --wav and --plot, in the build folder).
mkdir cwd
(cd cwd && env -u DISPLAY -u WAYLAND_DISPLAY "$GAME" --level 1 >../cwd.out 2>&1)
check "no display: autoplay chosen" grep -q '^mode: autoplay' cwd.out
check "autoplay: level 1 done" grep -q '^summary: level=1 finished=yes ' cwd.out
check "nothing written into the working folder" test -z "$(ls -A cwd)"
exit $fail
