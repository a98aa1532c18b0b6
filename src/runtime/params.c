/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Module parameters: parse_args() and the standard kernel_param_ops (see
 * <linux/moduleparam.h> for the behaviour).
 *
 * The messages are the kernel's, word for word, because people grep for
 * them and the kmod tests assert on them. The splitting of the argument
 * string follows the kernel's too (double quotes group, a quoted value
 * loses its quotes), since the module runner joins argv with spaces just
 * as insmod does before the kernel splits it again.
 *
 * charp values are strdup()ed; a value is freed on replacement only if we
 * allocated it (the default is often a string literal), so allocated
 * copies are remembered in a small list.
 */
#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/kstrtox.h>
#include <linux/moduleparam.h>
#include <linux/printk.h>

/* get() buffers are a page in the kernel. */
#define PARAM_GET_BUF	4096
/* param_set_charp()'s limit, the kernel's. */
#define CHARP_MAX_LEN	1024

static bool dash_eq_underscore(char a, char b)
{
	return a == b || ((a == '-' || a == '_') && (b == '-' || b == '_'));
}

/* Parameter names compare with '-' and '_' as the same character. */
static bool param_name_eq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (!dash_eq_underscore(*a, *b))
			return false;
	return *a == *b;
}

static char *skip_spaces(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

/*
 * Cut the next "param[=value]" off @args, in place. Double quotes protect
 * spaces; quotes around the value, or around the whole argument, are
 * dropped. Returns the rest of the string.
 */
static char *next_arg(char *args, char **param, char **val)
{
	bool in_quote = false, quoted = false;
	size_t i, eq = 0;

	if (*args == '"') {
		args++;
		in_quote = quoted = true;
	}
	for (i = 0; args[i]; i++) {
		if (isspace((unsigned char)args[i]) && !in_quote)
			break;
		if (!eq && args[i] == '=')
			eq = i;
		if (args[i] == '"')
			in_quote = !in_quote;
	}
	*param = args;
	*val = NULL;
	if (eq) {
		args[eq] = '\0';
		*val = args + eq + 1;
		if (**val == '"') {
			(*val)++;
			if (args[i - 1] == '"')
				args[i - 1] = '\0';
		}
	}
	if (quoted && i > 0 && args[i - 1] == '"')
		args[i - 1] = '\0';
	if (args[i]) {
		args[i] = '\0';
		return skip_spaces(args + i + 1);
	}
	return args + i;
}

static int parse_one(char *param, char *val, const char *doing,
		     const struct kernel_param *params, unsigned int num,
		     s16 level_min, s16 level_max, void *arg, parse_unknown_fn unknown)
{
	unsigned int i;

	for (i = 0; i < num; i++) {
		const struct kernel_param *kp = &params[i];

		if (!param_name_eq(param, kp->name))
			continue;
		if (kp->level < level_min || kp->level > level_max)
			return 0;
		/* No value given: only NOARG types (bool) handle that. */
		if (!val && !(kp->ops->flags & KERNEL_PARAM_OPS_FL_NOARG))
			return -EINVAL;
		if (kp->flags & KERNEL_PARAM_FL_UNSAFE)
			pr_notice("Setting dangerous option %s - tainting kernel\n", kp->name);
		return kp->ops->set(val, kp);
	}
	if (unknown)
		return unknown(param, val, doing, arg);
	return -ENOENT;
}

char *parse_args(const char *doing, char *args, const struct kernel_param *params,
		 unsigned int num, s16 level_min, s16 level_max, void *arg,
		 parse_unknown_fn unknown)
{
	char *param, *val, *err = NULL;

	args = skip_spaces(args);
	while (*args) {
		int ret;

		args = next_arg(args, &param, &val);
		if (!val && strcmp(param, "--") == 0)
			return err ? err : args;
		ret = parse_one(param, val, doing, params, num, level_min, level_max,
				arg, unknown);
		switch (ret) {
		case 0:
			continue;
		case -ENOENT:
			pr_err("%s: Unknown parameter `%s'\n", doing, param);
			break;
		case -ENOSPC:
			pr_err("%s: `%s' too large for parameter `%s'\n", doing,
			       val ? val : "", param);
			break;
		default:
			pr_err("%s: `%s' invalid for parameter `%s'\n", doing,
			       val ? val : "", param);
			break;
		}
		err = ERR_PTR(ret);
	}
	return err;
}

void destroy_params(const struct kernel_param *params, unsigned int num)
{
	unsigned int i;

	for (i = 0; i < num; i++)
		if (params[i].ops->free)
			params[i].ops->free(params[i].arg);
}

/* The integer types: kstrto*() into the variable, printf() out of it. */
#define STANDARD_PARAM(name, type, format, convert)			\
int param_set_##name(const char *val, const struct kernel_param *kp)	\
{									\
	if (!val)							\
		return -EINVAL;						\
	return convert(val, 0, (type *)kp->arg);			\
}									\
int param_get_##name(char *buffer, const struct kernel_param *kp)	\
{									\
	return snprintf(buffer, PARAM_GET_BUF, format "\n", *(type *)kp->arg); \
}									\
const struct kernel_param_ops param_ops_##name = {			\
	.set = param_set_##name,					\
	.get = param_get_##name,					\
}

