#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# scripts/kftsites --reach (ASan/UBSan build), the kernel build's check that
# KFT's hooks reach no instrumented code: on objects built like vmlinux.o
# (ld -r) for x86_64, arm64, riscv64 and arm (ARM and Thumb-2), with GCC
# and Clang, hooks that reach only uninstrumented code pass, and hooks that
# reach an instrumented function - through a call to another object, a
# tail call, a static function of their own file (called without a
# relocation: the assembler resolved it, but on riscv64), an alternative's
# replacement, a static branch's target - fail naming the path; --stop checks a function but does
# not follow its calls, --allow lets one be reached; and the instructions
# --reach decodes are objdump's, branch targets too, on the tools' own code
# built for each.  --bounded (x86_64, arm64) tells each kind of function
# apart (bounded.c), and refuses the code of the other machines.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
. tests/lib/tap.sh
KS=${BUILD:-build}/asan/kftsites
src=tests/tools/kftreach
tap_tmpdir

# reach NAME EXPECTED-STATUS [KFTSITES-OPTIONS...] OBJECT: --reach's exit
# status; its messages in $tmp/out and $tmp/err.
reach() {
	local name=$1 want=$2 rc
	shift 2
	"$KS" --reach -v "$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	[ $rc = "$want" ] && ! grep -q 'Sanitizer\|runtime error' "$tmp/err"
	ok $? "$name (exit $rc)"
}

# path PATTERN: the failure names the function and its path (an extended
# regex), on one line.
path() {
	grep -Eq "^kftsites: .*: error: the hooks reach .*, which calls them: __cyg_profile_func_(enter|exit) -> $1\$" "$tmp/err"
	ok $? "$label: the path is named ($(sed -n '1s/.*which calls them: //p' "$tmp/err"))"
}

