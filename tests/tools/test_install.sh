#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# patches/install.sh against small trees and queues of our own (KFT_PATCHES):
# the queue chosen by the tree's version, applied exactly or not at all
# (a hunk that would apply only with fuzz - here, as on 6.18's
# __apply_fineibt, at the wrong function - refuses the whole install and
# leaves the tree as it was), a series it has no queue for named, a
# second install a no-op; and the real queues: one patch set, every
# series in patches/SERIES.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
. tests/lib/tap.sh
tap_tmpdir

# A "kernel tree" of version $2, with one file, alt.c: the real function,
# then the stub the queue's patch marks notrace.
mktree() {
	mkdir -p "$1"
	printf 'kernelversion:\n\t@echo %s\n' "$2" > "$1/Makefile"
	cat > "$1/alt.c" <<'C'
#ifdef CONFIG_FINEIBT
static void apply_fineibt(int *start, int *end)
{
	fineibt_setup(start, end);
	fineibt_done();
}
#else
static void apply_fineibt(int *start, int *end)
{
}
#endif
C
}
q=$tmp/patches
mkdir -p "$q/linux-9.9"
printf '# test series\n9.9  src  9.9.3-1  -\n9.10  src  9.10.1-1  -\n' > "$q/SERIES"
echo 0001-stub.patch > "$q/linux-9.9/series"
cat > "$q/linux-9.9/0001-stub.patch" <<'P'
Subject: the stub is notrace
---
--- a/alt.c
+++ b/alt.c
@@ -6,7 +6,7 @@
 	fineibt_done();
 }
 #else
-static void apply_fineibt(int *start, int *end)
+static inline void apply_fineibt(int *start, int *end)
 {
 }
 #endif
P
export KFT_PATCHES=$q

mktree "$tmp/good" 9.9.3
patches/install.sh "$tmp/good" > "$tmp/out" 2>&1 &&
	grep -q '^kft-install: KFT installed in .*good (Linux 9.9.3)$' "$tmp/out" &&
	grep -q '^static inline void apply_fineibt' "$tmp/good/alt.c" &&
	cmp -s kernel/kft.c "$tmp/good/kernel/kft.c" && cmp -s Kconfig.kft "$tmp/good/kernel/Kconfig.kft" &&
	[ -f "$tmp/good/.kft/patches/0001-stub.patch" ]
