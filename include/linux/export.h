/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Symbol export markers, and how the shared library decides what it
 * exports.
 *
 * The library is compiled with -fvisibility=hidden. Every installed
 * header that declares a function or variable the library defines wraps
 * itself in
 *
 *	#pragma GCC visibility push(default)
 *	...
 *	#pragma GCC visibility pop
 *
 * A definition takes the visibility of its first declaration, so what an
 * installed header declares is default and what only src/ declares (the
 * *_internal.h headers, or nothing) is hidden. The version script
 * (src/libpagepool.map) then lists the exports by name; a hidden symbol
 * cannot be exported whatever it says, so an internal name cannot leak
 * by a glob or a slip.
 *
 * Why not the kernel's way, EXPORT_SYMBOL(sym) after each definition
 * giving the symbol default visibility: clang ignores a visibility
 * attribute on a redeclaration that follows the definition ("attribute
 * declaration must precede definition", an error with -Werror), and one
 * marker per definition would be a second list to keep in step with the
 * headers. The pragma is harmless in a program that includes the headers
 * (its declarations are of external symbols, default anyway) and right in
 * one built with -fvisibility=hidden.
 *
 * So EXPORT_SYMBOL() and friends only keep kernel code compiling: in a
 * module compiled as a program they redeclare the symbol, as a kernel
 * build checks that the symbol exists.
 * Layer: runtime.
 */
#ifndef _PP_LINUX_EXPORT_H
#define _PP_LINUX_EXPORT_H
#define EXPORT_SYMBOL(sym)		extern __typeof__(sym) sym
#define EXPORT_SYMBOL_GPL(sym)		extern __typeof__(sym) sym
#define EXPORT_SYMBOL_NS_GPL(sym, ns)	extern __typeof__(sym) sym
#endif
