# SPDX-License-Identifier: GPL-2.0
#
# KFT idle (no run armed) and ftrace idle (nop tracer) against vanilla, for
# each compiler whose raw data (bench/run.sh, raw-ARCH-CC.txt) is given:
# the medians over the boots of one run, side by side.  -v arch=ARCH.
# Needs bench/stats.awk.

FNR == 1 { f = FILENAME; sub(/.*-/, "", f); sub(/\.txt$/, "", f); cc[++ncc] = f }
$3 == "result" && $4 == "idle" {
	add(f SUBSEP $1 SUBSEP $5, $6)
}

END {
	nw = split("getppid open fork", wl, " ")
	printf "# KFT idle with each compiler, %s, same run\n\n", arch
	printf "Medians of ns per operation over the boots; ratio to the same compiler's vanilla kernel.\n\n"
	printf "| compiler | kernel |"
	for (i = 1; i <= nw; i++) printf " %s | ratio |", wl[i]
	printf "\n|---|---|"
	for (i = 1; i <= nw; i++) printf "---|---|"
	printf "\n"
	for (c = 1; c <= ncc; c++)
		for (k = 1; k <= 3; k++) {
			kern = k == 1 ? "vanilla" : k == 2 ? "kft" : "ftrace"
			printf "| %s | %s |", cc[c], kern == "kft" ? "KFT, no run armed" : kern == "ftrace" ? "ftrace, nop tracer" : "vanilla"
			for (i = 1; i <= nw; i++) {
				v = median(cc[c] SUBSEP kern SUBSEP wl[i])
				b = median(cc[c] SUBSEP "vanilla" SUBSEP wl[i])
				printf " %.0f | %.2f |", v, b ? v / b : 0
			}
			printf "\n"
		}
	printf "\n"
}
