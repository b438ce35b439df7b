# SPDX-License-Identifier: GPL-2.0
#
# Turn bench/run.sh's raw data into the markdown report.  Input lines:
#   KERNEL RUN boot SECONDS
#   KERNEL RUN result MODE WORKLOAD NS_PER_OP OPS RECORDED LOST BYTES_PER_CALL
#   tools SHAPE MODE LINES_PER_SECOND PEAK_KB
# -v arch=ARCH -v runs=N -v cc=COMPILER -v kver=VERSION -v variant=FRAGMENT
# (the KFT kernel's, if any) describe the kernels.
# Needs bench/stats.awk.

function range(key, fmt,   a, n) {
	n = sorted(key, a)
	if (!n) return "-"
	return sprintf(fmt " [" fmt "-" fmt "]", median(key), a[1], a[n])
}
function spread(key,   a, n, m) {
	n = sorted(key, a); m = median(key)
	return m ? 100 * (a[n] - a[1]) / m : 0
}

$1 == "tools" { tools[$2 " " $3] = $4; toolmem[$2 " " $3] = $5; ntools++; next }
$3 == "boot" { add("boot " $1, $4); next }
$3 == "result" {
	k = $1; r = $2; mode = $4; w = $5; ns = $6; ops = $7; rec = $8
	m = (mode == "idle") ? k " idle" : mode
	add("ns " m " " w, ns)
	idle_ns[k, r, w] = (mode == "idle") ? ns : idle_ns[k, r, w]
	if (mode != "idle") {
		pend[++np] = k SUBSEP r SUBSEP mode SUBSEP w SUBSEP ns SUBSEP ops SUBSEP rec
		add("lost " mode " " w, $9); add("bpc " mode " " w, $10)
		add("rec " mode " " w, rec / ops)
	}
	workloads[w] = 1
	next
}

END {
	nw = split("getppid open fork", wl, " ")
	for (i = 1; i <= np; i++) {
		split(pend[i], f, SUBSEP)
		base = idle_ns[f[1], f[2], f[4]]
		if (f[7] > 0)
			add("cost " f[3] " " f[4], (f[5] - base) * f[6] / f[7])
	}
	if (!np) {
		if (ntools)
			host_tools()
		exit
	}
	printf "# KFT benchmark, %s, %s\n\n", arch, cc == "clang" ? "Clang (LLVM=1)" : "GCC"
	printf "Kernels: tinyconfig-based reference config, %s, %s, Linux %s; QEMU without KVM, 1 CPU; %d boots each.\n", arch, cc, kver, runs
	if (variant != "")
		printf "The KFT kernel adds the config fragment %s.\n", variant
	printf "Values: median [min-max] over the boots.  Ratios compare medians measured in this run.\n"
	printf "Clock: %s.\n\n", clock

	printf "## Boot: kernel start to the first user program (s)\n\n"
	printf "| kernel | time | ratio to vanilla | spread |\n|---|---|---|---|\n"
	vb = median("boot vanilla")
	for (i = 1; i <= 3; i++) {
		k = (i == 1) ? "vanilla" : (i == 2) ? "kft" : "ftrace"
		printf "| %s, nothing traced | %s | %.3f | %.0f%% |\n", k, range("boot " k, "%.3f"),
			vb ? median("boot " k) / vb : 0, spread("boot " k)
	}

	printf "\n## Microbenchmark: ns per operation, and ratio to vanilla\n\n"
	printf "| kernel, tracing |"
	for (j = 1; j <= nw; j++) printf " %s | ratio |", wl[j]
	printf "\n|---|"
	for (j = 1; j <= nw; j++) printf "---|---|"
	printf "\n"
	nm = split("vanilla idle|kft idle|kft-all|kft-min100|ftrace idle|fgraph-all|fgraph-thresh100", ml, "|")
	label["vanilla idle"] = "vanilla, nothing"
	label["kft idle"] = "KFT, nothing (no run armed)"
	label["kft-all"] = "KFT, every call"
	label["kft-min100"] = "KFT, filter mintime 100"
	label["ftrace idle"] = "ftrace, nothing (nop tracer)"
	label["fgraph-all"] = "function_graph, every call"
	label["fgraph-thresh100"] = "function_graph, tracing_thresh 100"
	for (i = 1; i <= nm; i++) {
		printf "| %s |", label[ml[i]]
		for (j = 1; j <= nw; j++) {
			v = median("ns vanilla idle " wl[j])
			printf " %s | %.2f |", range("ns " ml[i] " " wl[j], "%.0f"),
				v ? median("ns " ml[i] " " wl[j]) / v : 0
		}
		printf "\n"
	}

	printf "\n## Cost per recorded call\n\n"
	printf "Extra time over the same kernel with nothing traced, divided by the calls recorded.\n\n"
	printf "| tracing | workload | calls recorded per op | ns per recorded call | bytes per call | calls lost |\n|---|---|---|---|---|---|\n"
	nt = split("kft-all|kft-min100|fgraph-all|fgraph-thresh100", tl, "|")
	for (i = 1; i <= nt; i++)
		for (j = 1; j <= nw; j++)
			printf "| %s | %s | %.1f | %s | %s | %s |\n", label[tl[i]], wl[j],
				median("rec " tl[i] " " wl[j]), range("cost " tl[i] " " wl[j], "%.0f"),
				median("bpc " tl[i] " " wl[j]), median("lost " tl[i] " " wl[j])
	printf "\n## KFT against function_graph, tracing every call\n\n"
	printf "| workload | KFT ns/call | function_graph ns/call | KFT / function_graph |\n|---|---|---|---|\n"
	for (j = 1; j <= nw; j++) {
		a = median("cost kft-all " wl[j]); b = median("cost fgraph-all " wl[j])
		printf "| %s | %.0f | %.0f | %.2f |\n", wl[j], a, b, b ? a / b : 0
	}
	if (ntools)
		host_tools()
}

function host_tools(   nm, mode, m, ns, shape, k, t) {
	printf "\n## Host tools\n\n"
	printf "Logs from bench/genlog.c, 150,000 symbols: plain, 10,000,000 lines; the\n"
	printf "other shapes 2,000,000 lines (open: calls that never exit, runs repeated;\n"
	printf "irq26: 2.6-era interrupt blocks; tasks: 5,000 tasks).  Million lines/s,\n"
	printf "and peak memory in MB:\n\n"
	nm = split("addr2sym kd-summary kd-tree kd-tree-r kd-tree-i", mode, " ")
	printf "| shape |"
	for (m = 1; m <= nm; m++)
		printf " %s |", mode[m]
	printf "\n|---|"
	for (m = 1; m <= nm; m++)
		printf "---|"
	printf "\n"
	ns = split("plain open irq26 tasks", shape, " ")
	for (k = 1; k <= ns; k++) {
		printf "| %s |", shape[k]
		for (m = 1; m <= nm; m++) {
			t = shape[k] " " mode[m]
			if (t in tools)
				printf " %.2f (%.0f MB) |", tools[t] / 1e6, toolmem[t] / 1024
			else
				printf " - |"
		}
		printf "\n"
	}
}
