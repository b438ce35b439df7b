#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# sym2addr: names become addresses, everything else is kept, errors name
# their line.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
. tests/lib/tap.sh
S2A=${BUILD:-build}/asan/sym2addr
fx=tests/tools/fixtures
tap_tmpdir

cat > "$tmp/config.sym" <<'CFG'
# trace fork
new
begin
	trigger start entry do_fork    # the start
	trigger stop exit do_fork
	filter mintime 10
	filter funclist start_kernel 0xffffffff81001200 fend
end
CFG
cat > "$tmp/expected" <<'CFG'
# trace fork
new
begin
	trigger start entry 0xffffffff81001400    # the start
	trigger stop exit 0xffffffff81001400
	filter mintime 10
	filter funclist 0xffffffff81001000 0xffffffff81001200 fend
end
CFG
"$S2A" "$tmp/config.sym" $fx/System.map > "$tmp/out"
ok $? "converts a config (map as second argument, like the original)"
diff -u "$tmp/expected" "$tmp/out"
ok $? "names become addresses; keywords, numbers, comments kept"
"$S2A" -m $fx/System.map - < "$tmp/config.sym" | cmp -s - "$tmp/expected"
ok $? "-m MAP and standard input"

# Every kind of function reference: notunder's too (it used to be left as
# a name), after the funclist and before a trigger in the text.
printf 'new\nfilter notunder rest_init\nfilter funclist do_fork fend\nfilter notunder __x64_sys_openat\ntrigger stop exit start_kernel\nend\n' > "$tmp/notunder.conf"
printf 'new\nfilter notunder 0xffffffff81001200\nfilter funclist 0xffffffff81001400 fend\nfilter notunder 0xffffffff81002000\ntrigger stop exit 0xffffffff81001000\nend\n' > "$tmp/notunder.expected"
"$S2A" -m $fx/System.map "$tmp/notunder.conf" | diff -u "$tmp/notunder.expected" -
ok $? "notunder names become addresses like every other function reference"

printf 'trigger start entry start_kernel\ntrigger stop entry do_fork\n' > "$tmp/static.conf"
"$S2A" "$tmp/static.conf" -m $fx/System.map > "$tmp/out"
[ "$(head -n1 "$tmp/out")" = new ] && [ "$(tail -n1 "$tmp/out")" = end ]
ok $? "kftstatic.conf form gets new/end so /proc/kft takes it"

printf 'new\ntrigger start entry do_fork\nfilter funclist nosuchfn fend\nend\n' > "$tmp/bad.conf"
"$S2A" "$tmp/bad.conf" $fx/System.map > "$tmp/out" 2> "$tmp/err"
[ $? -ne 0 ] && grep -q "bad.conf:3: 'nosuchfn': unknown function" "$tmp/err"
ok $? "unknown name: error with file and line, non-zero exit"
printf 'new\ntrigger start entry helper\nend\n' > "$tmp/amb.conf"
"$S2A" "$tmp/amb.conf" $fx/System.map 2> "$tmp/err"
[ $? -ne 0 ] && grep -q "amb.conf:2: 'helper': ambiguous function name" "$tmp/err"
ok $? "a name two static functions share is ambiguous"
printf 'new\ntrigger start sideways do_fork\nend\n' > "$tmp/syntax.conf"
"$S2A" "$tmp/syntax.conf" $fx/System.map 2> "$tmp/err"
[ $? -ne 0 ] && grep -q "syntax.conf:2: 'sideways': expected entry, exit or time" "$tmp/err"
ok $? "a syntax error is the parser's own message"
"$S2A" /nonexistent $fx/System.map 2>/dev/null
[ $? -ne 0 ]
ok $? "missing config: non-zero exit"
"$S2A" --help | grep -q '^usage: sym2addr'
ok $? "--help"
tap_done
