#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
#
# valgrind memcheck over every test executable of the unit suite, from a
# separate build (gcc, -O1 -g, no sanitizers, no -march: valgrind 3.19
# cannot decode AVX-512; -Dpoison=valgrind: the pages the pool or the page
# allocator owns are NOACCESS to memcheck, so a use after recycle is an
# invalid access), and one summary line.
#
#   tools/reliability/valgrind.sh [BUILD_DIR [TEST...]]   (default build-vg)
#
# TEST names (as `meson test --list` prints them, e.g. reliability/fault)
# limit the run to those tests; without them every executable test runs.
# A page-size build: MESON_ARGS=-Dpage_size=64k with a BUILD_DIR of its own
# (MESON_ARGS applies only when the script sets the directory up).
#
# Leak policy: memory still reachable at exit (the arena, devices, per-CPU
# areas, RCU and workqueue state: global registries that live as long as
# the process) is fine and only reported as a figure; "definitely lost" and
# "indirectly lost" blocks are errors (--errors-for-leak-kinds=
# definite,indirect), as is every memcheck error. "Possibly lost" (interior
# pointers, e.g. thread stacks) is reported as a figure. Any error or such
# leak fails the test that caused it, and the script.
#
# Long-running suites are scaled down under valgrind (about 50x slower):
# PP_TEST_PAGES for core/crossthread; every test's timeout is multiplied.
# meson names the log after the wrapper: meson-logs/testlog-valgrind.json.
set -euo pipefail
cd "$(dirname "$0")/../.."

build=${1:-build-vg}
[[ $# -eq 0 ]] || shift
only=("$@")
if [[ ! -f $build/build.ninja ]]; then
	# shellcheck disable=SC2086
	CC=${VG_CC:-gcc} meson setup "$build" -Dbuildtype=plain -Dc_args="-O1 -g" \
		-Db_sanitize=none -Dpoison=valgrind ${MESON_ARGS:-} >"${TMPDIR:-/tmp}/$(basename "$build").setup.log" 2>&1 ||
		{ cat "${TMPDIR:-/tmp}/$(basename "$build").setup.log"; exit 1; }
elif ! grep -q '^#define CONFIG_PAGEPOOL_POISON_VALGRIND 1' "$build/include/generated/autoconf.h" 2>/dev/null; then
	# A tree set up before the poison option existed.
	meson configure "$build" -Dpoison=valgrind >/dev/null
fi
out=$(ninja -C "$build" 2>&1) || { echo "$out" | tail -n 40; echo "valgrind: FAIL: $build does not build"; exit 1; }

logs=$(realpath -m "$build/valgrind")
rm -rf "$logs"
mkdir -p "$logs"
vg="valgrind --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect"
vg="$vg --suppressions=$(realpath tools/reliability/valgrind-libbpf.supp)"
vg="$vg --show-leak-kinds=definite,indirect,possible --fair-sched=yes --num-callers=30"
vg="$vg --log-file=$logs/%p.log"
# The tests whose program is an executable of this build: scripts (the
# install test runs meson, a compiler and the shell) are not memcheck's
# business, and would be reported for the shell's own leaks.
mapfile -t names < <(meson introspect --tests "$build" | python3 -c '
import json, os, sys
build = os.path.realpath(sys.argv[1])
for t in json.load(sys.stdin):
    exe = os.path.realpath(t["cmd"][0])
    with open(exe, "rb") as f:
        elf = f.read(4) == b"\x7fELF"
    print(("" if elf and exe.startswith(build + "/") else "#") + t["name"])
' "$build")
tests=() skipped=()
for n in "${names[@]}"; do
	if [[ $n == \#* ]]; then skipped+=("${n#\#}"); else tests+=("$n"); fi
done
if [[ ${#only[@]} -gt 0 ]]; then
	for n in "${only[@]}"; do
		found=0
		for t in "${tests[@]}"; do [[ $t == "$n" ]] && found=1; done
		[[ $found -eq 1 ]] || { echo "valgrind: FAIL: no executable test $n in $build"; exit 1; }
	done
	tests=("${only[@]}") skipped=()
fi
rc=0
start=$(date +%s)
PP_TEST_PAGES=${PP_TEST_PAGES:-300000} \
	meson test -C "$build" --wrapper "$vg" --timeout-multiplier 20 \
	--num-processes "${JOBS:-$(nproc)}" --print-errorlogs "${tests[@]}" \
	>"$build/valgrind-tests.txt" 2>&1 || rc=$?

# Sum up every process's memcheck report (forked children have their own).
sum() { # pattern field
	grep -h "$1" "$logs"/*.log 2>/dev/null | awk -v f="$2" '{ gsub(",", "", $f); s += $f } END { print s + 0 }'
}
procs=$(find "$logs" -name '*.log' | wc -l)
errors=$(sum 'ERROR SUMMARY:' 4)
definite=$(sum 'definitely lost:' 4)
indirect=$(sum 'indirectly lost:' 4)
possible=$(sum 'possibly lost:' 4)
reachable=$(sum 'still reachable:' 4)
ran=$(grep -c . "$build/meson-logs/testlog-valgrind.json" || true)
verdict=PASS
[[ $rc -eq 0 && $errors -eq 0 && $definite -eq 0 && $indirect -eq 0 ]] || verdict=FAIL
echo "valgrind: $verdict $ran tests ($procs processes) under memcheck in $(( $(date +%s) - start )) s: $errors errors, definitely lost $definite B, indirectly lost $indirect B, possibly lost $possible B, still reachable $reachable B (global state at exit, allowed)${skipped:+; not programs of this build, not run: ${skipped[*]}}"
if [[ $verdict != PASS ]]; then
	tools/test-summary.py "$build/meson-logs/testlog-valgrind.json" valgrind || true
	for f in $(grep -l -E 'ERROR SUMMARY: [1-9]|definitely lost: [1-9]|indirectly lost: [1-9]' "$logs"/*.log); do
		echo "--- $f"
		head -120 "$f"
	done
	exit 1
fi
