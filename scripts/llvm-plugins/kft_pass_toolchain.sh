#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Can this Clang build KFT's LLVM pass (kft_pass.cpp)?  An LLVM plugin
# loads only into the LLVM release it was built for, so the pass needs
# the development files of Clang's own LLVM: the llvm-config found next
# to Clang, of Clang's major version, and its headers.  Silent and 0 if
# so; else 1 and one line: what is missing, what to install.  Read by Kconfig
# (CONFIG_KFT_PLUGIN_BUILDS: the plugin by default), scripts/Makefile.kft
# (why not) and scripts/llvm-plugins/Makefile (an explicit choice that
# cannot build).
#
# usage: kft_pass_toolchain.sh CLANG_VERSION CC...
#   CLANG_VERSION as scripts/cc-version.sh gives it (140006); CC the
#   compiler's command, which may be several words (ccache clang).

major=$(($1 / 10000))
shift
config=$("$@" -print-prog-name=llvm-config 2>/dev/null)
have=$("${config:-llvm-config}" --version 2>/dev/null)
inc=$("${config:-llvm-config}" --includedir 2>/dev/null)
if [ "${have%%.*}" != "$major" ]; then
	echo "Clang $major's LLVM pass needs LLVM $major's llvm-config and headers, but '${config:-llvm-config} --version' says '$have' (Debian: apt-get install llvm-$major-dev)"
elif [ ! -f "$inc/llvm/Passes/PassPlugin.h" ]; then
	echo "Clang $major's LLVM pass needs LLVM $major's headers, not in '$inc' ('${config} --includedir') (Debian: apt-get install llvm-$major-dev)"
else
	exit 0
fi
exit 1
