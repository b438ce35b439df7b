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

# Files an earlier KFT installed and this one does not ship: those the
# last install recorded (.kft/files), and those patches/RETIRED names
# (trees installed before the record), are removed; nothing else is.
printf '# retired\nscripts/old-kft.h\n../outside\n/etc/kft-abs\n' > "$q/RETIRED"
grep -qxF kernel/kft.c "$tmp/good/.kft/files" && grep -qxF kernel/Kconfig.kft "$tmp/good/.kft/files"
ok $? "install: the record lists the files KFT installed ($(wc -l < "$tmp/good/.kft/files") of them)"
echo scripts/kft/gone.c >> "$tmp/good/.kft/files"
echo 'int gone;' > "$tmp/good/scripts/kft/gone.c"
echo 'int mine;' > "$tmp/good/scripts/mine.c"
echo 'int old;' > "$tmp/good/scripts/old-kft.h"
echo keep > "$tmp/outside"
patches/install.sh "$tmp/good" > "$tmp/out" 2>&1 &&
	[ ! -e "$tmp/good/scripts/kft/gone.c" ] && [ ! -e "$tmp/good/scripts/old-kft.h" ] &&
	[ -f "$tmp/good/scripts/mine.c" ] && [ "$(cat "$tmp/outside")" = keep ] &&
	grep -q '^kft-install: removed scripts/kft/gone.c (KFT no longer ships it)$' "$tmp/out" &&
	grep -q '^kft-install: removed scripts/old-kft.h' "$tmp/out" &&
	grep -q '(0 files, 2 removed, Linux 9.9.3)$' "$tmp/out" && ! grep -qxF scripts/kft/gone.c "$tmp/good/.kft/files"
ok $? "install: files an earlier KFT installed are removed (its record, patches/RETIRED), the tree's own and paths outside it are not ($(tail -n 1 "$tmp/out"))"
patches/install.sh "$tmp/good" > "$tmp/out" 2>&1 && grep -q 'is up to date' "$tmp/out"
ok $? "install: and then it is up to date ($(tail -n 1 "$tmp/out"))"
# A record naming a file through a symbolic link out of the tree: the
# whole install is refused, nothing removed or written.
mkdir -p "$tmp/elsewhere"
echo 'int x;' > "$tmp/elsewhere/victim.c"
ln -s "$tmp/elsewhere" "$tmp/good/linked"
echo linked/victim.c >> "$tmp/good/.kft/files"
echo 'int gone;' > "$tmp/good/scripts/kft/gone.c"
echo scripts/kft/gone.c >> "$tmp/good/.kft/files"
cp -a "$tmp/good" "$tmp/good.linked"
patches/install.sh "$tmp/good" > "$tmp/out" 2>&1
rc=$?
[ $rc = 1 ] && [ -f "$tmp/elsewhere/victim.c" ] && diff -r "$tmp/good.linked" "$tmp/good" > /dev/null &&
	grep -q 'linked is a symbolic link' "$tmp/out" && grep -q 'nothing was changed' "$tmp/out"
ok $? "install: a recorded file behind a symbolic link out of the tree refuses the install, nothing removed (exit $rc: $(tail -n 1 "$tmp/out" | cut -c1-80))"
rm -f "$tmp/good/linked"
sed -i '/^linked\/victim.c$/d' "$tmp/good/.kft/files"
patches/install.sh "$tmp/good" > /dev/null 2>&1 && rm -f "$q/RETIRED"

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

# Trees people have.  inst TREE: install, output in $tmp/out, exit in $rc.
inst() { "$@" > "$tmp/out" 2>&1; rc=$?; }
hunk() { grep -q '^static inline void apply_fineibt' "$1/alt.c"; }
# A tree of symbolic links (lndir, cp -rs) and one of hard links (cp -al)
# to a pristine tree: patched copies replace them, the other tree is
# never written.  Before: written through, exit 0.
mktree "$tmp/pristine" 9.9.3
cp -a "$tmp/pristine" "$tmp/pristine.before"
cp -rs "$tmp/pristine" "$tmp/lnk"
inst patches/install.sh "$tmp/lnk"
[ $rc = 0 ] && diff -r "$tmp/pristine.before" "$tmp/pristine" >/dev/null &&
	[ -f "$tmp/lnk/alt.c" ] && [ ! -L "$tmp/lnk/alt.c" ] && hunk "$tmp/lnk" &&
	cmp -s kernel/kft.c "$tmp/lnk/kernel/kft.c" && [ ! -e "$tmp/pristine/kernel" ]
ok $? "install: a tree of symbolic links (cp -rs): alt.c replaced by a patched copy, the tree linked to unchanged (exit $rc)"
cp -al "$tmp/pristine" "$tmp/hard"
inst patches/install.sh "$tmp/hard"
[ $rc = 0 ] && diff -r "$tmp/pristine.before" "$tmp/pristine" >/dev/null && hunk "$tmp/hard" &&
	[ "$(stat -c %h "$tmp/hard/alt.c")" = 1 ]
