# SPDX-License-Identifier: GPL-2.0
#
# make bench-idle: where an idle KFT kernel's extra instructions go.
#   awk -v title=... -v top=N -f bench/idle_profile.awk \
#	KFT.sites VANILLA.map VANILLA.prof KFT.map KFT.prof
# .map: "ADDR NAME" text symbols; .prof: "ADDR COUNT" (bench/insn_profile.c,
# the instructions each ran from start_kernel() to run_init_process());
# .sites: "ADDR enter|exit|arg" for KFT's hook call sites (NOPs while idle)
# and the instructions that only set up their arguments, just before them
# (bench/idle_sites.awk).  Each count goes to the function holding its
# address; the KFT kernel's excess is split into its sites, their
# arguments, KFT's own functions, and per function what is left.
# Addresses are hex strings of one width per kernel.

function hexlt(a, b) { return length(a) < length(b) || (length(a) == length(b) && a < b) }

# Binary search: the symbol at or below address a in map k; at_entry
# tells whether a is the symbol's own address.
function owner(k, a,    lo, hi, mid) {
	lo = 1; hi = nsym[k]
	at_entry = 0
	if (!hi || hexlt(a, sa[k, 1]))
		return "(before the first symbol)"
	while (lo < hi) {
		mid = int((lo + hi + 1) / 2)
		if (hexlt(a, sa[k, mid])) hi = mid - 1; else lo = mid
	}
	at_entry = sa[k, lo] == a
	return sn[k, lo]
}

# GCC's clones (.constprop.N, .isra.N, .part.N, .cold) count as their
# function: the two builds clone differently.
function base(f) { sub(/\..*/, "", f); return f }

function kft_own(f) { return f ~ /^(__cyg_profile_func_|kft_|__kft_)/ }
function m(x) { return sprintf("%8.2f M", x / 1e6) }

FNR == 1 { file++ }
file == 1 { site[$1] = $2; next }
file == 2 || file == 4 {
	k = file == 2 ? "v" : "k"
	sa[k, ++nsym[k]] = $1; sn[k, nsym[k]] = base($2)
	next
}
file == 3 || file == 5 {
	k = file == 3 ? "v" : "k"
	f = owner(k, $1)
	if (at_entry) entries[k, f] += $2
	total[k] += $2
	if (k == "k" && ($1 in site)) {
		kind = site[$1]
		bykind[kind] += $2
		if (kind == "arg") args[f] += $2; else sites[f] += $2
		next
	}
	fn[k, f] += $2
	seen[f] = 1
}

END {
	if (!total["v"] || !total["k"]) {
		print "idle_profile: an empty profile" > "/dev/stderr"
		exit 1
	}
	for (f in seen) {
		v = fn["v", f]; x = fn["k", f]
		if (kft_own(f)) { own += x - v; continue }
		if (v && x) { both += x - v; d[f] = x - v }
		else if (x) { only_k += x; only_k_calls += entries["k", f]; ool[f] = entries["k", f] }
		else only_v += v
	}
	hooks = entries["k", "__cyg_profile_func_enter"] + entries["k", "__cyg_profile_func_exit"]
	ex = total["k"] - total["v"]
	calls = bykind["enter"]
	nop = bykind["enter"] + bykind["exit"]
	rest = both + only_k - only_v
	printf "%s: kernel instructions from start_kernel() to run_init_process()\n\n", title
	printf "  vanilla                                        %s\n", m(total["v"])
	printf "  KFT, no run (idle)                             %s  %.3fx vanilla\n", m(total["k"]), total["k"] / total["v"]
	printf "  KFT's excess                                   %s  100.0%%  %5.2f a call\n", m(ex), ex / calls
	printf "    hook call sites, NOPs (entry and exit)       %s  %5.1f%%  %5.2f a call\n", m(nop), 100 * nop / ex, nop / calls
	printf "    their arguments, set up just before them     %s  %5.1f%%  %5.2f a call\n", m(bykind["arg"]), 100 * bykind["arg"] / ex, bykind["arg"] / calls
	printf "    KFT's own functions                          %s  %5.1f%%  %5.2f a call\n", m(own), 100 * own / ex, own / calls
	printf "      (the hooks called %d times: tail calls to the exit hook, and calls before the sites are NOPs)\n", hooks
	printf "    the rest: the code around the calls          %s  %5.1f%%  %5.2f a call\n", m(rest), 100 * rest / ex, rest / calls
	printf "      (registers kept across the hooks, frames, functions kept out of line; of it\n"
	printf "      %.2f M is in functions only KFT's kernel runs, called %d times, moved from their callers\n", only_k / 1e6, only_k_calls
	printf "      in vanilla, and %.2f M in functions only vanilla runs)\n", -only_v / 1e6
	printf "  calls (entry sites run): %d\n\n", calls
	top_list(d, "functions both kernels run, by extra instructions besides sites and arguments")
	top_list(ool, "functions only KFT's kernel runs (kept out of line), by calls")
}

# The top entries of array a, largest first (selection: top is small).
function top_list(a, what,    n, i, j, b, t, f, order) {
	printf "  %s (top %d):\n", what, top
	n = 0
	for (f in a) if (a[f] > 0) order[++n] = f
	for (i = 1; i <= top && i <= n; i++) {
		b = i
		for (j = i + 1; j <= n; j++) if (a[order[j]] > a[order[b]]) b = j
		t = order[i]; order[i] = order[b]; order[b] = t
		f = order[i]
		printf "    %-40s %10d   vanilla %10d  KFT %10d\n", f, a[f], fn["v", f], fn["k", f]
	}
	print ""
}
