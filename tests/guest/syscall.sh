#!/bin/sh
# Trace one openat system call of a known process, from entry to exit of
# its kernel function, configured by function name.  kft-do primes the run
# itself, right before the call (kft record would poll meanwhile, and its
# calls would share the CPU the check keeps to the program); then the
# kernel threads' pids, which may run on that CPU too.
. /tests/lib.sh
set -e
cat > /proc/kft <<CFG
new
begin
  trigger start entry ${SYS}openat
  trigger stop exit ${SYS}openat
  logentries 20000
end
CFG
kft-do --prime openat /etc/hostname
echo "=== kthreads"
for d in /proc/[0-9]*; do
	[ -s "$d/cmdline" ] || printf '%s ' "${d#/proc/}"
done
echo
echo "=== status"
cat /proc/kft
echo "=== data"
cat /proc/kft_data
