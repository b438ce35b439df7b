#!/bin/sh
# The demo's dynamic run: one fork and exec of a small program, from the
# parent's entry to kernel_clone() (do_fork() in the seeds' days) to the
# return of its wait4(), configured by function name.  In between: the
# fork, the child's execve() and exit, the parent's wait.  kft record (the
# target's recorder, scripts/kft.c) is the parent.
. /tests/lib.sh
set -e
kft record -e "trigger start entry kernel_clone
trigger stop exit ${SYS}wait4
logentries 200000" -o /tmp/fork.log -- /bin/true
echo "=== status"
cat /proc/kft
echo "=== data"
cat /tmp/fork.log
