/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * is_kernel_rodata() (<asm/sections.h>): the address is looked up in the
 * program headers of every loaded object (dl_iterate_phdr()).
 * Layer: runtime.
 */
#include <link.h>
#include <stdbool.h>
#include <stddef.h>

#include <asm/sections.h>

struct rodata_query {
	unsigned long addr;
	bool found;
};

static int rodata_visit(struct dl_phdr_info *info, size_t size, void *data)
{
	struct rodata_query *q = data;
	int i;

	(void)size;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		unsigned long start = info->dlpi_addr + ph->p_vaddr;
		bool readonly = (ph->p_type == PT_LOAD && !(ph->p_flags & PF_W)) ||
				ph->p_type == PT_GNU_RELRO;

		if (readonly && q->addr >= start && q->addr - start < ph->p_memsz) {
			q->found = true;
			return 1;
		}
	}
	return 0;
}

bool is_kernel_rodata(unsigned long addr)
{
	struct rodata_query q = { .addr = addr };

	dl_iterate_phdr(rodata_visit, &q);
	return q.found;
}
