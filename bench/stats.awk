# SPDX-License-Identifier: GPL-2.0
#
# The benchmarks' reports (report.awk, idle.awk, steps.awk; run with
# -f bench/stats.awk first): values gathered under a key, and their median.

function add(key, v) { vals[key] = (key in vals) ? vals[key] " " v : v }
# key's values, sorted into a[1..n]; n.
function sorted(key, a,   n, i, j, t) {
	n = split(vals[key], a, " ")
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
		}
	return n
}
# Their median; "" if none.
function median(key,   a, n) {
	n = sorted(key, a)
	if (!n) return ""
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
