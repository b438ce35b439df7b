#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernel engine's structure.  Its files are layered:
# kernel/kft_internal.h's opening
# map lists them, each using only those above it, but for the one call
# upward the map names (a hook that completes a run tells kft_sites.c:
# kft_sites_disarmed()).  Here, for every engine file, the functions and
# objects it uses that another file defines; one defined below it is a
# loop between files.  Every file in the map exists and is in the kernel
# build of every series queue (patches/linux-*/), and ENGINE_SRC (the
# host engine tests and make bench-hooks) builds the engine files the
# unit tests drive.  In the hooks (kernel/kft.c), the shadow stack is
# pushed and popped in one place each, for the fast and full paths; each
# function that raises the hooks' bracket (kft_pin(), preemption off)
# drops it too; and make bench-steps' switch stays out of the hooks.
# Host side: kd's files call each other without a loop; kftsites' files
# are those scripts/kftsites_shared.h's map lists, each using only those below
# it, and KFT's Makefile and every queue's scripts/Makefile build them all.
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

# kd's files (scripts/kd.c, scripts/kft/*.c), host side: each built to an
# object, nm gives the functions and objects each defines (global) and
# uses from another.  kd.c is the command line: it defines main() alone,
# and no file calls into it; the "calls into" graph between the files has
# no loop (a loop's files could be neither read nor changed one at a time).
tap_tmpdir
objdir=$tmp
built=1
for f in scripts/kd.c scripts/kft/*.c; do
	o=$objdir/$(basename "${f%.c}").o
	${CC:-cc} -std=gnu11 -O0 -Iscripts -Iscripts/kft/include -Ikernel -c "$f" -o "$o" 2>"$objdir/err" ||
		{ built=0; sed "s|^|# $f: |" "$objdir/err"; }
done
[ "$built" = 1 ]
ok $? "kd's files each build to an object"

graph=$(cd "$objdir" && python3 - *.o <<'PY'
import subprocess, sys
defs, uses = {}, {}
for o in sys.argv[1:]:
    f = o[:-2] + '.c'
    out = subprocess.run(['nm', '--defined-only', '-g', o], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        defs.setdefault(line.split()[-1], f)
    out = subprocess.run(['nm', '-u', o], capture_output=True, text=True, check=True).stdout
    uses[f] = {line.split()[-1] for line in out.splitlines()}
edges = {f: {} for f in uses}
for f, us in uses.items():
    for s in us:
        if s in defs and defs[s] != f:
            edges[f].setdefault(defs[s], []).append(s)
kd_defs = sorted(s for s, f in defs.items() if f == 'kd.c')
print('kd', ' '.join(kd_defs) or '-')
into = sorted(f'{f}:{s}' for f in edges for s in edges[f].get('kd.c', []))
print('into', ' '.join(into) or '-')
# Loops: a depth-first walk; an edge back to a file on the path closes one.
state, path, loops = {}, [], []
def walk(f):
    state[f] = 1
    path.append(f)
    for g in sorted(edges[f]):
        if state.get(g) == 1:
            cyc = path[path.index(g):] + [g]
            loops.append(' -> '.join(f'{a} ({edges[a][b][0]})' if b else a
                                     for a, b in zip(cyc, cyc[1:] + [None])))
        elif g not in state:
            walk(g)
    path.pop()
    state[f] = 2
for f in sorted(edges):
    if f not in state:
        walk(f)
print('loops', '; '.join(loops) or '-')
print('edges', sum(len(e) for e in edges.values()))
PY
)
[ $? = 0 ]
ok $? "nm lists what each of kd's files defines and uses ($(sed -n 's/^edges //p' <<< "$graph") calls between files)"
kd_defs=$(sed -n 's/^kd //p' <<< "$graph")
[ "$kd_defs" = main ]
ok $? "scripts/kd.c is the command line: it defines main() alone (defines: $kd_defs)"
into=$(sed -n 's/^into //p' <<< "$graph")
[ "$into" = - ]
ok $? "no file of kd's calls into scripts/kd.c (calls: $into)"
loops=$(sed -n 's/^loops //p' <<< "$graph")
[ "$loops" = - ]
ok $? "kd's files call each other without a loop (loops: $loops)"

# kd's options apart from its analysis (struct kd_options, kd->opt), and
# its outputs an enum (enum kd_output), not letters.
letters=$(grep -nE "output *[!=]= *'|output *= *'|strchr\(\"[a-zA-Z]*\", *[a-z.>-]*output\)" scripts/kd.c scripts/kft/*.c)
grep -q '^struct kd_options {' scripts/kft/kd_types.h && grep -q '^enum kd_output {' scripts/kft/kd_types.h &&
	grep -qP '^struct kd \{\n?' scripts/kft/kd_types.h && [ -z "$letters" ]
ok $? "kd's options are a struct kd_options, its outputs an enum kd_output, no letters${letters:+: $(echo "$letters" | paste -sd';')}"

# kft.c's functions: name -> body, comments and strings stripped; and the
# #ifdef CONFIG_KFT_BENCH_STEPS block's.
hot=$(python3 - <<'PY'
import re
t = open('kernel/kft.c').read()
t = re.sub(r'/\*.*?\*/|//[^\n]*', ' ', t, flags=re.S)
t = re.sub(r'"(\\.|[^"\\])*"', '""', t)
bench = re.search(r'^#ifdef CONFIG_KFT_BENCH_STEPS\n(.*?)^#(else|endif)', t, re.M | re.S)
bench = bench.group(1) if bench else ''
funcs = {}
for m in re.finditer(r'^[a-z_][^;{}]*?\b(\w+)\(([^;{}]*?)\)\s*\{\n(.*?)^\}', t, re.M | re.S):
    name = m.group(1)
    funcs[name] = (m.group(3), m.start() >= 0 and m.group(0) in bench)
