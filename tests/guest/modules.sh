#!/bin/sh
# A module (/lib/kft_test_mod.ko) and KFT.  Its hook call sites: NOPs
# when it comes in while the kernel's are, calls while a run is armed,
# NOPs again after it; /proc/kft_test_mod says what they hold, read from
# its text.  A trace of its own functions.  Unloaded while a run names it,
# then loaded again while a run is armed.
. /tests/lib.sh
mod_sites() { cat /proc/kft_test_mod | sed -n 's/^sites: //p'; }
mod_sites_are() {	# mod_sites_are calls|nops: all of them, and some
	set -- "$1" $(mod_sites)
	case $1 in
	calls) [ "$3" -gt 0 ] && [ "$5" = 0 ] && [ "$7" = 0 ] ;;
	nops) [ "$3" = 0 ] && [ "$5" -gt 0 ] && [ "$7" = 0 ] ;;
	esac
}

printf 'new\ntrigger start entry kft_test_mod_show\ntrigger stop exit kft_test_mod_show\nend\n' > /proc/kft 2>/dev/null
check unknown-before-load sh -c '! cat /proc/kft | grep -q "state: configured"'
echo new > /proc/kft
echo end > /proc/kft
check idle-nops sites_become NOPs
insmod /lib/kft_test_mod.ko
check loaded sh -c 'grep -q "^kft_test_mod " /proc/modules'
echo "sites: $(grep '^hook sites' /proc/kft)"
echo "module sites: $(mod_sites)"
check listed sh -c 'cat /proc/kft | grep -q "^hook sites: [0-9]*, NOPs, [1-9][0-9]* in 1 module$"'
check loaded-nops mod_sites_are nops

# A trace of the module's functions, by name.
printf 'new\ntrigger start entry kft_test_mod_show\ntrigger stop exit kft_test_mod_show\nend\n' > /proc/kft
echo prime > /proc/kft
check armed-calls sites_are calls
cat /proc/kft_test_mod > /tmp/traced
check armed-mod-calls sh -c 'grep -q "^sites: calls [1-9][0-9]* nops 0 other 0$" /tmp/traced'
check traced sh -c 'cat /proc/kft | grep -q "primed, triggered, complete"'
echo "=== data"
cat /proc/kft_data
echo "=== kallsyms"
cat /proc/kallsyms
echo "=== end"
check after-run-nops sites_become NOPs
check after-run-mod-nops mod_sites_are nops

# Unloaded while a run names its function: the run stops, says why, and
# is refused until a new config replaces it.
printf 'new\nfilter funclist kft_test_mod_work\nend\n' > /proc/kft
echo start > /proc/kft
check unload rmmod kft_test_mod
check unload-stops sh -c 'cat /proc/kft | grep -q "^Logging stopped at [0-9]* usec by unloading a module it names$"'
check unload-says sh -c 'cat /proc/kft | grep -q "last error: run [0-9]* names module kft_test_mod, unloading: stopped; write a new config"'
check unload-refused sh -c 'echo clear > /proc/kft && ! echo prime > /proc/kft && cat /proc/kft | grep -q "last error: prime: the run names an unloaded module"'
check unlisted sh -c '! cat /proc/kft | grep -q "in 1 module"'

# Unloaded: arming and disarming leave its (freed) text alone.  Runs from
# here on trigger on a system call nothing here makes.
printf "new\ntrigger start entry ${SYS}sched_yield\nend\n" > /proc/kft
echo prime > /proc/kft
check rearm-unloaded sites_are calls
echo stop > /proc/kft
check unloaded-nops sites_become NOPs

# Loaded while a run is armed: its sites keep their calls, then go NOPs.
echo clear > /proc/kft
echo prime > /proc/kft
check reload-armed insmod /lib/kft_test_mod.ko
check loaded-armed-calls mod_sites_are calls
echo stop > /proc/kft
check stopped-nops sites_become NOPs
check stopped-mod-nops mod_sites_are nops
check unload-again rmmod kft_test_mod
