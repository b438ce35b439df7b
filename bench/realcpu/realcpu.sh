#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench-realcpu: KFT's compensated times on this machine's real CPU
# (bench/README.md, "On a real CPU").  Real programs - Lua 5.4 and bzip2,
# fetched as Debian's source (their .orig tarballs, checked against the
# SHA256 pinned here) into $KFT_CACHE/realcpu - run four phases each
# (driver.c, prog_lua.c, prog_bzip2.c), built three ways per program and
# compiler (build.sh): (a) not instrumented, (b) empty hooks, (c) KFT's
# engine as the hooks, run with every call logged and with
# `filter mintime 100`.  Rounds of a, b, c-every, c-mintime, interleaved,
# each pinned to one CPU; per phase the medians over the rounds, their
# spread, kd's compensated time against (b), and PASS/FAIL against the
# criterion (within RC_LIMIT, 10%, of (b)).  A benchmark: exits 0 with a
# verdict of FAIL; nonzero only when it could not measure.
#
# Environment: RC_PROGS (default "lua bzip2"), RC_CC (compilers, default
# "gcc clang"), RC_RUNS (rounds,
# default 9), RC_CPU (the CPU to pin to, default the last), RC_SCALE
# (work per phase, default 1), RC_REPS (each
# phase's repeats in a run, the best counts: default 5), RC_LIMIT (default 0.10), BUILD,
# RC_OUT (default $BUILD/realcpu).
# Writes RC_OUT/samples.txt (one line per measurement) and
# RC_OUT/realcpu.md (the table).  Exit 3: the source could not be
# downloaded.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/tests/lib/common.sh"
BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$repo/$BUILD ;; esac
RC_PROGS=${RC_PROGS:-lua bzip2}
RC_CC=${RC_CC:-gcc clang}
RC_RUNS=${RC_RUNS:-9}
RC_CPU=${RC_CPU:-$(($(nproc) - 1))}
RC_SCALE=${RC_SCALE:-1}
RC_REPS=${RC_REPS:-5}
RC_LIMIT=${RC_LIMIT:-0.10}
kd=$BUILD/kd
[ -x "$kd" ] || kft_die "no $kd: make tools first"

# The programs' sources: Debian's (bookworm's) .orig tarballs, from the
# archive's pool directly (deb-src need not be configured), SHA256 pinned.
# source PROGRAM: sets src, the extracted tree in the cache.
cache=$KFT_CACHE/realcpu
mkdir -p "$cache"
source_of() {
	local pool file sha dir mirror url
	case $1 in
	lua) pool=l/lua5.4 file=lua5.4_5.4.4.orig.tar.gz dir=lua-5.4.4
		sha=164c7849653b80ae67bec4b7473b884bf5cc8d2dca05653475ec2ed27b9ebf61 ;;
	bzip2) pool=b/bzip2 file=bzip2_1.0.8.orig.tar.gz dir=bzip2-1.0.8
		sha=ab5a03176ee106d3f0fa90e381da478ddae405918153cca248e682cd0c4a2269 ;;
	*) kft_die "RC_PROGS: no program $1 (lua, bzip2)" ;;
	esac
	src=$cache/$dir
	exec 8>"$cache/.lock"
	flock 8
	if ! echo "$sha  $cache/$file" | sha256sum -c --status 2>/dev/null; then
		mirror=$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n1)
		mirror=${mirror:-http://deb.debian.org/debian}
		url=$mirror/pool/main/$pool/$file
		kft_log "fetching $url"
		if ! curl -fsS --max-time 120 -o "$cache/$file.part" "$url"; then
			rm -f "$cache/$file.part"
			echo "realcpu: cannot download $url" >&2
			exit 3
		fi
		echo "$sha  $cache/$file.part" | sha256sum -c --status ||
			kft_die "$url: SHA256 is not the pinned $sha"
		mv "$cache/$file.part" "$cache/$file"
		rm -rf "$src"
	fi
	if [ ! -f "$src/.kft-sha256" ] || [ "$(cat "$src/.kft-sha256")" != "$sha" ]; then
		rm -rf "$src" "$src.tmp"
		mkdir -p "$src.tmp"
		tar -C "$src.tmp" --strip-components=1 -xzf "$cache/$file"
		echo "$sha" > "$src.tmp/.kft-sha256"
		mv "$src.tmp" "$src"
	fi
	flock -u 8
}

out=${RC_OUT:-$BUILD/realcpu}
mkdir -p "$out"
for prog in $RC_PROGS; do
	source_of "$prog"
	for cc in $RC_CC; do
		command -v "$cc" >/dev/null || kft_die "no compiler $cc"
		kft_log "building $prog and the driver three ways with $cc"
		"$repo/bench/realcpu/build.sh" "$cc" "$prog" "$src" "$out/$prog-$cc"
	done
