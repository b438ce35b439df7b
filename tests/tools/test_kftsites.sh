#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# scripts/kftsites (ASan/UBSan build): the call sites it lists in an
# object's __kft_enter_loc and __kft_exit_loc are exactly where the object
# calls the hooks - checked by running a program that notes where its hooks
# are called from (x86_64), and against the relocations of arm64, riscv64
# and arm objects - tail calls to the exit hook are listed with its calls,
# and bad objects are refused and left as they were.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
. tests/lib/tap.sh
KS=${BUILD:-build}/asan/kftsites
src=tests/tools/kftsites
tap_tmpdir

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
njmp=$(objdump -d "$tmp/prog" | grep -c 'jmp .*<__cyg_profile_func_exit>')
grep -q "^tail calls: [1-9][0-9]*, tail call sites listed: $njmp\$" "$tmp/run.txt" && [ "$njmp" -ge 1 ]
ok $? "x86_64: a tail call (JMP) to the exit hook was made, and each of the $njmp is listed"
cp "$tmp/prog.o" "$tmp/again.o"
"$KS" "$tmp/again.o" && cmp -s "$tmp/prog.o" "$tmp/again.o"
ok $? "an object with the sections already is left as it is"

# Cross-compiled objects: the calls to each hook that objdump shows, and
# the tail calls to the exit hook (arm64 JUMP26, arm JUMP24 and THM_JUMP24,
# riscv "auipc t1; jr t1"), must be exactly the sites listed, as "SECTION
# OFFSET".
calls() {	# calls OBJDUMP OBJ HOOK
	"$1" -dr "$2" | awk -v hook="$3" '
		function hex(x) { sub(/^0+/, "", x); return x == "" ? "0" : x }
		/^Disassembly of section / { sec = $4; sub(/:$/, "", sec); next }
		/^ +[0-9a-f]+:\t/ { insn = $0; next }
		/^\t\t\t/ && $3 == hook {
			t = $2; at = $1; sub(/:$/, "", at)
			if (t == "R_AARCH64_CALL26" || t == "R_ARM_CALL" || t == "R_ARM_THM_CALL" ||
			    (t ~ /^R_(AARCH64_JUMP26|ARM_JUMP24|ARM_THM_JUMP24)$/ && hook ~ /_exit$/) ||
			    (t == "R_RISCV_CALL_PLT" || t == "R_RISCV_CALL") && (insn ~ /auipc[ \t]+ra,/ || hook ~ /_exit$/))
				print sec, hex(at)
		}' | sort
}
listed() {	# listed READELF OBJ TABLE: REL keeps the addend in the table
	local words
	# readelf -x: "  0xOFFSET " then up to four words of 8 hex digits.
	words=$("$1" -x "$3" "$2" | awk '/^  0x/ { n = split(substr($0, 14, 35), f, " ")
		for (i = 1; i <= n; i++)
			print substr(f[i], 7, 2) substr(f[i], 5, 2) substr(f[i], 3, 2) substr(f[i], 1, 2) }' | tr '\n' ' ')
	"$1" -rW "$2" | awk -v table="$3" -v words="$words" '
		function hex(x) { sub(/^0+/, "", x); return x == "" ? "0" : x }
		BEGIN { n = split(words, w, " ") }
		/^Relocation section/ { sec = $3; gsub(/\047/, "", sec); sub(/^\.rela?/, "", sec); rel = $3 !~ /\.rela/; next }
		sec == table && $3 ~ /_(ABS64|ABS32|64)$/ {
			print $5, rel ? hex(w[strtonum_hex($1) / 4 + 1]) : hex($NF)
		}
		function strtonum_hex(x,   v, i, c) {
			v = 0; x = tolower(x)
			for (i = 1; i <= length(x); i++) { c = index("0123456789abcdef", substr(x, i, 1)) - 1; v = v * 16 + c }
			return v
		}' | sort
}
# cross NAME GCC-PREFIX [CFLAGS...]
cross() {
	local name=$1 cc=$2 h o=$tmp/$1.o
	shift 2
	if ! command -v "${cc}gcc" > /dev/null; then
		ok 1 "$name: ${cc}gcc is installed (make deps)"
		return
	fi
	"${cc}gcc" -O2 -finstrument-functions "$@" -c "$src/prog.c" -o "$o" &&
		"$KS" "$o"
	ok $? "$name: kftsites lists the sites"
	for h in enter exit; do
		calls "${cc}objdump" "$o" "__cyg_profile_func_$h" > "$tmp/calls.$h"
		listed "${cc}readelf" "$o" "__kft_${h}_loc" > "$tmp/listed.$h"
		[ -s "$tmp/calls.$h" ] && cmp -s "$tmp/calls.$h" "$tmp/listed.$h"
		ok $? "$name: __kft_${h}_loc lists each call to the $h hook$([ $h = exit ] && echo ", and each tail call") ($(wc -l < "$tmp/listed.$h") sites)"
	done
	"${cc}ld" -r "$o" -o "$tmp/$name-r.o" &&
	"${cc}readelf" -SW "$tmp/$name-r.o" | grep -q '__kft_exit_loc'
	ok $? "$name: the object still links (ld -r), the sections kept"
}
cross arm64 aarch64-linux-gnu-
cross riscv64 riscv64-linux-gnu-
cross "arm (Thumb-2)" arm-linux-gnueabihf- -mthumb
cross "arm (ARM)" arm-linux-gnueabihf- -marm

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
refused "an empty file" "$tmp/empty.o" "an empty file, not an ELF object"
mkdir "$tmp/dir.o" && mkfifo "$tmp/fifo.o"
refused "a directory" "$tmp/dir.o" "Is a directory"
timeout 20 "$KS" "$tmp/fifo.o" > "$tmp/out" 2> "$tmp/err"
[ $? = 1 ] && grep -q "^kftsites: $tmp/fifo.o: not a regular file" "$tmp/err"
ok $? "a FIFO: refused ($(head -n1 "$tmp/err")), not 'invalid file descriptor'"
head -c 4096 /dev/urandom > "$tmp/garbage.o"
refused "garbage" "$tmp/garbage.o" "not an ELF object"
head -c 4096 /dev/zero > "$tmp/zeros.o"
refused "NUL bytes" "$tmp/zeros.o" "not an ELF object"
refused "a linked program" "$tmp/prog" "not a relocatable ELF object"
gcc -O2 -finstrument-functions -c "$src/prog.c" -o "$tmp/full.o"
head -c 2000 "$tmp/full.o" > "$tmp/truncated.o"
refused "a truncated object" "$tmp/truncated.o" "truncated or bad section"
for n in 10 40 63; do
	head -c $n "$tmp/full.o" > "$tmp/header$n.o"
	refused "an object cut within its ELF header ($n bytes)" "$tmp/header$n.o" \
		"a truncated ELF file ($n bytes, within its ELF header)"
