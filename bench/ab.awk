# SPDX-License-Identifier: GPL-2.0
#
# bench/ab.sh's raw data to a markdown table.  Input lines:
#   KERNEL RUN result MODE WORKLOAD NS_PER_OP OPS RECORDED LOST BYTES_PER_CALL
# KERNEL: a (the revision) or b (the working tree).  -v arch=ARCH
# -v cc=COMPILER -v runs=N -v a=REVISION describe the run.  Needs
# bench/stats.awk.

$3 == "result" {
	k = $1; r = $2; mode = $4; w = $5
	ns[k, r, mode, w] = $6
	# Calls per operation, from the run that logs every call.
	if (mode == "kft-all" && $7 > 0)
		calls[k, r, w] = $8 / $7
	seen[k, r] = 1
}

END {
	nw = split("getppid open fork", wl, " ")
	split("kft-all kft-min100", modes, " ")
	name["kft-all"] = "every call logged"
	name["kft-min100"] = "filter mintime 100, (nearly) every call dropped"
	for (key in seen) {
		split(key, kr, SUBSEP)
		for (i = 1; i <= nw; i++)
			for (m = 1; m <= 2; m++) {
				k = kr[1]; r = kr[2]; w = wl[i]; mode = modes[m]
				if (!calls[k, r, w] || !((k, r, mode, w) in ns) ||
				    !((k, r, "idle", w) in ns))
					continue
				add(k " " mode " " w, (ns[k, r, mode, w] - ns[k, r, "idle", w]) / calls[k, r, w])
			}
	}
	printf "## A/B: KFT at %s (A) against the working tree (B), %s, %s, %d boots each\n\n", a, arch, cc, runs
	print "ns per traced call: median [min-max] over the boots; B/A compares the medians."
	print "Clock: " clock "."
	print ""
	print "| tracing | workload | A | B | B/A |"
	print "|---|---|---|---|---|"
	for (m = 1; m <= 2; m++)
		for (i = 1; i <= nw; i++) {
			w = wl[i]; mode = modes[m]
			ma = median("a " mode " " w); mb = median("b " mode " " w)
			if (ma == "" || mb == "")
				continue
			na = sorted("a " mode " " w, va); nb = sorted("b " mode " " w, vb)
			printf "| %s | %s | %.0f [%.0f-%.0f] | %.0f [%.0f-%.0f] | %.3f |\n", name[mode], w,
			       ma, va[1], va[na], mb, vb[1], vb[nb], (ma > 0 ? mb / ma : 0)
		}
}
