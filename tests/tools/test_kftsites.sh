#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# scripts/kftsites (ASan/UBSan build): the call sites it lists in an
# object's __kft_enter_loc and __kft_exit_loc are exactly where the object
# calls the hooks - checked by running a program that notes where its hooks
# are called from (x86_64), and against the relocations of an arm64 object -
# tail calls are left out, and bad objects are refused and left as they were.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
. tests/lib/tap.sh
KS=${BUILD:-build}/asan/kftsites
src=tests/tools/kftsites
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# x86_64: the program checks itself once main() has returned.
gcc -O2 -Wall -Wextra -Werror -c "$src/hooks.c" -o "$tmp/hooks.o" &&
gcc -O2 -Wall -Wextra -Werror -finstrument-functions -c "$src/prog.c" -o "$tmp/prog.o"
ok $? "x86_64: the instrumented test program compiles"
"$KS" -v "$tmp/prog.o" > "$tmp/v.txt" 2> "$tmp/err.txt" && [ ! -s "$tmp/err.txt" ]
ok $? "x86_64: kftsites lists the sites ($(cat "$tmp/v.txt"))"
gcc -no-pie -o "$tmp/prog" "$tmp/prog.o" "$tmp/hooks.o" 2> "$tmp/ld.txt"
ok $? "x86_64: the object still links"
"$tmp/prog" > "$tmp/run.txt"
ok $? "x86_64: every hook call came from a listed site, every listed site called ($(tr '\n' ' ' < "$tmp/run.txt"))"
grep -q '^tail calls: [1-9]' "$tmp/run.txt"
ok $? "x86_64: a tail call (JMP) to the exit hook was made and is not listed"
cp "$tmp/prog.o" "$tmp/again.o"
"$KS" "$tmp/again.o" && cmp -s "$tmp/prog.o" "$tmp/again.o"
ok $? "an object with the sections already is left as it is"

# arm64: every listed offset holds a BL (CALL26) to the hook it is listed
# for, and every such BL is listed.
if command -v aarch64-linux-gnu-gcc > /dev/null; then
	aarch64-linux-gnu-gcc -O2 -finstrument-functions -c "$src/prog.c" -o "$tmp/a64.o"
	ok $? "arm64: the test program cross-compiles"
	"$KS" "$tmp/a64.o"
	ok $? "arm64: kftsites lists the sites"
	# "SECTION OFFSET" of each BL to the hook, and of each listed site.
	for h in enter exit; do
		aarch64-linux-gnu-readelf -rW "$tmp/a64.o" | awk -v h="$h" '
			function hex(x) { sub(/^0+/, "", x); return x == "" ? "0" : x }
			/^Relocation section/ { sec = $3; gsub(/\047/, "", sec); sub(/^\.rela/, "", sec); next }
			$3 == "R_AARCH64_CALL26" && $5 == "__cyg_profile_func_" h { print sec, hex($1) }
			sec == "__kft_" h "_loc" && $3 == "R_AARCH64_ABS64" { print $5, hex($NF) > "/dev/stderr" }
		' > "$tmp/calls.$h" 2> "$tmp/listed.$h"
		sort "$tmp/calls.$h" -o "$tmp/calls.$h"
		sort "$tmp/listed.$h" -o "$tmp/listed.$h"
		[ -s "$tmp/calls.$h" ] && cmp -s "$tmp/calls.$h" "$tmp/listed.$h"
		ok $? "arm64: __kft_${h}_loc lists each BL to the $h hook, as section + offset ($(wc -l < "$tmp/listed.$h") sites)"
	done
	aarch64-linux-gnu-ld -r "$tmp/a64.o" -o "$tmp/a64-r.o" &&
	aarch64-linux-gnu-readelf -SW "$tmp/a64-r.o" | grep -q '__kft_exit_loc'
	ok $? "arm64: the object still links (ld -r), the sections kept"
else
	ok 1 "aarch64-linux-gnu-gcc is installed (make deps)"
fi

# Objects without hook calls are not touched.
printf 'int f(int x) { return x + 1; }\n' > "$tmp/plain.c"
gcc -O2 -c "$tmp/plain.c" -o "$tmp/plain.o" && cp "$tmp/plain.o" "$tmp/plain0.o" &&
"$KS" "$tmp/plain.o" && cmp -s "$tmp/plain.o" "$tmp/plain0.o"
ok $? "an object that calls no hook is left as it is"

# Bad input: a clear error naming the file, exit 1, the file unchanged.
refused() {	# refused NAME FILE MESSAGE
	local name=$1 f=$2 msg=$3 before
	before=$(md5sum "$f" 2>/dev/null)
	"$KS" "$f" > "$tmp/out" 2> "$tmp/err"
	local rc=$?
	[ $rc = 1 ] && grep -q "^kftsites: $f: $msg" "$tmp/err" &&
		! grep -q 'Sanitizer' "$tmp/err" &&
		[ "$(md5sum "$f" 2>/dev/null)" = "$before" ]
	ok $? "$name: refused ($(head -n1 "$tmp/err"))"
}
: > "$tmp/empty.o"
refused "an empty file" "$tmp/empty.o" "not an ELF object"
head -c 4096 /dev/urandom > "$tmp/garbage.o"
refused "garbage" "$tmp/garbage.o" "not an ELF object"
head -c 4096 /dev/zero > "$tmp/zeros.o"
refused "NUL bytes" "$tmp/zeros.o" "not an ELF object"
refused "a linked program" "$tmp/prog" "not a relocatable ELF object"
gcc -O2 -finstrument-functions -c "$src/prog.c" -o "$tmp/full.o"
head -c 2000 "$tmp/full.o" > "$tmp/truncated.o"
refused "a truncated object" "$tmp/truncated.o" "truncated or bad section"
printf '\x03\x00' | dd of="$tmp/full.o" bs=1 seek=18 conv=notrunc status=none
refused "an i386 object" "$tmp/full.o" "machine not supported"
refused "a missing file" "$tmp/missing.o" "No such file"
refused "a directory" "$tmp" ""
"$KS" > /dev/null 2>&1
[ $? = 2 ]
ok $? "no object: usage, exit 2"
"$KS" --help | grep -q '^usage: kftsites'
ok $? "--help"
tap_done
