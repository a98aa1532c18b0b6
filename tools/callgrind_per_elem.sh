#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
#
# Instructions per element of one bench_page_pool_simple test, measured with
# callgrind (deterministic, unlike cycles on a shared VM): the difference
# between a 2N-loop and an N-loop run, divided by N, so set-up costs cancel.
# usage: callgrind_per_elem.sh BENCH_BINARY RUN_FLAGS [extra key=value ...]
set -eu
bin=$1; flags=$2; shift 2
n=500000
ir() {
	loops=$1
	shift
	valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" loops=$loops \
		run_flags=$flags cpu=-1 "$@" 2>&1 | sed -n 's/.*Collected : //p'
}
a=$(ir $n "$@")
b=$(ir $((2 * n)) "$@")
echo "run_flags=$flags $*: $(( (b - a) / n )) instructions per element"
