#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# sparse for the style check (CHECK=): Debian 12's sparse 0.6.4 refuses
# riscv's -march with extensions ("invalid argument to '-march':
# '_zicsr_zifencei'") and so checks nothing there; the base ISA
# (rv64imac) is all it needs.  Other arguments pass through.
args=()
for a in "$@"; do
	case $a in
	-march=rv*_*) a=${a%%_*} ;;
	esac
	args+=("$a")
done
exec sparse "${args[@]}"
