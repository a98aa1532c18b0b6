#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
#
# A test a kernel core build (docs/KERNEL_CORE.md) does not run: it says
# what pagepool-only part it needs and reports a skip (exit 77), so that
# make kernel-test lists it with the reason (tools/test-summary.py reads
# the "SKIP:" line).
# Usage: not_in_kcore.sh KERNEL_VERSION WHAT_IT_NEEDS
echo "SKIP: not run against kernel $1: needs $2"
exit 77
