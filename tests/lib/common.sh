# SPDX-License-Identifier: GPL-2.0
# Shared by the build, boot and test scripts: cache location, logging, the
# kernel tree.  Source it; it expects $repo to be the repository root.

KFT_CACHE=${KFT_CACHE:-$HOME/.cache/kft}
export KFT_CACHE
# The kernel series KFT installs into (patches/SERIES: a line each, the
# default first).  KFT_KVER picks the one the builds and tests use.
kft_series_line() { awk -v s="$1" '!/^#/ && $1 == s { print; f = 1; exit } END { exit !f }' "$repo/patches/SERIES"; }
kft_series_list() { awk '!/^#/ && NF { printf "%s%s", sep, $1; sep = " " }' "$repo/patches/SERIES"; }
KFT_KVER_DEFAULT=$(awk '!/^#/ && NF { print $1; exit }' "$repo/patches/SERIES")
KFT_KVER=${KFT_KVER:-$KFT_KVER_DEFAULT}
export KFT_KVER

# kft_llvm_suffix KSRC: "" when Debian's clang (14) is new enough for the
# tree (its scripts/min-tool-version.sh), else -19 (make deps-full
# installs clang-19: 6.18 wants 15, 7.3 wants 17); dies if that is too
# old or missing.
KFT_LLVM_ALT=19
kft_llvm_suffix() {
	local min have
	min=$(SRCARCH=x86 "$1/scripts/min-tool-version.sh" llvm 2>/dev/null | cut -d. -f1)
	have=$(clang -dumpversion 2>/dev/null | cut -d. -f1)
	[ -n "$min" ] && [ -n "$have" ] && [ "$have" -lt "$min" ] || return 0
	[ "$KFT_LLVM_ALT" -ge "$min" ] ||
		kft_die "$1 needs clang $min or later; the newest KFT knows is clang-$KFT_LLVM_ALT"
	command -v "clang-$KFT_LLVM_ALT" > /dev/null ||
		kft_die "$1 needs clang $min or later (clang is $have): make deps-full installs clang-$KFT_LLVM_ALT"
	echo "-$KFT_LLVM_ALT"
}
kft_log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
kft_die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# The check tier's kernel (make check), one per architecture: GCC, the
# default boot run (kernel/kftstatic.conf) and loadable modules built in,
# so that one build serves the run, boot and module tests; tests that want
# no boot run boot it with kft=off.
KFT_CHECK_VARIANT=kft+static+modules
# Each other series' kernels (tests/e2e/test_series.sh): in the check
# tier one, on the architecture whose side of kft_compat.h it exercises -
# 6.18 x86_64 (smp_text_poke_batch_*(), 6.16), 6.1 arm64 (arch_*()
# atomics and core_layout, before 6.4), 7.3 arm64 (asm/text-patching.h,
# 6.13), x86_64 for a series not listed; make check-full: x86_64 and arm64.
KFT_SERIES_CHECK_ARCH="6.18 x86_64 6.1 arm64 7.3 arm64"
kft_series_arches() {
	local s=$1 a
	if [ "${KFT_TIER:-check}" = full ]; then
		echo "x86_64 arm64"
		return
	fi
	a=$(echo "$KFT_SERIES_CHECK_ARCH" | awk -v s="$s" '{ for (i = 1; i < NF; i += 2) if ($i == s) print $(i + 1) }')
	echo "${a:-x86_64}"
}
# The kernels the check tier builds, "ARCH VARIANT COMPILER [SERIES]" a
# line (the default series if none), in the order its tests first need
# them: tests/lib/prebuild.sh builds them ahead.  The other series'
# kernels come last (tests/e2e/test_series.sh).  Clang's: x86_64 and
# arm64 with KFT's LLVM pass (tests/e2e/test_accuracy.sh), and in make
# check-full, which builds them ahead too, without it.
KFT_CHECK_KERNELS="x86_64 $KFT_CHECK_VARIANT gcc$([ "${KFT_TIER:-check}" != full ] || printf '\nx86_64 kft clang')
arm64 $KFT_CHECK_VARIANT gcc$([ "${KFT_TIER:-check}" != full ] || printf '\narm64 kft clang')
riscv64 $KFT_CHECK_VARIANT gcc
arm $KFT_CHECK_VARIANT gcc
x86_64 kft+afterinlining clang
arm64 kft+afterinlining clang
x86_64 kft+debug gcc
$(for s in $(kft_series_list); do
	[ "$s" = "$KFT_KVER_DEFAULT" ] && continue
	for a in $(kft_series_arches "$s"); do
		printf '%s %s gcc %s\n' "$a" "$KFT_CHECK_VARIANT" "$s"
	done
done)"

# kft_noboot_args VARIANT: the kernel arguments that leave VARIANT's kernel
# with no run registered at user space (kft=off where a boot run is built in).
kft_noboot_args() {
	[[ "+$1+" = *+static+* ]] && echo kft=off
	return 0
}

