#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
#
# pagepool-kmod end to end: run the test module (pp_kmod_test.c) with good
# parameters and with bad ones, and check the lines it and the runner
# print and the exit status.
#
#   check_kmod.sh installed BUILD_DIR SOURCE_DIR
#       meson install into a scratch DESTDIR, build the module the way
#       users do (cc + pkg-config --cflags --libs pagepool-kmod, with gcc
#       and with clang when present, and once with -DKBUILD_MODNAME), run.
#   check_kmod.sh binary PROGRAM
#       run the cases against a module program built in-tree (the same
#       checks, under whatever sanitizer the build uses).
set -eu

mode=$1
dest=
cleanup() { [ -z "$dest" ] || rm -rf "$dest"; }
trap cleanup EXIT

failed=0
fail() {
	echo "FAIL: $*"
	failed=1
}

# A cross build (tests/meson.build's test setup): the target's compilers,
# and every program runs through the exe wrapper (qemu-user).
cc=${PAGEPOOL_CROSS_CC:-cc}
clang="clang${PAGEPOOL_CROSS_TRIPLE:+ --target=$PAGEPOOL_CROSS_TRIPLE}"
wrapper=${PAGEPOOL_EXE_WRAPPER:-}

# run PROGRAM ARGS...: sets $out (stdout and stderr) and $rc.
run() {
	rc=0
	# shellcheck disable=SC2086 # $wrapper: a command with arguments
	out=$($wrapper "$@" 2>&1) || rc=$?
}

# The output must contain each fixed string given.
has() {
	for s in "$@"; do
		printf '%s\n' "$out" | grep -qF -- "$s" || fail "[$tc] output lacks: $s"
	done
}

hasnt() {
	for s in "$@"; do
		if printf '%s\n' "$out" | grep -qF -- "$s"; then
			fail "[$tc] output has: $s"
		fi
	done
}

status() {
	[ "$rc" -eq "$1" ] || fail "[$tc] exit status $rc, expected $1"
}

# bad CASE-NAME ARG EXPECTED-KERNEL-LINE EXPECTED-INSMOD-REASON
# A rejected parameter: the kernel's parse_args() line with the module
# name, insmod's line, status 1, and init never ran.
bad() {
	tc=$1
	run "$prog" "$2"
	status 1
	has "$name: $3" "insmod: ERROR: could not insert module $prog: $4"
	hasnt "loaded on CPU"
}

cases() {
	prog=$1
	name=$2

	tc=defaults
	run "$prog"
	status 0
	has "$name: loaded on CPU" \
	    "loops=1000 verbose=0 tag=default big=1 flags=0x10 delta=-1 byteval=7 ulongval=3 kthread=1 vals=0 sum=0" \
	    "$name: PASS: tasklet ran in softirq (in_serving_softirq=1 in_task=0)" \
	    "$name: PASS: tasklet recycled 1000 of 1000 pages directly" \
	    "$name: PASS: HI tasklet ran first" \
	    "$name: PASS: kthread pp_kmod_kt/0 runs (PF_KTHREAD 1)" \
	    "$name: PASS: kthread runs as CPU" \
	    "$name: PASS: kthread stopped, returned 42" \
	    "$name: unloaded, 0 failure(s)"
	hasnt "FAIL" "WARNING"
	# Same CPU for the scheduler and the tasklet, whatever it was.
	printf '%s\n' "$out" | grep -qE "PASS: tasklet ran on CPU ([0-9]+), scheduled on CPU \\1\$" ||
		fail "[$tc] no 'tasklet ran on CPU N, scheduled on CPU N' line"

	tc=all-types
	run "$prog" loops=5 verbose tag=hello big=0x10 flags=255 delta=-300 \
		byteval=0377 ulongval=18446744073709551615 no_kthread=y vals=1,2,-3
	status 0
	has "loops=5 verbose=1 tag=hello big=16 flags=0xff delta=-300 byteval=255 ulongval=18446744073709551615 kthread=0 vals=3 sum=0" \
	    "PASS: tasklet recycled 5 of 5 pages directly" "verbose: 0 check(s) failed" \
	    "$name: unloaded, 0 failure(s)"
	hasnt "FAIL" "kthread pp_kmod_kt"

	tc=quoted-charp
	run "$prog" 'tag="two words"' verbose=n no_kthread=0
	status 0
	has "verbose=0 tag=two words big=1" "kthread=1"

	# Registered as the CPU taskset pins it to.
	if command -v taskset >/dev/null 2>&1; then
		cpu=$(taskset -cp $$ | sed 's/.*: *//; s/[-,].*//')
		tc=taskset
		# taskset is the host's: the exe wrapper goes after it.
		rc=0
		# shellcheck disable=SC2086 # $wrapper: a command with arguments
		out=$(taskset -c "$cpu" $wrapper "$prog" loops=10 2>&1) || rc=$?
		status 0
		has "$name: loaded on CPU $cpu:" \
		    "PASS: tasklet ran on CPU $cpu, scheduled on CPU $cpu"
	fi

	tc=init-fails
	run "$prog" fail=12
	status 1
	has "$name: loaded on CPU" \
	    "insmod: ERROR: could not insert module $prog: Cannot allocate memory"
	hasnt "unloaded"

	tc=init-einval
	run "$prog" fail=22
	status 1
	has "insmod: ERROR: could not insert module $prog: Invalid parameters"

	bad unknown bogus=1 "Unknown parameter \`bogus'" "Unknown symbol in module"
	bad unknown-noval bogus "Unknown parameter \`bogus'" "Unknown symbol in module"
	bad int-text loops=abc "\`abc' invalid for parameter \`loops'" "Invalid parameters"
	bad int-trailing loops=12x "\`12x' invalid for parameter \`loops'" "Invalid parameters"
	bad int-range loops=2147483648 "\`2147483648' invalid for parameter \`loops'" \
		"Numerical result out of range"
	bad int-novalue loops "\`' invalid for parameter \`loops'" "Invalid parameters"
	bad bool-text verbose=maybe "\`maybe' invalid for parameter \`verbose'" "Invalid parameters"
	bad invbool-novalue no_kthread "\`' invalid for parameter \`no_kthread'" "Invalid parameters"
	bad charp-novalue tag "\`' invalid for parameter \`tag'" "Invalid parameters"
	bad ullong-negative big=-1 "\`-1' invalid for parameter \`big'" "Invalid parameters"
	bad short-range delta=40000 "\`40000' invalid for parameter \`delta'" \
		"Numerical result out of range"
	bad byte-range byteval=256 "\`256' invalid for parameter \`byteval'" \
		"Numerical result out of range"
	bad hexint-text flags=0xg "\`0xg' invalid for parameter \`flags'" "Invalid parameters"
	# The kernel cuts the list at its commas in place, so it names the
	# first element.
	bad array-long vals=1,2,3,4,5 "\`1' invalid for parameter \`vals'" "Invalid parameters"
	has "vals: can only take 4 arguments"
	bad array-elem vals=1,x "\`1' invalid for parameter \`vals'" "Invalid parameters"

	# Every bad argument is reported, not only the first.
	tc=two-bad
	run "$prog" loops=abc bogus=2
	status 1
	has "$name: \`abc' invalid for parameter \`loops'" "$name: Unknown parameter \`bogus'"

	tc=help
	run "$prog" --help
	status 0
	has "description:    pagepool-kmod test module" "license:        Dual BSD/GPL" \
	    "parm:           loops:page_pool alloc/recycle rounds in the tasklet (int)" \
	    "parm:           no_kthread:do not start the kthread (invbool) (invbool)" \
	    "parm:           vals:up to 4 ints, summed (array of int)" \
	    "parm:           big:(ullong)"
}

