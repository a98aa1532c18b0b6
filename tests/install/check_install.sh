#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
#
# Install the build into a scratch DESTDIR, then build tests/install/demo.c
# and the compat RX driver against it with pkg-config alone, and run both.
# Usage: check_install.sh BUILD_DIR SOURCE_DIR
# Cross-aware: in a cross build (tests/meson.build's test setup)
# $PAGEPOOL_CROSS_CC is the compiler instead of cc, $PKG_CONFIG_LIBDIR
# names the target's .pc files, and $PAGEPOOL_EXE_WRAPPER (qemu-aarch64
# -L /, words split on spaces) runs the demo.
. "$(dirname "$0")/scratch_install.sh"
scratch_install pagepool

echo "compiler: $cc${wrapper:+; run through: $wrapper}"
# shellcheck disable=SC2086 # $cc: a command and its arguments
$cc -std=gnu11 -Wall -Wextra -Werror -o "$dest/demo" "$src/tests/install/demo.c" $flags
# shellcheck disable=SC2086 # the wrapper is a command and its arguments
LD_LIBRARY_PATH="$libdir" $wrapper "$dest/demo"

# The kernel-style driver, built from the installed headers only.
$cc -std=gnu11 -Wall -Wextra -Werror -Wno-unused-parameter -c -o "$dest/drv.o" \
	"$src/tests/compat/sim_rx_driver.c" $flags
echo "installed headers and library: OK"
