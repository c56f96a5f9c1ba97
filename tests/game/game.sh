#!/bin/sh
# The demo game headless (tests/game): the bot that only hears finishes every level, menus
# speak word for word in English and German, the save round trip and a tampered save, a
# recorded run replays to the same hashes, the cache's loads, window close replacing a
# route, pause reasons, a crash mid-save and the window mode.
# Usage: game.sh <earshot-demo> [<kill_mid_write.so> [<music_level>]]
set -u
GAME=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
KILLER=${2:+$(cd "$(dirname "$2")" && pwd)/$(basename "$2")}
LEVEL=${3:+$(cd "$(dirname "$3")" && pwd)/$(basename "$3")}
SRC=$(cd "$(dirname "$0")/../../games/demo" && pwd)
. "$(cd "$(dirname "$0")" && pwd)/common.sh"

# 1. The bot plays every level from the first, reading only what it hears.
"$GAME" --autoplay --all --level 1 --speech-log all.log --bot-log bot.log >all.out 2>all.err
check "autoplay exits 0" test $? -eq 0
check "summary: three levels done" grep -q '^summary: level=3 finished=yes .*levels_done=3 ' all.out
# (the bot lets go of its keys as the voice begins: nothing it hears is cut by its keys)
check "speech log: three completions with time and score, heard whole" \
    test "$(grep -cE '^[0-9]+\.[0-9]{2}	Level complete\. Time [0-9]+\.[0-9] seconds\. Score [0-9]+\.	heard$' all.log)" -eq 3
check "autoplay: every line heard whole" sh -c "! grep -qv '	heard\$' all.log"
check "the bot logged its own decisions" grep -q 'the bell is ahead' bot.log
# The bot in German: it listens for the words of the game's German table, through all
# three levels and their completion menus.
"$GAME" --autoplay --all --level 1 --lang de --speech-log de-all.log >de-all.out 2>&1
check "German autoplay: three levels done" grep -q '^summary: level=3 finished=yes .*levels_done=3 ' de-all.out
check "German speech log: three completions with time and score, heard whole" \
    test "$(grep -cE '^[0-9]+\.[0-9]{2}	Level geschafft\. Zeit [0-9]+,[0-9] Sekunden\. Punkte [0-9]+\.	heard$' de-all.log)" -eq 3
check "German autoplay: every line heard whole" sh -c "! grep -qv '	heard\$' de-all.log"
check "German speech log: the first completion heard whole" \
    grep -qE '^[0-9]+\.[0-9]{2}	Level geschafft\. Zeit [0-9]+,[0-9] Sekunden\. Punkte [0-9]+\.	heard$' de-all.log
# Cache: level 2 adds its music only (walking sounds stay), level 3 the car's six sounds.
check "cache loads 22 23 29 across next level" grep -qx 'loads: 22 23 29' all.out
# Each level's room, as the world (its zone) and the stage (its room) report it; panned
# (no headphones by default; tests/game/headphones.sh plays them on headphones).
check "rooms: the garden outdoors" grep -qx 'room: level=1 zone=garden room=outdoors rt60=0.35' all.out
check "rooms: the cellar a cave" grep -qx 'room: level=2 zone=cellar room=cave rt60=3.50' all.out
check "rooms: the road outdoors" grep -qx 'room: level=3 zone=road room=outdoors rt60=0.35' all.out
check "panned by default" grep -qx 'spatializer: pan loaded=no directions=0 taps=0 source=-' all.out

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
for line in "0.02	Main menu, menu	cut 0.07/1.25" "0.08	Play, button, 1 of 5	cut 0.00/1.80" "0.08	Choose a level, submenu, 2 of 5	cut 0.08/2.45" \
    "0.17	Settings, submenu, 3 of 5	cut 0.10/2.29" "0.27	Settings, menu	cut 0.23/1.18" \
    "0.50	Master volume, slider, 100 percent, 1 of 12	cut 0.00/3.72" "0.50	Music volume, slider, 60 percent, 2 of 12	cut 0.08/3.60" \
    "0.58	70 percent	cut 0.10/1.00" "1.00	Level 1: the garden. Follow the bell. Find two sparkles, then the beacon.	cut 2.35/5.16" \
    "3.35	Paused, menu	cut 0.48/1.05" "3.83	Resume, button, 1 of 5	cut 0.00/1.98"; do
    check "English: $line" has_line en.log "$line"
