/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/* A cross build's exe wrapper gives the guest the page size its cross file
 * says (tools/cross/: qemu-aarch64 -p 65536 for the 64 KiB layer): the
 * system page size the auxiliary vector, getpagesize() and sysconf()
 * report, and the alignment of mmap(). Usage: guest_page_size BYTES */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long want = argc > 1 ? strtol(argv[1], NULL, 0) : 0;
	long sc = sysconf(_SC_PAGESIZE);
	unsigned long aux = getauxval(AT_PAGESZ);
	int gp = getpagesize();
	int i, bad = 0;

	printf("want %ld: sysconf(_SC_PAGESIZE) %ld, getpagesize() %d, AT_PAGESZ %lu\n",
	       want, sc, gp, aux);
	if (want <= 0 || sc != want || gp != want || aux != (unsigned long)want)
		return 1;
	for (i = 0; i < 8; i++) {
		void *p = mmap(NULL, 1, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			return 1;
		if ((uintptr_t)p % (uintptr_t)want) {
			printf("mmap() returned %p, not %ld-aligned\n", p, want);
			bad = 1;
		}
	}
	return bad;
}