def where(pat):
    return sorted(n for n, (b, _) in funcs.items() if re.search(pat, b))
push = where(r'->entry_ns\s*=[^=]')
depth = where(r'->depth\s*=\s*(?!0\b)[^=\s]')
print('push', ' '.join(push) or '-')
print('depth', ' '.join(depth) or '-')
unbalanced = [n for n, (b, _) in funcs.items() if n not in ('kft_pin', 'kft_unpin') and
              len(re.findall(r'\bkft_pin\(\)', b)) != len(re.findall(r'\bkft_unpin\(\)', b))]
print('bracket', ' '.join(sorted(unbalanced)) or '-')
steps = [n for n, (b, in_bench) in funcs.items() if not in_bench and re.search(r'\bkft_bench_steps\(', b)]
print('steps', ' '.join(sorted(steps)) or '-')
PY
)
push=$(sed -n 's/^push //p' <<< "$hot")
depth=$(sed -n 's/^depth //p' <<< "$hot")
[ "$push" = kft_stack_push ]
ok $? "kft.c: one function fills a shadow-stack frame, kft_stack_push() (fill: $push)"
[ "$depth" = "kft_stack_pop kft_stack_push" ]
ok $? "kft.c: one push and one pop move a task's depth, kft_stack_push() and kft_stack_pop() (move it: $depth)"
bracket=$(sed -n 's/^bracket //p' <<< "$hot")
[ "$bracket" = - ]
ok $? "kft.c: every function that raises the hooks' bracket drops it (unbalanced: $bracket)"
steps=$(sed -n 's/^steps //p' <<< "$hot")
[ "$steps" = - ]
ok $? "kft.c: make bench-steps' switch is called only from its own #ifdef CONFIG_KFT_BENCH_STEPS block (outside it: $steps)"

# kftsites' files (scripts/kftsites*.c): scripts/kftsites_shared.h's opening map
# lists them, each using only those below it; KFT's Makefile builds them
# (KFTSITES_SRC, for build/asan/kftsites and fuzz_kftsites), every queue's
# scripts/Makefile links them (kftsites-objs) and makes every object
# depend on each (recordmcount_source), and the fuzz target links them
# rather than #including one.
mapfile -t ks < <(sed -n '/^#ifndef _SCRIPTS_KFTSITES_SHARED_H/q; /^ \*   kftsites/p' scripts/kftsites_shared.h 2>/dev/null |
	grep -o 'kftsites[a-z0-9_]*\.c')
missing=
for f in "${ks[@]}"; do
	[ -f "scripts/$f" ] || missing+=" $f"
done
for f in scripts/kftsites*.c; do
	printf '%s\n' "${ks[@]}" | grep -qx "${f#scripts/}" || missing+=" ${f#scripts/}(not in the map)"
done
[ "${#ks[@]}" -ge 3 ] && [ -z "$missing" ]
ok $? "kftsites_shared.h's map lists kftsites' files, each exists, every scripts/kftsites*.c is in it (${ks[*]})${missing:+:$missing}"

want=$(printf 'scripts/%s\n' "${ks[@]}" | sort | paste -sd' ')
src=$(make -s -p -n build/asan/kftsites 2>/dev/null | sed -n 's/^KFTSITES_SRC := //p' | head -n 1 | tr ' ' '\n' | grep . | sort | paste -sd' ')
fuzz=$(make -s -p -n build/fuzz_kftsites 2>/dev/null | grep -c '^build/fuzz_kftsites:.*scripts/kftsites_reach\.c')
inc=$(grep -l '#include[[:space:]]*"[^"]*\.c"' tests/fuzz/fuzz_kftsites.c)
[ "$src" = "$want" ] && [ "$fuzz" -ge 1 ] && [ -z "$inc" ]
ok $? "KFTSITES_SRC builds every file of the map, fuzz_kftsites links them and #includes no .c (KFTSITES_SRC: ${src:-none})"

