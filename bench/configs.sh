#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The benchmark's kernels must differ only in their tracer, or the bench
# measures something else too (a DEBUG_FS that pulls in SCHED_DEBUG gives
# the ftrace kernel other scheduler code).  Compares the .config of each
# build directory with the first's (vanilla) and fails, naming them, on
# options that differ and are not the tracers' own or what they select.
#
# usage: bench/configs.sh VANILLA_DIR OTHER_DIR...
set -euo pipefail

# KFT's options (and GCC_PLUGINS, which KFT_AFTER_INLINING needs; with
# no plugin enabled it changes no code); function_graph's and what
# enabling it selects (the tracing core: ring buffer, tracepoints, event
# tracing, stack traces).
tracer='^CONFIG_((KFT|HAVE_KFT|FUNCTION_|HAVE_FUNCTION_|DYNAMIC_FTRACE|HAVE_DYNAMIC_FTRACE|FTRACE_|TASKS_|NEED_TASKS_)[A-Z0-9_]*|GENERIC_TRACER|GCC_PLUGINS|BUILDTIME_MCOUNT_SORT|EXECMEM|FPROBE|TRACING|TRACEPOINTS|EVENT_TRACING|RING_BUFFER|CONTEXT_SWITCH_TRACER|NOP_TRACER|BINARY_PRINTF|TRACE_CLOCK|STACKTRACE|GLOB)$'

[ $# -ge 2 ] || { echo "usage: $0 VANILLA_DIR OTHER_DIR..." >&2; exit 2; }
settings() {	# the options set in DIR/.config, "NAME=VALUE" a line, sorted
	[ -f "$1/.config" ] || { echo "bench/configs.sh: no $1/.config" >&2; exit 2; }
	grep '^CONFIG_' "$1/.config" | sort
}
base=$1
shift
bad=0
for dir in "$@"; do
	other=$(comm -3 <(settings "$base") <(settings "$dir") | tr -d '\t' |
		sed 's/=.*//' | sort -u | grep -Ev "$tracer" || true)
	if [ -n "$other" ]; then
		echo "bench/configs.sh: $(basename "$dir") differs from $(basename "$base") in more than the tracer:" $other >&2
		bad=1
	fi
done
exit $bad
