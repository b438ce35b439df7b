# SPDX-License-Identifier: GPL-2.0
# make fidelity's table (bench/fidelity.sh), from seven files in order:
# vanilla's first-user-program time and initcalls, the idle KFT kernel's,
# the boot run's, and kd --boot's initcalls of that run ("NAME USECS").
# initcalls: "NAME USECS EXACT" (EXACT: timed after the clocksource
# switch, not in jiffies).
FNR == 1 { f++ }
f == 1 || f == 3 || f == 5 { user[f] = $1; next }
f == 2 || f == 4 || f == 6 {
	if (!(($1, f) in t)) { n[f]++ }
	t[$1, f] += $2; sum[f] += $2
	if (f == 2) { order[++nv] = $1; exact[$1] = $3 }
	next
}
f == 7 { kd[$1] += $2; inkd[$1] = 1; next }
function x(a, b) { return b > 0 ? sprintf("%.2fx", a / b) : "-" }
function us(v) { return sprintf("%.0f", v) }
END {
	printf "## Fidelity: %s, %s, Linux %s\n\n", arch, cc == "clang" ? "Clang (LLVM=1)" : "GCC", kver
	printf "QEMU instruction counting (-icount shift=0,sleep=off): 1 instruction = 1 ns, deterministic.\n"
	printf "Kernels: vanilla; KFT compiled in, no run (idle); KFT with the default boot run (kft=, mintime 500).\n"
	printf "Each booted with initcall_debug.\n\n"
	printf "| | vanilla | KFT idle | x | KFT boot run | x |\n|---|---|---|---|---|---|\n"
	printf "| first user program, us | %s | %s | %s | %s | %s |\n", us(user[1]), us(user[3]),
		x(user[3], user[1]), us(user[5]), x(user[5], user[1])
	printf "| sum of initcalls (initcall_debug), us | %s | %s | %s | %s | %s |\n\n", us(sum[2]), us(sum[4]),
		x(sum[4], sum[2]), us(sum[6]), x(sum[6], sum[2])
	# The longest initcalls of the untraced kernel timed with a real clock.
	for (i = 1; i <= nv; i++) if (exact[order[i]] && !(order[i] in seen)) { seen[order[i]] = 1; cand[++nc] = order[i] }
	for (i = 1; i <= nc; i++) for (j = i + 1; j <= nc; j++)
		if (t[cand[j], 2] > t[cand[i], 2]) { s = cand[i]; cand[i] = cand[j]; cand[j] = s }
	printf "Initcalls timed with a real clock, longest %d of the vanilla kernel's: initcall_debug's time in each\n", top
	printf "kernel, and what kd --boot reports from the boot run's log (raw: the traced call's own duration).\n\n"
	printf "| initcall | vanilla us | KFT idle | x | boot run | x | kd --boot | x |\n|---|---|---|---|---|---|---|---|\n"
	for (i = 1; i <= nc && i <= top; i++) {
		c = cand[i]
		printf "| %s | %s | %s | %s | %s | %s | %s | %s |\n", c, us(t[c, 2]), us(t[c, 4]), x(t[c, 4], t[c, 2]),
			us(t[c, 6]), x(t[c, 6], t[c, 2]), (c in inkd) ? us(kd[c]) : "-", (c in inkd) ? x(kd[c], t[c, 2]) : "-"
	}
	# Rank: the vanilla kernel's top five against kd --boot's.
	for (c in kd) kds[++nk] = c
	for (i = 1; i <= nk; i++) for (j = i + 1; j <= nk; j++)
		if (kd[kds[j]] > kd[kds[i]]) { s = kds[i]; kds[i] = kds[j]; kds[j] = s }
	printf "\nLongest five, vanilla (initcall_debug, real clock): "
	for (i = 1; i <= 5 && i <= nc; i++) printf "%s%s", (i > 1 ? ", " : ""), cand[i]
	printf "\nLongest five, kd --boot of the boot run:           "
	for (i = 1; i <= 5 && i <= nk; i++) printf "%s%s", (i > 1 ? ", " : ""), kds[i]
	printf "\n\n"
}
