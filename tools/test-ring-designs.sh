#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
#
# The unit tests that exercise the return ring, once per ring design of an
# all-designs build (meson -Ddesigns=all) other than its default, with
# PAGEPOOL_RING=<design>: `make test-all` runs the whole suite first, on
# the default design, then this. The designs are the build's: the
# CONFIG_PAGEPOOL_RING_<NAME> symbols of its <generated/autoconf.h>; a
# design the build lacks is not run (and says so). One summary line per
# design, "all-designs, ring <design>: N passed, N failed"; exit 1 if any
# failed.
#
# Which tests: the suites whose pools put pages into the ring in every
# way - core, kernel-api, hardening, reliability, fuzz (the corpus
# replays) - less what the ring design cannot change (compat, xdp and the
# 3 s stress put pages the same ways again; they run on the default design,
# and each design's own tests under core/ run its threads under TSan):
#   kernel-api/headers*   compile-only checks of the installed headers
#   */*-clang             the same programs built with clang: the compiler
#                         is not the ring's business, gcc's runs cover it
#   hardening/rt_*, mm_*, abi_mismatch
#                         the runtime, the page allocator, the ABI check
# and the suites with no pool in them at all (runtime, mm, dma, install,
# style, kmod, tools). The hardening and kernel-api programs are built as
# users build (tests/kernel-api/run.sh), which was most of the time, 80-180
# s per design on two busy CPUs: with KAPI_CACHE set (make test-all sets
# it) they are built once and each design runs the same programs.
#
# Usage: tools/test-ring-designs.sh BUILD_DIR [JOBS]
set -u
build=${1:?usage: $0 BUILD_DIR [JOBS]}
jobs=${2:-$(nproc)}
root=$(cd "$(dirname "$0")/.." && pwd)
hdr=$build/include/generated/autoconf.h

if ! grep -q '^#define CONFIG_PAGEPOOL_ALL_DESIGNS 1' "$hdr" 2>/dev/null; then
	echo "test-ring-designs: $build is not an all-designs build (meson -Ddesigns=all)" >&2
	exit 2
fi
# enum pp_ring_mode's names by value (PAGEPOOL_RING's values), the build's
# designs, and its default (CONFIG_PAGEPOOL_RING_DEFAULT is an enum value).
enum=$(sed -n '/^enum pp_ring_mode {/,/^};/s/^[[:space:]]*PP_RING_\([A-Z0-9_]*\),.*/\1/p' \
	"$root/include/pagepool/core.h" | tr 'A-Z' 'a-z')
built=$(sed -n 's/^#define CONFIG_PAGEPOOL_RING_\([A-Z0-9_]*\) 1$/\1/p' "$hdr" |
	grep -vx DEFAULT | tr 'A-Z' 'a-z')
dflt_idx=$(sed -n 's/^#define CONFIG_PAGEPOOL_RING_DEFAULT \([0-9]*\)$/\1/p' "$hdr")
dflt=$(echo "$enum" | sed -n "$((dflt_idx + 1))p")

tests=$(meson test -C "$build" --list 2>/dev/null |
	sed -nE 's#^[^ ]*:(core|kernel-api|hardening|reliability|fuzz) / ##p' |
	grep -v -e '-clang$' -e '^kernel-api/headers' -e '^hardening/rt_' -e '^hardening/mm_' \
		-e '^hardening/abi_mismatch$')
if [ -z "$tests" ]; then
	echo "test-ring-designs: no tests listed in $build" >&2
	exit 2
fi

rc=0
for d in $enum; do
	if ! echo "$built" | grep -qx "$d"; then
		echo "all-designs, ring $d: not in this build, not run"
		continue
	fi
	[ "$d" = "$dflt" ] && continue	# the whole suite ran on it
	out=$build/test-output-ring-$d.txt
	start=$(date +%s)
	# shellcheck disable=SC2086 # one argument per test name
	PAGEPOOL_RING=$d meson test -C "$build" --print-errorlogs --num-processes "$jobs" \
		$tests >"$out" 2>&1
	r=$?
	[ $r -ne 0 ] && tail -n 200 "$out"
	secs=$(( $(date +%s) - start ))
	"$root/tools/test-summary.py" "$build/meson-logs/testlog.json" "all-designs, ring $d" |
		sed "\$s/\$/ ($secs s)/"
	[ "${PIPESTATUS[0]}" -ne 0 ] && rc=1
	[ $r -ne 0 ] && rc=1
done
exit $rc
