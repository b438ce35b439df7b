# SPDX-License-Identifier: GPL-2.0
#
# KFT — Kernel Function Trace.  `make help` lists the targets.

KFT_CACHE ?= $(HOME)/.cache/kft
export KFT_CACHE
BUILD     ?= build
CC        ?= cc
CFLAGS_HOST := -std=gnu11 -O2 -g -Wall -Wextra -Werror
SANITIZE  := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
# The kernel series KFT installs into: patches/SERIES, one place; the first
# is the default.  KVER=6.18 picks another for demo, patch, check-full.
KVERS     := $(shell awk '!/^\#/ && NF { print $$1 }' patches/SERIES)
KVER_DEFAULT := $(firstword $(KVERS))
KVER      ?= $(KVER_DEFAULT)
ifeq ($(filter $(KVER),$(KVERS)),)
$(error KVER=$(KVER): KFT has patches for Linux $(KVERS) (patches/SERIES))
endif
export KFT_KVER := $(KVER)

# Packages the project needs; `make deps` installs whatever is missing.
DEB_PACKAGES := build-essential bc bison flex libelf-dev libssl-dev cpio \
	ccache clang lld llvm llvm-dev qemu-system-x86 busybox-static linux-source-$(KVER_DEFAULT) \
	file kmod rsync sparse libclang-rt-14-dev python3 time curl bzip2 \
	gcc-aarch64-linux-gnu qemu-system-arm gcc-riscv64-linux-gnu gcc-arm-linux-gnueabihf \
	qemu-system-misc opensbi python3-docutils trace-cmd librsvg2-bin fonts-dejavu-core nodejs
# make check-full's too: Clang on the series that need a newer clang than
# Debian 12's 14 (6.18 wants 15, 7.3 wants 17; tests/lib/common.sh), and
# Chromium, which loads kd --boot --html's page (tests/tools/test_html.sh).
DEB_PACKAGES_FULL := clang-19 lld-19 llvm-19 llvm-19-dev gcc-12-plugin-dev gcc-12-plugin-dev-aarch64-linux-gnu chromium chromium-driver kernelshark xvfb x11-apps x11-utils
# Guest architectures other than the host's; their busybox comes from Debian.
GUEST_ARCHES := arm64 riscv64 armhf

SLURP_SRC := scripts/kft/slurp.c
SYMTAB_SRC := scripts/kft/symtab.c scripts/kft/initcalls.c $(SLURP_SRC)
CONSOLE_SRC := scripts/kft/console.c scripts/kft/crlines.c
HOST_TOOLS := addr2sym sym2addr kd kft
KD_SRC     := scripts/kd.c scripts/kft/kd_analyse.c scripts/kft/kd_boot.c scripts/kft/kd_boot_report.c scripts/kft/kd_boot_json.c scripts/kft/kd_boot_html.c scripts/kft/kd_boot_dmesg.c scripts/kft/kd_boot_check.c scripts/kft/json.c scripts/kft/kd_summary.c scripts/kft/kd_tree.c scripts/kft/kd_diff.c scripts/kft/kd_format.c scripts/kft/kftlog.c scripts/kft/calltree.c scripts/kft/waits.c scripts/kft/export.c scripts/kft/svg.c scripts/kft/callpath.c scripts/kft/tracecmd.c $(CONSOLE_SRC) $(SYMTAB_SRC)
KD_HDR     := scripts/kft/optonce.h scripts/kft/kd_types.h scripts/kft/kd_boot.h scripts/kft/json.h scripts/kft/pairmap.h scripts/kft/callpath.h scripts/kft/utf8.h scripts/kft/kftlog.h scripts/kft/calltree.h scripts/kft/waits.h scripts/kft/export.h scripts/kft/symtab.h scripts/kft/initcalls.h scripts/kft/slurp.h scripts/kft/xalloc.h scripts/kft/console.h scripts/kft/crlines.h scripts/kft/tracecmd.h
CONFIG_SRC := kernel/kft_config.c
HOST_INC   := -Iscripts
KCFG_INC   := -Iscripts/kft/include -Ikernel

.PHONY: all tools tools-asan deps deps-full install patch check check-full check-unit check-e2e \
	demo bench bench-tools bench-hooks bench-steps bench-ab bench-idle bench-bounded bench-realcpu fidelity fuzz defconfig-builds clean help kft-target