STANDARD_PARAM(byte, unsigned char, "%hhu", kstrtou8);
STANDARD_PARAM(short, short, "%hi", kstrtos16);
STANDARD_PARAM(ushort, unsigned short, "%hu", kstrtou16);
STANDARD_PARAM(int, int, "%i", kstrtoint);
STANDARD_PARAM(uint, unsigned int, "%u", kstrtouint);
STANDARD_PARAM(long, long, "%li", kstrtol);
STANDARD_PARAM(ulong, unsigned long, "%lu", kstrtoul);
STANDARD_PARAM(ullong, unsigned long long, "%llu", kstrtoull);
STANDARD_PARAM(hexint, unsigned int, "%#08x", kstrtouint);

int param_set_uint_minmax(const char *val, const struct kernel_param *kp,
			  unsigned int min, unsigned int max)
{
	unsigned int v;
	int ret;

	if (!val)
		return -EINVAL;
	ret = kstrtouint(val, 0, &v);
	if (ret)
		return ret;
	if (v < min || v > max)
		return -EINVAL;
	*(unsigned int *)kp->arg = v;
	return 0;
}

/* charp copies we made, so that only those are ever freed. */
struct charp_copy {
	struct charp_copy *next;
	char str[];
};

static pthread_mutex_t charp_lock = PTHREAD_MUTEX_INITIALIZER;
static struct charp_copy *charp_copies;

static char *charp_dup(const char *val, size_t len)
{
	struct charp_copy *c = malloc(sizeof(*c) + len + 1);

	if (!c)
		return NULL;
	memcpy(c->str, val, len + 1);
	pthread_mutex_lock(&charp_lock);
	c->next = charp_copies;
	charp_copies = c;
	pthread_mutex_unlock(&charp_lock);
	return c->str;
}

static void charp_release(char *str)
{
	struct charp_copy **pp, *c;

	if (!str)
		return;
	pthread_mutex_lock(&charp_lock);
	for (pp = &charp_copies; (c = *pp); pp = &c->next) {
		if (c->str == str) {
			*pp = c->next;
			free(c);
			break;
		}
	}
	pthread_mutex_unlock(&charp_lock);
}

int param_set_charp(const char *val, const struct kernel_param *kp)
{
	size_t len;
	char *copy;

	if (!val)
		return -EINVAL;
	len = strnlen(val, CHARP_MAX_LEN + 1);
	if (len > CHARP_MAX_LEN) {
		pr_err("%s: string parameter too long\n", kp->name);
		return -ENOSPC;
	}
	copy = charp_dup(val, len);
	if (!copy)
		return -ENOMEM;
	charp_release(*(char **)kp->arg);
	*(char **)kp->arg = copy;
	return 0;
}

int param_get_charp(char *buffer, const struct kernel_param *kp)
{
	const char *s = *(char **)kp->arg;

	return snprintf(buffer, PARAM_GET_BUF, "%s\n", s ? s : "(null)");
}

void param_free_charp(void *arg)
{
	char **p = arg;

	charp_release(*p);
	/* Leave nothing dangling: the kernel frees the module with it. */
	*p = NULL;
}

const struct kernel_param_ops param_ops_charp = {
	.set = param_set_charp,
	.get = param_get_charp,
	.free = param_free_charp,
};

int param_set_bool(const char *val, const struct kernel_param *kp)
{
	/* "name" alone means "name=1". */
	return kstrtobool(val ? val : "1", (bool *)kp->arg);
}

int param_get_bool(char *buffer, const struct kernel_param *kp)
{
	return snprintf(buffer, PARAM_GET_BUF, "%c\n", *(bool *)kp->arg ? 'Y' : 'N');
}

const struct kernel_param_ops param_ops_bool = {
	.flags = KERNEL_PARAM_OPS_FL_NOARG,
	.set = param_set_bool,
	.get = param_get_bool,
};

int param_set_bool_enable_only(const char *val, const struct kernel_param *kp)
{
	bool v;
	int ret = kstrtobool(val ? val : "1", &v);

	if (ret)
		return ret;
	if (!v && *(bool *)kp->arg)
		return -EROFS;
	if (v)
		*(bool *)kp->arg = true;
	return 0;
}

