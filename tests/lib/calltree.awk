# SPDX-License-Identifier: GPL-2.0
#
# Check the call structure of a KFT log resolved by addr2sym: rebuild the
# call trees of each task on each CPU (interrupts, pid -1, are a task of
# their own there) from entry times and durations, and say what does not
# hold.  A CPU's calls alone do not nest: a CPU switches tasks inside a
# call (idle's schedule_idle() runs a kthread, then returns).  Prints "root NAME PID DELTA CPU" for the first call, "child NAME"
# for its direct children, "call NAME PID CPU" for every call, "calls N", and an
# "error ..." line for each broken rule:
#  - entry times never go backwards;
#  - a call ends before its caller does;
#  - the durations of a call's direct callees add up to at most its own.
#
# Data lines: entry delta pid function caller cpu.  Delta -1 (exit not
# seen) and -2 (stack watch) have no end: they are leaves.

BEGIN { data = 0; n = 0; eps = 0.002 }
/^------/ { data = 1; next }
!data || NF == 0 { next }
NF < 6 { printf "error line %d: only %d fields\n", NR, NF; next }

function close_call(c,   d) {
	d = depth[c]--
	if (sum[c, d] > dur[c, d] + eps)
		printf "error %s (line %d): callees add up to %.3f us, more than its %.3f us\n",
			name[c, d], line[c, d], sum[c, d], dur[c, d]
}

{
	entry = $1 + 0; delta = $2 + 0; pid = $3; fn = $4; cpu = $6
	k = cpu "/" pid
	if (n && entry + eps < last)
		printf "error line %d: entry %s comes before the previous %s\n", NR, $1, last
	last = entry
	n++
	printf "call %s %s %s\n", fn, pid, cpu
	if (n == 1)
		printf "root %s %s %s %s\n", fn, pid, $2, cpu
	while (depth[k] > 0 && entry >= end[k, depth[k]] - eps)
		close_call(k)
	if (depth[k] > 0) {
		p = depth[k]
		if (delta >= 0 && entry + delta > end[k, p] + eps)
			printf "error line %d: %s ends at %.3f, after its caller %s (%.3f)\n",
				NR, fn, entry + delta, name[k, p], end[k, p]
		if (delta >= 0)
			sum[k, p] += delta
		if (root[k, p])
			printf "child %s\n", fn
	}
	if (delta >= 0) {
		d = ++depth[k]
		end[k, d] = entry + delta; dur[k, d] = delta
		name[k, d] = fn; line[k, d] = NR; sum[k, d] = 0
		root[k, d] = (n == 1)
	}
}

END {
	for (c in depth)
		while (depth[c] > 0)
			close_call(c)
	printf "calls %d\n", n
	if (!n)
		print "error no calls in the log"
}