ok $? "install: a tree of hard links (cp -al): alt.c patched as a file of its own, the other tree unchanged (exit $rc)"
# A directory on the way that is a symbolic link out of the tree: refused.
mktree "$tmp/dirlink" 9.9.3
mkdir -p "$tmp/elsewhere/kernel"
ln -s "$tmp/elsewhere/kernel" "$tmp/dirlink/kernel"
cp -a "$tmp/dirlink" "$tmp/dirlink.before"
inst patches/install.sh "$tmp/dirlink"
[ $rc = 1 ] && grep -q "dirlink/kernel is a symbolic link (to $tmp/elsewhere/kernel): KFT writes only inside the tree" "$tmp/out" &&
	grep -q 'nothing was changed' "$tmp/out" && [ -z "$(ls -A "$tmp/elsewhere/kernel")" ] &&
	diff -r --no-dereference "$tmp/dirlink.before" "$tmp/dirlink" >/dev/null
ok $? "install: kernel/ a symbolic link out of the tree: refused, nothing written there or in the tree (exit $rc: $(grep -m1 'symbolic link' "$tmp/out" | sed "s|$tmp/||g"))"

# As a user who is not root (root writes anyway): a directory it cannot
# write refuses the install before anything is changed (before: 76 paths
# changed, no record, the next install refused the tree); a read-only
# file is patched, as patch(1) does, its mode kept.
if [ "$(id -u)" = 0 ]; then
	chmod 755 "$tmp"
	asuser() { setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=/nonexistent \
		GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=safe.directory GIT_CONFIG_VALUE_0='*' "$@"; }
	own() { chown -R 65534:65534 "$1"; }
else
	asuser() { "$@"; }
	own() { :; }
fi
mktree "$tmp/ro" 9.9.3
mkdir -p "$tmp/ro/kernel" "$tmp/ro/include/linux"
own "$tmp/ro"
chmod 555 "$tmp/ro/kernel"
cp -a "$tmp/ro" "$tmp/ro.before"
inst asuser patches/install.sh "$tmp/ro"
[ $rc = 1 ] && grep -q "ro/kernel is not writable" "$tmp/out" &&
	grep -q 'cannot install into .*ro: [0-9]* path(s) above cannot be written; nothing was changed' "$tmp/out" &&
	diff -r "$tmp/ro.before" "$tmp/ro" >/dev/null
ok $? "install: a directory it cannot write: refused before anything is changed (exit $rc: $(tail -n 1 "$tmp/out" | sed "s|$tmp/||g"))"
chmod 755 "$tmp/ro/kernel"
chmod 444 "$tmp/ro/alt.c"
inst asuser patches/install.sh "$tmp/ro"
[ $rc = 0 ] && hunk "$tmp/ro" && [ "$(stat -c %a "$tmp/ro/alt.c")" = 444 ] &&
	[ -f "$tmp/ro/.kft/patches/series" ] && [ -z "$(find "$tmp/ro" -name '*.kft-new')" ]
ok $? "install: then writable, with alt.c read-only: installed, alt.c patched and still read-only (exit $rc: $(tail -n 1 "$tmp/out" | sed "s|$tmp/||g"))"
# A write that fails half-way (here: a directory where alt.c's new copy
# goes): every file written so far removed, nothing changed.
mktree "$tmp/half" 9.9.3
mkdir "$tmp/half/alt.c.kft-new"
cp -a "$tmp/half" "$tmp/half.before"
inst patches/install.sh "$tmp/half"
[ $rc = 1 ] && grep -q 'cannot write .*alt.c.kft-new; nothing was changed' "$tmp/out" &&
	diff -r "$tmp/half.before" "$tmp/half" >/dev/null
ok $? "install: a write failing half-way: what was written removed, nothing changed (exit $rc)"

# A git tree whose patched files were reverted (git checkout -- ., the
# record untracked): not "up to date" (before: exit 0, no hunk), the
# queue applied again; up to date only when every hunk is there.
mktree "$tmp/git" 9.9.3
git -C "$tmp/git" init -q && git -C "$tmp/git" add -A &&
	git -C "$tmp/git" -c user.name=t -c user.email=t@t commit -qm pristine
patches/install.sh "$tmp/git" > /dev/null 2>&1
git -C "$tmp/git" checkout -q -- .
inst patches/install.sh "$tmp/git"
[ $rc = 0 ] && ! grep -q 'up to date' "$tmp/out" && grep -q 'records a queue the tree does not carry' "$tmp/out" &&
	grep -q 'KFT installed in' "$tmp/out" && hunk "$tmp/git"
ok $? "install: a git tree reverted with the record left: the queue applied again (exit $rc: $(head -n 1 "$tmp/out" | sed "s|$tmp/||g" | cut -c1-100))"
inst patches/install.sh "$tmp/git"
[ $rc = 0 ] && grep -q 'is up to date' "$tmp/out"
ok $? "install: and then up to date"