done
# 3. The save kept the music volume (70); German this time.
"$GAME" --headless --script menu.script --save s.save --lang de --speech-log de.log >de.out 2>&1
for line in "0.02	Hauptmenü, Menü	cut 0.07/1.29" "0.08	Spielen, Schalter, 1 von 5	cut 0.00/2.08" "0.27	Einstellungen, Menü	cut 0.23/1.26" \
    "0.50	Musiklautstärke, Schieberegler, 70 Prozent, 2 von 12	cut 0.08/4.47" "0.58	80 Prozent	cut 0.10/0.99" \
    "3.35	Pause, Menü	cut 0.48/0.96"; do
    check "German: $line" has_line de.log "$line"
done
check "the save is encrypted" sh -c "head -c 18 s.save | grep -q EARSHOT-SAVE-ENC1"
# 3b. A crash in the middle of writing the save: the game is killed (SIGKILL) halfway
# through writing the save's temporary file (kill_mid_write, preloaded). The save from
# before is byte for byte what it was, and the next run loads it (music volume 70).
if [ -n "$KILLER" ]; then
    "$GAME" --headless --script menu.script --save k.save >/dev/null 2>&1
    cp k.save k.before
    EARSHOT_KILL_WRITE_MATCH="k.save.tmp-" EARSHOT_KILL_WRITE_NOTE="$DIR/kill.note" \
        LD_PRELOAD="$KILLER" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
        "$GAME" --headless --script menu.script --save k.save >kill.out 2>&1
    check "killed mid-write (SIGKILL: exit status 137)" test $? -eq 137
    check "it was killed halfway through the temporary file" \
        awk '{ exit !($1 > 40 && $2 == int($1 / 2)) }' kill.note
    check "the save from before is intact" cmp -s k.save k.before
    "$GAME" --headless --script menu.script --save k.save --speech-log kill.log >/dev/null 2>&1
    check "the next run loads it (music 70)" said kill.log "0.50	Music volume, slider, 70 percent, 2 of 12"
    check "and says nothing of damage" sh -c "! grep -q 'damaged' kill.log"
fi

# 4. A tampered save: set aside as .broken, defaults, and said.
# Byte 40 is flipped, not set: the ciphertext is random (a fresh nonce each save), so a
# fixed byte would already be there once in 256 runs and tamper with nothing.
b=$(od -An -tu1 -j40 -N1 s.save | tr -d ' ')
printf "\\$(printf '%03o' $((b ^ 255)))" | dd of=s.save bs=1 seek=40 conv=notrunc 2>/dev/null
"$GAME" --headless --script menu.script --save s.save --speech-log broken.log >/dev/null 2>&1
check "tampered save becomes .broken" test -f s.save.broken
check "tampered save is said" grep -q 'The save file was damaged and has been set aside. The game starts from the defaults.' broken.log
check "defaults after the tampered save" grep -qF "Music volume, slider, 60 percent, 2 of 12" broken.log

# 5. A recorded autoplay replays to the same state and audio hash at every step.
"$GAME" --autoplay --level 1 --record run.rep >rec.out 2>&1
"$GAME" --replay run.rep --level 1 >rep.out 2>rep.err
check "replay exits 0 (every step's state hash equal)" test $? -eq 0
check "replay gives the same audio hash" test "$(grep audio_hash rec.out)" = "$(grep audio_hash rep.out)"

# 5b. A recording that ends by a close (a script's quit, --seconds) replays to its end
# (issue 24: each diverged at its last step, the close's Exit having skipped that step).
printf '10 press ENTER\n30 press ENTER\n80 quit\n' >quit.script
"$GAME" --headless --script quit.script --record quit.rep >quit.out 2>&1
"$GAME" --replay quit.rep >quit-rep.out 2>quit-rep.err
check "a recording ended by a script's quit replays" test $? -eq 0
"$GAME" --headless --level 1 --seconds 3 --record seconds.rep >seconds.out 2>&1
"$GAME" --replay seconds.rep --level 1 >seconds-rep.out 2>seconds-rep.err
check "a recording ended by --seconds replays" test $? -eq 0

# 6. Window close in the same frame as Play: the close's Exit wins, no level loads.
printf '5 press ENTER\n5 quit\n' >close.script
"$GAME" --headless --script close.script --speech-log close.log >close.out 2>&1
check "close replaces the Play route" sh -c "! grep -q 'Level 1' close.log && grep -q '^summary: level=0 ' close.out"

