#!/bin/sh
# /proc/kft as a user meets it: configs in pieces, commands, refusals that
# leave the run as it was, permissions.  Prints "check NAME ok|FAIL" lines.
. /tests/lib.sh
status() { cat /proc/kft; }

check perms-kft sh -c '[ "$(stat -c %a /proc/kft)" = 600 ]'
check perms-data sh -c '[ "$(stat -c %a /proc/kft_data)" = 400 ]'
check no-run sh -c 'cat /proc/kft | grep -q "No logging run registered"'

# A config in three writes, functions by name (a system call no shell,
# cat or grep here makes, so that only kft-do triggers the run).
echo new > /proc/kft
echo "trigger start entry ${SYS}sched_yield" > /proc/kft
printf "trigger stop exit ${SYS}sched_yield\nfilter noints\nend\n" > /proc/kft
check multi-write sh -c 'cat /proc/kft | grep -q "state: configured"'
# The address is printed with a name of it (x86 GCC: its alias
# __do_sys_sched_yield; 32-bit arm: sys_sched_yield).
check named-fn sh -c 'cat /proc/kft | grep -q "trigger start entry 0x[0-9a-f]* # [_a-z0-9]*sys_sched_yield$"'
status | sed -n '/^config:/,/^end/p' > /tmp/before

# Refusals: each fails with EINVAL, says why, and changes nothing.
check bad-keyword sh -c '! printf "new\nbogus\nend\n" > /proc/kft'
check bad-keyword-msg sh -c 'cat /proc/kft | grep -q "last error: line 2: .bogus.: unknown keyword"'
check unknown-fn sh -c '! printf "new trigger start entry no_such_function_xyz end\n" > /proc/kft'
check unknown-fn-msg sh -c 'cat /proc/kft | grep -q "no_such_function_xyz.: unknown function"'
check dmesg-msg sh -c 'dmesg | grep -q "kft: line 1: .no_such_function_xyz.: unknown function"'
check bad-command sh -c '! echo frobnicate > /proc/kft'
check too-big sh -c '! printf "new logentries 99999999 end\n" > /proc/kft'
status | sed -n '/^config:/,/^end/p' > /tmp/after
check unchanged cmp -s /tmp/before /tmp/after
check stop-unarmed sh -c '! echo stop > /proc/kft'

# Round trip: the config block written back gives the same config.
status | sed -n '/^config:/,/^end/p' | sed 1d > /tmp/cfg
check round-trip-write sh -c 'cat /tmp/cfg > /proc/kft'
check round-trip-same sh -c "cat /proc/kft | sed -n '/^config:/,/^end/p' | sed 1d | cmp -s - /tmp/cfg"

# The hooks' call sites: NOPs while no run is armed, calls while one is,
# NOPs again once no run has been armed for two seconds.
# A kernel without CONFIG_KFT_NOP_SITES says so, and has no sites to check.
sites_many() { [ "$(sites | cut -d' ' -f1)" -gt 1000 ]; }
nosites=
if cat /proc/kft | grep -q '^hook sites: always called'; then
	nosites=1
	echo "sites: always called"
else
	echo "sites idle: $(sites)"
	check sites-idle-nops sites_are NOPs
	check sites-many sites_many
	check sites-all-changed sh -c '! cat /proc/kft | grep -q "left alone"'
fi

# Prime, trigger with a real getppid, read, clear, prime again.
echo prime > /proc/kft
check primed sh -c 'cat /proc/kft | grep -q "state: primed"'
[ -n "$nosites" ] || check sites-armed-calls sites_are calls
check data-while-armed sh -c 'cat /proc/kft_data | grep -q "Run still armed"'
kft-do yield 1 >/dev/null
check complete sh -c 'cat /proc/kft | grep -q "primed, triggered, complete"'
[ -n "$nosites" ] || check sites-nops-after-run sites_become NOPs
check data sh -c 'cat /proc/kft_data | grep -q "^Number of entries after filters = [1-9]"'
check clear sh -c 'echo clear > /proc/kft && cat /proc/kft | grep -q "state: configured"'
check reprime sh -c 'echo prime > /proc/kft && kft-do yield 1 && cat /proc/kft | grep -q "triggered, complete"'
check start-stop sh -c 'echo clear > /proc/kft && echo start > /proc/kft && echo stop > /proc/kft && cat /proc/kft_data | grep -q "by user action"'
[ -n "$nosites" ] || check sites-nops-after-stop sites_become NOPs

