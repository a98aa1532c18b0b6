/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The target check every <asm/...> header of this tree makes. The arch
 * headers pick their constants by the compiler's own target macros
 * (__x86_64__, __aarch64__), as the kernel's arch/<arch>/include/asm/
 * are picked by the architecture being built. The library was built for
 * one target, recorded as CONFIG_X86_64 or CONFIG_ARM64 in
 * <generated/autoconf.h>, and the installed headers are that build's: a
 * program compiled for another target against them (an x86-64 include
 * directory on an aarch64 compiler's path, a sysroot mix-up in a cross
 * build) would get a cache line, a DMA alignment, a pointer poison and a
 * pp_magic layout that differ from the library's, and structures that
 * differ with them, without a diagnostic. So the two must agree, and a
 * mismatch is an #error here rather than a wrong binary. Only x86-64 and
 * arm64 are targets (meson refuses the others).
 * Layer: runtime.
 */
#ifndef _PP_ASM_TARGET_H
#define _PP_ASM_TARGET_H

#include <linux/kconfig.h>

#if defined(__x86_64__)
#if defined(CONFIG_ARM64)
#error "pagepool: compiling for x86-64 against the headers of a library built for arm64 (CONFIG_ARM64 in <generated/autoconf.h>): use the x86-64 build's pkg-config files, or the aarch64 cross compiler"
#elif !defined(CONFIG_X86_64)
#error "pagepool: compiling for x86-64 against headers of a library built for another target (no CONFIG_X86_64 in <generated/autoconf.h>)"
#endif
#elif defined(__aarch64__)
#if defined(CONFIG_X86_64)
#error "pagepool: compiling for arm64 against the headers of a library built for x86-64 (CONFIG_X86_64 in <generated/autoconf.h>): use the arm64 build's pkg-config files (PKG_CONFIG_LIBDIR), or the native compiler"
#elif !defined(CONFIG_ARM64)
#error "pagepool: compiling for arm64 against headers of a library built for another target (no CONFIG_ARM64 in <generated/autoconf.h>)"
#endif
#else
#error "pagepool: the compiler targets neither x86-64 nor arm64, the only targets the library builds for"
#endif

#endif /* _PP_ASM_TARGET_H */