# bounded LABEL ARCH CC OBJDUMP LD INSTRUMENT [CFLAGS...]: kftsites
# --bounded on bounded.c's functions, one of each kind, linked alone (ld
# -r, as vmlinux.o): each told apart by name, straight()'s bound exactly
# its instructions as objdump has them, two()'s its callees' and its own.
bounded() {
	local label=$1 a=$2 cc=$3 objdump=$4 ld=$5 inst=$6 o n want line
	shift 6
	o=$tmp/bounded-$a-$RANDOM
	mkdir -p "$o"
	if ! $cc -O2 "$@" "$inst" -c "$src/bounded.c" -o "$o/b1.o" ||
	   ! $ld -r -o "$o/b.o" "$o/b1.o"; then
		ok 1 "$label: bounded.c builds"
		return
	fi
	"$KS" --bounded "$o/b.o" > "$tmp/out" 2> "$tmp/err"
	ok $? "$label: --bounded reads the object ($(tail -n 1 "$tmp/out"))"
	! grep -q 'Sanitizer\|runtime error' "$tmp/err"
	ok $? "$label: --bounded: no sanitizer report"
	n=$("$objdump" -d --no-show-raw-insn "$o/b.o" | awk '
		/^[0-9a-f]+ <straight>:$/ { on = 1; next }
		on && /^$/ { exit }
		on && /^ *[0-9a-f]+:\t/ { n++; if ($2 ~ /^ret/) { print n; exit } }')
	grep -qx "straight $n" "$tmp/out"
	ok $? "$label: a function without branches: bounded by its $n instructions ($(grep '^straight ' "$tmp/out"))"
	grep -Eqx 'branchy [0-9]+' "$tmp/out"
	ok $? "$label: forward branches only: bounded"
	awk '$1 == "straight" { s = $2 } $1 == "branchy" { b = $2 }
	     $1 == "two" { t = $2 } END { exit !(t > s + b && s > 0 && b > 0) }' "$tmp/out"
	ok $? "$label: a caller of two bounded functions: bounded by more than their sum"
	grep -Eqx 'jump_fwd [0-9]+' "$tmp/out"
	ok $? "$label: a static branch to its own code: bounded"
	grep -Eqx 'alt_plain [0-9]+' "$tmp/out"
	ok $? "$label: an alternative whose replacement is straight-line code: bounded"
	for want in "looped - loop at +0x" "calls_loop - calls looped" \
		    "through_ptr - indirect branch at +0x" \
		    "outside - calls outside the object at +0x" \
		    "waits - waits or traps at +0x" \
		    "faults - exception table (may fault) at +0x" \
		    "jump_out - static branch out at +0x" \
		    "alt_call - alternative at +0x"; do
		grep -qF "$want" "$tmp/out"
		ok $? "$label: ${want%% *}: no bound, '${want#* - }'"
	done
	if [ "$a" = arm64 ]; then
		grep -Eqx 'llsc [0-9]+' "$tmp/out" && grep -Eqx 'llsc_cas [0-9]+' "$tmp/out"
		ok $? "$label: LL/SC retry loops (an atomic add, a cmpxchg): bounded"
		for want in "retry_count - loop at +0x" "retry_ldr - loop at +0x"; do
			grep -qF "$want" "$tmp/out"
			ok $? "$label: ${want%% *}: no bound, '${want#* - }' (not an LL/SC retry)"
		done
	fi
	line=$(grep -E '^(ping|pong) ' "$tmp/out" | sort | tr '\n' ' ')
	[[ $line = *"- recursion "* ]] && [[ $line != *[a-z]\ [0-9]* ]]
	ok $? "$label: functions that call each other: recursion, no bound ($line)"
	# GCC instruments twice(), inlined, and so keeps a copy of it, whose
	# address its calls give: one function more.
	# arm64 has four more: llsc, llsc_cas (bounded leaves), retry_count,
	# retry_ldr.
	want="straight branchy two jump_fwd alt_plain"
	case "$inst $a" in
	"-finstrument-functions arm64") n="21 functions call the hooks, 9 bounded (8 leaves)" ;;
	"-finstrument-functions "*) n="17 functions call the hooks, 7 bounded (6 leaves)" ;;
	*" arm64") n="20 functions call the hooks, 8 bounded (7 leaves)" ;;
	*) n="16 functions call the hooks, 6 bounded (5 leaves)" ;;
	esac
	if [ "$inst" = -finstrument-functions ]; then
		want+=" twice"
	else
		want+=" inl"
	fi
	[ "$a" = arm64 ] && want+=" llsc llsc_cas"
	! grep -q '^quiet ' "$tmp/out" && grep -q ": $n\$" "$tmp/out"
	ok $? "$label: only what calls the hooks is listed, and counted ($n)"

	# --bounded-sites: __kft_bounded_loc holds the hook calls of the
	# bounded functions whose sites are their own, exactly (not inl()'s
	# with GCC, which has twice()'s too).
	cp "$o/b.o" "$o/s.o"
	"$KS" --bounded-sites 256 "$o/s.o" 2> "$tmp/err" &&
		! grep -q 'Sanitizer\|runtime error' "$tmp/err"
	ok $? "$label: --bounded-sites 256 writes the object"
	"$objdump" -r -j __kft_bounded_loc "$o/s.o" |
		sed -n 's/^[0-9a-f]* *R_[A-Z0-9_]* *\.text+0x0*\([0-9a-f]*\)$/\1/p' | sort > "$o/table"
	"$objdump" -dr --no-show-raw-insn "$o/b.o" | awk -v want=" $want " -v x86=$([ "$a" = x86_64 ] && echo 1 || echo 0) '
		/^[0-9a-f]+ <.*>:$/ { fn = $2; gsub(/[<>:]/, "", fn); next }
		/R_(X86_64_PLT32|AARCH64_CALL26)[ \t]+__cyg_profile_func_(enter|exit)/ && index(want, " " fn " ") {
			off = $1; sub(/:$/, "", off)
			n = 0
			for (i = 1; i <= length(off); i++)
				n = n * 16 + index("0123456789abcdef", substr(off, i, 1)) - 1
			printf "%x\n", n - x86
		}' | sort > "$o/sites"
	[ -s "$o/sites" ] && cmp -s "$o/table" "$o/sites"
	ok $? "$label: its $(wc -l < "$o/table") entries are the $(wc -l < "$o/sites") hook calls of $want"
	cp "$o/s.o" "$o/s2.o"
	"$KS" --bounded-sites 256 "$o/s2.o" && cmp -s "$o/s.o" "$o/s2.o"
	ok $? "$label: --bounded-sites again leaves the object as it is"
	cp "$o/b.o" "$o/s3.o"
	"$KS" --bounded-sites 1 "$o/s3.o" &&
		! "$objdump" -r -j __kft_bounded_loc "$o/s3.o" 2> /dev/null | grep -q R_
	ok $? "$label: --bounded-sites 1: no function that short, no entries"
	rm -rf "$o"
}

