/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Module parameters with the kernel's names, types and parsing:
 * module_param(name, type, perm) for the standard types
 *
 *   bool invbool bint charp byte short ushort int uint hexint long ulong ullong
 *
 * module_param_named(), module_param_cb() (your own kernel_param_ops),
 * module_param_array(), module_param_string(), module_param_unsafe(), and
 * MODULE_PARM_DESC(). The variable's type is checked at compile time
 * against the parameter type (a mismatch is an incompatible-pointer
 * warning, as in the kernel).
 *
 * Each parameter is a struct kernel_param in the "__param" section of the
 * program, as the kernel's are in a module's __param section; the module
 * runner (pagepool-kmod, <pagepool/kmod.h>) reads the section between the
 * linker's __start___param and __stop___param and hands it to parse_args().
 * Parameters have no sysfs files here; @perm is checked as the kernel checks
 * it (octal, not world-writable) and otherwise ignored.
 *
 * Setting values (the kernel's kernel/params.c, in the runtime): the
 * param_set_*() functions convert with kstrto*() (<linux/kstrtox.h>):
 * base 0 (decimal, 0x hex, 0 octal), one trailing newline allowed, a value
 * out of the type's range is -ERANGE, anything else not a number -EINVAL.
 * bool takes y/Y/t/T/1/on and n/N/f/F/0/off and may be given without a
 * value ("name" alone sets it); invbool stores the inverse and needs a
 * value. charp keeps a copy of the string (at most 1024 bytes, else
 * -ENOSPC), freed when replaced or by the ops' free(). Arrays take a
 * comma-separated list of at most ARRAY_SIZE() values.
 * Layer: runtime.
 */
#ifndef _PP_LINUX_MODULEPARAM_H
#define _PP_LINUX_MODULEPARAM_H
#pragma GCC visibility push(default)	/* exported: <linux/export.h> */

#include <linux/build_bug.h>
#include <linux/compiler.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/stringify.h>
#include <linux/types.h>

/* Built-in code prefixes parameter names with "modname."; modules do not. */
#ifndef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX	""
#endif

#define MAX_PARAM_PREFIX_LEN	(64 - sizeof(unsigned long))

struct module;
struct kernel_param;

/*
 * The .modinfo strings (MODULE_LICENSE(), MODULE_PARM_DESC(), ...): "tag=value"
 * C strings packed in the "__pp_modinfo" section; the module runner prints
 * them for --help.
 */
#define __PP_MODINFO_ID2(prefix, n)	__pp_modinfo_##prefix##n
#define __PP_MODINFO_ID(prefix, n)	__PP_MODINFO_ID2(prefix, n)
#define __MODULE_INFO(tag, name, info)					\
	static const char __PP_MODINFO_ID(name, __COUNTER__)[]		\
		__attribute__((__used__, __section__("__pp_modinfo"),	\
			       __aligned__(1))) = __stringify(tag) "=" info

#define __MODULE_PARM_TYPE(name, _type)	__MODULE_INFO(parmtype, name##type, #name ":" _type)

/* One line of description for parameter @_parm, shown by --help as
 * modinfo shows it. */
#define MODULE_PARM_DESC(_parm, desc)	__MODULE_INFO(parm, _parm, #_parm ":" desc)

enum {
	/* set() accepts a NULL value ("name" given without "=value"). */
	KERNEL_PARAM_OPS_FL_NOARG = (1 << 0),
};

/*
 * How a parameter type is parsed and printed. set() stores @val (NULL when
 * the command line gave no "=value"; only called so for NOARG ops) and
 * returns 0 or -errno; get() prints the value and a newline into @buffer
 * (PAGE_SIZE bytes) and returns the length or -errno; free() releases what
 * set() allocated (charp).
 */
struct kernel_param_ops {
	unsigned int flags;
	int (*set)(const char *val, const struct kernel_param *kp);
	int (*get)(char *buffer, const struct kernel_param *kp);
	void (*free)(void *arg);
};

enum {
	KERNEL_PARAM_FL_UNSAFE = (1 << 0),	/* setting it taints (a notice here) */
	KERNEL_PARAM_FL_HWPARAM = (1 << 1),
};

struct kparam_string {
	unsigned int maxlen;	/* size of @string, NUL included */
	char *string;
};

struct kparam_array {
	unsigned int max;		/* elements in @elem */
	unsigned int elemsize;
	unsigned int *num;		/* where the count given is stored, or NULL */
	const struct kernel_param_ops *ops;
	void *elem;
};

struct kernel_param {
	const char *name;
	struct module *mod;
	const struct kernel_param_ops *ops;
	u16 perm;
	s8 level;
	u8 flags;
	union {
		void *arg;
		const struct kparam_string *str;
		const struct kparam_array *arr;
	};
};

/* Permissions: octal, at most 0777, never world-writable, and no class
 * with more rights than the class before it (user >= group >= other). */
#define VERIFY_OCTAL_PERMISSIONS(perm)					\
	(BUILD_BUG_ON_ZERO((perm) < 0) +				\
	 BUILD_BUG_ON_ZERO((perm) > 0777) +				\
	 BUILD_BUG_ON_ZERO(((perm) >> 6) < (((perm) >> 3) & 7)) +	\
	 BUILD_BUG_ON_ZERO((((perm) >> 3) & 7) < ((perm) & 7)) +	\
	 BUILD_BUG_ON_ZERO((perm) & 2) +				\
	 (perm))

#define __module_param_call(prefix, name, ops, arg, perm, level, flags)	\
	static const char __param_str_##name[] = prefix #name;		\
	static const struct kernel_param __param_##name			\
		__attribute__((__used__, __section__("__param"),	\
			       __aligned__(sizeof(void *)))) = {	\
		__param_str_##name, ((struct module *)0), ops,		\
		VERIFY_OCTAL_PERMISSIONS(perm), level, flags, { arg } }

#define module_param_cb(name, ops, arg, perm)				\
	__module_param_call(MODULE_PARAM_PREFIX, name, ops, arg, perm, -1, 0)

#define module_param_cb_unsafe(name, ops, arg, perm)			\
	__module_param_call(MODULE_PARAM_PREFIX, name, ops, arg, perm, -1, \
			    KERNEL_PARAM_FL_UNSAFE)

/* Compile-time type check: returning @p as a pointer to @type warns
 * unless the variable has that type. */
#define __param_check(name, p, type)					\
	static inline type __always_unused *__check_##name(void) { return (p); }

#define module_param_named(name, value, type, perm)			\
	param_check_##type(name, &(value));				\
	module_param_cb(name, &param_ops_##type, &value, perm);		\
	__MODULE_PARM_TYPE(name, #type)

#define module_param_named_unsafe(name, value, type, perm)		\
	param_check_##type(name, &(value));				\
	module_param_cb_unsafe(name, &param_ops_##type, &value, perm);	\
	__MODULE_PARM_TYPE(name, #type)

/*
 * A parameter @name of @type (the type names listed above) stored in the
 * variable of the same name. This and module_param_array() paste @type
 * themselves instead of passing it on to the _named form: an argument
 * passed on is macro-expanded first, and in userspace bool is <stdbool.h>'s
 * macro for _Bool (a typedef in the kernel). The _Bool names below catch
 * wrappers that expand it anyway.
 */
#define module_param(name, type, perm)					\
	param_check_##type(name, &(name));				\
	module_param_cb(name, &param_ops_##type, &name, perm);		\
	__MODULE_PARM_TYPE(name, #type)

#define module_param_unsafe(name, type, perm)				\
	param_check_##type(name, &(name));				\
	module_param_cb_unsafe(name, &param_ops_##type, &name, perm);	\
	__MODULE_PARM_TYPE(name, #type)

/* A string copied into the char array @string of @len bytes (too long:
 * -ENOSPC and a message). */
#define module_param_string(name, string, len, perm)			\
	static const struct kparam_string __param_string_##name		\
		= { len, string };					\
	__module_param_call(MODULE_PARAM_PREFIX, name,			\
			    &param_ops_string,				\
			    .str = &__param_string_##name, perm, -1, 0);\
	__MODULE_PARM_TYPE(name, "string")

/* A comma-separated list into @array (of @type elements); the count given
 * is stored in *@nump unless @nump is NULL. More values than the array
 * holds: -EINVAL and a message. */
#define module_param_array_named(name, array, type, nump, perm)	\
	param_check_##type(name, &(array)[0]);				\
	static const struct kparam_array __param_arr_##name		\
	= { .max = ARRAY_SIZE(array), .num = nump,			\
	    .ops = &param_ops_##type,					\
	    .elemsize = sizeof(array[0]), .elem = array };		\
	__module_param_call(MODULE_PARAM_PREFIX, name,			\
			    &param_array_ops,				\
			    .arr = &__param_arr_##name,			\
			    perm, -1, 0);				\
	__MODULE_PARM_TYPE(name, "array of " #type)

#define module_param_array(name, type, nump, perm)			\
	param_check_##type(name, &(name)[0]);				\
	static const struct kparam_array __param_arr_##name		\
	= { .max = ARRAY_SIZE(name), .num = nump,			\
	    .ops = &param_ops_##type,					\
	    .elemsize = sizeof(name[0]), .elem = name };		\
	__module_param_call(MODULE_PARAM_PREFIX, name,			\
			    &param_array_ops,				\
			    .arr = &__param_arr_##name,			\
			    perm, -1, 0);				\
	__MODULE_PARM_TYPE(name, "array of " #type)

/* Parameter locking serializes sysfs writers in the kernel; there are none. */
static inline void kernel_param_lock(struct module *mod) { (void)mod; }
static inline void kernel_param_unlock(struct module *mod) { (void)mod; }

typedef int (*parse_unknown_fn)(char *param, char *val, const char *doing, void *arg);
/**
 * parse_args() - parse module arguments against a table of parameters
 * @name: what the messages call the caller (the module's name)
 * @args: "name=value name2 name3=\"quoted value\" ..."; modified in place
 * @params: the parameters
 * @num: how many entries @params has
 * @level_min: entries whose level is below this are skipped
 * @level_max: entries whose level is above this are skipped
 * @arg: passed to @unknown
 * @unknown: called as unknown(param, val, doing, @arg) for a name that is
 *	not in @params; NULL: such a name fails with -ENOENT
 *
 * As the kernel parses a module's arguments: names compare with '-' and
 * '_' equal; "--" stops parsing. Each failure is printed (pr_err) prefixed
 * with @name: "Unknown parameter `x'", "`v' too large for parameter `x'"
 * (-ENOSPC), "`v' invalid for parameter `x'" (any other error), and
 * parsing goes on with the next argument.
 *
 * Context: process context (set() may allocate).
 * Return: NULL when all went well, the text after "--" if there was one,
 * or ERR_PTR() of the last failure.
 */
char *parse_args(const char *name, char *args, const struct kernel_param *params,
		 unsigned int num, s16 level_min, s16 level_max, void *arg,
		 parse_unknown_fn unknown);

/**
 * destroy_params() - free what the parameters' set() allocated
 * @params: the parameters
 * @num: how many
 *
 * Through each ops' free() (charp copies), as module unload does.
 *
 * Context: process context.
 */
void destroy_params(const struct kernel_param *params, unsigned int num);

/**
 * __PP_STD_PARAM() - declare a standard parameter type's ops and functions
 * @name: the type's name in module_param() (byte, short, ushort, int, uint,
 *	long, ulong, ullong, hexint, charp, bool, invbool, bint)
 * @type: its C type
 *
 * Declares param_ops_<name> and the ops' set and get:
 * int param_set_<name>(const char *val, const struct kernel_param *kp)
 * parses @val into the variable kp->arg points at, as kstrto*() (0;
 * -EINVAL for a missing value or one that is no number, -ERANGE for one
 * out of range; the bool types take a missing value as "1");
 * int param_get_<name>(char *buffer, const struct kernel_param *kp) prints
 * the value and a newline into @buffer (at most 4096 bytes) and returns
 * the length. Usable from your own kernel_param_ops. The kernel
 * declares each one by hand; this header expands the macro for each type
 * below.
 *
 * Context: process context.
 */
#define __PP_STD_PARAM(name, type)					\
	extern const struct kernel_param_ops param_ops_##name;		\
	int param_set_##name(const char *val, const struct kernel_param *kp); \
	int param_get_##name(char *buffer, const struct kernel_param *kp);

__PP_STD_PARAM(byte, unsigned char)
__PP_STD_PARAM(short, short)
__PP_STD_PARAM(ushort, unsigned short)
__PP_STD_PARAM(int, int)
__PP_STD_PARAM(uint, unsigned int)
__PP_STD_PARAM(long, long)
__PP_STD_PARAM(ulong, unsigned long)
__PP_STD_PARAM(ullong, unsigned long long)
__PP_STD_PARAM(hexint, unsigned int)
__PP_STD_PARAM(charp, char *)
__PP_STD_PARAM(bool, bool)
__PP_STD_PARAM(invbool, bool)
__PP_STD_PARAM(bint, int)

#define param_check_byte(name, p)	__param_check(name, p, unsigned char)
#define param_check_short(name, p)	__param_check(name, p, short)
#define param_check_ushort(name, p)	__param_check(name, p, unsigned short)
#define param_check_int(name, p)	__param_check(name, p, int)
#define param_check_uint(name, p)	__param_check(name, p, unsigned int)
#define param_check_long(name, p)	__param_check(name, p, long)
#define param_check_ulong(name, p)	__param_check(name, p, unsigned long)
#define param_check_ullong(name, p)	__param_check(name, p, unsigned long long)
#define param_check_hexint(name, p)	__param_check(name, p, unsigned int)
#define param_check_charp(name, p)	__param_check(name, p, char *)
#define param_check_bool(name, p)	__param_check(name, p, bool)
#define param_check_invbool(name, p)	__param_check(name, p, bool)
#define param_check_bint(name, p)	__param_check(name, p, int)
#define param_check_bool_enable_only	param_check_bool
#define param_check__Bool		param_check_bool
#define param_ops__Bool			param_ops_bool

/**
 * param_free_charp() - free a charp parameter's copy
 * @arg: the parameter's variable (a char *)
 *
 * The free() of param_ops_charp.
 *
 * Context: process context.
 */
void param_free_charp(void *arg);

/* bool that may be set but not cleared again (-EROFS). */
extern const struct kernel_param_ops param_ops_bool_enable_only;
/**
 * param_set_bool_enable_only() - set a bool that may not be cleared again
 * @val: the value
 * @kp: the parameter
 *
 * Context: process context.
 * Return: 0; -EROFS for clearing it once set; -EINVAL for a value that is
 * no bool.
 */
int param_set_bool_enable_only(const char *val, const struct kernel_param *kp);

/**
 * param_set_uint_minmax() - set a uint within bounds
 * @val: the value
 * @kp: the parameter
 * @min: the least value allowed
 * @max: the largest value allowed
 *
 * For your own ops' set().
 *
 * Context: process context.
 * Return: 0, or -EINVAL (no number, or outside @min..@max).
 */
int param_set_uint_minmax(const char *val, const struct kernel_param *kp,
			  unsigned int min, unsigned int max);

extern const struct kernel_param_ops param_array_ops;
extern const struct kernel_param_ops param_ops_string;
/**
 * param_set_copystring() - copy a value into a string parameter's buffer
 * @val: the value
 * @kp: the parameter (module_param_string())
 *
 * Context: process context.
 * Return: 0; -EINVAL for a missing value; -ENOSPC if it does not fit.
 */
int param_set_copystring(const char *val, const struct kernel_param *kp);
/**
 * param_get_string() - print a string parameter
 * @buffer: where it goes, with a newline
 * @kp: the parameter
 *
 * Context: process context.
 * Return: the length printed.
 */
int param_get_string(char *buffer, const struct kernel_param *kp);

#pragma GCC visibility pop
#endif /* _PP_LINUX_MODULEPARAM_H */
