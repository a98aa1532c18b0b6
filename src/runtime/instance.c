/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * One runtime per process. libpagepool and libpagepool-runtime each carry
 * the runtime (its CPUs, RCU readers, arena, devices), so a process with
 * both - linked with both, or a plugin built on one loaded into a program
 * of the other - has two: they register the same threads with liburcu
 * (whose assertion then aborts) and keep two arenas that know nothing of
 * each other's pages. The kernel refuses a module that exports symbols
 * another already exports; here the copy loaded second sees that the
 * process's first definition of pp_thread_register() is not its own,
 * names both files and stops the process at load time, before either
 * runtime has done anything. A statically linked program cannot have two
 * (the link fails on the duplicate symbols).
 * Layer: runtime.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include <pagepool/runtime.h>

__attribute__((constructor)) static void one_runtime_per_process(void)
{
	void *first = dlsym(RTLD_DEFAULT, "pp_thread_register");
	void *mine = (void *)pp_thread_register;
	Dl_info a = { 0 }, b = { 0 };

	if (!first || first == mine)
		return;
	(void)dladdr(first, &a);
	(void)dladdr(mine, &b);
	fprintf(stderr, "pagepool: two copies of pagepool's runtime in one process (%s, and %s loading): "
		"a program links libpagepool or libpagepool-runtime, not both\n",
		a.dli_fname ? a.dli_fname : "?", b.dli_fname ? b.dli_fname : "?");
	abort();
}
