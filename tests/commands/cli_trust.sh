#!/usr/bin/env bash
# The command tool as a process, attacked the way a user, a shell script or an MCP client
# would: files outside the allowed folders, planted symbolic links at WAV targets, a full
# disk and a closed pipe on stdout, --help and --version, error wording, scene warnings.
#
#   cli_trust.sh <scenario> <earshot> [other programs...]
#
# Each scenario works in its own temporary folder and exits non-zero with a message on
# the first thing that is wrong.
set -u
scenario=$1
earshot=$(realpath "$2")
shift 2
programs=()
for p in "$@"; do programs+=("$(realpath "$p")"); done
set -- "${programs[@]}"
work=$(mktemp -d /tmp/earshot-cli-XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1

fail() {
    echo "FAIL ($scenario): $*" >&2
    exit 1
}

# run <stdin-file> <args...>: runs earshot, leaving $rc, out and err files.
run() {
    local input=$1
    shift
    "$earshot" "$@" <"$input" >out 2>err
    rc=$?
}

expect_rc() { [ "$rc" -eq "$1" ] || fail "exit status $rc, expected $1 (stderr: $(cat err))"; }
expect_in() { grep -qF -- "$2" "$1" || fail "$1 lacks '$2': $(head -c 600 "$1")"; }
expect_not_in() { ! grep -qF -- "$2" "$1" || fail "$1 has '$2': $(head -c 600 "$1")"; }

# A one-tenth-second WAV made by the tool itself (serve: not confined).
make_wav() {
    echo "{\"command\": \"audio.render_offline\", \"params\": {\"seconds\": 0.1, \"path\": \"$1\"}}" |
        "$earshot" serve >/dev/null 2>&1
}

case $scenario in
help_version)
    : >empty
    for program in "$earshot" "$@"; do
        "$program" --help >out 2>err </dev/null
        rc=$?
        expect_rc 0
        expect_in out "usage:"
        [ ! -s err ] || fail "$program --help wrote to stderr: $(cat err)"
        "$program" --version >out 2>err </dev/null
        rc=$?
        expect_rc 0
        grep -qE '^[a-z_]+( \(Earshot\))? [0-9]+\.[0-9]+\.[0-9]+$' out ||
            fail "$program --version printed '$(cat out)'"
        [ ! -s err ] || fail "$program --version wrote to stderr"
    done
    for verb in call serve mcp render commands; do
        run empty "$verb" --help
        expect_rc 0
        expect_in out "usage: earshot call"
    done
    run empty help audio.play
    expect_rc 0
    expect_in out '"examples"'
    expect_in out "earshot call audio.play '{\"sound\":\"horn\""
    expect_in out '{"command": "audio.play", "params": '
    expect_in out 'sound          string'
    run empty help audio.stop
    expect_in out 'voice          integer  (required)'
    run empty help audio.ply
    expect_rc 1
    expect_in err 'unknown command "audio.ply"; the nearest is "audio.play"'
    run empty bogus
    expect_rc 2
    expect_in err "usage: earshot"
    [ ! -s out ] || fail "bad usage wrote to stdout"
    ;;

dev_full)
    # Output that cannot be written is an error said on stderr, never a silent success.
    echo '{"command": "audio.status"}' >status.jsonl
    echo '{"jsonrpc": "2.0", "id": 1, "method": "ping"}' >ping.jsonl
    echo '{"commands": [], "render": {"seconds": 0.1}}' >s.scene.json
    for args in "call audio.status" "serve" "mcp" "render s.scene.json" "commands" \
        "help audio.play" "--version"; do
        input=/dev/null
        [ "$args" = serve ] && input=status.jsonl
        [ "$args" = mcp ] && input=ping.jsonl
        # shellcheck disable=SC2086
        "$earshot" $args <"$input" >/dev/full 2>err
        rc=$?
        [ "$rc" -eq 1 ] || fail "'earshot $args' >/dev/full: exit status $rc, expected 1"
        expect_in err "earshot: cannot write the output: No space left on device"
    done
    ;;

