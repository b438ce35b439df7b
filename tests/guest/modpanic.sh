#!/bin/sh
# A module whose init, an initcall, panics (kft_test_mod panic_in_init=1),
# booted with kft_dump=panic: the run, armed when the kernel dies, is
# printed on the console (tests/e2e/test_modules.sh reads it back).
printf 'new\nfilter funclist load_module do_init_module do_one_initcall panic fend\nend\n' > /proc/kft
echo start > /proc/kft
cat /proc/kft
insmod /lib/kft_test_mod.ko panic_in_init=1
echo "insmod returned: no panic"
