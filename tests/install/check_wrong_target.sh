#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
#
# A program compiled for one target against the headers of a library built
# for the other (an x86-64 compiler given an arm64 install's -I, or the
# reverse) must stop at <asm/target.h> with an #error that names the
# library's target, not build a binary with another cache line, DMA
# alignment and pp_magic layout. The other target's headers are made by
# swapping CONFIG_X86/CONFIG_X86_64 and CONFIG_ARM64 in a copy of this
# build's <generated/autoconf.h>, placed first on the include path.
# Control: the same program against the real autoconf.h compiles.
# Usage: check_wrong_target.sh CC BUILD_DIR SOURCE_DIR
set -eu
cc=$1
build=$2
src=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

mkdir "$tmp/generated"
conf="$build/include/generated/autoconf.h"
if grep -q '^#define CONFIG_ARM64 ' "$conf"; then
	other=x86-64
	sed -e 's/^#define CONFIG_ARM64 .*/#define CONFIG_X86 1\n#define CONFIG_X86_64 1/' \
		"$conf" >"$tmp/generated/autoconf.h"
else
	other=arm64
	sed -e '/^#define CONFIG_X86 /d' -e 's/^#define CONFIG_X86_64 .*/#define CONFIG_ARM64 1/' \
		"$conf" >"$tmp/generated/autoconf.h"
fi
printf '#include <net/page_pool/helpers.h>\n#include <pagepool.h>\nint main(void) { return 0; }\n' >"$tmp/prog.c"
incs="-I$src/include -I$build/include"

$cc -fsyntax-only $incs "$tmp/prog.c" || { echo "FAIL: the control program does not compile"; exit 1; }
if $cc -fsyntax-only -I"$tmp" $incs "$tmp/prog.c" 2>"$tmp/err"; then
	echo "FAIL: compiled against the headers of a library built for $other"
	exit 1
fi
cat "$tmp/err"
grep -q "against the headers of a library built for $other" "$tmp/err" ||
	{ echo "FAIL: the error does not name the library's target ($other)"; exit 1; }
echo "OK: refused, naming $other"
