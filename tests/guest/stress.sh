#!/bin/sh
# Replace, prime, start, stop and read runs in a loop while every CPU is
# busy in the kernel (forks, opens, sched_yield): the kernel must not oops,
# warn or leak.  kftstress= on the command line sets the seconds (default 20).
. /tests/lib.sh
secs=${kftstress:-20}
ncpu=$(grep -c ^processor /proc/cpuinfo)
end=$(( $(cut -d. -f1 /proc/uptime) + secs ))
busy() {
	while [ "$(cut -d. -f1 /proc/uptime)" -lt "$end" ]; do
		kft-do fork 20 > /dev/null
		kft-do openat /etc/hostname > /dev/null
		kft-do yield 50 > /dev/null
	done
}
i=0
while [ $i -lt "$ncpu" ]; do
	busy &
	i=$((i + 1))
done
loops=0
while [ "$(cut -d. -f1 /proc/uptime)" -lt "$end" ]; do
	case $((loops % 4)) in
	0) printf 'new\nlogentries 5000\nend\n' > /proc/kft ;;
	1) printf "new\ntrigger start entry ${SYS}openat\ntrigger stop time 2ms\nfilter mintime 1us\nend\n" > /proc/kft ;;
	2) printf "new\ntrigger start entry ${SYS}sched_yield\ntrigger stop exit ${SYS}sched_yield\nautorepeat\nlogentries 200000\nend\n" > /proc/kft ;;
	3) printf 'new\nfilter onlyints\nwatch worst-stack 16384\nend\n' > /proc/kft ;;
	esac
	echo prime > /proc/kft
	echo start > /proc/kft 2>/dev/null
	cat /proc/kft > /dev/null
	echo stop > /proc/kft 2>/dev/null
	cat /proc/kft_data > /dev/null
	echo clear > /proc/kft 2>/dev/null
	loops=$((loops + 1))
done
wait
echo "stress loops $loops on $ncpu CPUs in $secs s"
grep -q 'state: ' /proc/kft && echo "stress done"
