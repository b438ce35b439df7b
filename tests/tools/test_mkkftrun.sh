#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/mkkftrun (ASan/UBSan build): kftstatic.conf to C.  The C it writes
# is compiled and run against stand-in headers, and must give back the
# config byte for byte; errors name the file and line and write nothing.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
. tests/lib/tap.sh
BUILD=${BUILD:-build}
mk=$BUILD/asan/mkkftrun
tap_tmpdir

# Stand-ins for the two kernel headers the generated file includes.
mkdir -p "$tmp/inc/linux"
echo '#define __initconst' > "$tmp/inc/linux/init.h"
printf 'extern const char kft_static_run[];\nextern const char kft_static_run_file[];\n' \
	> "$tmp/inc/linux/kft_boot.h"
cat > "$tmp/main.c" <<'C'
#include <stdio.h>
#include <string.h>
#include <linux/kft_boot.h>
int main(void)
{
	fputs(kft_static_run, stdout);
	fprintf(stderr, "%s\n", kft_static_run_file);
	return 0;
}
C

# round_trip NAME CONF: generate, compile, run; the text must come back.
round_trip() {
	local name=$1 conf=$2
	"$mk" -n 32768 -N "$name" "$conf" "$tmp/out.c" 2> "$tmp/err" &&
	cc -std=gnu11 -Wall -Wextra -Werror -I"$tmp/inc" -o "$tmp/prog" "$tmp/out.c" "$tmp/main.c" &&
	"$tmp/prog" > "$tmp/back" 2> "$tmp/name" &&
	cmp -s "$conf" "$tmp/back" && [ "$(cat "$tmp/name")" = "$name" ]
}

round_trip kernel/kftstatic.conf kernel/kftstatic.conf
ok $? "the default kftstatic.conf becomes C that gives it back byte for byte"
grep -q '^	"trigger start entry start_kernel\\n"$' "$tmp/out.c"
ok $? "the C keeps one line per config line"

printf '# "quotes", back\\\\slashes,\ttabs, caf\xc3\xa9 %%s ??=\ntrigger start entry start_kernel\nfilter funclist a b, c fend\nlogentries 100' > "$tmp/odd.conf"
round_trip 'odd "name"' "$tmp/odd.conf"
ok $? "quotes, backslashes, tabs, UTF-8, trigraphs, no final newline: given back as they were"

: > "$tmp/empty.conf"
round_trip empty "$tmp/empty.conf"
ok $? "an empty config (a run that starts at kernel start) is valid"

printf '# line 1\ntrigger start entry start_kernel\nfilter mintime 10 bogus\n' > "$tmp/bad.conf"
rm -f "$tmp/out.c"
"$mk" "$tmp/bad.conf" "$tmp/out.c" 2> "$tmp/err"
rc=$?
[ "$rc" = 1 ] && grep -qx "$tmp/bad.conf:3: error: filter mintime: '10 bogus': one time only" "$tmp/err" &&
	[ ! -e "$tmp/out.c" ] && [ ! -e "$tmp/out.c.tmp" ]
ok $? "an error names file and line, exits 1, writes nothing ($(cat "$tmp/err"))"

printf 'trigger start time\n' > "$tmp/bad2.conf"
"$mk" "$tmp/bad2.conf" "$tmp/out.c" 2> "$tmp/err"
[ $? = 1 ] && grep -q "bad2.conf:1: error: trigger start time: missing time" "$tmp/err"
ok $? "a statement cut short is an error on its line ($(cat "$tmp/err"))"

printf 'logentries 40000\n' > "$tmp/big.conf"
"$mk" -n 32768 "$tmp/big.conf" "$tmp/out.c" 2> "$tmp/err"
[ $? = 1 ] && grep -q 'logentries 40000 is more than CONFIG_KFT_BOOT_LOG_ENTRIES (32768)' "$tmp/err"
ok $? "logentries over the boot log's size is refused"

printf 'filter mintime 5\n' > "$tmp/small.conf"
"$mk" -n 1024 "$tmp/small.conf" "$tmp/out.c" 2> "$tmp/err"
ok $? "without logentries, any boot log size will do (the run takes all of it)"

"$mk" "$tmp/missing.conf" "$tmp/out.c" 2> "$tmp/err"
[ $? = 1 ] && grep -q 'missing.conf: No such file' "$tmp/err"
ok $? "a missing file is an error naming it"

"$mk" 2> /dev/null
[ $? = 2 ]
ok $? "no arguments: usage, exit 2"
"$mk" --help | grep -q "^usage: mkkftrun" && "$mk" --version | grep -q "^mkkftrun (KFT)"
ok $? "--help prints usage, --version the version"
tap_done
