# SPDX-License-Identifier: GPL-2.0
#
# bench/steps.sh's raw data to a markdown table.  Input lines:
#   KERNEL RUN result MODE WORKLOAD NS_PER_OP OPS RECORDED LOST BYTES_PER_CALL
# KERNEL: vanilla, or the step the KFT kernel's hooks stopped after (0:
# whole).  -v arch=ARCH -v cc=COMPILER -v runs=N describe the run.
# Needs bench/stats.awk.

$3 == "result" {
	k = $1; r = $2; mode = $4; w = $5; ns = $6
	if (mode == "idle") {
		idle[k, r, w] = ns
		add("idle " k " " w, ns)
	} else if (mode == "kft-all") {
		traced[k, r, w] = ns
		add("traced " k " " w, ns)
		if (k == "0" && $8 > 0)
			calls[r, w] = $8 / $7
	} else if (mode == "kft-min100" && k == "0") {
		traced["min", r, w] = ns
		idle["min", r, w] = idle[k, r, w]
		add("traced min " w, ns)
	}
	if (r > nruns) nruns = r
}

END {
	nw = split("getppid open fork", wl, " ")
	nk = split("1 2 3 4 0 min", keys, " ")
	name["1"] = "1: call and return"
	name["2"] = "2: a clock read"
	name["3"] = "3: the bracket (preemption off)"
	name["4"] = "4: the bracket, the run's state, a clock read"
	name["0"] = "the whole hooks: every call logged"
	name["min"] = "the whole hooks: filter mintime 100, (nearly) every call dropped"
	for (r = 1; r <= nruns; r++)
		for (i = 1; i <= nw; i++)
			for (j = 1; j <= nk; j++) {
				k = keys[j]
				if (calls[r, wl[i]] && ((k, r, wl[i]) in traced))
					add("cost " k " " wl[i], (traced[k, r, wl[i]] - idle[k, r, wl[i]]) / calls[r, wl[i]])
			}
	printf "## The steps of a traced call (%s, %s, medians of %d boots)\n\n", arch, cc == "clang" ? "Clang" : "GCC", runs
	printf "Clock: %s.\n\n", clock
	printf "| the hooks do | getppid ns/call | open | fork | getppid x vanilla | open | fork |\n"
	printf "|---|---|---|---|---|---|---|\n"
	printf "| (not called: no run armed) | | | |"
	for (i = 1; i <= nw; i++) {
		v = median("idle vanilla " wl[i])
		printf " %s |", v ? sprintf("%.2f", median("idle 0 " wl[i]) / v) : "-"
	}
	printf "\n"
	for (j = 1; j <= nk; j++) {
		k = keys[j]
		printf "| %s |", name[k]
		for (i = 1; i <= nw; i++) {
			c = median("cost " k " " wl[i])
			printf " %s |", c == "" ? "-" : sprintf("%.0f", c)
		}
		for (i = 1; i <= nw; i++) {
			v = median("idle vanilla " wl[i]); t = median("traced " k " " wl[i])
			printf " %s |", v && t ? sprintf("%.2f", t / v) : "-"
		}
		printf "\n"
	}
	printf "\nCalls per operation (the whole hooks' run): "
	for (i = 1; i <= nw; i++) {
		for (r = 1; r <= nruns; r++)
			if (calls[r, wl[i]]) add("calls " wl[i], calls[r, wl[i]])
		c = median("calls " wl[i])
		printf "%s %s%s", wl[i], c == "" ? "-" : sprintf("%.1f", c), i < nw ? ", " : ".\n"
	}
}
