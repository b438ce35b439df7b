#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A boot run's log for kd's pictures: gen_boot_log.py NCALLS NTHREADS NAMELEN [odd|html]

NCALLS initcalls (names NAMELEN characters and more), NTHREADS kthreads
asleep in schedule() for most of the boot, and with odd names with bytes
XML cannot hold as they are (<, &, ", controls, U+FFFE, bytes not UTF-8);
with html, those and names (of initcalls and of calls in them) that would
break out of an HTML page's script element if written as they are
("</script>", "<!--", U+2028, U+2029, quotes).  Written to standard output
as bytes.
"""
import sys

ncalls, nthreads, namelen = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
odd = len(sys.argv) > 4
html = odd and sys.argv[4] == "html"
HOSTILE = b"</script><script>alert(1)</script><!--<script>\xe2\x80\xa8\xe2\x80\xa9'\"`\\u2028&lt;\xc0"
out = []


def line(entry, delta, pid, fn, caller, cpu=0):
    out.append(b"%12d %12d %6d %32s %-40s %4d" % (entry, delta, pid, fn, caller, cpu))


def name(i):
    base = b"init_%d_" % i
    if odd and i % 3 == 0:
        base += b"<a&b\"c\x01\xff\xef\xbf\xbe\xc3\xa9>"
    if html and i % 3 == 1:
        base += HOSTILE
    return base + b"x" * max(0, namelen - len(base))


step = 1000
b = 960 + 2 * nthreads + 40		# after the kthreads' first calls
end = b + step * (ncalls + 4) + 2000
line(10, -1, 0, b"start_kernel", b"clear_bss")
line(20, 800, 0, b"setup_arch", b"start_kernel+0x54")
line(900, -1, 0, b"rest_init", b"start_kernel+0x300")
line(950, -1, 1, b"kernel_init", b"ret_from_fork+0x35")
for k in range(nthreads):
    line(960 + 2 * k, end - 1000 - k, 2 + k, b"kthread", b"ret_from_fork+0x35")
    line(961 + 2 * k, end - 1002 - k, 2 + k, b"schedule", b"kthread+0x80")
line(b, step * (ncalls + 2), 1, b"kernel_init_freeable", b"kernel_init+0x21")
line(b + 10, step * (ncalls + 1), 1, b"do_basic_setup", b"kernel_init_freeable+0x9b")
line(b + 20, step * ncalls + 10, 1, b"do_initcalls", b"do_basic_setup+0x24")
for i in range(ncalls):
    t = b + 30 + step * i
    line(t, step - 100 - (i % 7) * 60, 1, b"do_one_initcall", b"do_initcalls+0x91")
    if i % 5 != 4:
        line(t + 5, step - 120 - (i % 7) * 60, 1, name(i), b"do_one_initcall+0x84")
        if html and i % 3 == 1:
            line(t + 10, 200, 1, b"probe_%d_" % i + HOSTILE, name(i) + b"+0x20")
line(end - 500, -1, 1, b"to_userspace", b"kernel_init+0x90")

head = [b"Kernel Instrumentation Run ID 0", b"",
        b"Logging started at 10 usec by entry to function start_kernel",
        b"Logging stopped at %d usec by entry to function to_userspace" % (end - 500), b"",
        b"500 usecs minimum execution time", b"",
        b"Number of entries after filters = %d" % len(out), b"",
        b"       Entry        Delta    PID                         Function Caller                                    CPU",
        b"------------ ------------ ------ -------------------------------- ---------------------------------------- ----"]
sys.stdout.buffer.write(b"\n".join(head + out) + b"\n")
