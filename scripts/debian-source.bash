# Debian source packages without root and without touching the machine's apt: sourced by
# the scripts that build a library from Debian's own source (build-windows-deps,
# build-web-lua). The source index is a private one under $apt_dir (Dir::Etc::SourceParts
# and Dir::State::Lists point there); EARSHOT_DEBIAN_MIRROR and EARSHOT_DEBIAN_SUITE choose
# the archive (deb.debian.org, bookworm by default). No other download, no prebuilt binary.
#
# Before sourcing, set:
#   apt_dir   the private index's folder (made on first use)
#   src       where source packages are downloaded and unpacked
#   say, die  the caller's message functions (say TEXT; die TEXT exits)
# Then:
#   apt_index              reads the source index once per run
#   debian_version PACKAGE prints the package's version in the index ("" when none)
#   fetch PACKAGE          downloads and unpacks it (Debian's patches applied) into
#                          $src/PACKAGE-VERSION, once; prints the tree's path
#   fetch_newer PACKAGE SUITE
#                          the same from a newer suite of the same archive (its own private
#                          index), for a package whose files this mirror lacks in $suite;
#                          when the mirror has only the upstream tarball there, that tarball,
#                          checked against the SHA-256 the suite's signed index gives, is
#                          unpacked without Debian's patches (said on stderr)
mirror=${EARSHOT_DEBIAN_MIRROR:-http://deb.debian.org/debian}
suite=${EARSHOT_DEBIAN_SUITE:-bookworm}
keyring=/usr/share/keyrings/debian-archive-keyring.gpg

# apt_at DIR TOOL ARGS...: apt-get or apt-cache (TOOL) with the private index in DIR.
apt_at() {
  local dir=$1 tool=$2
  shift 2
  "$tool" -o Dir::Etc::SourceList=/dev/null -o "Dir::Etc::SourceParts=$dir" \
    -o "Dir::State::Lists=$dir/lists" -o "Dir::Cache=$dir/cache" \
    -o APT::Sandbox::User=root -qq "$@"
}

# read_index DIR SUITE...: DIR's deb-src entry for the suites, read (its InRelease checked
# against Debian's keyring by apt-get update).
read_index() {
  local dir=$1
  shift
  mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial" || die "cannot make $dir"
  printf 'Types: deb-src\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: %s\n' \
    "$mirror" "$*" "$keyring" >"$dir/debian-src.sources" || die "cannot write $dir"
  say "reading Debian's source index ($mirror $*)"
  apt_at "$dir" apt-get update >&2 || die "apt-get update of the source index ($*) failed"
}

index_ready=0
apt_index() {
  [[ $index_ready -eq 1 ]] && return
  read_index "$apt_dir" "$suite" "$suite-updates"
  index_ready=1
}

# source_field DIR PACKAGE FIELD: a field of the package's source record in DIR's index.
source_field() {
  apt_at "$1" apt-cache showsrc --only-source "$2" | awk -v f="$3:" '$1 == f {print $2; exit}'
}

# (Call apt_index before $(debian_version ...): the index read in a subshell is not kept.)
debian_version() {
  apt_index
  source_field "$apt_dir" "$1" Version
}

# unpack DIR PACKAGE VERSION: the source package from DIR's index, downloaded into $src and
# unpacked with Debian's patches into $src/PACKAGE-VERSION (once); prints the tree's path.
# Returns 1, having unpacked nothing, when apt-get cannot download it.
unpack() {
  local dir=$1 pkg=$2 version=$3 tree
  tree=$src/$pkg-${version#*:}
  if [[ ! -d $tree ]]; then
    mkdir -p "$src" && rm -rf "$tree.tmp" || die "cannot make $src"
    (cd "$src" && apt_at "$dir" apt-get source --download-only "$pkg=$version" >&2) || return 1
    dpkg-source -q -x "$src/${pkg}_${version#*:}.dsc" "$tree.tmp" >&2 ||
      die "dpkg-source -x ${pkg}_${version#*:}.dsc failed"
    mv "$tree.tmp" "$tree" || die "cannot move $tree.tmp"
  fi
  printf '%s\n' "$tree"
}

fetch() {
  local pkg=$1 version
  apt_index
  version=$(debian_version "$pkg")
  [[ -n $version ]] || die "no source package $pkg in $suite"
  unpack "$apt_dir" "$pkg" "$version" || die "apt-get source $pkg=$version failed (is it in $mirror?)"
}

# fetch_newer PACKAGE SUITE (see the top): SUITE's own private index under $apt_dir/SUITE.
fetch_newer() {
  local pkg=$1 newer=$2 dir=$apt_dir/$2 version tree orig sha pool
  read_index "$dir" "$newer"
  version=$(source_field "$dir" "$pkg" Version)
  [[ -n $version ]] || die "no source package $pkg in $newer"
  unpack "$dir" "$pkg" "$version" && return
  tree=$src/$pkg-${version#*:}
  # The upstream tarball alone: its name and SHA-256 from the signed index.
  read -r sha orig < <(apt_at "$dir" apt-cache showsrc --only-source "$pkg" |
    awk -v v="$version" '$1 == "Version:" {mine = $2 == v} /^[^ ]/ && $1 != "Checksums-Sha256:" {c = 0}
      $1 == "Checksums-Sha256:" {c = mine; next}
      c && $3 ~ /\.orig\.tar\.[a-z0-9]+$/ {print $1, $3; exit}')
  [[ -n $orig ]] || die "$pkg $version in $newer lists no upstream tarball"
  pool=$(source_field "$dir" "$pkg" Directory)
  /usr/lib/apt/apt-helper -o APT::Sandbox::User=root -qq download-file \
    "$mirror/$pool/$orig" "$src/$orig" "SHA256:$sha" >&2 ||
    die "$orig: not on $mirror or not the file $newer lists"
  say "$pkg $version from $newer: the upstream tarball only (SHA-256 $sha as $newer lists;" \
    "the mirror lacks the rest), unpacked without Debian's patches"
  rm -rf "$tree.tmp" && mkdir -p "$tree.tmp" &&
    tar -xf "$src/$orig" -C "$tree.tmp" --strip-components=1 >&2 || die "$orig did not unpack"
  mv "$tree.tmp" "$tree" || die "cannot move $tree.tmp"
  printf '%s\n' "$tree"
}
