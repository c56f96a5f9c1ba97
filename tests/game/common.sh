# Sourced by the game's shell tests (game.sh, headphones.sh): a scratch folder to work in,
# removed at exit, and the two checks they share.
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