all: tools

help:
	@echo "make demo [ARCH=arm64|riscv|arm] [KVER=$(lastword $(KVERS))]"
	@echo "                       build a KFT kernel, boot it in QEMU, trace boot and fork+exec"
	@echo "make check             every part of KFT on every architecture and series once: host tests, kernels in QEMU"
	@echo "make check-full        the whole matrix: every compiler, CPU count and config variant (hours)"
	@echo "make check-unit        the fast host tests only"
	@echo "make tools             build scripts/addr2sym, sym2addr, kd, kft into $(BUILD)/"
	@echo "make kft-target CROSS_COMPILE=aarch64-linux-gnu-   the target's kft (static) into $(BUILD)/target/"
	@echo "make install KSRC=DIR  install KFT into a Linux tree of a series KFT has patches for: $(KVERS)"
	@echo "make patch [KVER=...]  write $(BUILD)/kft-linux-$(KVER).patch (apply with patch -p1)"
	@echo "make bench             KFT's cost against vanilla and function_graph ($(BUILD)/bench/results.md)"
	@echo "make bench-tools       the host tools alone, on logs of every shape"
	@echo "make bench-hooks       the hooks' instructions per call, per path (callgrind)"
	@echo "make bench-steps       what each step of a traced call costs under QEMU"
	@echo "make bench-ab          a revision's hooks against the working tree's (BENCH_A=REV)"
	@echo "make bench-idle        what an idle KFT kernel's extra instructions are, per kind and function"
	@echo "make bench-bounded     how many of a boot run's hook calls are of functions with a bounded run (kftsites --bounded)"
	@echo "make bench-realcpu     KFT's compensated times on this machine's CPU, against empty hooks (Lua, bzip2)"
	@echo "                       (QEMU plugin, -icount; IDLE_ARCHES, IDLE_CC, IDLE_OPT=O2|Os)"
	@echo "make fidelity          KFT's boot times against an untraced kernel's, under QEMU -icount"
	@echo "                       (FIDELITY_ARCHES, FIDELITY_CC, FIDELITY_OPT=Os|O2)"
	@echo "                       (BENCH_ICOUNT=1 times make bench, bench-ab, bench-steps the same way)"
	@echo "make fuzz              every libFuzzer target, FUZZ_SECONDS each (600)"
	@echo "make defconfig-builds  x86_64_defconfig + CONFIG_KFT with GCC and Clang (slow)"
	@echo "make deps              install the Debian packages the project needs"
	@echo "make deps-full         and those make check-full needs besides (clang-19, GCC plugin headers, Chromium, KernelShark)"
	@echo "Cache: KFT_CACHE=$(KFT_CACHE) (kernel source, builds, ccache)"

# --- host tools: normal and sanitized builds --------------------------------

tools: $(addprefix $(BUILD)/,$(HOST_TOOLS))
tools-asan: $(addprefix $(BUILD)/asan/,$(HOST_TOOLS))

$(BUILD)/addr2sym: scripts/addr2sym.c $(SYMTAB_SRC) $(CONSOLE_SRC) scripts/kft/symtab.h scripts/kft/initcalls.h scripts/kft/slurp.h scripts/kft/console.h scripts/kft/crlines.h scripts/kft/optonce.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_HOST) $(HOST_INC) -o $@ scripts/addr2sym.c $(SYMTAB_SRC) $(CONSOLE_SRC) -lelf -pthread
$(BUILD)/sym2addr: scripts/sym2addr.c $(SYMTAB_SRC) $(CONFIG_SRC) kernel/kft_config.h scripts/kft/symtab.h scripts/kft/initcalls.h scripts/kft/slurp.h scripts/kft/crlines.h scripts/kft/optonce.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_HOST) $(HOST_INC) $(KCFG_INC) -o $@ scripts/sym2addr.c $(SYMTAB_SRC) $(CONFIG_SRC) -lelf
$(BUILD)/kd: $(KD_SRC) $(KD_HDR)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_HOST) $(HOST_INC) -o $@ $(KD_SRC) -lelf -lm
$(BUILD)/asan/kd: $(KD_SRC) $(KD_HDR)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_HOST) $(SANITIZE) $(HOST_INC) -o $@ $(KD_SRC) -lelf -lm
$(BUILD)/asan/addr2sym: scripts/addr2sym.c $(SYMTAB_SRC) $(CONSOLE_SRC) scripts/kft/symtab.h scripts/kft/initcalls.h scripts/kft/slurp.h scripts/kft/console.h scripts/kft/crlines.h scripts/kft/optonce.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_HOST) $(SANITIZE) $(HOST_INC) -o $@ scripts/addr2sym.c $(SYMTAB_SRC) $(CONSOLE_SRC) -lelf -pthread
$(BUILD)/asan/sym2addr: scripts/sym2addr.c $(SYMTAB_SRC) $(CONFIG_SRC) kernel/kft_config.h scripts/kft/symtab.h scripts/kft/initcalls.h scripts/kft/slurp.h scripts/kft/crlines.h scripts/kft/optonce.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_HOST) $(SANITIZE) $(HOST_INC) $(KCFG_INC) -o $@ scripts/sym2addr.c $(SYMTAB_SRC) $(CONFIG_SRC) -lelf

