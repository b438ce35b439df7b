#!/bin/sh
# Read back the boot run (kft= or kftstatic.conf): what it logged from
# kernel start to the first user program.
echo "=== status"
cat /proc/kft
echo "=== data"
cat /proc/kft_data
