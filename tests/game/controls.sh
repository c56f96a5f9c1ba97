#!/bin/sh
# Rebinding by ear (tests/game, CTest game_demo_controls): Settings, Controls lists the
# actions with their bindings; choosing one asks for the new key; a key another action
# has is asked about; the choice is saved and back at the next start; "Reset to
# defaults"; a save with an unknown action or key keeps the rest and says so. The test
# hears the exact words (the speech log's lines and fates).
# Usage: controls.sh <earshot-demo>
set -u
GAME=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
. "$(cd "$(dirname "$0")" && pwd)/common.sh"

# steps <first frame> <gap> KEY... : press each key <gap> frames after the last, then quit.
steps() {
    f=$1 gap=$2
    shift 2
    for k in "$@"; do
        echo "$f press $k"
        f=$((f + gap))
    done
    echo "$f quit"
}
# To the Controls screen from the main menu: Settings (the third item), its Controls
# (third from the end).
TO_CONTROLS="DOWN DOWN ENTER END UP UP ENTER"

# 1. Walk forward to Space; then Walk back to Space too: asked, and Yes moves it.
# shellcheck disable=SC2086
steps 60 300 $TO_CONTROLS ENTER SPACE DOWN ENTER SPACE UP ENTER >first.script
"$GAME" --headless --save ctl.save --script first.script --speech-log first.log >first.out 2>&1
check "first run exits 0" test $? -eq 0
check "an action with its bindings" \
    said_text first.log "Walk forward: Up arrow, D-pad up, left stick up, button, 1 of 14"
check "the prompt" \
    heard_text first.log "Press the new key or button for Walk forward, Escape to cancel"
check "the new binding said" \
    heard_text first.log "Walk forward: Space, D-pad up, left stick up, button, 1 of 14"
check "the conflict asked" \
    said_text first.log "Space is already Walk forward. Use it for Walk back instead?, dialog"
check "yes: moved" \
    heard_text first.log "Walk back: Space, D-pad down, left stick down, button, 2 of 14"

# 2. The next start: the bindings are back; Reset to defaults (second from the end).
# shellcheck disable=SC2086
steps 60 300 $TO_CONTROLS DOWN >second.script
"$GAME" --headless --save ctl.save --script second.script --speech-log second.log \
    >second.out 2>&1
check "saved: Walk forward as it was left" \
    said_text second.log "Walk forward: D-pad up, left stick up, button, 1 of 14"
check "saved: Walk back as it was left" \
    heard_text second.log "Walk back: Space, D-pad down, left stick down, button, 2 of 14"
# shellcheck disable=SC2086
steps 60 300 $TO_CONTROLS END UP ENTER HOME >reset.script
"$GAME" --headless --save ctl.save --script reset.script --speech-log reset.log >reset.out 2>&1
check "reset said" heard_text reset.log "Controls reset to the defaults."
check "reset: the defaults back" \
    heard_text reset.log "Walk forward: Up arrow, D-pad up, left stick up, button, 1 of 14"

# 3. Escape at the prompt leaves it as it was.
# shellcheck disable=SC2086
steps 60 300 $TO_CONTROLS ENTER ESCAPE >cancel.script
"$GAME" --headless --save cancel.save --script cancel.script --speech-log cancel.log \
    >cancel.out 2>&1
check "cancel said" said_text cancel.log "Unchanged."

# 4. A save from elsewhere: an action this game does not have, a key no one knows (the
# first key waits until that report is said: a key interrupts speech).
printf 'bindings.on_foot.fly = key:F\nbindings.on_foot.walk_forward = key:W,key:BANANA\n' \
    >odd.save
# shellcheck disable=SC2086
steps 300 300 $TO_CONTROLS >odd.script
"$GAME" --headless --save odd.save --script odd.script --speech-log odd.log >odd.out 2>&1
check "unknown entries said" \
    heard_text odd.log "Some saved controls were not understood; the others are kept."
check "the rest loaded" said_text odd.log "Walk forward: W, button, 1 of 14"
"$GAME" --headless --lang de --save odd.save --script odd.script --speech-log odd-de.log \
    >odd-de.out 2>&1
check "German: unknown entries said" heard_text odd-de.log \
    "Einige gespeicherte Tastenbelegungen waren unbekannt; die übrigen bleiben."
check "German: the rest loaded" said_text odd-de.log "Vorwärts gehen: W, Schalter, 1 von 14"
exit $fail