closed_pipe)
    # A pipe whose reader is gone before the answer is written, deterministically: the
    # shell holds the FIFO's reading end (fd 4) while a wrapper opens the writing end as
    # its stdout, then closes it; only then does the wrapper (blocked in `read`) get its
    # go-ahead line and exec earshot, whose first write meets no reader.
    echo '{"commands": [], "render": {"seconds": 0.1}}' >s.scene.json
    for args in serve mcp "call audio.status" "render s.scene.json" "help audio.play"; do
        rm -f in outp
        mkfifo in outp
        exec 4<>outp
        # shellcheck disable=SC2086,SC2016
        sh -c 'read -r go; exec "$0" "$@"' "$earshot" $args >outp <in 2>err 4<&- &
        pid=$!
        exec 5>in
        exec 4<&-
        echo go >&5
        case $args in
        serve) echo '{"command": "audio.status"}' >&5 ;;
        mcp) echo '{"jsonrpc": "2.0", "id": 1, "method": "ping"}' >&5 ;;
        esac
        exec 5>&-
        wait "$pid"
        rc=$?
        [ "$rc" -eq 1 ] || fail "'earshot $args' into a closed pipe: exit status $rc, expected 1"
        expect_in err "earshot: cannot write the output: Broken pipe"
    done
    ;;

mcp_symlink_escape)
    mkdir -p outside game/assets/sounds game/assets/music
    cd game || exit 1
    make_wav ../outside/secret.wav || fail "cannot make a WAV"
    cp ../outside/secret.wav assets/sounds/inside.wav
    ln -s ../../../outside/secret.wav assets/sounds/leak.wav
    ln -s ../../../outside/secret.wav assets/music/tune.wav
    ln -s ../outside esc
    mkdir -p loaded/sounds
    echo '{"clips": {"c": "../../../outside/secret.wav"}}' >loaded/audio.json
    call() {
        echo "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/call\", \"params\": {\"name\": \"$1\", \"arguments\": $2}}"
    }
    {
        call audio_play '{"sound": "leak"}'
        call audio_play '{"sound": "lean"}'
        call audio_music_play '{"sound": "tune"}'
        call audio_music_play '{"sound": "tuna"}'
        call audio_clip_define '{"name": "x", "path": "esc/secret.wav"}'
        call audio_clip_define '{"name": "x", "path": "esc/secreT.wav"}'
        call audio_clip_define '{"name": "x", "path": "/etc/passwd"}'
        call audio_load '{"path": "loaded"}'
        call audio_render_offline '{"seconds": 0.01, "path": "esc/x.wav"}'
        call audio_render_offline '{"seconds": 0.01, "path": "esd/x.wav"}'
        call audio_play '{"sound": "inside"}'
    } >requests.jsonl
    run requests.jsonl mcp
    expect_rc 0
    mapfile -t replies <out
    [ "${#replies[@]}" -eq 11 ] || fail "expected 11 replies, got ${#replies[@]}"
    # An escape and a missing file read alike once the names are swapped.
    same() {
        local a=${replies[$1]} b=${replies[$2]}
        [ "${a//$3/$4}" = "$b" ] || fail "escape and missing differ: $a vs $b"
    }
    same 0 1 leak lean
    same 2 3 tune tuna
    same 4 5 secret.wav secreT.wav
    same 8 9 esc esd
    for i in 0 2 4 6 8; do
        case ${replies[$i]} in *E_NOT_FOUND*) ;; *) fail "reply $i: ${replies[$i]}" ;; esac
    done
    case ${replies[7]} in *"clips.c: no file"*) ;; *) fail "audio.json clip: ${replies[7]}" ;; esac
    case ${replies[10]} in *'"isError":false'*) ;; *) fail "inside: ${replies[10]}" ;; esac
    [ ! -e ../outside/x.wav ] || fail "a WAV was written outside"
    # --allow-root admits the folder: the same requests now reach it.
    run requests.jsonl mcp --allow-root ../outside
    mapfile -t replies <out
    for i in 0 2 4 8; do
        case ${replies[$i]} in *'"isError":false'*) ;; *) fail "allowed $i: ${replies[$i]}" ;; esac
    done
    [ -f ../outside/x.wav ] || fail "--allow-root: no WAV written"
    run requests.jsonl mcp --allow-root ../no-such-folder
    expect_rc 2
    expect_in err "--allow-root ../no-such-folder: no such folder"
    ;;

