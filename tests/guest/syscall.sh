#!/bin/sh
# Trace one openat system call of a known process, from entry to exit of
# its kernel function, configured by function name.
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
echo "=== status"
cat /proc/kft
echo "=== data"
cat /proc/kft_data
