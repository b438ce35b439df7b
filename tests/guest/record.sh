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
