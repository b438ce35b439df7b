# SPDX-License-Identifier: GPL-2.0
#
# make bench-idle: KFT's hook call sites and their argument setup, from
# `objdump -d --no-show-raw-insn vmlinux`: "ADDR enter", "ADDR exit" for
# each call of __cyg_profile_func_enter/exit (NOPs while KFT is idle; a
# tail call, which is its function's return, is not one), "ADDR arg" for
# each instruction just before a site, in a row, that only writes the
# hook's two argument registers (arm64's CONFIG_KFT_AFTER_INLINING: x9
# and x10) or the return address register the call itself overwrites:
# what a jump over the site could skip.  -v arch=ARCH.

BEGIN {
	if (arch == "x86_64") {
		call = "^call "
		arg = "^(mov|movl|movq|lea) [^ ]+,%(rdi|rsi|edi|esi)$"
	} else if (arch == "arm64") {
		call = "^bl "
		arg = "^((mov|adrp|adr|add|ldr) (x0|x1|x9|x10|x30|w0|w1),.*|xpaclri|hint #0x7)$"
	} else if (arch == "riscv64") {
		call = "^(jal|jalr) "
		arg = "^(mv|addi|auipc|ld|lui|li|add) (a0|a1|ra),"
	} else if (arch == "arm") {
		call = "^bl(\\.w)? "
		arg = "^(mov|movw|movt|ldr|add|sub)(\\.[wn])? (r0|r1|lr),"
	} else {
		print "idle_sites: no patterns for arch '" arch "'" > "/dev/stderr"
		exit 2
	}
}

/>:$/ { n = 0; next }	# a new function: nothing before it is its
/^ *[0-9a-f]+:\t/ {
	a = $1; sub(/:$/, "", a)
	t = $0; sub(/^ *[0-9a-f]+:\t/, "", t); gsub(/[ \t]+/, " ", t)
	if (t ~ call && t ~ /<__cyg_profile_func_(enter|exit)>/) {
		print a, (t ~ /_enter>/ ? "enter" : "exit")
		for (i = n; i >= 1 && ins[i] ~ arg; i--)
			print at[i], "arg"
		n = 0
		next
	}
	at[++n] = a; ins[n] = t
}
