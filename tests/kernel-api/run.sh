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
name=$(basename "$prog" .c)
extra=${KAPI_EXTRA_CFLAGS:-}

# KAPI_CACHE=DIR (tools/test-ring-designs.sh): run the program this script
# built before for the same build directory, compiler, flags and sources,
# if the library and the sources are older than it, instead of installing
# and compiling again. The ring-design runs change only an environment
# variable (PAGEPOOL_RING), not what a user's build produces; the first
# run with the cache builds as users build and keeps the result.
cdir=
if [ -n "${KAPI_CACHE:-}" ]; then
	key=$(printf '%s\n' "$build" "$cc" "$extra" "$prog" "$@" | cksum | cut -d ' ' -f 1)
	cdir=$KAPI_CACHE/$name-$key
	if [ -x "$cdir/$name" ] && [ -f "$cdir/libdir" ] &&
	   [ -z "$(find "$build" -maxdepth 1 -name 'libpagepool.so*' -newer "$cdir/$name")" ] &&
	   [ -z "$(find "$prog" "$@" -newer "$cdir/$name" 2>/dev/null)" ]; then
		echo "$name: built before (KAPI_CACHE $cdir)"
		# shellcheck disable=SC2086 # $wrapper: a command with arguments
		LD_LIBRARY_PATH="$cdir$(cat "$cdir/libdir")" exec $wrapper "$cdir/$name"
	fi
	rm -rf "$cdir"	# older than the library or a source: built anew
	mkdir -p "$KAPI_CACHE"
fi
dest=$(mktemp -d ${cdir:+"$KAPI_CACHE/tmp.XXXXXX"})
trap 'rm -rf "$dest"' EXIT

meson install -C "$build" --destdir "$dest" --no-rebuild --quiet >/dev/null
pc=$(find "$dest" -name pagepool.pc | head -n 1)
[ -n "$pc" ] || { echo "pagepool.pc was not installed"; exit 1; }
export PKG_CONFIG_PATH="$(dirname "$pc")"
prefix=$(pkg-config --variable=prefix pagepool)
flags=$(pkg-config --define-variable=prefix="$dest$prefix" --cflags --libs pagepool cmocka)
libdir=$(pkg-config --define-variable=prefix="$dest$prefix" --variable=libdir pagepool)

echo "$cc -std=gnu11 -Wall -Wextra -Werror${extra:+ $extra} -o $name $name.c${*:+ $*} $flags"
# shellcheck disable=SC2086 # $cc and $wrapper: commands with arguments
$cc -std=gnu11 -Wall -Wextra -Werror $extra -o "$dest/$name" "$prog" "$@" $flags
if [ -n "$cdir" ]; then
	# Keep it: the library directory relative to the install, then the
	# whole install moved into place in one rename (a concurrent run of
	# the same program keeps its own).
	printf '%s' "${libdir#"$dest"}" >"$dest/libdir"
	if mv -T "$dest" "$cdir" 2>/dev/null; then
		trap - EXIT
		dest=$cdir
		libdir=$cdir$(cat "$cdir/libdir")
	fi
fi
LD_LIBRARY_PATH="$libdir" $wrapper "$dest/$name"
