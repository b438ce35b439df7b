#!/bin/sh
# kft, the target's recorder (scripts/kft.c): a refused config, then one
# openat() of kft-do recorded with its symbols, for the host to resolve.
. /tests/lib.sh
echo "=== refused"
kft record -e 'filter bogus' -o /tmp/bad.log -- true 2>&1
echo "rc $?"
echo "=== record"
kft record -e "trigger start entry ${SYS}openat
trigger stop exit ${SYS}openat" -o /tmp/r.log -- kft-do openat /etc/hostname 2>&1
echo "rc $?"
echo "=== status"
kft status | sed -n 's/^state: /state /p'
echo "=== data"
cat /tmp/r.log
echo "=== syms"
cat /tmp/r.log.syms
# Two records at once: the second's config replaces the first's run; the
# first says so and saves nothing (it used to save the second's log as
# its own), the second records as usual.
echo "=== two"
kft record -e "trigger start entry ${SYS}sched_yield
trigger stop exit ${SYS}sched_yield" -o /tmp/a.log -- sleep 3 > /tmp/a.out 2>&1 &
a=$!
sleep 1
kft record -e "trigger start entry ${SYS}openat
trigger stop exit ${SYS}openat" -o /tmp/b.log -- kft-do openat /etc/hostname > /tmp/b.out 2>&1
echo "b rc $?"
wait $a
echo "a rc $?"
sed 's/^/a: /' /tmp/a.out
sed 's/^/b: /' /tmp/b.out
[ -e /tmp/a.log ] && echo "a saved" || echo "a not saved"
echo "b run $(sed -n 's/^Kernel Instrumentation Run ID //p' /tmp/b.log)"
# A command that cannot be run: exit 127, nothing saved.
kft record -e '' -o /tmp/c.log -- /no/such/cmd 2>&1
echo "c rc $?"
[ -e /tmp/c.log ] && echo "c saved" || echo "c not saved"