const struct kernel_param_ops param_ops_bool_enable_only = {
	.flags = KERNEL_PARAM_OPS_FL_NOARG,
	.set = param_set_bool_enable_only,
	.get = param_get_bool,
};

/* invbool has no NOARG flag in the kernel either: it needs a value. */
int param_set_invbool(const char *val, const struct kernel_param *kp)
{
	bool v;
	int ret = kstrtobool(val ? val : "1", &v);

	if (ret == 0)
		*(bool *)kp->arg = !v;
	return ret;
}

int param_get_invbool(char *buffer, const struct kernel_param *kp)
{
	return snprintf(buffer, PARAM_GET_BUF, "%c\n", *(bool *)kp->arg ? 'N' : 'Y');
}

const struct kernel_param_ops param_ops_invbool = {
	.set = param_set_invbool,
	.get = param_get_invbool,
};

/* An int that is set as a bool is set. */
int param_set_bint(const char *val, const struct kernel_param *kp)
{
	bool v;
	int ret = kstrtobool(val ? val : "1", &v);

	if (ret == 0)
		*(int *)kp->arg = v;
	return ret;
}

int param_get_bint(char *buffer, const struct kernel_param *kp)
{
	return param_get_int(buffer, kp);
}

const struct kernel_param_ops param_ops_bint = {
	.flags = KERNEL_PARAM_OPS_FL_NOARG,
	.set = param_set_bint,
	.get = param_get_bint,
};

/*
 * Arrays: each comma-separated piece goes through the element type's set()
 * with a kernel_param that points at the element. Like the kernel, this
 * cuts @val at its commas in place (@val points into the argument string
 * parse_args() owns), which is why a failure message names only the first
 * element: "`1' invalid for parameter `vals'".
 */
static int param_array_set(const char *val, const struct kernel_param *kp)
{
	const struct kparam_array *arr = kp->arr;
	struct kernel_param elem = *kp;
	char *piece = (char *)val;
	unsigned int n = 0;
	bool more;
	int ret = 0;

	if (!val)
		return -EINVAL;
	elem.arg = arr->elem;
	do {
		size_t len = strcspn(piece, ",");

		if (n == arr->max) {
			pr_err("%s: can only take %i arguments\n", kp->name, (int)arr->max);
			ret = -EINVAL;
			break;
		}
		more = piece[len] == ',';
		piece[len] = '\0';
		ret = arr->ops->set(piece, &elem);
		if (ret)
			break;
		elem.arg = (char *)elem.arg + arr->elemsize;
		piece += len + 1;
		n++;
	} while (more);
	/* The count is stored however far it got, as in the kernel. */
	if (arr->num)
		*arr->num = n;
	return ret;
}

static int param_array_get(char *buffer, const struct kernel_param *kp)
{
	const struct kparam_array *arr = kp->arr;
	struct kernel_param elem = *kp;
	unsigned int i, n = arr->num ? *arr->num : arr->max;
	int off = 0;

	for (i = 0; i < n; i++) {
		int ret;

		if (i)
			buffer[off - 1] = ',';	/* the element's newline */
		elem.arg = (char *)arr->elem + (size_t)arr->elemsize * i;
		ret = arr->ops->get(buffer + off, &elem);
		if (ret < 0)
			return ret;
		off += ret;
	}
	buffer[off] = '\0';
	return off;
}

static void param_array_free(void *arg)
{
	const struct kparam_array *arr = arg;
	unsigned int i, n = arr->num ? *arr->num : arr->max;

	if (arr->ops->free)
		for (i = 0; i < n; i++)
			arr->ops->free((char *)arr->elem + (size_t)arr->elemsize * i);
}

const struct kernel_param_ops param_array_ops = {
	.set = param_array_set,
	.get = param_array_get,
	.free = param_array_free,
};

int param_set_copystring(const char *val, const struct kernel_param *kp)
{
	const struct kparam_string *kps = kp->str;

	if (!val)
		return -EINVAL;
	if (strnlen(val, kps->maxlen) == kps->maxlen) {
		pr_err("%s: string doesn't fit in %u chars.\n", kp->name, kps->maxlen - 1);
		return -ENOSPC;
	}
	strcpy(kps->string, val);
	return 0;
}

int param_get_string(char *buffer, const struct kernel_param *kp)
{
	return snprintf(buffer, PARAM_GET_BUF, "%s\n", kp->str->string);
}

const struct kernel_param_ops param_ops_string = {
	.set = param_set_copystring,
	.get = param_get_string,
};
