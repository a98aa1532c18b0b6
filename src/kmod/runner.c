/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The module runner: pp_kmod_main() loads and unloads the module that is
 * linked into this program (behaviour in <pagepool/kmod.h>).
 *
 * The module's pieces are found the way the kernel finds them in a .ko,
 * by section: its module_param()s are struct kernel_param entries in
 * "__param" and its MODULE_*() strings sit in "__pp_modinfo", so the
 * linker's __start_/__stop_ symbols bound them. Those symbols, and the
 * module_init()/module_exit() aliases, are weak references: a module
 * without parameters, tags or an exit function links all the same. This
 * is why the library is a static archive: linked into the executable, it
 * sees the executable's sections.
 */
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/err.h>
#include <linux/interrupt.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/printk.h>
#include <pagepool/kmod.h>
#include <pagepool/runtime.h>

extern const struct kernel_param __start___param[] __attribute__((weak));
extern const struct kernel_param __stop___param[] __attribute__((weak));
extern const char __start___pp_modinfo[] __attribute__((weak));
extern const char __stop___pp_modinfo[] __attribute__((weak));
#pragma weak __pp_module_init
#pragma weak __pp_module_exit

#define NAME_TAG	"__pp_name="

static int kmod_print(int level, const char *fmt, va_list ap)
{
	if (level > LOGLEVEL_INFO && !pp_log_debug())
		return 0;
	return vfprintf(stdout, fmt, ap);
}

static unsigned int nr_params(void)
{
	if (!__start___param || !__stop___param)
		return 0;
	return (unsigned int)(__stop___param - __start___param);
}

/* Walk the packed "tag=value" strings of __pp_modinfo. */
static const char *modinfo_next(const char *p)
{
	if (!__start___pp_modinfo || !__stop___pp_modinfo)
		return NULL;
	if (!p)
		p = __start___pp_modinfo;
	else
		p += strlen(p) + 1;
	/* Compilers may pad between the strings of different objects. */
	while (p < __stop___pp_modinfo && !*p)
		p++;
	return p < __stop___pp_modinfo ? p : NULL;
}

/* The module's name: a KBUILD_MODNAME given at compile time, else the
 * program's name with '-' as '_', as kbuild makes a module's name from
 * its file name. */
static const char *module_name(const char *argv0)
{
	static const char placeholder[] = __PP_KBUILD_MODNAME_PLACEHOLDER;
	static char from_file[64];
	const char *p, *slash;
	size_t i;

	for (p = modinfo_next(NULL); p; p = modinfo_next(p)) {
		if (strncmp(p, NAME_TAG, strlen(NAME_TAG)))
			continue;
		p += strlen(NAME_TAG);
		if (*p && strcmp(p, placeholder))
			return p;
	}
	slash = strrchr(argv0, '/');
	snprintf(from_file, sizeof(from_file), "%s", slash ? slash + 1 : argv0);
	for (i = 0; from_file[i]; i++)
		if (from_file[i] == '-')
			from_file[i] = '_';
	return from_file;
}

/* --help: the module's tags as modinfo prints them, parameters last with
 * their type from the parmtype entries. */
static void print_modinfo(const char *file)
{
	const char *p, *q;

	printf("%-16s%s\n", "filename:", file);
	for (p = modinfo_next(NULL); p; p = modinfo_next(p)) {
		const char *eq = strchr(p, '=');

		if (!eq || !strncmp(p, "parm", 4) || !strncmp(p, NAME_TAG, strlen(NAME_TAG)))
			continue;
		printf("%.*s:%*s%s\n", (int)(eq - p), p, (int)(15 - (eq - p)), "", eq + 1);
	}
	for (p = modinfo_next(NULL); p; p = modinfo_next(p)) {
		const char *name, *colon;
		size_t len;

		if (strncmp(p, "parmtype=", 9))
			continue;
		name = p + 9;
		colon = strchr(name, ':');
		if (!colon)
			continue;
		len = (size_t)(colon - name);
		printf("%-16s%.*s:", "parm:", (int)len, name);
		for (q = modinfo_next(NULL); q; q = modinfo_next(q))
			if (!strncmp(q, "parm=", 5) && !strncmp(q + 5, name, len) && q[5 + len] == ':')
				printf("%s ", q + 6 + len);
		printf("(%s)\n", colon + 1);
	}
}

