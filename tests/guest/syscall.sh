#!/bin/sh
# Trace one openat system call of a known process, from entry to exit of
# its kernel function, configured by function name, recorded by kft (the
# target's recorder, scripts/kft.c).
. /tests/lib.sh
set -e
kft record -e "trigger start entry ${SYS}openat
trigger stop exit ${SYS}openat
logentries 20000" -o /tmp/syscall.log -- kft-do openat /etc/hostname
echo "=== status"
cat /proc/kft
echo "=== data"
cat /tmp/syscall.log
