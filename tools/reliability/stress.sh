#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
#
# Run the stress program (tests/stress) from a build directory under the
# sanitizer that directory was configured with, and print one summary line.
#
#   tools/reliability/stress.sh BUILD_DIR LABEL [stress arguments...]
#
# LABEL names the run in the summary (plain, asan, tsan); for tsan the
# known-race suppressions (tools/reliability/tsan-known-races.supp) apply
# unless PP_STRESS_TSAN_SUPP=none (or another file). The build directory
# must exist (make test-asan / test-tsan make them); the stress program is
# built if missing. Default arguments: duration=60. Exit status: the
# program's (0: every invariant held, no sanitizer report).
set -euo pipefail
cd "$(dirname "$0")/../.."

if [[ $# -lt 2 ]]; then
	echo "usage: $0 BUILD_DIR LABEL [duration=S] [ops=N] [...]" >&2
	exit 2
fi
build=$1 label=$2
shift 2
[[ $# -gt 0 ]] || set -- duration=60

ninja -C "$build" tests/stress/pp_stress >/dev/null
supp=${PP_STRESS_TSAN_SUPP:-tools/reliability/tsan-known-races.supp}
tsan="halt_on_error=1:second_deadlock_stack=1:print_suppressions=1"
[[ $supp == none ]] || tsan="$tsan:suppressions=$PWD/$supp"
log=$build/stress-$label.log
rc=0
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:halt_on_error=1} \
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
TSAN_OPTIONS=${TSAN_OPTIONS:-$tsan} \
	"$build/tests/stress/pp_stress" "$@" >"$log" 2>&1 || rc=$?

line=$(grep '^stress: duration=' "$log" | tail -1 || true)
inv=$(grep '^stress invariants:' "$log" | tail -1 || true)
races=$(grep -c 'WARNING: ThreadSanitizer' "$log" || true)
suppressed=$(sed -n 's/^ThreadSanitizer: Matched \([0-9]*\) suppressions.*/\1/p' "$log" | tail -1)
asan=$(grep -c 'ERROR: AddressSanitizer\|ERROR: LeakSanitizer\|runtime error:' "$log" || true)
verdict=PASS
[[ $rc -eq 0 ]] || verdict=FAIL
# "stress: duration=60.0s ops=..." -> "stress[asan]: PASS duration=60.0s ops=..."
echo "stress[$label]: $verdict ${line#stress: } sanitizer_reports=$((races + asan))${suppressed:+ known_races_suppressed=$suppressed}"
[[ -z $inv ]] || echo "stress[$label]: ${inv#stress }"
if [[ $rc -ne 0 ]]; then
	echo "stress[$label]: exit status $rc; the end of $log:"
	tail -80 "$log"
fi
exit "$rc"