done

# Configs as /proc/kft takes them; the log holds every call of a round.
every=$'new\nlogentries 16777216\nend\n'
mintime=$'new\nfilter mintime 100\nend\n'
samples=$out/samples.txt
: > "$samples"

# run PROGRAM CC ROUND VARIANT: one run, pinned; its lines into samples.txt
# (WHAT: PROGRAM/CC):
#   WHAT ROUND VARIANT PHASE NS CLEAN                     (a, b)
#   WHAT ROUND VARIANT PHASE NS CALLS LOGGED DROPPED_NS LOGGED_NS OWN_NS RAW_NS CLEAN
# NS the best of the repeats without a context switch (driver.c), CLEAN
# how many there were (0: the best of all of them).
run() {
	local cc=$1/$2 r=$3 v=$4 dir=$out/$1-$2 bin args=() log=$out/$1-$2/run.log res
	case $v in
	a|b) bin=$dir/$v ;;
	every) bin=$dir/c; args=(-k "$every" "$log") ;;
	mintime) bin=$dir/c; args=(-k "$mintime" "$log") ;;
	esac
	res=$(taskset -c "$RC_CPU" "$bin" -s "$RC_SCALE" -r "$RC_REPS" "${args[@]}") ||
		kft_die "$bin ${args[*]} failed"
	if [ "$v" = a ] || [ "$v" = b ]; then
		awk -v cc="$cc" -v r="$r" -v v="$v" '
			$1 == "tsc_hz" { hz = $2 }
			$1 == "phase" { printf "%s %s %s %s %.0f %d\n", cc, r, v, $2, $3 / hz * 1e9, $4 }
		' <<< "$res" >> "$samples"
		return
	fi
	# kd's compensated and raw times, the log's Calls and Logged columns
	# and its Hook cost line.
	"$kd" -m "$dir/c.map" -f Fctr "$log" > "$log.kd" || kft_die "kd failed on $log"
	"$kd" --raw -m "$dir/c.map" -f Fctr "$log" > "$log.raw" || kft_die "kd --raw failed on $log"
	awk -v cc="$cc" -v r="$r" -v v="$v" '
		FILENAME == "-" { if ($1 == "phase") clean[$2] = $4; next }
		FILENAME ~ /map$/ { if ($3 ~ /^phase_/) name["0x" $1] = $3; next }
		# Range "min-max": the best of the repeats of the run, as the driver.
		FILENAME ~ /kd$/ { if ($1 ~ /^phase_/) { split($4, m, "-"); comp[$1] = m[1] * 1000 }; next }
		FILENAME ~ /raw$/ { if ($1 ~ /^phase_/) { split($4, m, "-"); raw[$1] = m[1] * 1000 }; next }
		/^Hook cost = / { split($0, h, /[ =,]+/); drop = h[3]; logd = h[6]; own = h[9]; next }
		$4 in name { calls[name[$4]] += $7; logged[name[$4]] += $8; n[name[$4]]++ }
		END {
			for (p in calls) {
				if (!(p in comp) || !(p in raw)) { print "no kd time for " p > "/dev/stderr"; exit 1 }
				printf "%s %s %s %s %.0f %d %d %s %s %s %.0f %d\n", cc, r, v, p, comp[p],
					calls[p] / n[p], logged[p] / n[p], drop, logd, own, raw[p], clean[p]
			}
		}
	' - "$dir/c.map" "$log.kd" "$log.raw" "$log" <<< "$res" >> "$samples" ||
		kft_die "cannot read $log back"
}

load0=$(cut -d' ' -f1-3 /proc/loadavg)
for r in $(seq 1 "$RC_RUNS"); do
	kft_log "round $r of $RC_RUNS"
	for prog in $RC_PROGS; do
		for cc in $RC_CC; do
			for v in a b every mintime; do
				run "$prog" "$cc" "$r" "$v"
			done
		done
	done
done

{
	echo "$RC_PROGS (Debian's sources), scale $RC_SCALE, $RC_RUNS interleaved rounds of $RC_REPS repeats, pinned to CPU $RC_CPU"
	echo "($(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1), $(nproc) CPUs; load average $load0 before, $(cut -d' ' -f1-3 /proc/loadavg) after);"
	echo "times in ms, medians; spread = (max - min) / median over the rounds."
	echo
	awk -v limit="$RC_LIMIT" -v reps="$RC_REPS" -f "$repo/bench/realcpu/report.awk" "$samples"
} > "$out/realcpu.md"
cat "$out/realcpu.md"
