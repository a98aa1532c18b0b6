/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * <asm/sections.h>: is_kernel_rodata(), which kernel code uses to insist
 * that a table of function pointers is a const object (page_pool_init()
 * refuses memory-provider ops that are not). Here "rodata" is any
 * read-only part of an object loaded into the process: a PT_LOAD segment
 * without write permission, or a PT_GNU_RELRO range (where a position-
 * independent program's const structs of pointers live, read-only once
 * relocated). The heap, the stack and writable data are not.
 * Layer: runtime.
 */
#ifndef _PP_ASM_SECTIONS_H
#define _PP_ASM_SECTIONS_H
#pragma GCC visibility push(default)	/* exported: <linux/export.h> */

#include <stdbool.h>

/**
 * is_kernel_rodata() - is an address inside read-only data
 * @addr: the address
 *
 * Context: any thread; walks the loaded objects' program headers.
 * Return: true if @addr lies in a read-only segment or a RELRO range of
 * the program or of a shared object it has loaded.
 */
bool is_kernel_rodata(unsigned long addr);

#pragma GCC visibility pop
#endif /* _PP_ASM_SECTIONS_H */
