# Sourced by the game's shell tests (game.sh, headphones.sh): a scratch folder to work in,
# removed at exit (kept when EARSHOT_KEEP_TEST_DIR is set), and the checks they share.
DIR=$(mktemp -d)
[ -n "${EARSHOT_KEEP_TEST_DIR:-}" ] && echo "test folder kept: $DIR" || trap 'rm -rf "$DIR"' EXIT
cd "$DIR" || exit 1
fail=0
check() { # check <what> <command...>
    what=$1
    shift
    if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; fail=1; fi
}
has_line() { grep -qxF -- "$2" "$1"; }
# said <log> "<start s>\t<text>": a line began then, whatever its fate (heard or cut).
said() { awk -F '\t' -v want="$2" '($1 "\t" $2) == want { f = 1 } END { exit !f }' "$1"; }
# heard <log> "<start s>\t<text>": a line began then and was said whole (its fate: heard).
heard() { grep -qxF -- "$2	heard" "$1"; }
# said_text / heard_text <log> "<text>": the same, at any time.
said_text() { awk -F '\t' -v want="$2" '$2 == want { f = 1 } END { exit !f }' "$1"; }
heard_text() { awk -F '\t' -v want="$2" '$2 == want && $3 == "heard" { f = 1 } END { exit !f }' "$1"; }
