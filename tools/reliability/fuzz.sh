#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
#
# Build and run the page_pool libFuzzer targets (tests/fuzz) for a given
# time, starting from the committed corpus, and print one summary line per
# target:
#
#   tools/reliability/fuzz.sh [-t SECONDS] [-T pool|pagepool|telemetry|both|all|kapi]
#                             [-b BUILD_DIR] [-c CORPUS_DIR]
#
# The targets (tests/fuzz/fuzz.h): fuzz_pool, the fast one for the pool
# and XDP paths (direct DMA, an 8 MiB arena, small rings, short inputs),
# and fuzz_pagepool, the full one (IOMMU + DMA-API debug, 16 MiB on two
# nodes, long inputs); and fuzz_telemetry, the telemetry server's request
# parser (src/telemetry/request.c; built when the build has the server,
# that is when jansson is installed). "all" (the default) gives the
# telemetry target a tenth of the time and splits the rest as "both"
# does: the fast target two thirds, the full one the rest, one after the
# other. kapi, run alone: the harness in its kernel-API form
# (tests/fuzz/kapi, docs/RELIABILITY.md), on the build's core - pagepool's,
# or the kernel's when BUILD_DIR is a kernel core build:
#   MESON_ARGS="-Dkernel_core=$PWD/build-kcore-ksrc -Ddesigns=default -Dring=ptr_ring \
#     -Ddma_tracking=index -Dholders=false -Dpoison=none" \
#     tools/reliability/fuzz.sh -T kapi -b build-fuzz-kcore
# (the Makefile's KCORE_MESON_ARGS); its work corpus is BUILD_DIR/fuzz-corpus-kapi
# beside the others, its seeds tests/fuzz/corpus-kapi, a crash replays with
#   BUILD_DIR/tests/fuzz/kapi/fuzz_kapi_replay BUILD_DIR/fuzz-artifacts/kapi-crash-...
#
# The build is clang with ASan+UBSan and CONFIG_DEBUG_NET (meson
# -Ddebug_net=true: the misuse checks that cost cycles are on, as in the
# ASan+UBSan test build). The library gets coverage counters (edges and
# indirect calls) but not comparison tracing: tracing every comparison of
# the library doubled the cost of an input, and the inputs' bytes meet
# their comparisons in the harness, which keeps the full
# -fsanitize=fuzzer instrumentation. Defaults: 60 s, build-fuzz, and work
# corpora BUILD_DIR/fuzz-corpus (full), BUILD_DIR/fuzz-corpus-pool
# (fast) and BUILD_DIR/fuzz-corpus-telemetry that keep what earlier runs
# found (the committed tests/fuzz/corpus and tests/fuzz/corpus-telemetry
# are read, never written); -c names the full target's, the others are
# beside it with -pool and -telemetry appended. A crash leaves its input in
# BUILD_DIR/fuzz-artifacts/; replay it with the target's replay driver:
#   BUILD_DIR/tests/fuzz/fuzz_replay_fast BUILD_DIR/fuzz-artifacts/pool-crash-...
#   BUILD_DIR/tests/fuzz/fuzz_replay BUILD_DIR/fuzz-artifacts/pagepool-crash-...
#   BUILD_DIR/tests/fuzz/fuzz_telemetry_replay BUILD_DIR/fuzz-artifacts/telemetry-crash-...
# Extra libFuzzer flags: FUZZ_FLAGS="..." (both targets). Exit status: 0
# when every target ran clean.
set -euo pipefail
cd "$(dirname "$0")/../.."

secs=60
build=build-fuzz
work=
targets=all
while getopts "t:b:c:T:" opt; do
	case $opt in
	t) secs=$OPTARG ;;
	b) build=$OPTARG ;;
	c) work=$OPTARG ;;
	T) targets=$OPTARG ;;
	*) echo "usage: $0 [-t SECONDS] [-T pool|pagepool|telemetry|both|all|kapi] [-b BUILD_DIR] [-c CORPUS_DIR]" >&2
	   exit 2 ;;
	esac
done
work=${work:-$build/fuzz-corpus}
tsecs=$((secs / 10))
rest=$((secs - tsecs))
case $targets in
all) run="pool:$((rest * 2 / 3)) pagepool:$((rest - rest * 2 / 3)) telemetry:$tsecs" ;;
both) run="pool:$((secs * 2 / 3)) pagepool:$((secs - secs * 2 / 3))" ;;
pool|pagepool|telemetry|kapi) run="$targets:$secs" ;;
*) echo "$0: -T pool, pagepool, telemetry, both, all or kapi" >&2; exit 2 ;;
esac