/* The CPU taskset pinned us to, or the one we are on. */
static void register_cpu(void)
{
	cpu_set_t set;
	int cpu = -1, i;

	if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) == 1) {
		for (i = 0; i < CPU_SETSIZE; i++)
			if (CPU_ISSET(i, &set))
				cpu = i;
	} else {
		cpu = sched_getcpu();
	}
	if (cpu < 0 || cpu >= PP_NR_CPUS || pp_thread_register(cpu) < 0)
		pp_thread_register(-1);
}

/* insmod's wording for the errors the kernel returns (kmod's insmod). */
static const char *insmod_strerror(int err)
{
	switch (err) {
	case ENOEXEC:
		return "Invalid module format";
	case ENOENT:
		return "Unknown symbol in module";
	case ESRCH:
		return "Module has wrong symbol version";
	case EINVAL:
		return "Invalid parameters";
	default:
		return strerror(err);
	}
}

static void insmod_failed(const char *file, int err)
{
	fflush(stdout);
	fprintf(stderr, "insmod: ERROR: could not insert module %s: %s\n", file,
		insmod_strerror(-err));
}

/* "a b c" from argv[1..], as insmod builds the string it hands the kernel. */
static char *join_args(int argc, char **argv)
{
	size_t len = 1;
	char *s;
	int i;

	for (i = 1; i < argc; i++)
		len += strlen(argv[i]) + 1;
	s = malloc(len);
	if (!s)
		return NULL;
	*s = '\0';
	for (i = 1; i < argc; i++) {
		if (i > 1)
			strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
}

int pp_kmod_main(int argc, char **argv)
{
	const char *file = argc > 0 ? argv[0] : "module";
	const struct kernel_param *params = __start___param;
	unsigned int n = nr_params();
	const char *name;
	char *args, *after;
	unsigned int left;
	int ret, status = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	pp_set_print(kmod_print);
	name = module_name(file);
	pp_printk_set_modname(name);
	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		print_modinfo(file);
		return 0;
	}
	register_cpu();

	args = join_args(argc, argv);
	if (!args) {
		insmod_failed(file, -ENOMEM);
		return 1;
	}
	after = parse_args(name, args, params, n, -32768, 32767, NULL, NULL);
	if (IS_ERR(after)) {
		insmod_failed(file, (int)PTR_ERR(after));
		destroy_params(params, n);
		free(args);
		return 1;
	}
	if (after)
		pr_warn("%s: parameters '%s' after `--' ignored\n", name, after);

	ret = __pp_module_init ? __pp_module_init() : 0;
	pp_do_softirq();
	if (ret < 0) {
		insmod_failed(file, ret);
		destroy_params(params, n);
		free(args);
		return 1;
	}
	if (ret > 0)
		pr_warn("do_init_module: '%s'->init suspiciously returned %d, it should follow 0/-E convention\n"
			"do_init_module: loading module anyway...\n", name, ret);

	/* rmmod */
	pp_do_softirq();
	if (__pp_module_exit)
		__pp_module_exit();
	pp_do_softirq();
	if (pp_softirq_pending()) {
		pr_warn("%s: tasklets still queued after module_exit (disabled, or not killed)\n", name);
		status = 1;
	}
	left = pp_kthreads_running();
	if (left) {
		pr_warn("%s: %u kthread(s) still running after module_exit (not stopped)\n", name, left);
		status = 1;
	}
	destroy_params(params, n);
	free(args);
	fflush(stdout);
	return status;
}