# The benchmarks' clock.  BENCH_ICOUNT=1 boots under QEMU's instruction
# counting (qemu-run.sh -I): guest time is instruction time, one
# instruction a nanosecond, the same on every run and host, so one boot
# is enough and ratios compare across runs; otherwise the wall clock of
# QEMU's emulation, which moves with the host's load.  KFT_BENCH_QEMU:
# qemu-run.sh's options; KFT_BENCH_CLOCK: the reports' label.
if [ "${BENCH_ICOUNT:-0}" = 1 ]; then
	KFT_BENCH_QEMU=(-I)
	KFT_BENCH_CLOCK="instruction time (QEMU -icount shift=0,sleep=off: 1 instruction = 1 ns, deterministic)"
else
	KFT_BENCH_QEMU=()
	KFT_BENCH_CLOCK="wall clock of QEMU's emulation (moves with the host and its load)"
fi

# kft_timing KIND NAME SECONDS [DETAIL]: a row of the test run's timing
# table (KFT_TIMING, set by tests/run.sh, which prints the table).
kft_timing() {
	[ -n "${KFT_TIMING:-}" ] || return 0
	printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "${4:-}" >> "$KFT_TIMING"
}

# kft_ccache_hits: "HITS MISSES" in the kernels' ccache so far.
kft_ccache_hits() {
	CCACHE_DIR=${CCACHE_DIR:-$KFT_CACHE/ccache} ccache --print-stats 2>/dev/null |
		awk '$1 ~ /^(direct|preprocessed)_cache_hit$/ { h += $2 } $1 == "cache_miss" { m = $2 }
			END { print h + 0, m + 0 }'
}

# The kernel tree with KFT installed: $KSRC, or series $KFT_KVER's source
# extracted into the cache (tests/lib/ksource.sh).  Prints its path.  Exits
# 3 when the series' pinned source has left Debian's archive.
kft_kernel_tree() {
	local tree rc=0
	mkdir -p "$KFT_CACHE"
	exec 9>"$KFT_CACHE/.tree.lock"
	flock 9			# parallel builds share the tree
	if [ -n "${KSRC:-}" ]; then
		tree=$KSRC
	else
		tree=$("$repo/tests/lib/ksource.sh" "$KFT_KVER") || rc=$?
		[ "$rc" -ne 3 ] || exit 3
		[ "$rc" -eq 0 ] || kft_die "no Linux $KFT_KVER source tree"
	fi
	# A command substitution does not inherit set -e: fail out loud, or a
	# patch that no longer applies would build the tree as it was.
	"$repo/patches/install.sh" "$tree" >&2 ||
		kft_die "installing KFT into $tree failed"
	flock -u 9
	echo "$tree"
}

# kft_map_sym KDIR NAME: NAME's address in the kernel's System.map (hex,
# as the map has it); dies if the map has none.
kft_map_sym() {
	awk -v s="$2" '$3 == s { print $1; found = 1; exit } END { exit !found }' "$1/System.map" ||
		kft_die "$1/System.map has no $2"
}

# kft_file_open KDIR: what openat() opens its file through in KDIR's kernel:
# do_file_open() from 7.x on, do_filp_open() before (tests/guest/lib.sh).
kft_file_open() {
	if grep -q ' do_file_open$' "$1/System.map"; then echo do_file_open; else echo do_filp_open; fi
}

# kft_initcalls DMESG: "NAME USECS EXACT" per initcall_debug line, in boot
# order; EXACT 1 once the kernel's clock is no longer jiffies (after the
# clocksource switch).  make fidelity and test_accuracy.
kft_initcalls() {
	awk '/clocksource: Switched to clocksource/ { sw = 1 }
		match($0, /initcall [^ +]+\+0x[0-9a-f]+\/0x[0-9a-f]+ returned -?[0-9]+ after [0-9]+ usecs/) {
			split(substr($0, RSTART, RLENGTH), w, /[ +]/); print w[2], w[7], sw + 0 }' "$1"
}

# kft_user_us DMESG: the printk time, in us, of "Run ... as init process".
kft_user_us() {
	sed -n 's/^\[ *\([0-9.]*\)\] Run .* as init process.*/\1/p' "$1" | head -n 1 |
		awk '{ printf "%.0f", $1 * 1e6 }'
}

# kft_start_us DMESG: where start_kernel() was on the printk clock, in us
# (KFT says, with or without a run: kernel/kft_boot.c); the printk clock
# starts later (arm64: in time_init()).  Nothing without the line.
kft_start_us() {
	sed -n 's/.*kft: start_kernel() at \(-\{0,1\}[0-9]*\.[0-9]*\) s on the printk clock$/\1/p' "$1" |
		head -n 1 | awk '{ printf "%.0f", $1 * 1e6 }'
}
