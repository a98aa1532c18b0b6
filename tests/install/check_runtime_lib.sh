#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
#
# The runtime-only library as a user gets it: install the build into a
# scratch DESTDIR, build tests/install/runtime_host.c with
# `pkg-config --cflags --libs pagepool-runtime` alone and the installed
# per-CPU linker script, run it; then check that the library has no
# page_pool in it: a program calling page_pool_create() must not link.
# Usage: check_runtime_lib.sh BUILD_DIR SOURCE_DIR
# Cross-aware as check_install.sh ($PAGEPOOL_CROSS_CC, $PKG_CONFIG_LIBDIR,
# $PAGEPOOL_EXE_WRAPPER).
. "$(dirname "$0")/scratch_install.sh"
scratch_install pagepool-runtime
ldscript=$(pcv --variable=percpu_ldscript)
[ -f "$ldscript" ] || { echo "percpu_ldscript $ldscript was not installed"; exit 1; }
echo "percpu_ldscript: $ldscript"

# shellcheck disable=SC2086 # $cc and $flags: words
$cc -std=gnu11 -Wall -Wextra -Werror -o "$dest/runtime_host" \
	"$src/tests/install/runtime_host.c" $flags -Wl,-T,"$ldscript"
# shellcheck disable=SC2086 # the wrapper is a command and its arguments
LD_LIBRARY_PATH="$libdir" $wrapper "$dest/runtime_host"

# Without the linker script a static per-CPU variable does not link
# (<linux/percpu.h>: the units after it would be nobody's memory).
# shellcheck disable=SC2086
if $cc -std=gnu11 -o "$dest/no_script" "$src/tests/install/runtime_host.c" $flags \
	>"$dest/no_script.log" 2>&1; then
	echo "runtime_host.c linked without the per-CPU linker script"; exit 1
fi
grep -q __pp_DEFINE_PER_CPU_needs_linker_script_percpu_ld "$dest/no_script.log" ||
	{ cat "$dest/no_script.log"; echo "the failed link did not name __pp_DEFINE_PER_CPU_needs_linker_script_percpu_ld"; exit 1; }

# No page_pool: page_pool_create() (in pagepool's headers a macro over
# __page_pool_create_checked()) is not in the library.
cat >"$dest/pool.c" <<'C'
#include <net/page_pool/types.h>
int main(void)
{
	struct page_pool_params pp = { .nid = NUMA_NO_NODE };

	return IS_ERR_OR_NULL(page_pool_create(&pp));
}
C
# shellcheck disable=SC2086
if $cc -std=gnu11 -o "$dest/pool" "$dest/pool.c" $flags >"$dest/pool.log" 2>&1; then
	echo "a page_pool_create() call linked against pagepool-runtime"; exit 1
fi
grep -q "undefined reference to .[_a-z]*page_pool_create" "$dest/pool.log" ||
	{ cat "$dest/pool.log"; echo "the failed link did not name page_pool_create"; exit 1; }
# Both libraries in one process: refused at load, with both named.
cat >"$dest/both.c" <<'C'
#include <pagepool/runtime.h>
int main(void)
{
	return pp_thread_register(0);
}
C
all=$(pkg-config --define-variable=prefix="$dest$prefix" --libs pagepool)
# shellcheck disable=SC2086
$cc -std=gnu11 -o "$dest/both" "$dest/both.c" -Wl,--no-as-needed $flags $all
# shellcheck disable=SC2086
if LD_LIBRARY_PATH="$libdir" $wrapper "$dest/both" >"$dest/both.log" 2>&1; then
	echo "a program with libpagepool and libpagepool-runtime ran"; exit 1
fi
grep -q "two copies of pagepool's runtime" "$dest/both.log" ||
	{ cat "$dest/both.log"; echo "no clear message for two runtimes"; exit 1; }
sed -n 1p "$dest/both.log"

# Statically linked (pkg-config --static): libpagepool-runtime.a. Natively
# only: a cross build would need the target's static C library.
if [ -z "$wrapper" ]; then
	static=$(pcv --static --libs)
	# shellcheck disable=SC2086
	$cc -std=gnu11 -static -o "$dest/runtime_host_static" "$src/tests/install/runtime_host.c" \
		$(pcv --cflags) $static -Wl,-T,"$ldscript"
	"$dest/runtime_host_static"
fi
echo "runtime-only library: OK (hosts the program, shared and static; no page_pool_create; two runtimes refused)"
