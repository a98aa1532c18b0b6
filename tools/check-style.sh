#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
#
# The tree's style rules, checked. One line per violation,
#	FILE:LINE: RULE: TEXT
# and a non-zero exit if there is any. Rules:
#
#   raw-atomic     an __atomic_* or __sync_* builtin outside the atomic
#                  wrappers. The wrappers are include/linux/ (atomic.h,
#                  compiler.h's READ_ONCE/WRITE_ONCE, spinlock.h,
#                  llist.h, refcount.h, ptr_ring.h, ...) and src/runtime/
#                  (which implements the kernel's primitives: locks, RCU,
#                  softirqs). The rest of src/ and include/net/,
#                  include/pagepool/ use READ_ONCE/WRITE_ONCE,
#                  smp_load_acquire/smp_store_release, atomic_*(),
#                  cmpxchg()/xchg() and their ordered variants.
#   layer-include  an #include that runs up the layers (tools/check-style.layers
#                  says which file is in which layer).
#   header-alone   an installed header that does not compile as the first
#                  and only include of a file, with -Wall -Wextra -Werror
#                  (kernel code includes them in any order). Needs --build
#                  DIR for <generated/autoconf.h>; skipped with a notice
#                  without it.
#   spdx           a source, header, build file or script without the line
#                  "SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause"
#                  in its first five lines.
#   outside-ref    a pointer to a document that is not in the tree: the
#                  design notes, the reference and shared directories, the
#                  seed snapshots or a tracker's issue number. Say the thing
#                  itself instead.
#
# Usage: tools/check-style.sh [--root DIR] [--build DIR] [--rule RULE]...
#   --root   the tree to check (default: the one this script is in)
#   --build  a configured and built meson build directory of that tree
#   --rule   check only this rule (repeatable; default: all)
set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
build=
rules=
while [ $# -gt 0 ]; do
	case $1 in
	--root) root=$(cd "$2" && pwd); shift 2 ;;
	--build) build=$(cd "$2" && pwd); shift 2 ;;
	--rule) rules="$rules $2"; shift 2 ;;
	-h|--help) sed -n '3,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "check-style.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done
cd "$root" || exit 2

