#!/bin/sh
# The boot run's log, if the kernel has one (make fidelity boots kernels
# without KFT, and KFT kernels without a run, for their initcall_debug
# lines alone).
[ -r /proc/kft_data ] || exit 0
grep -q "No logging run registered" /proc/kft && exit 0
echo "=== data"
cat /proc/kft_data
