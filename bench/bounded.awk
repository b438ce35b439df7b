# SPDX-License-Identifier: GPL-2.0
#
# make bench-bounded's report (bench/bounded.sh).  Files, in order:
#   System.map                 the kernel's functions (t, T, w, W)
#   PROF                       bench/insn_profile.c's "ADDR COUNT" lines
#   BOUNDED                    kftsites --bounded: "NAME BOUND" or
#                              "NAME - WHY [WHERE]", and a "#" summary
# A function's calls are its first instruction's count (a static
# function's name may have several addresses: their counts added).
# -v title=... -v top=N.

function why(   w) {
	if ($3 == "calls")
		return $4 == "outside" ? "calls outside vmlinux.o" : "calls an unbounded function"
	if ($3 == "recursion")
		return "recursion"
	w = $3
	for (i = 4; i <= NF && $i != "at"; i++)
		w = w " " $i
	return w
}

FILENAME == ARGV[1] {
	if (tolower($2) == "t" || tolower($2) == "w")
		addrs[$3] = addrs[$3] " " tolower($1)
	next
}
FILENAME == ARGV[2] {
	if ($1 !~ /^#/)
		count[tolower($1)] = $2
	next
}
/^#/ { summary = $0; next }
{
	n = split(addrs[$1], a, " ")
	c = 0
	for (i = 1; i <= n; i++)
		c += count[a[i]]
	if (!c)
		next
	calls += c
	if ($2 != "-") {
		bounded += c
		byfn[$1] += c
		cls = $2 <= 100 ? "up to 100" : $2 <= 1000 ? "101 to 1000" : "more than 1000"
		bybound[cls] += c
	} else {
		bywhy[why()] += c
	}
}
END {
	printf "## %s: the default boot run's calls by what bounds their function\n\n", title
	sub(/^# [^:]*: /, "", summary)
	printf "vmlinux.o (kftsites --bounded): %s.  The boot run, start_kernel() to run_init_process(): %d calls of instrumented functions.\n\n", summary, calls
	printf "| function | calls | share |\n|---|---|---|\n"
	printf "| **bounded** | **%d** | **%.1f%%** |\n", bounded, calls ? 100 * bounded / calls : 0
	split("up to 100|101 to 1000|more than 1000", order, "|")
	for (i = 1; i <= 3; i++)
		if (bybound[order[i]])
			printf "| bounded, %s instructions | %d | %.1f%% |\n", order[i], bybound[order[i]], 100 * bybound[order[i]] / calls
	n = 0
	for (w in bywhy)
		keys[++n] = w
	for (i = 1; i <= n; i++)	# by calls, most first
		for (j = i + 1; j <= n; j++)
			if (bywhy[keys[j]] > bywhy[keys[i]]) {
				t = keys[i]; keys[i] = keys[j]; keys[j] = t
			}
	for (i = 1; i <= n; i++)
		printf "| no bound: %s | %d | %.1f%% |\n", keys[i], bywhy[keys[i]], 100 * bywhy[keys[i]] / calls
	printf "\nThe bounded functions called most: "
	for (k = 0; k < top; k++) {
		best = ""
		for (f in byfn)
			if (best == "" || byfn[f] > byfn[best])
				best = f
		if (best == "")
			break
		printf "%s%s %d", k ? ", " : "", best, byfn[best]
		delete byfn[best]
	}
	printf ".\n\n"
}