# machine LABEL ARCH CC OBJDUMP LD INSTRUMENT [CFLAGS...]: CC may hold
# options (clang --target=...); INSTRUMENT is the kernel's instrumentation.
machine() {
	local label=$1 a=$2 cc=$3 objdump=$4 ld=$5 inst=$6 c f o
	shift 6
	if ! command -v "${cc%% *}" > /dev/null || ! command -v "$objdump" > /dev/null; then
		ok 1 "$label: ${cc%% *} and $objdump are installed (make deps)"
		return
	fi
	o=$tmp/$a-$RANDOM
	mkdir -p "$o"
	$cc -O2 "$@" -c "$src/helpers.c" -o "$o/helpers.o" &&
		$cc -O2 "$@" "$inst" -c "$src/prog.c" -o "$o/prog.o"
	ok $? "$label: the uninstrumented helpers and the instrumented program compile"
	for c in CLEAN CROSS TAIL STATIC POINTER ${ALT:+ALT} JUMP SELF; do
		if [ "$c" = SELF ]; then
			f="-DSELF -DCASE_CLEAN=1"
		else
			f="-DCASE_$c=1"
		fi
		# shellcheck disable=SC2086
		if ! $cc -O2 "$@" "$inst" $f -c "$src/hooks.c" -o "$o/hooks-$c.o" ||
		   ! $ld -r -o "$o/$c.o" "$o/hooks-$c.o" "$o/helpers.o" "$o/prog.o"; then
			ok 1 "$label: $c builds"
		fi
	done
	reach "$label: hooks that reach only uninstrumented code pass" 0 "$o/CLEAN.o"
	grep -q '^  helper_clean <- helper_tail_clean$' "$tmp/out" &&
		grep -q '^  helper_tail_clean <- note' "$tmp/out" &&
		grep -Eq '^  clean[.a-z0-9]* <- note' "$tmp/out"
	ok $? "$label: -v lists what they reach: another object's helper, its tail call, a static function"
	reach "$label: a call to an instrumented function in another object fails" 1 "$o/CROSS.o"
	path 'note[.a-z0-9]* -> helper_calls_work -> work'
	reach "$label: a tail call (jump) to an instrumented function fails" 1 "$o/TAIL.o"
	path 'note[.a-z0-9]* -> helper_tail_work -> work'
	reach "$label: an instrumented static function of the hooks' own file fails" 1 "$o/STATIC.o"
	path 'note[.a-z0-9]* -> count[.a-z0-9]*'
	if [ -n "${ALT:-}" ]; then
		reach "$label: an alternative's replacement that calls an instrumented function fails" 1 "$o/ALT.o"
		path 'note[.a-z0-9]* -> work'
	fi
	reach "$label: a static branch whose target calls an instrumented function fails" 1 "$o/JUMP.o"
	path 'note[.a-z0-9]* -> \.text\.unlikely\+0x[0-9a-f]+ -> work'
	reach "$label: hooks that are instrumented themselves fail" 1 "$o/SELF.o"
	grep -Eq 'error: the hooks reach __cyg_profile_func_(enter|exit), which calls them: __cyg_profile_func_(enter|exit)$' "$tmp/err"
	ok $? "$label: the hook is named"
	reach "$label: a call through a pointer is not followed" 0 "$o/POINTER.o"
	reach "$label: --stop at the helper that calls the instrumented function: passes" 0 \
		--stop helper_calls_work "$o/CROSS.o"
	grep -q '^  helper_calls_work (stop) <- note' "$tmp/out" && ! grep -q '^  work' "$tmp/out"
	ok $? "$label: -v lists it as stopped at, and nothing past it"
	reach "$label: --stop at the instrumented function: still fails (it is checked)" 1 \
		--stop work "$o/CROSS.o"
	reach "$label: --allow the instrumented function: passes" 0 --allow work "$o/CROSS.o"
	grep -q '^  work (allowed) <- helper_calls_work' "$tmp/out"
	ok $? "$label: -v lists it as allowed"
	reach "$label: an object without the hooks is refused" 1 "$o/prog.o"
	grep -q "defines neither __cyg_profile_func_enter() nor __cyg_profile_func_exit()" "$tmp/err"
	ok $? "$label: ... saying so"

	# The decoder against objdump, on the tools' own code built for it.
	for f in scripts/kft/*.c; do
		$cc -O2 "$@" -Iscripts -c "$f" -o "$o/t-$(basename "$f" .c).o" 2>/dev/null
	done
	$ld -r -o "$o/tools.o" "$o"/t-*.o "$o/CLEAN.o" &&
		"$KS" --insns "$o/tools.o" > "$o/insns.txt" &&
		"$objdump" -dr --no-show-raw-insn "$o/tools.o" > "$o/objdump.txt" &&
		python3 "$src/insns.py" "$a" "$o/objdump.txt" "$o/insns.txt" > "$o/cmp.txt"
	ok $? "$label: every instruction and branch target decoded as objdump has it ($(tail -n 1 "$o/cmp.txt"))"
	sed 's/^/# /' "$o/cmp.txt" | head -n 11
	case $a in
	x86_64 | arm64) bounded "$label" "$a" "$cc" "$objdump" "$ld" "$inst" "$@" ;;
	*)
		"$KS" --bounded "$o/CLEAN.o" > /dev/null 2> "$tmp/err"
		[ $? = 1 ] && grep -q "^kftsites: .*CLEAN.o: --bounded knows x86_64 and arm64 code only" "$tmp/err"
		ok $? "$label: --bounded refuses code it does not know, saying so"
		cp "$o/CLEAN.o" "$o/C2.o"
		"$KS" --bounded-sites 256 "$o/C2.o" 2> "$tmp/err"
		[ $? = 1 ] && grep -q "^kftsites: .*C2.o: --bounded-sites knows x86_64 and arm64 code only" "$tmp/err" &&
			cmp -s "$o/CLEAN.o" "$o/C2.o"
		ok $? "$label: so does --bounded-sites, and writes nothing"
		;;
	esac
	rm -rf "$o"
}

# The kernel's instrumentation: GCC's, and Clang's after inlining.
gcc_i=-finstrument-functions
clang_i=-finstrument-functions-after-inlining
# ALT: the machine has the kernel's alternatives (not 32-bit arm).
ALT=1 machine "x86_64 gcc" x86_64 gcc objdump ld $gcc_i
ALT=1 machine "x86_64 clang" x86_64 clang objdump ld $clang_i
ALT=1 machine "arm64 gcc" arm64 aarch64-linux-gnu-gcc aarch64-linux-gnu-objdump aarch64-linux-gnu-ld $gcc_i
ALT=1 machine "arm64 clang" arm64 "clang --target=aarch64-linux-gnu" aarch64-linux-gnu-objdump aarch64-linux-gnu-ld $clang_i
ALT=1 machine "riscv64 gcc" riscv64 riscv64-linux-gnu-gcc riscv64-linux-gnu-objdump riscv64-linux-gnu-ld $gcc_i
ALT=1 machine "riscv64 clang" riscv64 "clang --target=riscv64-linux-gnu" riscv64-linux-gnu-objdump riscv64-linux-gnu-ld $clang_i
machine "arm (Thumb-2) gcc" arm arm-linux-gnueabihf-gcc arm-linux-gnueabihf-objdump arm-linux-gnueabihf-ld $gcc_i -mthumb -march=armv7-a+fp
machine "arm (ARM) gcc" arm arm-linux-gnueabihf-gcc arm-linux-gnueabihf-objdump arm-linux-gnueabihf-ld $gcc_i -marm -march=armv7-a+fp
machine "arm (Thumb-2) clang" arm "clang --target=arm-linux-gnueabihf" arm-linux-gnueabihf-objdump arm-linux-gnueabihf-ld $clang_i -mthumb -march=armv7-a

# Bad input: a clear error naming the file, exit 1, nothing written.
refused() {	# refused NAME FILE MESSAGE
	local name=$1 f=$2 msg=$3 before mode rc
	before=$(md5sum "$f" 2>/dev/null)
	for mode in --reach --bounded; do
		"$KS" $mode "$f" > "$tmp/out" 2> "$tmp/err"
		rc=$?
		[ $rc = 1 ] && grep -q "^kftsites: $f: $msg" "$tmp/err" &&
			! grep -q 'Sanitizer\|runtime error' "$tmp/err" &&
			[ "$(md5sum "$f" 2>/dev/null)" = "$before" ]
		ok $? "$mode, $name: refused ($(head -n1 "$tmp/err"))"
	done
}
head -c 4096 /dev/urandom > "$tmp/garbage.o"
refused "garbage" "$tmp/garbage.o" "not an ELF object"
gcc -O2 -fPIC -c "$src/prog.c" -o "$tmp/prog.o" && gcc -O2 -fPIC -c "$src/helpers.c" -o "$tmp/helpers.o" &&
	gcc -shared -o "$tmp/lib.so" "$tmp/prog.o" "$tmp/helpers.o" 2> /dev/null
refused "a linked object" "$tmp/lib.so" "not a relocatable ELF object"
refused "a missing file" "$tmp/missing.o" "No such file"
"$KS" --reach --insns "$tmp/prog.o" > /dev/null 2>&1
[ $? = 2 ]
ok $? "--reach and --insns together: usage, exit 2"
for bad in 0 -1 x 12x 99999999999999999999999; do
	"$KS" --bounded-sites "$bad" "$tmp/prog.o" > /dev/null 2> "$tmp/err"
	[ $? = 2 ] && grep -q "not a number of instructions" "$tmp/err"
	ok $? "--bounded-sites $bad: refused, exit 2"
done
"$KS" --bounded-sites 9 --reach "$tmp/prog.o" > /dev/null 2>&1
[ $? = 2 ]
ok $? "--bounded-sites and --reach together: usage, exit 2"
for both in --reach --insns -v; do
	"$KS" --bounded $both "$tmp/prog.o" > /dev/null 2>&1
	[ $? = 2 ]
	ok $? "--bounded and $both together: usage, exit 2"
done
"$KS" --allow work "$tmp/prog.o" > /dev/null 2>&1
[ $? = 2 ]
ok $? "--allow without --reach: usage, exit 2"
"$KS" --reach --stop > /dev/null 2>&1
[ $? = 2 ]
ok $? "--stop without a function: usage, exit 2"
"$KS" --help | grep -q -- '--reach' && "$KS" --help | grep -q -- '--bounded'
ok $? "--help says --reach and --bounded"
tap_done