ok $? "install: the queue for the tree's series applies, KFT's files are copied ($(tail -n 1 "$tmp/out"))"
# The manual is a directory: index.rst and every chapter are installed.
docs_ok=0
for d in Documentation/trace/kft/*.rst; do
	cmp -s "$d" "$tmp/good/$d" || { echo "# not installed: $d"; docs_ok=1; }
done
[ -f "$tmp/good/Documentation/trace/kft/index.rst" ] && [ $docs_ok = 0 ]
ok $? "install: Documentation/trace/kft/ (index.rst and its chapters) is copied into the tree"
cp -a "$tmp/good" "$tmp/good.before"
patches/install.sh "$tmp/good" > "$tmp/out" 2>&1 &&
	grep -q 'is up to date (Linux 9.9.3)$' "$tmp/out" && diff -r "$tmp/good.before" "$tmp/good" >/dev/null
ok $? "install: a second install changes nothing ($(tail -n 1 "$tmp/out"))"

# A later version of the file: the stub is no longer empty and comes
# first.  patch's default fuzz (2) puts the hunk on the real function.
mktree "$tmp/fuzz" 9.9.7
cat > "$tmp/fuzz/alt.c" <<'C'
#ifndef CONFIG_FINEIBT
static void apply_fineibt(int *start, int *end)
{
	pr_info("CFI: Using standard kCFI\n");
}
#else
static void apply_fineibt(int *start, int *end)
{
	fineibt_setup(start, end);
	fineibt_done();
}
#endif
C
cp -a "$tmp/fuzz" "$tmp/fuzz.before"
(cd "$tmp/fuzz" && patch -p1 -o "$tmp/alt-fuzzed.c" < "$q/linux-9.9/0001-stub.patch" > "$tmp/plain" 2>&1)
grep -q 'with fuzz 2' "$tmp/plain" && [ "$(grep -n 'static inline' "$tmp/alt-fuzzed.c" | cut -d: -f1)" = 7 ]
ok $? "install: the hostile tree: plain patch applies the hunk to the real function ($(grep -m1 Hunk "$tmp/plain"))"
patches/install.sh "$tmp/fuzz" > "$tmp/out" 2>&1
rc=$?
[ "$rc" = 1 ] && grep -q "linux-9.9/0001-stub.patch does not apply to .*fuzz (Linux 9.9.7) without fuzz; nothing was changed" "$tmp/out" &&
	grep -q 'Hunk #1 FAILED' "$tmp/out" && diff -r "$tmp/fuzz.before" "$tmp/fuzz" >/dev/null
ok $? "install: with no fuzz it refuses the whole install, says why, and changes nothing (exit $rc: $(grep -m1 'does not apply' "$tmp/out" | cut -c1-60)...)"

mktree "$tmp/old" 5.4.0
cp -a "$tmp/old" "$tmp/old.before"
patches/install.sh "$tmp/old" > "$tmp/out" 2>&1
rc=$?
[ "$rc" = 1 ] && grep -q 'is Linux 5.4.0; KFT has patches for Linux 9.9.y, 9.10.y (patches/SERIES)$' "$tmp/out" &&
	diff -r "$tmp/old.before" "$tmp/old" >/dev/null
ok $? "install: a series without a queue is refused, naming the ones there are ($(cat "$tmp/out"))"
mktree "$tmp/noqueue" 9.10.1
patches/install.sh "$tmp/noqueue" > "$tmp/out" 2>&1
[ $? = 1 ] && grep -q 'is Linux 9.10.1; KFT has patches for' "$tmp/out"
ok $? "install: a series in SERIES without its queue directory is refused too"
mkdir -p "$tmp/notree"
patches/install.sh "$tmp/notree" > "$tmp/out" 2>&1
[ $? = 1 ] && grep -q 'not a kernel tree' "$tmp/out"
ok $? "install: a directory that is not a kernel tree: $(cat "$tmp/out")"
patches/install.sh "$tmp/missing" > "$tmp/out" 2>&1
[ $? = 1 ] && grep -q 'no kernel tree at' "$tmp/out"
ok $? "install: a path that does not exist: $(tail -n 1 "$tmp/out")"
unset KFT_PATCHES

# The real queues: a queue for every series of patches/SERIES, the same
# patches in each (one patch set, ported), every hunk well formed.
. tests/lib/common.sh
default=$(cat "patches/linux-$KFT_KVER_DEFAULT/series")
queue_ok() {	# queue_ok DIR
	local p
	[ -f "$1/series" ] && [ "$(cat "$1/series")" = "$default" ] || return 1
	while read -r p; do
		[ -f "$1/$p" ] && grep -q '^Subject: ' "$1/$p" && grep -q '^+++ b/' "$1/$p" || return 1
		# patch parses every hunk (their line counts add up)
		! patch -p1 --dry-run -f -d "$tmp/notree" < "$1/$p" 2>&1 | grep -q 'malformed' || return 1
	done < "$1/series"
}
for s in $(kft_series_list); do
	queue_ok "patches/linux-$s"
	ok $? "install: linux-$s: the queue holds patches/linux-$KFT_KVER_DEFAULT's patches, each well formed"
done
# The manual is reachable from the kernel's documentation: each queue adds
# kft/index to Documentation/trace/index.rst's toctree, and the one-file
# patch (make patch) carries every page of the manual and that hunk.
for s in $(kft_series_list); do
	KFT_KVER=$s tests/lib/mkpatch.sh > "$tmp/kft-$s.patch" 2>"$tmp/err"
	rc=$?
	miss=
	for d in $(git ls-files Documentation/trace/kft); do
		grep -qx "+++ b/$d" "$tmp/kft-$s.patch" || miss="$miss $d"
	done
	[ $rc = 0 ] && [ -z "$miss" ] &&
		awk '/^\+\+\+ b\/Documentation\/trace\/index.rst/ { f = 1 } f && /^\+   kft\/index$/ { found = 1 } END { exit !found }' "$tmp/kft-$s.patch"
	ok $? "make patch KVER=$s: the manual's pages and kft/index in Documentation/trace/index.rst${miss:+ (missing:$miss)}"
done
# Where the tests have a series' tree (they extract it for the kernel
# tests; .kft-tarball marks one extracted whole), the index hunk applies to
# its Documentation/trace/index.rst exactly: no fuzz, as install.sh
# applies it.
for s in $(kft_series_list); do
	tree=
	for t in "$KFT_CACHE"/src/linux-source-"$s" "$KFT_CACHE"/src/linux-"$s".* "$KFT_CACHE"/src/linux-source-"$s".*; do
		[ -f "$t/.kft-tarball" ] && [ -f "$t/Documentation/trace/index.rst" ] && { tree=$t; break; }
	done
	if [ -z "$tree" ]; then
		tap_skip "linux-$s: no extracted tree in $KFT_CACHE/src to apply the index hunk to"
		continue
	fi
	patch -s -p1 -F0 --dry-run -d "$tree" < patches/linux-$s/0013-kft-documentation-in-the-trace-index.patch
	ok $? "linux-$s: the index hunk applies to ${tree#"$KFT_CACHE"/}'s Documentation/trace/index.rst with no fuzz"
done
tap_done
