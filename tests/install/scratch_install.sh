# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
#
# Sourced by the install tests (check_install.sh, check_runtime_lib.sh):
# install build $1 into a scratch DESTDIR and point pkg-config at it.
# Usage, in a script started with BUILD_DIR SOURCE_DIR:
#   . "$(dirname "$0")/scratch_install.sh"; scratch_install PKG
# Sets build, src (the arguments), cc and wrapper (the cross setup's
# $PAGEPOOL_CROSS_CC and $PAGEPOOL_EXE_WRAPPER, else cc and nothing), dest
# (the DESTDIR, removed on exit), and after scratch_install PKG: flags
# (pkg-config --cflags --libs PKG), libdir, and pcv, a pkg-config for PKG
# with the .pc's prefix moved under $dest.
set -eu
build=$1
src=$2
cc=${PAGEPOOL_CROSS_CC:-cc}
wrapper=${PAGEPOOL_EXE_WRAPPER:-}
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT

scratch_install() {
	pkg=$1
	meson install -C "$build" --destdir "$dest" --no-rebuild --quiet >/dev/null
	pc=$(find "$dest" -name "$pkg.pc" | head -n 1)
	[ -n "$pc" ] || { echo "$pkg.pc was not installed"; exit 1; }
	# PKG_CONFIG_PATH comes before PKG_CONFIG_LIBDIR (a cross build's
	# arm64 .pc files, for liburcu's): both are searched.
	PKG_CONFIG_PATH="$(dirname "$pc")"
	export PKG_CONFIG_PATH
	# DESTDIR moved everything under $dest: point the .pc's prefix there.
	prefix=$(pkg-config --variable=prefix "$pkg")
	flags=$(pcv --cflags --libs)
	libdir=$(pcv --variable=libdir)
	echo "pkg-config --cflags --libs $pkg: $flags"
}

pcv() {
	pkg-config --define-variable=prefix="$dest$prefix" "$@" "$pkg"
}
