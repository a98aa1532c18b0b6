#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
#
# Build and run the page_pool libFuzzer harness (tests/fuzz) for a given
# time, starting from the committed corpus, and print one summary line.
#
#   tools/reliability/fuzz.sh [-t SECONDS] [-b BUILD_DIR] [-c CORPUS_DIR]
#
# The build is clang with -fsanitize=fuzzer,address,undefined: the library
# is compiled with -fsanitize=fuzzer-no-link (coverage feedback from inside
# it), the harness links libFuzzer. Defaults: 60 s, build-fuzz, and a work
# corpus in BUILD_DIR/fuzz-corpus that keeps what earlier runs found (the
# committed tests/fuzz/corpus is read, never written). A crash leaves its
# input in BUILD_DIR/fuzz-artifacts/; replay it with
#   BUILD_DIR/tests/fuzz/fuzz_replay BUILD_DIR/fuzz-artifacts/crash-...
# Extra libFuzzer flags: FUZZ_FLAGS="...". Exit status: libFuzzer's (0 clean).
set -euo pipefail
cd "$(dirname "$0")/../.."

secs=60
build=build-fuzz
work=
while getopts "t:b:c:" opt; do
	case $opt in
	t) secs=$OPTARG ;;
	b) build=$OPTARG ;;
	c) work=$OPTARG ;;
	*) echo "usage: $0 [-t SECONDS] [-b BUILD_DIR] [-c CORPUS_DIR]" >&2; exit 2 ;;
	esac
done
work=${work:-$build/fuzz-corpus}

if [[ ! -f $build/build.ninja ]]; then
	# shellcheck disable=SC2086
	CC=clang meson setup "$build" -Db_sanitize=address,undefined -Db_lundef=false \
		-Dc_args="-fsanitize=fuzzer-no-link -fno-sanitize-recover=all" \
		${MESON_ARGS:-} >"${TMPDIR:-/tmp}/$(basename "$build").setup.log" 2>&1 ||
		{ cat "${TMPDIR:-/tmp}/$(basename "$build").setup.log"; exit 1; }
fi
ninja -C "$build" tests/fuzz/fuzz_pagepool tests/fuzz/fuzz_replay >/dev/null

mkdir -p "$work" "$build/fuzz-artifacts"
log=$build/fuzz.log
seeds=$(find tests/fuzz/corpus -type f | wc -l)
before=$(find "$work" -type f | wc -l)
rc=0
# Per-input leak checks are off: the DMA-debug layer keeps tombstones
# across inputs on purpose, which would make libFuzzer scan the heap
# after almost every input. LeakSanitizer still checks the heap at exit,
# and the harness's own checks find lost pages after every input.
# shellcheck disable=SC2086
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:halt_on_error=1} \
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
	"$build/tests/fuzz/fuzz_pagepool" -max_total_time="$secs" -print_final_stats=1 \
	-detect_leaks=0 -dict=tests/fuzz/pagepool.dict -max_len=512 \
	-artifact_prefix="$build/fuzz-artifacts/" ${FUZZ_FLAGS:-} \
	"$work" tests/fuzz/corpus >"$log" 2>&1 || rc=$?

stat() { sed -n "s/^stat::$1: *//p" "$log" | tail -1; }
field() { sed -n "s/^fuzz: .*\\b$1=\\([0-9]*\\).*/\\1/p" "$log" | tail -1; }
inv() { sed -n "s/^fuzz invariants: .*\\b$1=\\([0-9]*\\).*/\\1/p" "$log" | tail -1; }
execs=$(stat number_of_executed_units)
rate=$(stat average_exec_per_sec)
cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
after=$(find "$work" -type f | wc -l)
verdict=PASS
[[ $rc -eq 0 ]] || verdict=FAIL
echo "fuzz: $verdict ${secs} s, ${execs:-0} executions (${rate:-0} exec/s), corpus $seeds seeds + $before kept -> $after, coverage ${cov:-?} edges, ops=$(field ops) allocs=$(field allocs) destroys_with_inflight=$(field destroyed_with_inflight) unbinds=$(field unbinds) misuse=$(field misuse) faults_injected=$(field faults_injected) invariant_checks=$(inv checks) invariant_failures=$(inv failures) expected_dma_violations(tracking off)=$(inv expected_dma) lost_pages=$([[ $rc -eq 0 ]] && echo 0 || echo '?')"
if [[ $rc -ne 0 ]]; then
	echo "fuzz: libFuzzer exited $rc; the end of $log:"
	tail -60 "$log"
	ls -l "$build/fuzz-artifacts" || true
fi
exit "$rc"