if [[ ! -f $build/build.ninja ]]; then
	# shellcheck disable=SC2086
	CC=clang meson setup "$build" -Db_sanitize=address,undefined -Db_lundef=false \
		-Ddebug_net=true \
		-Dc_args="-fsanitize-coverage=inline-8bit-counters,indirect-calls,pc-table -fno-sanitize-recover=all" \
		${MESON_ARGS:-} >"${TMPDIR:-/tmp}/$(basename "$build").setup.log" 2>&1 ||
		{ cat "${TMPDIR:-/tmp}/$(basename "$build").setup.log"; exit 1; }
fi
# The telemetry target exists only in a build with the server (jansson).
have_telemetry=false
if ninja -C "$build" -t targets all 2>/dev/null | grep -q '^tests/fuzz/fuzz_telemetry:'; then
	have_telemetry=true
fi
if [[ $targets == kapi ]]; then
	# (A kernel core build has only this harness.)
	ninja -C "$build" tests/fuzz/kapi/fuzz_kapi tests/fuzz/kapi/fuzz_kapi_replay >/dev/null
else
	ninja -C "$build" tests/fuzz/fuzz_pagepool tests/fuzz/fuzz_pool tests/fuzz/fuzz_replay \
		tests/fuzz/fuzz_replay_fast $($have_telemetry && echo tests/fuzz/fuzz_telemetry \
		tests/fuzz/fuzz_telemetry_replay) >/dev/null
fi

