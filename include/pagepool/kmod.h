/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * pagepool-kmod: run a kernel module's source as a program.
 *
 *   cc -o bench bench_page_pool_simple.c time_bench.c \
 *      $(pkg-config --cflags --libs pagepool-kmod)
 *   taskset -c 1 ./bench loops=1000000 run_flags=0xffffffff
 *
 * The library (libpagepool-kmod.a, static: it reads the program's own
 * __param and __pp_modinfo sections) supplies main(), which does what
 * insmod and rmmod make the kernel do:
 *
 *   1. Registers the calling thread as the CPU it runs on: the one CPU of
 *      its affinity mask when pinned (taskset -c N), else the CPU it is on
 *      at start; so smp_processor_id() says what the kernel would.
 *   2. Prints kernel messages (printk) on stdout, levels up to KERN_INFO
 *      (KERN_DEBUG too with PAGEPOOL_DEBUG=1), with no prefix of its own:
 *      a line carries the module name when the module's pr_fmt() puts it
 *      there, as in dmesg. The name is the module's KBUILD_MODNAME when it
 *      was compiled with -DKBUILD_MODNAME='"name"', else the program's name
 *      with '-' as '_' (kbuild's rule).
 *   3. Joins the arguments with spaces, as insmod does, and parses them
 *      against the module's module_param()s with the kernel's parse_args()
 *      (<linux/moduleparam.h>): name=value, "name" alone for bool, double
 *      quotes around values with spaces.
 *   4. Calls the module_init() function. Then runs the softirqs it raised
 *      on this CPU (tasklets it scheduled), as the kernel would once the
 *      loading task gives up the CPU.
 *   5. Calls the module_exit() function, as rmmod would, with softirqs run
 *      before and after it, and frees the parameters (charp copies).
 *
 * Exit status: 0 when the module loaded and unloaded; 1 when
 *   - a parameter was rejected: the kernel's message, prefixed with the
 *     module name ("bench: Unknown parameter `x'", "bench: `abc' invalid
 *     for parameter `loops'", also for a missing value: "`' invalid ..."),
 *     then insmod's line on stderr;
 *   - the init function returned -errno: insmod's line on stderr,
 *     "insmod: ERROR: could not insert module ./bench: <reason>", with
 *     insmod's wording for the errno (EINVAL "Invalid parameters", ENOENT
 *     "Unknown symbol in module", ENOEXEC, ESRCH, else strerror()); the
 *     exit function is not called, as the kernel does not call it;
 *   - after the exit function, a kthread of the module still runs or a
 *     tasklet is still queued (the kernel would run freed code): a warning
 *     says which.
 * A positive init result is warned about and treated as success, as the
 * kernel's do_init_module() does.
 *
 * Unknown parameters: insmod (kernel/module/main.c) accepts them and only
 * logs "<module>: unknown parameter 'x' ignored". Here they are rejected
 * with parse_args()'s own "Unknown parameter `x'" and exit status 1,
 * because a program's command line is where people type benchmark knobs
 * by hand: a misspelt loops= or run_flags= would otherwise run the whole
 * benchmark with the default and look like a result.
 *
 * --help (or -h) as the first argument prints the module's MODULE_*()
 * tags and parameters as modinfo does, and exits 0.
 * Layer: kmod (the module runner, above every library layer).
 */
#ifndef _PAGEPOOL_KMOD_H
#define _PAGEPOOL_KMOD_H

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Everything main() does (above), for a program with a main() of its own:
 * call it with main's arguments and return its result. Call it once, from
 * the thread that should be the module's loading task.
 */
int pp_kmod_main(int argc, char **argv);

#ifdef __cplusplus
}
#endif

#endif /* _PAGEPOOL_KMOD_H */