want() { [ -z "$rules" ] || case " $rules " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

out=$(mktemp)
tmp=$(mktemp -d)
trap 'rm -rf "$out" "$tmp"' EXIT

# Every file of the tree: not git's, not a build directory - any directory
# meson set up (it has meson-private/), whatever its name.
find . \( -name .git -o -name subprojects -o -name 'build*' -o \
	-exec test -d {}/meson-private \; \) -prune -o \
	-type f -print | sed 's|^\./||' | LC_ALL=C sort >"$tmp/files"
grep -E '\.[ch]$' "$tmp/files" >"$tmp/c_files"

# --- raw-atomic -----------------------------------------------------------
if want raw-atomic; then
	grep -E '^(src/|include/net/|include/pagepool/)' "$tmp/c_files" |
	grep -v '^src/runtime/' |
	while read -r f; do
		grep -nE '__(atomic|sync)_[a-z_]+' "$f" /dev/null |
		# Comments may name the builtins: a line that opens one, a
		# comment line of a block ("* ..."; not "*p = ..."), or "//".
		grep -vE '^[^:]+:[0-9]+:[[:space:]]*(/\*|\*([[:space:]]|/|$)|//)' |
		sed -E 's/^([^:]+:[0-9]+):[[:space:]]*/\1: raw-atomic: /'
	done >>"$out"
fi

# --- layer-include --------------------------------------------------------
if want layer-include; then
	# path -> layer: a header's own "Layer:" line, else the table.
	grep -vE '^[[:space:]]*(#|$)' "$here/check-style.layers" >"$tmp/table"
	while read -r f; do
		layer=
		case $f in
		include/*) layer=$(sed -n 's/.*[^A-Za-z]Layer: \([a-z]*\).*/\1/p' "$f" | head -n 1) ;;
		esac
		if [ -z "$layer" ]; then
			while read -r pat name; do
				# shellcheck disable=SC2254
				case $f in $pat) layer=$name ;; esac
			done <"$tmp/table"
		fi
		echo "$f ${layer:-none}"
	done <"$tmp/c_files" >"$tmp/layers"

	grep -E '^(src|include|drivers|bench|tools|tests|examples)/' "$tmp/c_files" |
	while read -r f; do
		grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"][^>"]+[>"]' "$f" /dev/null
	done |
	awk -v layers="$tmp/layers" '
	BEGIN {
		rank["runtime"] = 0; rank["mm"] = 1; rank["dma"] = 1
		rank["core"] = 2; rank["xdp"] = 3; rank["telemetry"] = 3
		rank["kmod"] = 4
		rank["drivers"] = 4; rank["bench"] = 5; rank["tools"] = 5
		rank["tests"] = 5; rank["examples"] = 5
		while ((getline l < layers) > 0) {
			split(l, a, " ")
			layer[a[1]] = a[2]
		}
	}
	# Normalize a/b/../c to a/c.
	function norm(p,    n, i, k, part, st) {
		n = split(p, part, "/"); k = 0
		for (i = 1; i <= n; i++) {
			if (part[i] == "." || part[i] == "") continue
			if (part[i] == ".." && k > 0) { k--; continue }
			st[++k] = part[i]
		}
		p = st[1]
		for (i = 2; i <= k; i++) p = p "/" st[i]
		return p
	}
	{
		file = $0; sub(/:.*/, "", file)
		rest = substr($0, length(file) + 2)
		line = rest; sub(/:.*/, "", line)
		text = substr(rest, length(line) + 2)
		if (match(text, /[<"][^>"]+[>"]/) == 0) next
		q = substr(text, RSTART, 1)
		name = substr(text, RSTART + 1, RLENGTH - 2)
		dir = file; sub(/\/[^\/]*$/, "", dir)
		target = ""
		if (q == "\"" && (norm(dir "/" name) in layer)) target = norm(dir "/" name)
		else if (q == "\"" && (("src/" name) in layer)) target = "src/" name
		else if (("include/" name) in layer) target = "include/" name
		else if (norm("include/" name) in layer) target = norm("include/" name)
		if (target == "" || !(layer[file] in rank) || !(layer[target] in rank))
			next
		if (rank[layer[target]] > rank[layer[file]])
			printf "%s:%s: layer-include: %s (%s) includes %s (%s)\n",
				file, line, file, layer[file], target, layer[target]
	}' >>"$out"
fi

# --- header-alone ---------------------------------------------------------
if want header-alone; then
	if [ -z "$build" ]; then
		echo "check-style.sh: header-alone skipped (no --build DIR)" >&2
	elif [ ! -f "$build/include/generated/autoconf.h" ]; then
		echo "check-style.sh: $build has no include/generated/autoconf.h" >&2
		exit 2
	else
		# As a program built with pkg-config sees them (-I the installed
		# include directory, -pthread), but from this tree, so that what
		# is checked is what is here; the build gives <generated/autoconf.h>.
		# A cross build's tests give the target's compiler
		# (PAGEPOOL_CROSS_CC, tests/meson.build): the headers refuse
		# to compile for another target (<asm/target.h>).
		cc=${PAGEPOOL_CROSS_CC:-${CC:-cc}}
		grep -E '^include/.*\.h$' "$tmp/c_files" | grep -v '^include/generated/' |
		while read -r f; do
			h=${f#include/}
			printf '#include <%s>\n' "$h" >"$tmp/t.c"
			# shellcheck disable=SC2086 # $cc may be a command with arguments
			if ! $cc -std=gnu11 -Wall -Wextra -Werror -pthread -I"$root/include" \
				-I"$build/include" -c "$tmp/t.c" -o "$tmp/t.o" 2>"$tmp/err"; then
				msg=$(grep -m 1 -E 'error|warning' "$tmp/err" | sed "s|$root/||g")
				echo "$f:1: header-alone: does not compile on its own: $msg"
			fi
		done >>"$out"
	fi
fi

# --- spdx -----------------------------------------------------------------
if want spdx; then
	spdx='SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause'
	while read -r f; do
		case $f in
		*.c|*.h|*.sh|*.py|*.map|*.layers|*/meson.build|meson.build|\
		meson_options.txt|Makefile|.ci/*) ;;
		*) head -c 2 "$f" | grep -q '^#!' || continue ;;
		esac
		head -n 5 "$f" | grep -qF "$spdx" ||
			echo "$f:1: spdx: no \"$spdx\" line in the first five lines"
	done <"$tmp/files" >>"$out"
fi

# --- outside-ref ----------------------------------------------------------
if want outside-ref; then
	# Written so that this file does not match itself.
	pat='DESIG[N]\.md|referenc[e]/|\.\./share[d]|seed[s]/|\<issue[s]?[ -]?#?[0-9]+'
	grep -E '^(src|include|tests|tools|bench|docs)/|^README\.md$|^Makefile$|(^|/)meson(\.build|_options\.txt)$' \
		"$tmp/files" |
	grep -v '^tests/fuzz/corpus/' |
	while read -r f; do
		grep -HniE "$pat" "$f" |
		sed -E 's/^([^:]+:[0-9]+):[[:space:]]*/\1: outside-ref: /'
	done >>"$out"
fi

if [ -s "$out" ]; then
	cat "$out"
	n=$(wc -l <"$out")
	echo "check-style.sh: $n violations ($(sed -E 's/^[^:]+:[0-9]+: ([a-z-]+):.*/\1/' "$out" |
		sort | uniq -c | awk '{printf "%s%s %s", s, $2, $1; s=", "}'))" >&2
	exit 1
fi
echo "check-style.sh: OK" >&2
exit 0
