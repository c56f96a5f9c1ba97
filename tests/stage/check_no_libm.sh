#!/bin/sh
# The stage's audio path calls no libm function whose last bits differ between C
# libraries (glibc natively, musl in the web build): its objects may name sqrt, floor,
# ceil, fabs, llround, fma, fmod and remainder (exact, or correctly rounded, everywhere:
# C11 F.10.7 makes fmod and remainder exact) but not sin, cos,
# tan, acos, exp, log, pow and the like, which go through portable_math.h instead
# (docs/web.md, "Bit for bit"). Usage: check_no_libm.sh <libearshot_stage.a>
lib="$1"
if ! command -v nm >/dev/null 2>&1; then
    echo "check_no_libm: nm (binutils) is needed" >&2
    exit 1
fi
if [ ! -f "$lib" ]; then
    echo "check_no_libm: no archive at $lib" >&2
    exit 1
fi
bad=$(nm -A -u "$lib" | awk '{ s = $NF; sub(/^__/, "", s); sub(/_finite$/, "", s);
  if (s ~ /^(sin|cos|tan|asin|acos|atan|atan2|sinh|cosh|tanh|asinh|acosh|atanh|sincos|exp|exp2|exp10|pow10|expm1|log|log2|log10|log1p|logb|pow|cbrt|hypot|erf|erfc|lgamma|tgamma)[fl]?$/) print $1, $NF }')
if [ -n "$bad" ]; then
    echo "check_no_libm: the stage calls libm functions whose results differ between C" >&2
    echo "libraries (use src/audio/stage/portable_math.h instead):" >&2
    echo "$bad" >&2
    exit 1
fi
n=$(nm -A -u "$lib" | wc -l)
echo "check_no_libm: $lib names none of libm's inexact functions ($n undefined symbols checked)"
