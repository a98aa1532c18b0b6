#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
#
# Kernel core mode: take from a kernel source tree the files that
# net/core/page_pool.c needs and pagepool does not provide, and put them
# under OUT, nothing else:
#   OUT/include/net/netmem.h, OUT/include/net/page_pool/*.h,
#   OUT/include/trace/events/page_pool.h   (the kernel's public API)
#   OUT/net/core/page_pool.c and the net/core headers it includes
#   OUT/tools/testing/selftests/net/bench/page_pool/*   (the bench module,
#                                          when the tree has it)
#   OUT/VERSION                            (the tree's kernel version)
#   OUT/SOURCE                             (KSRC, as an absolute path)
# KSRC is an unpacked tree (a directory holding net/core/page_pool.c) or
# a tarball of one (Debian's /usr/src/linux-source-6.12.tar.xz). The files
# are compiled from OUT, under the build directory; none of them is ever
# part of pagepool's tree (their licence is the kernel's GPL-2.0).
#
# usage: tools/kcore/prepare.sh KSRC OUT
set -euo pipefail

if [[ $# -ne 2 ]]; then
	echo "usage: $0 KSRC OUT" >&2
	exit 2
fi
ksrc=$1
out=$2

files=(
	include/net/netmem.h
	include/net/page_pool/types.h
	include/net/page_pool/helpers.h
	include/trace/events/page_pool.h
	net/core/page_pool.c
	net/core/page_pool_priv.h
	net/core/netmem_priv.h
	net/core/dev.h
	Makefile
)
# Present only in some versions. The last three: the kernel's own
# page_pool benchmark module (in-tree from v6.17), which the kernel core
# build compiles as a program with pagepool-kmod (bench/meson.build).
optional=(
	include/net/page_pool/memory_provider.h
	net/core/mp_dmabuf_devmem.h
	tools/testing/selftests/net/bench/page_pool/bench_page_pool_simple.c
	tools/testing/selftests/net/bench/page_pool/time_bench.c
	tools/testing/selftests/net/bench/page_pool/time_bench.h
)

# A tarball already unpacked here, and not changed since: nothing to do.
# (A tree is copied again each time: eleven to fourteen files.)
if [[ -f $ksrc && -f $out/VERSION && -f $out/SOURCE &&
      $(cat "$out/SOURCE") == "$(realpath "$ksrc")" && ! $ksrc -nt $out/VERSION ]]; then
	echo "kcore: $(cat "$out/VERSION") from $ksrc in $out (up to date)"
	exit 0
fi
rm -rf "$out"
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [[ -d $ksrc ]]; then
	[[ -f $ksrc/net/core/page_pool.c ]] || {
		echo "$0: $ksrc has no net/core/page_pool.c" >&2
		exit 1
	}
	src=$ksrc
elif [[ -f $ksrc ]]; then
	# The tarball's top directory (linux-source-6.12/) is its first entry's.
	top=$( (tar -tf "$ksrc" 2>/dev/null || true) | head -n 1 | cut -d/ -f1)
	want=()
	for f in "${files[@]}" "${optional[@]}"; do
		want+=("$top/$f")
	done
	# Missing optional members make tar fail; its other output says which.
	tar -xf "$ksrc" -C "$tmp" "${want[@]}" 2>"$tmp/tar.err" || true
	src=$tmp/$top
	[[ -f $src/net/core/page_pool.c ]] || {
		echo "$0: $ksrc holds no $top/net/core/page_pool.c" >&2
		cat "$tmp/tar.err" >&2
		exit 1
	}
else
	echo "$0: $ksrc: no such file or directory" >&2
	exit 1
fi

for f in "${files[@]}"; do
	[[ -f $src/$f ]] || { echo "$0: $ksrc lacks $f" >&2; exit 1; }
	[[ $f == Makefile ]] && continue
	install -D -m 0644 "$src/$f" "$out/$f"
done
for f in "${optional[@]}"; do
	[[ -f $src/$f ]] && install -D -m 0644 "$src/$f" "$out/$f"
done

# VERSION.PATCHLEVEL.SUBLEVEL from the tree's Makefile.
awk -F' *= *' '$1=="VERSION"{v=$2} $1=="PATCHLEVEL"{p=$2} $1=="SUBLEVEL"{s=$2}
	END { if (v == "") exit 1; print v "." p "." s }' "$src/Makefile" >"$out/VERSION"
realpath "$ksrc" >"$out/SOURCE"
echo "kcore: $(cat "$out/VERSION") from $ksrc in $out"
