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
apt_opts=(-o Dir::Etc::SourceList=/dev/null -o "Dir::Etc::SourceParts=$apt_dir"
          -o "Dir::State::Lists=$apt_dir/lists" -o Dir::Cache=$apt_dir/cache
          -o APT::Sandbox::User=root -qq)
index_ready=0
apt_index() {
  [[ $index_ready -eq 1 ]] && return
  mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial"
  printf 'Types: deb-src\nURIs: %s\nSuites: %s %s-updates\nComponents: main\nSigned-By: %s\n' \
    "$mirror" "$suite" "$suite" /usr/share/keyrings/debian-archive-keyring.gpg \
    >"$apt_dir/debian-src.sources"
  say "reading Debian's source index ($mirror $suite)"
  apt-get "${apt_opts[@]}" update >&2 || die "apt-get update of the source index failed"
  index_ready=1
}

# (Call apt_index before $(debian_version ...): the index read in a subshell is not kept.)
debian_version() {
  apt_index
  apt-cache "${apt_opts[@]}" showsrc "$1" | awk '/^Version:/ {print $2; exit}'
}

fetch() {
  local pkg=$1 version dir
  apt_index
  version=$(debian_version "$pkg")
  [[ -n $version ]] || die "no source package $pkg in $suite"
  dir=$src/$pkg-${version#*:}
  if [[ ! -d $dir ]]; then
    mkdir -p "$src"
    rm -rf "$dir.tmp"
    (cd "$src" && apt-get "${apt_opts[@]}" source --download-only "$pkg=$version" >&2) ||
      die "apt-get source $pkg=$version failed (is it in $mirror?)"
    local dsc
    dsc=$(ls "$src/${pkg}_${version#*:}.dsc")
    dpkg-source -q -x "$dsc" "$dir.tmp" >&2 || die "dpkg-source -x $dsc failed"
    mv "$dir.tmp" "$dir"
  fi
  printf '%s\n' "$dir"
}

# fetch_newer PACKAGE SUITE (see the top). The index of SUITE is read by apt-get update, which
# checks its InRelease signature with Debian's keyring, so the SHA-256 it lists is Debian's.
fetch_newer() {
  local pkg=$1 newer=$2 dir version orig sha
  local opts=(-o Dir::Etc::SourceList=/dev/null -o "Dir::Etc::SourceParts=$apt_dir/$newer"
              -o "Dir::State::Lists=$apt_dir/$newer/lists" -o "Dir::Cache=$apt_dir/$newer/cache"
              -o APT::Sandbox::User=root -qq)
  mkdir -p "$apt_dir/$newer/lists/partial" "$apt_dir/$newer/cache/archives/partial"
  printf 'Types: deb-src\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: %s\n' \
    "$mirror" "$newer" /usr/share/keyrings/debian-archive-keyring.gpg \
    >"$apt_dir/$newer/debian-src.sources"
  say "reading Debian's source index ($mirror $newer) for $pkg"
  apt-get "${opts[@]}" update >&2 || die "apt-get update of the $newer source index failed"
  version=$(apt-cache "${opts[@]}" showsrc "$pkg" | awk '/^Version:/ {print $2; exit}')
  [[ -n $version ]] || die "no source package $pkg in $newer"
  dir=$src/$pkg-${version#*:}
  [[ -d $dir ]] && { printf '%s\n' "$dir"; return; }
  mkdir -p "$src"
  rm -rf "$dir.tmp"
  if (cd "$src" && apt-get "${opts[@]}" source --download-only "$pkg=$version" >&2); then
    dpkg-source -q -x "$src/${pkg}_${version#*:}.dsc" "$dir.tmp" >&2 || die "dpkg-source failed"
  else
    # The upstream tarball alone: name and SHA-256 from the signed index.
    read -r sha orig < <(apt-cache "${opts[@]}" showsrc "$pkg" |
      awk '/^Checksums-Sha256:/ {c=1; next} /^[^ ]/ {c=0}
           c && $3 ~ /\.orig\.tar\./ {print $1, $3; exit}')
    [[ -n $orig ]] || die "$pkg $version in $newer lists no upstream tarball"
    local dirpath
    dirpath=$(apt-cache "${opts[@]}" showsrc "$pkg" | awk '/^Directory:/ {print $2; exit}')
    /usr/lib/apt/apt-helper -o APT::Sandbox::User=root -qq download-file "$mirror/$dirpath/$orig" "$src/$orig" \
      "SHA256:$sha" >&2 || die "$orig: not on $mirror or not the file $newer lists"
    say "$pkg $version from $newer: the upstream tarball only (SHA-256 $sha as $newer lists;" \
      "the mirror has not Debian's patches), unpacked without Debian's patches"
    mkdir -p "$dir.tmp" && tar -xf "$src/$orig" -C "$dir.tmp" --strip-components=1 >&2 ||
      die "$orig did not unpack"
  fi
  mv "$dir.tmp" "$dir"
  printf '%s\n' "$dir"
}