mkdir -p "$build/fuzz-artifacts"
seeds=$(find tests/fuzz/corpus -type f | wc -l)
status=0
for t in $run; do
	name=${t%%:*}
	tsecs=${t#*:}
	if [[ $name == telemetry ]]; then
		if ! $have_telemetry; then
			echo "fuzz-telemetry: SKIP (the build has no telemetry server: jansson not found)"
			continue
		fi
		# Request lines: a few hundred bytes reach every check; the
		# parser's own limit is the server's 64 KiB line.
		dir=$work-telemetry log=$build/fuzz-telemetry.log
		tseeds=$(find tests/fuzz/corpus-telemetry -type f | wc -l)
		mkdir -p "$dir"
		before=$(find "$dir" -type f | wc -l)
		rc=0
		# shellcheck disable=SC2086
		ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:halt_on_error=1} \
		UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
			"$build/tests/fuzz/fuzz_telemetry" -max_total_time="$tsecs" \
			-print_final_stats=1 -max_len=1024 \
			-artifact_prefix="$build/fuzz-artifacts/telemetry-" ${FUZZ_FLAGS:-} \
			"$dir" tests/fuzz/corpus-telemetry >"$log" 2>&1 || rc=$?
		execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
		rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
		cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
		after=$(find "$dir" -type f | wc -l)
		verdict=PASS
		[[ $rc -eq 0 ]] || verdict=FAIL
		echo "fuzz-telemetry: $verdict ${tsecs} s, ${execs:-0} executions (${rate:-0} exec/s), corpus $tseeds seeds + $before kept -> $after, coverage ${cov:-?} edges"
		if [[ $rc -ne 0 ]]; then
			echo "fuzz-telemetry: libFuzzer exited $rc; the end of $log:"
			tail -60 "$log"
			ls -l "$build/fuzz-artifacts" || true
			status=$rc
		fi
		continue
	fi
	if [[ $name == kapi ]]; then
		# Long inputs: the operations need pools first, and the
		# model's checks are per operation, not per input.
		dir=$work-kapi log=$build/fuzz-kapi.log
		kseeds=$(find tests/fuzz/corpus-kapi -type f | wc -l)
		mkdir -p "$dir"
		before=$(find "$dir" -type f | wc -l)
		rc=0
		# shellcheck disable=SC2086
		ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:halt_on_error=1} \
		UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
			"$build/tests/fuzz/kapi/fuzz_kapi" -max_total_time="$tsecs" \
			-print_final_stats=1 -detect_leaks=0 -max_len=1024 \
			-artifact_prefix="$build/fuzz-artifacts/kapi-" ${FUZZ_FLAGS:-} \
			"$dir" tests/fuzz/corpus-kapi >"$log" 2>&1 || rc=$?
		kfield() { sed -n "s/^fuzz-kapi: .*\\b$1=\\([0-9]*\\).*/\\1/p" "$log" | tail -1; }
		kinv() { sed -n "s/^fuzz-kapi invariants: .*\\b$1=\\([0-9]*\\).*/\\1/p" "$log" | tail -1; }
		execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
		rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
		cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
		after=$(find "$dir" -type f | wc -l)
		core=pagepool
		grep -q '^#define CONFIG_PAGEPOOL_KERNEL_CORE 1' "$build/include/generated/autoconf.h" \
			2>/dev/null && core=kernel
		verdict=PASS
		[[ $rc -eq 0 ]] || verdict=FAIL
		echo "fuzz-kapi ($core core): $verdict ${tsecs} s, ${execs:-0} executions (${rate:-0} exec/s), corpus $kseeds seeds + $before kept -> $after, coverage ${cov:-?} edges, ops=$(kfield ops) allocs=$(kfield allocs) destroys_with_inflight=$(kfield destroyed_with_inflight) unbinds=$(kfield unbinds) stats_checks=$(kfield stats_checks) faults_injected=$(kfield faults_injected) invariant_checks=$(kinv checks) invariant_failures=$(kinv failures)"
		if [[ $rc -ne 0 ]]; then
			echo "fuzz-kapi: libFuzzer exited $rc; the end of $log:"
			tail -60 "$log"
			ls -l "$build/fuzz-artifacts" || true
			status=$rc
		fi
		continue
	fi
	if [[ $name == pool ]]; then
		# Short inputs (a few dozen operations): the fast target's
		# speed is per input, long sequences are the full target's.
		# The entropic schedule's per-feature bookkeeping cost a
		# quarter of the time per input; plain coverage-guided
		# scheduling is enough here.
		dir=$work-pool label=fuzz-pool flags="-max_len=128 -entropic=0"
	else
		dir=$work label=fuzz flags="-max_len=512"
	fi
	log=$build/fuzz-$name.log
	mkdir -p "$dir"
	before=$(find "$dir" -type f | wc -l)
	rc=0
	# Per-input leak checks are off: the DMA-debug layer keeps tombstones
	# across inputs on purpose, which would make libFuzzer scan the heap
	# after almost every input. LeakSanitizer still checks the heap at
	# exit, and the harness's own checks find lost pages after every input.
	# shellcheck disable=SC2086
	ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:halt_on_error=1} \
	UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
		"$build/tests/fuzz/fuzz_$name" -max_total_time="$tsecs" -print_final_stats=1 \
		-detect_leaks=0 -dict=tests/fuzz/pagepool.dict $flags \
		-artifact_prefix="$build/fuzz-artifacts/$name-" ${FUZZ_FLAGS:-} \
		"$dir" tests/fuzz/corpus >"$log" 2>&1 || rc=$?

	stat() { sed -n "s/^stat::$1: *//p" "$log" | tail -1; }
	field() { sed -n "s/^$label: .*\\b$1=\\([0-9]*\\).*/\\1/p" "$log" | tail -1; }
	inv() { sed -n "s/^$label invariants: .*\\b$1=\\([0-9]*\\).*/\\1/p" "$log" | tail -1; }
	execs=$(stat number_of_executed_units)
	rate=$(stat average_exec_per_sec)
	cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
	after=$(find "$dir" -type f | wc -l)
	verdict=PASS
	[[ $rc -eq 0 ]] || verdict=FAIL
	echo "$label: $verdict ${tsecs} s, ${execs:-0} executions (${rate:-0} exec/s), corpus $seeds seeds + $before kept -> $after, coverage ${cov:-?} edges, ops=$(field ops) allocs=$(field allocs) destroys_with_inflight=$(field destroyed_with_inflight) unbinds=$(field unbinds) misuse=$(field misuse) misuse_issue12=$(field misuse_issue12) faults_injected=$(field faults_injected) invariant_checks=$(inv checks) invariant_failures=$(inv failures) expected_dma_violations(tracking off)=$(inv expected_dma) lost_pages=$([[ $rc -eq 0 ]] && echo 0 || echo '?')"
	if [[ $rc -ne 0 ]]; then
		echo "$label: libFuzzer exited $rc; the end of $log:"
		tail -60 "$log"
		ls -l "$build/fuzz-artifacts" || true
		status=$rc
	fi
done
exit "$status"
