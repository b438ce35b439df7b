# SPDX-License-Identifier: GPL-2.0
# make fidelity's table (bench/fidelity.sh), from nine files in order:
# vanilla's first-user-program time and initcalls, the idle KFT kernel's,
# the boot run's, kd --boot's initcalls of that run ("NAME USECS"),
# compensated for the hooks' cost (kd's default) and raw (kd --raw), and
# the number of calls the boot run saw finish.
# initcalls: "NAME USECS EXACT" (EXACT: timed after the clocksource
# switch, not in jiffies).
FNR == 1 { f++ }
f == 1 || f == 3 || f == 5 { user[f] = $1; next }
f == 2 || f == 4 || f == 6 {
	if (!(($1, f) in t)) { n[f]++ }
	t[$1, f] += $2; sum[f] += $2
	if (f == 4) { order[++nv] = $1; exact[$1] = $3 }
	next
}
f == 7 { kd[$1] += $2; inkd[$1] = 1; next }
f == 8 { raw[$1] += $2; next }
f == 9 { calls = $1; next }
function x(a, b) { return b > 0 ? sprintf("%.2fx", a / b) : "-" }
function us(v) { return sprintf("%.0f", v) }
END {
	printf "## Fidelity: %s, %s%s, -%s, Linux %s\n\n", arch, cc == "clang" ? "Clang (LLVM=1)" : "GCC", variant, opt, kver
	printf "QEMU instruction counting (-icount shift=0,sleep=off): 1 instruction = 1 ns, deterministic.\n"
	printf "Kernels: vanilla; KFT compiled in, no run (idle); KFT with the default boot run (kft=, mintime 500).\n"
	printf "Each booted with initcall_debug.\n\n"
	printf "| | vanilla | KFT idle | x | KFT boot run | x |\n|---|---|---|---|---|---|\n"
	printf "| first user program, us | %s | %s | %s | %s | %s |\n", us(user[1]), us(user[3]),
		x(user[3], user[1]), us(user[5]), x(user[5], user[1])
	printf "| sum of initcalls (initcall_debug), us | %s | %s | %s | %s | %s |\n\n", us(sum[2]), us(sum[4]),
		x(sum[4], sum[2]), us(sum[6]), x(sum[6], sum[2])
	# One instruction a ns: what each call of the boot costs, idle and traced.
	if (calls > 0)
		printf "Instructions per call of the boot (%d calls to the first user program, the boot run's count): idle %.1f, the boot run %.1f more.\n\n",
			calls, (user[3] - user[1]) * 1000 / calls, (user[5] - user[3]) * 1000 / calls
	# The longest initcalls of the same kernel untraced, timed with a real clock.
	for (i = 1; i <= nv; i++) if (exact[order[i]] && !(order[i] in seen)) { seen[order[i]] = 1; cand[++nc] = order[i] }
	for (i = 1; i <= nc; i++) for (j = i + 1; j <= nc; j++)
		if (t[cand[j], 4] > t[cand[i], 4]) { s = cand[i]; cand[i] = cand[j]; cand[j] = s }
	printf "Initcalls timed with a real clock, longest %d of the KFT kernel's untraced (idle): initcall_debug's time\n", top
	printf "in vanilla and idle, and what kd --boot reports from the boot run's log: raw (kd --raw, the traced call's\n"
	printf "own duration) and compensated for the hooks' cost (kd's default), each against idle.\n\n"
	printf "| initcall | vanilla us | KFT idle us | boot run raw | x idle | compensated | x idle |\n|---|---|---|---|---|---|---|\n"
	for (i = 1; i <= nc && i <= top; i++) {
		c = cand[i]
		printf "| %s | %s | %s | %s | %s | %s | %s |\n", c, us(t[c, 2]), us(t[c, 4]),
			(c in raw) ? us(raw[c]) : "-", (c in raw) ? x(raw[c], t[c, 4]) : "-",
			(c in inkd) ? us(kd[c]) : "-", (c in inkd) ? x(kd[c], t[c, 4]) : "-"
	}
	# Rank: the untraced kernel's top five against kd --boot's, raw and compensated.
	for (c in kd) kds[++nk] = c
	for (i = 1; i <= nk; i++) for (j = i + 1; j <= nk; j++)
		if (kd[kds[j]] > kd[kds[i]]) { s = kds[i]; kds[i] = kds[j]; kds[j] = s }
	for (c in raw) raws[++nr] = c
	for (i = 1; i <= nr; i++) for (j = i + 1; j <= nr; j++)
		if (raw[raws[j]] > raw[raws[i]]) { s = raws[i]; raws[i] = raws[j]; raws[j] = s }
	printf "\nLongest five, KFT idle (initcall_debug, real clock): "
	for (i = 1; i <= 5 && i <= nc; i++) printf "%s%s", (i > 1 ? ", " : ""), cand[i]
	printf "\nLongest five, kd --boot, compensated:                "
	for (i = 1; i <= 5 && i <= nk; i++) printf "%s%s", (i > 1 ? ", " : ""), kds[i]
	printf "\nLongest five, kd --boot --raw:                       "
	for (i = 1; i <= 5 && i <= nr; i++) printf "%s%s", (i > 1 ? ", " : ""), raws[i]
	printf "\n\n"
}