# kft, the target's recorder: for the board, static, libc alone; here for
# its tests (KFT_PROC points it at a fake /proc).
KFT_SRC := scripts/kft.c $(SLURP_SRC) $(CONFIG_SRC)
KFT_HDR := scripts/kft/optonce.h kernel/kft_config.h scripts/kft/slurp.h scripts/kft/output.h
$(BUILD)/kft: $(KFT_SRC) $(KFT_HDR)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_HOST) $(KCFG_INC) -o $@ $(KFT_SRC)
$(BUILD)/asan/kft: $(KFT_SRC) $(KFT_HDR)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_HOST) $(SANITIZE) $(KCFG_INC) -o $@ $(KFT_SRC)
kft-target: $(KFT_SRC) $(KFT_HDR)
	@mkdir -p $(BUILD)/target
	$(CROSS_COMPILE)gcc -static -O2 -Wall -Wextra $(KCFG_INC) -o $(BUILD)/target/kft $(KFT_SRC)
	@echo "$(BUILD)/target/kft: copy it to the board"

# The kernel build's boot run generator, as scripts/Makefile builds it (with
# the kernel's host warnings), sanitized for its tests.
$(BUILD)/asan/mkkftrun: scripts/mkkftrun.c $(CONFIG_SRC) $(SLURP_SRC) kernel/kft_config.h scripts/kft/slurp.h scripts/kft/optonce.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_HOST) -Wmissing-prototypes -Wstrict-prototypes $(SANITIZE) $(KCFG_INC) -o $@ scripts/mkkftrun.c $(CONFIG_SRC) $(SLURP_SRC)

# The kernel build's hook-site lister (scripts/kftsites), sanitized for its
# tests: its files as scripts/Makefile's kftsites-objs links them
# (scripts/kftsites_shared.h lists them).
KFTSITES_SRC := scripts/kftsites.c scripts/kftsites_elf.c scripts/kftsites_code.c \
	scripts/kftsites_reach.c scripts/kftsites_bounded.c \
	scripts/kftsites_x86.c scripts/kftsites_arm64.c scripts/kftsites_riscv.c scripts/kftsites_arm.c
KFTSITES_HDR := scripts/kftsites_shared.h scripts/kftsites_code.h
$(BUILD)/asan/kftsites: $(KFTSITES_SRC) $(KFTSITES_HDR)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_HOST) -Wmissing-prototypes -Wstrict-prototypes $(SANITIZE) -o $@ $(KFTSITES_SRC) -lelf

# The benchmark's synthetic log generator.
$(BUILD)/genlog: bench/genlog.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_HOST) -o $@ bench/genlog.c -lm

# The engine's config parser, compiled from the kernel source for the host.
$(BUILD)/asan/test_config: tests/unit/test_config.c $(CONFIG_SRC) kernel/kft_config.h tests/unit/tap.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_HOST) $(SANITIZE) $(KCFG_INC) -Itests/unit -o $@ tests/unit/test_config.c $(CONFIG_SRC)

# The host tools' shared pieces: the file reader, xalloc.h.
$(BUILD)/asan/test_hostlib: tests/unit/test_hostlib.c $(SLURP_SRC) scripts/kft/slurp.h scripts/kft/xalloc.h tests/unit/tap.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_HOST) $(SANITIZE) $(HOST_INC) -Itests/unit -o $@ tests/unit/test_hostlib.c $(SLURP_SRC)