# 7. Pause reasons: focus loss pauses; regaining focus does not end a player pause.
printf '10 focus_lost\n130 focus_gained\n300 quit\n' >focus.script
"$GAME" --headless --level 1 --script focus.script >focus.out 2>&1
# (3.00: 180 steps of play; the close's frame takes its step, which it skipped before:
# 2.98, 179 steps)
check "focus loss pauses 2 s of 5 (time_s 3.00)" grep -q 'time_s=3.00 ' focus.out
printf '10 press ESCAPE\n20 focus_lost\n40 focus_gained\n300 quit\n' >pause.script
"$GAME" --headless --level 1 --script pause.script >pause.out 2>&1
check "player pause survives focus regained (time_s 0.17)" grep -q 'time_s=0.17 ' pause.out
# The player hears the focus go and come back (10 frames in: the run's clock; the loss is
# the player's doing, so it is said at once, and cut by the return).
"$GAME" --headless --level 1 --script focus.script --speech-log focus.log >/dev/null 2>&1
check "focus loss is said" has_line focus.log "0.17	Paused: the window lost focus.	cut 2.00/2.02"
check "focus regained is said" has_line focus.log "2.17	Resumed.	heard"
"$GAME" --headless --level 1 --script pause.script --lang de --speech-log pause.log >/dev/null 2>&1
for line in "0.33	Pausiert: das Fenster hat den Fokus verloren.	cut 0.33/2.69" \
    "0.67	Das Fenster hat wieder den Fokus. Weiter pausiert.	heard"; do
    check "German focus: $line" has_line pause.log "$line"
done
check "German: no Fortgesetzt while the player pause stays" sh -c "! grep -q 'Fortgesetzt' pause.log"

# 8. The keys in a level: where am I, facing (compass and clock), status, F1, key help, history.
printf '10 press W\n20 press C\n30 press T\n40 press F1\n50 press K\n60 press H\n70 press H\n100 quit\n' >keys.script
"$GAME" --headless --level 1 --script keys.script --speech-log keys.log >/dev/null 2>&1
for line in "0.17	Level 1: the garden. The bell is 2 meters ahead, 1 to the right. 0 of 3 found. Time 0.2 seconds, score 0.	cut 0.17/8.66" \
    "0.33	Facing east. The bell is at 1 o'clock.	cut 0.17/2.25" "0.50	Time 0.5 seconds, score 0, 3 lives.	cut 0.17/3.62" \
    "0.67	Time 0.5 seconds, score 0, 3 lives.	cut 0.17/3.62" "1.00	Time 0.5 seconds, score 0, 3 lives.	cut 0.17/3.62" \
    "1.17	Facing east. The bell is at 1 o'clock.	cut 0.50/2.25"; do
    check "keys: $line" has_line keys.log "$line"
done
printf '10 press S\n100 down UP\n300 press S\n400 quit\n' >car.script
"$GAME" --headless --level 3 --script car.script --lang de --speech-log car.log >/dev/null 2>&1
check "car: speed, gear and fuel in German" has_line car.log "5.00	26 Kilometer pro Stunde, Gang 3, 1,5 Liter im Tank.	cut 1.67/4.84"

# 10. Cache loads across restart (nothing read again), level select to level 2 (the start
# menu's music read once, as the session keeps it from the first menu on; level 2's music
# read, level 1's trimmed), and back to level 1 (its music read again; the menu's not):
# 22 22 24 25.
printf '10 press ESCAPE\n20 press DOWN\n25 press ENTER\n40 press ESCAPE\n50 press DOWN\n55 press DOWN\n60 press ENTER\n70 press DOWN\n75 press ENTER\n90 press ESCAPE\n100 press DOWN\n105 press DOWN\n110 press ENTER\n120 press ENTER\n200 quit\n' >cache.script
"$GAME" --headless --level 1 --script cache.script --speech-log cache.log >cache.out 2>&1
check "cache loads 22 22 24 25 across restart and level select" grep -qx 'loads: 22 22 24 25' cache.out
check "level select reaches level 2" grep -q '^1.25	Level 2: the cellar. Follow the bell.' cache.log

