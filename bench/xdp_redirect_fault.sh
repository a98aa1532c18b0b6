#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
#
# bench_xdp_redirect's end-state checks, shown to fail: run PROGRAM with
# ARGS (one of its fault= values among them) and pass only if it exits 1
# (not 0, not a crash), with a FAILED end state whose line says EXPECT.
# Usage: xdp_redirect_fault.sh PROGRAM EXPECT ARGS...
prog=$1
expect=$2
shift 2
# A cross build (tests/meson.build's test setup): through the exe wrapper.
# shellcheck disable=SC2086 # the wrapper: a command with arguments
out=$(${PAGEPOOL_EXE_WRAPPER:-} "$prog" "$@" 2>&1)
rc=$?
printf '%s\n' "$out"
if [ $rc -ne 1 ]; then
	echo "xdp_redirect_fault: exit status $rc, not 1"
	exit 1
fi
if ! printf '%s\n' "$out" | grep "end state .*: FAILED (" | grep -qF -- "$expect"; then
	echo "xdp_redirect_fault: no FAILED end state with \"$expect\""
	exit 1
fi
echo "xdp_redirect_fault: the check failed as it must (\"$expect\")"