wav_symlink)
    echo "keep me" >precious.txt
    ln -s precious.txt link.wav
    echo "not a wav" >notes.wav
    make_wav ours.wav || fail "cannot make a WAV"
    render() {
        echo "{\"command\": \"audio.render_offline\", \"params\": {\"seconds\": 0.05, \"path\": \"$1\"$2}}"
    }
    mkfifo fifo.wav
    {
        render link.wav ""
        render notes.wav ""
        render ours.wav ""
        render link.wav ', "overwrite": true'
        render fifo.wav ', "overwrite": true'
    } >requests.jsonl
    # A FIFO is refused without being opened: waiting on it would hang past the timeout.
    timeout 20 "$earshot" serve <requests.jsonl >out 2>err
    rc=$?
    expect_rc 0
    mapfile -t replies <out
    case ${replies[4]} in *E_EXISTS*"is a FIFO; it is never replaced"*) ;; *) fail "FIFO: ${replies[4]}" ;; esac
    [ -p fifo.wav ] || fail "the FIFO was replaced"
    case ${replies[0]} in *E_EXISTS*"is a symbolic link, which is not followed"*) ;;
    *) fail "planted link: ${replies[0]}" ;; esac
    case ${replies[1]} in *E_EXISTS*"not a WAV that Earshot wrote"*) ;;
    *) fail "foreign file: ${replies[1]}" ;; esac
    case ${replies[2]} in *'"ok":true'*) ;; *) fail "own WAV: ${replies[2]}" ;; esac
    case ${replies[3]} in *'"ok":true'*) ;; *) fail "overwrite: ${replies[3]}" ;; esac
    [ "$(cat precious.txt)" = "keep me" ] || fail "the link's target was written"
    [ "$(cat notes.wav)" = "not a wav" ] || fail "a foreign file was replaced"
    [ -f link.wav ] && [ ! -L link.wav ] || fail "overwrite did not replace the link itself"
    ls ./*.tmp-* >/dev/null 2>&1 && fail "a temporary file was left"
    # render -o: the same rule, and --overwrite.
    ln -s precious.txt o.wav
    echo '{"commands": [], "render": {"seconds": 0.05}}' >s.scene.json
    run /dev/null render s.scene.json -o o.wav
    expect_rc 1
    expect_in err "is a symbolic link, which is not followed"
    [ "$(cat precious.txt)" = "keep me" ] || fail "render -o wrote through the link"
    run /dev/null render s.scene.json -o o.wav --overwrite
    expect_rc 0
    [ ! -L o.wav ] && [ "$(cat precious.txt)" = "keep me" ] || fail "--overwrite"
    ;;

scene_confined)
    mkdir -p outside scenes
    make_wav outside/secret.wav || fail "cannot make a WAV"
    cat >scenes/s.scene.json <<'EOF'
{"commands": [
  {"command": "audio.clip.define", "params": {"name": "x", "path": "../outside/secret.wav"}},
  {"command": "audio.play", "as": "a", "params": {"sound": "x"}},
  {"command": "audio.play", "as": "a", "params": {"sound": "synth:sine:440:1"}},
  {"command": "audio.stop", "at": 7, "params": {"voice": "a"}}],
 "motions": [{"voice": "ghost", "from": [0, 0, 0], "velocity": [1, 0, 0]}],
 "render": {"seconds": 0.2}}
EOF
    run /dev/null render scenes/s.scene.json
    expect_rc 1
    expect_in err "commands[0] (audio.clip.define): E_NOT_FOUND: params.path: no such file: ../outside/secret.wav"
    # Paths are relative to the scene's folder: --allow-root and --unconfined admit them.
    run /dev/null render scenes/s.scene.json --allow-root outside
    expect_rc 0
    run /dev/null render scenes/s.scene.json --unconfined
    expect_rc 0
    expect_in err 'warning: commands[2]: "as": "a" was already given by commands[1]'
    expect_in err "warning: commands[3]: at 7 s is past the end of the render (0.2 s); it never runs"
    expect_in err 'warning: motions[0]: no command plays a voice "as": "ghost"'
    ;;

error_wording)
    run /dev/null render missing.scene.json
    expect_rc 1
    expect_in err "missing.scene.json: no such file"
    expect_not_in err "line -1"
    run /dev/null render .
    expect_rc 1
    expect_in err "is a folder"
    echo "just words" >text.wav
    head -c 4096 /dev/zero | tr '\0' '\377' >noise.wav
    run /dev/null call audio.clip.define '{"name": "a", "path": "nothing.wav"}'
    expect_in err "params.path: nothing.wav: no such file"
    run /dev/null call audio.clip.define '{"name": "a", "path": "text.wav"}'
    expect_in err "text.wav: is a text file, not a sound file"
    run /dev/null call audio.clip.define '{"name": "a", "path": "noise.wav"}'
    expect_in err "noise.wav: not a sound file libsndfile can read"
    run /dev/null call audio.play '{"sound": "synth:sine:loud"}'
    expect_in err '"synth:sine:loud" is not a valid synth name (expected synth:<waveform>:<hz>'
    run /dev/null call audio.load '{"path": "text.wav"}'
    expect_in err "text.wav is a file, not an assets folder or its audio.json"
    # serve: an error names the request's own line.
    printf '%s\n' '{"command": "audio.status"}' '' '{bad' '{"command": "audio.play", "params": {"sound": "x"}}' >lines.jsonl
    run lines.jsonl serve
    mapfile -t replies <out
    case ${replies[1]} in *'"where":"line 3, column 4","line":3,'*) ;; *) fail "bad JSON: ${replies[1]}" ;; esac
    case ${replies[2]} in *'"line":4}'*) ;; *) fail "line 4: ${replies[2]}" ;; esac
    ;;

file_kinds)
    # The issue's repros for the tool's files: a FIFO as the scene is refused at once (it
    # waited for ever), a sparse 20 GB scene by its size, and an -o or --plot that is a
    # device or a FIFO is "never replaced" with no word of --overwrite.
    mkfifo fifo.scene.json
    # A wait on the FIFO would end by the timeout (exit 124), not with status 1.
    timeout 20 "$earshot" render fifo.scene.json </dev/null >out 2>err
    rc=$?
    expect_rc 1
    expect_in err "fifo.scene.json: is a FIFO, not a file"
    # Refused by its size, before a byte is read: its peak memory is the process's own (a
    # read of the 20 GB would end by the budget or the timeout, with other words).
    truncate -s 20G huge.scene.json
    timeout 20 /usr/bin/time -f %M -o peak.kb "$earshot" render huge.scene.json </dev/null >out 2>err
    rc=$?
    expect_rc 1
    expect_in err "huge.scene.json: is 21474836480 bytes, over the 16 MiB limit"
    [ "$(tail -1 peak.kb)" -lt 131072 ] || fail "the 20 GB scene peaked at $(tail -1 peak.kb) KiB"
    echo '{"commands": [], "render": {"seconds": 0.05}}' >s.scene.json
    run /dev/null render s.scene.json -o /dev/null --overwrite
    expect_rc 1
    expect_in err "/dev/null: is a character device; it is never replaced"
    expect_not_in err "overwrite"
    run /dev/null render s.scene.json -o fifo.scene.json
    expect_rc 1
    expect_in err "is a FIFO; it is never replaced"
    expect_not_in err "overwrite"
    echo "my picture" >mine.svg
    run /dev/null render s.scene.json --plot mine.svg
    expect_rc 1
    expect_in err "mine.svg: exists and is not a plot Earshot drew; it is kept (use --overwrite)"
    [ "$(cat mine.svg)" = "my picture" ] || fail "--plot replaced a foreign file"
    run /dev/null render s.scene.json --plot own.svg
    expect_rc 0
    run /dev/null render s.scene.json --plot own.svg
    expect_rc 0
    # valid JSON that is no object is told what it is
    run /dev/null call audio.status '[1]'
    expect_rc 1
    expect_in err "params: expected a JSON object, got an array"
    echo '42' >num.scene.json
    run /dev/null render num.scene.json
    expect_rc 1
    expect_in err "expected a JSON object (a scene or a world), got a number"
    ;;

beacon_numbers)
    beacon=$1
    for frames in 0 -5 12x "" 1e3 99999999999999999999; do
        timeout 10 "$beacon" --headless "$frames" >out 2>err </dev/null
        rc=$?
        [ "$rc" -eq 2 ] || fail "beacon --headless '$frames': exit status $rc, expected 2"
        expect_in err "expected a number of frames from 1 to 100000000"
    done
    timeout 10 "$beacon" --headless 10 --script missing.script >out 2>err </dev/null
    rc=$?
    expect_rc 2
    expect_in err "beacon: script 'missing.script': no such file"
    ;;

*)
    fail "no scenario $scenario"
    ;;
esac
echo "ok $scenario"
