#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/realcpu: a program (lua or bzip2: its source in SRC, its phases in
# prog_PROGRAM.c) and the driver built three ways with one compiler, into
# OUT:
#   OUT/a  no instrumentation
#   OUT/b  instrumented, empty hooks (emptyhooks.c)
#   OUT/c  instrumented, KFT's engine as the hooks (kftglue.c and the
#          kernel's kernel/kft*.c on tests/unit/engine/'s shims, the real
#          TSC), and OUT/c.map, its symbols (nm) for kd -m
# b and c link the same instrumented objects; the hooks' side and tsc.c are
# not instrumented.  GCC instruments with -finstrument-functions, Clang with
# -finstrument-functions-after-inlining.
#
# usage: bench/realcpu/build.sh CC PROGRAM SRC OUT
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cc=${1:?compiler}
prog=${2:?program}
src=${3:?source directory}
out=${4:?output directory}
# The kernel's static_assert() takes one argument (C2x to Clang 14).
case $cc in
*clang*) instr=-finstrument-functions-after-inlining; ccwarn=-Wno-c2x-extensions ;;
*) instr=-finstrument-functions; ccwarn= ;;
esac
here=$repo/bench/realcpu
opt=(-O2 -g -fno-pie)
# The program's own sources and flags, as its Makefile has them (warnings
# off: not ours to fix).
case $prog in
lua)
	progflags=(-std=gnu99 -w -DLUA_COMPAT_5_3 -DLUA_USE_LINUX)
	srcdir=$src/src
	srcs=$(cd "$srcdir" && ls ./*.c | grep -v -e '/lua\.c$' -e '/luac\.c$')
	;;
bzip2)
	progflags=(-w -D_FILE_OFFSET_BITS=64)
	srcdir=$src
	srcs="blocksort.c huffman.c crctable.c randtable.c compress.c decompress.c bzlib.c"
	;;
*) echo "build.sh: no program $prog (lua, bzip2)" >&2; exit 2 ;;
esac
engine_flags=(-std=gnu11 -Wall -Wextra -Werror -Wno-unused-parameter $ccwarn
	-DCONFIG_KFT=1 -DCONFIG_KFT_STACK_DEPTH=96 -DCONFIG_KFT_BOOT_LOG_ENTRIES=1024
	-DCONFIG_KFT_STATIC_RUN=1 -DSHIM_REAL_TSC -DSHIM_REAL_TEXT
	-include "$repo/tests/unit/engine/shim.h" -I"$here/include"
	-I"$repo/tests/unit/engine/include" -I"$repo/scripts/kft/include"
	-I"$repo/include" -I"$repo/kernel" -I"$repo/tests/unit" -I"$here")
engine_src=(kft kft_clock kft_calibrate kft_finish kft_run kft_syms kft_boot kft_config kft_log_text)
mkdir -p "$out/obj-plain" "$out/obj-instr" "$out/obj-hooks"

# The engine's objects depend on its headers too (kft_internal.h's
# struct kft_run, the shims): a stamp newer than every header, touched
# when one changes, that those objects must be newer than.
hdr_stamp=$out/engine-headers.stamp
if [ ! -e "$hdr_stamp" ] || [ -n "$(find "$repo/kernel" "$repo/include" "$repo/tests/unit/engine" \
	"$repo/scripts/kft/include" "$here" -name '*.h' -newer "$hdr_stamp" -print -quit)" ]; then
	touch "$hdr_stamp"
fi

# One object: compile SRC OBJ DEP FLAGS...; make-like, by timestamps (DEP:
# a file it must also be newer than, or -).
compile() {
	local src=$1 obj=$2 dep=$3
	shift 3
	[ "$obj" -nt "$src" ] && { [ "$dep" = - ] || [ "$obj" -nt "$dep" ]; } && return 0
	"$cc" "$@" -c "$src" -o "$obj.tmp" && mv "$obj.tmp" "$obj"
}
export -f compile
export cc

jobs=()
for s in $srcs; do
	o=$(basename "$s" .c).o
	jobs+=("$srcdir/$s|$out/obj-plain/$o|-|${opt[*]} ${progflags[*]}")
	jobs+=("$srcdir/$s|$out/obj-instr/$o|-|${opt[*]} ${progflags[*]} $instr")
done
drv_flags="${opt[*]} -std=gnu11 -Wall -Wextra -Werror -I$srcdir -I$here"
for s in driver prog_$prog; do
	jobs+=("$here/$s.c|$out/obj-plain/$s.o|$hdr_stamp|$drv_flags")
	jobs+=("$here/$s.c|$out/obj-instr/$s.o|$hdr_stamp|$drv_flags $instr")
done
jobs+=("$here/tsc.c|$out/obj-hooks/tsc.o|$hdr_stamp|$drv_flags")
jobs+=("$here/nokft.c|$out/obj-hooks/nokft.o|$hdr_stamp|$drv_flags")
jobs+=("$here/emptyhooks.c|$out/obj-hooks/emptyhooks.o|$hdr_stamp|$drv_flags")
jobs+=("$here/kftglue.c|$out/obj-hooks/kftglue.o|$hdr_stamp|${opt[*]} ${engine_flags[*]}")
for f in "${engine_src[@]}"; do
	# kernel/kft_log_text.c prints u64 with %llu: the shim's u64 is a long.
	extra=; [ "$f" = kft_log_text ] && extra=-Wno-format
	jobs+=("$repo/kernel/$f.c|$out/obj-hooks/$f.o|$hdr_stamp|${opt[*]} ${engine_flags[*]} $extra")
done
jobs+=("$repo/tests/unit/engine/shim.c|$out/obj-hooks/shim.o|$hdr_stamp|${opt[*]} ${engine_flags[*]}")
printf '%s\n' "${jobs[@]}" |
	xargs -P2 -d '\n' -I{} bash -c 'IFS="|" read -r s o d f <<< "$1"; compile "$s" "$o" "$d" $f' _ {}

h=$out/obj-hooks
link=(-no-pie -o)
"$cc" "${link[@]}" "$out/a" "$out"/obj-plain/*.o "$h/tsc.o" "$h/nokft.o" -lm -ldl
"$cc" "${link[@]}" "$out/b" "$out"/obj-instr/*.o "$h/tsc.o" "$h/nokft.o" "$h/emptyhooks.o" -lm -ldl
"$cc" "${link[@]}" "$out/c" "$out"/obj-instr/*.o "$h/tsc.o" "$h/kftglue.o" "$h/shim.o" \
	$(printf "$h/%s.o " "${engine_src[@]}") -lm -ldl
nm -n --defined-only "$out/c" > "$out/c.map"