# 11. Level select from the pause menu: the game closes, the start menu opens with its
# level list on top; Escape goes back to the start menu (focused on Choose a level).
printf '10 press ESCAPE\n20 press DOWN\n25 press DOWN\n30 press ENTER\n50 press DOWN\n60 press ESCAPE\n80 press DOWN\n200 quit\n' >ls.script
"$GAME" --headless --level 1 --script ls.script --speech-log ls.log >/dev/null 2>&1
for line in "0.42	Choose a level, button, 3 of 5	cut 0.10/2.26" "0.52	Choose a level, menu	cut 0.32/1.34" \
    "0.83	Level 1: the garden, button, 1 of 3	cut 0.00/2.81" "0.83	Level 2: the cellar, button, 2 of 3	cut 0.18/2.69" \
    "1.02	Main menu, menu	cut 0.32/1.25" "1.33	Choose a level, submenu, 2 of 5	cut 0.00/2.45" \
    "1.33	Settings, submenu, 3 of 5	cut 2.00/2.29"; do
    check "level select: $line" has_line ls.log "$line"
done
"$GAME" --headless --level 1 --script ls.script --lang de --speech-log lsde.log >/dev/null 2>&1
for line in "0.42	Level wählen, Schalter, 3 von 5	cut 0.10/2.44" "0.52	Level wählen, Menü	cut 0.32/1.35" \
    "0.83	Level 1: der Garten, Schalter, 1 von 3	cut 0.00/3.14" "0.83	Level 2: der Keller, Schalter, 2 von 3	cut 0.18/3.18" \
    "1.02	Hauptmenü, Menü	cut 0.32/1.29" "1.33	Level wählen, Untermenü, 2 von 5	cut 0.00/2.73" \
    "1.33	Einstellungen, Untermenü, 3 von 5	cut 2.00/2.52"; do
    check "German level select: $line" has_line lsde.log "$line"
done

# 12. The window mode under SDL's dummy video driver and its disk audio driver (which
# writes what the sound card would play: 32-bit float stereo at 48 kHz): 3 s of frames
# with two key presses; it speaks its first menu and its sound is not silent (RMS above
# -40 dBFS over the whole file, at least 2 s of it).
# Speech goes to speech-dispatcher if it runs (libspeechd's leak on a failed connection is
# suppressed as in the speech tests; ASan needs the slow unwinder to see its frame).
printf '20 press DOWN\n40 press DOWN\n' >window.script
SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=disk SDL_DISKAUDIOFILE="$DIR/disk.raw" \
    LSAN_OPTIONS="suppressions=$SRC/../../tests/speech/lsan.supp" \
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0" \
    "$GAME" --window --save window.save --seconds 3 --script window.script \
    --speech-log window.log >window.out 2>window.err
check "window run exits 0" test $? -eq 0
cut -f2 window.log >window.txt
for line in "Main menu, menu" "Play, button, 1 of 5" "Choose a level, submenu, 2 of 5" \
    "Settings, submenu, 3 of 5"; do
    check "window: $line" has_line window.txt "$line"
done
od -An -v -f -w8 disk.raw | awk '{ s += $1 * $1 + $2 * $2; n += 2
    if ($1 > p) p = $1; if (-$1 > p) p = -$1; if ($2 > p) p = $2; if (-$2 > p) p = -$2 }
    END { rms = n ? sqrt(s / n) : 0; printf "rms=%.4f peak=%.4f seconds=%.2f\n", rms, p, n / 96000 }' >disk.level
cat disk.level
check "window: the disk driver got at least 2 s" awk '{ split($3, a, "="); exit !(a[2] >= 2) }' disk.level
check "window: not silent (RMS above -40 dBFS)" awk '{ split($1, a, "="); exit !(a[2] > 0.01) }' disk.level

# 12b. A close beats a route: "Play" chosen (Enter) in the same frame as the window's close
# (the script's quit) ends the game without loading level 1; before the scene heard the
# close first, level 1 loaded and spoke its intro before quitting.
printf '30 press RETURN\n30 quit\n' >closeroute.script
SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy \
    LSAN_OPTIONS="suppressions=$SRC/../../tests/speech/lsan.supp" \
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0" \
    "$GAME" --window --save closeroute.save --script closeroute.script \
    --speech-log closeroute.log >closeroute.out 2>closeroute.err
check "close with a route: exits 0" test $? -eq 0
check "close with a route: the menu was heard" grep -q "Play, button, 1 of 5" closeroute.log
check "close with a route: level 1 never loads" sh -c '! grep -q "Level 1" closeroute.log'