case $mode in
binary)
	prog=$2
	cases "$prog" "$(basename "$prog")"
	;;
installed)
	build=$2
	src=$3
	dest=$(mktemp -d)
	meson install -C "$build" --destdir "$dest" --no-rebuild --quiet >/dev/null
	pc=$(find "$dest" -name pagepool-kmod.pc | head -n 1)
	[ -n "$pc" ] || { echo "pagepool-kmod.pc was not installed"; exit 1; }
	export PKG_CONFIG_PATH="$(dirname "$pc")"
	prefix=$(pkg-config --variable=prefix pagepool-kmod)
	flags=$(pkg-config --define-variable=prefix="$dest$prefix" --cflags --libs pagepool-kmod)
	libdir=$(pkg-config --define-variable=prefix="$dest$prefix" --variable=libdir pagepool)
	export LD_LIBRARY_PATH="$libdir"
	echo "pkg-config --cflags --libs pagepool-kmod: $flags"
	mod="$src/tests/kmod/pp_kmod_test.c"

	$cc -std=gnu11 -Wall -Wextra -Werror -o "$dest/pp_kmod_test" "$mod" $flags
	cases "$dest/pp_kmod_test" pp_kmod_test

	# kbuild's spelling of the name wins over the program's.
	$cc -std=gnu11 -O2 -Wall -Wextra -Werror -DKBUILD_MODNAME='"kbuild_name"' \
		-o "$dest/pp_kmod_named" "$mod" $flags
	prog="$dest/pp_kmod_named"
	tc=kbuild-modname
	run "$prog"
	status 0
	has "kbuild_name: loaded on CPU" "kbuild_name: unloaded, 0 failure(s)"
	name=kbuild_name
	bad kbuild-modname-bad bogus=1 "Unknown parameter \`bogus'" "Unknown symbol in module"

	if command -v clang >/dev/null 2>&1; then
		$clang -std=gnu11 -Wall -Wextra -Werror -o "$dest/pp_kmod_clang" "$mod" $flags
		prog="$dest/pp_kmod_clang"
		name=pp_kmod_clang
		tc=clang
		run "$prog" loops=7
		status 0
		has "pp_kmod_clang: PASS: tasklet recycled 7 of 7 pages directly" \
		    "pp_kmod_clang: unloaded, 0 failure(s)"
		bad clang-bad loops=abc "\`abc' invalid for parameter \`loops'" "Invalid parameters"
	fi
	;;
*)
	echo "usage: $0 installed BUILD_DIR SOURCE_DIR | binary PROGRAM"
	exit 2
	;;
esac

if [ "$failed" -ne 0 ]; then
	echo "pagepool-kmod checks FAILED"
	exit 1
fi
echo "pagepool-kmod checks: OK"
