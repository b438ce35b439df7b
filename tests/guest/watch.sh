#!/bin/sh
# watch worst-stack: every new low of the task stack inside one system call
# keeps its call chain in the log, marked -2.
. /tests/lib.sh
set -e
printf "new\ntrigger start entry ${SYS}sched_yield\ntrigger stop exit ${SYS}sched_yield\nwatch worst-stack 16384\nend\n" > /proc/kft
kft-do --prime yield 1
echo "=== status"
cat /proc/kft
echo "=== data"
cat /proc/kft_data
