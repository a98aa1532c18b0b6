/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * pp_symbolize(): a code address of this process as "func+0x40
 * (file.c:212)" (<pagepool/runtime.h>), for holder tracking's take and
 * hand-on sites. Two back ends, chosen at configure time: libdw (elfutils'
 * Dwfl over /proc/self/maps: every module's symbol table, including the
 * static functions of the executable, and its DWARF) when the build found
 * it, else dladdr() (dynamic symbols only, no line). The line is that of
 * the function the symbol names: for an address in code inlined into it
 * (page_pool's header helpers, always), the call site of the outermost
 * inlined scope, not the helper's own line.
 *
 * Context: any thread. One Dwfl for the process, behind a mutex; it is
 * built at the first call and rebuilt once when an address maps no module
 * (a library loaded since). Lookups are slow (milliseconds the first
 * time): this is for reports, never for a data path.
 * Layer: runtime.
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <generated/autoconf.h>
#include <pagepool/runtime.h>

#ifdef CONFIG_PAGEPOOL_SYMBOLIZE_LIBDW
#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <stdlib.h>
#endif

static const char *base_name(const char *path)
{
	const char *slash = path ? strrchr(path, '/') : NULL;

	return slash ? slash + 1 : path;
}

/* snprintf's length, as pp_symbolize() returns it. */
static int sym_fmt_ret(int n)
{
	return n < 0 ? -EINVAL : n;
}

#ifdef CONFIG_PAGEPOOL_SYMBOLIZE_LIBDW

static pthread_mutex_t dwfl_lock = PTHREAD_MUTEX_INITIALIZER;
static Dwfl *pp_dwfl;
static char *debuginfo_path;

static const Dwfl_Callbacks pp_dwfl_callbacks = {
	.find_elf = dwfl_linux_proc_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.debuginfo_path = &debuginfo_path,
};

/* (Re)load the process's modules. Caller holds dwfl_lock. */
static Dwfl *dwfl_load(void)
{
	Dwfl *d;

	if (pp_dwfl)
		dwfl_end(pp_dwfl);
	pp_dwfl = NULL;
	d = dwfl_begin(&pp_dwfl_callbacks);
	if (!d)
		return NULL;
	if (dwfl_linux_proc_report(d, getpid()) != 0 || dwfl_report_end(d, NULL, NULL) != 0) {
		dwfl_end(d);
		return NULL;
	}
	pp_dwfl = d;
	return d;
}

/*
 * The source line of @pc in the function the symbol table names: when @pc
 * is in code inlined into it (a helper from a header), the line table's
 * line is the helper's; the call site of the outermost inlined scope is
 * the function's own line. 0 and *file set, or -1 (then the line table's
 * line is used).
 */
/*
 * The compile unit holding @pc. libdw finds it through .debug_aranges,
 * which clang does not emit by default (and libdw 0.188 does not make up
 * for): then each CU's own ranges are asked.
 */
static Dwarf_Die *cu_of(Dwfl_Module *mod, Dwarf_Addr pc, Dwarf_Addr *bias)
{
	Dwarf_Die *cu = dwfl_module_addrdie(mod, pc, bias);

	if (cu)
		return cu;
	while ((cu = dwfl_module_nextcu(mod, cu, bias)) != NULL)
		if (dwarf_haspc(cu, pc - *bias) > 0)
			return cu;
	return NULL;
}

static int outer_call_site(Dwfl_Module *mod, Dwarf_Addr pc, const char **file, int *lineno)
{
	Dwarf_Die *cu, *scopes = NULL, inner, *outer = NULL;
	bool found = false;
	Dwarf_Attribute attr;
	Dwarf_Word line, fidx;
	Dwarf_Files *files;
	Dwarf_Addr bias;
	size_t nfiles;
	int i, n, ret = -1;

	cu = cu_of(mod, pc, &bias);
	if (!cu)
		return -1;
	/* The innermost inlined instance holding @pc: dwarf_getscopes()
	 * continues from it to its abstract origin's scopes, not to the
	 * instances it is inlined into ... */
	n = dwarf_getscopes(cu, pc - bias, &scopes);
	for (i = 0; i < n && !found; i++) {
		if (dwarf_tag(&scopes[i]) == DW_TAG_inlined_subroutine) {
			inner = scopes[i];
			found = true;
		}
	}
	free(scopes);
	scopes = NULL;
	if (!found)
		return -1;
	/* ... which the scopes of the instance's DIE are: innermost first,
	 * up to the concrete function that ends the inlined chain. */
	n = dwarf_getscopes_die(&inner, &scopes);
	for (i = 0; i < n; i++) {
		int tag = dwarf_tag(&scopes[i]);

		if (tag == DW_TAG_subprogram)
			break;
		if (tag == DW_TAG_inlined_subroutine)
			outer = &scopes[i];
	}
	if (outer &&
	    dwarf_formudata(dwarf_attr(outer, DW_AT_call_line, &attr), &line) == 0 &&
	    dwarf_formudata(dwarf_attr(outer, DW_AT_call_file, &attr), &fidx) == 0 &&
	    dwarf_getsrcfiles(cu, &files, &nfiles) == 0 && fidx < nfiles) {
		*file = dwarf_filesrc(files, fidx, NULL, NULL);
		*lineno = (int)line;
		ret = *file ? 0 : -1;
	}
	free(scopes);
	return ret;
}

static int symbolize_locked(unsigned long ip, char *buf, size_t len)
{
	const char *modname, *name, *file = NULL;
	Dwfl_Module *mod = NULL;
	Dwarf_Addr start = 0;
	GElf_Off off = 0;
	Dwfl_Line *line;
	GElf_Sym sym;
	int lineno = 0;

	if (pp_dwfl)
		mod = dwfl_addrmodule(pp_dwfl, ip);
	if (!mod && dwfl_load())
		mod = dwfl_addrmodule(pp_dwfl, ip);
	if (!mod)
		return -ENOENT;
	modname = dwfl_module_info(mod, NULL, &start, NULL, NULL, NULL, NULL, NULL);
	/* The return address's call instruction: ip - 1 (see runtime.h). */
	name = dwfl_module_addrinfo(mod, ip - 1, &off, &sym, NULL, NULL, NULL);
	if (outer_call_site(mod, ip - 1, &file, &lineno)) {
		line = dwfl_module_getsrc(mod, ip - 1);
		if (line) {
			file = dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL);
		} else {
			/* No aranges (cu_of()): the CU's own line table. */
			Dwarf_Addr bias;
			Dwarf_Die *cu = cu_of(mod, ip - 1, &bias);
			Dwarf_Line *dl = cu ? dwarf_getsrc_die(cu, ip - 1 - bias) : NULL;

			if (dl && dwarf_lineno(dl, &lineno) == 0)
				file = dwarf_linesrc(dl, NULL, NULL);
		}
	}
	if (!name) {
		Dl_info info;

		/* Dwfl's module ranges from /proc/self/maps can take in an
		 * anonymous mapping placed right after a module's bss (seen
		 * under ThreadSanitizer): an address no loaded object's
		 * segments hold is nobody's code. */
		if (!dladdr((void *)ip, &info) || !info.dli_fname)
			return -ENOENT;
		return sym_fmt_ret(snprintf(buf, len, "%#lx (%s+%#lx)", ip, base_name(modname),
					    ip - (unsigned long)start));
	}
	if (file && lineno > 0)
		return sym_fmt_ret(snprintf(buf, len, "%s+%#lx (%s:%d)", name,
					    (unsigned long)off + 1, base_name(file), lineno));
	return sym_fmt_ret(snprintf(buf, len, "%s+%#lx (%s)", name, (unsigned long)off + 1,
				    base_name(modname)));
}

int pp_symbolize(unsigned long ip, char *buf, size_t len)
{
	int ret;

	if (!ip || !buf || !len)
		return -EINVAL;
	pthread_mutex_lock(&dwfl_lock);
	ret = symbolize_locked(ip, buf, len);
	pthread_mutex_unlock(&dwfl_lock);
	return ret;
}

#else /* dladdr() */

int pp_symbolize(unsigned long ip, char *buf, size_t len)
{
	Dl_info info;

	if (!ip || !buf || !len)
		return -EINVAL;
	if (!dladdr((void *)(ip - 1), &info) || !info.dli_fname)
		return -ENOENT;
	if (!info.dli_sname || !info.dli_saddr)
		return sym_fmt_ret(snprintf(buf, len, "%#lx (%s+%#lx)", ip,
					    base_name(info.dli_fname),
					    ip - (unsigned long)info.dli_fbase));
	return sym_fmt_ret(snprintf(buf, len, "%s+%#lx (%s)", info.dli_sname,
				    ip - (unsigned long)info.dli_saddr, base_name(info.dli_fname)));
}

#endif
