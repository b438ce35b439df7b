# SPDX-License-Identifier: GPL-2.0
#
# bench/realcpu: realcpu.sh's samples.txt as a table, with the verdict.
# A line: CC ROUND VARIANT PHASE NS [CALLS LOGGED DROPPED LOGGED OWN RAW_NS] CLEAN;
# VARIANT a, b (TSC around the phase), every or mintime (kd's compensated
# time of the phase's call, and its raw time).  limit: the criterion, the
# largest |compensated / (b) - 1| that passes; reps: repeats a run.
# Beside the medians' ratios, the best round's compensated time over the
# best round's (b): noise only adds time, so the least disturbed pair.

function med(list, n,    v, i, j, t, k) {
	k = split(list, v, " ")
	for (i = 2; i <= k; i++)
		for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) {
			t = v[j]; v[j] = v[j - 1]; v[j - 1] = t
		}
	lo = v[1]; hi = v[k]
	return k % 2 ? v[(k + 1) / 2] : (v[k / 2] + v[k / 2 + 1]) / 2
}

# "median (spread%)" of a list of ns, as ms.
function cell(list,    m) {
	m = med(list)
	return sprintf("%.3f (%.1f%%)", m / 1e6, m ? 100 * (hi - lo) / m : 0)
}

{
	nclean += $NF; nreps += reps; dirty += !$NF
	key = $1 SUBSEP $4
	if ($3 == "a" || $3 == "b") {
		t[$3, key] = t[$3, key] " " $5
		if (!seen[key]++) {
			order[++n] = key
		}
		next
	}
	k = $1 SUBSEP $3 SUBSEP $4
	comp[k] = comp[k] " " $5
	raw[k] = raw[k] " " $11
	calls[k] = calls[k] " " $6
	logged[k] = logged[k] " " $7
	cost[k] = cost[k] " " (($6 - $7) * $8 + $7 * $9) / ($6 ? $6 : 1)
}

END {
	printf "| program/compiler | run | phase | (a) none | (b) empty hooks | (c) raw | (c) compensated | comp/(b) | comp/(a) | best/best (b) | calls | in place ns/call | calibrated ns/call | within %d%% of (b) |\n", limit * 100
	print "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
	fails = 0
	nk = split("every mintime", kindlist, " ")
	for (i = 1; i <= n; i++) {
		split(order[i], kp, SUBSEP)
		for (ki = 1; ki <= nk; ki++) {
			kind = kindlist[ki]
			k = kp[1] SUBSEP kind SUBSEP kp[2]
			if (!(k in comp))
				continue
			ma = med(t["a", order[i]]); ca = cell(t["a", order[i]])
			mb = med(t["b", order[i]]); cb = cell(t["b", order[i]]); lb = lo
			mr = med(raw[k]); cr = cell(raw[k])
			mc = med(comp[k]); cc = cell(comp[k]); lc = lo
			nc = med(calls[k])
			rb = mb ? mc / mb : 0
			ok = rb >= 1 - limit && rb <= 1 + limit
			fails += !ok
			total++
			printf "| %s | %s | %s | %s | %s | %s | %s | %.2fx | %.2fx | %.2fx | %d | %.1f | %.1f | %s |\n",
				kp[1], kind, kp[2], ca, cb, cr, cc, rb, ma ? mc / ma : 0, lb ? lc / lb : 0, nc,
				nc ? (mr - mb) / nc : 0, med(cost[k]), ok ? "PASS" : "FAIL"
		}
	}
	if (!total) {
		print "realcpu: no phase measured" > "/dev/stderr"
		exit 1
	}
	printf "\nrepeats without a context switch: %d of %d (%d times a run had none of a phase: its best of all)\n",
		nclean, nreps, dirty
	printf "\nverdict: %s (%d of %d phases within %d%% of the empty-hooks build)\n",
		fails ? "FAIL" : "PASS", total - fails, total, limit * 100
}
