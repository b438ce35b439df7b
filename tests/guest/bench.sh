#!/bin/sh
# Guest side of `make bench` (bench/run.sh).  kftbench= on the kernel
# command line says which tracer this kernel has: none, kft or ftrace.
# Prints "boot NS" (kernel start to the first user program), then for each
# workload and tracing mode:
#   result MODE WORKLOAD NS_PER_OP OPS RECORDED LOST BYTES_PER_CALL
# RECORDED counts the calls of the timed operations only (the warm-up
# operations before them are traced too, and taken out here).
set -e
scale=${kftscale:-1}
workloads="getppid open fork"

# printk time of "Run /init as init process" (kernel start to user space).
boot=$(dmesg | sed -n 's/^\[ *\([0-9.]*\)\] Run .* as init process.*/\1/p' | head -n 1)
echo "boot ${boot:-0}"

idle() {
	for w in $workloads; do
		kft-bench -s "$scale" "$w" | while read -r _ name ns ops _; do
			echo "result idle $name $ns $ops 0 0 0"
		done
	done
}

counter() {	# counter NAME: a /proc/kft counter
	sed -n "s/^  $1  *\([0-9]*\)$/\1/p" /proc/kft
}

kft_mode() {	# kft_mode MODE CONFIG-LINES
	mode=$1 extra=$2
	for w in $workloads; do
		printf 'new\nlogentries 4000000\n%s\nend\n' "$extra" > /proc/kft
		echo prime > /proc/kft
		out=$(kft-bench -s "$scale" "$w")
		echo stop > /proc/kft
		set -- $out
		rec=$(( $(counter 'calls logged') * $4 / ($4 + $5) ))
		lost=$(( $(counter 'lost, log full') + $(counter 'lost, call depth over stack') ))
		esize=$(sed -n 's/^log: [0-9]* entries of \([0-9]*\) bytes.*/\1/p' /proc/kft)
		echo "result $mode $w $3 $4 $rec $lost ${esize:-0}"
	done
}

ftrace_mode() {	# ftrace_mode MODE THRESH_US
	mode=$1 thresh=$2
	t=/sys/kernel/tracing
	for w in $workloads; do
		echo nop > $t/current_tracer
		echo 65536 > $t/buffer_size_kb
		echo "$thresh" > $t/tracing_thresh
		echo > $t/trace
		echo function_graph > $t/current_tracer
		out=$(kft-bench -s "$scale" "$w")
		echo 0 > $t/tracing_on	# a tracer switch empties the buffer
		set -- $out
		# Events written = in the buffer + overwritten; a call is an
		# entry and a return event, or (tracing_thresh) one return.
		ev=0 bytes=0 inbuf=0 lost=0
		for s in $t/per_cpu/cpu*/stats; do
			e=$(sed -n 's/^entries: //p' "$s"); o=$(sed -n 's/^overrun: //p' "$s")
			b=$(sed -n 's/^bytes: //p' "$s"); d=$(sed -n 's/^dropped events: //p' "$s")
			ev=$((ev + e + o)); inbuf=$((inbuf + e)); bytes=$((bytes + b))
			lost=$((lost + o + ${d:-0}))
		done
		if [ "$thresh" = 0 ]; then rec=$((ev / 2)); per=2; else rec=$ev; per=1; fi
		rec=$((rec * $4 / ($4 + $5)))
		bpc=0
		[ "$inbuf" -gt 0 ] && bpc=$((bytes * per / inbuf))
		echo "result $mode $w $3 $4 $rec $lost $bpc"
		echo nop > $t/current_tracer
		echo 1 > $t/tracing_on
	done
	echo 0 > $t/tracing_thresh
}

case ${kftbench:-none} in
none)
	idle ;;
kft)
	idle
	kft_mode kft-all ""
	kft_mode kft-min100 "filter mintime 100" ;;
ftrace)
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || true
	idle
	ftrace_mode fgraph-all 0
	ftrace_mode fgraph-thresh100 100 ;;
esac
