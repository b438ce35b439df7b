#!/bin/sh
# Each trigger and filter on a real workload.  For each run, prints
# "=== run NAME" then /proc/kft_data; the host checks the data.
. /tests/lib.sh
set -e
live() {	# a run primed or triggered
	grep -q '^state: \(primed\|triggered\)' /proc/kft
}
run() {	# run NAME: print the finished run's log
	# A time trigger may stop the run between the test and the stop.
	if live; then
		echo stop > /proc/kft 2>/dev/null ||
			grep -q '^state: complete' /proc/kft
	fi
	echo "=== run $1"
	cat /proc/kft_data
}
cfg() { printf 'new\n%s\nend\n' "$1" > /proc/kft; }
openat="trigger start entry ${SYS}openat
trigger stop exit ${SYS}openat"

cfg "$openat
filter funclist do_sys_openat2 getname_flags $FILE_OPEN fend"
kft-do --prime openat /etc/hostname > /dev/null
run funclist

cfg "$openat
filter mintime 20"
kft-do --prime openat /etc/hostname > /dev/null
run mintime

cfg "$openat
filter maxtime 2"
kft-do --prime openat /etc/hostname > /dev/null
run maxtime

# Interrupt filters over 40 ms of forks (timer ticks every 4 ms).
cfg "trigger stop time 40ms
filter noints
logentries 1000000"
echo prime > /proc/kft
kft-do fork 100 > /dev/null
run noints

cfg "trigger stop time 40ms
filter onlyints
logentries 1000000"
echo prime > /proc/kft
kft-do fork 100 > /dev/null
run onlyints

# Time triggers: learn the run clock's "now" from a user-started run, then
# ask for a start MARGIN us later.  Priming patches every hook site, which
# under TCG on a busy host can outlast the margin (arm with Clang: 22300
# sites; riscv64 once took 57 s while the host built kernels); then the
# run starts at the first call after the prime, late, and says nothing of
# the trigger.  The run clock after the prime, from /proc/uptime (10 ms
# steps, behind the run clock by an offset read before the start: never
# an underestimate) tells; a late prime is stopped (unless the run has
# run its course already) and retried with a margin of twice what that
# one took.
uptime_us() { awk '{ printf "%d", $1 * 1000000 }' /proc/uptime; }
margin=200000
for try in 1 2 3 4; do
	cfg "filter funclist to_userspace"
	up=$(uptime_us)
	echo start > /proc/kft
	echo stop > /proc/kft
	now=$(sed -n 's/^Logging started at \([0-9]*\) usec.*/\1/p' /proc/kft_data)
	at=$((now + margin))
	cfg "trigger start time $at
trigger stop time 50ms
filter mintime 1ms
logentries 100000"
	echo prime > /proc/kft
	primed=$(($(uptime_us) + now - up))
	echo "=== time trigger: margin $margin us, primed by $primed us"
	[ $((primed + 50000)) -lt "$at" ] && break
	! live || echo stop > /proc/kft 2>/dev/null || ! live
	margin=$((2 * (primed - now) + 200000))
done
echo "=== asked start $at stop-after 50000"
# Calls until the run is complete, or 10 s after it should have been.
deadline=$((at - now + up + 50000 + 10000000))
while live && [ "$(uptime_us)" -lt $deadline ]; do
	kft-do fork 20 > /dev/null
done
run time

# autorepeat: five sched_yield calls, five start/stop rounds, one log.
cfg "trigger start entry ${SYS}sched_yield
trigger stop exit ${SYS}sched_yield
autorepeat"
kft-do --prime yield 5 > /dev/null
run autorepeat

# Scope.  filter pid: the shell's own calls (it forks kft-do, waits).
cfg "trigger stop time 30ms
filter pid $$
logentries 1000000"
echo "=== pid pid $$"
echo prime > /proc/kft
kft-do fork 5 > /dev/null
run pid

# filter comm: kft-do and its forks (named kft-do too), not this shell;
# until kft-do has waited for its first child.
cfg "trigger stop exit ${SYS}wait4
filter comm kft-do
logentries 1000000"
echo prime > /proc/kft
kft-do fork 20 > /tmp/kft-do.out
echo "=== pid comm $(sed -n 's/^kft-do: pid //p' /tmp/kft-do.out)"
run comm

# filter children: kft-do primes (it starts the run), forks, execs true,
# waits; nothing else.
cfg "trigger stop exit ${SYS}wait4
filter children
logentries 1000000"
kft-do --prime exec /bin/true > /tmp/kft-do.out
echo "=== pid children $(sed -n 's/^kft-do: pid //p' /tmp/kft-do.out)"
run children

# filter depth 2: the system call and two levels below it.
cfg "$openat
filter depth 2"
kft-do --prime openat /etc/hostname > /dev/null
run depth

# filter notunder: openat without the path walk.
cfg "$openat
filter notunder $FILE_OPEN"
kft-do --prime openat /etc/hostname > /dev/null
run notunder

# The clocksource at the end: the time filters and triggers read the TSC
# only while the kernel trusts it (the watchdog can withdraw that).
echo "=== clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null)"
