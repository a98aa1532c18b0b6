#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
#
# tools/check-style.sh catches each rule's violation: copy the tree to a
# scratch directory, run the checker on one rule, plant violations of
# that rule (and, where the rule has exemptions, the same text where it is
# allowed), run it again, and require exactly the planted lines to be new,
# each naming the rule. The copy's own violations (the unplanted run) do
# not matter here; tools/check-style.sh on the tree is the style/tree test.
# Usage: planted.sh SOURCE_DIR BUILD_DIR RULE
set -eu
src=$1
build=$2
rule=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tree=$work/tree
mkdir "$tree"
(cd "$src" && tar -cf - --exclude='./build*' --exclude=./.git --exclude=./subprojects .) |
	(cd "$tree" && tar -xf -)

spdx='/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */'

"$tree/tools/check-style.sh" --root "$tree" --build "$build" --rule "$rule" \
	>"$work/before" 2>/dev/null || :

# Each plant: a file and what it should be reported for (FILE:LINE), in
# $work/expect; the allowed twins are not listed.
: >"$work/expect"
case $rule in
raw-atomic)
	body='static inline int planted(int *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }'
	for f in src/mm/planted.c include/net/planted.h include/pagepool/planted.h; do
		printf '%s\n%s\n' "$spdx" "$body" >"$tree/$f"
		echo "$f:2" >>"$work/expect"
	done
	printf '%s\n\n%s\n' "$spdx" 'static int x; int planted(void) { return __sync_fetch_and_add(&x, 1); }' \
		>"$tree/src/dma/planted.c"
	echo "src/dma/planted.c:3" >>"$work/expect"
	# The wrappers may.
	printf '%s\n%s\n' "$spdx" "$body" >"$tree/src/runtime/planted.c"
	printf '%s\n%s\n' "$spdx" "$body" >"$tree/include/linux/planted.h"
	# So may a comment.
	printf '%s\n/* not __atomic_load_n() */\n' "$spdx" >"$tree/src/core/planted.c"
	;;
layer-include)
	printf '%s\n#include "core/core_internal.h"\n' "$spdx" >"$tree/src/dma/planted.c"
	echo "src/dma/planted.c:2" >>"$work/expect"
	printf '%s\n#include <net/xdp.h>\n' "$spdx" >"$tree/src/core/planted.c"
	echo "src/core/planted.c:2" >>"$work/expect"
	printf '%s\n#include <linux/mm.h>\n' "$spdx" >"$tree/include/linux/planted.h"
	echo "include/linux/planted.h:2" >>"$work/expect"
	printf '%s\n#include "planted.h"\n' "$spdx" >"$tree/src/runtime/planted.c"
	printf '%s\n#include <pagepool/core.h>\n' "$spdx" >"$tree/src/runtime/planted.h"
	echo "src/runtime/planted.h:2" >>"$work/expect"
	# Down the layers is allowed.
	printf '%s\n#include "core/core_internal.h"\n#include <linux/mm.h>\n' "$spdx" \
		>"$tree/src/xdp/planted.c"
	;;
header-alone)
	printf '%s\nstatic inline int planted(void) { return planted_undeclared; }\n' "$spdx" \
		>"$tree/include/linux/planted.h"
	echo "include/linux/planted.h:1" >>"$work/expect"
	# Compiles only after another include: not on its own.
	printf '%s\nstatic inline struct page *planted(void) { return virt_to_page((void *)0); }\n' \
		"$spdx" >"$tree/include/net/planted.h"
	echo "include/net/planted.h:1" >>"$work/expect"
	;;
spdx)
	echo 'int planted;' >"$tree/src/mm/planted.c"
	echo "src/mm/planted.c:1" >>"$work/expect"
	printf '#!/bin/sh\necho planted\n' >"$tree/tools/planted"
	echo "tools/planted:1" >>"$work/expect"
	mkdir "$tree/tests/planted"
	printf "test('planted', find_program('true'))\n" >"$tree/tests/planted/meson.build"
	echo "tests/planted/meson.build:1" >>"$work/expect"
	# Another license on the line is not ours.
	printf '/* SPDX-License-Identifier: GPL-2.0 */\nint planted;\n' >"$tree/src/dma/planted.h"
	echo "src/dma/planted.h:1" >>"$work/expect"
	;;
outside-ref)
	# Spelled in pieces, so that this file does not match itself.
	d=DESIGN; r=reference; s=shared; e=seeds; i=issue
	printf '%s\n/* as %s.md says */\n' "$spdx" "$d" >"$tree/src/core/planted.c"
	echo "src/core/planted.c:2" >>"$work/expect"
	printf '# see %s/page_pool.c\n' "$r" >>"$tree/meson.build"
	echo "meson.build:$(wc -l <"$tree/meson.build")" >>"$work/expect"
	printf 'See ../%s/notes.\n' "$s" >>"$tree/README.md"
	echo "README.md:$(wc -l <"$tree/README.md")" >>"$work/expect"
	printf '%s\n/* from %s/v1 */\n' "$spdx" "$e" >"$tree/tests/planted.c"
	echo "tests/planted.c:2" >>"$work/expect"
	printf 'Since %s 12, and %s-7.\n' "$i" "$i" >"$tree/docs/PLANTED.md"
	echo "docs/PLANTED.md:1" >>"$work/expect"
	printf '%s\n/* %s #5 */\n' "$spdx" Issue >"$tree/include/linux/planted.h"
	echo "include/linux/planted.h:2" >>"$work/expect"
	# Not pointers: a word that ends in "issue", a count of issues.
	printf '%s\n/* tissue 3; issues: none */\n' "$spdx" >"$tree/bench/planted.c"
	;;
*)
	echo "planted.sh: unknown rule $rule" >&2
	exit 2
	;;
esac

set +e
"$tree/tools/check-style.sh" --root "$tree" --build "$build" --rule "$rule" \
	>"$work/after" 2>/dev/null
rc=$?
set -e
sort "$work/before" >"$work/b"
sort "$work/after" >"$work/a"
comm -13 "$work/b" "$work/a" >"$work/new"
sed 's/\(^[^:]*:[0-9]*\):.*/\1/' "$work/new" | sort >"$work/got"
sort "$work/expect" >"$work/want"
fail=0
if [ "$rc" -eq 0 ]; then
	echo "FAIL: check-style.sh exited 0 with planted $rule violations"
	fail=1
fi
if ! cmp -s "$work/got" "$work/want"; then
	echo "FAIL: new violations (<) differ from the planted ones (>):"
	diff "$work/got" "$work/want" | grep '^[<>]'
	fail=1
fi
if grep -v ": $rule: " "$work/new"; then
	echo "FAIL: the lines above do not name the rule $rule"
	fail=1
fi
echo "--- reported for the plants:"
cat "$work/new"
[ "$fail" -eq 0 ] && echo "planted $rule: $(wc -l <"$work/want") caught, nothing else"
exit "$fail"
