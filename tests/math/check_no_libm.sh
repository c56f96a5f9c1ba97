#!/bin/sh
# Code whose bits must be the same natively and in the web build calls no libm function
# whose last bits differ between C libraries (glibc natively, musl in the web build): its
# objects may name sqrt, floor, ceil, fabs, llround, fma, fmod and remainder (exact, or
# correctly rounded, everywhere: C11 F.10.7 makes fmod and remainder exact) but not sin,
# cos, tan, acos, exp, log, pow and the like, which go through earshot/portable_math.h
# instead (docs/web.md, "Bit for bit").
#
# Usage: check_no_libm.sh <archive>[:<member>]...  Each argument is a static library (all
# its objects) or one object in it (libearshot_physics.a:world.c.o).
if ! command -v nm >/dev/null 2>&1; then
    echo "check_no_libm: nm (binutils) is needed" >&2
    exit 1
fi
if [ $# -eq 0 ]; then
    echo "check_no_libm: name at least one archive" >&2
    exit 1
fi
status=0
for arg in "$@"; do
    lib=${arg%%:*}
    member=
    [ "$lib" != "$arg" ] && member=${arg#*:}
    if [ ! -f "$lib" ]; then
        echo "check_no_libm: no archive at $lib" >&2
        exit 1
    fi
    # nm -A prints "<archive>:<member>: U <symbol>" (or "<archive>:<member>:<space>...").
    undefined=$(nm -A -u "$lib") || exit 1
    if [ -n "$member" ]; then
        undefined=$(printf '%s\n' "$undefined" | grep -F "$lib:$member:")
        if [ -z "$undefined" ]; then
            echo "check_no_libm: no object $member (or it names nothing) in $lib" >&2
            exit 1
        fi
    fi
    bad=$(printf '%s\n' "$undefined" | awk '{ s = $NF; sub(/^__/, "", s); sub(/_finite$/, "", s);
  if (s ~ /^(sin|cos|tan|asin|acos|atan|atan2|sinh|cosh|tanh|asinh|acosh|atanh|sincos|exp|exp2|exp10|pow10|expm1|log|log2|log10|log1p|logb|pow|cbrt|hypot|erf|erfc|lgamma|tgamma)[fl]?$/) print $1, $NF }')
    if [ -n "$bad" ]; then
        echo "check_no_libm: $arg calls libm functions whose results differ between C" >&2
        echo "libraries (use earshot/portable_math.h instead):" >&2
        echo "$bad" >&2
        status=1
        continue
    fi
    n=$(printf '%s\n' "$undefined" | grep -c .)
    echo "check_no_libm: $arg names none of libm's inexact functions ($n undefined symbols checked)"
done
exit $status
