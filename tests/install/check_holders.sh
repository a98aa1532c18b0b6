#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
#
# Holder tracking the user's way: install a -Dholders=true build into a
# scratch DESTDIR, build tests/install/holders_user.c against it with
# pkg-config alone (-g for the line table, at -O0 and at -O2: the inline
# fast path must record the program's call site at both), and run it.
# Usage: check_holders.sh BUILD_DIR SOURCE_DIR
set -eu
build=$1
src=$2
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT

meson install -C "$build" --destdir "$dest" --no-rebuild --quiet >/dev/null
pc=$(find "$dest" -name pagepool.pc | head -n 1)
[ -n "$pc" ] || { echo "pagepool.pc was not installed"; exit 1; }
export PKG_CONFIG_PATH="$(dirname "$pc")"
prefix=$(pkg-config --variable=prefix pagepool)
flags=$(pkg-config --define-variable=prefix="$dest$prefix" --cflags --libs pagepool)
libdir=$(pkg-config --define-variable=prefix="$dest$prefix" --variable=libdir pagepool)
grep -q '^#define CONFIG_PAGEPOOL_HOLDERS 1' "$(find "$dest" -name autoconf.h | head -n 1)" || {
	echo "the installed autoconf.h has no CONFIG_PAGEPOOL_HOLDERS"; exit 1; }

for opt in -O0 -O2; do
	cc -std=gnu11 -g $opt -Wall -Wextra -Werror -o "$dest/holders_user" \
		"$src/tests/install/holders_user.c" $flags
	echo "holders_user $opt:"
	LD_LIBRARY_PATH="$libdir" "$dest/holders_user"
done
