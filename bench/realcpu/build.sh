#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/realcpu: Lua and the driver built three ways with one compiler,
# into OUT:
#   OUT/a  no instrumentation
#   OUT/b  instrumented, empty hooks (emptyhooks.c)
#   OUT/c  instrumented, KFT's engine as the hooks (kftglue.c and the
#          kernel's kernel/kft*.c on tests/unit/engine/'s shims, the real
#          TSC), and OUT/c.map, its symbols (nm) for kd -m
# b and c link the same instrumented objects; the hooks' side and tsc.c are
# not instrumented.  GCC instruments with -finstrument-functions, Clang with
# -finstrument-functions-after-inlining.
#
# usage: bench/realcpu/build.sh CC LUA_SRC OUT
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cc=${1:?compiler}
lua=${2:?lua source directory}
out=${3:?output directory}
# The kernel's static_assert() takes one argument (C2x to Clang 14).
case $cc in
*clang*) instr=-finstrument-functions-after-inlining; ccwarn=-Wno-c2x-extensions ;;
*) instr=-finstrument-functions; ccwarn= ;;
esac
here=$repo/bench/realcpu
opt=(-O2 -g -fno-pie)
luaflags=(-std=gnu99 -w -DLUA_COMPAT_5_3 -DLUA_USE_LINUX)
engine_flags=(-std=gnu11 -Wall -Wextra -Werror -Wno-unused-parameter $ccwarn
	-DCONFIG_KFT=1 -DCONFIG_KFT_STACK_DEPTH=96 -DCONFIG_KFT_BOOT_LOG_ENTRIES=1024
	-DCONFIG_KFT_STATIC_RUN=1 -DSHIM_REAL_TSC -DSHIM_REAL_TEXT
	-include "$repo/tests/unit/engine/shim.h" -I"$here/include"
	-I"$repo/tests/unit/engine/include" -I"$repo/scripts/kft/include"
	-I"$repo/include" -I"$repo/kernel" -I"$repo/tests/unit" -I"$here")
engine_src=(kft kft_clock kft_calibrate kft_finish kft_run kft_syms kft_boot kft_config kft_log_text)
mkdir -p "$out/obj-plain" "$out/obj-instr" "$out/obj-hooks"
srcs=$(cd "$lua/src" && ls ./*.c | grep -v -e '/lua\.c$' -e '/luac\.c$')

# One object: compile SRC OBJ FLAGS...; make-like, by timestamps.
compile() {
	local src=$1 obj=$2
	shift 2
	[ "$obj" -nt "$src" ] && return 0
	"$cc" "$@" -c "$src" -o "$obj.tmp" && mv "$obj.tmp" "$obj"
}
export -f compile
export cc

jobs=()
for s in $srcs; do
	o=$(basename "$s" .c).o
	jobs+=("$lua/src/$s|$out/obj-plain/$o|${opt[*]} ${luaflags[*]}")
	jobs+=("$lua/src/$s|$out/obj-instr/$o|${opt[*]} ${luaflags[*]} $instr")
done
drv_flags="${opt[*]} -std=gnu11 -Wall -Wextra -Werror -I$lua/src -I$here"
jobs+=("$here/driver.c|$out/obj-plain/driver.o|$drv_flags")
jobs+=("$here/driver.c|$out/obj-instr/driver.o|$drv_flags $instr")
jobs+=("$here/tsc.c|$out/obj-hooks/tsc.o|$drv_flags")
jobs+=("$here/nokft.c|$out/obj-hooks/nokft.o|$drv_flags")
jobs+=("$here/emptyhooks.c|$out/obj-hooks/emptyhooks.o|$drv_flags")
jobs+=("$here/kftglue.c|$out/obj-hooks/kftglue.o|${opt[*]} ${engine_flags[*]}")
for f in "${engine_src[@]}"; do
	# kernel/kft_log_text.c prints u64 with %llu: the shim's u64 is a long.
	extra=; [ "$f" = kft_log_text ] && extra=-Wno-format
	jobs+=("$repo/kernel/$f.c|$out/obj-hooks/$f.o|${opt[*]} ${engine_flags[*]} $extra")
done
jobs+=("$repo/tests/unit/engine/shim.c|$out/obj-hooks/shim.o|${opt[*]} ${engine_flags[*]}")
printf '%s\n' "${jobs[@]}" |
	xargs -P2 -d '\n' -I{} bash -c 'IFS="|" read -r s o f <<< "$1"; compile "$s" "$o" $f' _ {}

h=$out/obj-hooks
link=(-no-pie -o)
"$cc" "${link[@]}" "$out/a" "$out"/obj-plain/*.o "$h/tsc.o" "$h/nokft.o" -lm -ldl
"$cc" "${link[@]}" "$out/b" "$out"/obj-instr/*.o "$h/tsc.o" "$h/nokft.o" "$h/emptyhooks.o" -lm -ldl
"$cc" "${link[@]}" "$out/c" "$out"/obj-instr/*.o "$h/tsc.o" "$h/kftglue.o" "$h/shim.o" \
	$(printf "$h/%s.o " "${engine_src[@]}") -lm -ldl
nm -n --defined-only "$out/c" > "$out/c.map"