# An older KFT applied without its record: named as such, not blamed on
# fuzz; nothing changed.
mktree "$tmp/older" 9.9.3
sed -i '8s/^static void/static notrace void/' "$tmp/older/alt.c"
mkdir -p "$tmp/older/kernel"
echo 'config KFT' > "$tmp/older/kernel/Kconfig.kft"
cp -a "$tmp/older" "$tmp/older.before"
inst patches/install.sh "$tmp/older"
[ $rc = 1 ] && grep -q 'already has a KFT (kernel/Kconfig.kft) with no record in .kft/ that is not linux-9.9.s queue (an older KFT' "$tmp/out" &&
	! grep -q 'without fuzz' "$tmp/out" && diff -r "$tmp/older.before" "$tmp/older" >/dev/null
ok $? "install: an older KFT without its record: named, nothing changed (exit $rc)"

# Run from make (make -C, make install): no "Entering directory" in the
# version it reads (before: in every message).  Not the flags of a make
# this test may run under (make -s check: no directory lines at all).
mktree "$tmp/mk" 9.9.3
inst env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$repo" install KSRC="$tmp/mk"
[ $rc = 0 ] && grep -q "^kft-install: KFT installed in $tmp/mk (Linux 9.9.3)$" "$tmp/out" &&
	[ "$(grep -c 'Entering directory' "$tmp/out")" = 1 ]
ok $? "install: from make -C: the version read without make's directory lines (exit $rc: $(grep kft-install "$tmp/out" | tr '\n' ' ' | sed "s|$tmp/||g" | cut -c1-120))"
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
	# A tree the kernel tests have installed KFT into carries the hunk
	# already: then it must reverse exactly.
	hunk=patches/linux-$s/0013-kft-documentation-in-the-trace-index.patch
	patch -s -p1 -F0 -N --dry-run -d "$tree" < "$hunk" > /dev/null 2>&1 ||
		patch -s -p1 -F0 -R -f --dry-run -d "$tree" < "$hunk" > /dev/null 2>&1
	ok $? "linux-$s: the index hunk applies to ${tree#"$KFT_CACHE"/}'s Documentation/trace/index.rst with no fuzz (or is there, exactly)"
done
# The real queues on the real sources, when the cache has them extracted
# (tests/lib/ksource.sh; a cold CI run extracts them later): a small tree
# of the files a queue touches, copied from the cached tree (which is
# only read), its record with it; installed there, then up to date; then
# those files reverted (as git checkout would), the record left: the
# queue applied again, every hunk present.
for s in $(kft_series_list); do
	read -r _ src sver _ < <(kft_series_line "$s")
	case $src in
	deb) ktree=$KFT_CACHE/src/linux-source-$s ;;
	src) ktree=$KFT_CACHE/src/linux-${sver%%-*} ;;
	*) ktree=$KFT_CACHE/src/linux-source-${sver%%-*} ;;
	esac
	if [ ! -f "$ktree/.kft-tarball" ] || [ ! -f "$ktree/Makefile" ] || [ ! -f "$ktree.lock" ]; then
		tap_skip "install: linux-$s on its real source: no extracted tree in $KFT_CACHE/src yet"
		continue
	fi
	mini=$tmp/real-$s
	rm -rf "$mini"
	mkdir -p "$mini"
	# (Read only: the lock files are opened for reading, shared.)
	exec 8< "$ktree.lock"
	flock -s -w 120 8
	rver=$(env -u MAKEFLAGS make -s --no-print-directory -C "$ktree" kernelversion 2>/dev/null)
	# (make reads GNUmakefile first: the real Makefile is one the queue patches.)
	printf 'kernelversion:\n\t@echo %s\n' "$rver" > "$mini/GNUmakefile"
	sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "patches/linux-$s"/0*.patch | sort -u | while read -r f; do
		mkdir -p "$mini/$(dirname "$f")"
		cp "$ktree/$f" "$mini/$f"
	done
	[ -d "$ktree/.kft/patches" ] && cp -r "$ktree/.kft" "$mini/.kft"
	exec 8<&-
	patches/install.sh "$mini" > "$tmp/out" 2>&1 && patches/install.sh "$mini" > "$tmp/out2" 2>&1 &&
		grep -q 'is up to date' "$tmp/out2"
	r1=$?
	# Reverted: the queue reversed by hand in the files, the record left.
	tac "patches/linux-$s/series" | while read -r p; do
		patch -s -p1 -R -F0 -d "$mini" < "patches/linux-$s/$p" || exit 1
	done &&
		patches/install.sh "$mini" > "$tmp/out3" 2>&1 && ! grep -q 'up to date' "$tmp/out3" &&
		grep -q 'KFT installed' "$tmp/out3" &&
		tac "patches/linux-$s/series" | while read -r p; do
			patch -s -p1 -R -F0 --dry-run -d "$mini" < "patches/linux-$s/$p" > /dev/null || exit 1
		done
	[ $r1 = 0 ] && [ $? = 0 ]
	ok $? "install: linux-$s on its real source (Linux $rver): installed, up to date, reverted and installed again ($(tail -n 1 "$tmp/out3" | sed "s|$tmp/||"))"
done
tap_done
