# SPDX-License-Identifier: GPL-2.0
# TAP helpers for the shell tests: source it, call ok/fail, end with tap_done.

tap_n=0 tap_failed=0

# ok CONDITION-EXIT-STATUS DESCRIPTION: `ok $? "it works"` or `check cmd...`.
ok() {
	tap_n=$((tap_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $tap_n - $2"
	else
		echo "not ok $tap_n - $2"
		tap_failed=$((tap_failed + 1))
	fi
}

# check DESCRIPTION COMMAND...: one TAP line for the command's exit status.
check() {
	local desc=$1
	shift
	"$@"
	ok $? "$desc"
}

tap_done() {
	echo "1..$tap_n"
	[ "$tap_failed" -eq 0 ]
}

# tap_tmpdir: $tmp, a scratch directory removed when the test exits.
tap_tmpdir() {
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
}

# tap_skip WHY: a test that cannot run here, and why (TAP's SKIP).
tap_skip() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n # SKIP $1"
}
