#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
#
# Holder tracking the user's way: tests/install/holders_user.c built by
# tests/kernel-api/run.sh (a scratch DESTDIR install, pkg-config alone)
# against a -Dholders=true build, with -g for the line table, at -O0 and at
# -O2: the inline fast path must record the program's call site at both.
# The program refuses to compile against headers without
# CONFIG_PAGEPOOL_HOLDERS.
# Usage: check_holders.sh BUILD_DIR SOURCE_DIR
set -eu
build=$1
src=$2
for opt in -O0 -O2; do
	echo "holders_user $opt:"
	KAPI_EXTRA_CFLAGS="-g $opt" "$src/tests/kernel-api/run.sh" "$build" "$src" \
		"$src/tests/install/holders_user.c" cc
done
