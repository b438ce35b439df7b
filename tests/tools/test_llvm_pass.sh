#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# scripts/llvm-plugins/kft_pass.cpp, the LLVM pass that writes Clang's hook
# calls as inline asm (CONFIG_KFT_AFTER_INLINING with Clang), built as the
# kernel builds it against each Clang here (Debian's default, which make
# deps installs with its llvm-dev, and clang-19 if make deps-full put it
# here).  x86_64: a program built with it runs, computes what it computes
# untraced, and its hooks see every call with the right function and call
# site, a musttail call's too.  Both arches: the assembly has the asm
# calls, a leaf saves no callee-saved register (one built without the pass
# does), the exits' asm clobbers every caller-saved register but the
# return value's and the entries' not the arguments', notrace functions
# have no calls, a weak function is reached with ADRP, and x86_64 with
# frame pointers keeps the compiler's calls.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
. tests/lib/tap.sh
src=tests/tools/llvm_pass
tap_tmpdir

# body FILE.s FN: FN's lines in an assembly listing.
body() {
	awk -v f="$2:" '$1 == f { on = 1; next } on && /^\.Lfunc_end/ { exit } on' "$1"
}

# symbolize PROG: "enter FN CALLER" for each "enter ADDR SITE" line, where
# CALLER is the function holding SITE.
symbolize() {
	local addr=() name=() kind fn site f c i a sym t
	while read -r a t sym; do
		[[ $t = [TtWw] ]] && addr+=($((16#$a))) && name+=("$sym")
	done < <(nm -n "$1")
	while read -r kind fn site; do
		[[ $kind = enter || $kind = exit ]] || continue
		f=? c=?
		for i in "${!addr[@]}"; do
			[ "${addr[i]}" -eq $((fn)) ] && f=${name[i]}
			[ "${addr[i]}" -le $((site)) ] && c=${name[i]}
		done
		echo "$kind $f $c"
	done
}

pass_test() {	# pass_test CLANG: the pass against CLANG's LLVM
	local cc=$1 llvm_config ver so="$tmp/kft_pass-$1.so" t
	llvm_config=$("$cc" -print-prog-name=llvm-config)
	ver=$("$llvm_config" --version 2>/dev/null)
	[ "${ver%%.*}" = "$("$cc" -dumpversion | cut -d. -f1)" ]
	ok $? "$cc: its LLVM's llvm-config is there ($llvm_config: ${ver:-none}; Debian: llvm-N-dev, make deps)" || return
	# As scripts/llvm-plugins/Makefile builds it, warnings fatal.
	# shellcheck disable=SC2046
	g++ -O2 -fPIC -shared $("$llvm_config" --cxxflags | sed 's/-I/-isystem /g') \
		-fno-rtti -Wall -Wextra -Werror -o "$so" scripts/llvm-plugins/kft_pass.cpp 2> "$tmp/build.txt"
	ok $? "$cc: the pass builds without a warning against LLVM $ver" || { sed 's/^/# /' "$tmp/build.txt"; return; }

	local pass=(-finstrument-functions-after-inlining -fpass-plugin="$so")
	local c=("$cc" -O2 -fno-pic -Wall -Wextra -Werror)

	# x86_64: run it.
	"${c[@]}" -mgeneral-regs-only -c "$src/hooks.c" -o "$tmp/hooks.o" &&
		"${c[@]}" -fomit-frame-pointer "${pass[@]}" -c "$src/prog.c" -o "$tmp/prog.o" &&
		"$cc" -no-pie -o "$tmp/prog" "$tmp/prog.o" "$tmp/hooks.o" &&
		"${c[@]}" -c "$src/prog.c" -o "$tmp/plain.o" &&
		"$cc" -no-pie -o "$tmp/plain" "$tmp/plain.o" "$tmp/hooks.o"
	ok $? "$cc x86_64: the program builds with the pass, and without it" || return
	"$tmp/prog" > "$tmp/run.txt" && "$tmp/plain" > "$tmp/plain.txt" &&
		[ "$(grep '^result' "$tmp/run.txt")" = "$(grep '^result' "$tmp/plain.txt")" ] &&
		! grep -q '^e' "$tmp/plain.txt"
	ok $? "$cc x86_64: it computes what the untraced program does ($(grep '^result' "$tmp/run.txt"))"
	symbolize "$tmp/prog" < "$tmp/run.txt" > "$tmp/calls.txt"
	cat > "$tmp/want.txt" <<-EOF
	enter caller main
	enter leaf caller
	exit leaf caller
	enter leaf caller
	exit leaf caller
	exit caller main
	enter weakfn main
	exit weakfn main
	enter tailer main
	exit tailer main
	enter helper main
	exit helper main
	enter whereami main
	exit whereami main
	EOF
	diff "$tmp/want.txt" "$tmp/calls.txt" > "$tmp/diff.txt"
	ok $? "$cc x86_64: the hooks get each call's function and call site, notrace's none, musttail's callee the caller's site" ||
		sed 's/^/# /' "$tmp/diff.txt"
	[ "$(grep -c '^whereami right$' "$tmp/run.txt")" = 2 ]
	ok $? "$cc x86_64: a function's own return address is the site its hooks got"

	# The assembly, both arches.
	for t in x86_64 aarch64; do
		"${c[@]}" --target=$t-linux-gnu -fomit-frame-pointer "${pass[@]}" -S \
			-o "$tmp/$t.s" "$src/prog.c" &&
			"${c[@]}" --target=$t-linux-gnu -fomit-frame-pointer \
				-finstrument-functions-after-inlining -S -o "$tmp/$t-plain.s" "$src/prog.c"
		ok $? "$cc $t: compiles to assembly, with the pass and without" || continue
		local saved enter exit
		case $t in
		x86_64) saved='push' enter='movq[[:space:]]+\$leaf, %rdi' ;;
		aarch64) saved='st(r|p)[[:space:]].*x(19|2[0-8])' enter='adr[[:space:]]+x9, leaf' ;;
		esac
		body "$tmp/$t.s" leaf > "$tmp/leaf.s"
		[ "$(grep -Ec "$enter" "$tmp/leaf.s")" = 2 ] &&
			grep -Eq '(call|bl).*__cyg_profile_func_enter' "$tmp/leaf.s" &&
			grep -Eq '(call|bl).*__cyg_profile_func_exit' "$tmp/leaf.s" &&
			! grep -Eq "$saved" "$tmp/leaf.s" &&
			body "$tmp/$t-plain.s" leaf | grep -Eq "$saved"
		ok $? "$cc $t: leaf() calls both hooks from asm and saves no callee-saved register (without the pass it does)"
		# At an exit only the return value is live: its asm may clobber
		# every other caller-saved register (asm/kft.h's exit thunks
		# change them), the entry's none of the arguments' it keeps.
		local only
		case $t in
		x86_64) only='~\{rcx\},~\{r8\},~\{r9\},~\{r10\},~\{r11\}' ;;
		aarch64) only='~\{x2\},~\{x3\},~\{x4\},~\{x5\},~\{x6\},~\{x7\},~\{x8\}' ;;
		esac
		"${c[@]}" --target=$t-linux-gnu -fomit-frame-pointer "${pass[@]}" -S -emit-llvm \
			-o "$tmp/$t.ll" "$src/prog.c" &&
			grep 'asm sideeffect.*call __cyg_profile_func_exit\|asm sideeffect.*bl __cyg_profile_func_exit' "$tmp/$t.ll" > "$tmp/exits.ll" &&
			grep 'asm sideeffect.*__cyg_profile_func_enter' "$tmp/$t.ll" > "$tmp/enters.ll" &&
			! grep -Ev "$only" "$tmp/exits.ll" && ! grep -E '~\{(rcx|r8|x2)\}' "$tmp/enters.ll"
		ok $? "$cc $t: the exits' asm clobbers the caller-saved registers but the return value's, the entries' not ($(wc -l < "$tmp/exits.ll") exits)"
		! body "$tmp/$t.s" notr | grep -q __cyg_profile &&
			! body "$tmp/$t.s" main | grep -q __cyg_profile
		ok $? "$cc $t: notrace functions call no hook"
		body "$tmp/$t.s" tailer | grep -Eo '__cyg_profile_func_exit|(jmp|b)[[:space:]]+helper' |
			tr '\n' ' ' > "$tmp/tail.txt"
		grep -Eq '^__cyg_profile_func_exit (jmp|b)[[:space:]]+helper $' "$tmp/tail.txt"
		ok $? "$cc $t: a musttail call stays last, after the exit hook ($(cat "$tmp/tail.txt"))"
	done
	body "$tmp/aarch64.s" weakfn | tr -s ' \t' ' ' > "$tmp/weak.s"
	grep -q 'adrp x9, weakfn' "$tmp/weak.s" && grep -q 'add x9, x9, :lo12:weakfn' "$tmp/weak.s" &&
		body "$tmp/aarch64.s" leaf | grep -Eq 'adr[[:space:]]+x9, leaf$'
	ok $? "$cc aarch64: a weak function's address through ADRP, a strong one's through ADR"
	# With frame pointers x86_64 keeps the compiler's calls: an asm call
	# cannot make it set up the frame first.
	"${c[@]}" --target=x86_64-linux-gnu -fno-omit-frame-pointer "${pass[@]}" -S \
		-o "$tmp/fp.s" "$src/prog.c" &&
		body "$tmp/fp.s" leaf > "$tmp/fp-leaf.s" &&
		! grep -q '#APP' "$tmp/fp-leaf.s" &&
		grep -q 'call.*__cyg_profile_func_enter' "$tmp/fp-leaf.s"
	ok $? "$cc x86_64 with frame pointers: the compiler's own hook calls, no asm"
}

pass_test clang
if command -v clang-19 > /dev/null && [ -x "$(clang-19 -print-prog-name=llvm-config)" ]; then
	pass_test clang-19
else
	tap_skip "clang-19 and llvm-19-dev are make deps-full's"
fi
tap_done
