#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
#
# What the aarch64 cross build (make test-aarch64, test-aarch64-64k;
# docs/PORTABILITY.md) needs on a Debian 12 x86-64 machine, installed only
# when missing: the cross toolchain, qemu-user, and the :arm64 multiarch
# development packages of the libraries meson.build looks for (liburcu,
# cmocka, jansson, libdw; libnuma as in the native build) and libc6:arm64,
# whose loader and libc the tests run on under qemu (see
# aarch64-linux-gnu.ini: not the cross toolchain's glibc), and libbpf-dev
# for its headers alone: xdp/uapi_ours_first and _last check that ours and
# <bpf/libbpf.h> compile together. Not libxdp: the cross build has
# -Dxsk=disabled (AF_XDP needs bpf() and AF_XDP sockets, which qemu-user
# does not emulate).
# Adds the arm64 architecture to dpkg first if it is not there (as root, or
# through password-less sudo like tools/install-deps.sh; otherwise prints
# the command and fails). PAGEPOOL_DEPS_DRY_RUN=1: print what would be done,
# change nothing.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

PKGS_CROSS=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross binutils-aarch64-linux-gnu
	    qemu-user pkg-config meson ninja-build python3)
PKGS_ARM64=(libc6:arm64 liburcu-dev:arm64 libcmocka-dev:arm64 libjansson-dev:arm64 libdw-dev:arm64
	    libnuma-dev:arm64 libbpf-dev:arm64)

dry=${PAGEPOOL_DEPS_DRY_RUN:-}
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
	cmd=(dpkg --add-architecture arm64)
	if [[ -n $dry ]]; then
		echo "pagepool: would run: ${cmd[*]}"
	elif [[ $(id -u) -eq 0 ]]; then
		echo "pagepool: ${cmd[*]}"
		"${cmd[@]}"
	elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
		echo "pagepool: sudo ${cmd[*]}"
		sudo -n "${cmd[@]}"
	else
		echo "pagepool: not root and no password-less sudo; run this once as root:" >&2
		echo "  ${cmd[*]} && apt-get update" >&2
		exit 1
	fi
fi
# tools/install-deps.sh runs apt-get update before it installs anything,
# which also fetches the arm64 package lists after the line above.
exec "$here/../install-deps.sh" "${PKGS_CROSS[@]}" "${PKGS_ARM64[@]}"
