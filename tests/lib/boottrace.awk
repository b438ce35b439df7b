# SPDX-License-Identifier: GPL-2.0
#
# Check a boot run's log resolved by addr2sym (tests/e2e/test_boot_run.sh).
# Rebuilds each task's call nesting from entry times and durations (a task
# runs on one CPU at a time; each CPU has its own idle task, pid 0;
# interrupt calls, pid -1, are left out) and prints:
#   first NAME PID ENTRY      the first logged call
#   chain NAME CALLER ...     a call's callers, innermost first, for the
#                             first call of each function
#   calls N
#   error ...                 for each broken rule:
#     - entry times are non-zero and never go backwards;
#     - a call with a duration lasts at least mintime (the trigger
#       functions excepted: their calls are logged whatever their length);
#     - a call ends before its caller does (to the log's precision: a
#       duration of 2^31 ns or more is kept to the microsecond, cut).
# -v mintime=US -v keep="fn fn" (functions exempt from mintime).

BEGIN { data = 0; n = 0; eps = 0.002; split(keep, k); for (i in k) exempt[k[i]] = 1 }
/^------/ { data = 1; next }
!data || NF == 0 { next }
NF < 6 { printf "error line %d: only %d fields\n", NR, NF; next }
{
	entry = $1 + 0; delta = $2 + 0; pid = $3; fn = $4; cpu = $6
	if (!n)
		printf "first %s %s %s\n", fn, pid, $1
	n++
	if (entry <= 0)
		printf "error line %d: %s entered at %s\n", NR, fn, $1
	if (entry + eps < last)
		printf "error line %d: entry %s comes before the previous %s\n", NR, $1, last
	last = entry
	if (delta >= 0 && delta + eps < mintime && !(fn in exempt))
		printf "error line %d: %s lasted %s us, under mintime %s\n", NR, fn, $2, mintime
	if (pid == -1)
		next
	if (pid == 0)
		pid = "0." cpu
	end = delta >= 0 ? entry + delta : -1	# -1: still open at the end
	d = depth[pid]
	while (d > 0 && send[pid, d] >= 0 && entry >= send[pid, d] - eps)
		d--
	if (d > 0 && end >= 0 && send[pid, d] >= 0 && end > send[pid, d] + stol[pid, d])
		printf "error line %d: %s ends at %.3f, after its caller %s (%.3f)\n",
			NR, fn, end, sname[pid, d], send[pid, d]
	if (!(fn in seen)) {
		seen[fn] = 1
		c = "chain " fn
		for (i = d; i > 0; i--)
			c = c " " sname[pid, i]
		print c
	}
	d++
	sname[pid, d] = fn; send[pid, d] = end
	stol[pid, d] = delta >= 2147483.648 ? 1 + eps : eps
	depth[pid] = d
}
END { printf "calls %d\n", n }
