#!/bin/sh
# The demo game's files (issue 24): what it reads is a regular file of bounded size, what it
# writes goes through core's safe write, and a failed write is said and is exit status 1.
# Every run has a timeout: a FIFO waited on fails the check instead of hanging the test.
# Usage: files.sh <earshot-demo>
set -u
GAME=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
. "$(cd "$(dirname "$0")" && pwd)/common.sh"
T="timeout 60"

# --seconds 0.01 is a limit (it was 0 frames, which meant none: the run never ended).
$T "$GAME" --headless --seconds 0.01 >sec.out 2>&1
check "--seconds 0.01: exits 0 within the timeout" test $? -eq 0
check "--seconds 0.01: one frame, and the close's" grep -q '^summary: .* frames=2 ' sec.out

# A FIFO as --script, --replay or --hrtf is refused at once, by what it is.
mkfifo fifo
$T "$GAME" --headless --script fifo --seconds 1 >fs.out 2>fs.err
check "FIFO --script: exit 2" test $? -eq 2
check "FIFO --script: said" grep -qF "script 'fifo': is a FIFO, not a file" fs.err
$T "$GAME" --replay fifo >fr.out 2>fr.err
check "FIFO --replay: exit 1" test $? -eq 1
check "FIFO --replay: said" grep -qF "fifo: is a FIFO, not a file" fr.err
$T "$GAME" --headless --headphones --hrtf "$DIR/fifo" --seconds 0.5 --speech-log fh.log >fh.out 2>&1
check "FIFO --hrtf: the game goes on" test $? -eq 0
check "FIFO --hrtf: said to the player" grep -qF "cannot load '$DIR/fifo': is a FIFO, not a file" fh.log

# --bot-keys goes through the safe write too (it was a plain fopen): a FIFO with no reader
# is refused at once, a foreign file is kept, and its own script is replaced.
$T "$GAME" --autoplay --seconds 1 --bot-keys fifo >fk.out 2>fk.err
check "FIFO --bot-keys: exit 1" test $? -eq 1
check "FIFO --bot-keys: said" grep -qF -- "--bot-keys fifo: is a FIFO with no reader" fk.err
echo "keep these keys" >foreign.keys
$T "$GAME" --autoplay --seconds 1 --bot-keys foreign.keys >fo.out 2>fo.err
check "a foreign --bot-keys: exit 1" test $? -eq 1
check "a foreign --bot-keys: kept" grep -qF "keep these keys" foreign.keys
printf '12 down UP\n' >own.keys
$T "$GAME" --autoplay --seconds 1 --bot-keys own.keys >ok.out 2>ok.err
check "its own --bot-keys script: replaced, exit 0" test $? -eq 0

# Logs on a full device: the game says so and exits 1 (it exited 0).
$T "$GAME" --headless --seconds 1 --speech-log /dev/full >full.out 2>full.err
check "--speech-log /dev/full: exit 1" test $? -eq 1
check "--speech-log /dev/full: said" grep -qF -- "--speech-log /dev/full: cannot be written (No space left on device)" full.err
# (8 s: the bot writes its first line once it has heard the level's intro whole)
$T "$GAME" --autoplay --seconds 8 --bot-log /dev/full >bfull.out 2>bfull.err
check "--bot-log /dev/full: exit 1" test $? -eq 1
# A device that takes the bytes is written into, never replaced.
$T "$GAME" --headless --seconds 0.5 --speech-log /dev/null >null.out 2>&1
check "--speech-log /dev/null: exit 0" test $? -eq 0
check "/dev/null is still a device" test -c /dev/null

# Planted links and foreign files are kept: the link's target is never written.
echo "keep me" >precious
ln -s precious speech.log
$T "$GAME" --headless --seconds 0.5 --speech-log speech.log >ln.out 2>ln.err
check "a planted --speech-log link: exit 1" test $? -eq 1
check "a planted --speech-log link: said" grep -qF "speech.log: is a symbolic link, which is not followed" ln.err
check "the link's target is untouched" test "$(cat precious)" = "keep me"
echo "my notes" >notes.txt
$T "$GAME" --headless --seconds 0.5 --speech-log notes.txt >nt.out 2>nt.err
check "a foreign --speech-log: exit 1, kept" sh -c "test $? -eq 1 && test \"\$(cat notes.txt)\" = 'my notes'"
$T "$GAME" --headless --seconds 0.5 --record notes.txt >nr.out 2>nr.err
check "a foreign --record: exit 1" test $? -eq 1
check "a foreign --record: kept" test "$(cat notes.txt)" = "my notes"
$T "$GAME" --headless --seconds 0.5 --wav w.wav --plot notes.txt >np.out 2>np.err
check "a foreign --plot: exit 1" test $? -eq 1
check "a foreign --plot: said" grep -qF "notes.txt: exists and is not a plot Earshot drew; it is kept" np.err
check "a foreign --plot: kept" test "$(cat notes.txt)" = "my notes"
# Its own log, recording and plot are replaced on the next run.
$T "$GAME" --headless --seconds 0.5 --speech-log own.log --record own.rep --wav own.wav --plot own.svg >o1.out 2>&1
check "first run: exit 0" test $? -eq 0
$T "$GAME" --headless --seconds 0.5 --speech-log own.log --record own.rep --wav own.wav --plot own.svg >o2.out 2>&1
check "second run replaces its own files: exit 0" test $? -eq 0
check "no temporary file left" sh -c "! ls ./*.tmp-* >/dev/null 2>&1"

# A save that cannot be written (its folder does not exist) is said, "Could not save.",
# and the run exits 1. The script goes to Settings, turns the music up, goes back and
# chooses Exit (whose route writes the save).
cat >save.script <<'S'
5 press DOWN
10 press DOWN
15 press ENTER
30 press DOWN
35 press RIGHT
40 press ESCAPE
50 press DOWN
55 press DOWN
60 press ENTER
230 quit
S
$T "$GAME" --headless --script save.script --save gone/s.save --speech-log save.log >save.out 2>save.err
check "a failed save: exit 1" test $? -eq 1
check "a failed save is said" grep -qF "Could not save." save.log
check "a failed save is logged" grep -qF "no such folder" save.err
$T "$GAME" --headless --script save.script --save gone/s.save --lang de --speech-log save-de.log >/dev/null 2>&1
check "German: a failed save is said" grep -qF "Speichern nicht möglich." save-de.log
exit $fail
