#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# KernelShark opens what kd --trace-cmd writes: headless (Xvfb), each file
# opened, its window titled with it, alive after it loaded, nothing on
# its standard error but its plugins' notes for events the file does not
# have, its CPU plots drawn with the tasks' coloured bars (read from a
# dump of the screen, kernelshark_check.py; the window saved as PNG beside
# the test's log); a file cut short is not (KernelShark crashes on it: the
# check can tell).  make check-full (KFT_TIER=full), or
# KFT_KERNELSHARK=1; kernelshark, xvfb and x11-apps (make deps-full).
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
. tests/lib/tap.sh
KD=${BUILD:-build}/asan/kd
fx=tests/tools/fixtures/kd
shots=${BUILD:-build}/test-logs/kernelshark
tap_tmpdir

if [ "${KFT_TIER:-}" != full ] && [ -z "${KFT_KERNELSHARK:-}" ]; then
	tap_skip "KernelShark: make check-full (or KFT_KERNELSHARK=1)"
	tap_done
	exit
fi
for c in kernelshark Xvfb xwd xwininfo setpriv; do
	if ! command -v $c > /dev/null; then
		tap_skip "$c is not installed (make deps-full)"
		tap_done
		exit
	fi
done
mkdir -p "$shots"
# KernelShark as root stops at a warning dialog: run it as nobody, its
# files readable, a home of its own.
chmod 755 "$tmp"
mkdir -m 700 "$tmp/home" && chown 65534:65534 "$tmp/home"
display=:$((90 + RANDOM % 400))
Xvfb "$display" -screen 0 1280x800x24 -ac -nolisten tcp > "$tmp/xvfb.log" 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null; rm -rf "$tmp"' EXIT
for i in $(seq 50); do
	DISPLAY=$display xwininfo -root > /dev/null 2>&1 && break
	sleep 0.2
done

# opens NAME DAT: KernelShark opens DAT, and draws it.
opens() {
	local name=$1 dat=$2 pid geom bars rc=1 i
	chmod 644 "$dat"
	DISPLAY=$display HOME=$tmp/home XDG_RUNTIME_DIR=$tmp/home \
		setpriv --reuid=65534 --regid=65534 --clear-groups \
		kernelshark "$dat" > "$tmp/$name.out" 2> "$tmp/$name.err" &
	pid=$!
	# Its window, once the file is loaded and drawn.
	for i in $(seq 60); do
		geom=$(DISPLAY=$display xwininfo -root -tree 2>/dev/null |
			sed -n "s/.*\"Kernel Shark ([^\"]*$(basename "$dat"))\": .* \([0-9]*x[0-9]*+[0-9]*+[0-9]*\) .*/\1/p")
		[ -n "$geom" ] && break
		kill -0 $pid 2> /dev/null || break
		sleep 0.5
	done
	sleep 2
	if [ -n "$geom" ] && kill -0 $pid 2> /dev/null &&
		DISPLAY=$display xwd -root -silent > "$tmp/$name.xwd"; then
		bars=$(python3 tests/tools/kernelshark_check.py "$tmp/$name.xwd" "$geom" "$shots/$name.png")
		echo "# $name: window $geom, $bars (screenshot: $shots/$name.png)"
		grep -q '^Loading  *"' "$tmp/$name.err" &&
			! grep -v '^Loading \|^plugin ".*" failed to initialize on stream\|^QStandardPaths' "$tmp/$name.err" | grep -q . &&
			[ "${bars#bars }" -gt "${blank:-0}" ] 2> /dev/null
		rc=$?
		[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/$name.err" | head -5
	fi
	kill $pid 2> /dev/null
	wait $pid 2> /dev/null
	return $rc
}

# What its window has coloured without a call to draw (its buttons): a
# log of no calls.  A file drawn has more.
sed -n '1,/^------------ /p' $fx/hooks.log > "$tmp/empty.log"
"$KD" --trace-cmd "$tmp/empty.dat" "$tmp/empty.log" > /dev/null 2>&1
opens empty "$tmp/empty.dat" > "$tmp/empty.msg"
blank=$(sed -n 's/.* bars \([0-9]*\) .*/\1/p' "$tmp/empty.msg")
cat "$tmp/empty.msg"
[ -n "$blank" ]
ok $? "KernelShark opens a file of no calls: what its window colours without one (${blank:-?} bars)"
"$KD" --trace-cmd "$tmp/hooks.dat" $fx/hooks.log > /dev/null 2>&1
opens hooks "$tmp/hooks.dat"
ok $? "KernelShark opens kd --trace-cmd's file of hooks.log (2 CPUs, 4 tasks, an interrupt, compensated) and draws it"
"$KD" --trace-cmd "$tmp/boot.dat" $fx/boot-hooks.log > /dev/null 2>&1
opens boot "$tmp/boot.dat"
ok $? "KernelShark opens kd --trace-cmd's file of a boot (boot-hooks.log) and draws it"
"$KD" --raw --trace-cmd "$tmp/raw.dat" $fx/hooks.log > /dev/null 2>&1
opens raw "$tmp/raw.dat"
ok $? "KernelShark opens the --raw file too"
head -c 3000 "$tmp/hooks.dat" > "$tmp/cut.dat"
! opens cut "$tmp/cut.dat" 2> /dev/null
ok $? "a file cut short is not taken for one KernelShark opened (the check can tell)"
tap_done