for q in patches/linux-*/; do
	q=${q%/}
	# kftsites-objs, continuations and all; recordmcount_source's wildcard,
	# evaluated on this repository's scripts/.
	objs=$(awk '/^\+\+\+ /{ mk = $2 == "b/scripts/Makefile"; next }
		mk && /^\+kftsites-objs/ { cont = 1 }
		mk && cont && /^\+/ { for (i = 1; i <= NF; i++) if ($i ~ /\.o$/) print $i;
			cont = /\\$/; next }
		{ cont = 0 }' "$q"/*.patch | sort | paste -sd' ')
	deps=$(sed -n 's/^+recordmcount_source += \(.*kftsites.*\)$/\1/p' "$q"/*.patch | head -n 1)
	deps=$(printf 'srctree := .\n$(info $(strip %s))\nall: ; @:\n' "$deps" | make -s -f - 2>/dev/null |
		tr ' ' '\n' | sed 's|^\./||' | grep . | sort | paste -sd' ')
	[ "$objs" = "$(printf '%s\n' "${ks[@]}" | sed 's/\.c$/.o/' | sort | paste -sd' ')" ] &&
		[ "$deps" = "$(printf 'scripts/%s\n' "${ks[@]}" $(cd scripts && ls kftsites*.h) | sort | paste -sd' ')" ]
	ok $? "${q#patches/}: scripts/Makefile links kftsites' files (kftsites-objs: ${objs:-none}), every object depends on each (recordmcount_source: ${deps:-none})"
done

# Each built to an object, nm gives what each defines and uses from
# another: none uses a file above it in the map.
built=1
for f in "${ks[@]}"; do
	${CC:-cc} -std=gnu11 -O0 -Iscripts -c "scripts/$f" -o "$objdir/ks-${f%.c}.o" 2>"$objdir/err" ||
		{ built=0; sed "s|^|# $f: |" "$objdir/err"; }
done
up=$([ "$built" = 1 ] && cd "$objdir" && python3 - "${ks[@]}" <<'PY'
import subprocess, sys
files = sys.argv[1:]
defs, uses = {}, {}
for f in files:
    o = 'ks-' + f[:-2] + '.o'
    out = subprocess.run(['nm', '--defined-only', '-g', o], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        defs.setdefault(line.split()[-1], f)
    out = subprocess.run(['nm', '-u', o], capture_output=True, text=True, check=True).stdout
    uses[f] = {line.split()[-1] for line in out.splitlines()}
for f in files:
    for s in sorted(uses[f]):
        d = defs.get(s)
        if d and files.index(d) < files.index(f):
            print(f'{f} uses {s} of {d}, above it')
PY
)
rc=$?
[ "${#ks[@]}" -ge 3 ] && [ "$built" = 1 ] && [ $rc = 0 ] && [ -z "$up" ]
ok $? "kftsites' files each build to an object; none uses one above it in kftsites_shared.h's map${up:+: $(echo "$up" | paste -sd';')}"

# One copy of each piece of code: the config parser (kernel/kft_config.c)
# is linked as an object by every tool, in KFT's Makefile, in the guest's
# build (tests/lib/initramfs.sh) and in every kernel queue's scripts/Makefile,
# never #included as source; no tool or kernel file #includes a .c.
inc=$(grep -rln '#include[[:space:]]*"[^"]*\.c"' scripts kernel include arch 2>/dev/null | paste -sd' ')
objs=$(grep -L 'mkkftrun-objs := mkkftrun.o kft_config.o' patches/linux-*/0004-kft-boot-runs.patch | paste -sd' ')
[ -z "$inc" ] && [ -z "$objs" ] && grep -q 'slurp.c.*kernel/kft_config.c' tests/lib/initramfs.sh
ok $? "no source #includes a .c: kft_config.c is an object everywhere${inc:+ (#include: $inc)}${objs:+ (no mkkftrun-objs: $objs)}"
# One whole-file reader, scripts/kft/slurp.c: the others that read are the
# streams (addr2sym's chunks, crlines.c's lines) and kft's exec-error pipe.
readers=$(grep -lE '(^|[^a-z_])f?read\(' scripts/*.c scripts/kft/*.c | grep -vxE 'scripts/kft/slurp.c|scripts/addr2sym.c|scripts/kft/crlines.c|scripts/kft.c' | paste -sd' ')
[ -z "$readers" ] && [ "$(grep -cE '(^|[^a-z_])read\(' scripts/kft.c)" = 1 ]
ok $? "one whole-file reader, scripts/kft/slurp.c, for every tool${readers:+ (others: $readers)}"

# A file KFT once installed into kernel trees and no longer ships is in
# patches/RETIRED, for install.sh removes it from trees installed before
# they recorded what they wrote.  Git's history says which: files deleted
# from the installed directories (renames as a deletion and an addition).
if git rev-parse --git-dir > /dev/null 2>&1 && [ "$(git rev-parse --is-shallow-repository)" = false ]; then
	unlisted=$(git log --no-renames --diff-filter=D --name-only --format= -- kernel include scripts Documentation arch |
		sort -u | while read -r f; do
			[ -e "$f" ] || grep -qxF -- "$f" patches/RETIRED 2>/dev/null || echo "$f"
		done | paste -sd' ')
	[ -z "$unlisted" ] && [ -s patches/RETIRED ]
	ok $? "patches/RETIRED names every file KFT no longer installs (history: $(grep -vc "^#" patches/RETIRED 2>/dev/null) files${unlisted:+; not there: $unlisted})"
else
	tap_skip "patches/RETIRED against history: no full git history here"
fi
tap_done
