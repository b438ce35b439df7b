#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench-ab: is a change to the hot path faster?  Compares the KFT
# kernel of a git revision (A, default HEAD) with the working tree's (B).
#
# Boots the two kernels in turn, RUNS times each, so that whatever slows
# the machine for a while slows both; each boot times make bench's
# workloads untraced, then with every call logged, then with nearly every
# call dropped (filter mintime 100).  A call's cost is (traced - untraced,
# same boot) / calls per operation, as in make bench.  Spreads between
# boots of one kernel run to 5-10% under QEMU: trust a difference beyond
# that, on all three workloads.
#
# Environment: BENCH_A (a revision, default HEAD), RUNS (default 4), SCALE
# (default 3), BENCH_CC (gcc or clang, default gcc), KFT_ARCH (default
# x86_64), BUILD.  Output: build/bench/ab/ab-ARCH-CC.md.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
. tests/lib/common.sh
KFT_ARCH=${KFT_ARCH:-x86_64}
. tests/lib/arch.sh
BUILD=${BUILD:-build}
RUNS=${RUNS:-4}
SCALE=${SCALE:-3}
cc=${BENCH_CC:-gcc}
[[ $RUNS =~ ^[1-9][0-9]*$ ]] || kft_die "RUNS=$RUNS: boots per kernel, 1 or more"
rev=$(git rev-parse --verify --quiet "${BENCH_A:-HEAD}^{commit}") ||
	kft_die "BENCH_A=${BENCH_A:-HEAD} is not a revision"
out=$BUILD/bench/ab
mkdir -p "$out"
out=$(cd "$out" && pwd)
t0=$SECONDS

# Each kernel is built in the one cached build tree, then its boot image
# copied out; B last, so the cache is left at the working tree.
worktree=$(mktemp -d)
trap 'git -C "$repo" worktree remove --force "$worktree" 2>/dev/null || true; rm -rf "$worktree"' EXIT
git worktree add --detach --quiet "$worktree" "$rev"
for k in a b; do
	if [ "$k" = a ]; then
		src=$worktree what=$(git rev-parse --short "$rev")
	else
		src=$repo what="working tree"
	fi
	kft_log "building the KFT kernel of ${k^^} ($what)"
	kdir=$("$src/tests/lib/kbuild.sh" kft "$cc" | tail -n 1)
	mkdir -p "$out/$k/$(dirname "$KIMAGE")"
	cp "$kdir/$KIMAGE" "$out/$k/$KIMAGE"
done

initrd=$out/initramfs-$KFT_ARCH.cpio.gz
tests/lib/initramfs.sh "$initrd"
raw=$out/raw-$KFT_ARCH-$cc.txt
rm -f "$raw"
for run in $(seq 1 "$RUNS"); do
	for k in a b; do
		kft_log "$KFT_ARCH $cc, boot $run/$RUNS: ${k^^}"
		dir=$out/$k-$run
		tests/lib/qemu-run.sh -s 1 -m 1G -t 900 ${KFT_BENCH_QEMU[@]+"${KFT_BENCH_QEMU[@]}"} -i "$initrd" \
			-a "kftbench=kft kftscale=$SCALE" "$out/$k" "$dir" bench
		awk -v k="$k" -v r="$run" '{ print k, r, $0 }' "$dir/bench.out" >> "$raw"
	done
done
awk -v arch="$KFT_ARCH" -v cc="$cc" -v runs="$RUNS" -v clock="$KFT_BENCH_CLOCK" \
    -v a="$(git rev-parse --short "$rev")" -f bench/stats.awk -f bench/ab.awk "$raw" \
	> "$out/ab-$KFT_ARCH-$cc.md"
cat "$out/ab-$KFT_ARCH-$cc.md"
kft_log "bench-ab done in $((SECONDS - t0)) s; table in $out/ab-$KFT_ARCH-$cc.md"
