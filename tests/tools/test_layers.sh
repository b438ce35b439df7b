#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernel engine's files are layered: kernel/kft_internal.h's opening
# map lists them, each using only those above it, but for the one call
# upward the map names (a hook that completes a run tells kft_sites.c:
# kft_sites_disarmed()).  Here, for every engine file, the functions and
# objects it uses that another file defines; one defined below it is a
# loop between files.  Every file in the map exists and is in the kernel
# build of every series queue (patches/linux-*/), and ENGINE_SRC (the
# host engine tests and make bench-hooks) builds the engine files the
# unit tests drive.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
. tests/lib/tap.sh

# The map's files, in order: the lines " *   kft_NAME.c   what it is".
mapfile -t files < <(sed -n '/^#ifndef _KERNEL_KFT_INTERNAL_H/q; s/^ \*   \(kft[a-z_]*\.c\) .*/\1/p' kernel/kft_internal.h)
[ "${#files[@]}" -ge 10 ]
ok $? "kft_internal.h's map lists the engine's files (${#files[@]}: ${files[*]})"

missing=
for f in "${files[@]}"; do
	[ -f "kernel/$f" ] || missing+=" $f"
done
for f in kernel/kft*.c; do
	case $f in kernel/kft_test_initcall.c|kernel/kft_markers.c) continue ;; esac
	printf '%s\n' "${files[@]}" | grep -qx "${f#kernel/}" || missing+=" ${f#kernel/}(not in the map)"
done
[ -z "$missing" ]
ok $? "every file in the map exists, every engine file is in it${missing:+:$missing}"

# Uses of a file below: python3 strips comments and strings, finds each
# file's non-static definitions (functions, and DEFINE_MUTEX/DEFINE_PER_CPU
# objects), and each file's uses of the others'.
upward=$(python3 - "${files[@]}" <<'PY'
import re, sys
files = sys.argv[1:]
allowed = {('kft.c', 'kft_sites_disarmed')}
src, defs = {}, {}
for f in files:
    t = open('kernel/' + f).read()
    t = re.sub(r'/\*.*?\*/|//[^\n]*', ' ', t, flags=re.S)
    t = re.sub(r'"(\\.|[^"\\])*"', '""', t)
    src[f] = t
    for m in re.finditer(r'^(?!static\b)[A-Za-z_][^;=(\n]*?\b(kft\w+|__cyg\w+)\(', t, re.M):
        defs.setdefault(m.group(1), f)
    for m in re.finditer(r'^(?:DEFINE_MUTEX|DEFINE_PER_CPU\([^,]*,)\s*\(?\s*(\w+)\)', t, re.M):
        defs.setdefault(m.group(1), f)
for f in files:
    for name, d in sorted(defs.items()):
        if d == f or files.index(d) < files.index(f) or (f, name) in allowed:
            continue
        if re.search(r'\b' + name + r'\b', src[f]):
            print(f'{f} uses {name}() of {d}, below it')
PY
)
[ $? = 0 ] && [ -z "$upward" ]
ok $? "no engine file uses one below it in the map, but kft.c's kft_sites_disarmed()${upward:+: $(echo "$upward" | paste -sd';')}"

# The kernel build: each object in each queue's kernel/Makefile hunks.
objs=$(printf '%s\n' "${files[@]}" | grep -vx 'kft_test.c' | sed 's/\.c$/.o/')
for q in patches/linux-*/; do
	q=${q%/}
	absent=
	# The objects of the obj- lines the queue adds, continuations and all.
	built=$(awk '/^\+\+\+ /{ mk = $2 == "b/kernel/Makefile"; next }
		mk && /^\+obj-/ { cont = 1 }
		mk && cont && /^\+/ { for (i = 1; i <= NF; i++) if ($i ~ /\.o$/) print $i;
			cont = /\\$/; next }
		{ cont = 0 }' "$q"/*.patch)
	for o in $objs; do
		grep -qx "$o" <<< "$built" || absent+=" $o"
	done
	[ -z "$absent" ]
	ok $? "${q#patches/}: the kernel build lists every engine object${absent:+; not:$absent}"
done

# The host engine build: every engine file the unit tests and bench-hooks
# drive (all but those that need the kernel: sites, text, /proc, dump, KUnit).
engine=$(make -s -p -n build/asan/test_engine 2>/dev/null | sed -n 's/^ENGINE_SRC := //p' | head -n 1)
absent=
for f in "${files[@]}"; do
	case $f in kft_sites.c|kft_log_text.c|kft_proc.c|kft_dump.c|kft_test.c) continue ;; esac
	[[ " $engine " == *" kernel/$f "* ]] || absent+=" $f"
done
[ -n "$engine" ] && [ -z "$absent" ]
ok $? "ENGINE_SRC builds every engine file the host tests drive${absent:+; not:$absent}"

tap_done