# The whole engine (hooks, run states, boot runs, parser) against userspace
# shims, in the manner of the kernel's tools/testing/vma/.
ENGINE_SRC := kernel/kft.c kernel/kft_clock.c kernel/kft_calibrate.c kernel/kft_finish.c \
	kernel/kft_run.c kernel/kft_syms.c kernel/kft_boot.c $(CONFIG_SRC) tests/unit/engine/shim.c
ENGINE_CFLAGS := -Wno-unused-parameter -DCONFIG_KFT=1 -DCONFIG_KFT_STACK_DEPTH=8 \
	-DCONFIG_KFT_BOOT_LOG_ENTRIES=1024 -DCONFIG_KFT_STATIC_RUN=1 \
	-include tests/unit/engine/shim.h -Itests/unit/engine/include \
	-Iscripts/kft/include -Iinclude -Ikernel -Itests/unit
$(BUILD)/asan/test_engine: tests/unit/test_engine.c $(ENGINE_SRC) $(wildcard kernel/*.h include/linux/*.h tests/unit/engine/*.h) tests/unit/tap.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_HOST) $(SANITIZE) $(ENGINE_CFLAGS) -DSHIM_TSC_STEP -o $@ tests/unit/test_engine.c $(ENGINE_SRC)

# libFuzzer targets: clang, ASan and UBSan, every report fatal (UBSan
# would otherwise print and go on, and the run would pass).
FUZZ_CC := clang -std=gnu11 -g -O1 -Wall -Wextra -Werror -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=all

# libFuzzer on the config parser.
$(BUILD)/fuzz_config: tests/fuzz/fuzz_config.c $(CONFIG_SRC) kernel/kft_config.h
	@mkdir -p $(@D)
	$(FUZZ_CC) $(KCFG_INC) -o $@ tests/fuzz/fuzz_config.c $(CONFIG_SRC)

# libFuzzer on scripts/kftsites: any file, rewritten objects read back.
$(BUILD)/fuzz_kftsites: tests/fuzz/fuzz_kftsites.c $(KFTSITES_SRC) $(KFTSITES_HDR)
	@mkdir -p $(@D)
	$(FUZZ_CC) -Dmain=kftsites_main $(HOST_INC) -o $@ tests/fuzz/fuzz_kftsites.c $(KFTSITES_SRC) -lelf

# libFuzzer on kd as the command runs: reader, tree builder, every mode.
$(BUILD)/fuzz_kd: tests/fuzz/fuzz_kd.c tests/fuzz/fuzz_memfile.h $(KD_SRC) $(KD_HDR)
	@mkdir -p $(@D)
	$(FUZZ_CC) -Dmain=kd_main $(HOST_INC) -o $@ tests/fuzz/fuzz_kd.c $(KD_SRC) -lelf -lm

# libFuzzer on the symbol-table readers: maps, kallsyms, ELF.
$(BUILD)/fuzz_symtab: tests/fuzz/fuzz_symtab.c tests/fuzz/fuzz_memfile.h $(SYMTAB_SRC) scripts/kft/symtab.h scripts/kft/initcalls.h scripts/kft/slurp.h scripts/kft/crlines.h
	@mkdir -p $(@D)
	$(FUZZ_CC) $(HOST_INC) -o $@ tests/fuzz/fuzz_symtab.c $(SYMTAB_SRC) -lelf

# libFuzzer on mkkftrun as the kernel build runs it.
$(BUILD)/fuzz_mkkftrun: tests/fuzz/fuzz_mkkftrun.c tests/fuzz/fuzz_memfile.h scripts/mkkftrun.c $(CONFIG_SRC) $(SLURP_SRC) kernel/kft_config.h scripts/kft/slurp.h scripts/kft/optonce.h
	@mkdir -p $(@D)
	$(FUZZ_CC) -Dmain=mkkftrun_main $(KCFG_INC) -o $@ tests/fuzz/fuzz_mkkftrun.c scripts/mkkftrun.c $(CONFIG_SRC) $(SLURP_SRC)

# libFuzzer on kft, the target's recorder: the logs and kallsyms it reads.
$(BUILD)/fuzz_kft: tests/fuzz/fuzz_kft.c tests/fuzz/fuzz_memfile.h $(KFT_SRC) $(KFT_HDR)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(KCFG_INC) -o $@ tests/fuzz/fuzz_kft.c $(SLURP_SRC) $(CONFIG_SRC)

# libFuzzer on addr2sym as the command runs: any log, console captures too.
$(BUILD)/fuzz_addr2sym: tests/fuzz/fuzz_addr2sym.c tests/fuzz/fuzz_memfile.h scripts/addr2sym.c $(SYMTAB_SRC) $(CONSOLE_SRC) scripts/kft/symtab.h scripts/kft/initcalls.h scripts/kft/slurp.h scripts/kft/console.h scripts/kft/crlines.h scripts/kft/optonce.h
	@mkdir -p $(@D)
	$(FUZZ_CC) -Dmain=addr2sym_main $(HOST_INC) -o $@ tests/fuzz/fuzz_addr2sym.c scripts/addr2sym.c $(SYMTAB_SRC) $(CONSOLE_SRC) -lelf -pthread

# The canary that proves a sanitizer report ends a fuzz run.
$(BUILD)/fuzz_canary: tests/fuzz/fuzz_canary.c
	@mkdir -p $(@D)
	$(FUZZ_CC) -o $@ tests/fuzz/fuzz_canary.c

# libFuzzer on the tools' numeric options (scripts/kft/optnum.h).
$(BUILD)/fuzz_optnum: tests/fuzz/fuzz_optnum.c scripts/kft/optnum.h
	@mkdir -p $(@D)
	$(FUZZ_CC) $(HOST_INC) -o $@ tests/fuzz/fuzz_optnum.c

FUZZERS := $(BUILD)/fuzz_canary $(BUILD)/fuzz_optnum $(BUILD)/fuzz_config $(BUILD)/fuzz_kftsites $(BUILD)/fuzz_kd $(BUILD)/fuzz_symtab $(BUILD)/fuzz_mkkftrun $(BUILD)/fuzz_kft $(BUILD)/fuzz_addr2sym

# Every fuzzer for FUZZ_SECONDS each (default 600).
fuzz: $(FUZZERS)
	@FUZZ_SECONDS=$${FUZZ_SECONDS:-600} BUILD=$(BUILD) tests/fuzz/test_fuzz.sh

# --- machine setup ----------------------------------------------------------

# apt_install PACKAGES: install those of PACKAGES not installed yet.
define apt_install
	@missing=$$(for p in $(1); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; \
	done); \
	if [ -n "$$missing" ]; then \
		echo "installing:" $$missing; \
		if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
		$$SUDO apt-get update -qq || \
			echo "make deps: apt-get update failed (a mirror mid-sync?): installing from the lists there are"; \
		DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null; \
	fi
endef

deps:
	$(call apt_install,$(DEB_PACKAGES))
	@for a in $(GUEST_ARCHES); do tests/lib/guest-busybox.sh $$a >/dev/null; done

deps-full: deps
	$(call apt_install,$(DEB_PACKAGES_FULL))

# --- putting KFT into a kernel tree -----------------------------------------

install:
	@test -n "$(KSRC)" || { echo "usage: make install KSRC=/path/to/linux (Linux $(KVERS))"; exit 2; }
	patches/install.sh "$(KSRC)"

patch:
	@mkdir -p $(BUILD)
	tests/lib/mkpatch.sh > $(BUILD)/kft-linux-$(KVER).patch
	@echo "wrote $(BUILD)/kft-linux-$(KVER).patch: cd linux-$(KVER) && patch -p1 < $(abspath $(BUILD))/kft-linux-$(KVER).patch"

# --- tests ------------------------------------------------------------------

UNIT_TESTS := $(BUILD)/asan/test_config $(BUILD)/asan/test_hostlib $(BUILD)/asan/test_engine $(FUZZERS) $(BUILD)/asan/mkkftrun \
	$(BUILD)/asan/kftsites $(BUILD)/genlog $(BUILD)/hooks-O2 $(BUILD)/hooks-Os

check-unit: tools tools-asan $(UNIT_TESTS)
	@BUILD=$(BUILD) tests/run.sh unit

# Two tiers (tests/run.sh says what each runs); both end with a timing
# table, also in $(BUILD)/test-logs/timing.txt.
check: deps tools tools-asan $(UNIT_TESTS)
	@BUILD=$(BUILD) tests/run.sh check

check-full: deps-full tools tools-asan $(UNIT_TESTS)
	@BUILD=$(BUILD) tests/run.sh full

check-e2e: deps tools tools-asan
	@BUILD=$(BUILD) tests/run.sh e2e

# ARCH=arm64 (or aarch64), riscv (riscv64) or arm picks the guest
# architecture; x86_64 by default.
KFT_ARCH_OF = $(or $(if $(filter arm64 aarch64,$(ARCH)),arm64),$(if $(filter riscv riscv64,$(ARCH)),riscv64),$(if $(filter arm,$(ARCH)),arm),x86_64)

demo: deps tools
	@BUILD=$(BUILD) KFT_ARCH=$(KFT_ARCH_OF) tests/demo.sh

bench: deps tools $(BUILD)/hooks-O2 $(BUILD)/hooks-Os $(HOOKS_SAVE_ALL)
	@BUILD=$(BUILD) bench/run.sh

bench-tools: tools $(BUILD)/genlog
	@BUILD=$(BUILD) BENCH_ONLY=tools bench/run.sh

# The hooks' instructions per call, per path, on the host (callgrind).
HOOKS_CFLAGS := -std=gnu11 -Wall -Wextra -Werror -g $(ENGINE_CFLAGS)
$(BUILD)/hooks-%: bench/hooks.c $(ENGINE_SRC) $(wildcard kernel/*.h include/linux/*.h tests/unit/engine/*.h)
	@mkdir -p $(@D)
	$(CC) -$* $(HOOKS_CFLAGS) -o $@ bench/hooks.c $(ENGINE_SRC)
# x86_64's CONFIG_KFT_AFTER_INLINING hooks (an entry that saves every
# register it uses, an exit thunk: tests/unit/engine/shim.h), on an x86_64
# host.
HOOKS_SAVE_ALL := $(if $(filter x86_64,$(shell uname -m)),$(BUILD)/hooks-O2-saveall)
$(BUILD)/hooks-O2-saveall: bench/hooks.c $(ENGINE_SRC) arch/x86/include/asm/kft_thunk.h $(wildcard kernel/*.h include/linux/*.h tests/unit/engine/*.h)
	@mkdir -p $(@D)
	$(CC) -O2 $(HOOKS_CFLAGS) -mgeneral-regs-only \
		-DSHIM_X86_AFTER_INLINING \
		-o $@ bench/hooks.c $(ENGINE_SRC)
# The hooks as a kernel with CONFIG_KFT_NOP_SITES (the default) builds them.
$(BUILD)/hooks-O2-nopsites: bench/hooks.c $(ENGINE_SRC) $(wildcard kernel/*.h include/linux/*.h tests/unit/engine/*.h)
	@mkdir -p $(@D)
	$(CC) -O2 $(HOOKS_CFLAGS) -DCONFIG_KFT_NOP_SITES=1 -o $@ bench/hooks.c $(ENGINE_SRC)
bench-hooks: $(BUILD)/hooks-O2 $(BUILD)/hooks-Os $(BUILD)/hooks-O2-nopsites $(HOOKS_SAVE_ALL)
	@BUILD=$(BUILD) bench/hooks.sh

# KFT's engine as the hooks of real programs (Lua, bzip2: Debian's source) on the
# host's CPU: compensated times against empty hooks (bench/realcpu/).
bench-realcpu: tools
	@BUILD=$(BUILD) bench/realcpu/realcpu.sh

bench-steps: deps
	@BUILD=$(BUILD) bench/steps.sh

bench-ab: deps
	@BUILD=$(BUILD) bench/ab.sh

# A QEMU TCG plugin: each kernel instruction's count over a window.
$(BUILD)/insn_profile.so: bench/insn_profile.c
	@mkdir -p $(@D)
	$(CC) -std=gnu11 -Wall -Wextra -Werror -O2 -shared -fPIC -fvisibility=hidden -o $@ $<
bench-idle: deps $(BUILD)/insn_profile.so
	@BUILD=$(BUILD) bench/idle_profile.sh
bench-bounded: deps $(BUILD)/insn_profile.so $(BUILD)/asan/kftsites
	@BUILD=$(BUILD) bench/bounded.sh

fidelity: deps tools-asan
	@BUILD=$(BUILD) bench/fidelity.sh

defconfig-builds: deps
	tests/lib/kbuild.sh kft gcc defconfig
	tests/lib/kbuild.sh kft clang defconfig

clean:
	rm -rf $(BUILD)
