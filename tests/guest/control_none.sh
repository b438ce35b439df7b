#!/bin/sh
# /proc/kft with no run registered (kft=off on a kernel with a static run).
cat /proc/kft