# A run that logs only the functions it names: in a kernel whose functions
# call the hooks from their own text (instrumented after inlining), only
# their sites and its triggers' are calls; elsewhere every site (the host
# checks which, by the kernel's config).  Either way it logs what a run
# with every site armed would.
if [ -z "$nosites" ]; then
	printf "new\ntrigger start entry ${SYS}sched_yield\ntrigger stop exit ${SYS}sched_yield\nfilter funclist ${SYS}sched_yield schedule fend\nend\n" > /proc/kft
	echo prime > /proc/kft
	echo "sites funclist: $(grep '^hook sites:' /proc/kft)"
	kft-do yield 1 > /dev/null
	check sites-funclist-complete sh -c 'cat /proc/kft | grep -q "primed, triggered, complete"'
	# schedule()'s calls in the log, by its address in the config.
	fn=$(sed -n 's/.* 0x\([0-9a-f]*\) # schedule$/\1/p' /proc/kft | head -n 1)
	cat /proc/kft_data > /tmp/funclist.data
	echo "sites funclist: schedule() at 0x$fn, logged $(awk -v a="$fn" '{ f = $4; sub(/^0x0*/, "", f) } f == a { n++ } END { print n + 0 }' /tmp/funclist.data) times"
	echo "sites funclist: $(grep -i '^Total entries filtered\|^Entries not found' /tmp/funclist.data | tr '\n' ' ')"
	check sites-funclist-logs-schedule awk -v a="$fn" '{ f = $4; sub(/^0x0*/, "", f) } a != "" && f == a { n++ } END { exit !n }' /tmp/funclist.data
	check sites-funclist-nops-after sites_become NOPs
	# The next run that needs them has every site again.
	printf "new\ntrigger start entry ${SYS}sched_yield\ntrigger stop exit ${SYS}sched_yield\nend\n" > /proc/kft
	echo prime > /proc/kft
	echo "sites all: $(grep '^hook sites:' /proc/kft)"
	check sites-all-again sh -c 'grep "^hook sites:" /proc/kft | grep -qv " at "'
	kft-do yield 1 > /dev/null
	check sites-all-again-logs sh -c 'cat /proc/kft_data | grep -q "^Number of entries after filters = [1-9]"'
	sites_become NOPs

	# A run that drops every call shorter than 100 us or more leaves the
	# sites of the functions that cannot run that long NOPs: x86_64 and
	# arm64, whose build lists them (scripts/kftsites --bounded-sites).
	# Its triggers fire; a shorter mintime has every site again.
	printf "new\ntrigger start entry ${SYS}sched_yield\ntrigger stop exit ${SYS}sched_yield\nfilter mintime 200\nend\n" > /proc/kft
	echo prime > /proc/kft
	echo "sites mintime 200: $(grep '^hook sites' /proc/kft | tr '\n' ' ')"
	case $(uname -m) in
	x86_64 | aarch64)
		check sites-bounded-nops sh -c 'grep -q "^hook sites: [0-9]*, calls, but [1-9][0-9]* NOPs" /proc/kft &&
			grep -q "^hook sites left NOPs: [1-9][0-9]*, for run [0-9]*, in functions too short for its mintime$" /proc/kft' ;;
	*)
		check sites-bounded-none sh -c '! grep -q "NOPs\|^hook sites left" /proc/kft' ;;
	esac
	kft-do yield 1 > /dev/null
	check sites-bounded-complete sh -c 'cat /proc/kft | grep -q "primed, triggered, complete"'
	printf "new\ntrigger start entry ${SYS}sched_yield\ntrigger stop exit ${SYS}sched_yield\nfilter mintime 50\nend\n" > /proc/kft
	echo prime > /proc/kft
	echo "sites mintime 50: $(grep '^hook sites' /proc/kft | tr '\n' ' ')"
	check sites-short-mintime-all sh -c 'grep "^hook sites:" /proc/kft | grep -qv NOPs && ! grep -q "^hook sites left" /proc/kft'
	kft-do yield 1 > /dev/null
	sites_become NOPs
fi
