#!/bin/sh
# The demo's dynamic run: one fork and exec of a small program, from the
# parent's entry to kernel_clone() (do_fork() in the seeds' days) to the
# return of its wait4(), configured by function name.  In between: the
# fork, the child's execve() and exit, the parent's wait.
. /tests/lib.sh
set -e
cat > /proc/kft <<CFG
new
begin
  trigger start entry kernel_clone
  trigger stop exit ${SYS}wait4
  logentries 200000
end
CFG
kft-do --prime exec /bin/true
echo "=== status"
cat /proc/kft
echo "=== data"
cat /proc/kft_data
