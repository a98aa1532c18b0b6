# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