done
printf '\x03\x00' | dd of="$tmp/full.o" bs=1 seek=18 conv=notrunc status=none
refused "an i386 object" "$tmp/full.o" "machine not supported"
# A relocation section linked past the last section: libelf would read
# past its own buffer rewriting it (found by fuzz_kftsites).
gcc -O2 -finstrument-functions -c "$src/prog.c" -o "$tmp/badlink.o"
python3 - "$tmp/badlink.o" <<'PY'
import struct, sys
f = open(sys.argv[1], 'r+b'); d = bytearray(f.read())
shoff, = struct.unpack_from('<Q', d, 0x28); n, = struct.unpack_from('<H', d, 0x3c)
for i in range(n):
    if struct.unpack_from('<I', d, shoff + i * 64 + 4)[0] == 4:	# SHT_RELA
        struct.pack_into('<I', d, shoff + i * 64 + 40, 273)	# sh_link
        break
f.seek(0); f.write(d)
PY
refused "a section linked to no section" "$tmp/badlink.o" "a section links to a section that does not exist"
# More than 65,280 sections: symbols past them have st_shndx SHN_XINDEX,
# their section in SHT_SYMTAB_SHNDX.  Each of 66,000 functions in its own
# section calls the hook: every site listed against its own function, in
# time linear in the object (it scanned every symbol for each section,
# and refused these: 'no symbol to list the call').
python3 -c "import sys; sys.stdout.write(''.join('.section .text.f%d,\"ax\",@progbits\n.globl f%d\nf%d:\n call __cyg_profile_func_enter\n ret\n' % (i, i, i) for i in range(66000)))" > "$tmp/many.s"
as "$tmp/many.s" -o "$tmp/many.o" && [ "$(readelf -h "$tmp/many.o" | sed -n 's/.*Number of section headers: *0 (\([0-9]*\))/\1/p')" -gt 65280 ] &&
	timeout 60 "$KS" -v "$tmp/many.o" > "$tmp/many.out" 2> "$tmp/many.err" &&
	grep -qx "$tmp/many.o: 66000 enter, 0 exit sites" "$tmp/many.out" &&
	objdump -r -j __kft_enter_loc "$tmp/many.o" | awk '$2 == "R_X86_64_64" { n++; if ($3 != "f" (n - 1)) bad = 1 } END { exit bad || n != 66000 }'
ok $? "66,000 sections (SHN_XINDEX): every site listed against its own function, in under a minute"
rm -f "$tmp/many.s" "$tmp/many.o"
# An x32 object (x86-64 code, 32-bit ELF): refused by name.
echo 'void g(void); void f(void) { g(); }' > "$tmp/x32.c"
if gcc -mx32 -finstrument-functions -c "$tmp/x32.c" -o "$tmp/x32.o" 2>/dev/null; then
	refused "an x32 object" "$tmp/x32.o" "an x32 object: not supported"
else
	echo "ok - # SKIP gcc cannot build x32 objects here"
fi
# libelf's own reason, read once (elf_errno() clears it: the message was
# 'bad section name tableno error').
gcc -O2 -finstrument-functions -c "$src/prog.c" -o "$tmp/badstr.o"
printf '\xf0\xff' | dd of="$tmp/badstr.o" bs=1 seek=62 conv=notrunc status=none
refused "a section name table index past the sections" "$tmp/badstr.o" "bad section name table: invalid section index\$"
# Objects on which libelf's rewrite read past its section header array
# (found by fuzz_kftsites; both in its corpus).
for f in tests/fuzz/corpus-kftsites/libelf-shdr-overread-*.o; do
	cp "$f" "$tmp/overread.o"
	"$KS" "$tmp/overread.o" > /dev/null 2> "$tmp/err"
	rc=$?
	[ $rc -le 1 ] && ! grep -q 'Sanitizer' "$tmp/err"
	ok $? "$(basename "$f"): rewritten or refused, nothing read out of bounds (rc $rc)"
done
refused "a missing file" "$tmp/missing.o" "No such file"
refused "a directory" "$tmp" ""
"$KS" > /dev/null 2>&1
[ $? = 2 ]
ok $? "no object: usage, exit 2"
"$KS" --help | grep -q '^usage: kftsites'
ok $? "--help"
tap_done
