#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
#
# Install the Debian packages named on the command line that are missing.
# As root: apt-get update, then apt-get install --no-install-recommends.
# Not root: uses "sudo -n" if that works without a password; otherwise it
# prints the exact command to run and fails, changing nothing.
# Names may carry an architecture (libcmocka-dev:arm64, see
# tools/cross/install-deps-arm64.sh). PAGEPOOL_DEPS_DRY_RUN=1: print what
# is missing and the command that would install it, change nothing.
set -euo pipefail

# A name without an architecture means the native one (or an arch: all
# package). With a foreign architecture added (the arm64 cross build),
# dpkg-query prints one status per installed architecture: look for the
# native or "all" one among them.
native=$(dpkg --print-architecture 2>/dev/null || echo none)
missing=()
for pkg in "$@"; do
	if [[ $pkg == *:* ]]; then
		status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
		[[ "$status" == "install ok installed" ]] || missing+=("$pkg")
		continue
	fi
	dpkg-query -W -f='${Status} ${Architecture}\n' "$pkg" 2>/dev/null |
		grep -qE "^install ok installed ($native|all)\$" || missing+=("$pkg")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

if [[ -n ${PAGEPOOL_DEPS_DRY_RUN:-} ]]; then
	echo "pagepool: missing Debian packages: ${missing[*]}"
	echo "pagepool: dry run; would run: apt-get update -q &&" \
	     "apt-get install -y -q --no-install-recommends ${missing[*]}"
	exit 0
fi
echo "pagepool: installing missing Debian packages: ${missing[*]}"
if [[ $(id -u) -eq 0 ]]; then
	sudo=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
	sudo=(sudo -n)
	echo "pagepool: not root; using sudo"
else
	echo "pagepool: not root and no password-less sudo, so nothing was installed." >&2
	echo "pagepool: run this once as root, then re-run make:" >&2
	echo "  apt-get update && apt-get install -y --no-install-recommends ${missing[*]}" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -q
"${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
