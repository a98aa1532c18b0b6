#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
#
# Build one kernel-api test program exactly as a user outside the tree
# builds: install the library into a scratch DESTDIR, then compile with
# `pkg-config --cflags --libs pagepool` (and cmocka's, for the test
# framework) and nothing else - no -D, no -I into the source tree - and run
# it. The in-tree build's own flags once hid a stats bug from every test.
# Usage: run.sh BUILD_DIR SOURCE_DIR PROGRAM.c [CC [MORE.c ...]]
# KAPI_EXTRA_CFLAGS in the environment: flags a sanitizer build's users
# need too (the hardening suite passes -fsanitize=... there).
# MORE.c are further translation units of the same program (the driver
# test in drivers/); the program is named after PROGRAM.c.
set -eu
build=$1
src=$2
prog=$3
cc=${4:-cc}
shift $(( $# < 4 ? $# : 4 ))
# A cross build (tests/meson.build's test setup): cc is the target's
# compiler, clang is told the target, and the program runs through the
# exe wrapper (qemu-user).
case $cc in
cc) cc=${PAGEPOOL_CROSS_CC:-cc} ;;
clang) cc="clang${PAGEPOOL_CROSS_TRIPLE:+ --target=$PAGEPOOL_CROSS_TRIPLE}" ;;
esac
wrapper=${PAGEPOOL_EXE_WRAPPER:-}
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT

meson install -C "$build" --destdir "$dest" --no-rebuild --quiet >/dev/null
pc=$(find "$dest" -name pagepool.pc | head -n 1)
[ -n "$pc" ] || { echo "pagepool.pc was not installed"; exit 1; }
export PKG_CONFIG_PATH="$(dirname "$pc")"
prefix=$(pkg-config --variable=prefix pagepool)
flags=$(pkg-config --define-variable=prefix="$dest$prefix" --cflags --libs pagepool cmocka)
libdir=$(pkg-config --define-variable=prefix="$dest$prefix" --variable=libdir pagepool)

name=$(basename "$prog" .c)
extra=${KAPI_EXTRA_CFLAGS:-}
echo "$cc -std=gnu11 -Wall -Wextra -Werror${extra:+ $extra} -o $name $name.c${*:+ $*} $flags"
# shellcheck disable=SC2086 # $cc and $wrapper: commands with arguments
$cc -std=gnu11 -Wall -Wextra -Werror $extra -o "$dest/$name" "$prog" "$@" $flags
LD_LIBRARY_PATH="$libdir" $wrapper "$dest/$name"