# 13. The music ducks under speech (rule "speech", gain_db -12) and under a hard crash
# (rule "crash", gain_db -20), and comes back. The sound volume is set to 0 in the
# settings (saved), so the WAV holds the music alone; a ducked stretch is compared with
# the same stretch of the loop one loop later (the same samples: only the gain differs).
# Level 1's music loops every 4.8 s, level 3's every 4.0 s; the level's first sentence
# ducks it for 0.06 s a character (4.4 s), then the rule's hold and release (0.7 s).
if [ -n "$LEVEL" ]; then
    { printf '5 press DOWN\n10 press DOWN\n15 press ENTER\n30 press DOWN\n35 press DOWN\n'
      for i in 0 1 2 3 4 5 6 7 8 9; do echo "$((40 + i * 5)) press LEFT"; done
      printf '100 press ESCAPE\n110 quit\n'; } >mute.script
    "$GAME" --headless --script mute.script --save mute.save --speech-log mute.log >/dev/null 2>&1
    check "sound volume 0 set" has_line mute.log "1.42	0 percent	cut 0.27/0.88"
    near() { # near <what> <expected dB> <music_level args...>
        what=$1 want=$2
        shift 2
        got=$("$LEVEL" "$@") || { echo "FAIL: $what (music_level failed)"; fail=1; return; }
        check "$what: $got (want $want +-0.5 dB)" \
            awk -v w="$want" -v g="${got#db=}" 'BEGIN { d = (g + 0) - w; exit !(d <= 0.5 && d >= -0.5) }'
    }
    "$GAME" --headless --level 1 --save mute.save --seconds 14 --wav duck.wav >/dev/null 2>&1
    near "music under speech, 1.0-1.5 s" -12 duck.wav 1.0 5.8 0.5
    near "music under speech, 2.5-3.0 s" -12 duck.wav 2.5 7.3 0.5
    near "music back after speech, 5.5-6.0 s" 0 duck.wav 5.5 10.3 0.5
    # Level 3, gas from 11.7 s (after the first sentence): the car hits the east wall once
    # (score -20); the crash is found as the first quarter second 10 dB below the loop after.
    printf '700 down UP\n' >crash.script
    "$GAME" --headless --level 3 --save mute.save --seconds 26 --script crash.script \
        --wav crash.wav >crash.out 2>&1
    check "one hard crash (score -20)" grep -q '^summary: level=3 finished=no .* score=-20 ' crash.out
    crash=
    for t in 12.0 12.25 12.5 12.75 13.0 13.25 13.5 13.75 14.0 14.25 14.5 14.75 15.0 15.25 \
        15.5 15.75 16.0 16.25 16.5 16.75 17.0 17.25 17.5 17.75 18.0 18.25 18.5 18.75 19.0; do
        db=$("$LEVEL" crash.wav "$t" "$(awk -v t="$t" 'BEGIN { print t + 4 }')" 0.25) || break
        if awk -v g="${db#db=}" 'BEGIN { exit !(g + 0 < -10) }'; then crash=$t; break; fi
    done
    check "the crash ducks the music (found at ${crash:-none} s)" test -n "$crash"
    if [ -n "$crash" ]; then
        a=$(awk -v t="$crash" 'BEGIN { print t + 0.25 }')
        near "music under the crash, +0.25-0.75 s" -20 crash.wav "$a" "$(awk -v t="$a" 'BEGIN { print t + 4 }')" 0.5
        a=$(awk -v t="$crash" 'BEGIN { print t + 2.75 }')
        near "music back after the crash, +2.75-3.25 s" 0 crash.wav "$a" "$(awk -v t="$a" 'BEGIN { print t + 4 }')" 0.5
    fi
fi

# 9. The bot hears only: its code includes nothing of the game's (only its header and keys).
check "bot sources exist" test -f "$SRC/bot.c" -a -f "$SRC/bot.h"
check "bot.c includes only bot.h and the C library" \
    sh -c "! grep -E '^#include' '$SRC/bot.c' | grep -vE '\"bot.h\"|<(math|stdlib|string|stdio)\.h>'"
check "bot.h includes only earshot/input.h and the C library" \
    sh -c "! grep -E '^#include' '$SRC/bot.h' | grep -vE 'earshot/input.h|<std(bool|def|int|io)\.h>'"
exit $fail
