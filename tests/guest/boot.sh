#!/bin/sh
# Read back the boot run (kft= or kftstatic.conf): what it logged from
# kernel start to the first user program.
echo "=== status"
cat /proc/kft
echo "=== data"
cat /proc/kft_data
# The boot run is over: within seconds the hooks' call sites become NOPs.
. /tests/lib.sh
sites_become NOPs
echo "=== sites"
grep '^hook sites:' /proc/kft
