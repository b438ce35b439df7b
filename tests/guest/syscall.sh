#!/bin/sh
# Trace one openat system call of a known process, from entry to exit of
# its kernel function, configured by function name.
set -e
cat > /proc/kft <<CFG
new
begin
  trigger start entry __x64_sys_openat
  trigger stop exit __x64_sys_openat
  logentries 20000
end
CFG
kft-do --prime openat /etc/hostname
echo "=== status"
cat /proc/kft
echo "=== data"
cat /proc/kft_data
