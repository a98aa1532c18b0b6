#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
#
# Every installed header compiles on its own, as the first include of a
# translation unit, with the flags pkg-config gives and -Wall -Wextra
# -Werror: kernel code includes them in any order.
# Usage: headers.sh BUILD_DIR [CC]
set -eu
build=$1
cc=${2:-cc}
# A cross build (tests/meson.build's test setup): the target's compiler.
case $cc in
cc) cc=${PAGEPOOL_CROSS_CC:-cc} ;;
clang) cc="clang${PAGEPOOL_CROSS_TRIPLE:+ --target=$PAGEPOOL_CROSS_TRIPLE}" ;;
esac
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT

meson install -C "$build" --destdir "$dest" --no-rebuild --quiet >/dev/null
pc=$(find "$dest" -name pagepool.pc | head -n 1)
export PKG_CONFIG_PATH="$(dirname "$pc")"
prefix=$(pkg-config --variable=prefix pagepool)
flags=$(pkg-config --define-variable=prefix="$dest$prefix" --cflags pagepool)
inc=$(pkg-config --define-variable=prefix="$dest$prefix" --variable=includedir pagepool)/pagepool
passed=0 failed=0
for h in $(cd "$inc" && find . -name '*.h' | sed 's|^\./||' | sort); do
	printf '#include <%s>\n' "$h" >"$dest/t.c"
	# shellcheck disable=SC2086 # $cc: a command with arguments
	if $cc -std=gnu11 -Wall -Wextra -Werror $flags -c "$dest/t.c" -o "$dest/t.o" \
		2>"$dest/err"; then
		passed=$((passed + 1))
	else
		echo "FAIL <$h>:"
		head -n 5 "$dest/err"
		failed=$((failed + 1))
	fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
