#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench-realcpu: KFT's compensated times on this machine's real CPU
# (bench/README.md, "On a real CPU").  Lua 5.4, fetched as Debian's source
# (its .orig tarball, checked against the SHA256 pinned here) into
# $KFT_CACHE/realcpu, runs four phases (driver.c), built three ways per
# compiler (build.sh): (a) not instrumented, (b) empty hooks, (c) KFT's
# engine as the hooks, run with every call logged and with
# `filter mintime 100`.  Rounds of a, b, c-every, c-mintime, interleaved,
# each pinned to one CPU; per phase the medians over the rounds, their
# spread, kd's compensated time against (b), and PASS/FAIL against the
# criterion (within RC_LIMIT, 10%, of (b)).  A benchmark: exits 0 with a
# verdict of FAIL; nonzero only when it could not measure.
#
# Environment: RC_CC (compilers, default "gcc clang"), RC_RUNS (rounds,
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
RC_CC=${RC_CC:-gcc clang}
RC_RUNS=${RC_RUNS:-9}
RC_CPU=${RC_CPU:-$(($(nproc) - 1))}
RC_SCALE=${RC_SCALE:-1}
RC_REPS=${RC_REPS:-5}
RC_LIMIT=${RC_LIMIT:-0.10}
kd=$BUILD/kd
[ -x "$kd" ] || kft_die "no $kd: make tools first"

# Debian's lua5.4 source (bookworm's 5.4.4), from the pool directly.
LUA_VER=5.4.4
LUA_FILE=lua5.4_$LUA_VER.orig.tar.gz
LUA_SHA256=164c7849653b80ae67bec4b7473b884bf5cc8d2dca05653475ec2ed27b9ebf61
cache=$KFT_CACHE/realcpu
lua=$cache/lua-$LUA_VER
mkdir -p "$cache"
exec 8>"$cache/.lock"
flock 8
if ! echo "$LUA_SHA256  $cache/$LUA_FILE" | sha256sum -c --status 2>/dev/null; then
	mirror=$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n1)
	mirror=${mirror:-http://deb.debian.org/debian}
	url=$mirror/pool/main/l/lua5.4/$LUA_FILE
	kft_log "fetching $url"
	if ! curl -fsS --max-time 120 -o "$cache/$LUA_FILE.part" "$url"; then
		rm -f "$cache/$LUA_FILE.part"
		echo "realcpu: cannot download $url" >&2
		exit 3
	fi
	echo "$LUA_SHA256  $cache/$LUA_FILE.part" | sha256sum -c --status ||
		kft_die "$url: SHA256 is not the pinned $LUA_SHA256"
	mv "$cache/$LUA_FILE.part" "$cache/$LUA_FILE"
	rm -rf "$lua"
fi
if [ ! -f "$lua/.kft-sha256" ] || [ "$(cat "$lua/.kft-sha256")" != "$LUA_SHA256" ]; then
	rm -rf "$lua" "$lua.tmp"
	mkdir -p "$lua.tmp"
	tar -C "$lua.tmp" --strip-components=1 -xzf "$cache/$LUA_FILE"
	echo "$LUA_SHA256" > "$lua.tmp/.kft-sha256"
	mv "$lua.tmp" "$lua"
fi
flock -u 8

out=${RC_OUT:-$BUILD/realcpu}
mkdir -p "$out"
for cc in $RC_CC; do
	command -v "$cc" >/dev/null || kft_die "no compiler $cc"
	kft_log "building Lua $LUA_VER and the driver three ways with $cc"
	"$repo/bench/realcpu/build.sh" "$cc" "$lua" "$out/$cc"
done

# Configs as /proc/kft takes them; the log holds every call of a round.
every=$'new\nlogentries 16777216\nend\n'
mintime=$'new\nfilter mintime 100\nend\n'
samples=$out/samples.txt
: > "$samples"

# run CC ROUND VARIANT: one run, pinned; its lines into samples.txt:
#   CC ROUND VARIANT PHASE NS CLEAN                     (a, b)
#   CC ROUND VARIANT PHASE NS CALLS LOGGED DROPPED_NS LOGGED_NS OWN_NS RAW_NS CLEAN
# NS the best of the repeats without a context switch (driver.c), CLEAN
# how many there were (0: the best of all of them).
run() {
	local cc=$1 r=$2 v=$3 dir=$out/$1 bin args=() log=$out/$1/run.log res
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
	for cc in $RC_CC; do
		for v in a b every mintime; do
			run "$cc" "$r" "$v"
		done
	done
done

{
	echo "Lua $LUA_VER (Debian's source), scale $RC_SCALE, $RC_RUNS interleaved rounds pinned to CPU $RC_CPU"
	echo "($(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1), $(nproc) CPUs; load average $load0 before, $(cut -d' ' -f1-3 /proc/loadavg) after);"
	echo "times in ms, medians; spread = (max - min) / median over the rounds."
	echo
	awk -v limit="$RC_LIMIT" -v reps="$RC_REPS" -f "$repo/bench/realcpu/report.awk" "$samples"
} > "$out/realcpu.md"
cat "$out/realcpu.md"
